let
  x = 1,
  y = 2
in
  ? + y
