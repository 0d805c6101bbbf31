#!/usr/bin/env bash
# Builds every native benchmark program (workloads/native/suite.tsv) in the
# build variants the evaluation uses, runs each, and checks that every
# variant prints the checksum suite.tsv expects.
#
#   check-variants.sh [-s small|default] [-p PROGRAM] [-v VARIANT] [-k DIR]
#
# -s  the size to run (default: small); -p / -v  only that program or
# variant (repeatable); -k  keep the binaries in DIR. Prints one line per
# program and variant, and exits 1 if any build fails or any checksum
# differs. Variants whose compiler or runtime is missing are skipped.
# The sanitizer variants are for the small size only: they are slow.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
native=$(dirname "$here")
size=small keep= only_p=() only_v=()
while getopts "s:p:v:k:" opt; do
  case $opt in
    s) size=$OPTARG ;;
    p) only_p+=("$OPTARG") ;;
    v) only_v+=("$OPTARG") ;;
    k) keep=$OPTARG ;;
    *) sed -n '2,13p' "$0" >&2; exit 2 ;;
  esac
done
case $size in small|default) ;; *) echo "size must be small or default" >&2; exit 2 ;; esac
out=${keep:-$(mktemp -d)}
mkdir -p "$out"
[ -z "$keep" ] && trap 'rm -rf "$out"' EXIT

std=(-std=c17 -Wall -Wextra -Werror)
# name | compiler | flags | helper file compiled without the flags
variants=(
  "gcc-O0|gcc|-O0|"
  "gcc-O2|gcc|-O2|"
  "clang-O0|clang|-O0|"
  "clang-O2|clang|-O2|"
  "gcc-pg|gcc|-O2 -pg|"
  "gcc-finstrument|gcc|-O2 -finstrument-functions|cyg_stub.c"
  "clang-finstrument|clang|-O2 -finstrument-functions|cyg_stub.c"
  "clang-trace-pc-guard|clang|-O2 -fsanitize-coverage=trace-pc-guard|cov_stub.c"
  "gcc-patchable|gcc|-O2 -fpatchable-function-entry=16,14|"
  "clang-xray|clang|-O2 -fxray-instrument -fxray-instruction-threshold=1|"
  "clang-profile|clang|-O2 -fprofile-instr-generate|"
  "gcc-asan-ubsan|gcc|-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer|"
  "clang-asan-ubsan|clang|-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer|"
  "clang-tsan|clang|-O1 -g -fsanitize=thread|"
)

wanted() { # value list...
  local v=$1; shift
  [ $# -eq 0 ] && return 0
  local x; for x in "$@"; do [ "$x" = "$v" ] && return 0; done
  return 1
}

fails=0 runs=0
while IFS=$'\t' read -r name srcs link dargs sargs dsum ssum; do
  case $name in ''|'#'*) continue ;; esac
  wanted "$name" "${only_p[@]+"${only_p[@]}"}" || continue
  if [ "$size" = small ]; then args=$sargs want=$ssum; else args=$dargs want=$dsum; fi
  [ "$args" = - ] && args=
  [ "$link" = - ] && link=
  for spec in "${variants[@]}"; do
    IFS='|' read -r vname cc flags helper <<<"$spec"
    wanted "$vname" "${only_v[@]+"${only_v[@]}"}" || continue
    case $vname in *san*) [ "$size" = small ] || continue ;; esac
    case $vname in *tsan) [ "$name" = mtsort ] || continue ;; esac
    if ! command -v "$cc" >/dev/null; then
      printf '%-9s %-22s skipped (no %s)\n' "$name" "$vname" "$cc"; continue
    fi
    exe=$out/$name-$vname
    files=()
    for s in $srcs; do files+=("$native/$s"); done
    objs=()
    if [ -n "$helper" ]; then
      "$cc" "${std[@]}" -O2 -c "$here/$helper" -o "$exe.helper.o" || { fails=$((fails + 1)); continue; }
      objs+=("$exe.helper.o")
    fi
    # shellcheck disable=SC2086
    if ! "$cc" "${std[@]}" $flags -o "$exe" "${files[@]}" "${objs[@]+"${objs[@]}"}" $link 2>"$exe.log"; then
      printf '%-9s %-22s BUILD FAILED (%s)\n' "$name" "$vname" "$exe.log"
      fails=$((fails + 1)); continue
    fi
    runs=$((runs + 1))
    # shellcheck disable=SC2086
    got=$(cd "$out" && LLVM_PROFILE_FILE=/dev/null "$exe" $args 2>"$exe.err")
    rc=$?
    if [ $rc -ne 0 ] || [ "$got" != "$name checksum $want" ]; then
      printf '%-9s %-22s FAIL rc=%d got "%s" want %s\n' "$name" "$vname" $rc "$got" "$want"
      fails=$((fails + 1))
    else
      printf '%-9s %-22s ok %s\n' "$name" "$vname" "${got##* }"
    fi
  done
done <"$native/suite.tsv"
echo "$runs runs, $fails failures"
[ $fails -eq 0 ]
