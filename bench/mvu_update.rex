{- An MVU-style `update` loop: 10,000 actions (from a linear congruential generator)
   folded over a model that holds a list of 20 records; each action is matched and
   rewrites the records it concerns with record updates. -}
type Item = Item { id: i32, count: i32, done: bool, total: i32 }

type Action = Increment i32 | Toggle i32 | AddAll i32 | Reset

type Model = Model { items: List Item, steps: i32 }

fn items : i32 -> List Item = \n ->
  let rec go = \k acc ->
    if k == 0 then acc
    else go (k - 1) (Cons (Item { id = k - 1, count = 0, done = false, total = 0 }) acc)
  in go n Empty

fn action : i32 -> Action = \x ->
  match (x % 4)
    when 0 -> Increment (x % 20)
    when 1 -> Toggle (x % 19)
    when 2 -> AddAll (x % 7)
    when _ -> (if x % 64 == 3 then Reset else Increment (x % 17))

fn actions : i32 -> i32 -> List Action = \n seed ->
  let rec go = \k x acc ->
    if k == 0 then acc else go (k - 1) ((x * 75 + 74) % 65537) (Cons (action x) acc)
  in go n seed Empty

fn update_item : Action -> Item -> Item = \msg it ->
  match it
    when Item {id, count, done, total} ->
      (match msg
        when Increment k -> if id == k then { it with { count = count + 1, total = total + 1 } } else it
        when Toggle k -> if id == k then { it with { done = not done } } else it
        when AddAll n -> if done then it else { it with { total = total + n } }
        when Reset -> { it with { count = 0 } })

fn update : Model -> Action -> Model = \model msg ->
  match model
    when Model {items, steps} -> Model { items = map (update_item msg) items, steps = steps + 1 }

fn not : bool -> bool = \b -> if b then false else true

fn summary : Model -> (i32, i32, i32, i32) = \model ->
  match model
    when Model {items, steps} ->
      ( steps
      , foldl (\acc it -> (match it when Item {count} -> acc + count)) 0 items
      , foldl (\acc it -> (match it when Item {done} -> if done then acc + 1 else acc)) 0 items
      , foldl (\acc it -> (match it when Item {total} -> acc + total)) 0 items
      )

let
  start = Model { items = items 20, steps = 0 },
  final = foldl update start (actions 10000 7)
in
  summary final
