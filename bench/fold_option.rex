{- The prelude's loops calling a user's named function on each element: a `foldl` of a
   step over an `Option` accumulator (a computation that may stop) across 200,000
   numbers, then a `filter` and a `count`. -}
fn range : i32 -> List i32 = \n ->
  let rec go = \k acc -> if k == 0 then acc else go (k - 1) (Cons k acc)
  in go n Empty

fn step : Option i32 -> i32 -> Option i32 = \acc x ->
  match acc
    when None -> None
    when Some v -> if x % 1000 == 0 then Some (v + 1) else Some (v + x % 7)

fn keep : i32 -> bool = \x -> if x % 5 == 0 then x % 3 != 0 else false

let xs = range 200000 in (foldl step (Some 0) xs, count (filter keep xs))
