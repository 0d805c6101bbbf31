#!/usr/bin/env bash
# Recording speed against the target, valgrind --tool=callgrind
# --collect-jumps=yes, on the same commands. The machine is shared, so the
# configurations run alternately (A B C D, A B C D, ...) and each ratio is a
# ratio of medians over ROUNDS rounds.
#
#   bench/record_speed.sh [ROUNDS] [WORKLOAD...]     (default 5; bzip2-9 gzip-9 xz-6)
#
# Configurations:
#   callgrind   valgrind --tool=callgrind --collect-jumps=yes
#   exhaustive  lowprof record: code regions, methods, call pairs, edges, blocks + matrix
#   matrix      lowprof record --profile none: the interval matrix's signatures only
#   values      lowprof record --profile all: the above plus every load's values
# LOWPROF_BENCH_CONFIGS picks a subset (callgrind must stay in it).
# Prints a Markdown table; peak resident memory comes from GNU time.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${LOWPROF_BUILD:-$top/build}
lowprof=$build/src/cli/lowprof
rounds=${1:-5}
shift || true
workloads=("$@")
[ ${#workloads[@]} -gt 0 ] || workloads=(bzip2-9 gzip-9 xz-6)
work=${LOWPROF_BENCH_DIR:-$top/results/bench}
mkdir -p "$work"
[ -f "$work/data/mixed.dat" ] || "$build/workloads/lowprof-wlgen" small "$work/data" >/dev/null
vg=/usr/bin/valgrind.bin
[ -x "$vg" ] || vg=valgrind

command_of() {
  case $1 in
    bzip2-9) echo "bzip2 -9 -c $work/data/mixed.dat" ;;
    gzip-9) echo "gzip -9 -n -c $work/data/mixed.dat" ;;
    xz-6) echo "xz -6 -T1 -c $work/data/mixed.dat" ;;
    *) echo "unknown workload $1" >&2; exit 2 ;;
  esac
}

run_config() { # config command... ; prints "seconds maxrss_kb"
  local cfg=$1; shift
  local t0 t1 rss
  t0=$(date +%s.%N)
  case $cfg in
    callgrind) /usr/bin/time -f %M -o "$work/rss" "$vg" --tool=callgrind --collect-jumps=yes \
                 --callgrind-out-file=/dev/null "$@" >/dev/null 2>"$work/err" ;;
    exhaustive) /usr/bin/time -f %M -o "$work/rss" "$lowprof" record -q -o "$work/b.lpprof" \
                 -- "$@" >/dev/null 2>"$work/err" ;;
    matrix) /usr/bin/time -f %M -o "$work/rss" "$lowprof" record -q --profile none \
                 -o "$work/b.lpprof" -- "$@" >/dev/null 2>"$work/err" ;;
    values) /usr/bin/time -f %M -o "$work/rss" "$lowprof" record -q --profile all \
                 -o "$work/b.lpprof" -- "$@" >/dev/null 2>"$work/err" ;;
  esac
  t1=$(date +%s.%N)
  rss=$(tail -1 "$work/rss")
  echo "$(echo "$t1 - $t0" | bc -l) $rss"
}

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

read -r -a configs <<<"${LOWPROF_BENCH_CONFIGS:-callgrind exhaustive matrix values}"
echo "| workload | callgrind s | exhaustive s | ratio | matrix only s | ratio | values s | ratio | peak RSS MB (cg / exh / values) |"
echo "|---|---|---|---|---|---|---|---|---|"
for w in "${workloads[@]}"; do
  read -r -a cmd <<<"$(command_of "$w")"
  for c in "${configs[@]}"; do : >"$work/$w.$c"; done
  for ((r = 1; r <= rounds; r++)); do
    for c in "${configs[@]}"; do
      run_config "$c" "${cmd[@]}" >>"$work/$w.$c"
    done
    echo "  $w round $r/$rounds done" >&2
  done
  declare -A med rss
  for c in callgrind exhaustive matrix values; do med[$c]=0; rss[$c]=0; done
  for c in "${configs[@]}"; do
    med[$c]=$(cut -d' ' -f1 "$work/$w.$c" | median)
    rss[$c]=$(cut -d' ' -f2 "$work/$w.$c" | median)
  done
  ratio() { echo "scale=3; ${med[$1]} / ${med[callgrind]}" | bc -l; }
  printf '| %s | %.2f | %.2f | %s | %.2f | %s | %.2f | %s | %d / %d / %d |\n' "$w" \
    "${med[callgrind]}" "${med[exhaustive]}" "$(ratio exhaustive)" "${med[matrix]}" \
    "$(ratio matrix)" "${med[values]}" "$(ratio values)" \
    $((${rss[callgrind]} / 1024)) $((${rss[exhaustive]} / 1024)) $((${rss[values]} / 1024))
done
