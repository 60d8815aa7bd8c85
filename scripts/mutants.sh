#!/bin/bash
# Mutation testing (issues 63 and 64): cargo-mutants makes small changes (mutants) to the source
# and runs the tests that cover it on each; a mutant the tests do not catch is a bug they would
# miss. A full run does not fit on 2 cores (about 3,000 mutants, a rebuild each), so this runs an
# even sample in shards: cargo-mutants' round-robin shard K of N takes every N-th mutant of the
# sorted list, spread over every file. Two sets:
#   engine  src/engine/ and src/search/exhaustive/ with the engine, lane and exhaustive tests;
#           shards K/110 for K = 0, 11, ..., 99, then 5, 16, ..., 104 (together the round-robin
#           shards 0 and 5 of 11, about 330 mutants, four fifths of them viable, in slices of
#           about 16; each slice is itself spread over every file, so the sample stays even
#           wherever a run stops)
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
#        scripts/mutants.sh SET --recheck [MODULE...]
#                                                  the mutants SET.tsv lists as missed (of the
#                                                  modules given, default all), again at HEAD
#                                                  (after their tests): SET-recheck.tsv, where
#                                                  these modules' lines replace their old ones
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
    # The CLI's search tests too: the engine table under each ANSATZ_ISA and the exhaustive
    # run's totals, checkpoints and resumes (a mutant of the lanes' availability or of the
    # run's planning counts got past the rest).
    engine) echo 'engine:: lanes:: search::exhaustive search::paulhus_6 search::paulhus_no_number
      search::prefix_sharing search::narrow_walk search::multi search::the_engine_table
      search::cli_exhaustive search::a_fresh_search search::a_resumed_search' ;;
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
# name filters `filters`; its outcome files land in DIR/mutants.out. Each tier's first run checks
# that its tests pass unmutated.
declare -A baseline=([narrow]=${MUTANTS_BASELINE:-run} [wide]=${MUTANTS_BASELINE:-run})
mutate() {
  local dir=$1 tier=$2 filters=$3
  shift 3
  local cargo_args=(--cargo-arg=--lib)
  [ "$tier" = wide ] && cargo_args+=(--cargo-arg=--test=main)
  # shellcheck disable=SC2086
  cargo mutants --in-place "$@" --baseline "${baseline[$tier]}" --timeout "${timeout_of[$tier]}" \
    --profile mutants --output "$dir" "${cargo_args[@]}" -- -- $filters || true
  baseline[$tier]=skip
}

# A regex matching exactly the mutant names listed in FILE (cargo-mutants' --re).
names_re() {
  printf '^(%s)$' "$(sed 's/[][\\.+*?(){}|^$]/\\&/g' "$1" | paste -sd '|')"
}

# Tests the mutants `args` select (WANT of them) of module SET in two tiers: the narrow tier,
# then the wide tier on what it missed. Leaves each outcome's mutants in $narrow/KIND.all (the
# narrow tier's, its missed replaced by the wide tier's outcomes of them), $sent the number sent
# to the wide tier, and $got the outcomes; fails when a mutant has none. KEEP (a regex; default
# any) keeps only the outcomes of mutants whose names match it.
two_tiers() {
  local set=$1
  want=$2
  shift 2
  local keep_re=${keep:-.}
  narrow=$(mktemp -d) wide=$(mktemp -d)
  # Recorded only when every mutant has an outcome: an interrupted run (which may still exit 2,
  # "some missed") or a failing baseline leaves the shard unrecorded, so a rerun does it again.
  mutate "$narrow" narrow "$(narrow_of "$set")" "$@"
  local o="$narrow/mutants.out" w="$wide/mutants.out" kind f
  for kind in caught missed timeout unviable; do
    grep -E "$keep_re" "$o/$kind.txt" > "$narrow/$kind.txt" 2> /dev/null || true
  done
  got=$(cat "$narrow"/{caught,missed,timeout,unviable}.txt | wc -l)
  sent=0
  if [ "$got" -eq "$want" ] && [ -s "$narrow/missed.txt" ]; then
    sent=$(wc -l < "$narrow/missed.txt")
    # cargo-mutants 27 adds every "delete field" mutant of the files to what --re selects, so
    # the wide tier gets only the files of the missed, and keeps only their outcomes.
    local wide_files=()
    for f in $(cut -d: -f1 "$narrow/missed.txt" | sort -u); do wide_files+=(--file "$f"); done
    mutate "$wide" wide "$(wide_of "$set")" "${wide_files[@]}" \
      --re "$(names_re "$narrow/missed.txt")"
    for kind in caught missed timeout unviable; do
      grep -Fxf "$narrow/missed.txt" "$w/$kind.txt" > "$wide/$kind.txt" 2> /dev/null || true
    done
    got=$(($(cat "$wide"/{caught,missed,timeout,unviable}.txt | wc -l) + want - sent))
  fi
  for kind in caught missed timeout unviable; do
    {
      [ "$kind" = missed ] || cat "$narrow/$kind.txt"
      cat "$wide/$kind.txt" 2> /dev/null || true
    } > "$narrow/$kind.all"
  done
  [ "$got" -eq "$want" ]
}

# Moves cargo-mutants' own output of the last two_tiers (each mutant's diff and build and test
# log: why one was unviable) to target/mutants-out/NAME, in the ignored build folder.
keep_logs() {
  local dir="target/mutants-out/$1"
  rm -rf "$dir"
  mkdir -p "$dir"
  if [ -d "$narrow/mutants.out" ]; then mv "$narrow/mutants.out" "$dir/narrow"; fi
  if [ -d "$wide/mutants.out" ]; then mv "$wide/mutants.out" "$dir/wide"; fi
  rm -rf "$narrow" "$wide"
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
  two_tiers "$set" "$(cargo mutants --list "${select[@]}" | wc -l)" "${select[@]}" || {
    echo "scripts/mutants.sh: $set $k/$n has $got outcomes of $want mutants: not recorded" >&2
    exit 1
  }
  local kind
  for kind in caught missed timeout unviable; do
    sed "s|^|$set\t$k/$n\t$kind\t|" "$narrow/$kind.all" >> "$out/$set_name.tsv"
  done
  count() { wc -l < "$narrow/$1.all"; }
  printf '%s\t%s\tcaught %s\tmissed %s\ttimeout %s\tunviable %s\t%s\twide tier %s\n' "$set" \
    "$k/$n" "$(count caught)" "$(count missed)" "$(count timeout)" "$(count unviable)" \
    "$(git rev-parse --short HEAD)" "$sent" >> "$out/$set_name-shards.tsv"
  keep_logs "$set-${k}-of-$n"
}

# The mutants SET.tsv lists as missed (of the modules MODS, default every one with a missed
# mutant), tested again at HEAD in both tiers (after the tests added for them), their outcomes to
# results/mutants/SET-recheck.tsv (module, outcome, mutant, commit). Each module's lines replace
# its lines of an earlier recheck as soon as it is done, so a stopped recheck keeps the modules
# it finished. A mutant's line and column may have moved since, so it is matched at any (every
# mutant of that name in its file is tested); one whose code is gone is listed as `gone`.
recheck() {
  local m names re files f kind name one head file="$out/$set_name-recheck.tsv" mods=("$@")
  local lines="$file.lines" tmp="$file.tmp"
  head=$(git rev-parse --short HEAD)
  [ ${#mods[@]} -gt 0 ] ||
    mapfile -t mods < <(awk -F'\t' '$3 == "missed" { print $1 }' "$out/$set_name.tsv" | sort -u)
  for m in "${mods[@]}"; do
    names=$(mktemp)
    awk -F'\t' -v m="$m" '$1 == m && $3 == "missed" { print $4 }' "$out/$set_name.tsv" |
      sort -u > "$names"
    [ -s "$names" ] || { echo "$m: no missed mutant to recheck" >&2; rm -f "$names"; continue; }
    re=$(printf '^(%s)$' "$(any_line < "$names" | paste -sd '|')")
    files=()
    for f in $(cut -d: -f1 "$names" | sort -u); do files+=(--file "$f"); done
    keep=$re two_tiers "$m" "$(cargo mutants --list "${files[@]}" --re "$re" | grep -cE "$re")" \
      "${files[@]}" --re "$re" || {
      echo "scripts/mutants.sh: recheck of $m has $got outcomes of $want mutants" >&2
      exit 1
    }
    : > "$lines"
    for kind in caught missed timeout unviable; do
      sed "s|^|$m\t$kind\t|; s|\$|\t$head|" "$narrow/$kind.all" >> "$lines"
    done
    while read -r name; do
      one=$(printf '^%s$' "$(printf '%s\n' "$name" | any_line)")
      # (Named one by one: `set -f` above keeps the shell from expanding `*`.)
      grep -qhE "$one" "$narrow"/{caught,missed,timeout,unviable}.all ||
        printf '%s\tgone\t%s\t%s\n' "$m" "$name" "$head" >> "$lines"
    done < "$names"
    { awk -F'\t' -v m="$m" '$1 != m' "$file" 2> /dev/null || true; cat "$lines"; } > "$tmp"
    mv "$tmp" "$file"
    rm -f "$lines"
    keep_logs "recheck-$m"
    rm -f "$names"
  done
}

# Mutant names (one a line) as regexes matching them at any line and column.
any_line() {
  sed -E 's/[][\\.+*?(){}|^$]/\\&/g; s/^([^:]*):[0-9]+:[0-9]+:/\1:[0-9]+:[0-9]+:/'
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
# A mutant's tests may take this long (seconds) before it counts as a timeout, in each tier
# (MUTANTS_NARROW_TIMEOUT, MUTANTS_TIMEOUT): the engine's narrow tests take about 4 s unmutated
# in the lean profile, so 120 s is ample even on a loaded machine (a mutant that loops forever
# then costs two minutes, not five); the trust modules' narrow tests and every wide tier take a
# minute or two.
narrow_timeout=300
[ "$set_name" = engine ] && narrow_timeout=120
declare -A timeout_of=([narrow]=${MUTANTS_NARROW_TIMEOUT:-$narrow_timeout} [wide]=${MUTANTS_TIMEOUT:-300})
if [ "${1:-}" = --recheck ]; then
  shift
  recheck "$@"
  exit 0
fi
case $set_name in
  engine)
    n=${1:-110}
    shift || true
    shards=("$@")
    [ ${#shards[@]} -gt 0 ] || mapfile -t shards < <(seq 0 11 $((n - 1)); seq 5 11 $((n - 1)))
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
