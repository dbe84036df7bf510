let
  x: i32 = -3,
  f: i32 -> i32 = ?
in
  f x
