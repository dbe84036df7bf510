#!/usr/bin/env python3
"""One question about a program asked through `rex mcp` (one warm database for the whole
session) against `rex ide` (a process, and a cold database, per question), side by side.

Usage: "$(bash scripts/mcp-client.sh install)/bin/python" bench/mcp_warm_vs_cold.py \
           [--rex PATH] [--calls N] [--file examples/holes.rex]

Asks `semantic_loop_step` at the file's first hole (or at its start) N times each way;
the file is read again on every MCP call, as the server always does. Prints the mean time
of a question each way and the ratio ide/mcp: above 1 means the warm server answers
faster. Machines are noisy: read the ratio, not the times.
"""

import argparse
import os
import subprocess
import time

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


async def warm(rex, path, calls):
    """(first call, mean of the next `calls`) in seconds, and the position asked about."""
    server = StdioServerParameters(command=rex, args=["mcp", "--no-model"])
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            started = time.perf_counter()
            report = await session.call_tool("check", {"path": path})
            first = time.perf_counter() - started
            holes = report.structured_content["holes"]
            at = holes[0]["range"]["start"] if holes else {"line": 0, "character": 0}
            started = time.perf_counter()
            for _ in range(calls):
                await session.call_tool("semantic_loop_step", {"path": path, **at})
            return first, (time.perf_counter() - started) / calls, at


def cold(rex, path, at, calls):
    command = [rex, "ide", "semantic-loop-step", path, str(at["line"]), str(at["character"])]
    started = time.perf_counter()
    for _ in range(calls):
        subprocess.run(command, capture_output=True, check=True)
    return (time.perf_counter() - started) / calls


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rex", default=os.path.join(REPO, "target", "release", "rex"))
    parser.add_argument("--calls", type=int, default=50)
    parser.add_argument("--file", default=os.path.join(REPO, "examples", "holes.rex"))
    args = parser.parse_args()
    path = os.path.abspath(args.file)
    first, per_call, at = anyio.run(warm, args.rex, path, args.calls)
    per_process = cold(args.rex, path, at, args.calls)
    print(f"{os.path.basename(path)} at {at['line']}:{at['character']}, {args.calls} questions each way")
    print(f"rex mcp: first check {first * 1000:.1f} ms, then {per_call * 1000:.2f} ms a question")
    print(f"rex ide: {per_process * 1000:.2f} ms a question (a process each)")
    print(f"ide/mcp: {per_process / per_call:.1f}")


if __name__ == "__main__":
    main()
