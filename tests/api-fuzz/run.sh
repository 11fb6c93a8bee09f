#!/usr/bin/env bash
# API fuzzing from the server's own OpenAPI document (schemathesis).
#
# Usage: bash tests/api-fuzz/run.sh path/to/seo-audit
# Needs python3 with the `schemathesis` package (see README.md beside this file). Builds
# nothing. Exits non-zero when schemathesis finds a failure.
#
# Everything stays on loopback: the server runs with SEO_AUDIT_OFFLINE=1, so generated
# URLs that name public hosts are refused without a DNS lookup or a connection; only the
# fixture site (and the server itself) on 127.0.0.1 is reachable.
set -euo pipefail

BIN="$(realpath "${1:?usage: run.sh path/to/seo-audit}")"
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
SEED="${FUZZ_SEED:-20261122}"
MAX_EXAMPLES="${FUZZ_MAX_EXAMPLES:-100}"
# Hard bound on each schemathesis pass, in seconds.
TIME_LIMIT="${FUZZ_TIME_LIMIT:-300}"

WORK="$(mktemp -d)"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT

# Waits until the file has a line matching the pattern, prints the first such line.
wait_line() {
  local file=$1 pattern=$2
  for _ in $(seq 1 300); do
    if grep -m1 -E "$pattern" "$file" 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  echo "timed out waiting for /$pattern/ in $file:" >&2
  cat "$file" >&2
  return 1
}

# The fixture site, on loopback.
cp -r "$ROOT/fixtures/sites/server-basic" "$WORK/site"
python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$WORK/site" >"$WORK/site.log" 2>&1 &
PIDS+=($!)
SITE_PORT="$(wait_line "$WORK/site.log" 'port [0-9]+' | sed -E 's/.*port ([0-9]+).*/\1/')"
export FUZZ_FIXTURE_URL="http://127.0.0.1:$SITE_PORT/"

# A stand-in AI search provider, on loopback, so geo-check is configured.
python3 -u "$HERE/fake_provider.py" >"$WORK/provider.log" 2>&1 &
PIDS+=($!)
PROVIDER_PORT="$(wait_line "$WORK/provider.log" 'port [0-9]+' | sed -E 's/.*port ([0-9]+).*/\1/')"
export SEO_AUDIT_GEO_BASE_URL="http://127.0.0.1:$PROVIDER_PORT/v1"
export SEO_AUDIT_GEO_MODEL=fake
export SEO_AUDIT_GEO_API_KEY=fake

# The server: a fresh database, a key with every scope, limits raised so that quota
# refusals (429) do not hide the behaviour under test.
export SEO_AUDIT_DATA="$WORK/data"
export SEO_AUDIT_OFFLINE=1
export SEO_AUDIT_ALLOW_TARGETS=127.0.0.1
export SEO_AUDIT_RATE_LIMIT_ANONYMOUS=1000000
export SEO_AUDIT_RATE_LIMIT_FREE=1000000
export SEO_AUDIT_RATE_LIMIT_PRO=1000000
export SEO_AUDIT_WIDGET_RATE_LIMIT=1000000
export SEO_AUDIT_FETCH_TIMEOUT_MS=5000
export SEO_AUDIT_WEBHOOK_RETRY_BASE_MS=100
export SEO_AUDIT_LOG="${SEO_AUDIT_LOG:-warn}"
mkdir -p "$SEO_AUDIT_DATA"
"$BIN" migrate >/dev/null
KEY="$("$BIN" keys create --name fuzz --tier pro --scopes audit,mcp,webhooks --rate-limit 1000000 2>/dev/null)"

"$BIN" serve --listen 127.0.0.1:0 --allow-target 127.0.0.1 >"$WORK/serve.out" 2>"$WORK/serve.err" &
PIDS+=($!)
ADDR="$(wait_line "$WORK/serve.out" '^listening on http://' | sed -E 's#^listening on http://##')"
echo "server http://$ADDR, fixture site $FUZZ_FIXTURE_URL, seed $SEED"

cd "$WORK"
# Checks: all of them (the default), with positive_data_acceptance limited to the
# operations whose inputs the schemas fully describe; see schemathesis.toml for why.
export SCHEMATHESIS_HOOKS=hooks
export PYTHONPATH="$HERE${PYTHONPATH:+:$PYTHONPATH}"
# The CLI through the same python3 that pip installed it for (its script directory need
# not be on PATH).
ST='import sys; from schemathesis.cli import schemathesis; sys.argv[0] = "schemathesis"; sys.exit(schemathesis())'
# One worker: with two, CPython 3.11 (Debian's) sometimes fails inside schemathesis with
# "SystemError: AST constructor recursion depth mismatch" (its AST recursion guard is shared
# between threads that compile at the same time; fixed in later Pythons), an error of the tool,
# not of the server. One worker costs about as much time: the server is the slower side.
# Two passes: with the key (every scope, most cases), then anonymous (a quarter as many
# cases), since keyed and anonymous callers take different paths (scopes, quotas, 401s).
fuzz() {
  timeout --signal=INT "$TIME_LIMIT" python3 -c "$ST" --config-file "$HERE/schemathesis.toml" \
    run "http://$ADDR/openapi.json" \
    --phases examples,coverage,fuzzing,stateful \
    --seed "$SEED" \
    --workers 1 \
    --request-timeout 30 \
    --generation-database none \
    --suppress-health-check too_slow,filter_too_much \
    --no-color "$@"
}
status=0
echo "== pass 1: with a key (scopes audit,mcp,webhooks)"
fuzz --header "x-api-key: $KEY" --max-examples "$MAX_EXAMPLES" || status=$?
if [ "$status" -eq 0 ]; then
  echo "== pass 2: anonymous"
  fuzz --max-examples "$(( (MAX_EXAMPLES + 3) / 4 ))" || status=$?
fi

if [ "$status" -ne 0 ]; then
  echo "schemathesis failed (exit $status); server log tail:" >&2
  tail -n 40 "$WORK/serve.err" >&2
fi
exit "$status"
