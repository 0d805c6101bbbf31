#!/bin/sh
# clang, but for IR with a prefixed entry, which it refuses with the
# status clang 14 exits with when its code generator crashes (139): the
# rt test cc-fallback checks that lowprof cc then compiles the file again
# without prefixes. Real shapes that crash clang are kept from prefixes
# by cc_entry.c; this stands for one it does not know.
for a in "$@"; do
  case "$a" in
    *.ll) if grep -q '"patchable-function-prefix"' "$a" 2>/dev/null; then
            echo "clang_prefix_crash.sh: $a has a prefixed entry" >&2
            exit 139
          fi ;;
  esac
done
exec clang "$@"
