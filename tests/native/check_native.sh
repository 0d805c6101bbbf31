#!/bin/sh
# Runs one native benchmark program and compares its checksum line with the
# one workloads/native/suite.tsv expects.
#   check_native.sh NAME EXPECTED-HEX PROGRAM [ARGS...]
# Fails when the program exits non-zero, prints anything else on stdout, or
# prints another checksum.
set -u
if [ $# -lt 3 ]; then
  echo "usage: $0 NAME EXPECTED-HEX PROGRAM [ARGS...]" >&2
  exit 2
fi
name=$1 want=$2 prog=$3
shift 3
out=$("$prog" "$@")
rc=$?
if [ $rc -ne 0 ]; then
  echo "$name: exited with $rc" >&2
  exit 1
fi
if [ "$out" != "$name checksum $want" ]; then
  echo "$name: expected '$name checksum $want', got '$out'" >&2
  exit 1
fi
echo "$out"
