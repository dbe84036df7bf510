from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Item:
    id: int
    count: int
    done: bool
    total: int


@dataclass(frozen=True)
class Model:
    items: list
    steps: int


def action(x):
    r = x % 4
    if r == 0:
        return ("increment", x % 20)
    if r == 1:
        return ("toggle", x % 19)
    if r == 2:
        return ("add_all", x % 7)
    return ("reset", 0) if x % 64 == 3 else ("increment", x % 17)


def actions(n, seed):
    out, x = [], seed
    for _ in range(n):
        out.append(action(x))
        x = (x * 75 + 74) % 65537
    out.reverse()
    return out


def update_item(msg, it):
    kind, k = msg
    if kind == "increment":
        return replace(it, count=it.count + 1, total=it.total + 1) if it.id == k else it
    if kind == "toggle":
        return replace(it, done=not it.done) if it.id == k else it
    if kind == "add_all":
        return it if it.done else replace(it, total=it.total + k)
    return replace(it, count=0)


def update(model, msg):
    return Model(items=[update_item(msg, it) for it in model.items], steps=model.steps + 1)


model = Model(items=[Item(id=k, count=0, done=False, total=0) for k in range(20)], steps=0)
for msg in actions(10000, 7):
    model = update(model, msg)
print(
    (
        model.steps,
        sum(it.count for it in model.items),
        sum(1 for it in model.items if it.done),
        sum(it.total for it in model.items),
    )
)
