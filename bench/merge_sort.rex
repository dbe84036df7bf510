{- Merge sort of 20,000 pseudo-random integers (a linear congruential generator). -}
fn numbers : i32 -> i32 -> List i32 = \n seed ->
  let rec go = \k x acc -> if k == 0 then acc else go (k - 1) ((x * 1103 + 12345) % 65536) (Cons x acc)
  in go n seed Empty

fn split : List i32 -> (List i32, List i32) = \xs ->
  match xs
    when Cons a (Cons b rest) -> (match (split rest) when (l, r) -> (Cons a l, Cons b r))
    when _ -> (xs, Empty)

fn merge : List i32 -> List i32 -> List i32 = \xs ys ->
  match (xs, ys)
    when (Empty, _) -> ys
    when (_, Empty) -> xs
    when (Cons x xt, Cons y yt) -> if x <= y then Cons x (merge xt ys) else Cons y (merge xs yt)

fn msort : List i32 -> List i32 = \xs ->
  match xs
    when Empty -> xs
    when Cons _ Empty -> xs
    when _ -> (match (split xs) when (l, r) -> merge (msort l) (msort r))

let sorted = msort (numbers 20000 42) in
(count sorted, get 0 sorted, get 19999 sorted)
