fn inc : i32 -> i32 = ?

let
  xs = [1, 2, 3]
in
  map inc xs
