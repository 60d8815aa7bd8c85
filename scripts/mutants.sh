#!/bin/bash
# Mutation testing (issues 63 and 64): cargo-mutants makes small changes (mutants) to the source
# and runs the tests that cover it on each; a mutant the tests do not catch is a bug they would
# miss. A full run does not fit on 2 cores (about 3,000 mutants, a rebuild each), so this runs an
# even sample in shards: cargo-mutants' round-robin shard K of N takes every N-th mutant of the
# sorted list, spread over every file. Two sets:
#   engine  src/engine/ and src/search/exhaustive/ with the engine, lane and exhaustive tests;
#           shards K/110 for K = 0, 11, ..., 99 (together the round-robin shard 0 of 11, about
#           160 mutants, in slices of about 16)
#   trust   one module at a time: notation, position, card, library, backward, ansatz, each
#           with its own tests and the integration tests that read or write it; the sample is
#           every S-th mutant of the module, S its mutant count / 28 (about 28 mutants), run as
#           the four shards K/4S for K = 0, S, 2S, 3S (each about 7 mutants, so that a shard
#           finishes, and is recorded, within an hour or so on 2 cores)
# Each mutant is tested in two tiers, so that a rebuild is one test binary: first the library's
# own tests of the module (`cargo test --lib`, a narrow filter); a mutant they miss is then built
# and tested again with the wider suite (the library and the integration tests that read or write
# the module), and counted missed only if that misses it too. A narrow filter alone undercounts
# (the integration tests catch what the module's own tests do not); the wide suite alone costs
# a rebuild of every test binary and about two minutes of tests for each mutant.
# Each finished shard's outcomes are appended to results/mutants/SET.tsv (one line a mutant:
# shard, outcome, mutant) and its summary to results/mutants/SET-shards.tsv (with how many
# mutants went on to the wide tier), so a run resumes from the repository: shards already listed
# there are skipped. cargo-mutants' logs of each shard stay in target/mutants-out/.
#
# Usage: scripts/mutants.sh engine [N [K...]]     the engine sample (default as above)
#        scripts/mutants.sh trust [MODULE...]      the trust sample (default every module)
#        scripts/mutants.sh SET --list             the set's mutants, counted per file
# It mutates the checkout it runs in (cargo-mutants --in-place, so the build folder is reused
# from one mutant to the next): run it in a worktree of its own, with nothing uncommitted under
# src/ (it refuses otherwise, and puts src/ back when it stops). Lean profile: [profile.mutants].
# MUTANTS_BASELINE=skip skips the unmutated run (when the build folder is warm from an earlier
# run at the same commit). Needs cargo-mutants (cargo install cargo-mutants --locked, run when
# missing).
set -euo pipefail
# The --file globs are cargo-mutants', not the shell's.
set -f
case "${1:-}" in -h | --help | "") sed -n '2,/^set -e/{/^#/{s/^# \{0,1\}//;p}}' "$0"; exit 0 ;; esac
cd "$(git rev-parse --show-toplevel)"
[ -f "$HOME/.cargo/env" ] && . "$HOME/.cargo/env"
command -v cargo-mutants > /dev/null || cargo install cargo-mutants --locked
set_name=$1
shift
out=results/mutants
mkdir -p "$out"

# The files of a module.
files_of() {
  case $1 in
    engine) echo 'src/engine/**/*.rs src/search/exhaustive/**/*.rs' ;;
    notation | position | card) echo "src/$1.rs" ;;
    library | backward | ansatz) echo "src/$1/**/*.rs" ;;
    *) echo "scripts/mutants.sh: unknown set or module '$1'" >&2; exit 2 ;;
  esac
}
# The filters (cargo test's test name filters) of the narrow tier, over the library's tests.
narrow_of() {
  case $1 in
    engine) echo 'engine:: search::exhaustive' ;;
    # The module's path, not its bare name: lib tests named after positions elsewhere would
    # match `position` and take 100 s a mutant.
    notation | position | card | library | backward) echo "$1::" ;;
    ansatz) echo 'ansatz::' ;;
  esac
}
# The filters of the wide tier, over the library's tests and the integration tests.
wide_of() {
  case $1 in
    # The census rows are left out: they test the same walk on larger decks.
    engine) echo 'engine:: lanes:: search::exhaustive search::paulhus_6 search::paulhus_no_number
      search::prefix_sharing search::narrow_walk' ;;
    # Notation, positions and cards are read and printed by almost every command: their own
    # tests, the engine's integration tests (positions parsed and played), the fuzz replays and
    # the golden answers of the CLI.
    notation | position | card) echo 'notation position card engine:: fuzz:: golden::' ;;
    library) echo 'library writes:: fuzz:: pieces::' ;;
    backward) echo 'backward family' ;;
    ansatz) echo 'ansatz:: assemble pieces::' ;;
  esac
}

# Runs cargo-mutants on the mutants `args` select (files, shard or names), building and running
# the test targets of TIER (narrow: the library's; wide: with the integration tests) with the
# name filters `filters`; its outcome files land in DIR/mutants.out, and `outcomes` is set to how
# many it recorded. Each tier's first run checks that its tests pass unmutated.
declare -A baseline=([narrow]=${MUTANTS_BASELINE:-run} [wide]=${MUTANTS_BASELINE:-run})
mutate() {
  local dir=$1 tier=$2 filters=$3
  shift 3
  local cargo_args=(--cargo-arg=--lib)
  [ "$tier" = wide ] && cargo_args+=(--cargo-arg=--test=main)
  # shellcheck disable=SC2086
  cargo mutants --in-place "$@" --baseline "${baseline[$tier]}" --timeout "$timeout" \
    --profile mutants --output "$dir" "${cargo_args[@]}" -- -- $filters || true
  baseline[$tier]=skip
  outcomes=$({ cat "$dir/mutants.out"/{caught,missed,timeout,unviable}.txt 2> /dev/null || true; } | wc -l)
}

# A regex matching exactly the mutant names listed in FILE (cargo-mutants' --re).
names_re() {
  printf '^(%s)$' "$(sed 's/[][\\.+*?(){}|^$]/\\&/g' "$1" | paste -sd '|')"
}

# One shard K/N of the mutants of `files` (module `set`): the narrow tier, then the wide tier on
# what it missed.
run_shard() {
  local set=$1 k=$2 n=$3 files=$4
  if grep -q "^$set	$k/$n	" "$out/$set_name-shards.tsv" 2> /dev/null; then
    echo "$set $k/$n: done before" >&2
    return
  fi
  local file_args=() f
  for f in $files; do file_args+=(--file "$f"); done
  local select=("${file_args[@]}" --shard "$k/$n" --sharding round-robin)
  local want narrow wide got
  want=$(cargo mutants --list "${select[@]}" | wc -l)
  narrow=$(mktemp -d) wide=$(mktemp -d)
  # Recorded only when every mutant has an outcome: an interrupted run (which may still exit 2,
  # "some missed") or a failing baseline leaves the shard unrecorded, so a rerun does it again.
  mutate "$narrow" narrow "$(narrow_of "$set")" "${select[@]}"
  got=$outcomes
  local o="$narrow/mutants.out" w="$wide/mutants.out" sent=0 kind
  if [ "$got" -eq "$want" ] && [ -s "$o/missed.txt" ]; then
    sent=$(wc -l < "$o/missed.txt")
    # cargo-mutants 27 adds every "delete field" mutant of the files to what --re selects, so
    # the wide tier gets only the files of the missed, and keeps only their outcomes.
    local wide_files=()
    for f in $(cut -d: -f1 "$o/missed.txt" | sort -u); do wide_files+=(--file "$f"); done
    mutate "$wide" wide "$(wide_of "$set")" "${wide_files[@]}" --re "$(names_re "$o/missed.txt")"
    for kind in caught missed timeout unviable; do
      grep -Fxf "$o/missed.txt" "$w/$kind.txt" > "$wide/$kind.txt" 2> /dev/null || true
    done
    got=$(($(cat "$wide"/{caught,missed,timeout,unviable}.txt | wc -l) + want - sent))
  fi
  if [ "$got" -ne "$want" ]; then
    echo "scripts/mutants.sh: $set $k/$n has $got outcomes of $want mutants: not recorded" >&2
    rm -rf "$narrow" "$wide"
    exit 1
  fi
  # The narrow tier's outcomes, its missed replaced by the wide tier's outcomes of them.
  for kind in caught missed timeout unviable; do
    {
      [ "$kind" = missed ] || cat "$o/$kind.txt" 2> /dev/null || true
      cat "$wide/$kind.txt" 2> /dev/null || true
    } > "$narrow/$kind.all"
    sed "s|^|$set\t$k/$n\t$kind\t|" "$narrow/$kind.all" >> "$out/$set_name.tsv"
  done
  count() { wc -l < "$narrow/$1.all"; }
  printf '%s\t%s\tcaught %s\tmissed %s\ttimeout %s\tunviable %s\t%s\twide tier %s\n' "$set" \
    "$k/$n" "$(count caught)" "$(count missed)" "$(count timeout)" "$(count unviable)" \
    "$(git rev-parse --short HEAD)" "$sent" >> "$out/$set_name-shards.tsv"
  # cargo-mutants' own output (each mutant's diff and build and test log: why one was unviable)
  # stays in the ignored build folder.
  local keep="target/mutants-out/$set-${k}-of-$n"
  rm -rf "$keep"
  mkdir -p "$keep"
  mv "$o" "$keep/narrow"
  [ -d "$w" ] && mv "$w" "$keep/wide"
  rm -rf "$narrow" "$wide"
}

if [ "${1:-}" = --list ]; then
  mods=(engine)
  [ "$set_name" = trust ] && mods=(notation position card library backward ansatz)
  for m in "${mods[@]}"; do
    args=()
    for f in $(files_of "$m"); do args+=(--file "$f"); done
    echo "== $m: $(cargo mutants --list "${args[@]}" | wc -l) mutants"
    cargo mutants --list "${args[@]}" | sed 's/:.*//' | sort | uniq -c | sort -rn
  done
  exit 0
fi

git diff --quiet -- src || { echo "scripts/mutants.sh: src/ has uncommitted changes (it mutates src/ in place)" >&2; exit 2; }
trap 'git checkout -q -- src' EXIT
# A mutant's tests may take this long (seconds) before it counts as a timeout: the unmutated
# engine tests take about a minute in the lean profile.
timeout=${MUTANTS_TIMEOUT:-300}
case $set_name in
  engine)
    n=${1:-110}
    shift || true
    shards=("$@")
    [ ${#shards[@]} -gt 0 ] || mapfile -t shards < <(seq 0 11 $((n - 1)))
    for k in "${shards[@]}"; do
      run_shard engine "$k" "$n" "$(files_of engine)"
    done
    ;;
  trust)
    mods=("$@")
    [ ${#mods[@]} -gt 0 ] || mods=(notation position card library backward ansatz)
    for m in "${mods[@]}"; do
      args=()
      for f in $(files_of "$m"); do args+=(--file "$f"); done
      total=$(cargo mutants --list "${args[@]}" | wc -l)
      stride=$((total / 28))
      [ "$stride" -ge 1 ] || stride=1
      # Round-robin shard K of 4S holds the mutants i with i % 4S == K: together the four are
      # the mutants i % S == 0.
      for k in 0 "$stride" $((2 * stride)) $((3 * stride)); do
        run_shard "$m" "$k" $((4 * stride)) "$(files_of "$m")"
      done
    done
    ;;
  *) echo "scripts/mutants.sh: unknown set '$set_name' (engine or trust)" >&2; exit 2 ;;
esac
