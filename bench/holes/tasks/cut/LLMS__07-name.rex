type Tree = Empty | Node { key: i32, left: Tree, right: Tree }

let
  t0: Tree = Empty
in
  match ?
    when Empty -> 0
    when Node {key, left, right} -> key
