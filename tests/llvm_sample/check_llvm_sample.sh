#!/bin/sh
# `lowprof export --format llvm-sample` read back by its real consumers:
# sample_prog.c, built here with clang -O2 -g -gdwarf-4 (Valgrind 3.19
# reads DWARF 4, not clang 14's default DWARF 5), recorded with
# `lowprof record --profile block,call-pair,method`, exported; then
#   - llvm-profdata show --sample reads the file and lists hot_sum;
#   - clang -O2 -gline-tables-only -fprofile-sample-use compiles with it and
#     prints nothing (no warning), and the IR it makes carries the profile:
#     entry counts and the branch weights of the loop's `if`;
#   - the exported numbers equal lowprof's own (the csv export of the same
#     profile): the loop line's body samples are the executions of the block
#     at that line, head samples are method invocations, the call target
#     count is the call pair's, the inlined mix() is nested under its call
#     site with its block's executions; and they are the known counts;
#   - a profile without a block profile gets a clear error and exit 1;
#   - the native runtime's block profile (lowprof cc) is taken by clang too,
#     with head samples and call targets equal to the runtime's counts;
#   - an unrolled loop's line reads its executions, from both sources.
#   check_llvm_sample.sh LOWPROF SRCDIR WORKDIR
# Skips (77) without clang or llvm-profdata.
set -u
. "$(dirname "$0")/check_work.sh"
check_args "$@"
command -v clang >/dev/null 2>&1 || { echo "clang is not installed"; exit 77; }
profdata=
for p in llvm-profdata llvm-profdata-14 llvm-profdata-15 llvm-profdata-16; do
  if command -v "$p" >/dev/null 2>&1; then
    profdata=$p
    break
  fi
done
[ -n "$profdata" ] || { echo "llvm-profdata is not installed (Debian package llvm)"; exit 77; }
check_begin

cp "$src/sample_prog.c" prog.c
clang -O2 -g -gdwarf-4 prog.c -o prog || { echo "FAIL: clang did not build prog.c"; exit 1; }
"$lowprof" record --profile block,call-pair,method -o prof.lpprof -- ./prog 30000 >record.out 2>&1 ||
  { cat record.out; echo "FAIL: record exited $?"; exit 1; }
grep -qx 1603121082 record.out || fail "prog printed $(head -1 record.out), not its known result"
"$lowprof" export --format llvm-sample prof.lpprof -o prof.txt || { echo "FAIL: export exited $?"; exit 1; }
"$lowprof" export --format csv prof.lpprof -o prof.csv || fail "csv export exited $?"
sed -n '/^hot_sum:/,/^[^ ]/p' prof.txt

# 1. llvm-profdata reads it.
"$profdata" show --sample prof.txt >show.out 2>&1 || fail "llvm-profdata show --sample exited $?"
grep -q '^Function: hot_sum: ' show.out || fail "llvm-profdata lists no hot_sum"
grep -q '^Function: helper: ' show.out || fail "llvm-profdata lists no helper"

# 2. clang takes it without a word, and uses it.
clang -O2 -gline-tables-only -fprofile-sample-use=prof.txt prog.c -o prog2 2>clang.err ||
  fail "clang -fprofile-sample-use exited $?"
[ -s clang.err ] && fail "clang wrote to stderr: $(cat clang.err)"
[ "$(./prog2 30000)" = 1603121082 ] || fail "the program built with the profile computes another result"
clang -O2 -gline-tables-only -fprofile-sample-use=prof.txt -S -emit-llvm prog.c -o prog2.ll 2>/dev/null ||
  fail "clang -S -emit-llvm with the profile exited $?"
# clang adds 1 to every count it reads, so 0 stays apart from "no profile".
grep -q '"function_entry_count", i64 10001}' prog2.ll || fail "helper's entry count 10000 is not in the IR"
grep -q '"branch_weights", i32 10001, i32 20001}' prog2.ll ||
  fail "the loop's if (10000 taken, 20000 not) has no such branch weights in the IR"

# 3. The numbers are lowprof's own. csv: type,key_a,key_b,v0,v1,function,file,line
csv_max() { # TYPE FUNCTION LINE: the largest v0 of such rows
  awk -F, -v t="$1" -v f="$2" -v l="$3" '$1 == t && $6 == f && $8 == l && $4 > m { m = $4 }
    END { print m + 0 }' prof.csv
}
# body LINE-PREFIX: the count after "PREFIX" in hot_sum's section
section() { sed -n "/^$1:/,/^[^ ]/p" prof.txt | sed '1d;/^[^ ]/d'; }
header() { awk -F: -v f="$1" '$1 == f { print $2 ":" $3; exit }' prof.txt; }

loop_line=25 # if (i % 3 == 0): start line 21, so offset 4
want=$(csv_max block hot_sum $loop_line)
[ "$want" = 30000 ] || fail "the block at line $loop_line ran $want times, not 30000"
got=$(section hot_sum | awk '$1 == "4:" { print $2 }')
[ "$got" = "$want" ] || fail "hot_sum offset 4 has $got samples, the block profile $want"

head_helper=$(header helper | cut -d: -f2)
want=$(awk -F, '$1 == "method" && $6 == "helper" { print $4 }' prof.csv)
[ "$want" = 10000 ] && [ "$head_helper" = "$want" ] ||
  fail "helper's head samples $head_helper, invocations $want (want 10000)"
head_hot=$(header hot_sum | cut -d: -f2)
[ "$head_hot" = 1 ] || fail "hot_sum's head samples are $head_hot, not 1"

want=$(csv_max call-pair hot_sum 26)
got=$(section hot_sum | awk '$1 == "5:" { for (i = 3; i <= NF; i++) if ($i ~ /^helper:/) print substr($i, 8) }')
[ "$want" = 10000 ] && [ "$got" = "$want" ] || fail "call target helper at offset 5: $got, call pairs $want"

# mix() (declared at line 16) inlined at line 28: offset 7, its line 18 at offset 2.
want=$(csv_max block hot_sum 18)
got=$(section hot_sum | awk '$1 == "7:" && $2 ~ /^mix:/ { m = 1; next } m && /^  2: / { print $2; exit }')
[ "$want" = 20000 ] && [ "$got" = "$want" ] || fail "inlined mix offset 2: $got, its block $want"

# The report names the inlined function where its code runs inside hot_sum.
"$lowprof" report --type block --top 0 prof.lpprof > report.txt || fail "report exited $?"
grep -q "hot_sum (prog.c:18, inlined mix)" report.txt ||
  fail "the report does not show mix inlined into hot_sum at line 18: $(grep hot_sum report.txt | head -5)"

# Totals: the function's total is the sum of its lines and inlined totals.
total=$(header hot_sum | cut -d: -f1)
sum=$(section hot_sum | awk '/^ [^ ]/ { n = $2; if (n ~ /:/) { split(n, a, ":"); n = a[2] } s += n }
  END { print s + 0 }')
[ "$total" = "$sum" ] || fail "hot_sum's total $total is not the sum of its body, $sum"

# 4. No block profile: a clear error, exit 1, and no output file.
"$lowprof" record --profile call-pair,method -o noblock.lpprof -- ./prog 100 >/dev/null 2>&1 ||
  fail "record without blocks exited $?"
"$lowprof" export --format llvm-sample noblock.lpprof -o noblock.txt 2>noblock.err
rc=$?
[ "$rc" = 1 ] || fail "export of a profile without blocks exited $rc, not 1"
grep -q 'llvm-sample needs a block profile' noblock.err || fail "no clear message: $(cat noblock.err)"
[ -e noblock.txt ] && fail "a failed export left noblock.txt"

# 5. The native runtime's block profile (lowprof cc, no Valgrind): clang
# takes it without a word, and head samples and call targets are the
# runtime's own method and call-pair counts. Always on: the run lasts a few
# milliseconds, less than the default windows' period, so periodic windows
# may miss it altogether (doc/runtime.md, "periodic").
if "$lowprof" cc --profiles=call-graph,block -- -O2 -g prog.c -o progn >cc.out 2>&1; then
  LOWPROF=strategy=always,profiles=call-graph,block,out=native.lpprof ./progn 30000 >/dev/null ||
    fail "the native program exited $?"
  "$lowprof" export --format llvm-sample native.lpprof -o native.txt || fail "native export exited $?"
  "$lowprof" export --format csv native.lpprof -o native.csv || fail "native csv export exited $?"
  "$profdata" show --sample native.txt 2>&1 | grep -q '^Function: hot_sum: ' ||
    fail "llvm-profdata lists no hot_sum in the native export"
  clang -O2 -gline-tables-only -fprofile-sample-use=native.txt prog.c -o prog3 2>clang3.err ||
    fail "clang with the native profile exited $?"
  [ -s clang3.err ] && fail "clang wrote to stderr with the native profile: $(cat clang3.err)"
  want=$(awk -F, '$1 == "method" && $6 == "helper" { print $4 }' native.csv)
  got=$(awk -F: '$1 == "helper" { print $3; exit }' native.txt)
  [ -n "$want" ] && [ "$got" = "$want" ] || fail "native: helper's head samples $got, invocations $want"
  want=$(awk -F, '$1 == "call-pair" && $6 == "hot_sum" && $8 == 26 { print $4 }' native.csv)
  got=$(sed -n '/^hot_sum:/,/^[^ ]/p' native.txt |
    awk '$1 == "5:" { for (i = 3; i <= NF; i++) if ($i ~ /^helper:/) print substr($i, 8) }')
  [ -n "$want" ] && [ "$got" = "$want" ] || fail "native: call target helper $got, call pairs $want"
else
  echo "native part not run: lowprof cc could not build the program:"
  cat cc.out
fi

# 6. A loop clang unrolls (unroll_prog.c, 41 bytes a call, 2000 calls)
# reads its executions at its body's line, from Valgrind and from the
# native runtime alike: in the unrolled copy each instruction ran a quarter
# as often as the line (its discriminator carries the duplication factor,
# with -fdebug-info-for-profiling), and in the runtime's copy that body has
# no counter of its own (its executions come from the blocks around it).
# The largest of the line's records is the unrolled copy's: 40 per call when
# the remainder loop has a record of its own, 41 when not; and the runtime's
# copies give it under the same discriminator as the plain build.
cp "$src/unroll_prog.c" unroll.c
decl=$(grep -n 'unsigned long fold(' unroll.c | cut -d: -f1)
body=$(grep -n 'h ^= p\[i\];' unroll.c | cut -d: -f1)
off=$((body - decl))
body_max() { # FILE: the largest count at offset $off of fold's section, any discriminator
  sed -n '/^fold:/,/^[^ ]/p' "$1" | sed '1d;/^[^ ]/d' |
    awk -v o="$off" '{ split($1, a, /[.:]/) } a[1] == o && $2 > m { m = $2 } END { print m + 0 }'
}
body_key() { # FILE: the OFFSET[.DISCRIMINATOR] of that largest record
  sed -n '/^fold:/,/^[^ ]/p' "$1" | sed '1d;/^[^ ]/d' |
    awk -v o="$off" '{ split($1, a, /[.:]/) } a[1] == o && $2 > m { m = $2; k = $1 } END { print k }'
}
in_range() { [ "$1" -ge 80000 ] && [ "$1" -le 82000 ]; }
# main's call of fold: the offset of its line, and the offset the file gives it
call_off=$(($(grep -n 'h = fold(h, buf' unroll.c | cut -d: -f1) - $(grep -n '^int main' unroll.c | cut -d: -f1)))
call_at() { # FILE: the offset[.disc] of main's line that names fold:2000 as a target
  sed -n '/^main:/,/^[^ ]/p' "$1" | awk '/ fold:2000/ { print $1 }'
}
clang -O2 -g -gdwarf-4 -fdebug-info-for-profiling unroll.c -o unroll ||
  fail "clang did not build unroll_prog.c"
"$lowprof" record --profile block,call-pair,method -o unroll.lpprof -- ./unroll 2000 >/dev/null 2>&1 ||
  fail "record of unroll exited $?"
"$lowprof" export --format llvm-sample unroll.lpprof -o unroll.txt || fail "unroll export exited $?"
got=$(body_max unroll.txt)
in_range "$got" || fail "Valgrind: fold's loop line (offset $off) has $got samples, not 80000-82000"
[ "$(call_at unroll.txt)" = "$call_off:" ] ||
  fail "Valgrind: main calls fold at offset $call_off, the file says '$(call_at unroll.txt)'"
native_unroll() { # NAME [lowprof cc options]: NAME.txt from unroll.c built so, run always on;
  # 1 when lowprof cc failed (its words in NAME.cc.out)
  name=$1
  shift
  "$lowprof" cc --profiles=call-graph,block "$@" -- -O2 -g -fdebug-info-for-profiling unroll.c \
    -o "$name" >"$name.cc.out" 2>&1 || return 1
  LOWPROF=strategy=always,profiles=call-graph,block,out=$name.lpprof ./"$name" 2000 >/dev/null ||
    fail "native $name exited $?"
  "$lowprof" export --format llvm-sample "$name.lpprof" -o "$name.txt" ||
    fail "export of native $name's profile exited $?"
}
if native_unroll unrolln; then
  got=$(body_max unrolln.txt)
  in_range "$got" || fail "native: fold's loop line (offset $off) has $got samples, not 80000-82000"
  # The runtime keys a call by its return address, here on the next line.
  [ "$(call_at unrolln.txt)" = "$call_off:" ] ||
    fail "native: main calls fold at offset $call_off, the file says '$(call_at unrolln.txt)'"
  # With the copies' loops in two versions (lowprof cc --loops=two) the
  # counted body is entered through the loop's check, a jmp in the file.
  native_unroll unroll2 --loops=two || fail "lowprof cc --loops=two failed: $(cat unroll2.cc.out)"
  got=$(body_max unroll2.txt)
  in_range "$got" || fail "native, --loops=two: fold's loop line has $got samples, not 80000-82000"
  # The callgrind export places the call at its line too.
  "$lowprof" export --format callgrind unrolln.lpprof -o unrolln.cg || fail "callgrind export exited $?"
  call_line=$(grep -n 'h = fold(h, buf' unroll.c | cut -d: -f1)
  got=$(awk '/^calls=2000 / { getline; print $1; exit }' unrolln.cg)
  [ "$got" = "$call_line" ] || fail "native callgrind: main calls fold at line $call_line, the file says '$got'"
  # The same record as the plain build's: lowprof cc must not number the
  # line's blocks again after unrolling, or clang, compiling the source,
  # finds the remainder loop's count under the body's discriminator.
  [ "$(body_key unrolln.txt)" = "$(body_key unroll.txt)" ] ||
    fail "native: the loop body's record is $(body_key unrolln.txt), the plain build's $(body_key unroll.txt)"
else
  echo "native unroll part not run: lowprof cc could not build the program:"
  cat unrolln.cc.out
fi

finish "llvm-sample: all checks passed"
