#!/usr/bin/env bash
# What a fresh Debian machine with only rustup lacks for this project: a C and C++
# compiler, cmake and clang/libclang (llama.cpp is built by the llama-cpp-2 crate), and
# the default model (scripts/install-model.sh). Installs only what is missing (with
# apt-get as root; otherwise prints the command to run) and says how long each step took.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

started=$SECONDS
packages=()
command -v cc >/dev/null 2>&1 || packages+=(gcc libc6-dev)
command -v c++ >/dev/null 2>&1 || packages+=(g++)
command -v cmake >/dev/null 2>&1 || packages+=(cmake)
command -v clang >/dev/null 2>&1 || packages+=(clang)
compgen -G '/usr/lib/llvm-*/lib/libclang.so*' >/dev/null ||
  compgen -G '/usr/lib/*/libclang.so*' >/dev/null || packages+=(libclang-dev)
command -v python3 >/dev/null 2>&1 || packages+=(python3 python3-venv)
if [ "${#packages[@]}" -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "==> installing ${packages[*]} (Debian packages)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${packages[@]}"
  else
    echo "error: missing ${packages[*]}; run: sudo apt-get install ${packages[*]}" >&2
    exit 1
  fi
fi
echo "system packages: $((SECONDS - started)) s"

started=$SECONDS
echo "==> the default model (scripts/install-model.sh)"
bash "$here/install-model.sh"
echo "model: $((SECONDS - started)) s"
