match [1, 2, 3]
  when Empty -> 0
  when Cons h t -> ?
