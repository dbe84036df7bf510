let x = 1 + 2 in ? * 10
