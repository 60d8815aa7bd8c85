#!/bin/bash
# The engine, search and lane tests built for 64-bit ARM (aarch64 Linux, the portable path) and run
# under qemu-user on an x86 machine: a check that the code ARM users run gives the answers the
# tests hold it to, without ARM hardware. No speed figure comes from this (qemu emulates).
# Needs Debian's gcc-aarch64-linux-gnu, libc6-dev-arm64-cross and qemu-user (installed with
# apt-get when missing and allowed), and rustup's aarch64-unknown-linux-gnu target.
# The integration tests that start the ansatz binary start it through qemu as well
# (ANSATZ_TEST_RUNNER, read by tests/common.rs), so no binfmt_misc is needed.
# Usage: scripts/test-aarch64.sh [FILTER...]   (default: engine:: search:: lanes::)
# Builds into target-aarch64/ (ignored by git); about 10 minutes on 2 cores the first time.
set -euo pipefail
# -h or --help prints the comment above.
case "${1:-}" in -h | --help) sed -n '2,/^set -e/{/^#/{s/^# \{0,1\}//;p}}' "$0"; exit 0 ;; esac
cd "$(dirname "$0")/.."
if ! command -v aarch64-linux-gnu-gcc > /dev/null || ! command -v qemu-aarch64 > /dev/null; then
  command -v apt-get > /dev/null || { echo "test-aarch64: needs aarch64-linux-gnu-gcc and qemu-aarch64" >&2; exit 2; }
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo -n"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user > /dev/null
fi
rustup target add aarch64-unknown-linux-gnu > /dev/null 2>&1 || true
filters=("$@")
[ ${#filters[@]} -gt 0 ] || filters=(engine:: search:: lanes::)
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-target-aarch64}
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -L /usr/aarch64-linux-gnu"
target=(--release --target aarch64-unknown-linux-gnu)
echo "== aarch64 under qemu: library tests ${filters[*]}"
cargo test "${target[@]}" --lib -- "${filters[@]}"
echo "== aarch64 under qemu: tests/main.rs ${filters[*]} (the binary started through qemu too)"
ANSATZ_TEST_RUNNER="$CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER" \
  cargo test "${target[@]}" --test main -- "${filters[@]}"
