#!/bin/sh
# `lowprof analyze checks` on analysis_prog.c (built here with cc -O1): the
# JSON report, read with jq, holds exactly the expected set C, components,
# recursion from below and loop decisions for EC+L4 and L10; the text
# report has the same counts; a truncated file, a non-ELF file, a 32-bit
# and an AArch64 header, and a missing file exit 1 with a message naming
# the file; bad command lines exit 2; help is the same both ways.
#   check_analyze_cli.sh LOWPROF SRCDIR WORKDIR
# Skips (77) without jq or a compiler that builds the program.
set -u
if [ $# -ne 3 ]; then
  echo "usage: $0 LOWPROF SRCDIR WORKDIR" >&2
  exit 2
fi
lowprof=$1 src=$2 work=$3
command -v jq >/dev/null 2>&1 || { echo "jq is not installed"; exit 77; }
mkdir -p "$work"
prog=$work/prog
if ! cc -O1 -fno-inline -fno-stack-protector -fcf-protection=none -nostdlib -static -no-pie \
     -fno-pie "$src/analysis_prog.c" -o "$prog"; then
  echo "cc did not build the test program"
  exit 77
fi
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# jq_is JSON FILTER: the filter must give true.
jq_is() {
  printf '%s' "$1" | jq -e "$2" >/dev/null || fail "jq: $2"
}

json=$("$lowprof" analyze checks "$prog" --json --functions) || fail "--json exited $?"
printf '%s' "$json" | jq empty || fail "--json is not valid JSON"
jq_is "$json" '.set_c | sort == ["_start","callback","depth","is_even","main","table_fn"]'
jq_is "$json" '.placement.name == "EC+L4" and .placement.entry_checks == 6
               and .placement.procedures == 13 and .placement.back_edge_checks == 3
               and .placement.back_edges == 5'
jq_is "$json" '.sccs | map(sort) | sort == [["depth"],["is_even","is_odd"]]'
jq_is "$json" '.recursion_from_below | sort == ["depth","is_even"]'
jq_is "$json" '. as $r | [$r.functions[] | select(.entry_check) | .name] | sort == ($r.set_c | sort)'
jq_is "$json" '.functions[] | select(.name == "leaf_add") | .reason == "leaf" and (.entry_check | not)'
jq_is "$json" '.functions[] | select(.name == "callback") | .reason == "address-taken"'
jq_is "$json" '.functions[] | select(.name == "apply") | .indirect_calls == 1 and (.in_c | not)'
jq_is "$json" '[.loops[] | select(.back_edges[0].check | not) | .function] | sort == ["nested","sum_small"]'
jq_is "$json" '[.loops[] | select(.function == "nested") | [.depth, .back_edges[0].check]] | sort
               == [[1,true],[2,false]]'
jq_is "$json" '.loops[] | select(.function == "loop_calls") | .has_call and .back_edges[0].check
               and (.back_edges[0].reason | startswith("not k-boring (has a call"))'
jq_is "$json" '.loops[] | select(.function == "sum_small")
               | .back_edges[0].reason == "k-boring (\(.events) events <= 4, no call)"'

l10=$("$lowprof" analyze checks "$prog" --json --placement L10) || fail "--placement L10 exited $?"
jq_is "$l10" '.placement.name == "L10" and .placement.entry_checks == 13
              and .placement.back_edge_checks == 1 and .loops_summary.k == 10
              and .loops_summary.boring == 4 and (has("functions") | not)'

text=$("$lowprof" analyze checks "$prog") || fail "text report exited $?"
for want in "set C             6 of 13 functions" "entry checks      6 of 13 procedure entries" \
            "back-edge checks  3 of 5 back-edges" "recursion from below 2: " \
            "k-boring loops    2 of 5 at k = 4" "recursive SCCs    2"; do
  printf '%s\n' "$text" | grep -qF "$want" || fail "text report lacks '$want'"
done

# expect_fail STATUS PHRASE ARGS...: exit status and a phrase on stderr.
expect_fail() {
  want=$1 phrase=$2
  shift 2
  out=$("$lowprof" "$@" 2>"$work/stderr")
  rc=$?
  [ "$rc" -eq "$want" ] || fail "lowprof $*: exit $rc, wanted $want"
  [ -z "$out" ] || fail "lowprof $*: printed on stdout"
  grep -qF -- "$phrase" "$work/stderr" || fail "lowprof $*: stderr lacks '$phrase': $(cat "$work/stderr")"
}
head -c 100 "$prog" >"$work/truncated"
expect_fail 1 "lowprof: $work/truncated: truncated" analyze checks "$work/truncated" --json
printf 'hello, world\n' >"$work/not-elf"
expect_fail 1 "lowprof: $work/not-elf: not an ELF file" analyze checks "$work/not-elf"
cp "$prog" "$work/class32"
printf '\001' | dd of="$work/class32" bs=1 seek=4 conv=notrunc 2>/dev/null
expect_fail 1 "lowprof: $work/class32: 32-bit ELF file" analyze checks "$work/class32"
cp "$prog" "$work/aarch64"
printf '\267' | dd of="$work/aarch64" bs=1 seek=18 conv=notrunc 2>/dev/null
expect_fail 1 "lowprof: $work/aarch64: machine is AArch64" analyze checks "$work/aarch64"
expect_fail 1 "lowprof: $work/none: No such file" analyze checks "$work/none"
expect_fail 2 "checks needs a BINARY" analyze checks
expect_fail 2 "--placement 'EX' does not parse" analyze checks "$prog" --placement EX
expect_fail 2 "unknown option '--bogus'" analyze checks "$prog" --bogus
expect_fail 2 "missing subcommand" analyze
expect_fail 2 "unknown subcommand 'frob'" analyze frob

[ "$("$lowprof" help analyze)" = "$("$lowprof" analyze checks --help)" ] ||
  fail "help analyze and analyze --help differ"

if [ "$failures" -ne 0 ]; then
  echo "$failures checks failed" >&2
  exit 1
fi
echo "all checks passed"
