#!/usr/bin/env bash
# Seeds each target's corpus from the conformance programs (../../shared/conformance when
# present) and the examples. The targets that read a position take two leading bytes.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
sources=("$here/../examples"/*.rex)
if [ -d "$here/../../shared/conformance" ]; then
  sources+=("$here/../../shared/conformance"/*.rex)
fi
for target in parse check eval ide repair; do
  mkdir -p "$here/corpus/$target"
  for f in "${sources[@]}"; do
    name="seed-$(basename "$f" .rex)"
    case "$target" in
      ide | repair) { printf '\x01\x40'; cat "$f"; } >"$here/corpus/$target/$name" ;;
      *) cp "$f" "$here/corpus/$target/$name" ;;
    esac
  done
done
echo "seeded ${#sources[@]} programs into fuzz/corpus/*"
