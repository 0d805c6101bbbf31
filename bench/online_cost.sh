#!/usr/bin/env bash
# What the online mechanisms add to recording time: stream compressors
# (--tuples/--compressor) and interval sampling strategies (--strategy),
# each against the recording it is added to. The machine is shared, so the
# configurations run alternately (A B C ..., A B C ...) and every figure is
# a ratio of medians over ROUNDS rounds.
#
#   bench/online_cost.sh [ROUNDS] [WORKLOAD...]     (default 5; bzip2-9 gzip-9 bzip2-clip)
#
# Each configuration is "label=record options" (';' between them), set with
# LOWPROF_BENCH_CONFIGS; the first is the baseline of every ratio. Default:
#   none       --profile none                         (signatures only: recording nothing)
#   exh        the default profiles
#   exh+cmp    the default profiles + edge and call-target tuples through H[P256]2048
#   val        --profile none --tuples value --compressor P256 (loads, no table)
#   val+cmp    --profile none --tuples value --compressor H[P256]2048
#   phase      --strategy phase
#   periodic   --strategy periodic:10
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${LOWPROF_BUILD:-$top/build}
lowprof=$build/src/cli/lowprof
rounds=${1:-5}
shift || true
workloads=("$@")
[ ${#workloads[@]} -gt 0 ] || workloads=(bzip2-9 gzip-9 bzip2-clip)
work=${LOWPROF_BENCH_DIR:-$top/results/bench}
mkdir -p "$work"
[ -f "$work/data/mixed.dat" ] || "$build/workloads/lowprof-wlgen" small "$work/data" >/dev/null

command_of() {
  case $1 in
    bzip2-9) echo "bzip2 -9 -c $work/data/mixed.dat" ;;
    gzip-9) echo "gzip -9 -n -c $work/data/mixed.dat" ;;
    xz-6) echo "xz -6 -T1 -c $work/data/mixed.dat" ;;
    bzip2-clip) echo "bzip2 -9 -c $work/data/clip.y4m" ;;
    *) echo "unknown workload $1" >&2; exit 2 ;;
  esac
}

default_configs='none=--profile none;exh=;exh+cmp=--tuples edge,call-target --compressor H[P256]2048;val=--profile none --tuples value --compressor P256;val+cmp=--profile none --tuples value --compressor H[P256]2048;phase=--strategy phase;periodic=--strategy periodic:10'
IFS=';' read -r -a configs <<<"${LOWPROF_BENCH_CONFIGS:-$default_configs}"

run() { # options... -- command ; prints seconds
  local t0 t1
  t0=$(date +%s.%N)
  "$lowprof" record -q --no-imatrix -o "$work/oc.lpprof" "$@" >/dev/null 2>"$work/err" ||
    { cat "$work/err" >&2; exit 1; }
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc -l
}

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

header="| workload |"
sep="|---|"
for c in "${configs[@]}"; do header+=" ${c%%=*} s (ratio) |"; sep+="---|"; done
echo "$header"
echo "$sep"
for w in "${workloads[@]}"; do
  read -r -a cmd <<<"$(command_of "$w")"
  for i in "${!configs[@]}"; do : >"$work/oc.$w.$i"; done
  for ((r = 1; r <= rounds; r++)); do
    for i in "${!configs[@]}"; do
      read -r -a opts <<<"${configs[$i]#*=}"
      run "${opts[@]}" -- "${cmd[@]}" >>"$work/oc.$w.$i"
    done
    echo "  $w round $r/$rounds done" >&2
  done
  base=$(median <"$work/oc.$w.0")
  row="| $w |"
  for i in "${!configs[@]}"; do
    m=$(median <"$work/oc.$w.$i")
    row+=" $(printf '%.2f (%.2f)' "$m" "$(echo "$m / $base" | bc -l)") |"
  done
  echo "$row"
done
