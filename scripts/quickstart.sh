#!/usr/bin/env bash
# README's first command: installs what is missing (scripts/setup.sh: system packages and
# the default model), builds the `rex` tool, and fills the holes of examples/holes.rex with
# the embedded model, printing the ranked fills (each one type-checks).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"

bash scripts/setup.sh
started=$SECONDS
echo "==> cargo build --release -p rex"
cargo build --release -p rex
echo "build: $((SECONDS - started)) s"
started=$SECONDS
echo "==> rex fill examples/holes.rex"
"${CARGO_TARGET_DIR:-$repo/target}/release/rex" fill examples/holes.rex
echo "fill: $((SECONDS - started)) s"
