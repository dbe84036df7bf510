#!/usr/bin/env bash
# Builds the playground into playground/dist/ (index.html, JS bundles, .wasm): a static
# site that `rex playground` serves. On a fresh machine it first installs what it needs:
# the wasm32-unknown-unknown target (rustup), wasm-bindgen-cli at the exact version of the
# wasm-bindgen crate in Cargo.lock, and the npm packages of package-lock.json.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
target_dir="${CARGO_TARGET_DIR:-$repo/target}"
step() { printf '\n==> %s\n' "$*"; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  step "rustup target add wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

# The CLI must match the crate exactly: the two agree on a private ABI.
bindgen_version="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' "$repo/Cargo.lock")"
if [ -z "$bindgen_version" ]; then
  echo "error: no wasm-bindgen package in Cargo.lock" >&2
  exit 1
fi
if [ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $bindgen_version" ]; then
  step "cargo install --locked wasm-bindgen-cli --version $bindgen_version"
  # Outside the workspace's target dir, so the CLI's build never disturbs ours.
  if ! env -u CARGO_TARGET_DIR cargo install --locked wasm-bindgen-cli --version "$bindgen_version"; then
    # A registry that lacks one of the CLI's locked dependency versions refuses --locked;
    # the CLI itself is still the exact version, with its dependencies resolved afresh.
    step "retrying without --locked (a locked dependency is missing from the registry)"
    env -u CARGO_TARGET_DIR cargo install wasm-bindgen-cli --version "$bindgen_version"
  fi
fi

step "npm ci (playground/package-lock.json)"
(cd "$here" && npm ci --no-audit --no-fund --loglevel=error)

step "cargo build -p rex-playground --target wasm32-unknown-unknown --profile playground"
# A larger stack than the 1 MiB default: the compiler's own depth limits, not the stack,
# must be what stops deeply nested input.
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-C link-arg=-zstack-size=16777216" \
  cargo build -p rex-playground --target wasm32-unknown-unknown --profile playground

step "wasm-bindgen --target web"
rm -rf "$here/build/pkg"
wasm-bindgen --target web --no-typescript --out-dir "$here/build/pkg" \
  "$target_dir/wasm32-unknown-unknown/playground/rex_playground.wasm"

step "bundle (esbuild) into playground/dist"
node "$here/web/bundle.mjs"
