#!/usr/bin/env bash
# Bursty tracing's basic overhead measured natively (paper 003, section 5.1
# and Fig. 6): each native benchmark program (workloads/native/suite.tsv)
# and bzip2 1.0.8 from Debian's source, built with clang -O2 plain and with
# `lowprof cc --profiles=bursty:P` for the eight placements, run with
# LOWPROF=bursty=inf:1 (nCheck0 infinite: t_checking, the checks alone), and
# EC+L4 also at 1000:50 (4.76 % of the checks instrumented: eq. 2's time,
# with streams-limit=0: the references are reported and dropped, so the
# hot-stream analysis at exit, offline in the paper, is left out).
# Instruction counts (valgrind --tool=cachegrind) at a sixteenth of each
# program's default size, and, with -r, the median user CPU time of
# alternating runs at the default size.
#
#   bursty_native.sh [-b BUILD] [-r ROUNDS] [-d BZIP2-SOURCE] [-c CACHE] [PROGRAM...]
#
# -b  the meson build folder holding src/cli/lowprof (default: build)
# -r  timing rounds at the default size (default: 0, no timing)
# -d  a bzip2 source folder (bzip2.c, bzlib.c, ...); without it the source
#     is fetched with `apt-get source bzip2` into CACHE (default:
#     ~/.cache/lowprof/bursty-native), through a private sources list of
#     deb-src entries for the archive apt already uses
# PROGRAM: names of the suite's programs, or bzip2 (default: all and bzip2)
# Prints a Markdown table: basic overhead in % of the plain build's
# instructions (and time), per program and placement, and the medians; its
# first column is the plain program through the bursty build's inlining
# step alone (opt's inliner at threshold 1000 before clang -O2).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
native=$root/workloads/native
build=$root/build rounds=0 bzsrc= cache=${XDG_CACHE_HOME:-$HOME/.cache}/lowprof/bursty-native
while getopts "b:r:d:c:" opt; do
  case $opt in
    b) build=$(cd "$OPTARG" && pwd) ;;
    r) rounds=$OPTARG ;;
    d) bzsrc=$(cd "$OPTARG" && pwd) ;;
    c) cache=$OPTARG ;;
    *) sed -n '2,23p' "$0" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
lowprof=$build/src/cli/lowprof
[ -x "$lowprof" ] || { echo "no $lowprof: build first" >&2; exit 1; }
for t in clang valgrind; do
  command -v $t >/dev/null || { echo "$t is needed" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
placements=(orig EL EC EN L4 L10 LN EC+L4)
declare -A count_size=([interp]=56 [compress]=768 [json]=44 [graph]=135 [raytrace]=64
                       [mtsort]=500)

wanted() { # name -> 0 when asked for
  [ $# -gt 0 ] || return 1
  local n=$1; shift
  [ ${#selected[@]} -eq 0 ] && return 0
  for p in "${selected[@]}"; do [ "$p" = "$n" ] && return 0; done
  return 1
}
selected=("$@")

insns() { # exe args... -> instruction count
  valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
    "$@" 2>&1 >/dev/null | awk '/I *refs:/ {gsub(",", "", $NF); print $NF}'
}
usertime() {
  /usr/bin/time -o "$work/time" -f %U "$@" >/dev/null 2>&1
  tail -1 "$work/time"
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

# bzip2's source, fetched once.
. "$here/debian_source.sh"
. "$here/bzip2_common.sh"
fetch_bzip2() { bzsrc=$(debian_source bzip2 "$cache"); }

# One program: name, sources, link flags, count args, time args.
measure() {
  local name=$1 srcs=$2 link=$3 cargs=$4 targs=$5
  local linkf=(); [ "$link" != - ] && read -ra linkf <<<"$link"
  local src=(); for s in $srcs; do src+=("$s"); done
  declare -A exe=()
  clang -O2 "${src[@]}" -o "$work/$name-plain" "${linkf[@]}" || return 1
  exe[plain]=$work/$name-plain
  # The plain program through the bursty build's inlining step alone: what
  # that step is worth without any check (doc/lowprof-cc.md).
  local objs=() k=0 opt
  opt=$(command -v "opt-$(clang -dumpversion | cut -d. -f1)" || command -v opt)
  for s in "${src[@]}"; do
    case $s in -*) continue ;; esac
    clang -O2 $(printf '%s\n' "${src[@]}" | grep '^-') -S -emit-llvm -Xclang -disable-llvm-passes \
      "$s" -o "$work/pre$k.ll" &&
      "$opt" -S -passes='cgscc(inline)' -inline-threshold=1000 "$work/pre$k.ll" -o "$work/inl$k.ll" &&
      clang -O2 -c "$work/inl$k.ll" -o "$work/inl$k.o" || return 1
    objs+=("$work/inl$k.o"); k=$((k + 1))
  done
  clang -O2 "${objs[@]}" -o "$work/$name-inlined" "${linkf[@]}" || return 1
  exe[inlined]=$work/$name-inlined
  for p in "${placements[@]}"; do
    (cd "$work" && "$lowprof" cc --profiles=bursty:"$p" -- -O2 "${src[@]}" -o "$work/$name-$p" \
      "${linkf[@]}") || return 1
    exe[$p]=$work/$name-$p
  done
  local base rows=()
  base=$(cd "$work" && insns "${exe[plain]}" $cargs)
  local cells="| $name |"
  local ii; ii=$(cd "$work" && insns "${exe[inlined]}" $cargs)
  cells="$cells $(awk -v a="$ii" -v b="$base" 'BEGIN {printf "%.1f", 100 * (a / b - 1)}') |"
  for p in "${placements[@]}" "EC+L4 1000:50"; do
    local x=${p%% *} env=bursty=inf:1
    # The bursts' references are recorded but not kept: with them the run
    # ends with the hot streams' analysis, which the paper does offline.
    [ "$p" != "$x" ] && env=bursty=1000:50,streams-limit=0
    local i
    i=$(cd "$work" && LOWPROF="$env,out=$work/p.lpprof" insns "${exe[$x]}" $cargs)
    cells="$cells $(awk -v a="$i" -v b="$base" 'BEGIN {printf "%.1f", 100 * (a / b - 1)}') |"
  done
  echo "$cells" >>"$work/table"
  if [ "$rounds" -gt 0 ]; then
    declare -A times=()
    for ((r = 0; r < rounds; r++)); do
      for p in plain orig EC+L4; do
        local env=; [ $p != plain ] && env="bursty=inf:1,"
        times[$p]="${times[$p]:-} $(cd "$work" && LOWPROF="${env}out=$work/p.lpprof" usertime "${exe[$p]}" $targs)"
      done
    done
    local tb; tb=$(tr ' ' '\n' <<<"${times[plain]}" | grep . | median)
    local line="| $name | $tb s |"
    for p in orig EC+L4; do
      local t; t=$(tr ' ' '\n' <<<"${times[$p]}" | grep . | median)
      line="$line $(awk -v a="$t" -v b="$tb" 'BEGIN {printf "%.1f", (b > 0) ? 100 * (a / b - 1) : 0}') |"
    done
    echo "$line" >>"$work/times"
  fi
}

while IFS=$'\t' read -r name srcs link dargs sargs dsum ssum; do
  case $name in ''|'#'*) continue ;; esac
  wanted "$name" || continue
  full=(); for s in $srcs; do full+=("$native/$s"); done
  echo "bursty_native: $name" >&2
  measure "$name" "${full[*]}" "$link" "${count_size[$name]:-$sargs}" "$([ "$dargs" = - ] || echo "$dargs")" ||
    { echo "bursty_native: $name failed" >&2; exit 1; }
done <"$native/suite.tsv"

if wanted bzip2; then
  [ -n "$bzsrc" ] || fetch_bzip2 || exit 1
  echo "bursty_native: bzip2 from $bzsrc" >&2
  mapfile -t bzfiles < <(bzip2_files "$bzsrc")
  bzip2_input "$work/bzin"
  measure bzip2 "-D_FILE_OFFSET_BITS=64 ${bzfiles[*]}" - "-c $work/bzin" "-c $work/bzin" ||
    { echo "bursty_native: bzip2 failed" >&2; exit 1; }
fi

echo
echo "Basic overhead, % over the plain build's instructions (LOWPROF=bursty=inf:1; the last"
echo "column is EC+L4 at 1000:50, the references dropped, not analysed):"
echo
echo "| program | plain, inlined as bursty builds are | orig | EL | EC | EN | L4 | L10 | LN | EC+L4 | EC+L4 1000:50 |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
cat "$work/table"
line="| median |"
for col in $(seq 3 12); do
  line="$line $(cut -d'|' -f$col "$work/table" | tr -d ' ' | median) |"
done
echo "$line"
if [ -f "$work/times" ]; then
  echo
  echo "User CPU time, median of $rounds alternating runs at the default size, % over plain:"
  echo
  echo "| program | plain | orig | EC+L4 |"
  echo "|---|---|---|---|"
  cat "$work/times"
fi
