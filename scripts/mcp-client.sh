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

installed() { [ -f "$stamp" ] && [ -x "$venv/bin/python" ]; }

install() {
  if installed; then
    echo "$venv"
    return 0
  fi
  if ! command -v python3 >/dev/null 2>&1; then
    echo "error: python3 is needed for the MCP client (apt-get install python3 python3-venv)" >&2
    exit 1
  fi
  if ! python3 -c 'import ensurepip' >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
      echo "==> installing python3-venv (Debian package)" >&2
      apt-get update -qq
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-venv >&2
    else
      echo "error: python3's venv module is needed (apt-get install python3-venv)" >&2
      exit 1
    fi
  fi
  if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    echo "error: the MCP client test needs Python 3.11 or later" >&2
    exit 1
  fi
  rm -rf "$venv"
  mkdir -p "$(dirname "$venv")"
  python3 -m venv "$venv"
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
