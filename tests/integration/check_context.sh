#!/bin/sh
# The calling-context profile (--profile context) of context_prog.c, whose
# call tree is known, and its full-stack exports:
#  - folded-calls: main;a;leaf 300 calls, main;b;leaf 50; rec(10) called 5
#    times from main is one context, main;rec, with 50 calls (5 entries from
#    main plus 45 folded self-calls) and no rec;rec stack; the mutual
#    recursion ping(4) is not folded (main;ping;pong;ping;pong, 1 call);
#    each equals the method profile's invocations of the function;
#  - the contexts' self instructions (v1, read from the JSON export) sum to
#    the run's instructions, and so do the folded lines' weights; leaf costs
#    the same per call under a and under b;
#  - speedscope: valid JSON (jq) with speedscope's $schema, one sampled
#    profile, as many weights as samples, frame indices in range, weights
#    summing to the instructions, and the main;a;leaf sample weighted as the
#    folded line;
#  - lowprof report's calling-context section shows that context's self
#    instructions, calls and depth;
#  - without a context profile folded keeps its two-frame caller;callee
#    lines, folded-calls and speedscope fail naming --profile context, and
#    record refuses context with --strategy.
#   check_context.sh LOWPROF PROG WORKDIR
# Skips (77) without jq or without the Valgrind tool.
set -u
if [ $# -ne 3 ]; then
  echo "usage: $0 LOWPROF PROG WORKDIR" >&2
  exit 2
fi
lowprof=$1 prog=$2 work=$3
command -v jq >/dev/null 2>&1 || { echo "jq is not installed"; exit 77; }
rm -rf "$work"
mkdir -p "$work"
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

if ! "$lowprof" record -q --no-imatrix --profile context,method -o "$work/c.lpprof" -- "$prog" \
     >"$work/record.log" 2>&1; then
  if grep -qi "valgrind" "$work/record.log" && grep -qi "not found\|no such\|missing" "$work/record.log"; then
    echo "the Valgrind tool cannot run: $(head -c 300 "$work/record.log")"
    exit 77
  fi
  cat "$work/record.log" >&2
  echo "FAIL: lowprof record exited non-zero" >&2
  exit 1
fi
"$lowprof" export --format folded-calls "$work/c.lpprof" >"$work/calls.folded" ||
  fail "export folded-calls exited $?"
"$lowprof" export --format folded "$work/c.lpprof" >"$work/insns.folded" ||
  fail "export folded exited $?"
"$lowprof" export --format json "$work/c.lpprof" >"$work/c.json" || fail "export json exited $?"
"$lowprof" export --format speedscope "$work/c.lpprof" >"$work/c.speedscope.json" ||
  fail "export speedscope exited $?"

# weight FILE STACK_SUFFIX: the weight of the one line whose stack ends in
# ";STACK_SUFFIX" right after main's caller; "none" or "many" otherwise.
weight() {
  n=$(grep -c ";$2 [0-9]*\$" "$1")
  if [ "$n" = 0 ]; then echo none; elif [ "$n" != 1 ]; then echo many
  else grep ";$2 [0-9]*\$" "$1" | awk '{print $NF}'; fi
}
expect_calls() {
  got=$(weight "$work/calls.folded" "$1")
  [ "$got" = "$2" ] || fail "folded-calls: ...;$1 has $got calls, expected $2"
}
expect_calls "main;a;leaf" 300
expect_calls "main;b;leaf" 50
expect_calls "main;a" 100
expect_calls "main;b" 50
expect_calls "main;rec" 50
expect_calls "main;ping;pong;ping;pong" 1
grep -q "rec;rec" "$work/calls.folded" && fail "self-recursion was not folded (a rec;rec stack)"
[ "$(grep -c ';rec [0-9]*$' "$work/calls.folded")" = 1 ] || fail "rec has more than one context"

# The method profile counts each function's invocations independently of
# the contexts: every call of leaf and rec is in exactly these contexts.
invocations() {
  jq -r --arg f "$1" '[.profiles[] | select(.type == "method" and .phase == null) | .entries[]
                       | select(.function == $f) | .v0] | add' "$work/c.json"
}
[ "$(invocations leaf)" = 350 ] || fail "method profile: leaf invoked $(invocations leaf) times"
[ "$(invocations rec)" = 50 ] || fail "method profile: rec invoked $(invocations rec) times"

insns=$(jq -r '.meta.instructions' "$work/c.json")
self=$(jq -r '[.profiles[] | select(.type == "context") | .entries[].v1] | add' "$work/c.json")
[ -n "$insns" ] && [ "$insns" -gt 100000 ] || fail "the run's instructions: '$insns'"
[ "$self" = "$insns" ] || fail "contexts' self instructions sum to $self, the run has $insns"
folded_sum=$(awk '{s += $NF} END {print s}' "$work/insns.folded")
[ "$folded_sum" = "$insns" ] || fail "folded weights sum to $folded_sum, the run has $insns"
la=$(weight "$work/insns.folded" "main;a;leaf") lb=$(weight "$work/insns.folded" "main;b;leaf")
case "$la$lb" in
  *[!0-9]*) fail "folded: main;a;leaf '$la', main;b;leaf '$lb'" ;;
  *) [ "$la" -gt 0 ] && [ $((la * 50)) = $((lb * 300)) ] ||
       fail "leaf's cost per call differs: $la for 300 calls, $lb for 50" ;;
esac

# lowprof report's section: the same context with its calls and depth (its
# folded stack's frames).
"$lowprof" report --top 0 "$work/c.lpprof" >"$work/report.txt" || fail "report exited $?"
grep -q "^Calling contexts: " "$work/report.txt" || fail "report has no calling-context section"
depth=$(grep ';main;a;leaf [0-9]*$' "$work/insns.folded" | awk '{print $1}' | tr ';' '\n' | wc -l)
row=$(grep ';main;a;leaf$' "$work/report.txt" | awk '{print $1, $3, $4}' | tr -d ,)
[ "$row" = "$la 300 $depth" ] || fail "report's main;a;leaf row: '$row', expected '$la 300 $depth'"

ss=$work/c.speedscope.json
jq empty "$ss" || fail "speedscope: not valid JSON"
jq -e '."$schema" == "https://www.speedscope.app/file-format-schema.json"
       and (.profiles | length) == 1 and .profiles[0].type == "sampled"
       and (.profiles[0].samples | length) == (.profiles[0].weights | length)
       and (.shared.frames | length) as $n
       | [.profiles[0].samples[][] | . >= 0 and . < $n] | all' "$ss" >/dev/null ||
  fail "speedscope: schema, profile type, sample and frame shapes"
ssum=$(jq '.profiles[0].weights | add' "$ss")
[ "$ssum" = "$insns" ] || fail "speedscope weights sum to $ssum, the run has $insns"
[ "$(jq '.profiles[0].endValue' "$ss")" = "$insns" ] || fail "speedscope endValue"
ssa=$(jq '.shared.frames as $f | .profiles[0] as $p
          | [range(0; $p.samples | length) | select([$p.samples[.][] | $f[.].name][-3:]
                                                    == ["main", "a", "leaf"]) | $p.weights[.]]
          | if length == 1 then .[0] else "x" end' "$ss")
[ "$ssa" = "$la" ] || fail "speedscope: main;a;leaf weighs $ssa, folded says $la"

# Without a context profile.
"$lowprof" record -q --no-imatrix --profile call-pair -o "$work/p.lpprof" -- "$prog" \
  >"$work/record-p.log" 2>&1 || fail "record --profile call-pair exited $?"
"$lowprof" export --format folded "$work/p.lpprof" >"$work/pairs.folded" || fail "folded of pairs"
grep -qx "main;a 100" "$work/pairs.folded" || fail "two-frame folded lost 'main;a 100'"
awk -F';' 'NF != 2 {exit 1}' "$work/pairs.folded" || fail "two-frame folded has deeper stacks"
for f in folded-calls speedscope; do
  if "$lowprof" export --format $f "$work/p.lpprof" >"$work/$f.out" 2>"$work/$f.err"; then
    fail "$f without a context profile exited 0"
  fi
  grep -q -- "--profile context" "$work/$f.err" || fail "$f: message does not say what to record"
done
"$lowprof" record -q --profile context --strategy periodic:2 -o "$work/s.lpprof" -- "$prog" \
  >"$work/strategy.log" 2>&1
[ $? = 2 ] || fail "record --profile context --strategy did not exit 2"
grep -q "whole-run" "$work/strategy.log" || fail "the --strategy refusal does not say why"

[ $failures = 0 ] || exit 1
echo "ok: contexts, folded stacks and speedscope of $prog"
