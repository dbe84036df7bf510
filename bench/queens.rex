{- Counts the solutions of the 8-queens problem by backtracking. -}
fn safe : i32 -> i32 -> List i32 -> bool = \q d qs ->
  match qs
    when Empty -> true
    when Cons c rest -> if c == q || c == q + d || c == q - d then false else safe q (d + 1) rest

fn place : i32 -> i32 -> List i32 -> i32 = \n row qs ->
  if row == n then 1 else
    let rec columns = \c acc ->
      if c == n then acc
      else columns (c + 1) (if safe c 1 qs then acc + place n (row + 1) (Cons c qs) else acc)
    in columns 0 0

place 8 0 Empty
