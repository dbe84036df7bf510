#!/usr/bin/env python3
"""`rex lsp` from a keystroke to new diagnostics, as an editor sees it, side by side.

Usage: bench/lsp_edit_latency.py [--rex PATH] [--vs PATH] [--functions N] [--edits N]
                                 [--edit body|insert]

Starts the real server over stdio, opens a generated program (N seven-line `fn`s calling
their predecessor, then a result expression: 1,430 of them make about 10,000 lines), then
changes one character inside one `fn` body (`--edit body`), or inserts a new `fn` above
every other and removes it again (`--edit insert`), again and again, sending the whole text
each time (full-text sync, as the simplest clients do), and times each `didChange` to the
`publishDiagnostics` that follows. Prints the median; with `--vs`, the same for a second
binary in the same run and the ratio. Machines are noisy: read ratios, not times.
"""

import argparse
import json
import os
import statistics
import subprocess
import time

HERE = os.path.dirname(os.path.abspath(__file__))
URI = "file:///bench/edit.rex"


def program(functions):
    out = []
    for i in range(functions):
        callee = "x" if i == 0 else f"step_{i - 1} x"
        out.append(
            f"fn step_{i} : i32 -> i32 = \\x ->\n  let y = {callee} + {i} in\n"
            f"  let label = if y > 100 then \"big\" else \"small\" in\n  match (Some y)\n"
            f"    when Some v -> v * 2\n    when None -> 0\n\n"
        )
    out.append(f"step_{functions - 1} 1\n")
    return "".join(out)


class Server:
    def __init__(self, rex):
        self.p = subprocess.Popen([rex, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL)
        self.next_id = 0
        self.request("initialize", {"processId": os.getpid(), "rootUri": "file:///bench",
                                    "capabilities": {}})
        self.send({"method": "initialized", "params": {}})

    def send(self, msg):
        data = json.dumps({"jsonrpc": "2.0", **msg}).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(data) + data)
        self.p.stdin.flush()

    def read(self):
        length = None
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit("the server closed its output")
            line = line.strip()
            if not line:
                break
            key, value = line.decode().split(":", 1)
            if key.lower() == "content-length":
                length = int(value)
        return json.loads(self.p.stdout.read(length))

    def request(self, method, params):
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        while True:
            msg = self.read()
            if msg.get("id") == self.next_id and "method" not in msg:
                return msg

    def diagnostics(self):
        """Waits for the next publishDiagnostics of the document; answers server requests."""
        while True:
            msg = self.read()
            if "id" in msg and "method" in msg:
                self.send({"id": msg["id"], "result": None})
            elif msg.get("method") == "textDocument/publishDiagnostics" \
                    and msg["params"]["uri"] == URI:
                return msg["params"]["diagnostics"]

    def close(self):
        self.request("shutdown", None)
        self.send({"method": "exit"})
        self.p.wait(timeout=10)


INSERTED = "fn inserted : i32 -> i32 = \\x -> x + 1\n\n"


def edited(text, k, kind):
    """The text after the k-th edit of `kind`."""
    if kind == "insert":
        return INSERTED + text if k % 2 == 0 else text
    at = text.index("step_61 x + 62 in") + len("step_61 x + 6")
    digit = "3" if k % 2 == 0 else "2"
    return text[:at] + digit + text[at + 1:]


def measure(rex, text, edits, kind):
    """Milliseconds from each didChange to its diagnostics; the open's too."""
    server = Server(rex)
    start = time.perf_counter()
    server.send({"method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": URI, "languageId": "rex", "version": 1, "text": text}}})
    first = server.diagnostics()
    opened = (time.perf_counter() - start) * 1e3
    if first:
        raise SystemExit(f"the generated program should check cleanly: {first[:1]}")
    times = []
    for k in range(edits):
        changed = edited(text, k, kind)
        start = time.perf_counter()
        server.send({"method": "textDocument/didChange", "params": {
            "textDocument": {"uri": URI, "version": k + 2},
            "contentChanges": [{"text": changed}]}})
        diagnostics = server.diagnostics()
        times.append((time.perf_counter() - start) * 1e3)
        if diagnostics:
            raise SystemExit(f"the edited program should check cleanly: {diagnostics[:1]}")
    server.close()
    return opened, statistics.median(times)


def main():
    default_rex = os.path.join(HERE, "..", "target", "release", "rex")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rex", default=os.environ.get("REX", default_rex))
    parser.add_argument("--vs", help="a second rex binary, measured in the same run")
    parser.add_argument("--functions", type=int, default=1430)
    parser.add_argument("--edits", type=int, default=9)
    parser.add_argument("--edit", choices=["body", "insert"], default="body")
    args = parser.parse_args()
    text = program(args.functions)
    what = {"body": "one-character edits in a body",
            "insert": "insertions and removals of a fn at the top"}[args.edit]
    print(f"{text.count(chr(10))} lines, {args.edits} {what}, full-text sync")
    results = []
    for rex in [args.rex] + ([args.vs] if args.vs else []):
        opened, edit = measure(rex, text, args.edits, args.edit)
        results.append(edit)
        print(f"{rex}: open -> diagnostics {opened:8.1f} ms; "
              f"edit -> diagnostics median {edit:7.1f} ms")
    if args.vs:
        print(f"edit -> diagnostics, first / second: {results[0] / results[1]:.3f}")


if __name__ == "__main__":
    main()
