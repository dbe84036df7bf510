import sys

sys.setrecursionlimit(100000)


def numbers(n, seed):
    out, x = [], seed
    for _ in range(n):
        out.append(x)
        x = (x * 1103 + 12345) % 65536
    out.reverse()
    return out


def merge(xs, ys):
    out, i, j = [], 0, 0
    while i < len(xs) and j < len(ys):
        if xs[i] <= ys[j]:
            out.append(xs[i])
            i += 1
        else:
            out.append(ys[j])
            j += 1
    out.extend(xs[i:])
    out.extend(ys[j:])
    return out


def msort(xs):
    if len(xs) <= 1:
        return xs
    return merge(msort(xs[0::2]), msort(xs[1::2]))


ints = msort(numbers(20000, 42))
strings = msort(["k" + str(n) for n in numbers(20000, 7)])
print(f'({len(ints)}, {ints[0]}, {ints[-1]}, {len(strings)}, "{strings[0]}", "{strings[-1]}")')
