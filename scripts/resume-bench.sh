#!/usr/bin/env bash
# Resumption at scale (docs/PERFORMANCE.md, "A crawl killed half way, resumed"): crawls a
# generated loopback site of PAGES pages with `seo-audit crawl --store FILE`, as a user keeps
# a crawl to resume, kills the command with SIGKILL once half of the pages are done, runs
# the same command again, and checks at the end that every page of the site was fetched and
# recorded exactly once: the store holds PAGES pages, all done, none queued or in flight,
# each recorded once (the `records` column counts a page's recordings) with one row per page
# rule that failed on it. Prints the time to resume: from the second process's start to the
# first page it adds.
#
#   cargo build -p seo-audit --example crawl_bench --bin seo-audit   # or --release, with BIN=target/release
#   scripts/resume-bench.sh 10000
#
# PAGES defaults to 10,000; BIN (default target/debug) holds the two binaries; IN_FLIGHT
# (default 16) is --max-in-flight. Needs sqlite3. Exits 1 when a check fails.
set -euo pipefail
cd "$(dirname "$0")/.."

pages=${1:-10000}
bin=${BIN:-target/debug}
in_flight=${IN_FLIGHT:-16}
work=$(mktemp -d)
server=""
crawler=""
cleanup() {
  [ -n "$crawler" ] && kill -9 "$crawler" 2>/dev/null || true
  [ -n "$server" ] && kill "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

now() { date +%s.%N; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
db="$work/crawl.db"
# Pages done or failed so far. The store is in WAL mode: reading it beside the writer is
# allowed and blocks nothing; before the crawl has made its tables there is nothing to count.
done_pages() {
  sqlite3 "$db" "SELECT COUNT(*) FROM crawl_pages WHERE state IN ('done', 'failed')" 2>/dev/null || echo 0
}
sql() { sqlite3 "$db" "$1"; }

"$bin/examples/crawl_bench" serve-generated "$pages" >"$work/server.out" &
server=$!
for _ in $(seq 100); do
  grep -q '^http' "$work/server.out" 2>/dev/null && break
  sleep 0.1
done
url=$(awk '/^http/ { print $1; exit }' "$work/server.out")
[ -n "$url" ] || { echo "error: the generated site did not start" >&2; exit 1; }

crawl() {
  /usr/bin/time -f "%M" -o "$work/rss-$1" "$bin/seo-audit" crawl "$url" --max-pages "$pages" \
    --max-in-flight "$in_flight" --time-limit 86400 --no-sitemaps --no-external \
    --allow-target 127.0.0.1 --store "$db" --format json --output "$work/report-$1.json" \
    2>"$work/stderr-$1" &
  crawler=$!
}

echo "site         $url ($pages generated pages); store $db"
started=$(now)
crawl 1
half=$((pages / 2))
while [ "$(done_pages)" -lt "$half" ]; do
  if ! kill -0 "$crawler" 2>/dev/null; then
    echo "error: the first run ended before half of the site was done:" >&2
    cat "$work/stderr-1" >&2
    exit 1
  fi
  sleep 0.05
done
# /usr/bin/time's child is the crawl: kill it, not the timer.
kill -9 "$(pgrep -P "$crawler")" 2>/dev/null || true
wait "$crawler" 2>/dev/null || true
crawler=""
killed=$(now)
at_kill=$(done_pages)
in_flight_at_kill=$(sql "SELECT COUNT(*) FROM crawl_pages WHERE state = 'fetching'")
echo "first run    killed (SIGKILL) after $(seconds "$started" "$killed") s: $at_kill pages done, $in_flight_at_kill being fetched"

resumed=$(now)
crawl 2
first_new=""
while kill -0 "$crawler" 2>/dev/null; do
  if [ -z "$first_new" ] && [ "$(done_pages)" -gt "$at_kill" ]; then
    first_new=$(now)
  fi
  sleep 0.05
done
status=0
wait "$crawler" || status=$?
crawler=""
ended=$(now)
[ -n "$first_new" ] || first_new=$ended
echo "second run   exit $status after $(seconds "$resumed" "$ended") s; time to resume (start to first new page): $(seconds "$resumed" "$first_new") s"
echo "peak RSS     first run $(tail -1 "$work/rss-1") KB, second run $(tail -1 "$work/rss-2") KB"

failures=0
check() {
  local what=$1 got=$2 want=$3
  if [ "$got" = "$want" ]; then
    echo "ok           $what: $got"
  else
    echo "FAILED       $what: $got, expected $want" >&2
    failures=$((failures + 1))
  fi
}
check "exit status of the resumed run" "$status" 0
check "crawls in the store" "$(sql "SELECT COUNT(*) FROM crawls")" 1
check "the crawl's state and resumes" "$(sql "SELECT state || ' ' || resumes FROM crawls")" "completed 1"
check "pages done" "$(sql "SELECT COUNT(*) FROM crawl_pages WHERE state = 'done'")" "$pages"
check "URLs not done (queued, fetching, failed, skipped)" "$(sql "SELECT COUNT(*) FROM crawl_pages WHERE state <> 'done'")" 0
check "pages recorded exactly once" "$(sql "SELECT COUNT(*) FROM crawl_pages WHERE records = 1")" "$pages"
check "pages recorded more than once" "$(sql "SELECT COUNT(*) FROM crawl_pages WHERE records > 1")" 0
check "page findings written twice" \
  "$(sql "SELECT COUNT(*) FROM (SELECT url, rule_id FROM crawl_issues WHERE kind = 'page' GROUP BY url, rule_id HAVING COUNT(*) > 1)")" 0
[ "$failures" -eq 0 ] || { cat "$work/stderr-2" >&2; exit 1; }
