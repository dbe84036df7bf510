
fn todo_eq : Todo -> Todo -> bool = \a b -> a.id == b.id && a.title == b.title && a.done == b.done

fn todos_eq : List Todo -> List Todo -> bool = \xs ys ->
  match (xs, ys)
    when ([], []) -> true
    when (x::xt, y::yt) -> todo_eq x y && todos_eq xt yt
    when _ -> false

fn filter_eq : Filter -> Filter -> bool = \a b ->
  match (a, b)
    when (All, All) -> true
    when (Active, Active) -> true
    when (Completed, Completed) -> true
    when _ -> false

fn model_eq : Model -> Model -> bool = \a b ->
  todos_eq a.todos b.todos && a.draft == b.draft && a.next_id == b.next_id
    && filter_eq a.filter b.filter

fn run : Model -> List Action -> Model = \model actions -> foldl update model actions

let
  empty = Model { todos = [], draft = "", next_id = 1, filter = All },
  milk = Todo { id = 1, title = "milk", done = false },
  eggs = Todo { id = 2, title = "eggs", done = false },
  two = Model { todos = [milk, eggs], draft = "", next_id = 3, filter = All }
in
[ model_eq (update empty (SetDraft { text = "milk" }))
    (Model { todos = [], draft = "milk", next_id = 1, filter = All })
, model_eq (run empty [SetDraft { text = "milk" }, AddTodo])
    (Model { todos = [milk], draft = "", next_id = 2, filter = All })
, model_eq (run empty [SetDraft { text = "milk" }, AddTodo, SetDraft { text = "eggs" }, AddTodo]) two
, model_eq (update empty AddTodo) empty
, model_eq (update two (Toggle { id = 2 }))
    (Model { todos = [milk, { eggs with { done = true } }], draft = "", next_id = 3, filter = All })
, model_eq (run two [Toggle { id = 2 }, Toggle { id = 2 }]) two
, model_eq (update two (Toggle { id = 9 })) two
, model_eq (update two (Remove { id = 1 }))
    (Model { todos = [eggs], draft = "", next_id = 3, filter = All })
, model_eq (update two (Remove { id = 7 })) two
, model_eq (update two (SetFilter { filter = Completed }))
    (Model { todos = [milk, eggs], draft = "", next_id = 3, filter = Completed })
, model_eq (run two [Toggle { id = 1 }, ClearCompleted])
    (Model { todos = [eggs], draft = "", next_id = 3, filter = All })
, model_eq (update two ClearCompleted) two
, model_eq (run two [Remove { id = 2 }, SetDraft { text = "tea" }, AddTodo])
    (Model { todos = [milk, Todo { id = 3, title = "tea", done = false }], draft = "", next_id = 4, filter = All })
, model_eq (run empty [SetDraft { text = "a" }, SetDraft { text = "b" }])
    (Model { todos = [], draft = "b", next_id = 1, filter = All })
]
