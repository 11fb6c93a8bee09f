#!/usr/bin/env python3
"""Captures every agent tool's answer from a `seo-audit` binary, so two builds can be compared
byte for byte (docs/API.md, "The agent-tool endpoint"): a change that should not change what
agents read is checked by running this against the binary before and after and diffing.

Usage: scripts/capture-tool-answers.py BINARY OUT [--keep]

It starts `BINARY serve` on a free loopback port with a fresh data directory (SQLite), the
loopback address allowed as a target and no other network (`SEO_AUDIT_OFFLINE`), and serves
two fixture sites of the repository from a loopback HTTP server of its own (answers with
fixed headers, no date): fixtures/sites/site-crawl-rest at `/`, fixtures/sites/competitors
under `/competitors/`. Over `POST /api/mcp` it sends `initialize`, `tools/list`, then
`tools/call` of each tool with valid arguments and with invalid ones (each tool at least once
each way; the tools that check many arguments, more), with a key of every scope, a key
without the `audit` scope and no key where the tool decides on them. Crawls and workflow
runs started by a call are waited for (their status polled, the polls not written) before
the next call, so what a later call reads does not depend on timing.

Each answer is written to OUT as a header line (`### N name: what`) and the HTTP status and
body, with the volatile values replaced by placeholders: ports, ids (numbered in order of
first appearance, so equal ids stay equal), timestamps, durations and the share links'
tokens. Two runs of the same binary give the same file; `diff` two files to compare builds.

Needs Python 3.9+ and Linux or macOS; uses the standard library only.
"""

import argparse
import http.client
import http.server
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SITES = ROOT / "fixtures" / "sites"
# Path prefix (of the fixture server) -> fixture directory; the first match wins.
MOUNTS = [("/competitors/", SITES / "competitors"), ("/", SITES / "site-crawl-rest")]
TYPES = {".html": "text/html; charset=utf-8", ".txt": "text/plain; charset=utf-8", ".json": "application/json"}
PROTOCOL = "2025-06-18"
# The base URL the server writes in its links (share links): fixed, so no port shows.
BASE_URL = "http://audit.test"


class FixtureHandler(http.server.BaseHTTPRequestHandler):
    """Serves the fixture files with fixed headers (no Date, no Last-Modified)."""

    protocol_version = "HTTP/1.1"

    def version_string(self):
        return "fixture"

    def date_time_string(self, timestamp=None):
        return "Thu, 01 Jan 2026 00:00:00 GMT"

    def log_message(self, *args):
        pass

    def _file(self):
        path = self.path.split("?", 1)[0]
        for prefix, directory in MOUNTS:
            if path.startswith(prefix):
                rel = path[len(prefix):] or "index.html"
                target = (directory / rel).resolve()
                if directory.resolve() in target.parents and target.is_file():
                    return target
                return None
        return None

    def _answer(self, with_body):
        target = self._file()
        if target is None:
            body, status, ctype = b"<!doctype html><title>Not found</title><p>Not found", 404, TYPES[".html"]
        else:
            body, status, ctype = target.read_bytes(), 200, TYPES.get(target.suffix, "application/octet-stream")
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if with_body:
            self.wfile.write(body)

    def do_GET(self):
        self._answer(True)

    def do_HEAD(self):
        self._answer(False)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Service:
    """The binary under test, serving on loopback with a fresh data directory."""

    def __init__(self, binary, data):
        self.binary, self.data = binary, data
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("SEO_AUDIT_")}
        self.env.update(
            {
                "SEO_AUDIT_ALLOW_TARGETS": "127.0.0.1",
                "SEO_AUDIT_OFFLINE": "1",
                "SEO_AUDIT_BASE_URL": BASE_URL,
                "SEO_AUDIT_BADGE_AUDIT_URL": "",
                "SEO_AUDIT_CRAWL_EXTERNAL_BUDGET": "0",
                "SEO_AUDIT_RATE_LIMITS_ANONYMOUS": "10000",
                "SEO_AUDIT_RATE_LIMITS_FREE": "10000",
                "SEO_AUDIT_RATE_LIMITS_PRO": "10000",
                "SEO_AUDIT_WEBHOOK_RETRY_BASE_MS": "60000",
                "RUST_LOG": "warn",
            }
        )
        self.proc = None
        self.port = None

    def key(self, name, scopes):
        out = subprocess.run(
            [self.binary, "keys", "create", "--data", str(self.data), "--name", name, "--tier", "pro", "--scopes", scopes],
            env=self.env,
            check=True,
            capture_output=True,
            text=True,
        )
        return out.stdout.strip().splitlines()[-1].strip()

    def start(self):
        self.proc = subprocess.Popen(
            [self.binary, "serve", "--data", str(self.data), "--listen", "127.0.0.1:0"],
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        line = self.proc.stdout.readline()
        match = re.search(r"listening on https?://[^:]+:(\d+)", line)
        if not match:
            raise SystemExit(f"the server did not say where it listens: {line!r}")
        self.port = int(match.group(1))

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()

    def post(self, body, key=None, headers=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        sent = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        if headers:
            sent.update(headers)
        if key:
            sent["x-api-key"] = key
        conn.request("POST", "/api/mcp", body=json.dumps(body).encode(), headers=sent)
        resp = conn.getresponse()
        raw = resp.read().decode("utf-8", "replace")
        conn.close()
        return resp.status, raw


class Normaliser:
    """Replaces the values that differ from run to run by placeholders."""

    def __init__(self, ports):
        self.ports = ports
        self.seen = {}

    def _numbered(self, kind):
        def sub(match):
            value = match.group(0)
            if value not in self.seen:
                count = sum(1 for k in self.seen.values() if k.startswith(f"<{kind}-")) + 1
                self.seen[value] = f"<{kind}-{count}>"
            return self.seen[value]

        return sub

    def __call__(self, text):
        for port, name in self.ports:
            text = text.replace(f"127.0.0.1:{port}", f"127.0.0.1:<{name}>")
        # A share link's token: {link}.{expiry}.{signature} after `share=`.
        text = re.sub(r"share=[A-Za-z0-9_.~%-]+", "share=<token>", text)
        text = re.sub(r"\bcr_[A-Za-z0-9]{22}\b", self._numbered("crawl"), text)
        text = re.sub(r"\bsh_[A-Za-z0-9]{22}\b", self._numbered("share"), text)
        text = re.sub(r"\bcs_[0-9a-f]{32}\b", self._numbered("schedule"), text)
        text = re.sub(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", self._numbered("id"), text)
        text = re.sub(
            r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?", "<time>", text
        )
        # A listing's cursor encodes the time and id of its last row.
        text = re.sub(r'(\\?"next_cursor\\?"\s*:\s*\\?")[A-Za-z0-9_=+/-]+', r"\1<cursor>", text)
        # Durations and clock readings, in the JSON and in the JSON text of a tool's content.
        text = re.sub(
            r'(\\?"[A-Za-z_]*(?:_ms|Ms|_secs|duration|Duration|elapsed|Elapsed|latency|uptime_s)\\?"\s*:\s*)-?\d+(\.\d+)?',
            r"\1<n>",
            text,
        )
        return text


def rpc(method, params, ident):
    return {"jsonrpc": "2.0", "id": ident, "method": method, "params": params}


class Capture:
    def __init__(self, service, normalise, out):
        self.service, self.normalise, self.out = service, normalise, out
        self.n = 0
        self.headers = {"MCP-Protocol-Version": PROTOCOL}

    def call(self, name, arguments, what, key=None, record=True):
        self.n += 1
        status, raw = self.service.post(rpc("tools/call", {"name": name, "arguments": arguments}, self.n), key, self.headers)
        if record:
            self.out.write(f"### {self.n} {name}: {what}\n{status} {self.normalise(raw)}\n\n")
        try:
            return json.loads(raw).get("result", {})
        except ValueError:
            return {}

    def raw(self, method, params, what, key=None, headers=None):
        self.n += 1
        status, raw = self.service.post(rpc(method, params, self.n), key, headers if headers is not None else self.headers)
        self.out.write(f"### {self.n} {method}: {what}\n{status} {self.normalise(raw)}\n\n")

    def until(self, name, arguments, key, done, limit_s=120):
        """Polls a status tool (free of quota, not written) until `done` holds of its answer."""
        deadline = time.time() + limit_s
        while time.time() < deadline:
            # Polls have an id of their own, so the numbers of the calls written do not depend
            # on how many polls it took.
            status, raw = self.service.post(rpc("tools/call", {"name": name, "arguments": arguments}, "poll"), key, self.headers)
            result = json.loads(raw).get("result", {})
            if done(result.get("structuredContent") or {}):
                return
            time.sleep(0.2)
        raise SystemExit(f"{name} {arguments} did not settle in {limit_s} s")


def crawl_ended(s):
    return s.get("state") in ("completed", "failed", "cancelled")


def run_settled(s):
    return s.get("state") not in ("queued", "running", None)


def capture(binary, out_path, keep):
    data = Path(tempfile.mkdtemp(prefix="capture-tools-"))
    site = http.server.ThreadingHTTPServer(("127.0.0.1", 0), FixtureHandler)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    site_port = site.server_address[1]
    service = Service(binary, data)
    try:
        full = service.key("capture", "audit,mcp,webhooks")
        mcp_only = service.key("capture-mcp-only", "mcp")
        service.start()
        page = f"http://127.0.0.1:{site_port}/"
        about = f"http://127.0.0.1:{site_port}/about.html"
        rival = f"http://127.0.0.1:{site_port}/competitors/a.html"
        normalise = Normaliser([(site_port, "site"), (service.port, "server")])
        with open(out_path, "w", encoding="utf-8") as out:
            c = Capture(service, normalise, out)
            init = {"protocolVersion": PROTOCOL, "capabilities": {}, "clientInfo": {"name": "capture", "version": "1"}}
            c.raw("initialize", init, "legacy handshake", key=full, headers={})
            c.raw("tools/list", {}, "catalog", key=full)

            c.call("get_site_info", {"url": page}, "valid", full)
            c.call("get_site_info", {"url": "not a url"}, "invalid url", full)
            c.call("get_audit_methodology", {}, "valid", full)
            c.call("get_audit_methodology", {"category": "nope"}, "invalid category", full)
            c.call("get_seo_concept", {"concept": "canonical tag"}, "valid", full)
            c.call("get_seo_concept", {"concept": "   "}, "invalid blank concept", full)
            c.call("seo_audit", {"url": page}, "valid", full)
            c.call("seo_audit", {"url": "ftp://example.com/"}, "invalid scheme", full)
            c.call("get_opportunities", {"url": page}, "valid", full)
            c.call("get_opportunities", {"url": "http://10.0.0.1/"}, "invalid blocked target", full)
            c.call("generate_fixes", {"url": page, "topN": 3}, "valid", full)
            c.call("generate_fixes", {"url": page, "topN": 0}, "invalid topN", full)
            c.call("check_ai_readiness", {"url": page}, "valid", full)
            c.call("check_ai_readiness", {"url": ""}, "invalid empty url", full)
            c.call("scan_ai_visibility", {"url": page}, "valid", full)
            c.call("scan_ai_visibility", {"url": "http://"}, "invalid url", full)
            c.call("analyze_content_gap", {"url": page, "competitors": [rival, rival]}, "valid", full)
            c.call("analyze_content_gap", {"url": page, "title": "Oak", "wordCount": 300, "headings": ["A"]}, "valid overrides", full)
            c.call("analyze_content_gap", {"url": page, "competitors": [rival, "nope"]}, "a competitor skipped", full)
            c.call("analyze_content_gap", {"url": page, "competitors": ["ftp://x/"]}, "invalid competitor", full)
            c.call("analyze_content_gap", {"url": page, "competitors": [rival] * 6}, "invalid six competitors", full)
            issues = [{"id": "title-missing", "context": {"url": page}}, {"title": "No alt text", "description": "Images lack alt"}]
            c.call("auto_fix_batch", {"issues": issues}, "valid", full)
            c.call("auto_fix_batch", {"issues": []}, "invalid empty", full)

            run = c.call("workflow_execute", {"intent": "fix", "url": page, "topN": 2}, "valid fix", full)
            run_id = (run.get("structuredContent") or {}).get("runId", "")
            c.until("workflow_status", {"runId": run_id}, full, run_settled)
            status = c.call("workflow_status", {"runId": run_id}, "valid waiting run", full)
            approvals = (status.get("structuredContent") or {}).get("approvals") or [{}]
            approval_id = approvals[0].get("approvalId", "")
            c.call("workflow_execute", {"intent": "competitor", "url": page}, "invalid competitor without url", full)
            c.call("workflow_execute", {"intent": "audit", "url": page}, "valid audit", full)
            c.call("workflow_status", {"runId": "no-such-run"}, "invalid unknown run", full)
            c.call("approve_fixes", {"runId": run_id, "approvalId": "nope", "decision": "approved"}, "invalid gate", full)
            c.call("approve_fixes", {"runId": run_id, "approvalId": approval_id, "decision": "approved"}, "valid", full)
            c.until("workflow_status", {"runId": run_id}, full, run_settled)
            c.call("workflow_status", {"runId": run_id}, "valid approved run", full)

            c.call("detect_regressions", {"baselineUrl": page, "currentUrl": about}, "valid", full)
            c.call("detect_regressions", {"baselineUrl": page, "currentUrl": "mailto:x@y"}, "invalid current", full)
            c.call("compare_competitors", {"url": page, "competitorUrl": rival}, "valid", full)
            c.call("compare_competitors", {"url": "nope", "competitorUrl": rival}, "invalid url", full)
            c.call("monitor_site", {"url": page}, "valid watch", full)
            c.call("monitor_site", {"url": page, "action": "stop"}, "valid stop", full)
            c.call("monitor_site", {"url": about, "action": "stop"}, "invalid stop of no monitor", full)
            c.call("monitor_site", {"url": page}, "no key", None)
            c.call("track_keywords", {"action": "add", "keyword": "oak tables", "targetUrl": page}, "valid add", full)
            c.call("track_keywords", {"action": "list"}, "valid list", full)
            c.call("track_keywords", {"action": "remove", "keyword": "oak tables"}, "valid remove", full)
            c.call("track_keywords", {"action": "add", "targetUrl": page}, "invalid add without keyword", full)
            new = {"action": "create", "title": "Longer title", "hypothesis": "More clicks", "url": page}
            c.call("run_experiment", new, "valid create", full)
            c.call("run_experiment", {"action": "list"}, "valid list", full)
            c.call("run_experiment", {"action": "create", "title": "x"}, "invalid create", full)

            first = c.call("crawl_site", {"url": page, "max_pages": 10}, "valid", full)
            crawl_a = (first.get("structuredContent") or {}).get("crawl_id", "")
            c.until("crawl_status", {"crawl_id": crawl_a}, full, crawl_ended)
            c.call("crawl_status", {"crawl_id": crawl_a}, "valid ended", full)
            extract = [{"name": "h1", "css": "h1"}]
            second = c.call(
                "crawl_site",
                {"url": page, "max_pages": 5, "include": ["/"], "exclude": ["/late"], "strip_params": ["utm_*"],
                 "external_links": False, "extract": extract, "user_agent": "smartphone", "sitemaps": [page + "sitemap.xml"]},
                "valid with options",
                full,
            )
            crawl_b = (second.get("structuredContent") or {}).get("crawl_id", "")
            c.until("crawl_status", {"crawl_id": crawl_b}, full, crawl_ended)
            c.call("crawl_status", {"crawl_id": crawl_b}, "valid ended", full)
            c.call("crawl_site", {"url": page, "include": ["("]}, "invalid include", full)
            c.call("crawl_site", {"url": page, "exclude": ["a" * 3000]}, "invalid exclude", full)
            c.call("crawl_site", {"url": page, "strip_params": ["a b"]}, "invalid strip_params", full)
            c.call("crawl_site", {"url": page, "sitemaps": ["nope"]}, "invalid sitemap", full)
            c.call("crawl_site", {"url": page, "extract": [{"name": "x", "css": "[["}]}, "invalid extractor", full)
            c.call("crawl_site", {"url": page, "headers": {"Host": "x"}}, "invalid header", full)
            c.call("crawl_site", {"url": page, "cookies": ["novalue"]}, "invalid cookie", full)
            c.call("crawl_site", {"url": page, "render": True, "headers": {"X-Staging": "1"}}, "invalid render with headers", full)
            c.call("crawl_site", {"url": page, "urls": ["not a url"]}, "invalid list", full)
            c.call("crawl_site", {"url": "ftp://example.com/"}, "invalid url", full)
            c.call("crawl_site", {"url": page}, "no key", None)
            c.call("crawl_status", {"crawl_id": "cr_unknown"}, "invalid unknown crawl", full)
            c.call("list_crawls", {}, "valid", full)
            c.call("list_crawls", {"limit": 1}, "valid first page", full)
            c.call("list_crawls", {"cursor": "garbage"}, "invalid cursor", full)
            c.call("compare_crawls", {"crawl_id": crawl_b, "against": crawl_a}, "valid", full)
            c.call("compare_crawls", {"crawl_id": crawl_b, "against": "cr_unknown"}, "invalid against", full)

            crawl = {"url": page, "max_pages": 5}
            made = c.call(
                "schedule_crawl",
                {"action": "create", "crawl": crawl, "frequency": "weekly", "time": "03:30", "weekday": "monday"},
                "valid create",
                full,
            )
            schedule = ((made.get("structuredContent") or {}).get("schedule") or {}).get("id", "")
            c.call("schedule_crawl", {"action": "list"}, "valid list", full)
            c.call("schedule_crawl", {"action": "pause", "schedule_id": schedule}, "valid pause", full)
            c.call("schedule_crawl", {"action": "resume", "schedule_id": schedule}, "valid resume", full)
            c.call("schedule_crawl", {"action": "end", "schedule_id": schedule}, "valid end", full)
            c.call("schedule_crawl", {"action": "pause"}, "invalid without id", full)
            c.call("schedule_crawl", {"action": "create", "frequency": "daily", "time": "03:30"}, "invalid without crawl", full)
            bad = {"action": "create", "crawl": {"url": page, "include": ["("]}, "frequency": "daily", "time": "25:00"}
            c.call("schedule_crawl", bad, "invalid crawl and time", full)
            c.call("schedule_crawl", {"action": "create", "crawl": crawl, "frequency": "daily", "time": "03:30"}, "key without audit scope", mcp_only)
            c.call("schedule_crawl", {"action": "list"}, "no key", None)

            c.call("share_crawl_report", {"crawl_id": crawl_a}, "valid", full)
            c.call("share_crawl_report", {"crawl_id": crawl_a, "expires_in": 3600}, "valid an hour", full)
            c.call("share_crawl_report", {"crawl_id": "cr_unknown"}, "invalid unknown crawl", full)
            c.call("share_crawl_report", {"crawl_id": crawl_a, "expires_in": 10}, "invalid lifetime", full)
    finally:
        service.stop()
        site.shutdown()
        if keep:
            print(f"data kept in {data}", file=sys.stderr)
        else:
            shutil.rmtree(data, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary", help="the seo-audit binary to run")
    parser.add_argument("out", help="the file the normalised answers are written to")
    parser.add_argument("--keep", action="store_true", help="keep the data directory")
    args = parser.parse_args()
    capture(os.path.abspath(args.binary), args.out, args.keep)


if __name__ == "__main__":
    main()
