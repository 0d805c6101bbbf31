#!/usr/bin/env bash
# The native runtime's call-graph or block accuracy on the native benchmark
# programs (workloads/native/suite.tsv), over many runs: each program built
# with `lowprof cc --profiles=call-graph` (or block; clang -O2), run once
# under strategy=always (the reference) and N times under the LOWPROF
# settings given; each run's accuracy is 1 - MD/2 of its call pairs (or
# block executions) against the reference's, pairs named by caller and
# callee as `lowprof eval native` compares them (the folded export), blocks
# by function and offset in it (the JSON export's function_start). A
# single run of a windowed strategy moves by tens of points on programs
# with short phases (compress, graph, mtsort), so `lowprof eval native`,
# which takes one, shows one draw; this gives the median and the spread. bzip2 1.0.8 from Debian's source runs
# too (`bzip2 -c` of a 3 MB text, bzip2_common.sh), a real program beside
# the suite's six.
#
#   rt_accuracy.sh [-b BUILD] [-a BUILD] [-n RUNS] [-e LOWPROF] [-p PROFILE]
#                  [-L one|two] [-M one|two] [-d BZIP2-SOURCE] [-c CACHE]
#                  [-z MB] [PROGRAM...]
#
# -b  the meson build folder holding src/cli/lowprof (default: build)
# -a  a second build to compare with: each program is built with both,
#     and their runs alternate (a, b, a, b...), so that the machine's
#     drift falls on both alike; each build has its own reference run
#     (a block is named by its offset, which the code's layout moves)
# -n  runs per program (default: 10)
# -e  the settings under test (default: strategy=periodic,duty=10)
# -p  call-graph (the default) or block
# -L  `lowprof cc --loops` of -b's build (default: cc's, one); -M the
#     same for -a's: `-a B -b B -L two -M one` compares the copies' loops
#     in two versions with one, in one build
# -d  a bzip2 source folder; without it the source is fetched once with
#     `apt-get source bzip2` into CACHE (default:
#     ~/.cache/lowprof/debian-source; debian_source.sh)
# -z  bzip2's input in MB (default 3: about 0.35 s, a fifth of the suite's
#     runs, so a tenth as many windows; 12 runs about as long as they do)
# PROGRAM: names of the suite's programs, or bzip2 (default: all and bzip2)
# Prints a Markdown table: per program (and build) the median, lowest and
# highest accuracy in percent, then the median program's median.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
native=$root/workloads/native
build=$root/build other= runs=10 env=strategy=periodic,duty=10 bzsrc= kind=call-graph bzmb=3
declare -A loops=([a]= [b]=)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/lowprof/debian-source
while getopts "b:a:n:e:p:d:c:z:L:M:" opt; do
  case $opt in
    L) loops[b]=$OPTARG ;;
    M) loops[a]=$OPTARG ;;
    z) bzmb=$OPTARG ;;
    p) kind=$OPTARG ;;
    d) bzsrc=$(cd "$OPTARG" && pwd) || exit 2 ;;
    c) cache=$OPTARG ;;
    b) build=$(cd "$OPTARG" && pwd) ;;
    a) other=$(cd "$OPTARG" && pwd) || exit 2 ;;
    n) runs=$OPTARG ;;
    e) env=$OPTARG ;;
    *) sed -n '2,38p' "$0" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[[ $runs =~ ^[1-9][0-9]*$ && $runs -le 1000 ]] || { echo "-n: 1 to 1000 runs" >&2; exit 2; }
[[ $env =~ (^|,)(out|profiles)= ]] && { echo "-e: out= and profiles= are the script's" >&2; exit 2; }
[[ $kind =~ ^(call-graph|block)$ ]] || { echo "-p: call-graph or block" >&2; exit 2; }
[[ $bzmb =~ ^[1-9][0-9]*$ && $bzmb -le 1000 ]] || { echo "-z: 1 to 1000 MB" >&2; exit 2; }
[[ ${loops[b]} =~ ^(|one|two)$ && ${loops[a]} =~ ^(|one|two)$ ]] || { echo "-L, -M: one or two" >&2; exit 2; }
lowprof=$build/src/cli/lowprof
[ -x "$lowprof" ] || { echo "no $lowprof: build first" >&2; exit 1; }
builds=(b); [ -n "$other" ] && builds=(a b)
[ -z "$other" ] || [ -x "$other/src/cli/lowprof" ] || { echo "no $other/src/cli/lowprof: build first" >&2; exit 1; }
command -v clang >/dev/null || { echo "clang is needed" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$here/debian_source.sh"
. "$here/bzip2_common.sh"

# One run's accuracy, in percent, against the reference's pairs.
accuracy() { # reference.folded run.folded
  python3 - "$1" "$2" <<'EOF'
import sys
def pairs(path):
    d = {}
    for line in open(path):
        stack, _, n = line.rstrip("\n").rpartition(" ")
        d[stack] = d.get(stack, 0.0) + float(n)
    total = sum(d.values())
    return {k: v / total for k, v in d.items()} if total > 0 else {}
a, b = pairs(sys.argv[1]), pairs(sys.argv[2])
md = sum(abs(a.get(k, 0.0) - b.get(k, 0.0)) for k in set(a) | set(b))
print("%.2f" % (100 * (1 - md / 2)))
EOF
}

median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

# One run's profile as "key count" lines in $work/p.folded: call pairs as
# the folded export gives them, blocks as function;offset from the JSON
# export (a block's address less its function's start, the same in every
# run of one build wherever the loader puts it). Fails when the run does.
profile() { # env exe args...
  local e=$1 exe=$2; shift 2
  rm -f "$work/p.lpprof"
  (cd "$work" && LOWPROF="$e,profiles=$kind,out=$work/p.lpprof" "$exe" "$@" >/dev/null) || return 1
  if [ "$kind" = call-graph ]; then
    "$lowprof" export --format folded -o "$work/p.folded" "$work/p.lpprof"
    return
  fi
  "$lowprof" export --format json "$work/p.lpprof" | python3 -c '
import json, sys
for p in json.load(sys.stdin)["profiles"]:
    if p["type"] != "block":
        continue
    for e in p["entries"]:
        if e["v0"] and e.get("function") and e.get("function_start"):
            print("%s;%d %s" % (e["function"], int(e["a"], 16) - int(e["function_start"], 16), e["v0"]))
' >"$work/p.folded"
}

buildof() { [ "$1" = a ] && echo "$other" || echo "$build"; }
labelof() { echo "$(buildof "$1")${loops[$1]:+ --loops=${loops[$1]}}"; }
hdr="| program |"; [ -n "$other" ] && hdr="| program | build |"
one=""; [ -z "$other" ] && one=${loops[b]:+, --loops=${loops[b]}}
echo "$hdr median accuracy, % ($kind, $env, $runs runs$one) | lowest | highest |"
[ -n "$other" ] && echo "|---|---|---:|---:|---:|" || echo "|---|---:|---:|---:|"
declare -A medians=()
wanted() { # name -> 0 when asked for
  [ ${#selected[@]} -eq 0 ] && return 0
  local p; for p in "${selected[@]}"; do [ "$p" = "$1" ] && return 0; done
  return 1
}
selected=("$@")

# One program: its name, its link flags (- for none) and arguments (-
# for none) as suite.tsv gives them, then its sources.
measure() {
  local name=$1 link=$2 dargs=$3; shift 3
  local args=() linkf=() k r m col
  [ "$dargs" != - ] && read -ra args <<<"$dargs"
  [ "$link" != - ] && read -ra linkf <<<"$link"
  echo "$name: building" >&2
  for k in "${builds[@]}"; do
    "$(buildof "$k")/src/cli/lowprof" cc --profiles="$kind" ${loops[$k]:+--loops=${loops[$k]}} \
      --cc=clang -- -O2 "$@" -o "$work/$name.$k" "${linkf[@]}" >"$work/build.log" 2>&1 ||
      { echo "$name: build failed:" >&2; tail -5 "$work/build.log" >&2; exit 1; }
    profile strategy=always,hot=all "$work/$name.$k" "${args[@]}" ||
      { echo "$name: the reference run failed" >&2; exit 1; }
    mv "$work/p.folded" "$work/ref.$k.folded"
  done
  declare -A accs=([a]= [b]=)
  for ((r = 1; r <= runs; r++)); do
    echo "$name: run $r of $runs" >&2
    for k in "${builds[@]}"; do
      profile "$env" "$work/$name.$k" "${args[@]}" || { echo "$name: run $r failed" >&2; exit 1; }
      accs[$k]+="$(accuracy "$work/ref.$k.folded" "$work/p.folded") "
    done
  done
  for k in "${builds[@]}"; do
    m=$(printf '%s\n' ${accs[$k]} | median)
    medians[$k]+="$m "
    col=""; [ -n "$other" ] && col=" $(labelof "$k") |"
    echo "| $name |$col $m | $(printf '%s\n' ${accs[$k]} | sort -g | head -1) | $(printf '%s\n' ${accs[$k]} | sort -g | tail -1) |"
  done
}

while IFS=$'\t' read -r name srcs link dargs _; do
  case $name in ''|'#'*) continue ;; esac
  wanted "$name" || continue
  src=(); for s in $srcs; do src+=("$native/$s"); done
  measure "$name" "$link" "$dargs" "${src[@]}"
done <"$native/suite.tsv"
if wanted bzip2; then
  bzip2_prepare "$bzsrc" "$cache" || exit 1
  bzip2_input "$work/bzin" "$bzmb"
  measure bzip2 - "-c $work/bzin" -D_FILE_OFFSET_BITS=64 "${bzfiles[@]}"
fi
for k in "${builds[@]}"; do
  set -- ${medians[$k]}
  col=""; [ -n "$other" ] && col=" $(labelof "$k") |"
  [ $# -gt 1 ] && echo "| median program |$col $(printf '%s\n' "$@" | median) | | |"
done
exit 0
