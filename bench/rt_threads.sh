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
#                 [-l LAYOUTS] [-C]
#
# -b  the meson build folder holding src/cli/lowprof (default: build)
# -r  rounds (default: 7)   -c  calls per thread (default: 20000000)
# -t  the thread counts (default: "1 16"; one thread needs -c 200000000
#     or so for runs long enough to time)
# -l  code placements (default: 1). With more, every build is made again
#     with its functions moved by (k * 1040) mod 4096 bytes and lowprof's
#     copies of them by (k * 1552) mod 4096 more, k = 0..L-1, and each
#     placement's overhead is taken against its own plain build;
#     the table gives the median over placements, and the lowest and the
#     highest. In a loop this small the placement alone moves a build's
#     time by ±15 %.
# -C  leave out clang's -fprofile-instr-generate (its 16-thread runs take
#     half a minute each)
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
build=$root/build rounds=7 calls=20000000 counts="1 16" layouts=1 clang_pgo=1
while getopts "b:r:c:t:l:C" opt; do
  case $opt in
    b) build=$(cd "$OPTARG" && pwd) ;;
    r) rounds=$OPTARG ;;
    c) calls=$OPTARG ;;
    t) counts=$OPTARG ;;
    l) layouts=$OPTARG ;;
    C) clang_pgo=0 ;;
    *) sed -n '2,25p' "$0" >&2; exit 2 ;;
  esac
done
[[ $layouts =~ ^[1-9][0-9]*$ && $layouts -le 64 ]] || { echo "-l: 1 to 64 placements" >&2; exit 2; }
lowprof=$build/src/cli/lowprof
[ -x "$lowprof" ] || { echo "no $lowprof: build first" >&2; exit 1; }
command -v clang >/dev/null || { echo "clang is needed" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src=$here/rt_threads.c

pads=()
for ((k = 0; k < layouts; k++)); do
  pad=$((k * 1040 % 4096)) copy_pad=$((k * 1552 % 4096))
  pads+=("$pad/$copy_pad")
  def=() # placement 0 is the program as it is
  ((k > 0)) && def=(-DRT_PAD="\"$pad\"" -DRT_COPY_PAD="\"$copy_pad\"")
  echo "building placement $((k + 1)) of $layouts" >&2
  clang -O2 "${def[@]}" "$src" -o "$work/plain.$k" -pthread || exit 1
  if ((clang_pgo)); then
    clang -O2 -fprofile-instr-generate "${def[@]}" "$src" -o "$work/pgo.$k" -pthread || exit 1
  fi
  "$lowprof" cc --profiles=call-graph --cc=clang -- -O2 "${def[@]}" "$src" -o "$work/lp.$k" -pthread || exit 1
done

# name | binary | LOWPROF
configs=("plain|plain|")
((clang_pgo)) && configs+=("clang -fprofile-instr-generate|pgo|")
configs+=(
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
  declare -A times=() over=()
  for ((r = 1; r <= rounds; r++)); do
    echo "threads $threads: round $r of $rounds" >&2
    for ((k = 0; k < layouts; k++)); do
      for c in "${configs[@]}"; do
        IFS='|' read -r name bin env <<<"$c"
        times[$name.$k]+="$(cpu "$bin.$k" "$threads" "$env") "
      done
    done
  done
  # Each placement's overhead against its own plain build.
  for ((k = 0; k < layouts; k++)); do
    base=$(tr ' ' '\n' <<<"${times[plain.$k]}" | grep . | median)
    for c in "${configs[@]}"; do
      IFS='|' read -r name bin env <<<"$c"
      m=$(tr ' ' '\n' <<<"${times[$name.$k]}" | grep . | median)
      over[$name]+="$(awk -v m="$m" -v b="$base" 'BEGIN {printf "%.4f", (m / b - 1) * 100}') "
      [ "$name" = plain ] && over[plain.s]+="$m "
    done
  done
  echo
  if ((layouts == 1)); then
    echo "### $threads thread(s), $calls calls each: CPU time over the plain build's (median of $rounds)"
    echo
    echo "| configuration | overhead % |"
    echo "|---|---:|"
  else
    echo "### $threads thread(s), $calls calls each: CPU time over the plain build's, $layouts placements (pads ${pads[*]} bytes: functions/copies), median of $rounds rounds each"
    echo
    echo "| configuration | overhead %, median of the placements | lowest | highest |"
    echo "|---|---:|---:|---:|"
  fi
  for c in "${configs[@]}"; do
    IFS='|' read -r name bin env <<<"$c"
    tr ' ' '\n' <<<"${over[$name]}" | grep . | sort -g | awk -v n="$name" -v l="$layouts" '
      {v[NR] = $1}
      END {
        m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
        if (l == 1) printf "| %s | %.2f |\n", n, m
        else printf "| %s | %.2f | %.2f | %.2f |\n", n, m, v[1], v[NR]
      }'
  done
  echo
  echo "plain build's median CPU time per placement, s: ${over[plain.s]}"
  unset times over
done
