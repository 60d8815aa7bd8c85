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
# Each finished shard's outcomes are appended to results/mutants/SET.tsv (one line a mutant:
# shard, outcome, mutant) and its summary to results/mutants/SET-shards.tsv, so a run resumes
# from the repository: shards already listed there are skipped. cargo-mutants' logs of each
# shard stay in target/mutants-out/.
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

# The files of a module and the tests that cover it (after cargo test's `--`: test name filters).
files_of() {
  case $1 in
    engine) echo 'src/engine/**/*.rs src/search/exhaustive/**/*.rs' ;;
    notation | position | card) echo "src/$1.rs" ;;
    library | backward | ansatz) echo "src/$1/**/*.rs" ;;
    *) echo "scripts/mutants.sh: unknown set or module '$1'" >&2; exit 2 ;;
  esac
}
tests_of() {
  case $1 in
    # The census rows are left out: they test the same walk on larger decks.
    engine) echo '--lib --test main -- engine:: lanes:: search::exhaustive search::paulhus_6
      search::paulhus_no_number search::prefix_sharing search::narrow_walk' ;;
    # Notation, positions and cards are read and printed by almost every command: their own
    # tests, the engine's integration tests (positions parsed and played), the fuzz replays and
    # the golden answers of the CLI.
    notation | position | card) echo '--lib --test main -- notation position card engine::
      fuzz:: golden::' ;;
    library) echo '--lib --test main -- library writes:: fuzz:: pieces::' ;;
    backward) echo '--lib --test main -- backward family' ;;
    ansatz) echo '--lib --test main -- ansatz:: assemble pieces::' ;;
  esac
}

# One shard K/N of the mutants of `files` with `tests`, recorded under `set`.
run_shard() {
  local set=$1 k=$2 n=$3 files=$4 tests=$5
  if grep -q "^$set	$k/$n	" "$out/$set_name-shards.tsv" 2> /dev/null; then
    echo "$set $k/$n: done before" >&2
    return
  fi
  local file_args=() f
  for f in $files; do file_args+=(--file "$f"); done
  local dir
  dir=$(mktemp -d)
  # The first shard of a run checks that the tests pass unmutated; the later ones reuse that.
  local rc=0
  # shellcheck disable=SC2086
  cargo mutants --in-place "${file_args[@]}" --shard "$k/$n" --sharding round-robin \
    --baseline "$baseline" --timeout "$timeout" --profile mutants --output "$dir" \
    -- $tests || rc=$?
  baseline=skip
  local o="$dir/mutants.out" kind
  # Recorded only when every mutant has an outcome: an interrupted run (which may still exit 2,
  # "some missed") or a failing baseline leaves the shard unrecorded, so a rerun does it again.
  local want got
  want=$(cargo mutants --list "${file_args[@]}" --shard "$k/$n" --sharding round-robin | wc -l)
  got=$(cat "$o"/{caught,missed,timeout,unviable}.txt 2> /dev/null | wc -l)
  if [ "$got" -ne "$want" ]; then
    echo "scripts/mutants.sh: $set $k/$n has $got outcomes of $want mutants (cargo-mutants exit $rc): not recorded" >&2
    rm -rf "$dir"
    exit 1
  fi
  for kind in caught missed timeout unviable; do
    [ -f "$o/$kind.txt" ] || continue
    sed "s|^|$set\t$k/$n\t$kind\t|" "$o/$kind.txt" >> "$out/$set_name.tsv"
  done
  count() { [ -f "$o/$1.txt" ] && wc -l < "$o/$1.txt" || echo 0; }
  printf '%s\t%s\tcaught %s\tmissed %s\ttimeout %s\tunviable %s\t%s\n' "$set" "$k/$n" \
    "$(count caught)" "$(count missed)" "$(count timeout)" "$(count unviable)" \
    "$(git rev-parse --short HEAD)" >> "$out/$set_name-shards.tsv"
  # cargo-mutants' own output (each mutant's diff and build and test log: why one was unviable)
  # stays in the ignored build folder.
  local keep="target/mutants-out/$set-${k}-of-$n"
  rm -rf "$keep"
  mkdir -p target/mutants-out
  mv "$o" "$keep"
  rm -rf "$dir"
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
baseline=${MUTANTS_BASELINE:-run}
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
      run_shard engine "$k" "$n" "$(files_of engine)" "$(tests_of engine)"
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
        run_shard "$m" "$k" $((4 * stride)) "$(files_of "$m")" "$(tests_of "$m")"
      done
    done
    ;;
  *) echo "scripts/mutants.sh: unknown set '$set_name' (engine or trust)" >&2; exit 2 ;;
esac
