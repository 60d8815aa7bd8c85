#!/bin/bash
# The census of 2J2Q2K2A + n past 32 cards (issue 25, Table 1 toward n = 36) as job arrays: each
# deck in 64 slices (`search exhaustive --shard I/64`), each finished slice's shard file kept in
# shards/census/ (commit it with scripts/commit-census-slices.sh: a fresh clone then resumes with
# the slices left), then merged into the deck's result file in OUT. An odd n is two rows, as in
# scripts/table1.sh: the extra card with player 1 (the leader), then with player 2 (`--extra-card
# 2`, its files named `...-2p-extra2...`), each its own 64 slices.
# Usage: scripts/census-past-32.sh [OUT] [N...]   (default out/table1, n = 26 28 30 32 34 36)
# Then add the merged rows to the table: ansatz search table results/census/table1.jsonl
# OUT/exhaustive-N-2J2Q2K2A-2p*.json --out results/census --notes results/census/table1-notes.md
# Resumable: a slice whose shard file exists is skipped, an interrupted slice continues from its
# checkpoint (beside the shard files, ignored by git). Run as many copies as there are machines,
# each with a different START (env, default 0) and STEP (default 1) over the slices.
set -euo pipefail
# -h or --help prints the comment above.
case "${1:-}" in -h | --help) sed -n '2,/^set -e/{/^#/{s/^# \{0,1\}//;p}}' "$0"; exit 0 ;; esac
ansatz=${ANSATZ:-target/release/ansatz}
command -v "$ansatz" > /dev/null || { echo "$(basename "$0"): no ansatz binary at $ansatz: run cargo build --release first, or set ANSATZ" >&2; exit 2; }
out=${1:-out/table1}
shift || true
ns=("$@")
[ ${#ns[@]} -gt 0 ] || ns=(26 28 30 32 34 36)
slices=64 start=${START:-0} step=${STEP:-1}
dir=${SHARDS:-shards/census}
mkdir -p "$dir" "$out"
for n in "${ns[@]}"; do
  deck="$n-2J2Q2K2A"
  # 2J2Q2K2A has 8 face cards: the deck is odd when n is.
  extras=(1)
  [ $((n % 2)) = 0 ] || extras=(1 2)
  for e in "${extras[@]}"; do
    stem="exhaustive-$deck-2p" row="$deck" extra=()
    [ ${#extras[@]} = 1 ] || extra=(--extra-card "$e")
    if [ "$e" = 2 ]; then
      stem+="-extra2" row+=" (extra card 2)"
    fi
    for ((i = start; i < slices; i += step)); do
      file="$dir/$stem.shard-$i-of-$slices.bin"
      [ -s "$file" ] && continue
      resume=()
      [ -f "$dir/$stem.shard-$i-of-$slices.checkpoint.json" ] && resume=(--resume)
      "$ansatz" search exhaustive --deck "$deck" "${extra[@]}" --shard "$i/$slices" --out "$dir" -q "${resume[@]}" > /dev/null
      # The census so far: the slices done, their deals and the cycles met (merge --partial).
      done_files=("$dir/$stem".shard-*-of-$slices.bin)
      so_far=$("$ansatz" merge --partial "${done_files[@]}" 2>/dev/null |
        sed -n 's/^partial  *shards \([0-9]*\) of \([0-9]*\) only: \([0-9]*\) of .*/\1 of \2 slices, \3 deals/p; s/^cycles  *\(.*\)/\1/p' |
        paste -sd ';' -) || so_far="?"
      echo "$(date +%T) $row slice $i/$slices (so far: $so_far)"
    done
    files=("$dir/$stem".shard-*-of-$slices.bin)
    if [ ${#files[@]} -eq $slices ] && [ ! -s "$out/$stem.json" ]; then
      "$ansatz" merge --out "$out" "${files[@]}" > /dev/null
      echo "$(date +%T) $row merged into $out/$stem.json"
    fi
  done
done
