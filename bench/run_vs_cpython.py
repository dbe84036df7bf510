#!/usr/bin/env python3
"""`rex run` against CPython on the same algorithms, side by side.

Usage: bench/run_vs_cpython.py [--rex PATH] [--python PATH] [--runs N] [--instructions]

Each workload is `bench/NAME.rex` with its twin `bench/NAME.py`. Both run as whole
processes (start-up included: checking the prelude for rex, the interpreter for python),
`--runs` times each, taking turns (rex, then each twin, then rex again), so that a change
in the machine's load falls on both sides alike; the best wall time and the best CPU time
count. The `py/rex` columns are python time / rex time: above 1 means rex is faster. The
outputs must agree (rex prints typed values, so the suffixes are removed before
comparing). Machines are noisy: read ratios, not times.

Both sides are whole processes, so a ratio depends on the interpreter's start-up as
much as on its speed: `--python` names the CPython to compare with (the one running this
script by default). Builds differ widely: on one machine Debian's `/usr/bin/python3`
(3.11.2) starts in 11 ms, where a pyenv 3.11.7 whose site-packages hold `.pth` files
starts in 42 ms and runs the same loops about 20% slower. The header names the
interpreter and the first row, `(start-up)`, times a program that prints one number, so
that each ratio can be read with the start-up it includes; quote ratios with the
interpreter they were measured against.

`--instructions` also counts the instructions each process executes (valgrind's
cachegrind, one run each): a count does not drift with the machine's load, so it
compares two builds of rex (or rex and python) where CPU times on a busy machine do not.
It does not see cache misses, which a CPU time does.

Where the idiomatic Python twin leans on a container written in C (`merge_sort.py`
slices arrays, `dict_strings.py` uses a `dict`), `bench/same/NAME.py` runs the Rex
program's own algorithm on its own data structure (linked cells, a search tree): its
row, `NAME (same)`, compares the two interpreters on the same work, against the same
rex run.
"""

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

WORKLOADS = [
    "fib",
    "merge_sort",
    "queens",
    "pipeline",
    "mvu_update",
    "dict_strings",
    "higher_order",
    "generic_sort",
    "fold_option",
]
HERE = os.path.dirname(os.path.abspath(__file__))


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(cmd):
    """Wall time and CPU time (user + system) of one run, and its output."""
    cpu0, start = children_cpu(), time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True)
    wall, cpu = time.perf_counter() - start, children_cpu() - cpu0
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stderr}")
    return wall, cpu, done.stdout.strip()


def best_times(cmds, runs):
    """For each command: its best wall time, best CPU time and output over `runs` rounds,
    each round running every command once, in turn."""
    best = [(float("inf"), float("inf"), None) for _ in cmds]
    for _ in range(runs):
        for i, cmd in enumerate(cmds):
            wall, cpu, out = run_once(cmd)
            best[i] = (min(best[i][0], wall), min(best[i][1], cpu), out)
    return best


def instructions(cmd):
    """Instructions the whole process executes (cachegrind's `I refs`), or None."""
    done = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]
        + cmd,
        capture_output=True,
        text=True,
    )
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    return int(found.group(1).replace(",", "")) if done.returncode == 0 and found else None


def untyped(rex_output):
    """`(20000i32, 10i32)` -> `(20000, 10)`, to compare with Python's printing."""
    return re.sub(r"(-?\d+(?:\.\d+)?)(?:i8|i16|i32|i64|u8|u16|u32|u64|f32|f64)", r"\1", rex_output)


def main():
    default_rex = os.path.join(HERE, "..", "target", "release", "rex")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rex", default=os.environ.get("REX", default_rex))
    parser.add_argument("--python", default=sys.executable, help="the CPython to compare with")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--instructions", action="store_true", help="also count instructions (needs valgrind)"
    )
    args = parser.parse_args()
    if args.instructions and shutil.which("valgrind") is None:
        sys.exit("--instructions needs valgrind (apt-get install valgrind)")

    python = shutil.which(args.python) or args.python
    version = subprocess.run(
        [python, "-c", "import sys; print(sys.version.split()[0])"], capture_output=True, text=True
    )
    if version.returncode != 0:
        sys.exit(f"{python} does not run: {version.stderr.strip()}")
    print(f"python: {python} ({version.stdout.strip()}); rex: {args.rex}")
    print("best of", args.runs, "runs; wall and CPU (user + system) milliseconds per process")
    header = ["workload", "rex wall", "py wall", "py/rex", "rex cpu", "py cpu", "py/rex"]
    if args.instructions:
        header += ["rex Minstr", "py Minstr", "py/rex"]
    print("{:<19} {:>9} {:>9} {:>7} {:>9} {:>9} {:>7}".format(*header[:7]), end="")
    print("".join(f" {h:>10}" for h in header[7:]))
    with tempfile.TemporaryDirectory() as tmp:
        start = os.path.join(tmp, "start.rex")
        with open(start, "w") as f:
            f.write("0\n")
        rows = [([args.rex, "run", start], [("(start-up)", [python, "-c", "print(0)"])])]
        for name in WORKLOADS:
            rex_cmd = [args.rex, "run", os.path.join(HERE, name + ".rex")]
            twins = [(name, [python, os.path.join(HERE, name + ".py")])]
            same = os.path.join(HERE, "same", name + ".py")
            if os.path.exists(same):
                twins.append((name + " (same)", [python, same]))
            rows.append((rex_cmd, twins))
        for rex_cmd, twins in rows:
            compare(rex_cmd, twins, args)


def compare(rex_cmd, twins, args):
    """Prints a row per twin (label, command): `rex_cmd` against each."""
    py_cmds = [cmd for _, cmd in twins]
    rex, *pys = best_times([rex_cmd] + py_cmds, args.runs)
    rex_instr = instructions(rex_cmd) if args.instructions else None
    for (label, _), py_cmd, py in zip(twins, py_cmds, pys):
        if untyped(rex[2]) != py[2]:
            sys.exit(f"{label}: outputs differ: rex {rex[2]!r}, python {py[2]!r}")
        line = (
            f"{label:<19} {rex[0] * 1e3:>9.2f} {py[0] * 1e3:>9.2f} {py[0] / rex[0]:>7.2f}"
            f" {rex[1] * 1e3:>9.2f} {py[1] * 1e3:>9.2f} {py[1] / max(rex[1], 1e-9):>7.2f}"
        )
        if args.instructions:
            pi = instructions(py_cmd)
            if rex_instr is None or pi is None:
                sys.exit(f"{label}: valgrind could not count the instructions")
            line += f" {rex_instr / 1e6:>10.1f} {pi / 1e6:>10.1f} {pi / rex_instr:>10.2f}"
        print(line)


if __name__ == "__main__":
    main()
