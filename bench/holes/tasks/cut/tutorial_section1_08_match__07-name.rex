type Bit = T | F

let v = T in
match ?
  when T → 1
  when F -> 0
