{- A to-do list in the model-view-update style. -}

type Filter = All | Active | Completed

type Todo = Todo { id: i32, title: string, done: bool }

type Model = Model { todos: List Todo, draft: string, next_id: i32, filter: Filter }

type Action =
  SetDraft { text: string }
  | AddTodo
  | Toggle { id: i32 }
  | Remove { id: i32 }
  | SetFilter { filter: Filter }
  | ClearCompleted

fn new_todo : i32 -> string -> Todo = \id title ->
  Todo { id = id, title = title, done = false }

fn push : Todo -> List Todo -> List Todo = \todo todos -> foldr Cons [todo] todos

fn flip_done : i32 -> Todo -> Todo = \id todo ->
  if todo.id == id then { todo with { done = if todo.done then false else true } } else todo

fn is_active : Todo -> bool = \todo -> if todo.done then false else true

fn visible : Model -> List Todo = \model ->
  match model.filter
    when All -> model.todos
    when Active -> filter is_active model.todos
    when Completed -> filter (\t -> t.done) model.todos

fn remaining : Model -> i32 = \model -> count (filter is_active model.todos)

fn summary : Model -> string = \model -> show (remaining model) + " items left"

fn shout : Todo -> Todo = \todo -> { todo with { title = todo.title + "!" } }

{- SetDraft replaces the draft. AddTodo appends a new todo whose title is the draft and
   whose id is next_id, then clears the draft and increments next_id; with an empty draft
   it does nothing. Toggle flips the done flag of the todo with that id, Remove deletes it.
   SetFilter sets the filter. ClearCompleted deletes every done todo. -}
fn update : Model -> Action -> Model = \model action -> ?
