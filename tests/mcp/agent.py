"""An agent's session with `rex mcp`, through the official Python MCP client (the `mcp`
package from PyPI): list the tools, read the guide, run the observe-choose-apply loop on a
program with a misspelt name until `check` is clean, fill the pH hole from its verified
candidates, run the program, and meet the bad inputs (an unknown file, a position outside
the text, invalid arguments, a program that never ends) as tool errors while a slow call
does not hold up the others.

    python agent.py --rex target/debug/rex --examples examples --dir SCRATCH_DIR

Prints one line per step; exits 1 with the reason at the first thing that is wrong.
"""

import argparse
import json
import shutil
import sys
from pathlib import Path

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client

TOOLS = {
    "check",
    "semantic_loop_step",
    "apply_quick_fix",
    "apply_best_quick_fixes",
    "hole_fill_candidates",
    "hole_context",
    "expected_type_at",
    "run",
}

MISSPELLED = """fn double : i32 -> i32 = \\n -> n * 2

let base = 7 in
doubel base
"""

# Two mistakes: the loop takes one step for each.
TWO_MISTAKES = """fn double : i32 -> i32 = \\n -> n * 2

fn quadruple : i32 -> i32 = \\n -> doubel (dubble n)

quadruple 5
"""

NEVER_ENDS = """fn spin : i32 -> i32 = \\n -> spin (n + 1)
spin 0
"""


class Failed(Exception):
    pass


def expect(condition, what):
    if not condition:
        raise Failed(what)


def step(message):
    print(message, flush=True)


async def call(session, tool, args):
    """The tool's JSON result; fails on a tool error."""
    result = await session.call_tool(tool, args)
    text = result.content[0].text if result.content else ""
    expect(not result.is_error, f"{tool} {json.dumps(args)[:200]} failed: {text}")
    if result.structured_content is not None:
        return result.structured_content
    return json.loads(text)


async def tool_error(session, tool, args):
    """The message of a call that must be a tool error."""
    result = await session.call_tool(tool, args)
    text = result.content[0].text if result.content else ""
    expect(result.is_error, f"{tool} {json.dumps(args)[:200]} should fail, gave {text[:300]}")
    return text


def errors(report):
    return [d for d in report["diagnostics"] if d["severity"] == "error"]


async def repair(session, path):
    """The observe-choose-apply loop: fix the first error until there is none."""
    for rounds in range(1, 6):
        remaining = errors(await call(session, "check", {"path": str(path)}))
        if not remaining:
            return rounds - 1
        start = remaining[0]["range"]["start"]
        observed = await call(session, "semantic_loop_step", {"path": str(path), **start})
        fixes = observed["quickFixes"]
        expect(fixes, f"no quick fix for {remaining[0]['message']} at {start}")
        chosen = fixes[0]
        applied = await call(
            session,
            "apply_quick_fix",
            {"path": str(path), **start, "id": chosen["id"], "write": True},
        )
        expect(applied.get("written") == str(path), f"the fix was not written: {applied}")
        step(f"  fixed `{remaining[0]['message']}` with `{chosen['title']}`")
    raise Failed(f"{path} still has errors after 5 rounds")


async def loop_on_misspelled(session, scratch):
    path = scratch / "misspelled.rex"
    path.write_text(MISSPELLED)
    steps = await repair(session, path)
    expect(steps == 1, f"one fix should do, took {steps}")
    expect("double base" in path.read_text(), f"unexpected repair: {path.read_text()}")
    ran = await call(session, "run", {"path": str(path)})
    expect(ran["value"] == "14i32", f"the repaired program printed {ran}")
    step(f"misspelled name: clean after {steps} fix, runs to {ran['value']}")

    two = scratch / "two.rex"
    two.write_text(TWO_MISTAKES)
    first = errors(await call(session, "check", {"path": str(two)}))[0]["range"]["start"]
    preview = await call(
        session,
        "apply_best_quick_fixes",
        {"path": str(two), **first, "dryRun": True, "write": True, "maxSteps": 5},
    )
    expect(two.read_text() == TWO_MISTAKES, "a dry run changed the file")
    expect("written" not in preview, f"a dry run says it wrote: {preview}")
    expect("double (double n)" in preview["updatedText"], f"dry run: {preview['updatedText']}")
    steps = await repair(session, two)
    ran = await call(session, "run", {"path": str(two)})
    expect(ran["value"] == "20i32", f"the repaired program printed {ran}")
    step(f"two misspellings: dry run predicted both, loop clean after {steps} fixes")


async def fill_ph_hole(session, scratch, examples):
    path = scratch / "holes.rex"
    shutil.copy(examples / "holes.rex", path)
    report = await call(session, "check", {"path": str(path)})
    expect(not errors(report), f"holes.rex has errors: {report}")
    (hole,) = report["holes"]
    expect(hole["expectedType"] == "Result string string", f"hole: {hole}")
    before = await call(session, "run", {"path": str(path)})
    expect(before["value"] == "?" and before["holesReached"] == 1, f"run with the hole: {before}")
    at = hole["range"]["start"]
    found = await call(session, "hole_fill_candidates", {"path": str(path), **at})
    best = found["candidates"][0]
    expect(
        best["replacement"] == "qc_label_from_sensor sensor_reading",
        f"best candidate: {found['candidates'][:3]}",
    )
    await call(
        session,
        "apply_quick_fix",
        {"path": str(path), **at, "id": best["quickFixId"], "write": True},
    )
    report = await call(session, "check", {"path": str(path)})
    expect(not report["holes"] and not errors(report), f"after the fill: {report}")
    ran = await call(session, "run", {"path": str(path)})
    expect(ran["ok"] and ran["value"] == 'Ok "stable"', f"the filled program: {ran}")
    step(f"pH hole: filled with `{best['replacement']}`, runs to {ran['value']}")


async def bad_inputs(session, scratch):
    missing = scratch / "missing.rex"
    message = await tool_error(session, "check", {"path": str(missing)})
    expect("No such file or directory" in message, message)
    message = await tool_error(
        session, "semantic_loop_step", {"text": MISSPELLED, "line": 40, "character": 0}
    )
    expect("line 40 is past the end" in message, message)
    message = await tool_error(
        session, "expected_type_at", {"text": MISSPELLED, "line": 3, "character": 99}
    )
    expect("character 99 is past the end of line 3" in message, message)
    message = await tool_error(session, "check", {"text": MISSPELLED, "file": "a.rex"})
    expect("unknown argument `file`" in message, message)
    message = await tool_error(session, "run", {"text": MISSPELLED, "gas": "lots"})
    expect("invalid arguments" in message, message)
    message = await tool_error(
        session, "apply_quick_fix", {"text": MISSPELLED, "line": 3, "character": 0, "id": "x"}
    )
    expect("no quick fix with id `x`" in message, message)
    message = await tool_error(session, "run", {"text": NEVER_ENDS, "gas": 100000})
    expect("ran out of gas after 100000 steps" in message, message)
    step("bad inputs: each a tool error with its reason")


async def slow_call_does_not_block(session, scratch):
    """A run that never ends (stopped after 3 s) while `check` answers at once."""
    order = []

    async def spin():
        message = await tool_error(
            session, "run", {"text": NEVER_ENDS, "gas": 10**15, "timeoutSeconds": 3}
        )
        expect("stopped after 3 s" in message, message)
        order.append("run")

    async with anyio.create_task_group() as group:
        group.start_soon(spin)
        await anyio.sleep(0.5)
        await call(session, "check", {"text": MISSPELLED})
        order.append("check")
    expect(order == ["check", "run"], f"check waited for the run: {order}")
    step("a run stopped by its timeout did not hold up check")


async def session_with(rex, examples, scratch):
    server = StdioServerParameters(command=rex, args=["mcp", "--no-model"], cwd=str(scratch))
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            names = {t.name for t in (await session.list_tools()).tools}
            expect(names == TOOLS, f"tools: {sorted(names)}")
            for tool in (await session.list_tools()).tools:
                expect(tool.description and tool.input_schema.get("properties"), tool.name)
            step(f"tools: {', '.join(sorted(names))}")
            (guide,) = (await session.list_resources()).resources
            text = (await session.read_resource(guide.uri)).contents[0].text
            expect("typed hole" in text, f"guide: {text[:200]}")
            step(f"resource {guide.uri}: {len(text)} characters")
            await loop_on_misspelled(session, scratch)
            await fill_ph_hole(session, scratch, examples)
            await bad_inputs(session, scratch)
            await slow_call_does_not_block(session, scratch)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rex", required=True)
    parser.add_argument("--examples", required=True, type=Path)
    parser.add_argument("--dir", required=True, type=Path)
    args = parser.parse_args()
    try:
        anyio.run(session_with, args.rex, args.examples, args.dir)
    except* Failed as failures:
        print(f"FAILED: {failures.exceptions[0]}", flush=True)
        sys.exit(1)
    print("ok: the agent's session passed", flush=True)


if __name__ == "__main__":
    main()
