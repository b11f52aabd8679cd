#!/usr/bin/env bash
# Builds the web app into target/web/ (entry: target/web/index.html, which works opened
# from file:// and from any static server): gamedata-web compiled to WebAssembly, its
# JavaScript glue made by wasm-bindgen-cli (the exact version of wasm-bindgen in
# Cargo.lock) joined with web/worker.js in gamedata_worker.js (the readers run in a Web
# Worker), the .wasm inlined as base64 in gamedata_wasm.js (a page from file:// may not
# fetch a local file), the page's HTML, CSS and JavaScript, and the Leaflet the command line
# carries (crates/gamedata-cli/assets/leaflet).
# Needs: rustup target add wasm32-unknown-unknown; cargo install wasm-bindgen-cli
# --version <Cargo.lock's> --locked (this script says which when it is missing). The build
# goes to CARGO_TARGET_DIR when it is set; the app always to target/web/.
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(awk '$0 == "name = \"wasm-bindgen\"" { getline; gsub(/"/, "", $3); print $3; exit }' Cargo.lock)
if [ -z "$version" ]; then
  echo "no wasm-bindgen in Cargo.lock" >&2
  exit 1
fi
install="cargo install wasm-bindgen-cli --version $version --locked"
if ! command -v wasm-bindgen >/dev/null; then
  echo "wasm-bindgen-cli is not installed; run: $install" >&2
  exit 1
fi
installed=$(wasm-bindgen --version | awk '{ print $2 }')
if [ "$installed" != "$version" ]; then
  echo "wasm-bindgen-cli is $installed, Cargo.lock has wasm-bindgen $version; run: $install" >&2
  exit 1
fi
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  echo "the wasm32-unknown-unknown target is missing; run: rustup target add wasm32-unknown-unknown" >&2
  exit 1
fi

cargo build -p gamedata-web --target wasm32-unknown-unknown --release
built="${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/release/gamedata_web.wasm"
out=target/web
rm -rf "$out"
mkdir -p "$out/leaflet"
# `no-modules`: a classic script (a page from file:// cannot load ES modules).
wasm-bindgen --target no-modules --no-typescript --out-dir "$out" \
  "$built"
{
  printf 'window.GAMEDATA_WASM_BASE64 = "'
  base64 -w0 "$out/gamedata_web_bg.wasm"
  printf '";\n'
} >"$out/gamedata_wasm.js"
# The worker's code, the glue and web/worker.js, as one function: the page starts the
# worker from its text (a page opened from file:// may start a worker from a blob: address
# but not from a file).
{
  printf '// The Web Worker of the page (web/worker.js with wasm-bindgen glue); see app.js.\n'
  printf 'window.GAMEDATA_WORKER = function () {\n'
  cat "$out/gamedata_web.js" web/worker.js
  printf '};\n'
} >"$out/gamedata_worker.js"
rm "$out/gamedata_web.js"
cp web/index.html web/app.js web/views.js web/app.css "$out/"
cp crates/gamedata-cli/assets/leaflet/{leaflet.js,leaflet.css,LICENSE} "$out/leaflet/"
wasm_bytes=$(stat -c %s "$out/gamedata_web_bg.wasm")
gzip_bytes=$(gzip -9 -c "$out/gamedata_web_bg.wasm" | wc -c)
echo "built $out/index.html: the WebAssembly is $wasm_bytes bytes ($gzip_bytes gzipped)"
