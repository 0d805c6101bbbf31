# Shared by the compiler-feedback export checks in this folder (sourced,
# not run). check_args "$@": SCRIPT LOWPROF SRCDIR WORKDIR's arguments into
# $lowprof, $src (absolute: the checks run inside WORKDIR) and $work.
# check_begin: a fresh $work to run in. fail MESSAGE: count a failed check
# and go on. finish MESSAGE: end with the count (exit 1) or MESSAGE (exit 0).
check_args() {
  if [ $# -ne 3 ]; then
    echo "usage: $0 LOWPROF SRCDIR WORKDIR" >&2
    exit 2
  fi
  lowprof=$1 src=$2 work=$3
  case $lowprof in /*) ;; */*) lowprof=$PWD/$lowprof ;; esac
  src=$(cd "$src" && pwd) || exit 1
}
check_begin() {
  rm -rf "$work"
  mkdir -p "$work"
  cd "$work" || exit 1
  failures=0
}
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}
finish() {
  if [ "$failures" -ne 0 ]; then
    echo "$failures check(s) failed"
    exit 1
  fi
  echo "$1"
}
