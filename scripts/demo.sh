#!/usr/bin/env bash
# The main job on a fresh machine: install, build, record bzip2 compressing
# a generated mixed-content input under the DBI front end, print the profile.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${LOWPROF_BUILD:-$top/build}
"$top/scripts/setup.sh"
out=$top/results/demo
mkdir -p "$out"
[ -f "$out/data/mixed.dat" ] || "$build/workloads/lowprof-wlgen" small "$out/data" >/dev/null
"$build/src/cli/lowprof" record -o "$out/bzip2.lpprof" -- \
  bzip2 -9 -k -c "$out/data/mixed.dat" > /dev/null
"$build/src/cli/lowprof" report "$out/bzip2.lpprof" "$@"
