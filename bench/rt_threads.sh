#!/usr/bin/env bash
# The native runtime's thread scaling (bench/rt_threads.c): the program
# built plain, through `lowprof cc` (copies counting inline, per thread)
# and with clang's -fprofile-instr-generate (counters shared by every
# thread), run with 1 and with 16 threads making the same calls each.
# Prints, per thread count, each configuration's median CPU time (user +
# system, of alternating runs: every round runs every configuration once)
# over the plain build's, as overhead in percent.
#
#   rt_threads.sh [-b BUILD] [-r ROUNDS] [-c CALLS] [-t "THREADS..."]
#
# -b  the meson build folder holding src/cli/lowprof (default: build)
# -r  rounds (default: 7)   -c  calls per thread (default: 20000000)
# -t  the thread counts (default: "1 16"; one thread needs -c 200000000
#     or so for runs long enough to time)
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
build=$root/build rounds=7 calls=20000000 counts="1 16"
while getopts "b:r:c:t:" opt; do
  case $opt in
    b) build=$(cd "$OPTARG" && pwd) ;;
    r) rounds=$OPTARG ;;
    c) calls=$OPTARG ;;
    t) counts=$OPTARG ;;
    *) sed -n '2,16p' "$0" >&2; exit 2 ;;
  esac
done
lowprof=$build/src/cli/lowprof
[ -x "$lowprof" ] || { echo "no $lowprof: build first" >&2; exit 1; }
command -v clang >/dev/null || { echo "clang is needed" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src=$here/rt_threads.c
clang -O2 "$src" -o "$work/plain" -pthread || exit 1
clang -O2 -fprofile-instr-generate "$src" -o "$work/pgo" -pthread || exit 1
"$lowprof" cc --profiles=call-graph --cc=clang -- -O2 "$src" -o "$work/lp" -pthread || exit 1

# name | binary | LOWPROF
configs=(
  "plain|plain|"
  "clang -fprofile-instr-generate|pgo|"
  "lowprof, off|lp|strategy=never"
  "lowprof, 10 % windows|lp|strategy=periodic,duty=10,hot=all"
  "lowprof, always on|lp|strategy=always,hot=all"
)

cpu() { # binary threads LOWPROF -> user+system seconds
  local out TIMEFORMAT='%U %S'
  out=$( { time (cd "$work" && LOWPROF=$3,out=$work/p.lpprof LLVM_PROFILE_FILE=$work/p.profraw \
                   "$work/$1" "$2" "$calls" >/dev/null); } 2>&1 | tail -1)
  awk '{printf "%.4f\n", $1 + $2}' <<<"$out"
}

median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

for threads in $counts; do
  declare -A times=()
  for ((r = 1; r <= rounds; r++)); do
    echo "threads $threads: round $r of $rounds" >&2
    for c in "${configs[@]}"; do
      IFS='|' read -r name bin env <<<"$c"
      times[$name]+="$(cpu "$bin" "$threads" "$env") "
    done
  done
  base=$(tr ' ' '\n' <<<"${times[plain]}" | grep . | median)
  echo
  echo "### $threads thread(s), $calls calls each: CPU time over the plain build's (median of $rounds)"
  echo
  echo "| configuration | median s | overhead % |"
  echo "|---|---:|---:|"
  for c in "${configs[@]}"; do
    IFS='|' read -r name bin env <<<"$c"
    m=$(tr ' ' '\n' <<<"${times[$name]}" | grep . | median)
    awk -v n="$name" -v m="$m" -v b="$base" 'BEGIN {printf "| %s | %.3f | %.2f |\n", n, m, (m / b - 1) * 100}'
  done
  unset times
done
