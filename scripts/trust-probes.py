#!/usr/bin/env python3
"""Probes of the HIGH findings of issue 30 against a release build: CPU, RSS, database size
and /api/status latency while each runs. A script for the lead's measurements, not a test
(it takes minutes and its figures depend on the machine).

Usage: scripts/trust-probes.py [--binary target/release/seo-audit] [--out trust-probes.md]
                                [--only content-gap,report,h2c,crawls]

It starts the binary on a loopback port with a fresh data directory (SQLite), serves its
hostile pages from a loopback HTTP server of its own, and runs, one after the other:

- content-gap: two requests at once whose body holds 20,000 headings, then two whose page
  has 20,000 headings (docs/SECURITY.md, "Work that grows with its input");
- report: an audit of a page of 20,000 URL-bearing headings, then two views at once of its
  report page;
- h2c: 10 HTTP/2 connections (prior knowledge) of 200 streams each, every stream a POST of a
  1 MiB body sent slowly (curl with --limit-rate), the server's RSS watched;
- crawls: 40 anonymous crawls from four loopback addresses (127.0.0.2 to .5, ten each: each
  address's minute of quota), until every one has ended; their end states counted.

While each probe runs, /api/status is asked every 50 ms from 127.0.0.9 (the slowest answer
and the 99th percentile are reported), and the server process is sampled every 100 ms from
/proc: CPU seconds used, RSS now and at its peak (VmHWM), and the SQLite file with its
write-ahead log. The report is written as Markdown to --out (and printed).

Needs Linux (/proc, the 127.0.0.0/8 loopback addresses), Python 3.9+ and curl built with
HTTP/2 (nghttp2).
"""

import argparse
import concurrent.futures
import http.client
import http.server
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEADINGS = 20_000
CLK_TCK = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---------------------------------------------------------------------------------------
# The hostile site.

def headings_page(n: int) -> bytes:
    """A page of `n` h2 headings, each holding a URL with a query string of its own."""
    rows = "".join(
        f"<h2><a href='/doc/{i}?session=s{i}&q={i}'>Section {i} http://127.0.0.1/x?{i}=y{i}</a></h2><p>Text {i}.</p>"
        for i in range(n)
    )
    return f"<html lang=en><head><title>Headings</title></head><body><h1>Many sections</h1>{rows}</body></html>".encode()


class Site(http.server.BaseHTTPRequestHandler):
    headings = headings_page(HEADINGS)

    def log_message(self, *args):
        pass

    def do_GET(self):
        path = urllib.parse.urlsplit(self.path).path
        if path == "/robots.txt" or path.startswith("/sitemap"):
            self.send_response(404)
            self.send_header("content-length", "0")
            self.end_headers()
            return
        if path.startswith("/headings"):
            body = self.headings
        else:
            # The crawls' site: every page links to five others, answered after 30 ms.
            time.sleep(0.03)
            links = "".join(f"<a href='/p{n}'>Page {n}</a>" for n in range(1, 6))
            body = f"<html lang=en><title>The page {path} of the shop</title><h1>Shop</h1>{links}</html>".encode()
        self.send_response(200)
        self.send_header("content-type", "text/html; charset=utf-8")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def serve_site() -> int:
    port = free_port()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Site)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return port


# ---------------------------------------------------------------------------------------
# The service and what is measured of it.

class Service:
    def __init__(self, binary: str, data: Path):
        self.port = free_port()
        self.data = data
        cmd = [
            binary, "serve", "--data", str(data), "--listen", f"127.0.0.1:{self.port}",
            "--allow-target", "127.0.0.1", "--max-connections-per-ip", "0",
            # The probes measure the cost of work admitted, not the quota's refusals: the
            # 40 crawls are the load of four addresses' minutes however high the quota.
            "--rate-limit-anonymous", "1000000",
        ]
        self.log = open(data / "service.log", "wb")
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                if self.get("/api/status")[0] == 200:
                    return
            except OSError:
                time.sleep(0.2)
        raise SystemExit(f"the service did not start: see {data / 'service.log'}")

    def request(self, method, path, body=None, headers=None, source=None, timeout=300):
        conn = http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=timeout, source_address=(source, 0) if source else None
        )
        try:
            conn.request(method, path, body=body, headers=headers or {})
            resp = conn.getresponse()
            return resp.status, resp.read(), dict(resp.getheaders())
        finally:
            conn.close()

    def get(self, path, source=None):
        return self.request("GET", path, source=source)

    def post_json(self, path, value, source=None):
        body = json.dumps(value).encode()
        return self.request("POST", path, body, {"content-type": "application/json"}, source=source)

    def sample(self) -> dict:
        pid = self.proc.pid
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        cpu = (int(fields[11]) + int(fields[12])) / CLK_TCK
        status = {}
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                key, _, value = line.partition(":")
                status[key] = value.strip()
        kib = lambda k: int(status.get(k, "0 kB").split()[0])
        db = sum(
            (self.data / f"seo-audit.db{suffix}").stat().st_size
            for suffix in ("", "-wal", "-shm")
            if (self.data / f"seo-audit.db{suffix}").exists()
        )
        return {"cpu_s": cpu, "rss_mib": kib("VmRSS") / 1024, "hwm_mib": kib("VmHWM") / 1024, "db_mib": db / 2**20}

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()


class Watch:
    """/api/status every 50 ms from its own address, and the process every 100 ms, while a
    probe runs."""

    def __init__(self, service: Service):
        self.service, self.stop = service, threading.Event()
        self.latencies, self.failures, self.samples = [], 0, []

    def __enter__(self):
        self.before = self.service.sample()
        self.started = time.time()
        self.threads = [threading.Thread(target=self.status, daemon=True), threading.Thread(target=self.process, daemon=True)]
        for t in self.threads:
            t.start()
        return self

    def status(self):
        while not self.stop.is_set():
            at = time.time()
            try:
                code = self.service.get("/api/status", source="127.0.0.9")[0]
                if code != 200:
                    self.failures += 1
            except OSError:
                self.failures += 1
            self.latencies.append(time.time() - at)
            self.stop.wait(0.05)

    def process(self):
        while not self.stop.is_set():
            self.samples.append(self.service.sample())
            self.stop.wait(0.1)

    def __exit__(self, *exc):
        self.stop.set()
        for t in self.threads:
            t.join()
        after = self.service.sample()
        lat = sorted(self.latencies) or [0.0]
        self.result = {
            "wall_s": round(time.time() - self.started, 1),
            "cpu_s": round(after["cpu_s"] - self.before["cpu_s"], 1),
            "rss_peak_mib": round(max([s["rss_mib"] for s in self.samples] + [after["rss_mib"]]), 1),
            "rss_after_mib": round(after["rss_mib"], 1),
            "hwm_mib": round(after["hwm_mib"], 1),
            "db_growth_mib": round(after["db_mib"] - self.before["db_mib"], 1),
            "db_mib": round(after["db_mib"], 1),
            "status_probes": len(self.latencies),
            "status_failed": self.failures,
            "status_max_ms": round(lat[-1] * 1000),
            "status_p99_ms": round(lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000),
        }
        return False


# ---------------------------------------------------------------------------------------
# The probes.

def content_gap(service: Service, site: int) -> dict:
    page = f"http://127.0.0.1:{site}/headings"
    body_headings = [f"Section {i} about the topic" for i in range(HEADINGS)]
    outcomes = {}
    for label, value in [
        ("headings in the body", {"url": page, "headings": body_headings}),
        ("headings from the page", {"url": page}),
    ]:
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            answers = list(pool.map(lambda src: service.post_json("/api/content-gap", value, source=src), ["127.0.0.2", "127.0.0.3"]))
        outcomes[label] = [a[0] for a in answers]
    return {"answers": outcomes}


def report(service: Service, site: int) -> dict:
    page = f"http://127.0.0.1:{site}/headings?r=1"
    status, _, headers = service.get("/report?url=" + urllib.parse.quote(page, safe=""), source="127.0.0.4")
    location = headers.get("location") or headers.get("Location")
    if status != 303 or not location:
        return {"answers": {"audit": status}, "note": "no report to view"}
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        views = list(pool.map(lambda src: service.get(location, source=src), ["127.0.0.5", "127.0.0.6"]))
    return {"answers": {"audit": status, "views": [v[0] for v in views]}, "page_bytes": [len(v[1]) for v in views]}


def h2c(service: Service, connections: int = 10, streams: int = 200) -> dict:
    if not shutil.which("curl"):
        return {"note": "curl not found"}
    tmp = Path(tempfile.mkdtemp(prefix="h2c-"))
    body = tmp / "body.json"
    body.write_bytes(b'{"url": "http://127.0.0.1/", "headings": ["' + b"x" * (1024 * 1024 - 64) + b'"]}')
    url = f"http://127.0.0.1:{service.port}/api/content-gap"
    procs = []
    for c in range(connections):
        config = tmp / f"c{c}.conf"
        config.write_text("".join(f'url = "{url}"\noutput = "/dev/null"\n' for _ in range(streams)))
        procs.append(subprocess.Popen(
            ["curl", "-s", "--http2-prior-knowledge", "--parallel", "--parallel-max", str(streams),
             "--parallel-immediate", "-X", "POST", "-H", "content-type: application/json",
             "--data-binary", f"@{body}", "--limit-rate", "20k", "--max-time", "40",
             "-w", "%{http_code}\n", "-K", str(config)],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        ))
    codes = {}
    for p in procs:
        out, _ = p.communicate()
        for code in out.decode().split():
            codes[code] = codes.get(code, 0) + 1
    shutil.rmtree(tmp, ignore_errors=True)
    return {"answers": codes}


def crawls(service: Service, site: int) -> dict:
    target = {"url": f"http://127.0.0.1:{site}/", "sitemaps": False}
    ids, refused = [], {}

    def start(source):
        out = []
        for _ in range(10):
            status, body, _ = service.post_json("/api/v1/crawls", target, source=source)
            if status == 202:
                out.append(json.loads(body)["crawl"]["id"])
            else:
                refused[status] = refused.get(status, 0) + 1
        return out

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        for started in pool.map(start, [f"127.0.0.{n}" for n in range(2, 6)]):
            ids.extend(started)
    states, errors = {}, []
    deadline = time.time() + 1800
    while time.time() < deadline:
        states = {}
        errors = []
        for cid in ids:
            status, body, _ = service.get(f"/api/v1/crawls/{cid}", source="127.0.0.8")
            crawl = json.loads(body).get("crawl", {}) if status == 200 else {}
            state = crawl.get("state", f"http {status}")
            states[state] = states.get(state, 0) + 1
            if crawl.get("error"):
                errors.append(crawl["error"])
        if not any(s in states for s in ("queued", "running")):
            break
        time.sleep(1)
    return {"answers": {"started": len(ids), "refused": refused, "end_states": states}, "errors": errors[:5]}


PROBES = {"content-gap": content_gap, "report": report, "h2c": h2c, "crawls": crawls}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=str(ROOT / "target/release/seo-audit"))
    parser.add_argument("--out", default="trust-probes.md")
    parser.add_argument("--only", default=",".join(PROBES))
    args = parser.parse_args()
    if not Path(args.binary).is_file():
        raise SystemExit(f"{args.binary}: no such binary (cargo build --release -p seo-audit)")
    site = serve_site()
    data = Path(tempfile.mkdtemp(prefix="trust-probes-"))
    service = Service(args.binary, data)
    results = {}
    try:
        for name in args.only.split(","):
            probe = PROBES[name]
            print(f"{name}...", file=sys.stderr, flush=True)
            with Watch(service) as watch:
                outcome = probe(service, site) if name != "h2c" else probe(service)
            results[name] = {**outcome, **watch.result}
    finally:
        service.stop()
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    lines = [
        f"# Trust probes ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {args.binary}, commit {commit}, {os.cpu_count()} cores)",
        "",
        "| probe | answers | wall s | CPU s | RSS peak MiB | RSS after MiB | VmHWM MiB | DB growth MiB | /api/status max ms | p99 ms | probes (failed) |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, r in results.items():
        lines.append(
            f"| {name} | `{json.dumps(r.get('answers', r.get('note')))}` | {r['wall_s']} | {r['cpu_s']} | {r['rss_peak_mib']} | "
            f"{r['rss_after_mib']} | {r['hwm_mib']} | {r['db_growth_mib']} | {r['status_max_ms']} | {r['status_p99_ms']} | "
            f"{r['status_probes']} ({r['status_failed']}) |"
        )
    lines += ["", "```json", json.dumps(results, indent=2), "```", ""]
    Path(args.out).write_text("\n".join(lines))
    print("\n".join(lines))
    shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
