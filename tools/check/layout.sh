#!/usr/bin/env bash
# The workspace's shape, checked in CI (issue 57, docs/naming.md):
#   - no import circle among any crate's source files (tools/check/circles.py);
#   - no Rust or Python file of the repository over 700 lines;
#   - one deflate backend: flate2 built with zlib-rs and with no C zlib, whatever is built,
#     so that the bytes written do not depend on the crates built together.
set -euo pipefail
cd "$(dirname "$0")/../.."
python3 tools/check/circles.py crates/*/src
long=$(git ls-files '*.rs' '*.py' | xargs wc -l | awk '$2 != "total" && $1 > 700')
if [ -n "$long" ]; then
  echo "files over 700 lines:" >&2
  echo "$long" >&2
  exit 1
fi
features=$(cargo tree -e features -i flate2 --workspace --all-features 2>/dev/null)
echo "$features" | grep -q 'flate2 feature "zlib-rs"' || { echo "flate2 is built without zlib-rs" >&2; exit 1; }
if echo "$features" | grep -q 'flate2 feature "any_c_zlib"'; then
  echo "flate2 is built with a C zlib, which would replace zlib-rs" >&2
  exit 1
fi
echo "layout: no import circle, no file over 700 lines, flate2 on zlib-rs"
