# Sourced by the bench scripts that run Debian's bzip2 built from source
# (bursty_native.sh, rt_accuracy.sh, rt_overhead.sh).
#
#   bzip2_files DIR   prints the eight C files of bzip2's source folder DIR
#                     (debian_source bzip2 CACHE fetches one)
#   bzip2_input FILE [MB]  writes the text bzip2 compresses: 3 MB, or MB
#   bzip2_prepare SRC CACHE  sets bzfiles to the C files of the source
#                     folder SRC, or without one of the source fetched
#                     once into CACHE (needs debian_source.sh)

bzip2_files() {
  local f
  for f in blocksort huffman crctable randtable compress decompress bzlib bzip2; do
    echo "$1/$f.c"
  done
}

bzip2_prepare() {
  local src=$1
  [ -n "$src" ] || src=$(debian_source bzip2 "$2") || return 1
  echo "bzip2 from $src" >&2
  mapfile -t bzfiles < <(bzip2_files "$src")
}

# Words (3 MB of them unless MB says) drawn by a fixed generator (Park and Miller's): the same
# text on every machine, compressible about as English is.
bzip2_input() {
  awk -v size=$((${2:-3} * 1000000)) 'BEGIN {split("profile branch sample window counter method edge block the of a and " \
                    "to in value load compile hot cold call return loop phase trace", w, " ");
              x = 12345; n = 0;
              while (n < size) { x = (x * 16807) % 2147483647; s = w[x % 24 + 1];
                                    sep = (int(x / 24) % 13 == 0) ? "\n" : " ";
                                    printf "%s%s", s, sep; n += length(s) + 1 } }' >"$1"
}
