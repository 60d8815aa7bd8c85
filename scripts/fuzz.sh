#!/usr/bin/env bash
# Fuzzes the readers of untrusted input (fuzz/: cargo-fuzz on libFuzzer, nightly). Installs the
# nightly toolchain and cargo-fuzz when they are missing, builds the seed corpora from the
# repository's own files when missing (scripts/fuzz-corpus.sh), then runs the targets one at a
# time, each bounded in memory (-rss_limit_mb) and per input (-timeout). A crash leaves its
# input in fuzz/artifacts/TARGET/ and fails the run.
#
# Usage: scripts/fuzz.sh --smoke               every target 20 s (the smoke run .ci/run makes)
#        scripts/fuzz.sh [SECONDS [TARGET...]]  a campaign: each target SECONDS (default 1800 = 30 CPU-minutes)
#
# Corpora grow in fuzz/corpus/TARGET/ (ignored by git). The final line libFuzzer prints per target
# (executions, cov, ft) goes to fuzz/logs/TARGET.log; fuzz/README.md records the campaigns.
# Campaigns build with AddressSanitizer (cargo-fuzz's default). The smoke run builds without it
# (FUZZ_SANITIZER=none): a build of minutes rather than tens of minutes on 2 cores, and the
# readers it runs hold no unsafe code, so what it can find (panics, hangs, allocations past the
# bound) needs no sanitizer. FUZZ_SANITIZER=address|none overrides either.
# -h or --help prints the comment above.
set -euo pipefail
case "${1:-}" in -h | --help) sed -n '2,/^set -e/{/^#/{s/^# \{0,1\}//;p}}' "$0"; exit 0 ;; esac
cd "$(dirname "$0")/.."
[ -f "$HOME/.cargo/env" ] && . "$HOME/.cargo/env"
seconds=1800
sanitizer=${FUZZ_SANITIZER:-address}
seed=()
if [ "${1:-}" = --smoke ]; then
  seconds=20
  sanitizer=${FUZZ_SANITIZER:-none}
  # A gate, not a search: the same mutation sequence every run, so a smoke run that passes here
  # explores alike on CI (the campaigns draw a fresh seed each run and do the searching).
  seed=(-seed=1)
  shift
elif [ -n "${1:-}" ]; then
  seconds=$1
  shift
fi
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(notation spec library checkpoint shard results beat_it)

if ! rustup run nightly rustc --version > /dev/null 2>&1; then
  rustup toolchain install nightly --profile minimal
fi
command -v cargo-fuzz > /dev/null 2>&1 || cargo install cargo-fuzz --locked
[ -d fuzz/corpus ] || scripts/fuzz-corpus.sh

# The fuzz crate builds into its own folder, apart from the stable builds.
export CARGO_TARGET_DIR="${FUZZ_TARGET_DIR:-$PWD/fuzz/target}"
cd fuzz
cargo +nightly fuzz build --sanitizer "$sanitizer"
mkdir -p logs
failed=()
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t" "artifacts/$t"
  echo "== fuzz $t: ${seconds} s"
  if ! cargo +nightly fuzz run --sanitizer "$sanitizer" "$t" "corpus/$t" -- \
    -max_total_time="$seconds" "${seed[@]}" -rss_limit_mb=2048 -timeout=10 -max_len=65536 \
    -print_final_stats=1 > "logs/$t.log" 2>&1; then
    failed+=("$t")
    tail -40 "logs/$t.log"
  fi
  grep -E '^(#[0-9]+.*DONE|Done [0-9]+ runs|stat::number_of_executed_units|stat::peak_rss_mb)' "logs/$t.log" || true
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: ${failed[*]} failed (inputs in fuzz/artifacts/)"
  exit 1
fi
echo "fuzz: ${#targets[@]} targets, ${seconds} s each, no crash"
