#!/usr/bin/env python3
"""Judges `robots-txt-invalid` on real robots.txt files: serves each file as the robots.txt of
a loopback origin (with a one-line page at `/`), audits that page with
`seo-audit audit http://127.0.0.1:PORT/ --allow-target 127.0.0.1`, and compares the rule's
outcome, its count of problem lines and the line numbers it names with this script's own
reading of the file, written from docs/RULES.md ("What robots-txt-invalid reports") and
sharing no code with the crate.

  robots_lint.py SEO_AUDIT_BINARY DIR_OF_ROBOTS_FILES      # every *.txt file in it
  robots_lint.py SEO_AUDIT_BINARY --cases CASES.jsonl      # the `robots_txt` bodies of a test suite

Prints each file's count on both sides and every disagreement; exits 1 on one.
"""

import base64
import functools
import http.server
import json
import os
import re
import subprocess
import sys
import tempfile
import threading

MAX_BYTES = 500 * 1024
MAX_LINE = 2083 * 8 - 1
NAMED = 10
# Google's reader takes a key by its start, and these spellings with it.
KEYS = [("User-agent", ("user-agent", "useragent", "user agent")),
        ("Allow", ("allow",)),
        ("Disallow", ("disallow", "dissallow", "dissalow", "disalow", "diasllow", "disallaw")),
        ("Sitemap", ("sitemap", "site-map"))]
OTHERS = {"crawl-delay", "clean-param", "host", "request-rate", "visit-time", "content-signal", "agentmap"}
RETIRED = {"noindex", "nofollow", "noarchive"}
SPACE = b" \t\n\x0b\x0c\r"


def lines_of(body):
    """The file's lines as the parser numbers them: BOM skipped, CR, LF and CRLF end a line,
    the body cut at 500 KiB; each line with whether it was cut at the length limit."""
    body = body[:MAX_BYTES]
    if body.startswith(b"\xef\xbb\xbf"):
        body = body[3:]
    parts = re.split(rb"\r\n|\r|\n", body)
    return [(p[:MAX_LINE], len(p) > MAX_LINE) for p in parts]


def canonical_key(key):
    low = key.lower()
    for name, spellings in KEYS:
        if any(low.startswith(s.encode()) for s in spellings):
            return name
    return None


def problems(body):
    found = []
    in_group = False
    for number, (line, cut) in enumerate(lines_of(body), start=1):
        content = line.split(b"\0", 1)[0].split(b"#", 1)[0].strip(SPACE)
        problem = None
        key = value = None
        if cut:
            problem = "cut"
        elif content:
            if b":" in content:
                key, value = content.split(b":", 1)
                key, value = key.strip(SPACE), value.strip(SPACE)
                colon = True
            else:
                runs = content.replace(b"\t", b" ").split()
                key, value = (runs[0], runs[1]) if len(runs) == 2 else (None, None)
                colon = False
            if not key:
                problem = "not key: value"
            elif re.search(rb"[ \t]", key) and key.lower() != b"user agent":
                # `Disallow /a:b`: the colon after the first word is missing, and the first
                # colon of the value was taken for it.
                problem = "colon lost"
            else:
                name = canonical_key(key)
                low = key.decode("utf-8", "replace").lower()
                if name is None:
                    problem = "retired" if low in RETIRED else (None if low in OTHERS else "unknown")
                elif not colon or low != name.lower():
                    problem = "spelling"
                elif name == "User-agent" and not value:
                    problem = "nameless agent"
                elif name in ("Allow", "Disallow") and not in_group:
                    problem = "outside a group"
                elif name in ("Allow", "Disallow") and value and value[:1] not in (b"/", b"*"):
                    problem = "path"
                elif name in ("Allow", "Disallow") and b"$" in value[:-1]:
                    problem = "dollar"
                elif name == "Sitemap" and not re.fullmatch(rb"(?i)https?://[^/?#]+([/?#].*)?", value):
                    problem = "sitemap"
        # The reader's groups: a User-agent line (any spelling Google reads) opens one.
        if key and canonical_key(key) == "User-agent":
            in_group = True
        if problem:
            found.append((number, problem))
    return found


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path == "/robots.txt":
            body, kind = self.server.robots, "text/plain"
        else:
            body, kind = b"<!DOCTYPE html><html lang=en><title>A page</title><p>Text.</p></html>", "text/html"
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def audited(binary, data, body):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.robots = body
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/"
        run = subprocess.run([binary, "audit", url, "--allow-target", "127.0.0.1", "--format", "json",
                              "--data", data], capture_output=True, text=True, timeout=120)
    finally:
        server.shutdown()
    if run.returncode not in (0, 1):
        return None, run.stderr.strip()[:300]
    result = json.loads(run.stdout)
    checks = result.get("checks") or result.get("audit", {}).get("checks") or []
    status = next((c["status"] for c in checks if c["id"] == "robots-txt-invalid"), "missing")
    finding = next((f for f in result.get("recommendations") or []
                    if f.get("id") == "robots-txt-invalid"), None)
    return status, finding


def named_lines(description):
    """The line numbers a finding names ("Line 3 (...)", "Lines 2, 5 (...)"), and its count."""
    count = int(re.match(r"(\d+) lines? of robots\.txt", description).group(1))
    named = []
    for group in re.findall(r"Lines? ([\d, ]+) \(`", description):
        named += [int(n) for n in group.split(", ")]
    return count, sorted(named)


def main():
    binary = sys.argv[1]
    if sys.argv[2] == "--cases":
        bodies = {}
        with open(sys.argv[3], encoding="utf-8") as f:
            for n, line in enumerate(f):
                row = json.loads(line)
                text = row.get("robots_txt")
                body = base64.b64decode(row["robots_txt_base64"]) if text is None else text.encode()
                bodies.setdefault(body, f"case {n + 1} ({row.get('test', '')})")
        items = [(name, body) for body, name in bodies.items()]
    else:
        where = sys.argv[2]
        items = [(name, open(os.path.join(where, name), "rb").read())
                 for name in sorted(os.listdir(where)) if name.endswith(".txt")]
    data = tempfile.mkdtemp()
    disagreements = 0
    failing = 0
    for name, body in items:
        want = problems(body)
        status, finding = audited(binary, data, body)
        if status is None:
            print(f"  not read: {name}: {finding}")
            disagreements += 1
            continue
        expected = "fail" if want else "pass"
        got_count, got_lines = named_lines(finding["description"]) if finding else (0, [])
        want_lines = sorted(n for n, _ in want[:NAMED])
        same = status == expected and got_count == len(want) and got_lines == want_lines
        failing += status == "fail"
        kinds = sorted({k for _, k in want})
        print(f"  {'ok' if same else 'DISAGREE'} {name}: audit {status} {got_count} {got_lines[:NAMED]}, "
              f"script {expected} {len(want)} {want_lines} {kinds}")
        disagreements += not same
    print(f"{len(items)} files, {failing} failing, {disagreements} disagreements")
    sys.exit(1 if disagreements else 0)


if __name__ == "__main__":
    main()
