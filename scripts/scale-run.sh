#!/usr/bin/env bash
# A crawl at scale with the command line (docs/PERFORMANCE.md, "A million pages"): serves a
# generated loopback site of PAGES pages (`crawl_bench serve-generated`, about 20 KB and 40
# links a page, made on the fly), crawls it with `seo-audit crawl --store FILE`, and prints
# every EVERY seconds the pages done, the pages per second since the line before, and the
# crawl's RSS; at the end its wall time, peak RSS and the store's size per page. Only
# figures: it checks nothing but that the crawl ran.
#
#   cargo build --release -p seo-audit --example crawl_bench --bin seo-audit
#   BIN=target/release scripts/scale-run.sh 1000000
#
# PAGES defaults to 20,000; BIN (default target/debug) holds the two binaries; IN_FLIGHT
# (default 16) is --max-in-flight; EVERY (default 60) the seconds between lines; STORE (a
# temporary file by default) the crawl's store, kept when given. Needs sqlite3.
set -euo pipefail
cd "$(dirname "$0")/.."

pages=${1:-20000}
bin=${BIN:-target/debug}
in_flight=${IN_FLIGHT:-16}
every=${EVERY:-60}
work=$(mktemp -d)
db=${STORE:-$work/crawl.db}
server=""
crawler=""
cleanup() {
  [ -n "$crawler" ] && kill "$crawler" 2>/dev/null || true
  [ -n "$server" ] && kill "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

"$bin/examples/crawl_bench" serve-generated "$pages" >"$work/server.out" &
server=$!
for _ in $(seq 100); do
  grep -q '^http' "$work/server.out" 2>/dev/null && break
  sleep 0.1
done
url=$(awk '/^http/ { print $1; exit }' "$work/server.out")
[ -n "$url" ] || { echo "error: the generated site did not start" >&2; exit 1; }
echo "site $url ($pages generated pages), store $db, $in_flight in flight"

/usr/bin/time -f "%e %M" -o "$work/time" "$bin/seo-audit" crawl "$url" --max-pages "$pages" \
  --max-in-flight "$in_flight" --time-limit 86400 --no-sitemaps --no-external \
  --allow-target 127.0.0.1 --store "$db" --format json --output "$work/report.json" \
  2>"$work/stderr" &
crawler=$!
started=$(date +%s.%N)
done_pages() {
  sqlite3 "$db" "SELECT COUNT(*) FROM crawl_pages WHERE state IN ('done', 'failed')" 2>/dev/null || echo 0
}

printf '%9s %10s %10s %9s\n' seconds pages pages/s rss_mib
last_pages=0
last_at=$started
while kill -0 "$crawler" 2>/dev/null; do
  sleep "$every" &
  wait $! || true
  kill -0 "$crawler" 2>/dev/null || break
  now=$(date +%s.%N)
  n=$(done_pages)
  # /usr/bin/time's child is the crawl.
  rss=$(ps -o rss= -p "$(pgrep -P "$crawler" | head -1)" 2>/dev/null || echo 0)
  awk -v t="$now" -v s="$started" -v n="$n" -v ln="$last_pages" -v lt="$last_at" -v r="$rss" \
    'BEGIN { printf "%9.0f %10d %10.1f %9.1f\n", t - s, n, (n - ln) / (t - lt), r / 1024 }'
  last_pages=$n
  last_at=$now
done
status=0
wait "$crawler" || status=$?
crawler=""
read -r wall peak < <(tail -1 "$work/time") || true
n=$(done_pages)
bytes=$(($(stat -c %s "$db") + $(stat -c %s "$db-wal" 2>/dev/null || echo 0)))
echo "exit $status: $n pages in ${wall:-?} s, peak RSS ${peak:-?} KB; store $bytes bytes ($((bytes / (n > 0 ? n : 1))) a page)"
[ "$status" -eq 0 ] || { cat "$work/stderr" >&2; exit 1; }
