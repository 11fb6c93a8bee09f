#!/usr/bin/env bash
# The command line's crawl against the engine, as docs/PERFORMANCE.md ("Site crawl") measures
# it: serves a loopback site of PAGES pages of the 86 KB load page (`crawl_bench serve`, in
# its own process), measures the engine on both cores for 3 s (`load engine`), crawls the
# site with `seo-audit crawl` over its temporary store as users run it (external checks off),
# measures the engine again, and prints the crawl's pages per second (the report's
# `progress.pages_per_second`) against the mean of the two engine figures, with the whole
# command's wall time, CPU and peak RSS, and the CPU the site server took meanwhile. Only
# figures: it checks nothing but that the crawl ran.
#
#   cargo build --release -p seo-audit --example crawl_bench --bin seo-audit
#   cargo build --release -p server --example load
#   BIN=target/release scripts/crawl-ratio.sh 2000
#
# PAGES defaults to 2,000; BIN (default target/release) holds seo-audit and crawl_bench, and
# `load` under examples/ (or beside them); IN_FLIGHT (default 16) is --max-in-flight; RUNS
# (default 1) how many times to measure. Needs python3.
set -euo pipefail
cd "$(dirname "$0")/.."

pages=${1:-2000}
bin=${BIN:-target/release}
in_flight=${IN_FLIGHT:-16}
runs=${RUNS:-1}
page=fixtures/sites/load/article.html
crawl_bench=$bin/crawl_bench
[ -x "$crawl_bench" ] || crawl_bench=$bin/examples/crawl_bench
load=$bin/load
[ -x "$load" ] || load=$bin/examples/load
work=$(mktemp -d)
server=""
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

"$crawl_bench" serve "$pages" >"$work/serve.txt" 2>&1 &
server=$!
url=""
for _ in $(seq 100); do
  url=$(grep -o 'http://[0-9.:]*/' "$work/serve.txt" | head -1 || true)
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { echo "the site did not start" >&2; exit 1; }

server_ticks() {
  # Fields 14 and 15 of /proc/PID/stat; the command name (field 2) has no space here.
  awk '{print $14 + $15}' "/proc/$server/stat"
}

engine() {
  # The last line is the engine on every core.
  "$load" engine "$page" 3 | awk '$2 ~ /^threads=/ {v=$4} END {print v}'
}

for run in $(seq "$runs"); do
  before=$(engine)
  # The site server's CPU over the crawl (user and system ticks of its process, from /proc):
  # it shares the two cores with the crawl, so the report says how much it took.
  ticks0=$(server_ticks)
  /usr/bin/time -f "%e %U %S %M" -o "$work/time.txt" "$bin/seo-audit" crawl "$url" --max-pages "$pages" \
    --max-in-flight "$in_flight" --no-external --format json --allow-target 127.0.0.1 >"$work/report.json"
  ticks1=$(server_ticks)
  after=$(engine)
  python3 - "$work/report.json" "$work/time.txt" "$before" "$after" "$run" "$ticks0" "$ticks1" "$(getconf CLK_TCK)" <<'PY'
import json, sys
report, times, before, after, run, ticks0, ticks1, hz = sys.argv[1:]
progress = json.load(open(report))["crawl"]["progress"]
wall, user, system, rss = open(times).read().split()
pps = progress["pages_per_second"]
engine = (float(before) + float(after)) / 2
print(f"run {run}: {progress['pages_done']} pages, crawl {pps:.1f} pages/s, engine {before} / {after} audits/s, "
      f"crawl / engine {pps / engine:.3f}; whole command {wall} s wall, {float(user) + float(system):.2f} s CPU, "
      f"peak RSS {int(rss) / 1024:.1f} MiB; the site server {(int(ticks1) - int(ticks0)) / int(hz):.2f} s CPU")
PY
done
