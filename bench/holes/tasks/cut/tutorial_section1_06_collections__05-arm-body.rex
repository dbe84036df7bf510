match [1, 2, 3]
  when [] -> 0
  when [x] -> x
  when x::xs -> ?
