#!/bin/bash
# Commits the census slices that scripts/census-past-32.sh has finished since the last commit, so a
# fresh clone resumes with only the slices left (shards/README.md). For each n, it adds the new
# shard files of shards/census/, brings the "n = N: K of 64 (...)" entry of shards/README.md up to
# date, and commits those files alone (other changes, staged or not, stay out of the commit).
# Usage: scripts/commit-census-slices.sh [N...]   (default n = 26 28 30 32 34 36)
# Safe to run at any time, beside a running census: a slice's shard file is written atomically
# once the slice is done, and a slice still running has only its (ignored) checkpoint.
set -euo pipefail
# -h or --help prints the comment above.
case "${1:-}" in -h | --help) sed -n '2,/^set -e/{/^#/{s/^# \{0,1\}//;p}}' "$0"; exit 0 ;; esac
cd "$(git rev-parse --show-toplevel)"
ns=("$@")
[ ${#ns[@]} -gt 0 ] || ns=(26 28 30 32 34 36)
dir=shards/census slices=64
# The slice numbers of shard file names, one a line, in order.
slice_numbers() { sed 's/.*shard-\([0-9]*\)-of.*/\1/' | sort -n; }
for n in "${ns[@]}"; do
  # An odd n is two rows (scripts/census-past-32.sh): the extra card with player 1, then with
  # player 2, whose files end in -extra2 and whose entry is "n = N, extra card 2: K of 64 (...)".
  extras=(1)
  [ $((n % 2)) = 0 ] || extras=(1 2)
  for e in "${extras[@]}"; do
    stem="exhaustive-$n-2J2Q2K2A-2p" label="n = $n" row="$n-2J2Q2K2A"
    if [ "$e" = 2 ]; then
      stem+="-extra2" label+=", extra card 2" row+=" (extra card 2)"
    fi
    new=$(git ls-files --others --exclude-standard "$dir" | grep -E "/$stem\.shard-[0-9]+-of-$slices\.bin$" || true)
    [ -n "$new" ] || continue
    idx=$(ls "$dir/$stem".shard-*-of-$slices.bin | slice_numbers)
    count=$(echo "$idx" | wc -l)
    max=$(echo "$idx" | tail -1)
    if [ "$count" == 1 ]; then desc="slice $max"; elif [ "$idx" == "$(seq 0 "$max")" ]; then desc="slices 0–$max"; else desc="slices $(echo $idx | tr ' ' ',')"; fi
    if ! grep -q "$label: [0-9]* of $slices" shards/README.md; then
      echo "shards/README.md has no '$label: K of $slices (...)' entry: add one by hand" >&2
      exit 2
    fi
    sed -i -E "s/$label: [0-9]+ of $slices \([^)]*\)/$label: $count of $slices ($desc)/" shards/README.md
    first=$(echo "$new" | slice_numbers | head -1)
    last=$(echo "$new" | slice_numbers | tail -1)
    if [ "$first" == "$last" ]; then what="slice $first"; else what="slices $first-$last"; fi
    # shellcheck disable=SC2086 # one file name a word (they hold no spaces)
    git add $new
    git commit -q -m "census: $what of $slices of $row, $count of $slices done (scripts/census-past-32.sh)" -- $new shards/README.md
    git log --oneline -1
  done
done
