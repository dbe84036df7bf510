type Sum = A { x: i32 } | B { x: i32 }

let s: Sum = A { x = 1 } in
match s
  when A {x} -> ?
  when B {x} -> { s with { x = x + 2 } }
