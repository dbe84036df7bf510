{- A first Rex program: a typed function, a local binding and a map over a list. -}

fn double : i32 -> i32 = \n -> n * 2

let
  numbers = [1, 2, 3, 4]
in
  map double numbers
