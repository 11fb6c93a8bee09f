#!/usr/bin/env bash
# The service's crawl at scale on PostgreSQL (docs/PERFORMANCE.md, "A million pages": the
# service's run): starts a throw-away PostgreSQL cluster from Debian's package (initdb in a
# temporary directory, a free port), migrates it, creates a key whose page cap the operator
# raised to PAGES (`keys create --max-pages`), serves the generated loopback site of PAGES
# pages (`crawl_bench serve-generated`), starts `seo-audit serve` on it, asks for a crawl of
# PAGES pages over REST, and prints every EVERY seconds the pages done, the pages per second
# since the line before, the server's RSS and the database's size; at the end the crawl's
# state, wall time and the database's size a page. Only figures: it checks nothing but that
# the crawl completed.
#
#   cargo build --release -p seo-audit --example crawl_bench --bin seo-audit
#   BIN=target/release scripts/pg-scale-run.sh 100000
#
# PAGES defaults to 20,000; BIN (default target/debug) holds the two binaries; EVERY
# (default 60) the seconds between lines. Needs PostgreSQL's server package (initdb,
# pg_ctl), psql, curl and python3.
set -euo pipefail
cd "$(dirname "$0")/.."

pages=${1:-20000}
bin=${BIN:-target/debug}
every=${EVERY:-60}
pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
work=$(mktemp -d)
site=""
service=""
cleanup() {
  [ -n "$service" ] && { kill "$service" 2>/dev/null; wait "$service" 2>/dev/null; } || true
  [ -n "$site" ] && kill "$site" 2>/dev/null || true
  "$pgbin/pg_ctl" -D "$work/pg" -w -m immediate stop >/dev/null 2>&1 || true
  # The server's last processes may still be closing files when pg_ctl returns.
  rm -rf "$work" 2>/dev/null || { sleep 1; rm -rf "$work"; }
}
trap cleanup EXIT

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
runas=()
[ "$(id -u)" = 0 ] && { chown -R nobody "$work" 2>/dev/null; runas=(setpriv --reuid=nobody --regid=nogroup --clear-groups); }
"${runas[@]}" "$pgbin/initdb" -D "$work/pg" -U postgres --auth=trust -E UTF8 >/dev/null
"${runas[@]}" "$pgbin/pg_ctl" -D "$work/pg" -l "$work/pg.log" -w \
  -o "-p $port -k $work -c listen_addresses=127.0.0.1 -c fsync=on" start >/dev/null
psql -h 127.0.0.1 -p "$port" -U postgres -qc "CREATE DATABASE seo_audit" postgres
db="postgres://postgres@127.0.0.1:$port/seo_audit"
"$bin/seo-audit" --database "$db" migrate >/dev/null
key=$("$bin/seo-audit" --database "$db" keys create --name bench --tier pro --max-pages "$pages")

"$bin/examples/crawl_bench" serve-generated "$pages" >"$work/site.out" &
site=$!
SEO_AUDIT_CRAWL_TIME_LIMIT_S=86400 "$bin/seo-audit" --database "$db" serve --listen 127.0.0.1:0 \
  --allow-target 127.0.0.1 >"$work/serve.out" 2>"$work/serve.err" &
service=$!
for _ in $(seq 100); do
  grep -q '^http' "$work/site.out" 2>/dev/null && grep -q '127.0.0.1:' "$work/serve.out" 2>/dev/null && break
  sleep 0.1
done
url=$(awk '/^http/ { print $1; exit }' "$work/site.out")
api=$(grep -o '127.0.0.1:[0-9]*' "$work/serve.out" | head -1)
[ -n "$url" ] && [ -n "$api" ] || { echo "error: the site or the service did not start" >&2; exit 1; }
body=$(printf '{"url": "%s", "max_pages": %d, "sitemaps": false, "external_links": false}' "$url" "$pages")
id=$(curl -sf -X POST "http://$api/api/v1/crawls" -H "x-api-key: $key" -H 'content-type: application/json' \
  -d "$body" | python3 -c 'import json, sys; print(json.load(sys.stdin)["crawl"]["id"])')
echo "site $url ($pages generated pages), service $api on PostgreSQL $port, crawl $id"

crawl() { curl -sf "http://$api/api/v1/crawls/$id" -H "x-api-key: $key"; }
field() { python3 -c "import json, sys; c = json.load(sys.stdin)['crawl']; print($1)"; }
dbsize() { psql -h 127.0.0.1 -p "$port" -U postgres -tAc "SELECT pg_database_size('seo_audit')" postgres; }
started=$(date +%s.%N)
last_pages=0
last_at=$started
printf '%9s %10s %10s %9s %12s\n' seconds pages pages/s rss_mib db_bytes
while :; do
  sleep "$every"
  now=$(date +%s.%N)
  state=$(crawl | field 'c["state"]')
  done_pages=$(crawl | field 'c["progress"]["pages_done"] + c["progress"]["pages_failed"]')
  rss=$(awk '/VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$service/status")
  rate=$(python3 -c "print(f'{($done_pages - $last_pages) / ($now - $last_at):.1f}')")
  printf '%9.0f %10d %10s %9s %12s\n' "$(python3 -c "print($now - $started)")" "$done_pages" "$rate" "$rss" "$(dbsize)"
  last_pages=$done_pages
  last_at=$now
  [ "$state" = running ] || [ "$state" = queued ] || break
done
size=$(dbsize)
echo "crawl $state: $done_pages pages in $(python3 -c "print(f'{$(date +%s.%N) - $started:.1f}')") s;" \
  "database $size bytes ($(python3 -c "print($size // max($done_pages, 1))") a page)"
[ "$state" = completed ]
