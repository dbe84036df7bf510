{- A dictionary with string keys and string building: 20,000 insertions (keys made by
   concatenation, two per key, so half of them update a value) into a map, then 20,000
   look-ups, some missing. The prelude's `Dict` takes field labels as keys, so the
   map is a binary search tree ordered by string comparison, as a user writes one. -}
type Tree = Leaf | Node string i32 Tree Tree

fn insert : string -> i32 -> Tree -> Tree = \k v t ->
  match t
    when Leaf -> Node k v Leaf Leaf
    when Node k2 v2 l r ->
      if k < k2 then Node k2 v2 (insert k v l) r
      else if k2 < k then Node k2 v2 l (insert k v r)
      else Node k2 (v2 + v) l r

fn lookup : string -> Tree -> Option i32 = \k t ->
  match t
    when Leaf -> None
    when Node k2 v l r -> if k < k2 then lookup k l else if k2 < k then lookup k r else Some v

fn size : Tree -> i32 = \t ->
  match t
    when Leaf -> 0
    when Node _ _ l r -> size l + 1 + size r

fn largest : Tree -> string = \t ->
  match t
    when Leaf -> ""
    when Node k _ _ Leaf -> k
    when Node _ _ _ r -> largest r

fn key : i32 -> string = \i -> "user-" + show ((i * 7919) % 10007) + "/id"

fn probe : i32 -> string = \j -> "user-" + show ((j * 3) % 12000) + "/id"

fn build : i32 -> Tree = \n ->
  let rec go = \i t -> if i == n then t else go (i + 1) (insert (key i) (i % 10) t)
  in go 0 Leaf

fn query : i32 -> Tree -> (i32, i32) = \n t ->
  let rec go = \j hits total ->
    if j == n then (hits, total)
    else
      match (lookup (probe j) t)
        when Some v -> go (j + 1) (hits + 1) (total + v)
        when None -> go (j + 1) hits total
  in go 0 0 0

let
  t = build 20000,
  found = query 20000 t
in
  (size t, found.0, found.1, largest t)
