#!/usr/bin/env bash
# The native runtime on Debian programs built by `lowprof cc` as their
# build systems would use it: gzip 1.12 (configure and make, with
# CC="lowprof cc --profiles=... --") and the SQLite 3.40 shell (its
# amalgamation, one 8.6 MB C file, made by its own makefile), each built
# plain (clang -O2), for the call graph, and for the call graph and blocks.
# Each build runs the same job (gzip -9 of 30 copies of the C sources it
# was built from; an SQL script of a million inserts, an index, aggregates,
# LIKE, JSON and full-text search), alternating the configurations below
# round by round; a configuration whose output differs from the plain
# build's stops the script. Prints a Markdown table of the median CPU time
# (user + system) and its excess over the plain build.
#
#   real_native.sh [-b BUILD] [-r ROUNDS] [-c CACHE] [-t] [PROGRAM...]
#
# -b  the meson build folder holding src/cli/lowprof (default: build)
# -r  timing rounds (default: 7)
# -t  also builds with `lowprof cc --loops=two` (the copies' loops in two
#     versions, which stop counting between windows), timed at 10 % windows
#     and always on beside the default builds (cg2-10, blk2-10, blk2-100)
# -c  where the sources are fetched and built (default:
#     ~/.cache/lowprof/real-native); sources come from `apt-get source`
#     (bench/debian_source.sh)
# PROGRAM: gzip, sqlite (default: both)
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
build=$root/build rounds=7 cache=${XDG_CACHE_HOME:-$HOME/.cache}/lowprof/real-native two=0
while getopts "b:r:c:t" opt; do
  case $opt in
    b) build=$(cd "$OPTARG" && pwd) ;;
    r) rounds=$OPTARG ;;
    c) cache=$OPTARG ;;
    t) two=1 ;;
    *) sed -n '2,24p' "$0" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
lowprof=$build/src/cli/lowprof
[ -x "$lowprof" ] || { echo "no $lowprof: build first" >&2; exit 1; }
for t in clang make tclsh; do
  command -v $t >/dev/null || { echo "$t is needed" >&2; exit 1; }
done
. "$here/debian_source.sh"
mkdir -p "$cache"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
programs=("$@")
[ ${#programs[@]} -gt 0 ] || programs=(gzip sqlite)

# name LOWPROF: the configurations, each on the build it needs.
configs=("plain -" "cg-off strategy=never" "cg-10 strategy=periodic,duty=10"
         "cg-100 strategy=always" "blk-10 strategy=periodic,duty=10,profiles=call-graph,block"
         "blk-100 strategy=always,profiles=call-graph,block")
kinds=(plain cg blk)
if [ $two = 1 ]; then
  configs+=("cg2-10 strategy=periodic,duty=10"
            "blk2-10 strategy=periodic,duty=10,profiles=call-graph,block"
            "blk2-100 strategy=always,profiles=call-graph,block")
  kinds+=(cg2 blk2)
fi
build_of() { case $1 in plain) echo plain ;; cg2-*) echo cg2 ;; blk2-*) echo blk2 ;; cg-*) echo cg ;; *) echo blk ;; esac; }
profiles_of() { case $1 in cg*) echo call-graph ;; blk*) echo call-graph,block ;; esac; }
# lowprof cc's options for a build kind (cg2, blk2: the loops in two versions)
cc_of() { case $1 in *2) echo "--profiles=$(profiles_of "$1") --loops=two" ;; *) echo "--profiles=$(profiles_of "$1")" ;; esac; }

# gzip: a configured tree per build; the binary is DIR/gzip.
build_gzip() { # kind -> prints the binary
  local kind=$1 dir=$cache/gzip-$1 cc
  if [ ! -x "$dir/gzip" ]; then
    rm -rf "$dir" && cp -a "$(debian_source gzip "$cache")" "$dir" || return 1
    cc=clang
    [ "$kind" != plain ] && cc="$lowprof cc $(cc_of "$kind") --"
    # The Debian patches touch configure.ac: autotools are not run again.
    (cd "$dir" && ./configure CC="$cc" CFLAGS="-O2 -g" >configure.log 2>&1 &&
      make ACLOCAL=true AUTOCONF=true AUTOMAKE=true AUTOHEADER=true MAKEINFO=true \
        >make.log 2>&1) || { echo "gzip ($kind): the build failed; see $dir" >&2; return 1; }
  fi
  echo "$dir/gzip"
}

# SQLite: the amalgamation made once by its makefile, compiled per build.
build_sqlite() {
  local kind=$1 amal=$cache/sqlite-amalgamation exe=$cache/sqlite-$1
  if [ ! -f "$amal/sqlite3.c" ]; then
    mkdir -p "$amal" &&
      (cd "$amal" && "$(debian_source sqlite3 "$cache")/configure" >configure.log 2>&1 &&
        make sqlite3.c shell.c >make.log 2>&1) ||
      { echo "SQLite: making the amalgamation failed; see $amal" >&2; return 1; }
  fi
  if [ ! -x "$exe" ]; then
    local flags=(-O2 -g -DSQLITE_THREADSAFE=1 -DSQLITE_ENABLE_FTS5 -I"$amal"
                 "$amal/sqlite3.c" "$amal/shell.c" -o "$exe" -lpthread -ldl -lm)
    if [ "$kind" = plain ]; then
      clang "${flags[@]}"
    else
      # shellcheck disable=SC2046 # the options are words
      "$lowprof" cc $(cc_of "$kind") -- "${flags[@]}"
    fi >"$exe.log" 2>&1 || { echo "SQLite ($kind): the build failed; see $exe.log" >&2; return 1; }
  fi
  echo "$exe"
}

job_input() { # program -> prints the input file
  case $1 in
    gzip)
      [ -f "$cache/gzip-input" ] ||
        for i in $(seq 30); do cat "$(debian_source gzip "$cache")"/*.c; done >"$cache/gzip-input"
      echo "$cache/gzip-input" ;;
    sqlite)
      cat >"$cache/sqlite-input.sql" <<'EOF'
CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT, c REAL);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i<1000000)
INSERT INTO t SELECT i, (i % 97), (i * 7919) % 1000 / 7.0 FROM n;
CREATE INDEX tb ON t(b);
SELECT count(*), sum(c), max(length(b)) FROM t WHERE c > 50;
SELECT a % 10, count(*), round(avg(c), 3) FROM t GROUP BY a % 10 ORDER BY 1;
SELECT json_object('n', count(*)) FROM t WHERE b LIKE '1%';
CREATE VIRTUAL TABLE f USING fts5(x);
INSERT INTO f SELECT 'w' || (a % 50) || ' z' || (a % 7) FROM t WHERE a < 100000;
SELECT count(*) FROM f WHERE f MATCH 'w3 AND z2';
EOF
      echo "$cache/sqlite-input.sql" ;;
  esac
}

args_of() { case $1 in gzip) echo "-9 -c" ;; sqlite) echo ":memory:" ;; esac; }

echo "| program | configuration | CPU s (median of $rounds) | over plain % |"
echo "|---|---|---:|---:|"
for prog in "${programs[@]}"; do
  case $prog in gzip | sqlite) ;; *) echo "unknown program $prog" >&2; exit 2 ;; esac
  declare -A exe=() times=()
  for kind in "${kinds[@]}"; do
    exe[$kind]=$("build_$prog" "$kind") || exit 1
  done
  input=$(job_input "$prog")
  read -ra args <<<"$(args_of "$prog")"
  "${exe[plain]}" "${args[@]}" <"$input" >"$work/want" 2>/dev/null
  for ((r = 0; r < rounds; r++)); do
    for c in "${configs[@]}"; do
      name=${c%% *} env=${c#* }
      [ "$env" = - ] && env=""
      LOWPROF="$env${env:+,}out=$work/p.lpprof" /usr/bin/time -o "$work/time" -f "%U %S" \
        "${exe[$(build_of "$name")]}" "${args[@]}" <"$input" >"$work/got" 2>/dev/null
      cmp -s "$work/want" "$work/got" ||
        { echo "$prog $name: the output differs from the plain build's" >&2; exit 1; }
      times[$name]+="$(awk '{print $1 + $2}' "$work/time") "
    done
  done
  base=
  for c in "${configs[@]}"; do
    name=${c%% *}
    m=$(echo "${times[$name]}" | tr ' ' '\n' | grep . | sort -g |
      awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}')
    [ -z "$base" ] && base=$m
    echo "| $prog | $name | $m | $(awk -v a="$m" -v b="$base" 'BEGIN {printf "%+.1f", 100 * (a / b - 1)}') |"
  done
  unset exe times
done
