ap (ap (pure (\x y -> ? + y)) (Some 1)) (Some 2)
