"""merge_sort.rex's algorithm on its data structure: a merge sort of linked cells
(`(head, tail)` pairs, `None` for the empty list), split and merged recursively as the
Rex program does, for comparing the two interpreters rather than their list types
(`bench/merge_sort.py` is the idiomatic version, on Python's arrays)."""

import sys

sys.setrecursionlimit(100000)


def numbers(n, seed):
    acc, x = None, seed
    for _ in range(n):
        acc = (x, acc)
        x = (x * 1103 + 12345) % 65536
    return acc


def split(xs):
    if xs is not None and xs[1] is not None:
        a, (b, rest) = xs[0], xs[1]
        left, right = split(rest)
        return (a, left), (b, right)
    return xs, None


def merge(xs, ys):
    if xs is None:
        return ys
    if ys is None:
        return xs
    (x, xt), (y, yt) = xs, ys
    if x <= y:
        return (x, merge(xt, ys))
    return (y, merge(xs, yt))


def msort(xs):
    if xs is None or xs[1] is None:
        return xs
    left, right = split(xs)
    return merge(msort(left), msort(right))


def count(xs):
    n = 0
    while xs is not None:
        n, xs = n + 1, xs[1]
    return n


def get(i, xs):
    while i > 0:
        i, xs = i - 1, xs[1]
    return xs[0]


s = msort(numbers(20000, 42))
print((count(s), get(0, s), get(19999, s)))
