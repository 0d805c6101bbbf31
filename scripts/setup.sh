#!/usr/bin/env bash
# Installs the Debian packages lowprof needs (only those missing), then
# configures and builds the tree in build/ (or $LOWPROF_BUILD). Sourced by
# demo.sh and test.sh; safe to run again at any time.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${LOWPROF_BUILD:-$top/build}

lists=("$top/scripts/packages.txt")
[ -f "$top/workloads/packages.txt" ] && lists+=("$top/workloads/packages.txt")
wanted=$(sed 's/#.*//' "${lists[@]}" | tr -s ' \t' '\n' | sed '/^$/d' | sort -u)
missing=()
for p in $wanted; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "lowprof setup: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" "$top" ${LOWPROF_MESON_ARGS:-} >/dev/null
fi
ninja -C "$build" >/dev/null
