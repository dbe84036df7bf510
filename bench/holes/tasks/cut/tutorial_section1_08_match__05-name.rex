type Point = Point { x: i32, y: i32 }

let p = Point { x = 1, y = 2 } in
match ?
  when Point { x: x, y: y } -> x + y
