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


s = msort(numbers(20000, 42))
print((len(s), s[0], s[-1]))
