let
  x = 4,
  f: u8 -> u8 = ?
in
  f x
