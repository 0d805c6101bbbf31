#!/usr/bin/env bash
# The native runtime's cost on the native benchmark programs
# (workloads/native/suite.tsv): each program built with clang -O2 plain and
# through `lowprof cc`, run in the runtime's configurations, as instruction
# counts (valgrind --tool=cachegrind, --smc-check=all since the runtime
# writes the program's text) at a sixteenth of the default size, and median
# user CPU time of alternating runs at the default size.
#
#   rt_overhead.sh [-b BUILD] [-r ROUNDS] [-n] [-t] [PROGRAM...]
#
# -b  the meson build folder holding src/cli/lowprof (default: build)
# -r  timing rounds (default: 5)   -n  no timing   -t  no instruction counts
# Prints a Markdown table per program: ratios against the plain build. The
# runtime's start-up (reading the symbol table, scanning the text) costs
# about 0.3 M instructions, included in the counts.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
native=$root/workloads/native
build=$root/build rounds=5 timing=1 counting=1
while getopts "b:r:nt" opt; do
  case $opt in
    b) build=$(cd "$OPTARG" && pwd) ;;
    r) rounds=$OPTARG ;;
    n) timing=0 ;;
    t) counting=0 ;;
    *) sed -n '2,15p' "$0" >&2; exit 2 ;;
  esac
done
# A sixteenth of each program's default size (its *_main.c), for the
# instruction counts: cachegrind runs about 50 times slower.
declare -A count_size=([interp]=56 [compress]=768 [json]=44 [graph]=135 [raytrace]=64
                       [mtsort]=500)
shift $((OPTIND - 1))
lowprof=$build/src/cli/lowprof
[ -x "$lowprof" ] || { echo "no $lowprof: build first" >&2; exit 1; }
command -v clang >/dev/null || { echo "clang is needed" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "valgrind is needed" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# name | lowprof cc --profiles | LOWPROF
configs=(
  "plain|-|"
  "entries, off|call-graph|strategy=never"
  "entries, off, shipped At End (against the row above)|call-graph|strategy=never,ship=At-End,spool=spool"
  "entries, on (all methods)|call-graph|strategy=always,hot=all"
  "entries, periodic 10% (the default, hot=all)|call-graph|"
  "entries, periodic 25% all|call-graph|strategy=periodic,duty=25,hot=all"
  "entries, phase, all|call-graph|strategy=phase,hot=all"
  "blocks, off|block|strategy=never,profiles=block"
  "blocks, on (all methods)|block|strategy=always,hot=all,profiles=block"
  "everything, off|call-graph,block|strategy=never,profiles=call-graph,block"
  "everything, on|call-graph,block|strategy=always,hot=all,profiles=call-graph,block"
)

insns() { # exe args... -> instruction count
  valgrind --tool=cachegrind --cache-sim=no --smc-check=all --cachegrind-out-file=/dev/null \
    "$@" 2>&1 >/dev/null | awk '/I *refs:/ {gsub(",", "", $NF); print $NF}'
}

usertime() { # exe args... -> user seconds
  /usr/bin/time -o "$work/time" -f %U "$@" >/dev/null 2>&1
  tail -1 "$work/time"
}

median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

while IFS=$'\t' read -r name srcs link dargs sargs dsum ssum; do
  case $name in ''|'#'*) continue ;; esac
  if [ $# -gt 0 ]; then
    keep=0; for p in "$@"; do [ "$p" = "$name" ] && keep=1; done
    [ $keep = 1 ] || continue
  fi
  args=$dargs; [ "$args" = - ] && args=
  cargs=${count_size[$name]:-$sargs}
  linkf=(); [ "$link" != - ] && read -ra linkf <<<"$link"
  src=(); for s in $srcs; do src+=("$native/$s"); done
  declare -A exe=()
  for c in "${configs[@]}"; do
    IFS='|' read -r label prof env <<<"$c"
    key=${prof//,/_}
    [ -n "${exe[$key]:-}" ] && continue
    out=$work/$name-$key
    if [ "$prof" = - ]; then
      clang -O2 "${src[@]}" -o "$out" "${linkf[@]}" || exit 1
    else
      "$lowprof" cc --profiles="$prof" --cc=clang -- -O2 "${src[@]}" -o "$out" "${linkf[@]}" || exit 1
    fi
    exe[$key]=$out
  done
  echo
  echo "## $name"
  echo
  echo "| configuration | instructions (size $cargs) | ratio | user s ($dargs, median of $rounds) | ratio |"
  echo "|---|---|---|---|---|"
  base_i= base_t=
  declare -A times=()
  if [ $timing = 1 ]; then
    for ((r = 0; r < rounds; r++)); do
      for c in "${configs[@]}"; do
        IFS='|' read -r label prof env <<<"$c"
        t=$(cd "$work" && LOWPROF="${env:+$env,}out=$work/p.lpprof" usertime "${exe[${prof//,/_}]}" $args)
        times[$label]="${times[$label]:-} $t"
      done
    done
  fi
  for c in "${configs[@]}"; do
    IFS='|' read -r label prof env <<<"$c"
    i=-
    [ $counting = 1 ] && i=$(cd "$work" && LOWPROF="${env:+$env,}out=$work/p.lpprof" insns "${exe[${prof//,/_}]}" $cargs)
    t=-
    [ $timing = 1 ] && t=$(tr ' ' '\n' <<<"${times[$label]}" | grep . | median)
    [ -z "$base_i" ] && base_i=$i && base_t=$t
    ri=-
    [ $counting = 1 ] && ri=$(awk -v a="$i" -v b="$base_i" 'BEGIN {printf "%.3f", a / b}')
    rt=-
    [ $timing = 1 ] && rt=$(awk -v a="$t" -v b="$base_t" 'BEGIN {printf "%.3f", (b > 0) ? a / b : 0}')
    echo "| $label | $i | $ri | $t | $rt |"
  done
  unset exe times
done <"$native/suite.tsv"
