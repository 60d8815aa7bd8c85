#!/bin/bash
# Speed of two builds side by side, for holding a change to its base: each command of a fixed set
# runs with the base binary and the new one in turn (interleaved, so a change of machine load
# hits both alike), ROUNDS times under each instruction set asked for, and the best CPU
# seconds of each are printed with the ratio new/base (above 1: the new build is slower), and
# beside it the median of the rounds' own ratios and their range: a bar of a few per cent needs
# that range inside it. On a machine of two cores or more a round runs the two builds at the
# same time, each pinned to its own core (swapped from round to round): a shared machine's load
# comes and goes within seconds, and a round run at once sees the same load on both, where
# one run after the other does not (SPEED_PAIRED=0: one after the other, unpinned).
# Usage: scripts/speed.sh BASE_BINARY NEW_BINARY [ROUNDS [ISA...]]
#        (ROUNDS default 6; ISAs default: those the processor has of avx512 avx2 portable)
#        SPEED_ONLY='ex24 ex36' scripts/speed.sh ...   only the commands named
# The set (issue 63): bench --games 4000000 --threads 1; search random --games 2000000 --seed 7
# --threads 1; search exhaustive slices at 24, 26, 32, 36 and 44 cards (--threads 1); family of the
# 2024 cycle (400 runs in a row: one takes about a millisecond). Everything runs in a scratch
# folder. Pause other work on the machine first: each build runs one thread, on a core of its
# own when paired, and a third process on either core moves the figures by several per cent.
set -euo pipefail
case "${1:-}" in -h | --help | "") sed -n '2,/^set -e/{/^#/{s/^# \{0,1\}//;p}}' "$0"; exit 0 ;; esac
base=$(realpath "$1") new=$(realpath "$2") rounds=${3:-6}
shift 2
[ $# -gt 0 ] && shift
isas=("$@")
if [ ${#isas[@]} -eq 0 ]; then
  grep -qw avx512f /proc/cpuinfo && isas+=(avx512)
  grep -qw avx2 /proc/cpuinfo && isas+=(avx2)
  isas+=(portable)
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
declare -A cmds=(
  [bench]="bench --games 4000000 --threads 1"
  [random]="search random --games 2000000 --seed 7 --threads 1 -q --out ."
  [ex24]="search exhaustive --deck 16-2J2Q2K2A --shard 0/64 --threads 1 -q --out ."
  [ex26]="search exhaustive --deck 18-2J2Q2K2A --shard 0/128 --threads 1 -q --out ."
  [ex32]="search exhaustive --deck 24-2J2Q2K2A --shard 0/1024 --threads 1 -q --out ."
  [ex36]="search exhaustive --deck 28-2J2Q2K2A --shard 0/2048 --threads 1 -q --out ."
  [ex44]="search exhaustive --deck 36-2J2Q2K2A --shard 0/16384 --threads 1 -q --out ."
  [family]="family --threads 1 -q --out family.json"
)
# How many runs in a row one measurement is (the rest: 1).
declare -A reps=([family]=400)
order=(bench random ex24 ex26 ex32 ex36 ex44 family)
[ -n "${SPEED_ONLY:-}" ] && read -ra order <<< "$SPEED_ONLY"
# CPU seconds (user and system: the kernel's work for a command, its page faults above all, is
# its cost too) of $times runs of BIN ARGS... under ANSATZ_ISA=$isa, in a fresh scratch folder
# (CORE: pinned to that core, if not empty), written to the file OUT.
cpu_s() {
  local out=$1 core=$2 bin=$3 dir
  shift 3
  local pin=()
  [ -z "$core" ] || pin=(taskset -c "$core")
  dir=$(mktemp -d -p "$work")
  (cd "$dir" && ANSATZ_ISA=$isa /usr/bin/time -f '%U %S' -o "$dir/.t" "${pin[@]}" \
    bash -c 'for ((i = 0; i < $0; i++)); do "$@" > /dev/null 2>&1; done' "$times" "$bin" "$@")
  awk '{ printf "%.2f\n", $1 + $2 }' "$dir/.t" > "$out"
}
paired=${SPEED_PAIRED:-1}
[ "$(nproc)" -ge 2 ] || paired=0
# Round R: the base's and the new build's seconds, one per line.
round() {
  local r=$1
  shift
  if [ "$paired" = 1 ]; then
    cpu_s "$work/b" $((r % 2)) "$base" "$@" &
    cpu_s "$work/n" $(((r + 1) % 2)) "$new" "$@" &
    wait
  else
    cpu_s "$work/b" "" "$base" "$@"
    cpu_s "$work/n" "" "$new" "$@"
  fi
  cat "$work/b" "$work/n"
}
best() { printf '%s\n' "$@" | sort -g | head -1; }
# The median, the geometric mean, the lowest and the highest of the ratios NEW_i / BASE_i
# (arguments: the base seconds, then as many new seconds). Paired over an even number of
# rounds, the geometric mean cancels what one core has over the other (each build had each core
# as often).
ratios() {
  local half=$(($# / 2)) i
  local -a a=("$@")
  for ((i = 0; i < half; i++)); do echo "${a[half + i]} / ${a[i]}" | bc -l; done | sort -g |
    awk '{ r[NR] = $1; l += log($1) } END { printf "%7.3f %7.3f %7.3f-%.3f", r[int((NR + 1) / 2)], exp(l / NR), r[1], r[NR] }'
}
mode="one after the other"
[ "$paired" = 1 ] && mode="base and new at once, one per core"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores; $mode"
printf '%-8s %-9s %9s %9s %7s %7s %7s %s\n' command isa base_s new_s new/base median gmean range
for isa in "${isas[@]}"; do
  for name in "${order[@]}"; do
    read -ra args <<< "${cmds[$name]}"
    times=${reps[$name]:-1}
    b=() n=()
    for ((r = 0; r < rounds; r++)); do
      mapfile -t t < <(round "$r" "${args[@]}")
      b+=("${t[0]}") n+=("${t[1]}")
    done
    bb=$(best "${b[@]}") nn=$(best "${n[@]}")
    printf '%-8s %-9s %9s %9s %7.3f %s\n' "$name" "$isa" "$bb" "$nn" "$(echo "$nn / $bb" | bc -l)" \
      "$(ratios "${b[@]}" "${n[@]}")"
  done
done
