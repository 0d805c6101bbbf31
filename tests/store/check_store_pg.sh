#!/bin/bash
# Runs the store's test program (its path is the argument, with any more
# arguments after it) against a private PostgreSQL server started for the
# purpose in a temporary folder, and stops the server however the test
# ends. Skips (77) only where PostgreSQL is not installed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { echo "usage: check_store_pg.sh TEST_PROGRAM [ARGS...]" >&2; exit 2; }
prog=$1
shift

tmp=$(mktemp -d /tmp/lp-store-pg.XXXXXX) || exit 1
# The server runs as another user when we are root: it must reach the folder.
chmod 755 "$tmp"
trap '"$here/pg_harness.sh" stop "$tmp/pg"; rm -rf "$tmp"' EXIT

uri=$("$here/pg_harness.sh" start "$tmp/pg")
rc=$?
[ $rc -eq 0 ] || exit $rc
echo "check_store_pg: server at $uri"
"$prog" "$uri" "$@"
