match (Some 1)
  when Some x -> ?
  when None -> 0
