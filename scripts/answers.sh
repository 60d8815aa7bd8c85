#!/bin/bash
# The answers of a fixed set of commands, as JSON facts without timings, for holding a refactor to
# its base: run it with the base commit's binary and with the new one, then compare the folders.
# Every command runs under each instruction set the processor has (ANSATZ_ISA=avx512, avx2 and
# portable; one that it lacks gives the best it has, which the facts' `isa` then shows).
# Usage: scripts/answers.sh BINARY OUT            writes OUT/NAME.ISA.json, one file a command
#        scripts/answers.sh --compare OLD NEW     exits 1 and shows the differences if any
# Facts: the command's --json output less its timings and rates (seconds, games_per_second, ...,
# the `run` object of result files, and the machine facts `isa` and `lanes`: the file name holds
# the instruction set asked for, and the suite checks that it is what ran); everything else must
# be equal. The set: play (a cycle,
# a terminating game, a trace), family, predecessors, extend, mutate, find-pieces, bench (lanes
# and the bitboard engine), search random (standard, small, 3 players, past 64 cards), search
# exhaustive (whole small decks and slices at 24, 26, 28, 32, 34, 36 and 44 cards, a deck past
# the kinds queue, 3 players, --naive), assemble, discover on small decks. About 3 minutes.
set -euo pipefail
case "${1:-}" in -h | --help) sed -n '2,/^set -e/{/^#/{s/^# \{0,1\}//;p}}' "$0"; exit 0 ;; esac
drop='walk(if type == "object" then with_entries(select(.key | test("per_second|^seconds$|^run$|^elapsed$|^rate$|^isa$|^lanes$") | not)) else . end)'
if [ "${1:-}" = --compare ]; then
  old=$2 new=$3 bad=0
  for f in "$old"/*.json; do
    g="$new/$(basename "$f")"
    if [ ! -f "$g" ]; then echo "missing: $g"; bad=1; continue; fi
    if ! diff -q <(jq -S "$drop" "$f") <(jq -S "$drop" "$g") > /dev/null; then
      echo "differs: $(basename "$f")"
      diff <(jq -S "$drop" "$f") <(jq -S "$drop" "$g") | head -20
      bad=1
    fi
  done
  [ $bad = 0 ] && echo "same answers: $(ls "$old"/*.json | wc -l) files"
  exit $bad
fi
bin=$(realpath "$1") out=$2
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
paper='---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA (1)'
# NAME ISAS ARGS...: runs ARGS with --json under each ISA of ISAS (a comma list).
run() {
  local name=$1 isas=$2
  shift 2
  for isa in ${isas//,/ }; do
    # An answer already there (an interrupted run of this script) is kept.
    [ -s "$out/$name.$isa.json" ] && continue
    local dir="$work/$name.$isa"
    mkdir -p "$dir"
    (cd "$dir" && ANSATZ_ISA=$isa "$bin" "$@" --json > "$out/$name.$isa.json" 2> "$dir/stderr") ||
      { local rc=$?; [ $rc = 1 ] || { echo "$name ($isa) failed ($rc):" >&2; cat "$dir/stderr" >&2; exit 2; }; }
    jq -e . "$out/$name.$isa.json" > /dev/null
  done
}
all=avx512,avx2,portable
run play-cycle $all play "$paper"
run play-ends $all play 'K-A--QJ---J-Q---K--A-K-J-/--A-Q---Q-J----K--A---- (2)'
run play-trace avx512 play --trace 'J--/-J-'
run play-wide $all play "$(printf -- '-%.0s' {1..40})JQKA$(printf -- '-%.0s' {1..20})QQ/$(printf -- '-%.0s' {1..30})KKAAJJ$(printf -- '-%.0s' {1..10})"
run family $all family
run predecessors avx512 predecessors 'K---A----AAJ--J--------K---------Q-Q-K---Q-KAQJ-/--J- (2)'
run extend $all extend 'K-A--QJ---J-Q---K--A-K-J-/--A-Q---Q-J----K--A---- (2)' -q --results . --max-positions 200000
run mutate avx512 mutate -q "$paper"
run find-pieces $all find-pieces --max-len 16 -q --out pieces.bin
run bench $all bench --games 300000 --threads 2
run bench-bits avx512 bench --games 100000 --threads 2 --engine bits
run random $all search random --games 300000 --seed 7 -q --out .
run random-small $all search random --games 200000 --deck 24-4J4Q4K4A -q --out .
run random-faces $all search random --games 100000 --deck 20-6J6Q6K6A -q --out .
run random-3p $all search random --games 20000 --players 3 -q --out .
run random-wide $all search random --games 3000 --deck 72-8J8Q8K8A -q --out .
run random-balanced avx512,portable search random --games 100000 --balanced-faces -q --out .
run ex-8 $all search exhaustive --deck 8-2J2Q2K2A -q --out .
run ex-24 $all search exhaustive --deck 24-2J2Q2K2A --shard 0/1024 -q --out .
run ex-18 $all search exhaustive --deck 18-2J2Q2K2A --shard 3/64 -q --out .
run ex-15x2 $all search exhaustive --deck 15-2J2Q2K2A --extra-card 2 --shard 1/16 -q --out .
run ex-26 $all search exhaustive --deck 26-2J2Q2K2A --shard 0/8192 -q --out .
run ex-28 $all search exhaustive --deck 28-2J2Q2K2A --shard 0/16384 -q --out .
run ex-36 $all search exhaustive --deck 36-2J2Q2K2A --shard 0/262144 -q --out .
run ex-faces $all search exhaustive --deck 6-4J4Q4K4A --shard 0/262144 -q --out .
run ex-16faces $all search exhaustive --deck 2-4J4Q4K4A --shard 5/65536 -q --out .
run ex-3p avx512 search exhaustive --deck 3-1J1Q1K --players 3 -q --out .
run ex-naive avx512 search exhaustive --deck 5-1J1Q1K1A --naive -q --out .
run assemble $all assemble --limit 300000 --balance -q --out .
run discover-small avx512,avx2 discover --deck 16-2J2Q2K2A -q --out .
run discover-routes avx512 discover --deck 12-2J2Q2K --whole-deck-limit 0 -q --out .
echo "$(ls "$out"/*.json | wc -l) answers in $out"
