{- map, filter and fold over a 200,000-element list. -}
fn range : i32 -> List i32 = \n ->
  let rec go = \k acc -> if k == 0 then acc else go (k - 1) (Cons k acc)
  in go n Empty

let
  xs = range 200000,
  scaled = map (\x -> (x * 7) % 1000) xs,
  even = filter (\x -> x % 2 == 0) scaled
in
  (count even, foldl (\acc x -> acc + x) 0 even)
