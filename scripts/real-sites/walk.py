#!/usr/bin/env python3
"""The independent walk of the real-site check (docs/PERFORMANCE.md, "Real sites").

Reads a generated static site's files directly, as `python3 -m http.server` would serve
them, and works out what `seo-audit crawl` should find over that server, without any of
the crawler's code: the URLs reached from the start page through <a href> links, their
status (200 for a file, 301 for a directory named without its slash, 404 for the rest),
their click depth, the URLs /sitemap.xml lists (a urlset; a site whose sitemap names its public
origin is served with that origin rewritten, see check.sh), and per rule the URLs affected. Then it compares that with the JSON of
`seo-audit crawl --format json` and prints every disagreement.

Besides the links, it reads of each HTML page (as docs/RULES.md, "Site rules", says the crawl
does) the head's first canonical, its hreflang alternates and its rel=next/prev, all resolved
against the page's <base href>, and fetches those targets too (one click deeper, no inlinks);
and its title, the head's first meta description and the first <h1>, for the duplicate rules.
The rules it judges are JUDGED (and JUDGED_WITH_SITEMAP when the site has /sitemap.xml); each
is worked out from the rule's documented meaning, in expected_findings and sitemap_findings.

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
import re
import sys
import urllib.parse


# The elements the parser keeps in <head>: any other start tag (or text that is not white
# space) outside them opens the body, and what comes after is no longer the head's.
HEAD_ELEMENTS = {"html", "head", "meta", "link", "title", "script", "style", "base", "noscript", "template",
                 "basefont", "bgsound"}
# The most bytes of a title, meta description or first <h1> a crawl record compares
# (docs/RULES.md: the duplicate rules compare what the record keeps).
TEXT_BYTES = 1024


def collapse(text):
    """ASCII white space runs to one space, trimmed (what `document.title` does)."""
    return " ".join(w for w in re.split(r"[ \t\n\f\r]+", text) if w)


def cut(text, limit=TEXT_BYTES):
    """The first `limit` bytes of `text` in UTF-8, cut at a character boundary."""
    data = text.encode("utf-8", "surrogatepass")
    return text if len(data) <= limit else data[:limit].decode("utf-8", "ignore")


class Links(html.parser.HTMLParser):
    """What the walk reads of one HTML page: its <a href> links, and in its head its first
    canonical, hreflang alternates, pagination links and meta description, plus its title, its
    first <h1>, its robots directives and its <base href>."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.hrefs, self.canonical, self.title, self._in_title = [], None, None, False
        self.noindex = self.nofollow_page = False
        self.meta_description = None
        self.h1 = None
        self.hreflang = []
        self.base = self.next = self.prev = None
        self._h1 = 0  # 0: no <h1> yet, 1: in the first one, 2: past it
        self._body = False
        self._svg = self._noscript = 0
        self._cdata = None

    def _in_head(self):
        return not self._body and not self._noscript

    def handle_starttag(self, tag, attrs):
        a = {}
        for k, v in attrs:
            a.setdefault(k, v)
        if not self._body and not self._noscript and tag not in HEAD_ELEMENTS:
            self._body = True
        if tag == "body":
            self._body = True
        if tag == "svg":
            self._svg += 1
        elif tag == "noscript":
            self._noscript += 1
        elif tag in ("script", "style"):
            self._cdata = tag
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6") and self._h1 == 1:
            self._h1 = 2
        if self._svg:
            return  # SVG content: neither its <a> nor its <title> are HTML's
        if tag == "a" and a.get("href") is not None:
            rel = (a.get("rel") or "").lower().split()
            self.hrefs.append((a["href"], not any(r in rel for r in ("nofollow", "ugc", "sponsored"))))
        elif tag == "link" and self._in_head():
            rel = (a.get("rel") or "").lower().split()
            href = a.get("href")
            if "canonical" in rel and href is not None and self.canonical is None:
                self.canonical = href
            if "next" in rel and self.next is None:
                self.next = href
            if ("prev" in rel or "previous" in rel) and self.prev is None:
                self.prev = href
            if "alternate" in rel and a.get("hreflang") is not None and href is not None:
                self.hreflang.append((a["hreflang"].strip().lower(), href))
        elif tag == "meta":
            name = (a.get("name") or "").strip().lower()
            content = a.get("content")
            if name == "description" and self._in_head() and self.meta_description is None:
                self.meta_description = content or ""
            if name in ("robots", "googlebot") and content is not None:
                directives = {d.strip().lower() for d in content.split(",")}
                self.noindex |= bool(directives & {"noindex", "none"})
                self.nofollow_page |= bool(directives & {"nofollow", "none"})
        elif tag == "base" and self.base is None and a.get("href") is not None:
            self.base = a["href"]
        elif tag == "title" and self.title is None:
            self._in_title, self.title = True, ""
        elif tag == "h1" and self._h1 == 0:
            self._h1, self.h1 = 1, ""

    def handle_endtag(self, tag):
        if tag == "title":
            self._in_title = False
        elif tag == "svg" and self._svg:
            self._svg -= 1
        elif tag == "noscript" and self._noscript:
            self._noscript -= 1
        elif tag == self._cdata:
            self._cdata = None
        elif tag in ("h1", "h2", "h3", "h4", "h5", "h6") and self._h1 == 1:
            self._h1 = 2

    def handle_data(self, data):
        if self._in_title:
            self.title += data
        if self._h1 == 1:
            self.h1 += data
        if not self._body and not self._noscript and not self._in_title and not self._cdata \
                and re.sub(r"[ \t\n\f\r]", "", data):
            self._body = True


def read_page(url, local):
    """The parsed page of `url` from its file, with its references resolved against its base:
    `canonical_url` (normalised, or None), `alternates` [(language, normalised URL)],
    `pagination` (the normalised next and prev on any site), and the keys the duplicate
    rules compare (`title_key`, `description_key`, `h1_key`, None when empty)."""
    page = Links()
    with open(local, encoding="utf-8", errors="replace") as f:
        page.feed(f.read())
    resolve_page(url, page)
    return page


def resolve_page(url, page):
    base = url
    if page.base is not None:
        try:
            base = urllib.parse.urljoin(url, page.base.strip())
        except ValueError:
            pass
    page.base_url = base

    def resolve(ref):
        if ref is None:
            return None
        try:
            target = urllib.parse.urljoin(base, ref.strip())
            if urllib.parse.urlsplit(target).scheme not in ("http", "https"):
                return None
            return normalise(target)
        except ValueError:
            return None

    page.canonical_url = resolve(page.canonical)
    page.alternates = [(lang, u) for lang, u in ((lang, resolve(h)) for lang, h in page.hreflang) if u]
    page.pagination = [u for u in (resolve(page.next), resolve(page.prev)) if u]
    title = page.title and cut(collapse(page.title))
    page.title_key = title or None
    description = page.meta_description and cut(collapse(page.meta_description))
    page.description_key = description or None
    h1 = page.h1 and cut(collapse(" ".join(page.h1.split())))
    page.h1_key = h1 or None


# Set by main() from the environment: GITHUB_PAGES=1 walks the site as GitHub Pages serves it
# (serve.py), otherwise as python's http.server does.
GITHUB_PAGES = False


# Set by main() and serve.py from the environment: REDIRECTS=FILE names a JSON object of
# extra 301 redirects ({"/old": "/new"}, paths as requested) that answer() gives before
# anything else, as if the site's server had them: static servers only redirect a directory
# to its slash, and the redirect rules need chains and loops to be checked on real pages.
EXTRA_REDIRECTS = {}


def load_redirects():
    """The extra redirects REDIRECTS names, or none."""
    path = os.environ.get("REDIRECTS")
    if not path:
        return {}
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def answer(root, path, github_pages=None):
    """(status, file, location) as python's http.server answers `path`, or as GitHub Pages
    does when `github_pages` (default: GITHUB_PAGES): `/a/b` is served from `a/b.html` when
    no file or directory has that name ("clean URLs"), and a directory without index.html
    is a 404, not a listing. An extra redirect (REDIRECTS) comes first."""
    if path in EXTRA_REDIRECTS:
        return 301, None, EXTRA_REDIRECTS[path]
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
            page.title = page.h1 = "Directory listing for " + urllib.parse.unquote(path)
            resolve_page(url, page)
        else:
            page = read_page(url, local)
        info[url] = page
        targets = set()
        for href, follow in page.hrefs:
            try:
                target = urllib.parse.urljoin(page.base_url, href.strip())
                if urllib.parse.urlsplit(target).scheme not in ("http", "https"):
                    continue
                target = normalise(target)
            except ValueError:
                continue
            targets.add(target)
            if urllib.parse.urlsplit(target).netloc != host:
                continue
            if target != url and url not in inlinks[target]:
                inlinks[target].append(url)
            if target != url and follow and not page.nofollow_page:
                followed_inlinks[target].add(url)
            if follow and not page.nofollow_page and target not in depth:
                depth[target] = None if depth[url] is None else depth[url] + 1
                queue.append(target)
        # The crawl keeps a page's first 5000 link targets only (docs/RULES.md, "Bounds"): a page
        # with more may make the inlink rules differ, and main() says so.
        page.link_targets = len(targets)
        # The page's canonical, hreflang alternates and pagination links on the site are fetched
        # too, one click deeper, without being inlinks (docs/RULES.md, "What a crawl visits").
        named = [page.canonical_url] + [u for _, u in page.alternates] + page.pagination
        for target in named:
            if target and target != url and urllib.parse.urlsplit(target).netloc == host and target not in depth:
                depth[target] = None if depth[url] is None else depth[url] + 1
                queue.append(target)
    return start, depth, status, redirect, html_page, info, inlinks, followed_inlinks


def indexable(url, status, html_page, info):
    """Answered 200 with HTML, no noindex, and no canonical naming another URL."""
    page = info.get(url)
    if status.get(url) != 200 or not html_page.get(url) or page is None or page.noindex:
        return False
    return not page.canonical_url or page.canonical_url == url


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
            resolve_page(url, page)
            if code == 200 and local.endswith((".html", ".htm")):
                page = read_page(url, local)
            canonical = page.canonical_url
            ok = code == 200 and not page.noindex and (not canonical or canonical == url)
        if not ok:
            found["sitemap-non-indexable-url"].add(url)
    return found


def expected_findings(start, sitemap, depth, status, redirect, html_page, info, inlinks, followed_inlinks):
    """What each rule this walk can judge should find: rule id -> set of affected URLs."""
    found = collections.defaultdict(set)

    def final(url, seen=()):
        # Up to 10 redirects, as broken-internal-link follows.
        if url in redirect and url not in seen and redirect[url] in status and len(seen) < 10:
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
    # Duplicate rules: the indexable pages sharing a title, a meta description (the head's
    # first), a first <h1> (empty ones compared with none).
    for rule, key in (("duplicate-title", "title_key"), ("duplicate-meta-description", "description_key"),
                      ("duplicate-h1", "h1_key")):
        groups = collections.defaultdict(list)
        for url, page in info.items():
            if getattr(page, key) is not None and indexable(url, status, html_page, info):
                groups[getattr(page, key)].append(url)
        for urls in groups.values():
            if len(urls) > 1:
                found[rule].update(urls)
    # Canonical rules: a page whose canonical names another URL of the site that the walk
    # reached, by what that URL answers.
    for url, page in info.items():
        target = page.canonical_url
        if not target or target == url or target not in status:
            continue
        if 300 <= status[target] < 400:
            found["canonical-to-redirect"].add(url)
        elif status[target] != 200:
            found["canonical-to-bad-url"].add(url)
        elif target in info and info[target].noindex:
            found["canonical-to-noindex"].add(url)
        if status[target] == 200 and target in info and info[target].canonical_url \
                and info[target].canonical_url != target:
            found["canonical-chain"].add(url)
    # Redirect rules. A loop: following the redirects from a URL comes back to a URL already
    # on the way (the loop's URLs and those leading into it). A chain: from a URL no crawled
    # URL redirects to, or one a page links to, two redirects or more before an answer that
    # is not one, and no loop on the way.
    redirected_to = set(redirect.values())
    for url in redirect:
        chain = [url]
        while chain[-1] in redirect and redirect[chain[-1]] not in chain:
            chain.append(redirect[chain[-1]])
        looped = chain[-1] in redirect
        if looped and len(chain) <= 20:  # back on the way within 20 hops (browsers' bound)
            found["redirect-loop"].add(url)
        # The crawl stops at 20 hops (21 URLs): a loop closing later is a chain "and more".
        if (not looped or len(chain) > 20) and (url not in redirected_to or inlinks.get(url)) and len(chain) > 2:
            found["internal-redirect-chain"].add(url)
    # few-inlinks: an indexable page other than the start (nor where the start redirects)
    # linked from exactly one page the walk read.
    starts = {start}
    while final_step(redirect, starts):
        pass
    for url in status:
        if url not in starts and indexable(url, status, html_page, info) and len(inlinks.get(url, ())) == 1:
            found["few-inlinks"].add(url)
    # orphan-page: a sitemap URL reached that answers 2xx, other than the start, linked from no
    # page and redirected to by none.
    if sitemap is not None:
        for url in sitemap:
            if url in status and 200 <= status[url] < 300 and url not in starts and not inlinks.get(url) \
                    and url not in redirected_to:
                found["orphan-page"].add(url)
    # Hreflang rules, over the alternates of the head of each page answering 200.
    for url, page in info.items():
        by_lang = collections.defaultdict(set)
        for lang, alternate in page.alternates:
            by_lang[lang].add(alternate)
        if any(len(urls) > 1 for urls in by_lang.values()):
            found["hreflang-conflicting-targets"].add(url)
        if status.get(url) != 200:
            continue
        for lang, alternate in page.alternates:
            if alternate == url or alternate not in status:
                continue
            other = info.get(alternate)
            if status[alternate] != 200 or (other is not None and (other.noindex or (
                    other.canonical_url and other.canonical_url != alternate))):
                found["hreflang-to-bad-url"].add(alternate)
            if status[alternate] == 200 and other is not None \
                    and not any(back == url for _, back in other.alternates):
                found["hreflang-no-return-link"].add(alternate)
    return found


def final_step(redirect, urls):
    """Adds to `urls` the target of a redirect of one of them; whether it added one."""
    for u in list(urls):
        if u in redirect and redirect[u] not in urls:
            urls.add(redirect[u])
            return True
    return False


# The rules the walk judges, with the site's sitemap (orphan-page needs one: without it the
# crawl finds none, and the walk says nothing of it).
JUDGED = ["broken-internal-link", "internal-redirect", "deep-page", "duplicate-title", "canonical-to-bad-url",
          "nofollow-only-inlinks", "duplicate-meta-description", "duplicate-h1", "canonical-to-redirect",
          "canonical-to-noindex", "canonical-chain", "few-inlinks", "internal-redirect-chain", "redirect-loop",
          "hreflang-to-bad-url", "hreflang-no-return-link", "hreflang-conflicting-targets"]
JUDGED_WITH_SITEMAP = ["not-in-sitemap", "sitemap-non-indexable-url", "orphan-page"]


def main():
    global GITHUB_PAGES, EXTRA_REDIRECTS
    GITHUB_PAGES = os.environ.get("GITHUB_PAGES") == "1"
    EXTRA_REDIRECTS = load_redirects()
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
    expected = expected_findings(start, sitemap, depth, status, redirect, html_page, info, inlinks, followed_inlinks)
    judged_rules = set(JUDGED)
    if sitemap is not None:
        expected.update(sitemap_findings(root, sitemap, status, html_page, info))
        judged_rules |= set(JUDGED_WITH_SITEMAP)
    else:
        expected.pop("orphan-page", None)
    # A rule lists at most 10000 findings, the first in URL order, and counts them all
    # (docs/RULES.md, "Bounds"): past the last URL listed, only the count can be compared.
    got, counts, listed_up_to = collections.defaultdict(set), {}, {}
    for issue in crawl["issues"]:
        if issue["kind"] == "site":
            urls = [u["url"] for u in issue["urls"]]
            got[issue["id"]].update(urls)
            counts[issue["id"]] = issue.get("count", len(set(urls)))
            if issue.get("truncated") and urls:
                listed_up_to[issue["id"]] = max(urls)
    judged = sorted(set(expected) | judged_rules)
    print(f"site {root}: {len(status)} URLs walked ({sum(1 for u in status if html_page.get(u))} HTML pages), "
          f"{len(pages)} crawled" + ("" if sitemap is None else f", {len(sitemap)} in /sitemap.xml"))
    for rule in sorted(set(judged) | set(got)):
        e, g = expected.get(rule, set()), got.get(rule, set())
        mark = "" if rule in judged else "  (not judged by the walk)"
        last = listed_up_to.get(rule)
        if last:
            mark += f"  (the crawl lists its findings up to {last} only)"
        print(f"  {rule}: crawl {counts.get(rule, len(g))} URLs, walk {len(e) if rule in judged else '-'}{mark}")
        if rule in judged:
            disagreements += [f"{rule}: walk finds {u}, the crawl does not" for u in sorted(e - g)
                              if last is None or u <= last]
            disagreements += [f"{rule}: the crawl finds {u}, the walk does not" for u in sorted(g - e)]
            if last is not None and counts[rule] != len(e):
                disagreements.append(f"{rule}: the crawl counts {counts[rule]} URLs, the walk {len(e)}")
    crowded = sorted(u for u, p in info.items() if getattr(p, "link_targets", 0) > 5000)
    if crowded:
        print(f"  note: {len(crowded)} pages link more than 5000 targets (the crawl keeps the first 5000 of each): "
              + ", ".join(crowded[:5]))
    print(f"  disagreements: {len(disagreements)}")
    for d in disagreements:
        print("   ", d)
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
