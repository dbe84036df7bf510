//! `rex mcp` with the official Python MCP client (tests/mcp/agent.py, the PyPI package
//! `mcp` in the venv `scripts/mcp-client.sh` creates and caches outside the repository):
//! the tools listed, the observe-choose-apply loop on a misspelt name until `check` is
//! clean, the pH hole filled from its candidates, the programs run, bad inputs answered
//! as tool errors, a slow run not holding up other calls. Where python3 or PyPI cannot be
//! had, the test prints a `skipped:` line.

#[path = "../cli/support.rs"]
mod support;

use std::path::PathBuf;
use std::process::Command;

use support::{stderr, stdout, TempDir};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the cli crate is in the repository")
        .to_path_buf()
}

/// The venv's python, installing the client first when it is not there yet.
fn client_python() -> Result<PathBuf, String> {
    let script = repo().join("scripts/mcp-client.sh");
    let out = Command::new("bash")
        .arg(&script)
        .arg("install")
        .output()
        .map_err(|e| format!("cannot run {}: {e}", script.display()))?;
    if !out.status.success() {
        return Err(stderr(&out).trim().to_string());
    }
    Ok(PathBuf::from(stdout(&out).trim()).join("bin/python"))
}

#[test]
fn an_agent_repairs_fills_and_runs_through_the_python_client() {
    let python = match client_python() {
        Ok(python) => python,
        Err(why) => {
            println!("skipped: the Python MCP client is not available ({why})");
            return;
        }
    };
    let dir = TempDir::new("mcp-agent");
    let out = Command::new(python)
        .arg(repo().join("tests/mcp/agent.py"))
        .arg("--rex")
        .arg(env!("CARGO_BIN_EXE_rex"))
        .arg("--examples")
        .arg(repo().join("examples"))
        .arg("--dir")
        .arg(&dir.0)
        .output()
        .expect("run the agent");
    print!("{}", stdout(&out));
    assert!(
        out.status.success(),
        "the agent's session failed:\n{}\n{}",
        stdout(&out),
        stderr(&out)
    );
}
