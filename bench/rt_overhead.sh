#!/usr/bin/env bash
# The native runtime's cost on the native benchmark programs
# (workloads/native/suite.tsv): each program built with clang -O2 plain and
# through `lowprof cc`, run in the runtime's configurations, as instruction
# counts (valgrind --tool=cachegrind, --smc-check=all since the runtime
# writes the program's text) at a sixteenth of the default size, and median
# CPU time (user + system) of alternating runs at the default size.
#
#   rt_overhead.sh [-b BUILD] [-r ROUNDS] [-l LAYOUTS] [-k REGEX] [-n] [-t]
#                  [PROGRAM...]
#
# -b  the meson build folder holding src/cli/lowprof (default: build)
# -r  timing rounds (default: 5)   -n  no timing   -t  no instruction counts
# -l  code placements (default: 1). With more, every build is made again
#     with a pad linked before the program, so that the program's code
#     (the copies too) starts (k * 1040) mod 4096 bytes past a page
#     boundary, k = 1..L-1 (placement 0 is the build as it is); each
#     placement's time is taken against its own plain build and the
#     table gives the median over placements, and the lowest and highest.
#     A program's time moves by several percent with its placement alone
#     (interp's copy-resident dispatch loop: +8 % and +21 % at 10 %
#     windows in two builds of the same source), more than the targets'
#     margins. Instructions are counted on placement 0.
# -k  only the configurations whose name matches REGEX (grep -E; plain is
#     always kept), e.g. -k 'off|10%'
# Prints a Markdown table per program, ratios against the plain build, and
# with timing a last table: each configuration's overhead on the median
# program. The runtime's start-up (reading the symbol table, scanning the
# text) costs about 0.3 M instructions, included in the counts; CPU time
# includes the daemon thread's.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
native=$root/workloads/native
build=$root/build rounds=5 timing=1 counting=1 layouts=1 keep=.
while getopts "b:r:l:k:nt" opt; do
  case $opt in
    b) build=$(cd "$OPTARG" && pwd) ;;
    r) rounds=$OPTARG ;;
    l) layouts=$OPTARG ;;
    k) keep=$OPTARG ;;
    n) timing=0 ;;
    t) counting=0 ;;
    *) sed -n '2,30p' "$0" >&2; exit 2 ;;
  esac
done
[[ $layouts =~ ^[1-9][0-9]*$ && $layouts -le 64 ]] || { echo "-l: 1 to 64 placements" >&2; exit 2; }
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "-r: a positive number of rounds" >&2; exit 2; }
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
  "blocks, periodic 10% (hot=all)|block|strategy=periodic,duty=10,hot=all,profiles=block"
  "entries, periodic 25% all|call-graph|strategy=periodic,duty=25,hot=all"
  "entries, phase, all|call-graph|strategy=phase,hot=all"
  "blocks, off|block|strategy=never,profiles=block"
  "blocks, on (all methods)|block|strategy=always,hot=all,profiles=block"
  "everything, off|call-graph,block|strategy=never,profiles=call-graph,block"
  "everything, on|call-graph,block|strategy=always,hot=all,profiles=call-graph,block"
)

# Keep plain and what -k selects.
sel=()
for c in "${configs[@]}"; do
  IFS='|' read -r label prof env <<<"$c"
  if [ "$prof" = - ] || grep -Eq -- "$keep" <<<"$label"; then sel+=("$c"); fi
done
configs=("${sel[@]}")

insns() { # exe args... -> instruction count
  valgrind --tool=cachegrind --cache-sim=no --smc-check=all --cachegrind-out-file=/dev/null \
    "$@" 2>&1 >/dev/null | awk '/I *refs:/ {gsub(",", "", $NF); print $NF}'
}

cpu() { # exe args... -> user + system seconds
  /usr/bin/time -o "$work/time" -f '%U %S' "$@" >/dev/null 2>&1
  tail -1 "$work/time" | awk '{printf "%.3f\n", $1 + $2}'
}

median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

# Windows run in CPU time, and under valgrind a program runs about 50
# times slower while the daemon does not: the instructions of a windowed
# run are mostly the daemon's, and say nothing of a native run.
windowed() { [[ ! $1 =~ strategy=(never|always) ]]; }

# The pads: placement k starts the program's code (k * 1040) mod 4096
# bytes past a page boundary (a multiple of 16, so each function keeps its
# alignment); the C run-time's start-up code stays before the pad.
pads=()
for ((k = 0; k < layouts; k++)); do
  pads+=($((k * 1040 % 4096)))
  printf '__asm__(".text\\n.p2align 12\\n.globl lp_bench_pad\\nlp_bench_pad:\\n.skip %d, 0xcc\\n");\n' \
    "${pads[k]}" >"$work/pad$k.c"
  clang -c "$work/pad$k.c" -o "$work/pad$k.o" || exit 1
done

declare -A summary=()
programs=()
while IFS=$'\t' read -r name srcs link dargs sargs dsum ssum; do
  case $name in ''|'#'*) continue ;; esac
  if [ $# -gt 0 ]; then
    want=0; for p in "$@"; do [ "$p" = "$name" ] && want=1; done
    [ $want = 1 ] || continue
  fi
  programs+=("$name")
  args=$dargs; [ "$args" = - ] && args=
  cargs=${count_size[$name]:-$sargs}
  linkf=(); [ "$link" != - ] && read -ra linkf <<<"$link"
  src=(); for s in $srcs; do src+=("$native/$s"); done
  declare -A exe=()
  for ((k = 0; k < layouts; k++)); do
    echo "$name: building placement $((k + 1)) of $layouts" >&2
    pad=(); ((k > 0)) && pad=("$work/pad$k.o")
    for c in "${configs[@]}"; do
      IFS='|' read -r label prof env <<<"$c"
      key=${prof//,/_}.$k
      [ -n "${exe[$key]:-}" ] && continue
      out=$work/$name-$key
      if [ "$prof" = - ]; then
        clang -O2 "${pad[@]}" "${src[@]}" -o "$out" "${linkf[@]}" || exit 1
      else
        "$lowprof" cc --profiles="$prof" --cc=clang -- -O2 "${pad[@]}" "${src[@]}" -o "$out" \
          "${linkf[@]}" || exit 1
      fi
      exe[$key]=$out
    done
  done
  declare -A times=()
  if [ $timing = 1 ]; then
    for ((r = 0; r < rounds; r++)); do
      echo "$name: round $((r + 1)) of $rounds" >&2
      for ((k = 0; k < layouts; k++)); do
        for c in "${configs[@]}"; do
          IFS='|' read -r label prof env <<<"$c"
          t=$(cd "$work" && LOWPROF="${env:+$env,}out=$work/p.lpprof" cpu "${exe[${prof//,/_}.$k]}" $args)
          times[$label.$k]+="$t "
        done
      done
    done
  fi
  echo
  echo "## $name"
  echo
  if ((layouts == 1)); then
    echo "| configuration | instructions (size $cargs) | ratio | CPU s ($dargs, median of $rounds) | ratio |"
    echo "|---|---|---|---|---|"
  else
    echo "| configuration | instructions (size $cargs) | ratio | CPU time ratio ($dargs), median of $layouts placements | lowest | highest |"
    echo "|---|---|---|---|---|---|"
  fi
  base_i=
  for c in "${configs[@]}"; do
    IFS='|' read -r label prof env <<<"$c"
    i=-
    if [ $counting = 1 ] && { [ "$prof" = - ] || ! windowed "$env"; }; then
      i=$(cd "$work" && LOWPROF="${env:+$env,}out=$work/p.lpprof" insns "${exe[${prof//,/_}.0]}" $cargs)
    fi
    [ -z "$base_i" ] && base_i=$i
    ri=-
    [ "$i" != - ] && ri=$(awk -v a="$i" -v b="$base_i" 'BEGIN {printf "%.3f", a / b}')
    if [ $timing = 0 ]; then
      echo "| $label | $i | $ri | - | - |"
      continue
    fi
    # Each placement's ratio against its own plain build.
    ratios=()
    for ((k = 0; k < layouts; k++)); do
      m=$(tr ' ' '\n' <<<"${times[$label.$k]}" | grep . | median)
      b=$(tr ' ' '\n' <<<"${times[plain.$k]}" | grep . | median)
      ratios+=("$(awk -v a="$m" -v b="$b" 'BEGIN {printf "%.4f", (b > 0) ? a / b : 0}')")
    done
    mr=$(printf '%s\n' "${ratios[@]}" | median)
    summary[$label]+="$mr "
    if ((layouts == 1)); then
      echo "| $label | $i | $ri | $(tr ' ' '\n' <<<"${times[$label.0]}" | grep . | median) | $(printf '%.3f' "$mr") |"
    else
      lo=$(printf '%s\n' "${ratios[@]}" | sort -g | head -1)
      hi=$(printf '%s\n' "${ratios[@]}" | sort -g | tail -1)
      echo "| $label | $i | $ri | $(printf '%.3f' "$mr") | $lo | $hi |"
    fi
  done
  unset exe times
done <"$native/suite.tsv"

if [ $timing = 1 ] && [ ${#programs[@]} -gt 1 ]; then
  echo
  echo "## The median program (${programs[*]})"
  echo
  echo "| configuration | CPU time over plain, % |"
  echo "|---|---:|"
  for c in "${configs[@]}"; do
    IFS='|' read -r label prof env <<<"$c"
    [ "$prof" = - ] && continue
    m=$(tr ' ' '\n' <<<"${summary[$label]}" | grep . | median)
    echo "| $label | $(awk -v m="$m" 'BEGIN {printf "%+.2f", (m - 1) * 100}') |"
  done
fi
[ $counting = 1 ] && echo && echo "(Windowed configurations have no instruction count: under valgrind their windows hold mostly the daemon's work.)"
