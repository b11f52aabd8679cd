#!/usr/bin/env bash
# `gamedata uo anim`'s attack cases (tools/attack/craft_anim.py) at 1x and 10x, run with
# the release command under /usr/bin/time; each line also counts the files written.
# Usage: tools/attack/measure_anim.sh WORK_DIR [CASE...]. Needs
# `cargo build --release -p gamedata-cli` first (or GAMEDATA=path).
set -u
here=$(cd "$(dirname "$0")" && pwd)
G=${GAMEDATA:-$here/../../target/release/gamedata}
W=${1:?work dir}; shift
mkdir -p "$W"
unset RUST_BACKTRACE
cases=${*:-anim_one_offset uop_gap anim_sheet uop_big_entry mobtypes_ff}
for c in $cases; do
  for s in 1 10; do
    d=$W/$c$s
    [ -d "$d" ] || python3 "$here/craft_anim.py" "$c" "$d" "$s"
    rm -rf "$W/out" "$W/sheet.png"
    case $c in
      anim_sheet) args=(--sheet "$W/sheet.png") ;;
      *) args=(-o "$W/out") ;;
    esac
    /usr/bin/time -o "$W/time" -f "%e s wall, %M KB max RSS, exit %x" \
      "$G" uo anim "$d" 0 --action 0 --direction 0 "${args[@]}" >/dev/null 2>&1
    t=$(tail -1 "$W/time")
    n=$(ls "$W/out" 2>/dev/null | wc -l)
    echo "$c x$s: input $(du -sb "$d" | cut -f1) B: $t, $n files"
  done
done
