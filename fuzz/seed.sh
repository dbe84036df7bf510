#!/usr/bin/env bash
# Seeds each target's corpus from the conformance programs (../../shared/conformance when
# present) and the examples. The targets that read a position take two leading bytes.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
sources=("$here/../examples"/*.rex)
if [ -d "$here/../../shared/conformance" ]; then
  sources+=("$here/../../shared/conformance"/*.rex)
fi
for target in parse check eval ide repair lsp; do
  mkdir -p "$here/corpus/$target"
  for f in "${sources[@]}"; do
    name="seed-$(basename "$f" .rex)"
    case "$target" in
      ide | repair) { printf '\x01\x40'; cat "$f"; } >"$here/corpus/$target/$name" ;;
      # open the program, then a step of the semantic loop and a code action.
      lsp) { printf '\x00'; cat "$f"; printf '\xff\x02\x06\x02\x05\xff\x03\x01\x02\x03'; } >"$here/corpus/$target/$name" ;;
      *) cp "$f" "$here/corpus/$target/$name" ;;
    esac
  done
done
echo "seeded ${#sources[@]} programs into fuzz/corpus/*"
