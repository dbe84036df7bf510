{- A user's own higher-order function: a recursive `my_map` (not the prelude's `map`)
   applied with two lambdas over a 100,000-element list, then a fold whose lambda
   captures a local. -}
fn my_map : (i32 -> i32) -> List i32 -> List i32 = \f xs ->
  match xs
    when Empty -> Empty
    when Cons x rest -> Cons (f x) (my_map f rest)

fn range : i32 -> List i32 = \n ->
  let rec go = \k acc -> if k == 0 then acc else go (k - 1) (Cons k acc)
  in go n Empty

let
  k = 3,
  xs = range 100000,
  ys = my_map (\x -> x * k + 1) xs,
  zs = my_map (\x -> x % 7) ys
in
  (foldl (\acc x -> acc + x * k) 0 zs, count ys)
