#!/bin/bash
# The deals of a census deck that never end, listed by the cycle they reach, in the form of
# results/census/cycles-*.txt (tests/results.rs replays every listed deal with the reference
# engine and checks the counts against the census row).
#
# The cycles and their deal counts come from the deck's census slices (`ansatz merge --partial`
# of its shard files, which writes nothing); the deals themselves from backward play: each
# cycle's family (`ansatz family CYCLE --deck DECK`, every position that plays into the cycle),
# its balanced positions with player 1 to move. The two must agree: a cycle whose family holds
# another number of deals than the census counted stops the script (exit 1), and so does a
# census with deals that never end outside the listed cycles.
#
# Usage: scripts/census-cycles.sh DECK [SHARD FILES...] > results/census/cycles-DECK.txt
#   e.g. scripts/census-cycles.sh 36-2J2Q2K2A > results/census/cycles-36-2J2Q2K2A.txt
# Default shard files: shards/census/exhaustive-DECK-2p.shard-*-of-64.bin.
set -euo pipefail
ansatz=${ANSATZ:-target/release/ansatz}
deck=${1:?usage: scripts/census-cycles.sh DECK [SHARD FILES...]}
shift
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(shards/census/exhaustive-"$deck"-2p.shard-*-of-64.bin)
[ -s "${files[0]}" ] || { echo "census-cycles: no shard files for $deck" >&2; exit 2; }

census=$("$ansatz" merge --partial "${files[@]}")
total=$(sed -n 's/^cycles  *\([0-9]*\) deals never end.*/\1/p' <<< "$census")
# `partial  shards K of N only: D of the deck's T deals`: the slices given, of how many.
read -r done_slices all_slices < <(sed -n 's/^partial  *shards \([0-9]*\) of \([0-9]*\) only.*/\1 \2/p' <<< "$census")
if [ "$done_slices" = "$all_slices" ]; then
  source_note="its $all_slices slices in shards/census/,"$'\n'"# merged by scripts/census-past-32.sh"
  partial=""
else
  source_note="only $done_slices of its $all_slices slices so"$'\n'"# far, in shards/census/"
  partial=" (only $done_slices of $all_slices slices given: the census is not complete)"
fi
# `  cycle ID  period P  deals D`, one line a cycle.
mapfile -t cycles < <(sed -n 's/^  cycle \(.*\)  period \([0-9]*\)  deals \([0-9]*\)$/\1\t\2\t\3/p' <<< "$census")
if [ ${#cycles[@]} = 0 ]; then
  echo "census-cycles: every deal of $deck ends$partial: no cycle to list" >&2
  exit 1
fi
# The deck's cards: N-aJbQcKdA is N number cards and a + b + c + d faces.
cards=$(sed -n 's/^deck  *\([^,]*\),.*/\1/p' <<< "$census" | tr 'JQKA-' '    +' | sed 's/+/ /' |
  awk '{ s = 0; for (i = 1; i <= NF; i++) s += $i; print s }')
if [ $((cards % 2)) != 0 ]; then
  echo "census-cycles: $deck has $cards cards: only even decks (no extra card) are listed" >&2
  exit 2
fi

listed=0 body=""
for c in "${cycles[@]}"; do
  IFS=$'\t' read -r id period want <<< "$c"
  family=$("$ansatz" family --deck "$deck" -q -- "$id")
  closure=$(sed -n 's/^closure_size  *\([0-9]*\).*/\1/p' <<< "$family")
  # The balanced positions are listed indented under `balanced`; the deals are player 1's.
  deals=$(sed -n '/^balanced/,$ s/^  \(.* (1)\)$/\1/p' <<< "$family")
  got=$(grep -c . <<< "$deals" || true)
  if [ "$got" != "$want" ]; then
    echo "census-cycles: cycle $id: the census counts $want deals, its family holds $got$partial" >&2
    exit 1
  fi
  listed=$((listed + got))
  body+=$'\n'"cycle $id  period $period  closure $closure  deals $got"$'\n'"$deals"$'\n'
done
if [ "$listed" != "${total:-0}" ]; then
  echo "census-cycles: the census counts ${total:-0} deals that never end, the cycles list $listed" >&2
  exit 1
fi

counts=$(for c in "${cycles[@]}"; do cut -f3 <<< "$c"; done | paste -sd ',' - | sed 's/,/ and /g')
periods=$(for c in "${cycles[@]}"; do cut -f2 <<< "$c"; done | sort -u | paste -sd '/' -)
half=$((cards / 2))
cat <<EOF
# The deals of $deck ($cards cards, $half each, player 1 leading) that never end, by the
# cycle they reach: Table 1 (results/census/table1.md).
# Source: \`ansatz search exhaustive --deck $deck\` ($source_note)
# counts $listed such deals in ${#cycles[@]} cycles of period $periods: $counts deals.
# The deals themselves are the positions of $half and $half cards with player 1 to move in each
# cycle's family (every position that plays into it), found by backward play:
# \`ansatz family 'CYCLE' --deck $deck\`, its balanced positions ending in (1).
# Written by \`scripts/census-cycles.sh $deck\`, which checks each cycle's count against the
# census. tests/results.rs replays every deal with the reference engine and checks the counts
# against the census row.
EOF
printf '%s' "$body"
