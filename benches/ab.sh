#!/usr/bin/env bash
# Side-by-side timing of two checkouts' benches in one run, for a refactoring that must
# not slow the readers: `benches/ab.sh OLD_DIR NEW_DIR [ROUNDS] [FILTER] [BENCHES]`.
#
# Each checkout's criterion benches are built (`cargo bench -p gamedata-benches --no-run`),
# then the two are run in turn, ROUNDS times (3 by default), each round a short criterion
# pass over the benchmarks FILTER matches (a regex; by default the project's own readers,
# not the peers), from the bench targets BENCHES names ("uo wwd cosmo" by default). It
# prints each benchmark's fastest round, old and new, and the ratio new/old (the fastest
# round is the one least disturbed on a shared machine), then the ratio of the medians.
# Interleaving keeps the machine's drift out of the ratios. Set GAMEDATA_DIR for the
# real-file benchmarks.
set -euo pipefail
old=$(cd "$1" && pwd)
new=$(cd "$2" && pwd)
rounds=${3:-3}
filter=${4:-'mul_core|wap_core|mni_core|open_facet|list_levels|parse_in_place|parse_and_walk_in_place|open/'}
benches=${5:-uo wwd cosmo}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

binaries() { # checkout -> the bench executables, one a line
    (cd "$1" && cargo bench -p gamedata-benches --no-run --message-format=json 2>/dev/null) |
        python3 -c '
import json, sys
wanted = sys.argv[1].split()
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and "bench" in m["target"]["kind"]:
        if m["target"]["name"] in wanted:
            print(m["executable"])' "$benches"
}
mapfile -t old_bins < <(binaries "$old")
mapfile -t new_bins < <(binaries "$new")

for round in $(seq "$rounds"); do
    for side in old new; do
        if [ "$side" = old ]; then dir=$old; bins=("${old_bins[@]}"); else dir=$new; bins=("${new_bins[@]}"); fi
        for bin in "${bins[@]}"; do
            (cd "$dir" && "$bin" --bench "$filter" --warm-up-time 1 --measurement-time 2 \
                --noplot 2>/dev/null) >> "$out/$side.$round" || true
        done
    done
done

python3 - "$out" "$rounds" <<'PY'
import re, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
unit = {"ps": 1e-3, "ns": 1.0, "µs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9}
def parse(path):
    times, name = {}, None
    for line in open(path, encoding="utf-8"):
        if line.strip() and not line.startswith(" ") and "time:" not in line:
            name = line.split()[0]
        m = re.search(r"time:\s+\[\S+ \S+ (\S+) (\S+) \S+ \S+\]", line)
        if m:
            key = line.split("time:")[0].strip() or name
            times[key] = float(m.group(1)) * unit[m.group(2)]
    return times
sides = {s: [parse(f"{out}/{s}.{r}") for r in range(1, rounds + 1)] for s in ("old", "new")}
names = sorted(set().union(*sides["old"]) & set().union(*sides["new"]))
def ms(ns):
    return f"{ns / 1e6:.4f}ms"
print(f"{'benchmark':64} {'old (best)':>12} {'new (best)':>12} {'best':>6} {'median':>7}")
for n in names:
    runs = {s: [r[n] for r in sides[s] if n in r] for s in sides}
    best = {s: min(v) for s, v in runs.items()}
    med = {s: statistics.median(v) for s, v in runs.items()}
    print(f"{n:64} {ms(best['old']):>12} {ms(best['new']):>12} "
          f"{best['new'] / best['old']:6.3f} {med['new'] / med['old']:7.3f}")
PY
