fn even : i32 -> bool = \n ->
  if n == 0 then true else odd ?

fn odd : i32 -> bool = \n ->
  if n == 0 then false else even (n - 1)

even 10
