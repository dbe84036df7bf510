"""dict_strings.rex's algorithm on its data structure: the same string-keyed binary
search tree (`(key, value, left, right)` tuples, `None` for a leaf), inserted into and
searched as the Rex program does, for comparing the two interpreters rather than a
search tree with a hash table (`bench/dict_strings.py` is the idiomatic version, on
Python's `dict`)."""

import sys

sys.setrecursionlimit(100000)


def insert(k, v, t):
    if t is None:
        return (k, v, None, None)
    k2, v2, left, right = t
    if k < k2:
        return (k2, v2, insert(k, v, left), right)
    if k2 < k:
        return (k2, v2, left, insert(k, v, right))
    return (k2, v2 + v, left, right)


def lookup(k, t):
    while t is not None:
        k2, v, left, right = t
        if k < k2:
            t = left
        elif k2 < k:
            t = right
        else:
            return v
    return None


def size(t):
    if t is None:
        return 0
    return size(t[2]) + 1 + size(t[3])


def largest(t):
    while t[3] is not None:
        t = t[3]
    return t[0]


def key(i):
    return "user-" + str((i * 7919) % 10007) + "/id"


def probe(j):
    return "user-" + str((j * 3) % 12000) + "/id"


t = None
for i in range(20000):
    t = insert(key(i), i % 10, t)

hits, total = 0, 0
for j in range(20000):
    v = lookup(probe(j), t)
    if v is not None:
        hits += 1
        total += v

print(f'({size(t)}, {hits}, {total}, "{largest(t)}")')
