#!/usr/bin/env bash
# Every render as a whole process beside its yardstick, measured alternately in one run:
# one C zlib level-1 pass over the same picture's raw RGBA on one core
# (`examples/zlib_level_1.rs`, best of three each round). Prints a Markdown table:
# medians over ROUNDS rounds (default 5), the ratio of the medians, the PNG's size against
# zlib level 1's, and the peak memory of the command (with /usr/bin/time, when installed).
#
#   GAMEDATA_DIR=../shared/data bash benches/render.sh        # data made in target/render-bench
#
# The data: the synthetic facet 0 (`uo synth --facet 0 --seed 1`), the archive of
# claw-image-sets.dict's images (`claw_like_rez`), RETAIL01 and its planes stacked into 12 of
# 1,445 x 481 tiles (`many_planes`).
set -euo pipefail
cd "$(dirname "$0")/.."
: "${GAMEDATA_DIR:?set GAMEDATA_DIR to the real game files (RETAIL01.WWD, claw-image-sets.dict)}"
OUT=${OUT:-target/render-bench}
ROUNDS=${ROUNDS:-5}
mkdir -p "$OUT"
cargo build --quiet --release -p gamedata-cli
cargo build --quiet --release -p gamedata-benches --example zlib_level_1
B=target/release/gamedata
Z=target/release/examples/zlib_level_1
[ -f "$OUT/world0/map0.mul" ] || $B uo synth "$OUT/world0" --facet 0 --seed 1 >/dev/null
[ -f "$OUT/CLAWLIKE.REZ" ] || cargo run --quiet --release -p gamedata-render --example claw_like_rez -- \
  "$GAMEDATA_DIR/wap32/claw-image-sets.dict" "$OUT/CLAWLIKE.REZ" >/dev/null
[ -f "$OUT/MANY.WWD" ] || cargo run --quiet --release -p gamedata-render --example many_planes -- \
  "$GAMEDATA_DIR/wwd/RETAIL01.WWD" "$OUT/MANY.WWD" 12 >/dev/null

W=$OUT/world0
R01=$GAMEDATA_DIR/wwd/RETAIL01.WWD
cases=(
  "uo render, facet 0, flat|uo render $W --facet 0 -o $OUT/flat.png|$OUT/flat.png"
  "uo render, facet 0, client|uo render $W --facet 0 --style client -o $OUT/client.png|$OUT/client.png"
  "uo tiles, facet 0 (599 tiles)|uo tiles $W --facet 0 -o $OUT/web-uo-@R@|$OUT/flat.png"
  "wwd render RETAIL01 --tile-px 64|wwd render $R01 --rez $OUT/CLAWLIKE.REZ --tile-px 64 -o $OUT/r01.png|$OUT/r01.png"
  "wwd render, 12 planes of 1445 x 481, --tile-px 16|wwd render $OUT/MANY.WWD --rez $OUT/CLAWLIKE.REZ --tile-px 16 -o $OUT/many.png|$OUT/many.png"
)

trap 'rm -rf "$OUT"/web-uo-*' EXIT
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
now() { date +%s.%N; }

echo "| case | process (median of $ROUNDS) | zlib level 1 of its pixels | ratio | PNG / zlib level 1 size | peak memory |"
echo "|---|---|---|---|---|---|"
for case in "${cases[@]}"; do
  IFS='|' read -r name spec picture <<<"$case"
  # A pyramid is written into a new folder each round (@R@, the round), so that every
  # round writes every tile (a tile already holding its bytes is left as it is). The
  # folders are removed when the script ends, not between cases: ext4 without a journal
  # (this machine's) passes over inodes freed in the last 60 to 300 seconds when it
  # makes files (fs/ext4/ialloc.c, `recently_deleted`), which made a pyramid written just
  # after one was deleted take 0.4 s where it takes 0.25 s otherwise.
  args=${spec//@R@/0}
  # shellcheck disable=SC2086
  $B $args >/dev/null  # once, to write the picture and warm the page cache
  : >"$OUT/t-cmd"; : >"$OUT/t-zlib"; peak=""
  for round in $(seq "$ROUNDS"); do
    args=${spec//@R@/$round}
    start=$(now)
    if [ -x /usr/bin/time ]; then
      # shellcheck disable=SC2086
      peak=$(/usr/bin/time -f %M $B $args 2>&1 >/dev/null | tail -1)
    else
      # shellcheck disable=SC2086
      $B $args >/dev/null
    fi
    awk -v a="$(now)" -v b="$start" 'BEGIN {printf "%.3f\n", a - b}' >>"$OUT/t-cmd"
    read -r zsec zin zout < <($Z "$picture")
    echo "$zsec" >>"$OUT/t-zlib"
  done
  tc=$(median <"$OUT/t-cmd"); tz=$(median <"$OUT/t-zlib")
  png=$(stat -c %s "$picture")
  ratio=$(awk -v a="$tc" -v b="$tz" 'BEGIN {printf "%.2f", a / b}')
  size=$(awk -v a="$png" -v b="$zout" 'BEGIN {printf "%.2f", a / b}')
  mem=${peak:+$((peak / 1024)) MB}
  printf '| %s | %.2f s | %.2f s | %sx | %sx (%s / %s bytes) | %s |\n' \
    "$name" "$tc" "$tz" "$ratio" "$size" "$png" "$zout" "${mem:--}"
done
