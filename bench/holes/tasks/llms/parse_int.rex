fn parse_i32 : string -> Result i32 string = \s ->
  if s == "42" then Ok 42 else Err "bad-int"

fn plus1 : i32 -> i32 = \n -> n + 1

let input = "42" in
let out : Result i32 string = ? in
out
