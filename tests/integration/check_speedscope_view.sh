#!/bin/sh
# The speedscope export opened by the real speedscope page: `npm install
# speedscope` once into CACHE (the build folder's speedscope-cache), a
# static file server on 127.0.0.1 (a free port, in a temporary folder)
# serving its page and the profile, and headless Chromium loading
# index.html#profileURL=... The page must take the file: its title becomes
# the profile's name ("PROG - speedscope", which speedscope sets only
# after a successful import) and the DOM shows the sampled profile's name;
# the file is valid under the package's file-format-schema.json (when
# python3 has jsonschema); a screenshot is kept in WORKDIR/flamegraph.png. A file that is not a
# speedscope profile must not get that title (so the check can fail).
# Loopback only; the server is stopped and the folder removed at exit.
#   check_speedscope_view.sh LOWPROF PROG WORKDIR CACHE
# Skips (77) without npm, Chromium or python3, or when npm cannot install.
set -u
if [ $# -ne 4 ]; then
  echo "usage: $0 LOWPROF PROG WORKDIR CACHE" >&2
  exit 2
fi
lowprof=$1 prog=$2 work=$3 cache=$4
for t in npm python3; do
  command -v $t >/dev/null 2>&1 || { echo "$t is not installed"; exit 77; }
done
chromium=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chromium" ] || { echo "chromium is not installed"; exit 77; }
rm -rf "$work"
mkdir -p "$work" "$cache"
page=$cache/node_modules/speedscope/dist/release
if [ ! -f "$page/index.html" ]; then
  if ! npm install --prefix "$cache" --no-audit --no-fund speedscope >"$work/npm.log" 2>&1 ||
     [ ! -f "$page/index.html" ]; then
    echo "npm could not install speedscope: $(tail -c 300 "$work/npm.log")"
    exit 77
  fi
fi
"$lowprof" record -q --no-imatrix --profile context -o "$work/c.lpprof" -- "$prog" \
  >"$work/record.log" 2>&1 || { cat "$work/record.log"; echo "FAIL: record"; exit 1; }
root=$(mktemp -d) || exit 1
server=
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null
  rm -rf "$root"
}
trap cleanup EXIT INT TERM
cp -r "$page" "$root/ss"
"$lowprof" export --format speedscope "$work/c.lpprof" >"$root/p.json" || { echo "FAIL: export"; exit 1; }
echo '{"not": "a profile"}' >"$root/bad.json"
# The package ships speedscope's JSON schema: validate against it where a
# validator is at hand (python3's jsonschema); the page below is the check
# that always runs.
if python3 -c 'import jsonschema' 2>/dev/null; then
  python3 - "$page/file-format-schema.json" "$root/p.json" <<'PY' || { echo "FAIL: schema"; exit 1; }
import json, sys
import jsonschema
jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))
PY
  echo "the file is valid under speedscope's file-format-schema.json"
else
  echo "python3 has no jsonschema: the schema validation is skipped"
fi
cp "$root/p.json" "$work/c.speedscope.json"
"$lowprof" export --format folded "$work/c.lpprof" >"$root/stacks.folded" ||
  { echo "FAIL: export folded"; exit 1; }
# Port 0: the system picks a free one, and the server prints it.
(cd "$root" && exec python3 -u -m http.server --bind 127.0.0.1 0) >"$work/http.log" 2>&1 &
server=$!
port=
for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
  port=$(sed -n 's/.*127\.0\.0\.1 port \([0-9]*\).*/\1/p' "$work/http.log" | head -n 1)
  [ -n "$port" ] && break
  sleep 0.5
done
[ -n "$port" ] || { echo "FAIL: the file server did not start: $(cat "$work/http.log")"; exit 1; }
url=http://127.0.0.1:$port
browse() { # browse OUTPUT_FLAG PROFILE: Chromium's output for the page with PROFILE
  timeout "${limit:-120}" "$chromium" --headless --no-sandbox --disable-gpu --no-first-run \
    --user-data-dir="$root/chrome" --window-size=1400,900 --virtual-time-budget=10000 \
    "$1" "$url/ss/index.html#profileURL=$url/$2" 2>>"$work/chromium.log"
}
failures=0
browse --dump-dom p.json >"$work/dom.html"
name=$(basename "$prog")
grep -q "<title>[^<]*$name - speedscope" "$work/dom.html" ||
  { echo "FAIL: speedscope did not load the profile (title: $(grep -o '<title>[^<]*' "$work/dom.html"))"; failures=1; }
grep -q "self instructions per calling context" "$work/dom.html" ||
  { echo "FAIL: the page does not show the sampled profile's name"; failures=1; }
(cd "$work" && browse --screenshot="$work/flamegraph.png" p.json >/dev/null)
[ -s "$work/flamegraph.png" ] || { echo "FAIL: no screenshot"; failures=1; }
# The folded export through speedscope's folded-stacks importer.
browse --dump-dom stacks.folded >"$work/folded.html"
grep -q "<title>stacks.folded - speedscope" "$work/folded.html" ||
  { echo "FAIL: speedscope did not import the folded stacks"; failures=1; }
# speedscope answers a file it cannot import with an alert, which stops a
# headless page: the time limit ends that run, with no profile title.
limit=30 browse --dump-dom bad.json >"$work/bad.html"
grep -q "<title>[^<]* - speedscope" "$work/bad.html" &&
  { echo "FAIL: a file that is not a profile was taken too"; failures=1; }
[ $failures = 0 ] || exit 1
echo "ok: speedscope loaded the profile; screenshot in $work/flamegraph.png"
