#!/usr/bin/env bash
# Phase-aware sampling on programs outside the workload suite
# (doc/eval-phase.md, "Outside the suite"): records four Debian programs
# with interval matrices (a game engine playing a scripted game, a database
# engine running a query file, and two interpreters running scripts; the
# inputs are in bench/outside/), then runs `lowprof eval phase` on them
# with every policy's parameters as chosen on the suite. Matrices already
# in OUT/m are reused.
#
# usage: bench/phase_outside.sh [-b BUILD] [-o OUT]
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$top/build out=$top/results/eval-phase-outside
while getopts "b:o:" opt; do
  case $opt in
    b) build=$OPTARG ;;
    o) out=$OPTARG ;;
    *) echo "usage: $0 [-b BUILD] [-o OUT]" >&2; exit 2 ;;
  esac
done
lowprof=$build/src/cli/lowprof
[ -x "$lowprof" ] || { echo "$0: no $lowprof; build first (meson setup build && ninja -C build)" >&2; exit 1; }
need=
for p in gnugo:/usr/games/gnugo sqlite3:/usr/bin/sqlite3 perl:/usr/bin/perl python3:/usr/bin/python3; do
  [ -x "${p#*:}" ] || need="$need ${p%%:*}"
done
if [ -n "$need" ]; then
  echo "$0: installing$need" >&2
  sudo=; [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get install -y $need >/dev/null
fi
in=$top/bench/outside
mkdir -p "$out/m"
# record NAME INPUT COMMAND...: the program reads INPUT on its standard input.
record() {
  local name=$1 input=$2
  shift 2
  if [ -s "$out/m/$name.lpim" ]; then
    echo "$name: reusing $out/m/$name.lpim" >&2
    return
  fi
  echo "$name: recording $*" >&2
  (cd "$in" && "$lowprof" record --quiet --profile code-region,method,call-pair \
     --out "$out/m/$name.lpprof" --imatrix "$out/m/$name.lpim" -- "$@" \
     < "$input" > "$out/m/$name.stdout")
}
record gnugo game.gtp /usr/games/gnugo --mode gtp
record sqlite3 queries.sql /usr/bin/sqlite3 :memory:
record perl /dev/null /usr/bin/perl words.pl
record python3 /dev/null /usr/bin/python3 script.py
"$lowprof" eval phase --matrices "$out/m" --out "$out"
