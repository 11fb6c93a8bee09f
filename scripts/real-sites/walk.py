#!/usr/bin/env python3
"""The independent walk of the real-site check (docs/PERFORMANCE.md, "Real sites").

Reads a generated static site's files directly, as `python3 -m http.server` would serve
them, and works out what `seo-audit crawl` should find over that server, without any of
the crawler's code: the URLs reached from the start page through <a href> links, their
status (200 for a file, 301 for a directory named without its slash, 404 for the rest),
their click depth, the URLs /sitemap.xml lists (a urlset; a site whose sitemap names its public
origin is served with that origin rewritten, see check.sh), and per rule the URLs affected. Then it compares that with the JSON of
`seo-audit crawl --format json` and prints every disagreement.

    python3 scripts/real-sites/walk.py SITE_DIR BASE_URL CRAWL_JSON

BASE_URL is the URL the directory is served at (http://127.0.0.1:PORT/). It fetches
nothing: it reads SITE_DIR and CRAWL_JSON only. With GITHUB_PAGES=1 in the environment it
walks the site as GitHub Pages serves it (serve.py: `/a/b` from `a/b.html`, no directory
listings) instead of as python's http.server does.
"""

import collections
import html.parser
import xml.etree.ElementTree as ElementTree
import json
import os
import posixpath
import sys
import urllib.parse


class Links(html.parser.HTMLParser):
    """The <a href>, canonical and title of one HTML page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.hrefs, self.canonical, self.title, self._in_title = [], None, None, False
        self.noindex = self.nofollow_page = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "a" and a.get("href") is not None:
            rel = (a.get("rel") or "").lower().split()
            self.hrefs.append((a["href"], not any(r in rel for r in ("nofollow", "ugc", "sponsored"))))
        elif tag == "link" and (a.get("rel") or "").lower() == "canonical" and a.get("href"):
            self.canonical = a["href"]
        elif tag == "meta" and (a.get("name") or "").lower() == "robots":
            content = (a.get("content") or "").lower()
            self.noindex |= "noindex" in content
            self.nofollow_page |= "nofollow" in content
        elif tag == "title" and self.title is None:
            self._in_title, self.title = True, ""

    def handle_endtag(self, tag):
        if tag == "title":
            self._in_title = False

    def handle_data(self, data):
        if self._in_title:
            self.title += data


# Set by main() from the environment: GITHUB_PAGES=1 walks the site as GitHub Pages serves it
# (serve.py), otherwise as python's http.server does.
GITHUB_PAGES = False


def answer(root, path, github_pages=None):
    """(status, file, location) as python's http.server answers `path`, or as GitHub Pages
    does when `github_pages` (default: GITHUB_PAGES): `/a/b` is served from `a/b.html` when
    no file or directory has that name ("clean URLs"), and a directory without index.html
    is a 404, not a listing."""
    github_pages = GITHUB_PAGES if github_pages is None else github_pages
    local = os.path.join(root, urllib.parse.unquote(path).lstrip("/"))
    if github_pages and os.path.isfile(local):
        return 200, local, None
    if github_pages and not path.endswith("/") and os.path.isfile(local + ".html"):
        return 200, local + ".html", None
    if os.path.isdir(local):
        if not path.endswith("/"):
            return 301, None, path + "/"
        index = os.path.join(local, "index.html")
        if github_pages:
            return (200, index, None) if os.path.isfile(index) else (404, None, None)
        # A directory without index.html is a generated listing: an HTML page of its own.
        return 200, index if os.path.isfile(index) else local, None
    if os.path.isfile(local):
        return 200, local, None
    return 404, None, None


def normalise(url):
    p = urllib.parse.urlsplit(url)
    path = posixpath.normpath(p.path) + ("/" if p.path.endswith("/") and p.path != "/" else "") if p.path else "/"
    path = urllib.parse.quote(urllib.parse.unquote(path), safe="/%:@!$&'()*+,;=-._~")
    return urllib.parse.urlunsplit((p.scheme, p.netloc.lower(), path, p.query, ""))


def sitemap_urls(root):
    """The <loc>s of SITE_DIR/sitemap.xml, normalised (None: no sitemap)."""
    path = os.path.join(root, "sitemap.xml")
    if not os.path.isfile(path):
        return None
    tree = ElementTree.parse(path)
    return {normalise(loc.text.strip()) for loc in tree.iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")}


def walk(root, base, sitemap=None):
    """The breadth-first walk from BASE, then from the sitemap's URLs no link reached: those
    and what only they link to have no click depth (None), as in the crawl."""
    host = urllib.parse.urlsplit(base).netloc
    start = normalise(base)
    depth, status, redirect, html_page, info, inlinks = {start: 0}, {}, {}, {}, {}, collections.defaultdict(list)
    # The pages that link to a URL with a link a search engine follows (no rel nofollow, ugc
    # or sponsored on it, no page-wide nofollow): nofollow-only-inlinks.
    followed_inlinks = collections.defaultdict(set)
    queue = collections.deque([start])
    later = sorted(u for u in (sitemap or ()) if urllib.parse.urlsplit(u).netloc == host)
    while queue or later:
        if not queue:
            url = later.pop(0)
            if url not in depth:
                depth[url] = None
                queue.append(url)
            continue
        url = queue.popleft()
        path = urllib.parse.urlsplit(url).path or "/"
        code, local, location = answer(root, path)
        status[url] = code
        if code == 301:
            to = normalise(urllib.parse.urljoin(url, location))
            redirect[url] = to
            if to not in depth:
                depth[to] = depth[url]
                queue.append(to)
            continue
        is_html = code == 200 and (os.path.isdir(local) or local.endswith((".html", ".htm")))
        html_page[url] = is_html
        if not is_html:
            continue
        if os.path.isdir(local):
            names = sorted(os.listdir(local))
            page = Links()
            page.hrefs = [(urllib.parse.quote(n + ("/" if os.path.isdir(os.path.join(local, n)) else "")), True) for n in names]
            page.title = "Directory listing for " + path
        else:
            page = Links()
            with open(local, encoding="utf-8", errors="replace") as f:
                page.feed(f.read())
        info[url] = page
        for href, follow in page.hrefs:
            target = urllib.parse.urljoin(url, href.strip())
            if urllib.parse.urlsplit(target).scheme not in ("http", "https"):
                continue
            target = normalise(target)
            if urllib.parse.urlsplit(target).netloc != host:
                continue
            if target != url and url not in inlinks[target]:
                inlinks[target].append(url)
            if target != url and follow and not page.nofollow_page:
                followed_inlinks[target].add(url)
            if follow and not page.nofollow_page and target not in depth:
                depth[target] = None if depth[url] is None else depth[url] + 1
                queue.append(target)
        if page.canonical:
            target = normalise(urllib.parse.urljoin(url, page.canonical))
            if urllib.parse.urlsplit(target).netloc == host and target not in depth:
                depth[target] = None if depth[url] is None else depth[url] + 1
                queue.append(target)
    return start, depth, status, redirect, html_page, info, inlinks, followed_inlinks


def indexable(url, status, html_page, info):
    page = info.get(url)
    if status.get(url) != 200 or not html_page.get(url) or page is None or page.noindex:
        return False
    canonical = page.canonical and normalise(urllib.parse.urljoin(url, page.canonical))
    return not canonical or canonical == url


def sitemap_findings(root, sitemap, status, html_page, info):
    """not-in-sitemap and sitemap-non-indexable-url: the pages reached that the sitemap
    omits, and the URLs it lists that are not indexable (answered as python's server
    answers them, reached by links or not)."""
    found = collections.defaultdict(set)
    for url in status:
        if indexable(url, status, html_page, info) and url not in sitemap:
            found["not-in-sitemap"].add(url)
    for url in sitemap:
        if url in status:
            ok = indexable(url, status, html_page, info) or (status[url] == 200 and not html_page.get(url))
        else:
            code, local, _ = answer(root, urllib.parse.urlsplit(url).path or "/")
            page = Links()
            if code == 200 and local.endswith((".html", ".htm")):
                with open(local, encoding="utf-8", errors="replace") as f:
                    page.feed(f.read())
            canonical = page.canonical and normalise(urllib.parse.urljoin(url, page.canonical))
            ok = code == 200 and not page.noindex and (not canonical or canonical == url)
        if not ok:
            found["sitemap-non-indexable-url"].add(url)
    return found


def expected_findings(depth, status, redirect, html_page, info, inlinks, followed_inlinks):
    """What each rule this walk can judge should find: rule id -> set of affected URLs."""
    found = collections.defaultdict(set)

    def final(url, seen=()):
        if url in redirect and url not in seen and redirect[url] in status:
            return final(redirect[url], seen + (url,))
        return url

    for target, froms in inlinks.items():
        if target not in status or not froms:
            continue
        if status[target] >= 400 or status.get(final(target), 200) >= 400:
            found["broken-internal-link"].add(target)
        if 300 <= status[target] < 400:
            found["internal-redirect"].add(target)
    for url, d in depth.items():
        if status.get(url) == 200 and html_page.get(url) and d is not None and d > 3:
            found["deep-page"].add(url)
    for target, froms in inlinks.items():
        if froms and depth.get(target) != 0 and not followed_inlinks.get(target) \
                and indexable(target, status, html_page, info):
            found["nofollow-only-inlinks"].add(target)
    titles = collections.defaultdict(list)
    for url, page in info.items():
        if status.get(url) == 200 and not page.noindex and page.title and page.title.strip():
            canonical = page.canonical and normalise(urllib.parse.urljoin(url, page.canonical))
            if not canonical or canonical == url:
                titles[" ".join(page.title.split())].append(url)
    for urls in titles.values():
        if len(urls) > 1:
            found["duplicate-title"].update(urls)
    for url, page in info.items():
        if page.canonical:
            target = normalise(urllib.parse.urljoin(url, page.canonical))
            if target in status and status[target] != 200:
                found["canonical-to-bad-url"].add(url)
    return found


def main():
    global GITHUB_PAGES
    GITHUB_PAGES = os.environ.get("GITHUB_PAGES") == "1"
    root, base, report = sys.argv[1], sys.argv[2], sys.argv[3]
    sitemap = sitemap_urls(root)
    start, depth, status, redirect, html_page, info, inlinks, followed_inlinks = walk(root, base, sitemap)
    with open(report, encoding="utf-8") as f:
        crawl = json.load(f)["crawl"]
    pages = {p["url"]: p for p in crawl["pages"]}
    disagreements = []
    for url in sorted(set(status) | set(pages)):
        p = pages.get(url)
        if p is None:
            disagreements.append(f"walk reached {url} (HTTP {status[url]}), the crawl did not")
        elif url not in status:
            disagreements.append(f"the crawl reached {url} (HTTP {p.get('status_code')}), the walk did not")
        elif p.get("status_code") != status[url]:
            disagreements.append(f"{url}: walk HTTP {status[url]}, crawl HTTP {p.get('status_code')}")
        elif p.get("depth") != depth.get(url):
            disagreements.append(f"{url}: walk depth {depth.get(url)}, crawl depth {p.get('depth')}")
    expected = expected_findings(depth, status, redirect, html_page, info, inlinks, followed_inlinks)
    judged_rules = {"broken-internal-link", "internal-redirect", "deep-page", "duplicate-title", "canonical-to-bad-url",
                   "nofollow-only-inlinks"}
    if sitemap is not None:
        expected.update(sitemap_findings(root, sitemap, status, html_page, info))
        judged_rules |= {"not-in-sitemap", "sitemap-non-indexable-url"}
    got = collections.defaultdict(set)
    for issue in crawl["issues"]:
        if issue["kind"] == "site":
            got[issue["id"]].update(u["url"] for u in issue["urls"])
    judged = sorted(set(expected) | judged_rules)
    print(f"site {root}: {len(status)} URLs walked ({sum(1 for u in status if html_page.get(u))} HTML pages), "
          f"{len(pages)} crawled" + ("" if sitemap is None else f", {len(sitemap)} in /sitemap.xml"))
    for rule in sorted(set(judged) | set(got)):
        e, g = expected.get(rule, set()), got.get(rule, set())
        mark = "" if rule in judged else "  (not judged by the walk)"
        print(f"  {rule}: crawl {len(g)} URLs, walk {len(e) if rule in judged else '-'}{mark}")
        if rule in judged:
            disagreements += [f"{rule}: walk finds {u}, the crawl does not" for u in sorted(e - g)]
            disagreements += [f"{rule}: the crawl finds {u}, the walk does not" for u in sorted(g - e)]
    print(f"  disagreements: {len(disagreements)}")
    for d in disagreements:
        print("   ", d)
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
