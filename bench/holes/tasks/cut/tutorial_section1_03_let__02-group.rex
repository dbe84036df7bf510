let
  inc = \x -> x + 1,
  double = \x -> x * 2
in
  double ?
