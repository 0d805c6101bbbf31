#!/bin/sh
# wl-run.sh: runs the workload suite under a stock Valgrind tool, as an
# independent check of `lowprof workloads` and to size and study the inputs.
#
#   wl-run.sh [-s small|full] [-d DIR] [-b BUILDDIR] [-t count|bbv|native]
#             [-i INTERVAL] [-k THRESHOLD] [NAME...]
#
#   -s  size (default small)
#   -d  results folder (default ./results/wl-run-SIZE); inputs go to DIR/data
#   -b  the meson build folder holding workloads/lowprof-wlgen and the drivers
#       (default ./build)
#   -t  count:  callgrind, prints the instructions executed ("Collected")
#       bbv:    exp-bbv with INTERVAL-instruction intervals (default 10M),
#               prints the phase statistics of wl-bbv-phases (bbv_phases.c)
#       native: runs the commands without Valgrind (checks they work)
#   -k  leader-clustering threshold for bbv (default 0.1)
#
# Reads workloads/suite.tsv beside this script: the same manifest, the same
# preparation steps and the same commands that `lowprof workloads` records.
# Prints one line per workload: name, then the tool's numbers.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
manifest="$here/../suite.tsv"
size=small
dir=
build=./build
tool=count
interval=10000000
threshold=0.1
while getopts s:d:b:t:i:k: opt; do
    case $opt in
    s) size=$OPTARG ;;
    d) dir=$OPTARG ;;
    b) build=$OPTARG ;;
    t) tool=$OPTARG ;;
    i) interval=$OPTARG ;;
    k) threshold=$OPTARG ;;
    *) sed -n '2,20p' "$0" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
case $size in small | full) ;; *) echo "wl-run.sh: unknown size '$size'" >&2; exit 2 ;; esac
case $tool in count | bbv | native) ;; *) echo "wl-run.sh: unknown tool '$tool'" >&2; exit 2 ;; esac
[ -n "$dir" ] || dir=./results/wl-run-$size
wlgen="$build/workloads/lowprof-wlgen"
drivers=$(cd "$build/workloads" && pwd)
[ -x "$wlgen" ] || { echo "wl-run.sh: $wlgen not built" >&2; exit 1; }
cc1=$(gcc -print-prog-name=cc1)
mkdir -p "$dir/out"
data=$(cd "$dir" && pwd)/data
out=$(cd "$dir/out" && pwd)

# Expands the placeholders of a manifest command.
expand() {
    printf '%s\n' "$1" | sed -e "s|{data}|$data|g" -e "s|{out}|$out|g" \
        -e "s|{drivers}|$drivers|g" -e "s|{cc1}|$cc1|g"
}

# Prints "name<TAB>env<TAB>command" for the lines of kind ($1 = prepare or
# workload) that apply to the size.
lines() {
    awk -F '\t' -v size="$size" -v kind="$1" '
        /^#/ || NF < 4 { next }
        ($2 == size || $2 == "*") && ((kind == "prepare") == ($1 == "prepare")) {
            print $1 "\t" $3 "\t" $4
        }' "$manifest"
}

# Runs one manifest command: $1 env (or -), $2 command, then a prefix to
# put before the program (valgrind and its options), as words.
run() {
    envs=$1
    cmd=$(expand "$2")
    shift 2
    [ "$envs" = - ] && envs=
    # The manifest's only syntax is words and <PATH / >PATH, which the shell
    # reads the same way, so eval is exact here. The environment is fixed,
    # as `lowprof workloads` fixes it: programs scan their environment, so
    # its size would otherwise change the instruction counts.
    eval "env -i PATH=/usr/local/bin:/usr/bin:/bin LC_ALL=C $envs $* $cmd"
}

# The stamp records the generator's inputs version and the preparation
# steps; if either changed, the inputs are made again.
stamp="$data/.prepared"
want_stamp=$(printf '%s\n%s\n' "$("$wlgen" --version) $size" "$(lines prepare)")
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want_stamp" ]; then
    echo "wl-run.sh: generating $size inputs in $data" >&2
    rm -rf "$data"
    "$wlgen" "$size" "$data"
    lines prepare | while IFS="$(printf '\t')" read -r name envs cmd; do
        run "$envs" "$cmd" </dev/null
    done
    printf '%s\n' "$want_stamp" >"$stamp"
fi

lines workload | while IFS="$(printf '\t')" read -r name envs cmd; do
    if [ $# -gt 0 ]; then
        want=0
        for n in "$@"; do [ "$n" = "$name" ] && want=1; done
        [ $want = 1 ] || continue
    fi
    log="$dir/$name.$tool.log"
    case $tool in
    native)
        run "$envs" "$cmd" 2>"$log" </dev/null
        printf '%s\tok\n' "$name"
        ;;
    count)
        run "$envs" "$cmd" valgrind --tool=callgrind --callgrind-out-file=/dev/null \
            2>"$log" </dev/null
        printf '%s\t%s\n' "$name" "$(sed -n 's/.*Collected : *//p' "$log")"
        ;;
    bbv)
        run "$envs" "$cmd" valgrind --tool=exp-bbv --interval-size="$interval" \
            --bb-out-file="$dir/$name.bb" --pc-out-file=/dev/null 2>"$log" </dev/null
        printf '%s\t%s\n' "$name" \
            "$("$drivers/wl-bbv-phases" -k "$threshold" "$dir/$name.bb")"
        ;;
    esac
done
