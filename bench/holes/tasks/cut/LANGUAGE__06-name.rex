let
  x = 1 + 2,
  y = 3
in
  ? * y
