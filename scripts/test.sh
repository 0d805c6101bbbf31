#!/usr/bin/env bash
# The whole test suite on a fresh machine: install, build, run every suite
# (unit, fuzz-replay, integration under Valgrind), then the same suites on an
# address+undefined sanitizer build, and the unit and fuzz suites on a clang
# build with the libFuzzer targets (the whole tree compiles there too; the
# unit tests then also read clang's DWARF 5, which has no aranges). Ends with one "N passed, N failed" line.
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$top/scripts/setup.sh" || exit 1
asan=${LOWPROF_ASAN_BUILD:-$top/build-asan}
if [ ! -f "$asan/build.ninja" ]; then
  meson setup "$asan" "$top" -Dsanitize=address,undefined >/dev/null || exit 1
fi
ninja -C "$asan" >/dev/null || exit 1
# The README's fuzz build, with clang: everything compiles under clang's
# -Werror too, and the libFuzzer targets replay their corpora.
fuzz=${LOWPROF_FUZZ_BUILD:-$top/build-fuzz}
if [ ! -f "$fuzz/build.ninja" ]; then
  CC=clang meson setup "$fuzz" "$top" -Dfuzzing=true >/dev/null || exit 1
fi
ninja -C "$fuzz" >/dev/null || exit 1

passed=0 failed=0 skipped=0 rc=0 failures=
run_suite() { # build-dir label [meson test args]
  local dir=$1 label=$2; shift 2
  echo "== $label" >&2
  meson test -C "$dir" --print-errorlogs "$@" || rc=1
  local log=$dir/meson-logs/testlog.json
  if [ -f "$log" ]; then
    passed=$((passed + $(grep -c '"result": "OK"' "$log")))
    failed=$((failed + $(grep -c -E '"result": "(FAIL|TIMEOUT|ERROR)"' "$log")))
    skipped=$((skipped + $(grep -c '"result": "SKIP"' "$log")))
    # Each failed test's name and the end of its output, printed again
    # at the end, so that the last lines of a long run say what failed.
    failures+=$(python3 -c '
import json, sys
for line in open(sys.argv[1]):
    t = json.loads(line)
    if t["result"] in ("FAIL", "TIMEOUT", "ERROR"):
        print("-- %s: %s (%s)" % (sys.argv[2], t["name"], t["result"]))
        print("\n".join((t.get("stdout") or "").splitlines()[-25:]))
' "$log" "$label")$'\n'
  fi
}
run_suite "${LOWPROF_BUILD:-$top/build}" "build (gcc)" --num-processes 2
# Under the sanitizers the CLI, libraries and checkers run instrumented; the
# Valgrind tool never is (it links no libc, let alone a sanitizer runtime).
run_suite "$asan" "build-asan (address,undefined)" --num-processes 2
run_suite "$fuzz" "build-fuzz (clang, libFuzzer)" --num-processes 2 --suite unit \
  --suite fuzz-replay --suite fuzz-libfuzzer
[ "$failed" -gt 0 ] && printf "%s" "$failures"
echo "$passed passed, $failed failed, $skipped skipped"
exit $rc
