#!/usr/bin/env bash
# The adversarial measurements of branch `attack`: each case crafted at 1x and 10x
# (tools/attack/craft.py), run with the release command under /usr/bin/time (wall, CPU,
# peak resident). Usage: tools/attack/measure.sh WORK_DIR [CASE...]
# Needs `cargo build --release -p gamedata-cli` first. Unset RUST_BACKTRACE: with it set,
# anyhow captures a backtrace for every failed entry (10 times the time of export_distinct_bad).
set -u
here=$(cd "$(dirname "$0")" && pwd)
G=${GAMEDATA:-$here/../../target/release/gamedata}
W=${1:?work dir}; shift
mkdir -p "$W"
unset RUST_BACKTRACE
T() { /usr/bin/time -f "%e s wall, %U s CPU, %M KB max RSS" "$@" 2>&1 >/dev/null | tail -1; }
size() { du -sb "$1" | cut -f1; }

run() {
  local case=$1 scale=$2; shift 2
  local d=$W/$case$scale
  [ -d "$d" ] || python3 "$here/craft.py" "$case" "$d" "$scale"
  rm -rf "$W/out"
  echo "$case x$scale: input $(size "$d") B: $(T "$@" 2>&1)${OUT_TOO:+, output $(size "$W/out" 2>/dev/null || echo 0) B}"
  rm -rf "$W/out"
}

cases=${*:-uop_shared_names uop_shared_names_gumps export_texmap_repeats export_art_repeats convert_gump_repeats export_distinct_bad convert_mul_repeats_to_uop uop_empty_blocks art_chain_overlaps export_claims export_gump_claims}
for c in $cases; do
  for s in 1 10; do
    d=$W/$c$s
    case $c in
      uop_shared_names) run $c $s $G uo art "$d" --art-format uop --item 0 -o "$W/x.png" ;;
      uop_shared_names_gumps) [ $s = 10 ] && s=3; d=$W/$c$s; run $c $s $G uo gump "$d" 0 --art-format uop -o "$W/x.png" ;;
      export_texmap_repeats) OUT_TOO=1 run $c $s $G uo export texmaps "$d" -o "$W/out" ;;
      export_art_repeats|export_claims|export_distinct_bad) OUT_TOO=1 run $c $s $G uo export art "$d" -o "$W/out" ;;
      export_gump_claims) OUT_TOO=1 run $c $s $G uo export gumps "$d" -o "$W/out" ;;
      convert_gump_repeats) OUT_TOO=1 run $c $s $G uo convert --gumps --to uop "$d" "$W/out" ;;
      convert_mul_repeats_to_uop) OUT_TOO=1 run $c $s $G uo convert --art --to uop "$d" "$W/out" ;;
      uop_empty_blocks) run $c $s $G uo art "$d" --art-format uop --item 0 -o "$W/x.png" ;;
      art_chain_overlaps) run $c $s $G uo art "$d" --item 1 -o "$W/x.png" ;;
    esac
  done
done
