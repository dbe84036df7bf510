"""Does filling scale with the file? `rex fill` at a hole at the end of generated programs
of 100, 1,000 and 10,000 lines (generate.py: unrelated code, then the pH program of the
LLMS guide), with the default static context (`--prefix item`) and with the whole file
before the hole (`--prefix file`), side by side. Prints, per run, the prompt's tokens, the
seconds the fill took (the whole fill loop of the hole, model loading aside), the first fill
and whether it is the intended call (parentheses aside), and the ratio of each size's prompt and time to the
smallest's.

    python3 bench/fill_scale/run.py --rex target/release/rex [--sizes 100,1000,10000]
        [--prefix item,file] [--runs N] [-- extra rex fill flags]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generate import program  # noqa: E402

INTENDED = "qc_label_from_sensor sensor_reading"


def fill(rex, path, line, character, prefix, extra):
    cmd = [rex, "fill", path, str(line), str(character), "--json", "--prefix", prefix] + extra
    started = time.monotonic()
    out = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - started
    if out.returncode not in (0, 1) or not out.stdout.strip():
        return {"error": out.stderr.strip().splitlines()[-1] if out.stderr.strip() else "no output",
                "wall": wall}
    hole = json.loads(out.stdout)["holes"][0]
    stats = hole["stats"]
    fills = [f["text"] for f in hole["fills"]]
    return {
        "prompt": stats["promptTokens"],
        "seconds": stats["seconds"],
        "wall": wall,
        "first": fills[0] if fills else None,
        "fills": len(fills),
        "dropped": stats.get("dropped", []),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rex", required=True)
    ap.add_argument("--sizes", default="100,1000,10000")
    ap.add_argument("--prefix", default="item,file")
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("extra", nargs="*")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    prefixes = args.prefix.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        rows = []
        base = {}
        print(f"{'lines':>6} {'prefix':>6} {'prompt tokens':>13} {'fill s':>8} "
              f"{'x prompt':>8} {'x time':>7}  first fill")
        for size in sizes:
            text = program(size)
            path = os.path.join(tmp, f"scale{size}.rex")
            with open(path, "w") as f:
                f.write(text)
            lines = text.splitlines()
            line = next(i for i, l in enumerate(lines) if "= ? in" in l)
            character = lines[line].index("?")
            for prefix in prefixes:
                # Runs alternate between the settings at each size; the best time is kept.
                results = [fill(args.rex, path, line, character, prefix, args.extra)
                           for _ in range(args.runs)]
                ok = [r for r in results if "error" not in r]
                n = len(lines)
                if not ok:
                    print(f"{n:>6} {prefix:>6}  error: {results[0]['error']}")
                    continue
                best = min(ok, key=lambda r: r["seconds"])
                b = base.setdefault(prefix, best)
                plain = " ".join((best["first"] or "").replace("(", " ").replace(")", " ").split())
                mark = "intended" if plain == INTENDED else "other"
                print(f"{n:>6} {prefix:>6} {best['prompt']:>13} {best['seconds']:>8.1f} "
                      f"{best['prompt'] / b['prompt']:>8.2f} {best['seconds'] / b['seconds']:>7.2f}"
                      f"  {best['first']} ({mark}, {best['fills']} fills)")
                rows.append({"lines": n, "prefix": prefix, **best})
        print(json.dumps(rows), file=sys.stderr)


if __name__ == "__main__":
    main()
