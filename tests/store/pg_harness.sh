#!/bin/bash
# A private PostgreSQL server for the store's tests and benchmark.
#
#   pg_harness.sh start DIR   makes a cluster in DIR (which must not exist
#                             yet), starts it on 127.0.0.1 at a free port
#                             with trust authentication and its socket in
#                             DIR, and prints its URI:
#                             postgresql://lowprof@127.0.0.1:PORT/postgres
#   pg_harness.sh stop DIR    stops it (DIR stays; remove it yourself)
#
# Exits 77 when PostgreSQL's server programs are not installed, or when
# run as root without the `postgres` user to run them as (initdb refuses
# root). Needs Debian's postgresql package (/usr/lib/postgresql/*/bin;
# LP_PG_BINDIR=DIR picks another folder holding initdb and pg_ctl).
set -u

die() { echo "pg_harness: $*" >&2; exit 1; }
skip() { echo "pg_harness: SKIP: $*" >&2; exit 77; }

[ $# -eq 2 ] || die "usage: pg_harness.sh start|stop DIR"
cmd=$1
dir=$2

# The newest installed version, unless LP_PG_BINDIR names one.
bin=
if [ -n "${LP_PG_BINDIR:-}" ]; then
    [ -x "$LP_PG_BINDIR/initdb" ] && [ -x "$LP_PG_BINDIR/pg_ctl" ] && bin=$LP_PG_BINDIR
else
    for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V); do
        [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && bin=$d
    done
    if [ -z "$bin" ] && command -v initdb >/dev/null && command -v pg_ctl >/dev/null; then
        bin=$(dirname "$(command -v initdb)")
    fi
fi

# The server must not run as root: as root, run it as `postgres`.
as_server() {
    if [ "$(id -u)" -eq 0 ]; then
        (cd "$dir" && runuser -u postgres -- "$@")
    else
        "$@"
    fi
}

case $cmd in
start)
    [ -n "$bin" ] || skip "PostgreSQL's initdb and pg_ctl not found (Debian package postgresql)"
    if [ "$(id -u)" -eq 0 ]; then
        id postgres >/dev/null 2>&1 ||
            skip "running as root and there is no 'postgres' user to run the server as"
        command -v runuser >/dev/null || skip "running as root and runuser is missing"
    fi
    [ -e "$dir" ] && die "$dir exists already"
    mkdir -p "$dir" || die "cannot create $dir"
    dir=$(cd "$dir" && pwd)
    if [ "$(id -u)" -eq 0 ]; then
        chown postgres: "$dir" || die "cannot give $dir to the postgres user"
        runuser -u postgres -- test -w "$dir" ||
            die "the postgres user cannot reach $dir (a parent folder is closed to it)"
    fi
    chmod 700 "$dir"
    # fsync stays on: the store's tests are about durability.
    as_server "$bin/initdb" -D "$dir/data" -U lowprof -A trust -E UTF8 --locale=C --no-sync \
        >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; die "initdb failed"; }
    as_server mkdir "$dir/sock"
    # A random port, tried until one is free (another test may have taken
    # the one that looked free a moment ago).
    for try in 1 2 3 4 5 6 7 8 9 10; do
        port=$((20000 + RANDOM % 40000))
        if as_server "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
            -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories=$dir/sock" \
            start >"$dir/pg_ctl.log" 2>&1; then
            echo "$port" >"$dir/port"
            echo "postgresql://lowprof@127.0.0.1:$port/postgres"
            exit 0
        fi
        grep -q "could not bind\|Address already in use" "$dir/server.log" 2>/dev/null || break
    done
    cat "$dir/pg_ctl.log" "$dir/server.log" >&2 2>/dev/null
    die "the server did not start (log: $dir/server.log)"
    ;;
stop)
    [ -d "$dir/data" ] || exit 0
    [ -n "$bin" ] || die "PostgreSQL's pg_ctl not found"
    dir=$(cd "$dir" && pwd)
    as_server "$bin/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop >/dev/null 2>&1 ||
        { as_server "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1 && die "could not stop"; }
    exit 0
    ;;
*)
    die "usage: pg_harness.sh start|stop DIR"
    ;;
esac
