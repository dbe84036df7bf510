{- Naive doubly recursive Fibonacci: calls and integer arithmetic. -}
fn fib : i32 -> i32 = \n -> if n < 2 then n else fib (n - 1) + fib (n - 2)

fib 27
