#!/usr/bin/env bash
# The world style's figures in one table (benches/README.md, "The world as the client
# draws it"):
# - a 4,096 x 4,096-pixel view of the synthetic facet 0 (with its art) as a whole process,
#   beside one C zlib level-1 pass over the same picture's raw RGBA on one core
#   (`examples/zlib_level_1.rs`), alternately, ROUNDS rounds (default 5), medians;
# - the whole synthetic Tokuno facet (facet 4, 1,448 x 1,448 tiles) as a pyramid at the
#   native zoom, and facet 0 at --base-scale 8, once each: time, peak memory, bytes
#   written.
#
#   bash benches/world.sh                 # data made in target/world-bench (OUT=)
#   SKIP_FACET0=1 bash benches/world.sh   # without the facet 0 pyramid (minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-target/world-bench}
ROUNDS=${ROUNDS:-5}
mkdir -p "$OUT"
cargo build --quiet --release -p gamedata-cli
cargo build --quiet --release -p gamedata-benches --example zlib_level_1
B=target/release/gamedata
Z=target/release/examples/zlib_level_1
[ -f "$OUT/world0/map0.mul" ] || $B uo synth "$OUT/world0" --facet 0 --seed 1 --art >/dev/null
[ -f "$OUT/world4/map4.mul" ] || $B uo synth "$OUT/world4" --facet 4 --seed 1 --art >/dev/null
trap 'rm -rf "$OUT"/web-*' EXIT
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
now() { date +%s.%N; }
timed() { # prints "seconds peak_kb" of the command
  local start peak
  start=$(now)
  peak=$(/usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1)
  awk -v a="$(now)" -v b="$start" -v p="$peak" 'BEGIN {printf "%.3f %d\n", a - b, p}'
}

echo "| case | process | zlib level 1 of its pixels | ratio | bytes written | peak memory |"
echo "|---|---|---|---|---|---|"

# The view: around tile (3584, 2048), the middle of facet 0.
view=(uo render "$OUT/world0" --facet 0 --style world --view 31744,121856 --view-size 4096x4096 -o "$OUT/view.png")
$B "${view[@]}" >/dev/null
: >"$OUT/t-cmd"; : >"$OUT/t-zlib"; : >"$OUT/t-peak"
for _ in $(seq "$ROUNDS"); do
  read -r sec peak < <(timed $B "${view[@]}")
  echo "$sec" >>"$OUT/t-cmd"; echo "$peak" >>"$OUT/t-peak"
  read -r zsec _ _ < <($Z "$OUT/view.png")
  echo "$zsec" >>"$OUT/t-zlib"
done
tc=$(median <"$OUT/t-cmd"); tz=$(median <"$OUT/t-zlib"); pk=$(median <"$OUT/t-peak")
printf '| uo render --style world, 4096 x 4096 view of facet 0 | %.2f s | %.2f s | %.2fx | %s | %d MB |\n' \
  "$tc" "$tz" "$(awk -v a="$tc" -v b="$tz" 'BEGIN {printf "%.2f", a / b}')" \
  "$(stat -c %s "$OUT/view.png")" "$((pk / 1024))"

pyramid() { # name, then the command's arguments; the pyramid goes to $OUT/web-N
  local name=$1; shift
  rm -rf "$OUT/web-p"
  read -r sec peak < <(timed $B "$@" -o "$OUT/web-p")
  local bytes tiles
  bytes=$(find "$OUT/web-p" -name '*.png' -printf '%s\n' | awk '{s += $1} END {print s}')
  tiles=$(find "$OUT/web-p" -name '*.png' | wc -l)
  printf '| %s (%s tiles) | %.1f s | - | - | %s | %d MB |\n' "$name" "$tiles" "$sec" "$bytes" "$((peak / 1024))"
  rm -rf "$OUT/web-p"
}
pyramid "uo tiles --style world, facet 4 (Tokuno), native zoom" \
  uo tiles "$OUT/world4" --facet 4 --style world
if [ -z "${SKIP_FACET0:-}" ]; then
  pyramid "uo tiles --style world, facet 0, --base-scale 8" \
    uo tiles "$OUT/world0" --facet 0 --style world --base-scale 8
fi
