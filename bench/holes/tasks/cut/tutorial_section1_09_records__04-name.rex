type Point = Point { x: i32, y: i32 }

let p: Point = Point { x = 1, y = 2 } in
  { ? with { x = 100, y = 200 } }
