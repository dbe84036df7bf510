"""fold_option.rex as a Python user writes it: a loop over the numbers with `None` for a
stopped computation, then a filtered count."""


def step(acc, x):
    if acc is None:
        return None
    return acc + 1 if x % 1000 == 0 else acc + x % 7


def keep(x):
    return x % 3 != 0 if x % 5 == 0 else False


acc = 0
for x in range(1, 200001):
    acc = step(acc, x)
print(f"(Some {acc}, {sum(1 for x in range(1, 200001) if keep(x))})")
