#!/bin/bash
# The deals of a census row that never end, listed by the cycle they reach, in the form of
# results/census/cycles-*.txt (tests/results.rs replays every listed deal with the reference
# engine and checks the counts against the census row).
#
# The cycles and their deal counts come from the census: the row in results/census/table1.jsonl
# once the deck is in the table, else the deck's census slices so far (`ansatz merge --partial`
# of its shard files, which writes nothing). The deals themselves come from backward play: each
# cycle's family (`ansatz family CYCLE --deck DECK`, every position that plays into it), its
# positions with the row's hand sizes and player 1 to move. The two must agree: a cycle whose
# family holds another number of deals than the census counted stops the script (exit 1), and
# so does a census with deals that never end outside the listed cycles.
#
# An even deck has one row (half the cards each); an odd deck has two, the extra card with
# player 1 (--extra-card 1) or with player 2 (--extra-card 2), listed in separate files.
#
# Usage: scripts/census-cycles.sh DECK [--extra-card 1|2] [SHARD FILES...] > results/census/cycles-ROW.txt
#   ROW is DECK for an even deck and DECK-extra1 or DECK-extra2 for an odd one, e.g.
#   scripts/census-cycles.sh 36-2J2Q2K2A > results/census/cycles-36-2J2Q2K2A.txt
#   scripts/census-cycles.sh 23-2J2Q2K2A --extra-card 2 > results/census/cycles-23-2J2Q2K2A-extra2.txt
# Shard files given on the command line are used instead of the table row. A deck not in the
# table reads shards/census/exhaustive-DECK-2p.shard-*-of-64.bin (-2p-extra2 for the second
# row of an odd deck).
set -euo pipefail
# -h or --help prints the comment above.
case "${1:-}" in -h | --help) sed -n '2,/^set -e/{/^#/{s/^# \{0,1\}//;p}}' "$0"; exit 0 ;; esac
ansatz=${ANSATZ:-target/release/ansatz}
command -v "$ansatz" > /dev/null || { echo "$(basename "$0"): no ansatz binary at $ansatz: run cargo build --release first, or set ANSATZ" >&2; exit 2; }
table=results/census/table1.jsonl
usage="usage: scripts/census-cycles.sh DECK [--extra-card 1|2] [SHARD FILES...]"
deck=${1:?$usage}
shift
extra=""
if [ "${1:-}" = --extra-card ]; then
  extra=${2:?$usage}
  shift 2
fi
files=("$@")
fail() { echo "census-cycles: $1" >&2; exit "${2:-2}"; }

[[ $deck =~ ^[0-9]+-([0-9]+[JQKA])+$ ]] || fail "$deck is not a census deck (N-aJbQcKdA, e.g. 27-2J2Q2K2A)"
# The deck's cards: N-aJbQcKdA is N number cards and a + b + c + d faces.
cards=$(tr 'JQKA-' '     ' <<< "$deck" | awk '{ s = 0; for (i = 1; i <= NF; i++) s += $i; print s }')
if [ $((cards % 2)) = 0 ]; then
  [ -z "$extra" ] || fail "$deck has $cards cards, an even number: it has no extra card"
  hand1=$((cards / 2)) hand2=$((cards / 2)) suffix="" row_key='"extra_card":null,'
  dealt="$cards cards, $hand1 each, player 1 leading"
else
  case "$extra" in
    1) hand1=$(((cards + 1) / 2)) hand2=$(((cards - 1) / 2)) suffix="" ;;
    2) hand1=$(((cards - 1) / 2)) hand2=$(((cards + 1) / 2)) suffix="-extra2" ;;
    *) fail "$deck has $cards cards, an odd number: say which player holds the extra card, --extra-card 1 or 2" ;;
  esac
  row_key="\"extra_card\":$extra,"
  dealt="$cards cards: $hand1 to player 1, who leads, and $hand2 to player 2"
fi
written="scripts/census-cycles.sh $deck${extra:+ --extra-card $extra}"

row=""
[ ${#files[@]} -gt 0 ] || row=$(grep -F "\"deck\":\"$deck\"," "$table" | grep -F "$row_key" || true)
if [ -n "$row" ]; then
  # The table's row: one JSON object on one line, as `ansatz search table` writes it.
  total=$(sed -n 's/.*"non_terminating":\([0-9]*\),.*/\1/p' <<< "$row")
  command=$(sed -n 's/.*"run":{"command":"\([^"]*\)".*/\1/p' <<< "$row")
  source_note="the census row in $table, by \`$command\`"
  partial=""
  # Each of `distinct_cycles`: {"cycle_cards":C,"cycle_id":"ID","deals":D,"period":P}.
  mapfile -t cycles < <(grep -o '{"cycle_cards":[0-9]*,"cycle_id":"[^"]*","deals":[0-9]*,"period":[0-9]*}' <<< "$row" |
    sed 's/.*"cycle_id":"\([^"]*\)","deals":\([0-9]*\),"period":\([0-9]*\)}/\1\t\3\t\2/')
else
  [ ${#files[@]} -gt 0 ] || files=(shards/census/exhaustive-"$deck"-2p"$suffix".shard-*-of-64.bin)
  [ -s "${files[0]}" ] || fail "$deck${extra:+ (extra card $extra)} is not in $table and has no shard files"
  census=$("$ansatz" merge --partial "${files[@]}")
  total=$(sed -n 's/^cycles  *\([0-9]*\) deals never end.*/\1/p' <<< "$census")
  # `partial  shards K of N only: D of the deck's T deals`: the slices given, of how many.
  read -r done_slices all_slices < <(sed -n 's/^partial  *shards \([0-9]*\) of \([0-9]*\) only.*/\1 \2/p' <<< "$census")
  if [ "$done_slices" = "$all_slices" ]; then
    source_note="\`ansatz search exhaustive --deck $deck${extra:+ --extra-card $extra}\`, its $all_slices slices in shards/census/"
    partial=""
  else
    source_note="\`ansatz search exhaustive --deck $deck${extra:+ --extra-card $extra}\`, only $done_slices of its $all_slices slices so far, in shards/census/"
    partial=" (only $done_slices of $all_slices slices given: the census is not complete)"
  fi
  # `  cycle ID  period P  deals D`, one line a cycle.
  mapfile -t cycles < <(sed -n 's/^  cycle \(.*\)  period \([0-9]*\)  deals \([0-9]*\)$/\1\t\2\t\3/p' <<< "$census")
fi
if [ ${#cycles[@]} = 0 ]; then
  fail "every deal of $deck${extra:+ (extra card $extra)} ends$partial: no cycle to list" 1
fi

listed=0 body=""
for c in "${cycles[@]}"; do
  IFS=$'\t' read -r id period want <<< "$c"
  family=$("$ansatz" family --deck "$deck" -q -- "$id")
  closure=$(sed -n 's/^closure_size  *\([0-9]*\).*/\1/p' <<< "$family")
  # The balanced positions are listed indented under `balanced`; the row's deals are those
  # with its hand sizes and player 1 to move.
  deals=$(sed -n '/^balanced/,$ s/^  \(.* (1)\)$/\1/p' <<< "$family" |
    awk -F'[/ ]' -v a="$hand1" -v b="$hand2" 'length($1) == a && length($2) == b')
  got=$(grep -c . <<< "$deals" || true)
  if [ "$got" != "$want" ]; then
    fail "cycle $id: the census counts $want deals, its family holds $got$partial" 1
  fi
  listed=$((listed + got))
  body+=$'\n'"cycle $id  period $period  closure $closure  deals $got"$'\n'"$deals"$'\n'
done
if [ "$listed" != "${total:-0}" ]; then
  fail "the census counts ${total:-0} deals that never end, the cycles list $listed" 1
fi

counts=$(for c in "${cycles[@]}"; do cut -f3 <<< "$c"; done | paste -sd ',' - | sed 's/,/ and /g')
periods=$(for c in "${cycles[@]}"; do cut -f2 <<< "$c"; done | sort -u | paste -sd '/' -)
[ ${#cycles[@]} = 1 ] && cycle_word="cycle" || cycle_word="cycles"
[ "$listed" = 1 ] && deal_word="deal" || deal_word="deals"
# Three paragraphs of comment, each filled to 96 columns.
para() { fmt -w 96 <<< "$1" | sed 's/^/# /'; }
para "The deals of $deck ($dealt) that never end, by the cycle they reach: Table 1
(results/census/table1.md)."
para "Source: $source_note: $listed such
$deal_word in ${#cycles[@]} $cycle_word of period $periods ($counts)."
para "The deals themselves are the positions of $hand1 and $hand2 cards with player 1 to
move in each cycle's family (every position that plays into it), found by backward play:
\`ansatz family 'CYCLE' --deck $deck\`, its balanced positions of those sizes ending in (1).
Written by \`$written\`, which checks each cycle's count against the census; tests/results.rs
replays every deal with the reference engine and checks the counts against the census row."
printf '%s' "$body"
