let
  x = 4,
  f: u16 -> u16 = ?
in
  f x
