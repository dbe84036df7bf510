match [1, 2]
  when [] -> 0
  when [x] -> x
  when [x, y] -> ?
  when _ -> 0
