#!/usr/bin/env bash
# llama.cpp's OpenAI-compatible server (the PyPI package llama-cpp-python[server]) for the
# remote engine of `rex fill --engine openai --server llamacpp` and the playground's
# "Fill with model", on this machine's CPU.
#
#   scripts/llama-server.sh install        create the cached venv (compiles llama.cpp once)
#   scripts/llama-server.sh venv           print the venv's path; status 1 when not installed
#   scripts/llama-server.sh serve [PORT]   run the server on 127.0.0.1 (a free port when none
#                                          is given) with the default Gemma GGUF; prints
#                                          `listening on http://127.0.0.1:PORT` first, then
#                                          replaces itself with the server process
#
# The venv lives outside the repository, in $REX_LLAMA_SERVER_VENV, else
# ${XDG_CACHE_HOME:-~/.cache}/rex/llama-server-venv, and is reused: `install` does nothing
# when the pinned version is already there. Building llama.cpp takes 5-10 minutes on 2
# cores. The model is the one scripts/install-model.sh installs ($REX_MODEL overrides it).
set -euo pipefail

version="0.3.36"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/rex"
venv="${REX_LLAMA_SERVER_VENV:-$cache/llama-server-venv}"
# The build recipe is part of the stamp: a venv built by an older recipe is built again.
recipe="portable-avx2"
stamp="$venv/.rex-installed-$version-$recipe"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=lib/venv.sh
source "$here/lib/venv.sh"

installed() { [ -f "$stamp" ] && [ -x "$venv/bin/python" ]; }

install() {
  if installed; then
    echo "$venv"
    return 0
  fi
  for tool in cmake c++; do
    if ! command -v "$tool" >/dev/null 2>&1; then
      echo "error: $tool is needed to build llama.cpp (bash scripts/setup.sh installs it)" >&2
      exit 1
    fi
  done
  make_venv "$venv" "for the llama.cpp server"
  echo "building llama-cpp-python[server]==$version into $venv (compiles llama.cpp: 5-10 minutes)" >&2
  # A CPU build without libcurl (the server never downloads models) and without
  # GGML_NATIVE: -march=native compiles in whatever the CPU advertises, and on a machine
  # whose CPU lists AMX but whose kernel does not grant it to processes the server died of
  # an invalid opcode (SIGILL) on its first completion. ggml's portable x86 set (SSE4.2,
  # AVX, AVX2, BMI2, FMA, F16C) runs on any x86-64-v3 machine. --force-reinstall: a venv
  # left by an older recipe is rebuilt, not kept.
  CMAKE_ARGS="${CMAKE_ARGS:--DLLAMA_CURL=OFF -DGGML_NATIVE=OFF}" \
    CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}" \
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-cache-dir \
    --force-reinstall "llama-cpp-python[server]==$version" >&2
  touch "$stamp"
  echo "$venv"
}

serve() {
  if ! installed; then
    echo "error: the llama.cpp server is not installed; run: bash scripts/llama-server.sh install" >&2
    exit 1
  fi
  local model="${REX_MODEL:-}"
  if [ -z "$model" ]; then
    model="$(bash "$here/install-model.sh")"
  fi
  local port="${1:-}"
  if [ -z "$port" ]; then
    port="$("$venv/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  fi
  echo "listening on http://127.0.0.1:$port"
  # The playground's page is served from another origin, so CORS allows any origin (the
  # server only listens on the loopback interface).
  exec "$venv/bin/python" -m llama_cpp.server \
    --model "$model" --model_alias "${REX_LLM_MODEL:-gemma-3-270m}" \
    --host 127.0.0.1 --port "$port" \
    --n_ctx "${REX_LLAMA_CTX:-4096}" --n_threads "${REX_LLAMA_THREADS:-2}"
}

case "${1:-}" in
  install) install ;;
  venv)
    echo "$venv"
    installed
    ;;
  serve)
    shift
    serve "$@"
    ;;
  *)
    echo "usage: $0 install | venv | serve [PORT]" >&2
    exit 2
    ;;
esac
