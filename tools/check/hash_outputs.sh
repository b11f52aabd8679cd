#!/usr/bin/env bash
# Runs the gamedata CLI over the real files (GAMEDATA_DIR, default ../shared/data) and
# synthetic worlds, keeps every output (files written, stdout, stderr, exit status), and writes
# OUT/sha256.txt: one line a file, its sha256 then its path under OUT. Timing keys (*_ms,
# elapsed*, seconds) are removed from JSON, timing lines from text, and OUT is written as $OUT, so
# two builds with the same behaviour give the same file.
# A refactoring that must not change what the command writes is checked by running it with
# the binary before and after and comparing the two sha256.txt files (193 commands, 6,160
# outputs on 2026-11-29).
# usage: tools/check/hash_outputs.sh GAMEDATA_BINARY OUT
set -uo pipefail
G=$(realpath "$1"); OUT=$2; D=$(realpath "${GAMEDATA_DIR:-../shared/data}")
rm -rf "$OUT"; mkdir -p "$OUT/run"; OUT=$(realpath "$OUT")
W=$OUT/work; mkdir -p "$W"
n=0
# run NAME ARGS...: the command's stdout, stderr and status kept as run/NAME.{out,err,rc}
run() {
  local name=$1; shift
  n=$((n+1))
  ( cd "$W" && "$G" "$@" >"$OUT/run/$name.out" 2>"$OUT/run/$name.err"; echo $? >"$OUT/run/$name.rc" )
}
# Synthetic inputs first.
"$G" demo --out "$W/demo" >/dev/null 2>&1
"$G" uo synth --facet 4 --art "$W/synth4" >/dev/null 2>&1
"$G" uo synth --facet 5 --art --art-format uop --map-format uop --diffs 20 "$W/synth5" >/dev/null 2>&1
DEMO=$W/demo; S4=$W/synth4; S5=$W/synth5; C=$D/cosmo
# Cosmo
for j in "" --json; do t=${j:+j}
  run cosmo-ls-stn$t $j cosmo ls "$C/COSMO1.STN"
  run cosmo-ls-vol$t $j cosmo ls "$C/COSMO1.VOL"
  run cosmo-tileattr$t $j cosmo tileattr "$C"
  for m in A1 A10 BONUS1; do run cosmo-map-$m$t $j cosmo map "$C" $m.MNI; done
done
run cosmo-extract cosmo extract "$C/COSMO1.VOL" A1.MNI -o "$W/A1.MNI"
run cosmo-map-render --json cosmo map "$C" A1.MNI --render "$W/cosmo-A1.png" --actors --backdrop --attributes
run cosmo-map-render2 cosmo map "$C" A10.MNI --render "$W/cosmo-A10.png"
run cosmo-tiles --json cosmo tiles "$C" A2.MNI -o "$W/cosmo-tiles" --actors --max-zoom 1
run cosmo-tmx --json cosmo tmx "$C" A1.MNI -o "$W/cosmo-tmx/A1.tmx" --actors --backdrop
run cosmo-tmj --json cosmo tmx "$C" A3.MNI -o "$W/cosmo-tmj/A3.tmj"
# WWD
for f in "$D"/wwd/*; do b=$(basename "$f")
  run wwd-info-$b --json wwd info "$f"
  run wwd-info-text-$b wwd info "$f"
  run wwd-checksum-$b --json wwd checksum "$f"
done
run wwd-validate --json wwd validate "$D/wwd"
for b in RETAIL01.WWD RETAIL10.WWD RockySwitch.wwd ParadiseCove.wwd; do f=$D/wwd/$b
  run wwd-objects-$b --json wwd objects "$f"
  run wwd-render-$b --json wwd render "$f" -o "$W/wwd-$b.png"
  run wwd-write-$b --json wwd write "$f" "$W/rewritten-$b"
  run wwd-write-nc-$b --json wwd write --no-compress "$f" "$W/rewritten-nc-$b"
done
run wwd-tiles wwd tiles "$D/wwd/RETAIL02.WWD" -o "$W/wwd-tiles"
# The demo's level and archive (the engine's drawing)
run demo-wwd-render-rez --json wwd render "$DEMO/SYNTH01.WWD" --rez "$DEMO/SYNTH.REZ" -o "$W/demo-rez.png" --time 500 --markers
run demo-wwd-view --json wwd render "$DEMO/SYNTH01.WWD" --rez "$DEMO/SYNTH.REZ" -o "$W/demo-view.png" --view 100,100
run demo-wwd-tmx-rez --json wwd tmx "$DEMO/SYNTH01.WWD" --rez "$DEMO/SYNTH.REZ" -o "$W/demo-tmx/S.tmx"
run demo-wwd-tmj-rez --json wwd tmx "$DEMO/SYNTH01.WWD" --rez "$DEMO/SYNTH.REZ" -o "$W/demo-tmj/S.tmj"
run wwd-from-tmx --json wwd from-tmx "$W/demo-tmx/S.tmx" -o "$W/from-tmx-S.WWD"
run wwd-from-tmj --json wwd from-tmx "$W/demo-tmj/S.tmj" -o "$W/from-tmj-S.WWD"
run wwd-info-from-tmx --json wwd info "$W/from-tmx-S.WWD"
run demo-wwd-tiles-rez wwd tiles "$DEMO/SYNTH01.WWD" --rez "$DEMO/SYNTH.REZ" -o "$W/demo-wwd-tiles"
run rez-ls rez ls "$DEMO/SYNTH.REZ"
run rez-ls-json --json rez ls "$DEMO/SYNTH.REZ"
run rez-ls-jsonl rez ls --jsonl "$DEMO/SYNTH.REZ"
run rez-extract --json rez extract "$DEMO/SYNTH.REZ" LEVEL1 --output "$W/rez-extract"
for p in "$D"/wap32/pid/*.PID; do b=$(basename "$p"); run rez-pid-$b --json rez pid "$p" -o "$W/pid-$b.png"; done
first_pid=$("$G" rez ls "$DEMO/SYNTH.REZ" 2>/dev/null | awk 'toupper($1) ~ /\.PID$/ {print $1; exit}')
first_ani=$("$G" rez ls "$DEMO/SYNTH.REZ" 2>/dev/null | awk 'toupper($1) ~ /\.ANI$/ {print $1; exit}')
[ -n "$first_pid" ] && run rez-pid-in-rez --json rez pid "$DEMO/SYNTH.REZ" "$first_pid" --palette LEVEL1/PALETTES/MAIN.PAL -o "$W/pid-in-rez.png"
[ -n "$first_ani" ] && run rez-ani-in-rez --json rez ani "$DEMO/SYNTH.REZ" "$first_ani"
[ -n "$first_ani" ] && run rez-ani-in-rez-text rez ani "$DEMO/SYNTH.REZ" "$first_ani"
[ -n "$first_ani" ] && [ -f "$W/rez-extract/$first_ani" ] && run rez-ani-file rez ani "$W/rez-extract/$first_ani"
# Ultima Online: the real files
P=$D/uo/prealpha
for j in "" --json; do t=${j:+j}
  run uo-info-pre$t $j uo info "$P" --width 1024 --height 1024
  run uo-tile-pre$t $j uo tile "$P" 500 500 --width 1024 --height 1024
  run uo-tiledata-hs-land$t $j uo tiledata "$D/uo/hs/tiledata.mul" --land 3
  run uo-tiledata-hs-item$t $j uo tiledata "$D/uo/hs/tiledata.mul" --item 0x0EED
  run uo-tiledata-classic$t $j uo tiledata "$D/uo/classic/tiledata.mul" --item 2
  run uo-tiledata-pre$t $j uo tiledata "$P/TILEDATA.MUL" --land 3
  run uo-multi-hs$t $j uo multi "$D/uo/hs" 0
done
run uo-find-pre --json uo find "$P" --width 1024 --height 1024 --id 0x0EED
run uo-find-pre-flag --json uo find "$P" --width 1024 --height 1024 --flag wet --limit 50
run uo-render-pre-flat --json uo render "$P" --width 1024 --height 1024 --radarcol "$D/uo/hs/radarcol.mul" -o "$W/pre-flat.png"
run uo-render-pre-client --json uo render "$P" --width 1024 --height 1024 --style client --radarcol "$D/uo/hs/radarcol.mul" -o "$W/pre-client.png"
run uo-render-pre-alt --json uo render "$P" --width 1024 --height 1024 --style altitude --radarcol "$D/uo/hs/radarcol.mul" -o "$W/pre-alt.png"
run uo-tiles-pre uo tiles "$P" --width 1024 --height 1024 --radarcol "$D/uo/hs/radarcol.mul" -o "$W/pre-tiles"
# Ultima Online: synthetic worlds with art (facet 4 MUL, facet 5 UOP with diffs)
for S in "$S4:4" "$S5:5"; do dir=${S%:*}; f=${S#*:}
  run uo-info-$f --json uo info "$dir" --facet $f
  run uo-stats-$f --json uo stats "$dir" --facet $f
  run uo-tile-$f --json uo tile "$dir" 100 100 --facet $f
  run uo-find-$f --json uo find "$dir" --facet $f --flag surface --limit 100
  run uo-render-$f-flat --json uo render "$dir" --facet $f --scale 2 -o "$W/s$f-flat.png" --hillshade
  run uo-render-$f-client --json uo render "$dir" --facet $f --style client -o "$W/s$f-client.png" --region 0,0,512,512
  run uo-render-$f-diffs --json uo render "$dir" --facet $f --apply-diffs -o "$W/s$f-diffs.png" --scale 4
  run uo-tiles-$f uo tiles "$dir" --facet $f --style client -o "$W/s$f-tiles"
  for what in art gumps texmaps anims; do run uo-export-$f-$what --json uo export $what "$dir" -o "$W/s$f-export-$what"; done
  run uo-art-land-$f --json uo art "$dir" --land 3 -o "$W/s$f-land3.png"
  run uo-art-item-$f --json uo art "$dir" --item 5 -o "$W/s$f-item5.png" --hue 0x8021
  run uo-gump-$f --json uo gump "$dir" 7 -o "$W/s$f-gump7.png"
  run uo-texmap-$f --json uo texmap "$dir" 1 -o "$W/s$f-tex1.png"
  run uo-anim-$f --json uo anim "$dir" 1 --action 0 --direction 6 -o "$W/s$f-anim"
  run uo-anim-sheet-$f --json uo anim "$dir" 1 --action 0 --direction 2 --sheet "$W/s$f-sheet.png" --hue 3
  run uo-animdata-$f --json uo animdata "$dir" 5
done
run uo-convert-4-uop --json uo convert "$S4" "$W/conv4" --facet 4 --to uop
run uo-convert-4-art --json uo convert "$S4" "$W/conv4art" --art --to uop
run uo-convert-5-gumps --json uo convert "$S5" "$W/conv5gumps" --gumps --to mul
run uo-convert-5-mul --json uo convert "$S5" "$W/conv5" --facet 5 --to mul
for u in "$S5"/*.uop; do run uo-uop-ls-$(basename "$u") --json uo uop ls "$u"; done
echo "$n commands" >"$OUT/commands.txt"
# Normalise: timing keys and the output folder's path.
python3 - "$OUT" <<'PY'
import json, os, re, sys
out = sys.argv[1]
TIME = re.compile(r'(_ms|elapsed.*|seconds|_s)$')
def strip(v):
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items() if not TIME.search(k)}
    if isinstance(v, list):
        return [strip(x) for x in v]
    return v
for root, _, files in os.walk(os.path.join(out, 'run')):
    for f in files:
        p = os.path.join(root, f)
        s = open(p, encoding='utf-8', errors='surrogateescape').read().replace(out, '$OUT')
        lines = []
        for line in s.split('\n'):
            try:
                v = json.loads(line)
                line = json.dumps(strip(v), sort_keys=False)
            except Exception:
                line = re.sub(r'\b[0-9]+(\.[0-9]+)? ?(ms|s|µs|seconds)\b', '<time>', line)
            lines.append(line)
        s = '\n'.join(lines)
        try:
            v = json.loads(s)
            s = json.dumps(strip(v), indent=1)
        except Exception:
            pass
        open(p, 'w', encoding='utf-8', errors='surrogateescape').write(s)
PY
( cd "$OUT" && find run work -type f | LC_ALL=C sort | xargs -d '\n' sha256sum ) >"$OUT/sha256.txt"
echo "$(wc -l <"$OUT/sha256.txt") outputs of $n commands in $OUT/sha256.txt"
