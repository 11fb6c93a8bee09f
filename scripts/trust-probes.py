#!/usr/bin/env python3
"""Probes of the HIGH findings of issue 30 against a release build: CPU, RSS, database size
and /api/status latency while each runs. A script for the lead's measurements, not a test
(it takes minutes and its figures depend on the machine).

Usage: scripts/trust-probes.py [--binary target/release/seo-audit] [--out trust-probes.md]
                                [--only content-gap,report,h2c,burst,crawls,sitemap-crawl,big-audit]
                                [--h2c-shape 10x200]

It starts the binary on a loopback port with a fresh data directory (SQLite), serves its
hostile sites from loopback HTTP servers of its own, and runs, one after the other:

- content-gap: two requests at once whose body holds 20,000 headings, then two whose page
  has 20,000 headings (docs/SECURITY.md, "Work that grows with its input");
- report: an anonymous audit (`GET /report?url=`) of a page of 20,000 URL-bearing headings
  on `localhost` (a domain: an address such as 127.0.0.1 has no public report page, its
  report is the answer itself), then ten rounds of two views at once, from two other
  addresses, of the public report page `/report/localhost?audit=ID` the audit redirected
  to; the views are measured apart from the audit;
- h2c: 10 HTTP/2 connections (cleartext, prior knowledge) from one address, each sending
  the HEADERS of 200 POSTs of a 1 MB body at once (before the server's SETTINGS are read,
  so its stream limit is ignored as a hostile client would), then every body as fast as
  the flow-control windows let it, stalling one byte short of its end. The client is
  Python's `h2` package (`pip install h2`) in a process of its own; it records what each
  stream got: an HTTP status, or the code of the RST_STREAM or GOAWAY that ended it
  (curl 7.88 reports an answer given before its upload ended, followed by a reset, as
  `000`, which hid every status). The server's RSS growth is reported against the bound of
  docs/SECURITY.md, "Request bodies" (64 MB);
- burst: the first h2c probe's client, kept: 10 curl processes of 200 POSTs of 1 MiB at
  20 KB/s with `--parallel-immediate`, which opens one connection per transfer; this burst
  of 2,000 connections from one address, not the bodies, filled the kernel's listen queue
  (1,024 until the server asked for 4,096) and held another client's /api/status for a SYN
  retransmission (docs/SECURITY.md, "Connection bounds"). Needs curl with HTTP/2;
- crawls: 40 anonymous crawls from four loopback addresses (127.0.0.2 to .5, ten each: each
  address's minute of quota) of a site where every page links to five new ones (each
  crawl fetches its 30 pages, answered after 30 ms each), until every one has ended; their
  end states, how many ran at once in all and per address (from their `started_at` and
  `finished_at`, and from polls), their queue waits and run times, and the identities the
  service logged for the 40 starts;
- sitemap-crawl: one anonymous crawl (30 pages) of a site whose sitemap index lists
  100,000 URLs (two sitemaps of 50,000): the database's growth, and the rows it added with
  the bytes of their values (the data stored, whatever the file's free pages and log do);
- big-audit: one anonymous audit of a page of 100,000 (short) headings: the same.

While each probe runs, /api/status is asked every 50 ms from 127.0.0.9 on a new connection
each time (the slowest answer, with its connect time apart and when it came, and the 99th
percentile are reported), and the server process is sampled every 100 ms from /proc: CPU
seconds used, RSS before, at its peak and after (and VmHWM), the transparent huge pages
and threads at their peak, the SQLite file and its write-ahead log; the kernel's
listen-queue overflows (/proc/net/netstat) and the load average are read before and
after. The report is written as Markdown to --out (and printed), the figures of every probe
as JSON below its table.

Needs Linux (/proc, the 127.0.0.0/8 loopback addresses), Python 3.11+ and, for the h2c
probe, the `h2` package.
"""

import argparse
import asyncio
import collections
import concurrent.futures
import datetime
import http.client
import http.server
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEADINGS = 20_000
BIG_HEADINGS = 100_000
SITEMAP_URLS = 100_000
SITEMAP_FILE_URLS = 50_000
CLK_TCK = os.sysconf("SC_CLK_TCK")
# The bound docs/SECURITY.md gives for 10 h2c connections of 200 streams ("Request bodies").
H2C_BOUND_MB = 64
# The server's body timeout (`body_timeout_ms`, 30 s) and some margin: every stalled stream
# has had its answer by then.
H2C_SECONDS = 40
H2C_BODY_BYTES = 1_048_000
# Connections and streams per connection of the h2c probe (--h2c-shape).
H2C_SHAPE = (10, 200)
# Rounds of two views at once of the report page.
REPORT_ROUNDS = 10


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---------------------------------------------------------------------------------------
# The hostile sites.

def headings_page(n: int) -> bytes:
    """A page of `n` h2 headings, each holding a URL with a query string of its own."""
    rows = "".join(
        f"<h2><a href='/doc/{i}?session=s{i}&q={i}'>Section {i} http://127.0.0.1/x?{i}=y{i}</a></h2><p>Text {i}.</p>"
        for i in range(n)
    )
    return f"<html lang=en><head><title>Headings</title></head><body><h1>Many sections</h1>{rows}</body></html>".encode()


def short_headings_page(n: int) -> bytes:
    """A page of `n` short h2 headings: 100,000 of them stay under the 5 MiB a fetched page
    may have."""
    rows = "".join(f"<h2>Section {i}</h2>" for i in range(n))
    return f"<html lang=en><head><title>Headings</title></head><body><h1>Many sections</h1>{rows}</body></html>".encode()


def sitemap_index(host: str) -> bytes:
    files = SITEMAP_URLS // SITEMAP_FILE_URLS
    entries = "".join(f"<sitemap><loc>http://{host}/sitemap-{k}.xml</loc></sitemap>" for k in range(1, files + 1))
    return f'<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{entries}</sitemapindex>'.encode()


def sitemap_file(host: str, k: int) -> bytes:
    urls = "".join(f"<url><loc>http://{host}/listed/{k}/{i}</loc></url>" for i in range(SITEMAP_FILE_URLS))
    return f'<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{urls}</urlset>'.encode()


class Site(http.server.BaseHTTPRequestHandler):
    """The probes' site. Every page other than the fixed ones is a node of an endless tree:
    `/pN` (the home page is node 0) links to `/p(5N+1)` to `/p(5N+5)`, so a crawl always
    finds more pages than its 30, and each is answered after 30 ms."""

    sitemaps = False
    pages: dict = {}
    lock = threading.Lock()

    def log_message(self, *args):
        pass

    @classmethod
    def page(cls, key, build):
        with cls.lock:
            if key not in cls.pages:
                cls.pages[key] = build()
            return cls.pages[key]

    def do_GET(self):
        path = urllib.parse.urlsplit(self.path).path
        host = self.headers.get("host", "127.0.0.1")
        content_type = "text/html; charset=utf-8"
        if path == "/robots.txt" or (path.startswith("/sitemap") and not self.sitemaps):
            body, status = b"", 404
        elif path == "/sitemap.xml":
            body, status, content_type = self.page(("index", host), lambda: sitemap_index(host)), 200, "application/xml"
        elif path.startswith("/sitemap-"):
            k = int(path.removeprefix("/sitemap-").removesuffix(".xml") or 0)
            body, status, content_type = self.page(("sitemap", host, k), lambda: sitemap_file(host, k)), 200, "application/xml"
        elif path.startswith("/headings"):
            body, status = self.page("headings", lambda: headings_page(HEADINGS)), 200
        elif path.startswith("/many-headings"):
            body, status = self.page("many-headings", lambda: short_headings_page(BIG_HEADINGS)), 200
        else:
            time.sleep(0.03)
            node = int(path[2:]) if path.startswith("/p") and path[2:].isdigit() else 0
            links = "".join(f"<a href='/p{5 * node + k}'>Page {5 * node + k}</a> " for k in range(1, 6))
            body = (
                f"<html lang=en><head><title>Page {node} of the shop</title>"
                f"<meta name=description content='The page {node} of the shop, for the probes.'></head>"
                f"<body><h1>Shop page {node}</h1><p>Products of page {node}.</p>{links}</body></html>"
            ).encode()
            status = 200
        try:
            self.send_response(status)
            self.send_header("content-type", content_type)
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            # A crawl's edge check or a cancelled fetch may hang up mid-answer.
            pass


class SitemapSite(Site):
    sitemaps = True


def serve_site(handler) -> int:
    port = free_port()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return port


class Sites:
    def __init__(self):
        self.main = serve_site(Site)
        self.sitemap = serve_site(SitemapSite)


# ---------------------------------------------------------------------------------------
# The service and what is measured of it.

class Service:
    def __init__(self, binary: str, data: Path):
        self.port = free_port()
        self.data = data
        cmd = [
            binary, "serve", "--data", str(data), "--listen", f"127.0.0.1:{self.port}",
            # `localhost` too: the report probe audits a domain, which has a public report page.
            "--allow-target", "127.0.0.1", "--allow-target", "localhost",
            # The probes measure the cost of work admitted, not the quota's refusals: the
            # 40 crawls are the load of four addresses' minutes however high the quota.
            "--rate-limit-anonymous", "1000000",
        ]
        self.log_path = data / "service.log"
        self.log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                if self.get("/api/status")[0] == 200:
                    return
            except OSError:
                time.sleep(0.2)
        raise SystemExit(f"the service did not start: see {self.log_path}")

    def request(self, method, path, body=None, headers=None, source=None, timeout=300):
        conn = http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=timeout, source_address=(source, 0) if source else None
        )
        try:
            conn.request(method, path, body=body, headers=headers or {})
            resp = conn.getresponse()
            return resp.status, resp.read(), {k.lower(): v for k, v in resp.getheaders()}
        finally:
            conn.close()

    def get(self, path, source=None):
        return self.request("GET", path, source=source)

    def post_json(self, path, value, source=None):
        body = json.dumps(value).encode()
        return self.request("POST", path, body, {"content-type": "application/json"}, source=source)

    def db_file(self, suffix="") -> Path:
        return self.data / f"seo-audit.db{suffix}"

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
        size = lambda suffix: self.db_file(suffix).stat().st_size if self.db_file(suffix).exists() else 0
        db = size("") + size("-wal") + size("-shm")
        # Transparent huge pages of the process (docs/SECURITY.md, "Request bodies": the
        # binary turns them off; a 2 MiB page made resident for a few bytes shows here).
        huge = 0
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("AnonHugePages:"):
                    huge = int(line.split()[1])
        return {
            "main_mib": size("") / 2**20,
            "cpu_s": cpu,
            "rss_mib": kib("VmRSS") / 1024,
            "hwm_mib": kib("VmHWM") / 1024,
            "huge_mib": huge / 1024,
            "threads": int(status.get("Threads", "0")),
            "db_mib": db / 2**20,
            "wal_mib": size("-wal") / 2**20,
        }

    def rows(self) -> dict:
        """Per table of the SQLite file (read only, beside the running service): its rows and
        the bytes of their values (texts and blobs their length, numbers 8): the data stored,
        whatever the file's free pages and write-ahead log do. A whole scan: for the small
        databases of these probes."""
        size = lambda v: len(v.encode()) if isinstance(v, str) else len(v) if isinstance(v, bytes) else 8
        out = {}
        try:
            db = sqlite3.connect(f"file:{self.db_file()}?mode=ro", uri=True, timeout=30)
            try:
                tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
                for t in tables:
                    rows = data = 0
                    for r in db.execute(f'SELECT * FROM "{t}"'):
                        rows += 1
                        data += sum(size(v) for v in r if v is not None)
                    out[t] = {"rows": rows, "bytes": data}
            finally:
                db.close()
        except sqlite3.Error as e:
            out["error"] = str(e)
        return out

    def log_offset(self) -> int:
        self.log.flush()
        return self.log_path.stat().st_size

    def log_lines(self, since: int) -> list:
        self.log.flush()
        with open(self.log_path, "rb") as f:
            f.seek(since)
            return f.read().decode(errors="replace").splitlines()

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()


def listen_drops() -> dict:
    """The kernel's counts of connections dropped at a full listen queue (all sockets)."""
    with open("/proc/net/netstat") as f:
        lines = f.read().splitlines()
    for names, values in zip(lines[::2], lines[1::2]):
        if names.startswith("TcpExt:"):
            table = dict(zip(names.split()[1:], map(int, values.split()[1:])))
            return {k: table.get(k, 0) for k in ("ListenOverflows", "ListenDrops")}
    return {}


def logged(lines: list, path: str) -> dict:
    """The statuses the service logged for requests to `path`."""
    counts = collections.Counter()
    for line in lines:
        if f" path={path} " in line and " status=" in line:
            counts[line.split(" status=", 1)[1].split()[0]] += 1
    return dict(sorted(counts.items()))


class Watch:
    """/api/status every 50 ms from its own address, and the process every 100 ms, while a
    probe runs."""

    def __init__(self, service: Service):
        self.service, self.stop = service, threading.Event()
        self.probes, self.failures, self.samples = [], 0, []

    def __enter__(self):
        self.before = self.service.sample()
        self.drops_before = listen_drops()
        self.load_before = os.getloadavg()[0]
        self.started = time.monotonic()
        self.threads = [threading.Thread(target=self.status, daemon=True), threading.Thread(target=self.process, daemon=True)]
        for t in self.threads:
            t.start()
        return self

    def status(self):
        while not self.stop.is_set():
            at = time.monotonic()
            connected = at
            conn = http.client.HTTPConnection("127.0.0.1", self.service.port, timeout=60, source_address=("127.0.0.9", 0))
            try:
                conn.connect()
                connected = time.monotonic()
                conn.request("GET", "/api/status")
                resp = conn.getresponse()
                resp.read()
                if resp.status != 200:
                    self.failures += 1
            except OSError:
                self.failures += 1
            finally:
                conn.close()
            done = time.monotonic()
            self.probes.append((done - at, connected - at, at - self.started))
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
        drops = listen_drops()
        probes = sorted(self.probes) or [(0.0, 0.0, 0.0)]
        slowest = probes[-1]
        peak = max([s["rss_mib"] for s in self.samples] + [after["rss_mib"]])
        self.result = {
            "wall_s": round(time.monotonic() - self.started, 2),
            "cpu_s": round(after["cpu_s"] - self.before["cpu_s"], 2),
            "rss_before_mib": round(self.before["rss_mib"], 1),
            "rss_peak_mib": round(peak, 1),
            "rss_growth_mib": round(peak - self.before["rss_mib"], 1),
            "rss_after_mib": round(after["rss_mib"], 1),
            "hwm_mib": round(after["hwm_mib"], 1),
            "huge_pages_peak_mib": round(max([s["huge_mib"] for s in self.samples] + [after["huge_mib"]]), 1),
            "threads_peak": max([s["threads"] for s in self.samples] + [after["threads"]]),
            "db_growth_mib": round(after["db_mib"] - self.before["db_mib"], 2),
            "db_mib": round(after["db_mib"], 2),
            "db_main_growth_mib": round(after["main_mib"] - self.before["main_mib"], 2),
            "wal_mib": round(after["wal_mib"], 2),
            "status_probes": len(self.probes),
            "status_failed": self.failures,
            "status_max_ms": round(slowest[0] * 1000),
            "status_p99_ms": round(probes[min(len(probes) - 1, int(len(probes) * 0.99))][0] * 1000),
            "status_slowest": {
                "connect_ms": round(slowest[1] * 1000),
                "at_s": round(slowest[2], 1),
            },
            "listen_queue_drops": {k: drops.get(k, 0) - self.drops_before.get(k, 0) for k in drops},
            "load": [round(self.load_before, 1), round(os.getloadavg()[0], 1)],
        }
        return False


def figures(result: dict) -> dict:
    keys = ("cpu_s", "wall_s", "rss_growth_mib", "db_growth_mib", "status_max_ms", "status_probes", "load")
    return {k: result[k] for k in keys}


def iso(value):
    return datetime.datetime.fromisoformat(value) if value else None


# ---------------------------------------------------------------------------------------
# The probes.

def content_gap(service: Service, sites: Sites) -> dict:
    page = f"http://127.0.0.1:{sites.main}/headings"
    body_headings = [f"Section {i} about the topic" for i in range(HEADINGS)]
    outcomes = {}
    with Watch(service) as watch:
        for label, value in [
            ("headings in the body", {"url": page, "headings": body_headings}),
            ("headings from the page", {"url": page}),
        ]:
            with concurrent.futures.ThreadPoolExecutor(2) as pool:
                answers = list(pool.map(lambda src: service.post_json("/api/content-gap", value, source=src), ["127.0.0.2", "127.0.0.3"]))
            outcomes[label] = [a[0] for a in answers]
    return {"answers": outcomes, **watch.result}


def report(service: Service, sites: Sites) -> dict:
    page = f"http://localhost:{sites.main}/headings?r=1"
    # The audit first, measured apart: the views are the finding.
    with Watch(service) as audit:
        status, _, headers = service.get("/report?url=" + urllib.parse.quote(page, safe=""), source="127.0.0.4")
    location = headers.get("location")
    if status != 303 or not location:
        return {"answers": {"audit": status}, "note": "no report page to view (the audit did not redirect)", **audit.result}
    views = []
    with Watch(service) as watch:
        # Two views at once, as the finding's; in rounds, so that the CPU of one view is more
        # than the clock ticks /proc counts in.
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            for _ in range(REPORT_ROUNDS):
                views += pool.map(lambda src: service.get(location, source=src), ["127.0.0.5", "127.0.0.6"])
    return {
        "answers": {"audit": status, "views": dict(collections.Counter(v[0] for v in views))},
        "report_page": location,
        "views": len(views),
        "cpu_s_per_view": round(watch.result["cpu_s"] / len(views), 3),
        "page_bytes": sorted({len(v[1]) for v in views}),
        "shows_the_audit": all(b"Many sections" in v[1] for v in views),
        "audit": figures(audit.result),
        **watch.result,
    }


async def h2c_connection(port: int, source: str, streams: int, body_bytes: int, seconds: float, started: float) -> list:
    """One hostile h2c connection; returns each stream's outcome and when it came."""
    import h2.config
    import h2.connection
    import h2.errors
    import h2.events
    import h2.exceptions
    import h2.settings

    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
    conn.initiate_connection()
    # Every HEADERS before the server's SETTINGS are read: until then the client knows no
    # stream limit, and a hostile one sends them all whatever the limit.
    sent, outcome = {}, {}
    for _ in range(streams):
        sid = conn.get_next_available_stream_id()
        conn.send_headers(sid, [
            (":method", "POST"), (":scheme", "http"), (":authority", f"127.0.0.1:{port}"),
            (":path", "/api/content-gap"), ("content-type", "application/json"),
            ("content-length", str(body_bytes)),
        ])
        sent[sid] = 0
    chunk = b" " * 16384
    stall_at = body_bytes - 1
    announced = None

    def pump():
        for sid in sent:
            if sid in outcome:
                continue
            while sent[sid] < stall_at:
                try:
                    n = min(conn.local_flow_control_window(sid), conn.max_outbound_frame_size, stall_at - sent[sid], len(chunk))
                except (h2.exceptions.StreamClosedError, h2.exceptions.ProtocolError):
                    break
                if n <= 0:
                    break
                conn.send_data(sid, chunk[:n])
                sent[sid] += n

    deadline = time.monotonic() + seconds
    end = None
    while len(outcome) < len(sent):
        pump()
        writer.write(conn.data_to_send())
        try:
            await writer.drain()
            data = await asyncio.wait_for(reader.read(1 << 16), max(0.01, deadline - time.monotonic()))
        except (asyncio.TimeoutError, TimeoutError):
            end = f"no answer in {seconds} s"
            break
        except OSError as e:
            end = f"connection error ({e.__class__.__name__})"
            break
        if not data:
            end = "connection closed"
            break
        now = round(time.monotonic() - started, 1)
        for ev in conn.receive_data(data):
            if isinstance(ev, h2.events.ResponseReceived):
                outcome.setdefault(ev.stream_id, (dict(ev.headers).get(":status", "?"), now))
            elif isinstance(ev, h2.events.StreamReset):
                try:
                    code = h2.errors.ErrorCodes(ev.error_code).name
                except ValueError:
                    code = str(ev.error_code)
                outcome.setdefault(ev.stream_id, (f"reset {code}", now))
            elif isinstance(ev, h2.events.DataReceived):
                conn.acknowledge_received_data(ev.flow_controlled_length, ev.stream_id)
            elif isinstance(ev, h2.events.RemoteSettingsChanged):
                setting = ev.changed_settings.get(h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS)
                if setting is not None:
                    announced = setting.new_value
            elif isinstance(ev, h2.events.ConnectionTerminated):
                try:
                    code = h2.errors.ErrorCodes(ev.error_code).name
                except ValueError:
                    code = str(ev.error_code)
                # Streams above the last one the server took were never processed.
                for sid in sent:
                    if ev.last_stream_id is not None and sid > ev.last_stream_id:
                        outcome.setdefault(sid, (f"goaway {code} (not processed)", now))
                end = f"goaway {code}"
        if end:
            break
    writer.close()
    now = round(time.monotonic() - started, 1)
    for sid in sent:
        outcome.setdefault(sid, (end or "no outcome", now))
    return [{"outcome": o, "at_s": at, "sent": sent[sid], "announced_streams": announced} for sid, (o, at) in outcome.items()]


def h2c_client(params: dict) -> dict:
    """The hostile client (run in a process of its own by the h2c probe)."""

    async def run():
        started = time.monotonic()
        return await asyncio.gather(*[
            h2c_connection(params["port"], params["source"], params["streams"], params["body_bytes"], params["seconds"], started)
            for _ in range(params["connections"])
        ])

    connections = asyncio.run(run())
    streams = [s for c in connections for s in c]
    outcomes = collections.Counter(s["outcome"] for s in streams)
    when = collections.defaultdict(list)
    for s in streams:
        when[s["outcome"]].append(s["at_s"])
    return {
        "answers": dict(outcomes.most_common()),
        "answered_at_s": {o: [min(t), max(t)] for o, t in when.items()},
        "body_mib_sent": round(sum(s["sent"] for s in streams) / 2**20, 1),
        "streams_announced": sorted({s["announced_streams"] for s in streams if s["announced_streams"] is not None}),
    }


def h2c(service: Service, sites: Sites) -> dict:
    connections, streams = H2C_SHAPE
    try:
        import h2  # noqa: F401
    except ImportError:
        return {"note": "the h2c probe needs Python's h2 package (pip install h2)"}
    params = {
        "port": service.port, "source": "127.0.0.7", "connections": connections, "streams": streams,
        "body_bytes": H2C_BODY_BYTES, "seconds": H2C_SECONDS,
    }
    since = service.log_offset()
    with Watch(service) as watch:
        client = subprocess.run(
            [sys.executable, __file__, "--h2c-client", json.dumps(params)], capture_output=True, text=True,
        )
    if client.returncode != 0:
        return {"note": f"the h2c client failed: {client.stderr[-2000:]}", **watch.result}
    outcome = json.loads(client.stdout)
    return {
        **outcome,
        "server_logged": logged(service.log_lines(since), "/api/content-gap"),
        "bound_mib": round(H2C_BOUND_MB * 1e6 / 2**20, 1),
        **watch.result,
    }


def burst(service: Service, sites: Sites) -> dict:
    """The first h2c probe's client, kept for what it showed: 10 curl processes of 200
    transfers each with `--parallel-immediate`, which opens one connection per transfer
    (2,000 at once from one address, not 10), each a POST of a 1 MiB body sent at 20 KB/s.
    curl exit codes: 92, an HTTP/2 stream error (the server answered before the upload ended,
    then reset the stream: curl 7.88 prints `000` for it); 55, sending failed, and 56,
    receiving failed (the connection was closed: over the per-IP cap at accept)."""
    if not shutil.which("curl"):
        return {"note": "curl not found"}
    tmp = Path(tempfile.mkdtemp(prefix="burst-"))
    body = tmp / "body.json"
    body.write_bytes(b'{"url": "http://127.0.0.1/", "headings": ["' + b"x" * (1024 * 1024 - 64) + b'"]}')
    url = f"http://127.0.0.1:{service.port}/api/content-gap"
    since = service.log_offset()
    codes = collections.Counter()
    with Watch(service) as watch:
        procs = []
        for c in range(10):
            config = tmp / f"c{c}.conf"
            config.write_text("".join(f'url = "{url}"\noutput = "/dev/null"\n' for _ in range(200)))
            procs.append(subprocess.Popen(
                ["curl", "-s", "--http2-prior-knowledge", "--parallel", "--parallel-max", "200",
                 "--parallel-immediate", "-X", "POST", "-H", "content-type: application/json",
                 "--data-binary", f"@{body}", "--limit-rate", "20k", "--max-time", "40",
                 "-w", "%{http_code} exit %{exitcode}\n", "-K", str(config)],
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            ))
        for p in procs:
            out, _ = p.communicate()
            codes.update(out.decode().splitlines())
    shutil.rmtree(tmp, ignore_errors=True)
    return {
        "answers": dict(codes.most_common()),
        "server_logged": logged(service.log_lines(since), "/api/content-gap"),
        **watch.result,
    }


def poll_crawls(service: Service, ids: dict, source: str, every: float = 0.5) -> tuple:
    """Polls the crawls until every one has ended; returns their last objects and the most
    seen running at once (in all and per starting address)."""
    last, most, most_per = {}, 0, collections.Counter()
    deadline = time.time() + 1800
    while time.time() < deadline:
        running = collections.Counter()
        for cid, origin in ids.items():
            status, body, _ = service.get(f"/api/v1/crawls/{cid}", source=source)
            crawl = json.loads(body).get("crawl", {}) if status == 200 else {"state": f"http {status}"}
            last[cid] = crawl
            if crawl.get("state") == "running":
                running[origin] += 1
        most = max(most, sum(running.values()))
        for origin, n in running.items():
            most_per[origin] = max(most_per[origin], n)
        if not any(c.get("state") in ("queued", "running") for c in last.values()):
            break
        time.sleep(every)
    return last, most, dict(most_per)


def overlap(intervals: list) -> int:
    """The most intervals [start, end] covering one instant."""
    events = sorted([(s, 1) for s, _ in intervals] + [(e, -1) for _, e in intervals], key=lambda e: (e[0], e[1]))
    now = most = 0
    for _, step in events:
        now += step
        most = max(most, now)
    return most


def spread(values: list) -> list:
    values = sorted(values)
    if not values:
        return []
    return [round(values[0], 1), round(values[len(values) // 2], 1), round(values[-1], 1)]


def crawls(service: Service, sites: Sites) -> dict:
    target = {"url": f"http://127.0.0.1:{sites.main}/", "sitemaps": False}
    ids, refused = {}, collections.Counter()
    lock = threading.Lock()

    def start(source):
        for _ in range(10):
            status, body, _ = service.post_json("/api/v1/crawls", target, source=source)
            with lock:
                if status == 202:
                    ids[json.loads(body)["crawl"]["id"]] = source
                else:
                    refused[status] += 1

    since = service.log_offset()
    with Watch(service) as watch:
        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            list(pool.map(start, [f"127.0.0.{n}" for n in range(2, 6)]))
        last, most_polled, most_polled_per = poll_crawls(service, ids, "127.0.0.8")
    states = collections.Counter(c.get("state") for c in last.values())
    spans = collections.defaultdict(list)
    waits, runs, pages = [], [], []
    for cid, crawl in last.items():
        created, started, finished = iso(crawl.get("created_at")), iso(crawl.get("started_at")), iso(crawl.get("finished_at"))
        if started and finished:
            spans[ids[cid]].append((started, finished))
            runs.append((finished - started).total_seconds())
        if created and started:
            waits.append((started - created).total_seconds())
        pages.append(crawl.get("progress", {}).get("pages_done", 0))
    identities = collections.Counter()
    for line in service.log_lines(since):
        if " method=POST path=/api/v1/crawls " in line and " identity=" in line:
            identities[line.split(" identity=", 1)[1].split()[0]] += 1
    return {
        "answers": {"started": len(ids), "refused": dict(refused), "end_states": dict(states)},
        "errors": [c["error"] for c in last.values() if c.get("error")][:5],
        "identities_logged": dict(sorted(identities.items())),
        "max_running": overlap([s for v in spans.values() for s in v]),
        "max_running_per_address": {a: overlap(v) for a, v in sorted(spans.items())},
        "max_running_polled": most_polled,
        "max_running_polled_per_address": dict(sorted(most_polled_per.items())),
        "queue_wait_s_min_median_max": spread(waits),
        "run_s_min_median_max": spread(runs),
        "pages_done_min_median_max": spread(pages),
        **watch.result,
    }


def find_key(value, key):
    """The first value of `key` anywhere in a JSON value."""
    if isinstance(value, dict):
        if key in value:
            return value[key]
        value = list(value.values())
    if isinstance(value, list):
        for item in value:
            found = find_key(item, key)
            if found is not None:
                return found
    return None


def stored(service: Service, before: dict) -> dict:
    """The rows each table gained since `before` (a [`Service.rows`] reading) and the bytes
    of their values, with the total in MiB."""
    after = service.rows()
    added = {}
    for t, r in sorted(after.items()):
        was = before.get(t, {"rows": 0, "bytes": 0})
        if isinstance(r, dict) and r["rows"] != was["rows"]:
            added[t] = {"rows": r["rows"] - was["rows"], "bytes": r["bytes"] - was["bytes"]}
    return {"rows_added": added, "data_added_mib": round(sum(a["bytes"] for a in added.values()) / 2**20, 2)}


def sitemap_crawl(service: Service, sites: Sites) -> dict:
    target = {"url": f"http://127.0.0.1:{sites.sitemap}/"}
    rows = service.rows()
    with Watch(service) as watch:
        status, body, _ = service.post_json("/api/v1/crawls", target, source="127.0.0.10")
        if status != 202:
            return {"answers": {"start": status}, "note": body[:300].decode(errors="replace")}
        cid = json.loads(body)["crawl"]["id"]
        last, _, _ = poll_crawls(service, {cid: "127.0.0.10"}, "127.0.0.10")
    crawl = last[cid]
    return {
        "answers": {"start": status, "state": crawl.get("state"), "pages_done": crawl.get("progress", {}).get("pages_done")},
        "sitemap_urls_served": SITEMAP_URLS,
        "links_not_queued": crawl.get("links_not_queued"),
        **stored(service, rows),
        **watch.result,
    }


def big_audit(service: Service, sites: Sites) -> dict:
    page = f"http://127.0.0.1:{sites.main}/many-headings"
    rows = service.rows()
    with Watch(service) as watch:
        status, body, _ = service.get("/api/v1/audit?url=" + urllib.parse.quote(page, safe=""), source="127.0.0.11")
    facts = {}
    if status == 200:
        result = json.loads(body)
        facts = {"headings_total": find_key(result, "headings_total")}
    return {
        "answers": {"audit": status, **facts},
        "answer_bytes": len(body),
        "headings_served": BIG_HEADINGS,
        **stored(service, rows),
        **watch.result,
    }


PROBES = {
    "content-gap": content_gap,
    "report": report,
    "h2c": h2c,
    "burst": burst,
    "crawls": crawls,
    "sitemap-crawl": sitemap_crawl,
    "big-audit": big_audit,
}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=str(ROOT / "target/release/seo-audit"))
    parser.add_argument("--out", default="trust-probes.md")
    parser.add_argument("--only", default=",".join(PROBES))
    parser.add_argument("--h2c-shape", default="10x200", help="h2c connections x streams per connection (10x200)")
    parser.add_argument("--h2c-client", help=argparse.SUPPRESS)
    args = parser.parse_args()
    global H2C_SHAPE
    H2C_SHAPE = tuple(int(n) for n in args.h2c_shape.split("x", 1))
    if args.h2c_client:
        print(json.dumps(h2c_client(json.loads(args.h2c_client))))
        return
    if not Path(args.binary).is_file():
        raise SystemExit(f"{args.binary}: no such binary (cargo build --release -p seo-audit)")
    unknown = [n for n in args.only.split(",") if n not in PROBES]
    if unknown:
        raise SystemExit(f"unknown probes {unknown}; known: {', '.join(PROBES)}")
    sites = Sites()
    data = Path(tempfile.mkdtemp(prefix="trust-probes-"))
    service = Service(args.binary, data)
    results = {}
    load_start = os.getloadavg()
    try:
        for name in args.only.split(","):
            print(f"{name}...", file=sys.stderr, flush=True)
            results[name] = PROBES[name](service, sites)
    finally:
        service.stop()
    load_end = os.getloadavg()
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    lines = [
        f"# Trust probes ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {args.binary}, script at commit {commit}, {os.cpu_count()} cores)",
        "",
        f"Load average (1, 5, 15 min) at the start: {', '.join(f'{x:.1f}' for x in load_start)}; "
        f"at the end: {', '.join(f'{x:.1f}' for x in load_end)} (other processes share the machine).",
        "",
        "| probe | answers | wall s | CPU s | RSS before / peak / after MiB | DB growth MiB (WAL after; data added) | /api/status max ms (connect) / p99 ms / probes (failed) | load at start / end |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, r in results.items():
        if "wall_s" not in r:
            lines.append(f"| {name} | {r.get('note')} | | | | | | |")
            continue
        lines.append(
            f"| {name} | `{json.dumps(r.get('answers', r.get('note')))}` | {r['wall_s']} | {r['cpu_s']} | "
            f"{r['rss_before_mib']} / {r['rss_peak_mib']} / {r['rss_after_mib']} | {r['db_growth_mib']} ({r['wal_mib']}{'; ' + str(r['data_added_mib']) if 'data_added_mib' in r else ''}) | "
            f"{r['status_max_ms']} ({r['status_slowest']['connect_ms']}) / {r['status_p99_ms']} / {r['status_probes']} ({r['status_failed']}) | "
            f"{r['load'][0]} / {r['load'][1]} |"
        )
    lines += ["", "```json", json.dumps(results, indent=2, default=str), "```", ""]
    Path(args.out).write_text("\n".join(lines))
    print("\n".join(lines))
    shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
