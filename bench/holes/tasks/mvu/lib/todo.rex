{- A to-do list in the model-view-update style: its model, actions and helpers (the
   app's `update` is in ../todo.rex). -}

pub type Filter = All | Active | Completed

pub type Todo = Todo { id: i32, title: string, done: bool }

pub type Model = Model { todos: List Todo, draft: string, next_id: i32, filter: Filter }

pub type Action =
  SetDraft { text: string }
  | AddTodo
  | Toggle { id: i32 }
  | Remove { id: i32 }
  | SetFilter { filter: Filter }
  | ClearCompleted

pub fn new_todo : i32 -> string -> Todo = \id title ->
  Todo { id = id, title = title, done = false }

pub fn push : Todo -> List Todo -> List Todo = \todo todos -> foldr Cons [todo] todos

pub fn flip_done : i32 -> Todo -> Todo = \id todo ->
  if todo.id == id then { todo with { done = if todo.done then false else true } } else todo

pub fn is_active : Todo -> bool = \todo -> if todo.done then false else true

pub fn visible : Model -> List Todo = \model ->
  match model.filter
    when All -> model.todos
    when Active -> filter is_active model.todos
    when Completed -> filter (\t -> t.done) model.todos

pub fn remaining : Model -> i32 = \model -> count (filter is_active model.todos)

pub fn summary : Model -> string = \model -> show (remaining model) + " items left"

pub fn shout : Todo -> Todo = \todo -> { todo with { title = todo.title + "!" } }
