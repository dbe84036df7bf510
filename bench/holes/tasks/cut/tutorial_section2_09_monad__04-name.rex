bind (\x ->
  bind (\y ->
    pure (? + y)
  ) (Some 2)
) (Some 1)
