#!/bin/bash
# The head-template sweep of results/README.md ("How the accumulator was found"): for every head
# of a number cards, one face F and b number cards (a, b in 0..=16, F in Q K A), the pieces TEST of
# `--J{FILTER}J HEAD {TEST}J-/J- (1)` (filter --K---A----AA) of up to 14 cards with at most 7 faces,
# then each library's accumulation with `ansatz inspect`. About 20 minutes on 2 cores.
# Usage: scripts/head-sweep.sh [DIR]   (default /tmp/head-sweep; rerun to continue after a stop)
set -euo pipefail
# -h or --help prints the comment above.
case "${1:-}" in -h | --help) sed -n '2,/^set -e/{/^#/{s/^# \{0,1\}//;p}}' "$0"; exit 0 ;; esac
ansatz=${ANSATZ:-target/release/ansatz}
command -v "$ansatz" > /dev/null || { echo "$(basename "$0"): no ansatz binary at $ansatz: run cargo build --release first, or set ANSATZ" >&2; exit 2; }
dir=${1:-/tmp/head-sweep}
mkdir -p "$dir"
for F in K Q A; do for a in $(seq 0 16); do for b in $(seq 0 16); do
  name=p$a$F$b
  [ -f "$dir/$name.json" ] && continue
  head=$(printf '%*s' "$a" '' | tr ' ' '-')$F$(printf '%*s' "$b" '' | tr ' ' '-')
  printf 'name = %s\nposition = --J{FILTER}J%s{TEST}J-/J- (1)\nfilter = --K---A----AA\nfaces = QKA\n' \
    "$name" "$head" > "$dir/$name.txt"
  # Exit 1 (no piece) is an answer; exit 2 is a head whose games exceed 64 cards: skipped.
  "$ansatz" find-pieces --template "$dir/$name.txt" --max-len 14 --max-faces 7 \
    --out "$dir/$name.bin" -q --json > "$dir/$name.tmp" 2> "$dir/$name.err" || true
  mv "$dir/$name.tmp" "$dir/$name.json"
done; done; done
for lib in "$dir"/*.bin; do
  "$ansatz" inspect "$lib" | awk -v l="$(basename "$lib" .bin)" \
    '/^by accumulation/{on=1; next} on&&NF==0{exit} on{print l, $0}'
done | awk '$2 > 13'
