#!/usr/bin/env bash
# The web app's figures (benches/README.md, "The web app"), in one run:
# - the .wasm's size, and gzipped (web/build.sh);
# - the time from choosing the synthetic facet 0 folder (with its art) to the first tile the
#   viewer draws, flat and world style, and the page's memory then;
# - a native world tile's time in the page's worker, beside the same tiles drawn by the same
#   library natively on one thread (examples/web_tiles.rs);
# - the page's memory after 1,000 item thumbnails of a full-size art set (230 MB art.mul),
#   and of the same art as artLegacyMUL.uop (uo convert --art --to uop);
# - the page's memory after browsing an archive shaped like GRUNTZ.REZ (examples/
#   rez_shaped.rs, from $GAMEDATA_DIR/wap32/gruntz-rez-paths.txt) and drawing 100 PIDs.
#
#   bash benches/web.sh          # data made in target/web-bench (OUT=)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-target/web-bench}
mkdir -p "$OUT"
cargo build --quiet --release -p gamedata-cli
cargo build --quiet --release -p gamedata-benches --example web_tiles
cargo build --quiet --release -p gamedata-benches --example rez_shaped
bash web/build.sh | tail -n 1
B=target/release/gamedata
[ -f "$OUT/world0/map0.mul" ] || $B uo synth "$OUT/world0" --facet 0 --seed 1 --art >/dev/null
[ -f "$OUT/artfull/art.mul" ] ||
  $B uo synth "$OUT/artfull" --facet 0 --width 64 --height 64 --art --art-full >/dev/null
ls -l "$OUT/artfull/art.mul" | awk '{print "art_full_bytes", $5}'
if [ ! -f "$OUT/artuop/artLegacyMUL.uop" ]; then
  $B uo convert "$OUT/artfull" --art --to uop "$OUT/artuop" >/dev/null
  cp "$OUT/artfull/tiledata.mul" "$OUT/artfull/hues.mul" "$OUT/artuop/"
fi
ls -l "$OUT/artuop/artLegacyMUL.uop" | awk '{print "art_uop_bytes", $5}'
[ -f "$OUT/GRUNTZ.REZ" ] || target/release/examples/rez_shaped "$OUT/GRUNTZ.REZ"
if [ ! -x "$OUT/venv/bin/python" ]; then
  python3 -m venv "$OUT/venv"
  "$OUT/venv/bin/pip" install --quiet selenium==4.51.0
fi
"$OUT/venv/bin/python" benches/web_bench.py target/web/index.html "$OUT/world0" "$OUT/artfull" \
  "$OUT/artuop" "$OUT/GRUNTZ.REZ" |
  tee "$OUT/page.txt"
read -r _ z x y < <(grep '^worker_tiles_at' "$OUT/page.txt")
echo -n "native_1_thread_"
RAYON_NUM_THREADS=1 target/release/examples/web_tiles "$OUT/world0" uo/0/world "$z" "$x" "$y" 5 4
echo -n "native_2_threads_"
RAYON_NUM_THREADS=2 target/release/examples/web_tiles "$OUT/world0" uo/0/world "$z" "$x" "$y" 5 4
