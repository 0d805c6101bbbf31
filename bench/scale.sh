#!/usr/bin/env bash
# Scale: one full-size workload (over a billion instructions) recorded with
# the default profiles and the interval matrix. Reports instructions,
# wall time, the interval matrix's size, and peak resident memory beyond
# Valgrind's own (the same command under --tool=none, which instruments
# nothing). Targets: extra memory under 1 GiB, matrix under 100 MB.
#
#   bench/scale.sh [WORKLOAD]      (bzip2-9 | gzip-9 | xz-6; default bzip2-9)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${LOWPROF_BUILD:-$top/build}
lowprof=$build/src/cli/lowprof
work=${LOWPROF_BENCH_DIR:-$top/results/scale}
mkdir -p "$work"
[ -f "$work/data/mixed.dat" ] || "$build/workloads/lowprof-wlgen" full "$work/data" >/dev/null
vg=/usr/bin/valgrind.bin
[ -x "$vg" ] || vg=valgrind
case ${1:-bzip2-9} in
  bzip2-9) cmd=(bzip2 -9 -c "$work/data/mixed.dat") ;;
  gzip-9) cmd=(gzip -9 -n -c "$work/data/mixed.dat") ;;
  xz-6) cmd=(xz -6 -T1 -c "$work/data/mixed-xz.dat") ;;
  *) echo "unknown workload $1" >&2; exit 2 ;;
esac

/usr/bin/time -f '%M %e' -o "$work/none.time" "$vg" --tool=none "${cmd[@]}" >/dev/null 2>/dev/null
/usr/bin/time -f '%M %e' -o "$work/rec.time" "$lowprof" record -q -o "$work/scale.lpprof" \
  -- "${cmd[@]}" >/dev/null
read -r none_kb none_s <"$work/none.time"
read -r rec_kb rec_s <"$work/rec.time"
insns=$("$lowprof" info "$work/scale.lpim" | awk '/^  instructions/ {print $2}')
intervals=$("$lowprof" info "$work/scale.lpim" | awk '/^  intervals/ {print $2}')
im_bytes=$(stat -c %s "$work/scale.lpim")
prof_bytes=$(stat -c %s "$work/scale.lpprof")
echo "| workload | instructions | intervals | record s | --tool=none s | peak RSS MB (record / none / extra) | matrix MB | profile KB |"
echo "|---|---|---|---|---|---|---|---|"
printf '| %s | %s | %s | %s | %s | %d / %d / %d | %.1f | %d |\n' "${1:-bzip2-9}" "$insns" \
  "$intervals" "$rec_s" "$none_s" $((rec_kb / 1024)) $((none_kb / 1024)) \
  $(((rec_kb - none_kb) / 1024)) "$(echo "$im_bytes / 1000000" | bc -l)" $((prof_bytes / 1024))
