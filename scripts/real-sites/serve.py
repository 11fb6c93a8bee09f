#!/usr/bin/env python3
"""Serves a generated static site's directory on loopback as GitHub Pages answers it, for the
real-site check (docs/PERFORMANCE.md, "Real sites"; check.sh with GITHUB_PAGES=1).

    python3 scripts/real-sites/serve.py SITE_DIR PORT

Many `gh-pages` branches are written for GitHub Pages, which serves `/docs/intro` from
`docs/intro.html` ("clean URLs"): `python3 -m http.server` answers those links 404, so a
crawl over it finds broken links the published site does not have. This server answers a
path the way `answer(..., github_pages=True)` in walk.py describes (one function, imported
from there, so that the server and the walk cannot drift apart):

- a file of that name: 200 with it;
- else `PATH.html`: 200 with that file (no redirect);
- else a directory: 301 to `PATH/` without the slash, `PATH/index.html` with it, or 404
  (GitHub Pages lists no directory);
- else 404, with the site's `404.html` as the body when it has one.

With GITHUB_PAGES=0 in the environment it answers as python's http.server does instead
(a directory without index.html is a listing), and REDIRECTS=FILE adds the extra redirects
walk.py describes: check.sh serves with it whenever either is asked for.
"""

import html
import http.server
import mimetypes
import os
import sys
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import walk  # noqa: E402
from walk import answer  # noqa: E402


class Handler(http.server.BaseHTTPRequestHandler):
    root = "."
    github_pages = True

    def log_message(self, *args):
        pass

    def do_HEAD(self):
        self.respond(head=True)

    def do_GET(self):
        self.respond(head=False)

    def respond(self, head):
        path = self.path.split("?", 1)[0].split("#", 1)[0]
        code, local, location = answer(self.root, path, github_pages=self.github_pages)
        if code == 301:
            self.send_response(301)
            self.send_header("Location", location)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if code == 404:
            body, kind = b"<!doctype html><title>404</title><h1>Not found</h1>", "text/html"
            page = os.path.join(self.root, "404.html")
            if os.path.isfile(page):
                with open(page, "rb") as f:
                    body = f.read()
        elif os.path.isdir(local):
            # A listing, as python's http.server writes one (and walk.py reads it).
            body, kind = walk.listing(local, path).encode("utf-8", "surrogateescape"), "text/html"
        else:
            with open(local, "rb") as f:
                body = f.read()
            kind = mimetypes.guess_type(local)[0] or "application/octet-stream"
        if kind.startswith("text/") or kind in ("application/javascript", "application/xml"):
            kind += "; charset=utf-8"
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not head:
            self.wfile.write(body)


def main():
    root, port = sys.argv[1], int(sys.argv[2])
    Handler.root = root
    Handler.github_pages = os.environ.get("GITHUB_PAGES", "1") == "1"
    walk.EXTRA_REDIRECTS = walk.load_redirects()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    server.serve_forever()


if __name__ == "__main__":
    main()
