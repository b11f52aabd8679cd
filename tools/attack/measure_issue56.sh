#!/usr/bin/env bash
# Every attack of issue 56 ("The Tiled import and the Ultima Online picture commands under
# the resource contract") at 1x and 10x, run with the release command under /usr/bin/time:
# one line a case and scale with the input's bytes, wall and CPU (user + sys) seconds, the
# peak resident set and the exit status. Usage: tools/attack/measure_issue56.sh WORK_DIR.
# Needs `cargo build --release -p gamedata-cli` first (or GAMEDATA=path).
set -u
here=$(cd "$(dirname "$0")" && pwd)
G=${GAMEDATA:-$here/../../target/release/gamedata}
W=${1:?work dir}
mkdir -p "$W"
unset RUST_BACKTRACE

# run LABEL INPUT_PATH COMMAND...: one line of figures.
run() {
  local label=$1 input=$2
  shift 2
  /usr/bin/time -o "$W/time" -f "%e %U %S %M %x" "$@" >/dev/null 2>&1
  read -r wall user sys rss code < <(tail -1 "$W/time")
  printf '%-34s input %11s B  %6.2f s wall  %6.2f s CPU  %8.1f MB  exit %s\n' \
    "$label" "$(du -sb "$input" | cut -f1)" "$wall" \
    "$(echo "$user + $sys" | bc)" "$(echo "scale=1; $rss / 1024" | bc)" "$code"
}

for s in 1 10; do
  # The Tiled import: lookups (craft_tiled.py), memory (craft_tiled_memory.py), and the
  # first attack round's shapes (craft_tiled_attack.py).
  for c in tilesets objects; do
    f=$W/tiled-$c-$s.tmx
    [ -f "$f" ] || python3 "$here/craft_tiled.py" "$c" "$f" "$s"
    run "from-tmx $c x$s" "$f" "$G" wwd from-tmx "$f" -o "$W/out.wwd"
  done
  [ -d "$W/mem$s" ] || python3 "$here/craft_tiled_memory.py" "$s" "$W/mem$s"
  for f in elements.tmx zeros.tmj declared.tmx wwd_tiles.tmx; do
    run "from-tmx $f x$s" "$W/mem$s/$f" "$G" wwd from-tmx "$W/mem$s/$f" -o "$W/out.wwd"
  done
  for c in inherit children points; do
    f=$W/tiled-$c-$s.tmx
    [ -f "$f" ] || python3 "$here/craft_tiled_attack.py" "$c" "$f" "$s"
    run "from-tmx $c x$s" "$f" "$G" wwd from-tmx "$f" -o "$W/out.wwd"
  done
  rm -f "$W/out.wwd"

  # uo export: names over one shared stream (1,500 over 1.5 MB; 10x: the stream 15 MB).
  for k in anims gumps; do
    d=$W/shared-$k-$s
    [ -d "$d" ] || python3 "$here/craft_shared_stream.py" "$k" 1500 $((1500000 * s)) "$d"
    rm -rf "$W/export"
    run "uo export $k shared x$s" "$d" "$G" uo export "$k" "$d" -o "$W/export"
  done
  rm -rf "$W/export"

  # uo anim (craft_anim.py, craft_anim_attack.py): files written counted too.
  for c in anim_one_offset uop_gap anim_sheet uop_big_entry mobtypes_ff sheet_copies json_frames; do
    d=$W/anim-$c-$s
    case $c in
      sheet_copies | json_frames) gen=craft_anim_attack.py ;;
      *) gen=craft_anim.py ;;
    esac
    [ -d "$d" ] || python3 "$here/$gen" "$c" "$d" "$s"
    rm -rf "$W/out" "$W/sheet.png"
    case $c in
      anim_sheet | sheet_copies) args=(--sheet "$W/sheet.png") ;;
      *) args=(-o "$W/out") ;;
    esac
    line=$(run "uo anim $c x$s" "$d" "$G" uo anim "$d" 0 --action 0 --direction 0 "${args[@]}")
    echo "$line  $(ls "$W/out" 2>/dev/null | wc -l) files"
  done
  rm -rf "$W/out" "$W/sheet.png"
done
