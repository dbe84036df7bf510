let d = ({ a = 1, b = 2 }) is Dict i32 in
match d
  when {a, b} -> ?
  when {a} -> a
  when {} -> 0
