#!/bin/sh
# make_archive.sh IN.a OUT.a LD OBJCOPY AR: links every object of IN.a into
# one relocatable object, makes its hidden symbols local, and archives it.
set -e
in=$1 out=$2 ld=$3 objcopy=$4 ar=$5
obj=$out.o
"$ld" -r --whole-archive "$in" -o "$obj"
"$objcopy" --localize-hidden "$obj"
rm -f "$out"
"$ar" rcs "$out" "$obj"
rm -f "$obj"
