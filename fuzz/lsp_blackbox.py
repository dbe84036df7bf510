#!/usr/bin/env python3
"""A hostile client for `rex lsp`: random requests on mutated programs, over stdio.

One server process gets documents made from the conformance programs and the examples,
mutated (a token deleted, duplicated or replaced by `?`, a line dropped or swapped, random
bytes, the text cut short), then edited in place, and at random positions (some out of
range) every request the server offers: hover, completion, signature help, definition,
references, prepare rename and rename, document symbols, inlay hints, code actions, and
every `rex.*` command in both argument forms (the contract's object, the positional array).

It counts the replies by outcome and exits 1 when any request ended in a JSON-RPC internal
error (-32603), went unanswered within the timeout, or the server died. It prints the
slowest request of each method, so "every position gets an answer within a bounded time"
is measured, not assumed.

    python3 fuzz/lsp_blackbox.py --rex target/release/rex --requests 20000 --seed 1
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

COMMANDS = [
    "rex.expectedTypeAt",
    "rex.functionsProducingExpectedTypeAt",
    "rex.functionsAcceptingInferredTypeAt",
    "rex.adaptersFromInferredToExpectedAt",
    "rex.functionsCompatibleWithInScopeValuesAt",
    "rex.holesExpectedTypes",
    "rex.semanticLoopStep",
    "rex.semanticLoopApplyQuickFixAt",
    "rex.semanticLoopApplyBestQuickFixesAt",
    "rex.holeContext",
    "rex.aiTutorial",
    "rex.expectedType",
    "rex.retrieveRelevantTypes",
    "rex.retrieveRelevantHeaders",
    "rex.errorReport",
]

INTERNAL_ERROR = -32603
TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_']*|\d+(\.\d+)?|\"[^\"\n]*\"|\S")


class Server:
    """`rex lsp` over stdio: requests are answered in order of arrival by a reader thread."""

    def __init__(self, argv, timeout):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL)
        self.timeout = timeout
        self.next_id = 0
        self.replies = {}
        self.cv = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        f = self.p.stdout
        while True:
            length = None
            while True:
                line = f.readline()
                if not line:
                    with self.cv:
                        self.cv.notify_all()
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.partition(b":")
                if name.lower() == b"content-length":
                    length = int(value)
            body = json.loads(f.read(length))
            if "id" in body and "method" in body:
                # A request from the server (applyEdit, progress, registration): accept it.
                self.send({"jsonrpc": "2.0", "id": body["id"], "result": None})
            elif "id" in body:
                with self.cv:
                    self.replies[body["id"]] = body
                    self.cv.notify_all()

    def send(self, msg):
        data = json.dumps(msg).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(data) + data)
        self.p.stdin.flush()

    def send_raw(self, data):
        self.p.stdin.write(data)
        self.p.stdin.flush()

    def request(self, method, params):
        """The reply (a dict with `result` or `error`), or None when none came in time."""
        self.next_id += 1
        i = self.next_id
        self.send({"jsonrpc": "2.0", "id": i, "method": method, "params": params})
        deadline = time.time() + self.timeout
        with self.cv:
            while i not in self.replies:
                left = deadline - time.time()
                if left <= 0 or self.p.poll() is not None:
                    return None
                self.cv.wait(left)
            return self.replies.pop(i)

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def alive(self):
        return self.p.poll() is None

    def close(self):
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def programs(repo):
    dirs = [repo / "examples"]
    shared = Path(os.environ.get("REX_CONFORMANCE_DIR", repo.parent / "shared" / "conformance"))
    if shared.is_dir():
        dirs.append(shared)
    else:
        print(f"note: {shared} not found; only the examples are used")
    out = []
    for d in dirs:
        for f in sorted(d.glob("*.rex")):
            out.append(f.read_text(errors="replace"))
    return out


def mutate(text, rng):
    """The text with one to three random mutations."""
    for _ in range(rng.randint(1, 3)):
        tokens = list(TOKEN.finditer(text))
        kind = rng.randrange(8)
        if kind <= 2 and tokens:
            m = rng.choice(tokens)
            replacement = ["", m.group(0) * 2, "?"][kind]
            text = text[:m.start()] + replacement + text[m.end():]
        elif kind == 3:
            lines = text.split("\n")
            if len(lines) > 1:
                del lines[rng.randrange(len(lines))]
            text = "\n".join(lines)
        elif kind == 4:
            lines = text.split("\n")
            if len(lines) > 1:
                a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
                lines[a], lines[b] = lines[b], lines[a]
            text = "\n".join(lines)
        elif kind == 5:
            at = rng.randint(0, len(text))
            noise = "".join(rng.choice("()[]{}\\->=|,.:;?_ \n\"'0aZ+*λ→") for _ in range(rng.randint(1, 6)))
            text = text[:at] + noise + text[at:]
        elif kind == 6:
            text = text[:rng.randint(0, len(text))]
        # kind 7: unchanged
    return text


def position(text, rng):
    lines = text.split("\n")
    if rng.random() < 0.03:
        return rng.randint(0, len(lines) + 5), rng.randint(0, 200)
    line = rng.randrange(len(lines))
    # Characters in UTF-16 units, as LSP counts them.
    width = len(lines[line].encode("utf-16-le")) // 2
    return line, rng.randint(0, width + (1 if rng.random() < 0.05 else 0))


def request_for(uri, text, rng):
    line, character = position(text, rng)
    pos = {"line": line, "character": character}
    doc = {"uri": uri}
    kind = rng.randrange(12)
    if kind == 0:
        return "textDocument/hover", {"textDocument": doc, "position": pos}
    if kind == 1:
        return "textDocument/completion", {"textDocument": doc, "position": pos}
    if kind == 2:
        return "textDocument/signatureHelp", {"textDocument": doc, "position": pos}
    if kind == 3:
        return "textDocument/definition", {"textDocument": doc, "position": pos}
    if kind == 4:
        return "textDocument/references", {"textDocument": doc, "position": pos,
                                           "context": {"includeDeclaration": rng.random() < 0.5}}
    if kind == 5:
        if rng.random() < 0.5:
            return "textDocument/prepareRename", {"textDocument": doc, "position": pos}
        name = rng.choice(["x", "renamed", "Foo", "+", "in", "", "a b"])
        return "textDocument/rename", {"textDocument": doc, "position": pos, "newName": name}
    if kind == 6:
        return "textDocument/documentSymbol", {"textDocument": doc}
    if kind == 7:
        end = {"line": line + rng.randint(0, 3), "character": rng.randint(0, 40)}
        return "textDocument/inlayHint", {"textDocument": doc, "range": {"start": pos, "end": end}}
    if kind == 8:
        end = {"line": line + rng.randint(0, 2), "character": rng.randint(0, 40)}
        return "textDocument/codeAction", {"textDocument": doc, "range": {"start": pos, "end": end},
                                           "context": {"diagnostics": []}}
    command = rng.choice(COMMANDS)
    extra = {}
    if command == "rex.semanticLoopApplyQuickFixAt":
        extra = {"fixIndex": rng.choice([0, 0, 1, 5, -1, "x"])}
    if command == "rex.semanticLoopApplyBestQuickFixesAt":
        extra = {"dryRun": rng.choice([True, False]),
                 "strategy": rng.choice(["conservative", "aggressive", "bogus"])}
    if rng.random() < 0.5:
        args = [dict({"uri": uri, "line": line, "character": character}, **extra)]
    else:
        args = [uri, line, character] + list(extra.values())
    if rng.random() < 0.03:
        args = rng.choice([[], [42], [{"uri": uri}], [uri, "a", None], [{"line": 0}]])
    return "workspace/executeCommand", {"command": command, "arguments": args}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rex", default="target/release/rex")
    ap.add_argument("--requests", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=30.0)
    args = ap.parse_args()
    repo = Path(__file__).resolve().parent.parent
    rng = random.Random(args.seed)
    sources = programs(repo)
    server = Server([args.rex, "lsp"], args.timeout)
    init = server.request("initialize", {"processId": os.getpid(), "rootUri": "file:///blackbox",
                                         "capabilities": {}})
    if init is None or "error" in init:
        print(f"error: initialize failed: {init}")
        return 1
    server.notify("initialized", {})

    outcomes = {}
    failures = []
    slowest = {}
    started = time.time()
    docs = {}
    version = 0
    sent = 0
    while sent < args.requests and server.alive():
        roll = rng.random()
        if roll < 0.04 or not docs:
            uri = f"file:///blackbox/doc{rng.randrange(8)}.rex"
            text = mutate(rng.choice(sources), rng)
            version += 1
            if uri in docs:
                server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                         "contentChanges": [{"text": text}]})
            else:
                server.notify("textDocument/didOpen", {"textDocument": {
                    "uri": uri, "languageId": "rex", "version": version, "text": text}})
            docs[uri] = text
            continue
        if roll < 0.05:
            # Malformed JSON-RPC: garbage bodies and wrong shapes; the server must go on.
            junk = rng.choice([b"{not json", b"[]", b'{"jsonrpc":"2.0","id":"x","method":7}',
                               b'{"jsonrpc":"2.0","method":"textDocument/hover","params":3}'])
            server.send_raw(b"Content-Length: %d\r\n\r\n" % len(junk) + junk)
            continue
        uri = rng.choice(list(docs))
        method, params = request_for(uri, docs[uri], rng)
        t0 = time.time()
        reply = server.request(method, params)
        elapsed = time.time() - t0
        sent += 1
        key = params.get("command", method) if isinstance(params, dict) else method
        if elapsed > slowest.get(key, (0, None))[0]:
            slowest[key] = (elapsed, docs[uri], params)
        if reply is None:
            outcome = "no reply"
            failures.append((key, "no reply within the timeout", docs[uri], params))
        elif "error" in reply:
            code = reply["error"].get("code")
            outcome = f"error {code}"
            if code == INTERNAL_ERROR:
                failures.append((key, reply["error"].get("message"), docs[uri], params))
        else:
            outcome = "answer"
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    alive = server.alive()
    server.close()

    print(f"{sent} requests in {time.time() - started:.0f} s (seed {args.seed}); server alive: {alive}")
    for outcome, n in sorted(outcomes.items()):
        print(f"  {outcome}: {n}")
    print("slowest request per method:")
    for key, (elapsed, _, _) in sorted(slowest.items(), key=lambda kv: -kv[1][0]):
        print(f"  {elapsed * 1000:8.1f} ms  {key}")
    for key, message, text, params in failures[:5]:
        print(f"FAILURE {key}: {message}\n  params: {json.dumps(params)}\n  text: {text!r}")
    print(f"internal errors or no reply: {len(failures)}")
    return 1 if failures or not alive else 0


if __name__ == "__main__":
    sys.exit(main())
