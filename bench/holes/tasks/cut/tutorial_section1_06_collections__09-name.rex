type R = R { a: i32, b: i32 }

let r: R = R { a = 1, b = 2 } in ?.a
