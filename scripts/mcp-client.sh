#!/usr/bin/env bash
# The official Python MCP client (the PyPI package `mcp`) for the end-to-end test of
# `rex mcp` (tests/mcp/agent.py, run by `cargo test -p rex --test mcp`).
#
#   scripts/mcp-client.sh install   create the cached venv (a few seconds; nothing when the
#                                   pinned version is there); prints the venv's path
#   scripts/mcp-client.sh venv      print the venv's path; status 1 when not installed
#
# The venv lives outside the repository, in $REX_MCP_VENV, else
# ${XDG_CACHE_HOME:-~/.cache}/rex/mcp-venv, and is reused.
set -euo pipefail

version="2.3.0"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/rex"
venv="${REX_MCP_VENV:-$cache/mcp-venv}"
stamp="$venv/.rex-installed-$version"
# shellcheck source=lib/venv.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib/venv.sh"

installed() { [ -f "$stamp" ] && [ -x "$venv/bin/python" ]; }

install() {
  if installed; then
    echo "$venv"
    return 0
  fi
  make_venv "$venv" "for the MCP client"
  if ! "$venv/bin/python" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    echo "error: the MCP client test needs Python 3.11 or later" >&2
    rm -rf "$venv"
    exit 1
  fi
  echo "installing mcp==$version into $venv" >&2
  # Short network timeouts: an offline machine fails in seconds, not minutes.
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-cache-dir \
    --timeout 15 --retries 1 "mcp==$version" >&2
  touch "$stamp"
  echo "$venv"
}

case "${1:-}" in
  install) install ;;
  venv)
    echo "$venv"
    installed
    ;;
  *)
    echo "usage: $0 install | venv" >&2
    exit 2
    ;;
esac
