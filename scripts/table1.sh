#!/bin/bash
# The census of small decks (Paulhus 1999, Table 1, finished and extended): every deal of each deck
# below, two players, with `ansatz search exhaustive`, cheapest first. Odd decks run twice: the
# extra card with player 1 (the leader), then with player 2. Resumable: a finished deck is skipped,
# an interrupted one continues from its checkpoint. Then `ansatz search table` gathers the rows.
# Usage: scripts/table1.sh [OUT] [TIER]   (default out/table1, tier 2; tier 3 adds n = 21..24,
# about an hour more on 2 cores). Writes OUT/exhaustive-*.json and OUT/table1.{jsonl,md}; to update
# the tracked table: ansatz search table OUT/exhaustive-*-2p.json OUT/exhaustive-*-2p-extra2.json --out results/census --notes results/census/table1-notes.md
# (or, to add decks to the committed table without rerunning the others: ansatz search table
# results/census/table1.jsonl OUT/exhaustive-NEW*.json --out results/census --notes results/census/table1-notes.md)
set -euo pipefail
# -h or --help prints the comment above.
case "${1:-}" in -h | --help) sed -n '2,/^set -e/{/^#/{s/^# \{0,1\}//;p}}' "$0"; exit 0 ;; esac
ansatz=${ANSATZ:-target/release/ansatz}
command -v "$ansatz" > /dev/null || { echo "$(basename "$0"): no ansatz binary at $ansatz: run cargo build --release first, or set ANSATZ" >&2; exit 2; }
out=${1:-out/table1}
tier=${2:-2}
mkdir -p "$out"
decks=()
for n in $(seq 0 28); do decks+=("$n-1J1Q1K1A"); done
for n in $(seq 0 26); do decks+=("$n-2J2Q2K"); done
for n in $(seq 0 16); do decks+=("$n-2J2Q2K2A"); done
for n in $(seq 0 4); do decks+=("$n-3J3Q3K3A"); done
for n in $(seq 0 7); do decks+=("$n-4J4Q4K"); done
decks+=("0-4J4Q4K4A" "1-4J4Q4K4A")
if [ "$tier" -ge 2 ]; then
  for n in 17 18 19 20; do decks+=("$n-2J2Q2K2A"); done
  decks+=("5-3J3Q3K3A" "8-4J4Q4K")
fi
if [ "$tier" -ge 3 ]; then
  for n in 21 22 23 24; do decks+=("$n-2J2Q2K2A"); done
fi
run() { # deck, extra card
  local d=$1 e=$2 stem
  stem="exhaustive-$d-2p$([ "$e" = 2 ] && echo -extra2 || true)"
  [ -s "$out/$stem.json" ] && return 0
  local resume=()
  [ -f "$out/$stem.checkpoint.json" ] && resume=(--resume)
  "$ansatz" search exhaustive --deck "$d" --extra-card "$e" --out "$out" -q "${resume[@]}" > /dev/null
  echo "$(date +%T) $d extra $e"
}
for d in "${decks[@]}"; do
  faces=${d#*-} cards=${d%%-*}
  for ((i = 0; i < ${#faces}; i++)); do
    c=${faces:i:1}
    if [[ $c =~ [0-9] ]]; then cards=$((cards + c)); fi
  done
  run "$d" 1
  if [ $((cards % 2)) = 1 ]; then run "$d" 2; fi
done
"$ansatz" search table "$out"/exhaustive-*-2p.json "$out"/exhaustive-*-2p-extra2.json --out "$out"
