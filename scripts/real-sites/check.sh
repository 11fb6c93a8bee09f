#!/usr/bin/env bash
# The real-site check (docs/PERFORMANCE.md, "Real sites"): serves a generated static site's
# directory on loopback with python's http.server, crawls it with `seo-audit crawl`, and
# compares the crawl with the independent walk of the same files (walk.py). It fetches
# nothing from elsewhere: bring the site's files first (see the docs).
#
#   [SITE_ORIGIN=https://www.example.org/] [GITHUB_PAGES=1] [REDIRECTS=FILE] scripts/real-sites/check.sh SITE_DIR [SEO_AUDIT_BINARY] [MAX_IN_FLIGHT]
#
# A generated site's sitemap names its public origin, which is not the loopback address it is
# served at here, nor are its absolute canonicals: with SITE_ORIGIN set, the site is served
# from a scratch copy whose XML files (sitemaps), robots.txt and HTML files name the served address instead of
# that origin (nothing else changes).
#
# A site written for GitHub Pages links `/docs/intro` for `docs/intro.html` ("clean URLs"):
# with GITHUB_PAGES=1 it is served by serve.py, which answers as GitHub Pages does, and the
# walk reads it the same way.
#
# REDIRECTS=FILE (a JSON object, {"/old": "/new"}) adds 301 redirects the site's files cannot
# express, for the redirect rules: served by serve.py and read by the walk alike.
set -euo pipefail
site=$1
bin=${2:-target/debug/seo-audit}
in_flight=${3:-4}
here=$(cd "$(dirname "$0")" && pwd)
# PORT chooses the port (a free one by default): a site whose text names its own origin
# (rewritten to the served address with SITE_ORIGIN) reads the same in two runs only on
# the same port.
port=${PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
if [ -n "${SITE_ORIGIN:-}" ]; then
    copy=$(mktemp -d)
    cp -a "$site/." "$copy/"
    find "$copy" \( -name '*.html' -o -name '*.xml' -o -name robots.txt \) -exec sed -i "s#${SITE_ORIGIN%/}/#http://127.0.0.1:$port/#g" {} +
    site=$copy
fi
if [ "${GITHUB_PAGES:-}" = 1 ] || [ -n "${REDIRECTS:-}" ]; then
    GITHUB_PAGES=${GITHUB_PAGES:-0} python3 "$here/serve.py" "$site" "$port" >/dev/null 2>&1 &
else
    python3 -m http.server "$port" --bind 127.0.0.1 --directory "$site" >/dev/null 2>&1 &
fi
server=$!
trap 'kill "$server"; [ -z "${copy:-}" ] || rm -rf "$copy"' EXIT
for _ in $(seq 50); do
    python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/')" 2>/dev/null && break
    sleep 0.1
done
out=$(mktemp)
# The crawl's store is kept beside its report: the walk reads the crawl's signatures from it.
store=$out.db
"$bin" crawl "http://127.0.0.1:$port/" --max-pages 20000 --max-in-flight "$in_flight" --format json \
    --allow-target 127.0.0.1 --store "$store" ${CRAWL_ARGS:-} > "$out" || true
echo "the crawl's report: $out, its store: $store" >&2
python3 "$here/walk.py" "$site" "http://127.0.0.1:$port/" "$out" "$store"
