match [1, 2, 3]
  when h::t -> ?
  when [] -> 0
