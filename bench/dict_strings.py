def key(i):
    return "user-" + str((i * 7919) % 10007) + "/id"


d = {}
for i in range(20000):
    k = key(i)
    d[k] = d.get(k, 0) + i % 10

hits, total = 0, 0
for j in range(20000):
    v = d.get("user-" + str((j * 3) % 12000) + "/id")
    if v is not None:
        hits += 1
        total += v

print(f'({len(d)}, {hits}, {total}, "{max(d)}")')
