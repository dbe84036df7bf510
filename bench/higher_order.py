"""A user's own higher-order function, as a Python user writes it: `my_map` with a
list comprehension, applied with two lambdas over 100,000 elements, then a loop that
reads a captured local."""


def my_map(f, xs):
    return [f(x) for x in xs]


k = 3
xs = list(range(1, 100001))
ys = my_map(lambda x: x * k + 1, xs)
zs = my_map(lambda x: x % 7, ys)
acc = 0
for x in zs:
    acc += x * k
print((acc, len(ys)))
