#!/bin/sh
# Rebuilds the census files of this directory: results/beat-it/beat-it-N.json for N = 1..8.
# Run from the repository root after `cargo build --release`.
set -e
for n in 1 2 3 4 5 6 7 8; do
    target/release/ansatz beat-it census --suit "$n" --out results/beat-it -q
done
