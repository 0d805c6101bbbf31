#!/bin/sh
# check-wlgen.sh: the workload inputs are what the suite promises.
#
#   check-wlgen.sh WLGEN DRIVERS_DIR
#
# Generates the small inputs twice and requires byte-identical files (no
# clock, no uninitialised memory, no machine dependence may leak in), checks
# that the generated C compiles with the C compiler proper without
# diagnostics, and runs each driver once on the small inputs, which verifies
# its round trips. Exits 77 (skipped) if gcc's cc1 is not installed.
set -eu
wlgen=$1
drivers=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$wlgen" small "$tmp/a"
"$wlgen" small "$tmp/b"
for f in $("$wlgen" --list small | awk '{print $1}'); do
    [ -s "$tmp/a/$f" ] || { echo "FAIL: $f missing or empty"; exit 1; }
    cmp "$tmp/a/$f" "$tmp/b/$f" || { echo "FAIL: $f differs between two runs"; exit 1; }
done
echo "ok: $(ls "$tmp/a" | wc -l) files, identical across runs"
"$drivers/wl-bzip2" "$tmp/a/mixed-drv.dat" 1 5s >/dev/null
"$drivers/wl-zlib" "$tmp/a/mixed-drv.dat" 1 9h 3r >/dev/null
JSIMD_FORCENONE=1 "$drivers/wl-jpeg" "$tmp/a/image-drv.ppm" 75o 90p >/dev/null
echo "ok: drivers round-trip"
cc1=$(gcc -print-prog-name=cc1 2>/dev/null || true)
case $cc1 in
/*) ;;
*) echo "SKIP: gcc's cc1 not found"; exit 77 ;;
esac
out=$("$cc1" -O2 -quiet "$tmp/a/prog.c" -o "$tmp/prog.s" 2>&1)
[ -z "$out" ] || { echo "FAIL: cc1 printed diagnostics:"; echo "$out"; exit 1; }
echo "ok: prog.c compiles with cc1 -O2"
echo "3 passed, 0 failed"
