#!/usr/bin/env bash
# The native runtime's cost on the native benchmark programs
# (workloads/native/suite.tsv): each program built with clang -O2 plain and
# through `lowprof cc`, run in the runtime's configurations, as instruction
# counts (valgrind --tool=cachegrind, --smc-check=all since the runtime
# writes the program's text) at a sixteenth of the default size, and median
# CPU time (user + system) of alternating runs at the default size.
# bzip2 1.0.8 from Debian's source runs after them (`bzip2 -c` of a 3 MB
# text, bzip2_common.sh, counted and timed on that text).
#
#   rt_overhead.sh [-b BUILD] [-r ROUNDS] [-l LAYOUTS] [-k REGEX] [-s SEEDS]
#                  [-f] [-n] [-t] [-L one|two] [-a ARGS] [-d BZIP2-SOURCE]
#                  [-c CACHE] [-P MS] [PROGRAM...]
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
# -s  seeds of the windows' random start for a windowed configuration's
#     instruction count and its daemon's share of a native run's CPU time
#     (default: 1); the table gives the medians
# -f  count instructions at the default size, not a sixteenth of it: 16
#     times longer under valgrind, and what the phase strategy needs (its
#     intervals are 200 ms, longer than a sixteenth of any program's run)
# -L  `lowprof cc --loops` of the runtime's builds (default: cc's, one)
# -P  period= of the periodic configurations that set none (the
#     runtime's default: 20 ms), named in their labels
# -a  arguments appended to the suite's programs' own, counted and timed
#     alike: `-a '-t 16' mtsort` runs mtsort's sort with 16 threads
# -d  a bzip2 source folder; without it the source is fetched once with
#     `apt-get source bzip2` into CACHE (default:
#     ~/.cache/lowprof/debian-source; debian_source.sh)
# PROGRAM: names of the suite's programs, or bzip2 (default: all and bzip2)
# Prints a Markdown table per program, ratios against the plain build, and
# a last table: each configuration's overhead on the median program, in
# instructions and, with timing, in CPU time. The runtime's start-up
# (reading the symbol table, scanning the text) costs about 0.3 M
# instructions, included in the counts; CPU time includes the daemon
# thread's, a windowed instruction count only the program's threads (the
# daemon's share of CPU time is in its own column, from a native run).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
native=$root/workloads/native
build=$root/build rounds=5 timing=1 counting=1 layouts=1 keep=. seeds=1 full=0 bzsrc= loops=() extra=
period=
cache=${XDG_CACHE_HOME:-$HOME/.cache}/lowprof/debian-source
while getopts "b:r:l:k:s:fntL:a:d:c:P:" opt; do
  case $opt in
    P) period=$OPTARG ;;
    a) extra=$OPTARG ;;
    L) loops=(--loops="$OPTARG") ;;
    d) bzsrc=$(cd "$OPTARG" && pwd) || exit 2 ;;
    c) cache=$OPTARG ;;
    b) build=$(cd "$OPTARG" && pwd) ;;
    r) rounds=$OPTARG ;;
    l) layouts=$OPTARG ;;
    k) keep=$OPTARG ;;
    s) seeds=$OPTARG ;;
    f) full=1 ;;
    n) timing=0 ;;
    t) counting=0 ;;
    *) sed -n '2,50p' "$0" >&2; exit 2 ;;
  esac
done
[[ $layouts =~ ^[1-9][0-9]*$ && $layouts -le 64 ]] || { echo "-l: 1 to 64 placements" >&2; exit 2; }
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "-r: a positive number of rounds" >&2; exit 2; }
[[ $seeds =~ ^[1-9][0-9]*$ && $seeds -le 100 ]] || { echo "-s: 1 to 100 seeds" >&2; exit 2; }
[[ -z $period || ( $period =~ ^[1-9][0-9]*$ && $period -le 10000 ) ]] || { echo "-P: 1 to 10000 ms" >&2; exit 2; }
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
. "$here/debian_source.sh"
. "$here/bzip2_common.sh"

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
  "everything, periodic 10% (what eval pgo collects)|call-graph,block|strategy=periodic,duty=10,hot=all,profiles=call-graph,block"
)

# Keep plain and what -k selects.
sel=()
for c in "${configs[@]}"; do
  IFS='|' read -r label prof env <<<"$c"
  if [ "$prof" = - ] || grep -Eq -- "$keep" <<<"$label"; then sel+=("$c"); fi
done
configs=("${sel[@]}")
windowed() { [[ ! $1 =~ strategy=(never|always) ]]; }
# -P: the windowed configurations' period, where they set none.
if [ -n "$period" ]; then
  for i in "${!configs[@]}"; do
    IFS='|' read -r label prof env <<<"${configs[i]}"
    if [ "$prof" != - ] && windowed "$env" && [[ ! $env =~ period=|strategy=phase ]]; then
      configs[i]="$label, period $period ms|$prof|${env:+$env,}period=$period"
    fi
  done
fi

insns() { # exe args... -> instruction count
  valgrind --tool=cachegrind --cache-sim=no --smc-check=all --cachegrind-out-file=/dev/null \
    "$@" 2>&1 >/dev/null | awk '/I *refs:/ {gsub(",", "", $NF); print $NF}'
}

cpu() { # exe args... -> user + system seconds
  /usr/bin/time -o "$work/time" -f '%U %S' "$@" >/dev/null 2>&1
  tail -1 "$work/time" | awk '{printf "%.3f\n", $1 + $2}'
}

median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
# The median of a list of ratios as a percentage over 1, or - for none.
pct() { # "r1 r2 ..."
  [ -n "${1// /}" ] || { echo -; return; }
  tr ' ' '\n' <<<"$1" | grep . | median | awk '{printf "%+.2f\n", ($1 - 1) * 100}'
}

# A windowed run under valgrind. Windows and phase intervals are measured
# in the process's CPU time, and under valgrind a program burns 15 to 60
# times more of it for the same work (slow, the plain build's CPU time
# under callgrind over its native CPU time): the period is multiplied by
# that factor, so that a window holds the program's work it holds natively
# and the run has as many windows. Valgrind runs one thread at a time; its
# default scheduler left the daemon waiting for the whole run (no window
# opened), --fair-sched=yes hands the lock round in turn. The count is the
# program's threads' instructions, the daemon's left out (its thread file
# is the one whose root is lp__rt_main): under valgrind it spends them at
# the same pace per window, but its native price is its CPU time, which
# the daemon column gives.
winsns() { # slow env exe args... -> instructions of the program's threads
  local slow=$1 env=$2 exe=$3; shift 3
  local base=20 period
  [[ $env =~ strategy=phase ]] && base=200
  [[ $env =~ period=([0-9]+) ]] && base=${BASH_REMATCH[1]}
  period=$(awk -v b="$base" -v s="$slow" 'BEGIN {p = int(b * s + 0.5); print (p < 1) ? 1 : p}')
  rm -f "$work"/cg.out*
  LOWPROF="${env:+$env,}period=$period,out=$work/p.lpprof" valgrind --tool=callgrind \
    --fair-sched=yes --separate-threads=yes --smc-check=all --callgrind-out-file="$work/cg.out" \
    "$exe" "$@" >/dev/null 2>&1 || return 1
  local total=0 f n
  for f in "$work"/cg.out*; do
    grep -Eq '^c?fn=\([0-9]+\) lp__rt_main$' "$f" && continue
    n=$(awk '/^(summary|totals):/ {print $2; exit}' "$f")
    total=$((total + ${n:-0}))
  done
  echo "$total"
}

# The slowdown of winsns: plain's CPU time under callgrind over its native
# CPU time (median of three), at the counted size.
slowdown() { # plain-exe args...
  local vg nat t
  vg=$(/usr/bin/time -f '%U %S' valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" \
         2>&1 >/dev/null | tail -1 | awk '{print $1 + $2}')
  nat=$(for t in 1 2 3; do cpu "$@"; done | median)
  awk -v a="$vg" -v b="$nat" 'BEGIN {printf "%.1f\n", (b > 0) ? a / b : 50}'
}

# The daemon thread's share of a native run's CPU time (the profile's
# daemon-cpu-ns over cpu-ns), in percent.
daemon_share() { # env exe args...
  local env=$1 exe=$2; shift 2
  LOWPROF="${env:+$env,}out=$work/d.lpprof" "$exe" "$@" >/dev/null 2>&1 || { echo -; return; }
  "$lowprof" info "$work/d.lpprof" 2>/dev/null |
    awk '$1 == "cpu-ns" {c = $2} $1 == "daemon-cpu-ns" {d = $2} END {if (c > 0) printf "%.2f\n", 100 * d / c; else print "-"}'
}

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

declare -A summary=() isummary=() dsummary=()
programs=()
# One program: built in every configuration, timed and counted, its table
# printed and its ratios added to the summary.
measure() { # name args count-args link-flags source...
  local name=$1 args=$2 cargs=$3 linkf=() src
  [ -n "$4" ] && read -ra linkf <<<"$4"
  shift 4
  src=("$@")
  programs+=("$name")
  local -A exe=() times=()
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
        "$lowprof" cc --profiles="$prof" "${loops[@]}" --cc=clang -- -O2 "${pad[@]}" "${src[@]}" -o "$out" \
          "${linkf[@]}" || exit 1
      fi
      exe[$key]=$out
    done
  done
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
  slow=
  if [ $counting = 1 ]; then
    for c in "${configs[@]}"; do
      IFS='|' read -r label prof env <<<"$c"
      if [ "$prof" != - ] && windowed "$env"; then
        echo "$name: measuring valgrind's slowdown" >&2
        slow=$(cd "$work" && slowdown "${exe[-.0]}" $cargs)
        break
      fi
    done
  fi
  echo
  echo "## $name"
  echo
  [ -n "$slow" ] && echo "Windowed instruction counts: periods multiplied by ${slow} (valgrind's slowdown), median of $seeds seed(s)." && echo
  if ((layouts == 1)); then
    echo "| configuration | instructions (size $cargs) | ratio | daemon, % of CPU | CPU s ($dargs, median of $rounds) | ratio |"
    echo "|---|---|---|---|---|---|"
  else
    echo "| configuration | instructions (size $cargs) | ratio | daemon, % of CPU | CPU time ratio ($dargs), median of $layouts placements | lowest | highest |"
    echo "|---|---|---|---|---|---|---|"
  fi
  base_i=
  for c in "${configs[@]}"; do
    IFS='|' read -r label prof env <<<"$c"
    i=- d=-
    if [ $counting = 1 ]; then
      if [ "$prof" != - ] && windowed "$env"; then
        echo "$name: counting $label" >&2
        i=$(for ((s = 1; s <= seeds; s++)); do
              (cd "$work" && winsns "$slow" "${env:+$env,}seed=$s" "${exe[${prof//,/_}.0]}" $cargs)
            done | grep . | median)
        # the daemon's share moves by half a point from run to run (its
        # text writes interrupt the program's processor, or not, as the
        # scheduler places the two): the median of the seeds' runs
        d=$(for ((s = 1; s <= seeds; s++)); do
              (cd "$work" && daemon_share "${env:+$env,}seed=$s" "${exe[${prof//,/_}.0]}" $args)
            done | grep -v '^-$' | median)
        [ -n "$d" ] || d=-
      else
        i=$(cd "$work" && LOWPROF="${env:+$env,}out=$work/p.lpprof" insns "${exe[${prof//,/_}.0]}" $cargs)
      fi
    fi
    [ -z "$base_i" ] && base_i=$i
    ri=-
    [ -n "$i" ] && [ "$i" != - ] && ri=$(awk -v a="$i" -v b="$base_i" 'BEGIN {printf "%.4f", a / b}')
    [ "$prof" != - ] && [ "$ri" != - ] && isummary[$label]+="$ri "
    # the program's threads' instructions plus the daemon's share of CPU
    # time: a windowed run's price in one figure
    [ "$prof" != - ] && [ "$ri" != - ] && [ "$d" != - ] &&
      dsummary[$label]+="$(awk -v r="$ri" -v d="$d" 'BEGIN {printf "%.4f", r + d / 100}') "
    if [ $timing = 0 ]; then
      echo "| $label | $i | $ri | $d | - | - |"
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
      echo "| $label | $i | $ri | $d | $(tr ' ' '\n' <<<"${times[$label.0]}" | grep . | median) | $(printf '%.3f' "$mr") |"
    else
      lo=$(printf '%s\n' "${ratios[@]}" | sort -g | head -1)
      hi=$(printf '%s\n' "${ratios[@]}" | sort -g | tail -1)
      echo "| $label | $i | $ri | $d | $(printf '%.3f' "$mr") | $lo | $hi |"
    fi
  done
}

wanted() { # name: on the command line, or none named
  [ ${#names[@]} = 0 ] && return 0
  local p; for p in "${names[@]}"; do [ "$p" = "$1" ] && return 0; done
  return 1
}
names=("$@")
while IFS=$'\t' read -r name srcs link dargs sargs dsum ssum; do
  case $name in ''|'#'*) continue ;; esac
  wanted "$name" || continue
  args=$dargs; [ "$args" = - ] && args=
  cargs=${count_size[$name]:-$sargs}
  [ $full = 1 ] && cargs=$args
  args="$args${extra:+ $extra}" cargs="$cargs${extra:+ $extra}"
  [ "$link" = - ] && link=
  src=(); for s in $srcs; do src+=("$native/$s"); done
  measure "$name" "$args" "$cargs" "$link" "${src[@]}"
done <"$native/suite.tsv"
# bzip2 from Debian's source, `bzip2 -c` of the 3 MB text, counted and
# timed on the same text (about 0.3 s natively).
if wanted bzip2; then
  bzip2_prepare "$bzsrc" "$cache" || exit 1
  bzip2_input "$work/bzin"
  measure bzip2 "-c bzin" "-c bzin" "" -D_FILE_OFFSET_BITS=64 "${bzfiles[@]}"
fi

if [ ${#programs[@]} -gt 1 ] && { [ $timing = 1 ] || [ $counting = 1 ]; }; then
  echo
  echo "## The median program (${programs[*]})"
  echo
  echo "| configuration | instructions over plain, % | with the daemon's CPU time, % | CPU time over plain, % |"
  echo "|---|---:|---:|---:|"
  for c in "${configs[@]}"; do
    IFS='|' read -r label prof env <<<"$c"
    [ "$prof" = - ] && continue
    mi=$(pct "${isummary[$label]:-}") md=$(pct "${dsummary[$label]:-}") mt=$(pct "${summary[$label]:-}")
    echo "| $label | $mi | $md | $mt |"
  done
fi
