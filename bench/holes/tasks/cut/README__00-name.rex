let
  values = [3, 12, 7, 20, 15, 4],
  selected = filter (\n -> ? >= 10) values,
  adjusted = map (\n -> n - 2) selected,
  total = foldl (\acc n -> acc + n) 0 adjusted
in
  (values, selected, adjusted, total)
