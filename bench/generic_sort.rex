{- A generic merge sort (`where Ord a`), as a library would write it, used at two types:
   20,000 pseudo-random integers and 20,000 strings made from them. The integers are
   those of `merge_sort.rex`. -}
fn numbers : i32 -> i32 -> List i32 = \n seed ->
  let rec go = \k x acc -> if k == 0 then acc else go (k - 1) ((x * 1103 + 12345) % 65536) (Cons x acc)
  in go n seed Empty

fn split : List a -> (List a, List a) = \xs ->
  match xs
    when Cons a (Cons b rest) -> (match (split rest) when (l, r) -> (Cons a l, Cons b r))
    when _ -> (xs, Empty)

fn merge : List a -> List a -> List a where Ord a = \xs ys ->
  match (xs, ys)
    when (Empty, _) -> ys
    when (_, Empty) -> xs
    when (Cons x xt, Cons y yt) -> if x <= y then Cons x (merge xt ys) else Cons y (merge xs yt)

fn msort : List a -> List a where Ord a = \xs ->
  match xs
    when Empty -> xs
    when Cons _ Empty -> xs
    when _ -> (match (split xs) when (l, r) -> merge (msort l) (msort r))

let
  ints = msort (numbers 20000 42),
  strings = msort (map (\n -> "k" + show n) (numbers 20000 7))
in
  (count ints, get 0 ints, get 19999 ints, count strings, get 0 strings, get 19999 strings)
