#!/usr/bin/env bash
# Builds the seed corpora of the fuzz targets (fuzz/corpus/TARGET/, ignored by git) from the
# repository's own files: the positions of tests/data, the deck specs, templates and frames the
# docs use, the small piece libraries, the result files under results/, and checkpoints and shard
# files made by short runs of the release binary (built when missing) in a scratch folder.
# Usage: scripts/fuzz-corpus.sh   (scripts/fuzz.sh runs it when a corpus is missing)
# -h or --help prints the comment above.
set -euo pipefail
case "${1:-}" in -h | --help) sed -n '2,/^set -e/{/^#/{s/^# \{0,1\}//;p}}' "$0"; exit 0 ;; esac
cd "$(dirname "$0")/.."
bin="${CARGO_TARGET_DIR:-target}/release/ansatz"
[ -x "$bin" ] || cargo build --release
corpus=fuzz/corpus
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
n=0
# seed TARGET PREFIX_BYTE_OCTAL FILE: FILE's bytes, after one flag byte when PREFIX is not "-".
seed() {
  local dir="$corpus/$1" out
  mkdir -p "$dir"
  n=$((n + 1))
  out="$dir/seed-$n"
  if [ "$2" = - ]; then cat "$3" > "$out"; else { printf "\\$2"; cat "$3"; } > "$out"; fi
}
line_seeds() { # TARGET FILE...: one seed per line that is not a comment (first 400 bytes)
  local t=$1 l
  shift
  while IFS= read -r l; do
    [ -z "$l" ] || [ "${l:0:1}" = "#" ] && continue
    printf '%s' "${l:0:400}" > "$scratch/line"
    seed "$t" - "$scratch/line"
  done < <(cat "$@")
}

# Positions: every known-answer line and each position alone (the second word).
for f in tests/data/known-answers.txt tests/data/games-2024.txt tests/data/camicia-never-ending.txt tests/data/record-game.txt; do
  line_seeds notation "$f"
  awk '!/^#/ && NF >= 2 {print $2, $3}' "$f" > "$scratch/pos"
  line_seeds notation "$scratch/pos"
done
printf '%s\n' '2H 3S KD/AS JC (2)' '0042301/4010 (1)' '*--J/K- ' '-/●J-' '..A/J.' 'A-/-/-J (3)' > "$scratch/more"
line_seeds notation "$scratch/more"

# Deck specs, frames, filters and shard specs, one per input and as discover's four lines.
printf '%s\n' standard camicia 8-2J2Q2K2A 2J2Q 36-4J4Q4K4A 16-2J2Q2K2A 0/4 3/8 -/J- '--/J- (2)' '---/-J-' '--------Q-AQ-Q-' > "$scratch/specs"
line_seeds spec "$scratch/specs"
printf 'standard\nQ\n\n\n' > "$scratch/d1" && seed spec - "$scratch/d1"
printf '30-2J2Q2K2A\nK\n---/-J-\n\n' > "$scratch/d2" && seed spec - "$scratch/d2"
printf 'standard\n\n\n--------Q-AQ-Q-\n' > "$scratch/d3" && seed spec - "$scratch/d3"
for f in templates/*.txt templates/census/*.txt; do seed spec - "$f"; done

# Piece libraries under 16 KiB: as they are (flag 0), and without their checksum (flag 1: the
# target sets the length and checksum).
for f in pieces/*.bin; do
  [ "$(stat -c %s "$f")" -lt 16384 ] || continue
  seed library 000 "$f"
  head -c -8 "$f" > "$scratch/body" && seed library 001 "$scratch/body"
done

# Result files (reproduce, catalogue) under 64 KiB.
while IFS= read -r f; do
  [ "$(stat -c %s "$f")" -lt 65536 ] && seed results - "$f"
done < <(find results -name '*.jsonl' -o -name '*.json' | sort)

# Beat It or Eat It: positions and tables of the sample game and the manual.
grep -E '^(start|hands|solve)' tests/data/beat-it-sample.txt | sed -E 's/^(start|hands|solve) //; s/ \| /\n/; s/ \|.*//' > "$scratch/bi"
line_seeds beat_it "$scratch/bi"
printf 'AQT.K/.AQT (1)\n8h Jh 8s Js 9h Kh 9s' > "$scratch/bi2" && seed beat_it - "$scratch/bi2"

# Checkpoints, made by short runs stopped part way (the flag byte picks the reader: 0 find-pieces,
# 2 assemble, 4 search random, 6 search exhaustive, 8 family, 10 discover).
w="$scratch/run"
mkdir -p "$w"
"$bin" find-pieces --max-len 13 --max-faces 3 --ranges 300 --stop-after-ranges 3 --threads 1 -q --out "$w/lib.bin" > /dev/null 2>&1 || true
seed checkpoint 000 "$w/lib.bin.checkpoint"
"$bin" assemble --stop-after-units 2 --threads 1 -q --out "$w/as" > /dev/null 2>&1 || true
for f in "$w"/as/work/*.checkpoint "$w"/as/*.checkpoint; do [ -f "$f" ] && seed checkpoint 002 "$f"; done
"$bin" search random --games 3000 -q --out "$w/rnd" > /dev/null
for f in "$w"/rnd/*.checkpoint.json "$w"/rnd/work/*.checkpoint.json; do [ -f "$f" ] && seed checkpoint 004 "$f"; done
"$bin" search exhaustive --deck 4-1J1Q1K1A -q --out "$w/ex" > /dev/null
for f in "$w"/ex/*.checkpoint.json "$w"/ex/work/*.checkpoint.json; do [ -f "$f" ] && seed checkpoint 006 "$f"; done
"$bin" family --checkpoint-every 0 --stop-after-levels 3 --out "$w/fam.json" '---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA (1)' > /dev/null 2>&1 || true
for f in "$w"/fam.json.checkpoint "$w"/work/fam.json.checkpoint; do [ -f "$f" ] && seed checkpoint 010 "$f"; done
# A discover step folder: its fingerprint, then steps, separated by 0xFF.
d=$(find shards -name '*.checkpoint' -type d | head -1)
if [ -n "$d" ]; then
  { cat "$d/fingerprint.txt"; for s in $(ls "$d" | grep json | head -3); do printf '\377'; head -c 4000 "$d/$s"; done; } > "$scratch/steps"
  seed checkpoint 012 "$scratch/steps"
fi

# Shard files of short job arrays (a lone shard 0/1 merges alone), as they are (flag 0) and as
# a payload (flag 1: the target frames it).
"$bin" search random --games 3000 --shard 0/1 -q --out "$w/sr" > /dev/null
"$bin" search exhaustive --deck 4-1J1Q1K1A --shard 0/1 -q --out "$w/se" > /dev/null
"$bin" find-pieces --max-len 12 --max-faces 3 --shard 0/1 -q --out "$w/sf/lib.bin" > /dev/null
"$bin" family --shard 0/1 --out "$w/sfam/f.json" 'J--/-J-' > /dev/null 2>&1 || true
while IFS= read -r f; do
  seed shard 000 "$f"
  tail -c +29 "$f" > "$scratch/payload" && seed shard 001 "$scratch/payload"
done < <(find "$w" -name '*.shard-*.bin' -o -name '*.shard-0-of-1' | sort)

for t in "$corpus"/*; do echo "$(basename "$t"): $(ls "$t" | wc -l) seeds"; done
