let x = 10 in
  if ? < 0 then "neg" else "non-neg"
