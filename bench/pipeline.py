from functools import reduce

xs = list(range(1, 200001))
scaled = list(map(lambda x: (x * 7) % 1000, xs))
even = list(filter(lambda x: x % 2 == 0, scaled))
print((len(even), reduce(lambda acc, x: acc + x, even, 0)))
