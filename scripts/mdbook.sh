#!/usr/bin/env bash
# mdBook, which builds the book (book/) into HTML, at a pinned version.
#
#   scripts/mdbook.sh install   build mdbook with cargo into the cache (a few minutes, once;
#                               nothing when the pinned version is there); prints its path
#   scripts/mdbook.sh path      print mdbook's path; status 1 when not installed
#   scripts/mdbook.sh build     install when missing, then build book/ into book/build
#                               (`rex playground` serves that directory under /book/)
#
# mdbook lives outside the repository, in $REX_MDBOOK_DIR, else
# ${XDG_CACHE_HOME:-~/.cache}/rex/mdbook, and is reused.
set -euo pipefail

version="0.5.4"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/rex"
root="${REX_MDBOOK_DIR:-$cache/mdbook}"
bin="$root/bin/mdbook"
stamp="$root/.rex-installed-$version"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

installed() { [ -f "$stamp" ] && [ -x "$bin" ]; }

install() {
  if installed; then
    echo "$bin"
    return 0
  fi
  if ! command -v cargo >/dev/null 2>&1; then
    echo "error: cargo is needed to install mdbook (https://rustup.rs)" >&2
    exit 1
  fi
  rm -rf "$root"
  echo "installing mdbook $version into $root (cargo install: a few minutes)" >&2
  # Only the HTML renderer and its search index: `serve` and `watch` would add a web
  # server and a file watcher that building never uses. The build directory is cargo's
  # own temporary one, whatever CARGO_TARGET_DIR the caller has set.
  env -u CARGO_TARGET_DIR cargo install mdbook --version "$version" --locked \
    --no-default-features --features search --root "$root" --quiet >&2
  touch "$stamp"
  echo "$bin"
}

case "${1:-}" in
  install) install ;;
  path)
    echo "$bin"
    installed
    ;;
  build)
    mdbook="$(install)"
    "$mdbook" build "$repo/book"
    ;;
  *)
    echo "usage: $0 install | path | build" >&2
    exit 2
    ;;
esac
