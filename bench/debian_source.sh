# Sourced by the bench scripts: Debian's source of a package, fetched once.
#
#   debian_source NAME CACHE   prints the unpacked source folder
#
# `apt-get source NAME` into CACHE/src, through a private sources list of
# deb-src entries for the archive apt already uses (the system's lists are
# not touched). Needs apt-get and dpkg-source (dpkg-dev).
debian_source() {
  local name=$1 cache=$2 apt=$2/apt src=$2/src dir
  mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$src"
  dir=$(ls -d "$src/$name"-[0-9]*/ 2>/dev/null | head -1)
  if [ -z "$dir" ]; then
    command -v apt-get >/dev/null && command -v dpkg-source >/dev/null ||
      { echo "fetching $name's source needs apt-get and dpkg-source (dpkg-dev)" >&2; return 1; }
    local list=$apt/sources.list
    if [ -f /etc/apt/sources.list.d/debian.sources ]; then
      sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources >"$apt/debian.sources"
      list=/dev/null
    else
      grep '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' >"$list"
    fi
    local opts=(-q -o Dir::Etc::SourceList="$list" -o Dir::Etc::SourceParts="$apt"
                -o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache")
    echo "apt-get source $name into $src" >&2
    apt-get "${opts[@]}" update >"$cache/apt.log" 2>&1 &&
      (cd "$src" && apt-get "${opts[@]}" source "$name" >>"$cache/apt.log" 2>&1) ||
      { echo "apt-get failed; see $cache/apt.log" >&2; return 1; }
    dir=$(ls -d "$src/$name"-[0-9]*/ | head -1)
  fi
  echo "${dir%/}"
}
