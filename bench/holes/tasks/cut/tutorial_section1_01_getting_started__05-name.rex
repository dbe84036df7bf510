let
  greet = \name -> "hello, " + ?
in
  greet "world"
