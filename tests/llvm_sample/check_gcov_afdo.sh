#!/bin/sh
# `lowprof export --format gcov-afdo` read back by gcc, its consumer:
# sample_prog.c, built here with gcc -O2 -g, recorded with
# `lowprof record --profile block,call-pair,method` and exported; then
#   - gcc -O2 -fauto-profile=FILE compiles with it and prints nothing (a
#     file it cannot read is an error, a wrong version too);
#   - the counts gcc puts on the code (its optimized tree dump) are the
#     profile's and the program's known ones: helper is entered 10,000
#     times, hot_sum's loop runs 30,000 times, its `if` is taken 10,000
#     times and the inlined mix() path 20,000 times;
#   - a profile without a block profile gets a clear error and exit 1.
#   check_gcov_afdo.sh LOWPROF SRCDIR WORKDIR
# Skips (77) without gcc or when it has no -fauto-profile.
set -u
. "$(dirname "$0")/check_work.sh"
check_args "$@"
command -v gcc >/dev/null 2>&1 || { echo "gcc is not installed"; exit 77; }
check_begin

cp "$src/sample_prog.c" prog.c
gcc -O2 -g prog.c -o prog || { echo "FAIL: gcc did not build prog.c"; exit 1; }
"$lowprof" record --profile block,call-pair,method -o prof.lpprof -- ./prog 30000 >record.out 2>&1 ||
  { cat record.out; echo "FAIL: record exited $?"; exit 1; }
grep -qx 1603121082 record.out || fail "prog printed $(head -1 record.out), not its known result"
"$lowprof" export --format gcov-afdo prof.lpprof -o prof.afdo || { echo "FAIL: export exited $?"; exit 1; }
od -A n -t x4 -N 8 prof.afdo | grep -q '67636461 00000002' ||
  fail "prof.afdo does not start with gcov's magic and version 2: $(od -A n -t x4 -N 8 prof.afdo)"

# 1. gcc reads it, silently.
gcc -O2 -g -fauto-profile=prof.afdo -fdump-tree-optimized=opt.txt prog.c -o prog-afdo \
  >gcc.out 2>&1 || fail "gcc -fauto-profile exited $?: $(cat gcc.out)"
[ -s gcc.out ] && fail "gcc -fauto-profile said: $(cat gcc.out)"
./prog-afdo 30000 | grep -qx 1603121082 || fail "the program built with the profile computes otherwise"

# 2. The counts it annotated: per function, the block counts of the dump.
counts() { # FUNCTION: the "count: N" of its blocks, one per line
  sed -n "/^;; Function $1 /,/^;; Function /p" opt.txt | sed -n 's/.*\[count: \([0-9]*\)\].*/\1/p'
}
counts helper >helper.counts
counts hot_sum >hot_sum.counts
echo "helper's block counts: $(tr '\n' ' ' <helper.counts)"
echo "hot_sum's block counts: $(tr '\n' ' ' <hot_sum.counts)"
grep -qx 10000 helper.counts || fail "helper: no block with the 10000 entries"
for n in 30000 10000 20000; do
  grep -qx "$n" hot_sum.counts || fail "hot_sum: no block counted $n"
done
# Without the profile gcc guesses: no such counts.
gcc -O2 -g -fdump-tree-optimized=plain.txt prog.c -o prog-plain >/dev/null 2>&1
grep -q 'count: 30000\]' plain.txt && fail "gcc without the profile has the profile's counts"

# 3. No block profile: a clear error.
"$lowprof" record --profile method -o methods.lpprof -- ./prog 30 >/dev/null 2>&1 ||
  fail "record --profile method exited $?"
"$lowprof" export --format gcov-afdo methods.lpprof -o none.afdo >err.out 2>&1
rc=$?
[ $rc -eq 1 ] || fail "gcov-afdo without blocks exited $rc, not 1"
grep -q 'gcov-afdo needs a block profile' err.out || fail "gcov-afdo without blocks said: $(cat err.out)"
[ -e none.afdo ] && fail "gcov-afdo without blocks left none.afdo"

finish "gcov-afdo: gcc took the profile; its counts are the run's"
