#!/usr/bin/env python3
"""The independent walk of the real-site check (docs/PERFORMANCE.md, "Real sites").

Reads a generated static site's files directly, as `python3 -m http.server` would serve
them, and works out what `seo-audit crawl` should find over that server, without any of
the crawler's code: the URLs reached from the start page through <a href> links, their
status (200 for a file, 301 for a directory named without its slash, 404 for the rest),
their click depth, the URLs robots.txt keeps out (for the `SeoAuditBot` token; listed as
skipped, never fetched), the URLs the site's sitemaps list (/sitemap.xml, robots.txt's
`Sitemap:` lines and what their indexes name; a site whose sitemap names its public origin is
served with that origin rewritten, see check.sh), and per rule the URLs affected. Then it
compares that with the JSON of `seo-audit crawl --format json` and prints every disagreement.

Besides the links, it reads of each HTML page (as docs/RULES.md, "Site rules", says the crawl
does) the head's first canonical, its hreflang alternates and its rel=next/prev, and where the
first meta refresh a browser acts on sends it (outside <noscript>), all resolved against the
page's <base href>, and fetches those targets too (one click deeper, no inlinks);
its title, the head's first meta description and the first <h1>, for the duplicate rules; and
the types of its top-level structured data items (JSON-LD, microdata, RDFa).
The rules it judges are JUDGED (and JUDGED_WITH_SITEMAP when a sitemap was read); each is
worked out from the rule's documented meaning, in expected_findings, more_findings,
read_sitemaps, sitemap_findings, near_duplicates and soft_404. The last two judge a rule whose
signatures estimate a similarity: the walk computes the exact similarity of the pages' own
texts (the text of the one main landmark, else the visible text, without <nav>, <header> and
<footer>), expects what the estimate must find and must not find, and counts the pages between
the two against the chances docs/RULES.md gives ("How alike near copies are").

    python3 scripts/real-sites/walk.py SITE_DIR BASE_URL CRAWL_JSON [CRAWL_STORE]

BASE_URL is the URL the directory is served at (http://127.0.0.1:PORT/). It fetches
nothing: it reads SITE_DIR and CRAWL_JSON only, and CRAWL_STORE (the crawl's SQLite file,
`seo-audit crawl --store`) when given, for the crawl's own signatures: it then also prints how
the crawl's similarities stand against the exact ones (calibration). With OWN_TEXT=PATH (the
`own_text` example of crates/crawl, built with `cargo build --release -p crawl --example
own_text`) it also has the crawl's own reader read every page the near-copy rules compare and
reports each page whose words differ from the walk's. With GITHUB_PAGES=1 in the environment it
walks the site as GitHub Pages serves it (serve.py: `/a/b` from `a/b.html`, no directory
listings) instead of as python's http.server does.
"""

import array
import collections
import functools
import gzip
import html
import html.parser
import json
import math
import os
import re
import sys
import urllib.parse
import xml.etree.ElementTree as ElementTree


# The elements the parser keeps in <head>: any other start tag (or text that is not white
# space) outside them opens the body, and what comes after is no longer the head's.
HEAD_ELEMENTS = {"html", "head", "meta", "link", "title", "script", "style", "base", "noscript", "template",
                 "basefont", "bgsound"}
# The elements whose text is not visible text (docs/RULES.md: duplicate-content compares the
# visible text), and the inline ones, which add no word break around their text.
NOT_VISIBLE = {"script", "style", "noscript", "template", "title", "head"}
INLINE = {"a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "dfn", "em", "i", "kbd", "mark", "q", "s", "samp",
          "small", "span", "strong", "sub", "sup", "time", "u", "var", "font", "label"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
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
        # The <meta http-equiv=refresh> pragmas a browser may act on (outside <noscript> and
        # <template>), the first 8, each the URL it names (None: it reloads the page); a
        # browser acts on the first whose URL parses (resolve_page).
        self.refreshes = []
        # Structured data: the JSON-LD blocks' text, and the first type of each top-level
        # microdata item (an itemscope without itemprop) and RDFa node (typeof without property).
        self.json_ld, self._json_ld = [], None
        self.markup_types = []
        # Visible text: the body's text outside NOT_VISIBLE elements, a space at each
        # element that is not INLINE.
        self.text, self._hidden = [], []
        self._h1 = 0  # 0: no <h1> yet, 1: in the first one, 2: past it
        self._body = False
        self._svg = self._noscript = 0
        self._cdata = None
        # Own text (near-duplicate-content, soft-404): the places in `text` where the outermost
        # <nav>, <header> and <footer> begin and end (`boilerplate`), and those of the outermost
        # main landmarks (`mains`: a <main> or an element with role=main, not inside
        # boilerplate, text that is not visible, or a hidden element). An element's end is
        # found by counting the start and end tags of its name.
        self.boilerplate, self.mains = [], []
        self._boiler, self._boiler_start = 0, 0
        self._main, self._main_start = None, 0  # [tag, open count] of the outermost main
        self._inert = None  # [tag, open count] of the outermost hidden element

    def _in_head(self):
        return not self._body and not self._noscript

    def handle_starttag(self, tag, attrs):
        if tag not in INLINE:
            self.text.append(" ")
        if tag in NOT_VISIBLE and tag not in VOID:
            self._hidden.append(tag)
        a = {}
        for k, v in attrs:
            a.setdefault(k, v)
        if not self._body and not self._noscript and tag not in HEAD_ELEMENTS:
            self._body = True
        if tag == "body":
            self._body = True
        self._own_text_start(tag, a)
        if tag == "svg":
            self._svg += 1
        elif tag == "noscript":
            self._noscript += 1
        elif tag in ("script", "style"):
            self._cdata = tag
            if tag == "script" and (a.get("type") or "").strip().lower() == "application/ld+json":
                self._json_ld = ""
        if "itemscope" in a and a.get("itemprop") is None and (a.get("itemtype") or "").split():
            self.markup_types.append(short_type(a["itemtype"].split()[0]))
        if (a.get("typeof") or "").split() and a.get("property") is None:
            self.markup_types.append(short_type(a["typeof"].split()[0]))
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
            equiv = (a.get("http-equiv") or "").lower()
            if equiv == "refresh" and content is not None and not self._noscript \
                    and "template" not in self._hidden and len(self.refreshes) < 8:
                acted = refresh_url(content)
                if acted is not None:
                    self.refreshes.append(acted[0])
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

    def handle_startendtag(self, tag, attrs):
        # `<div/>` opens a div in HTML (the slash is ignored on elements that are not void), as
        # html5ever parses it; only in SVG does it close the element.
        self.handle_starttag(tag, attrs)
        if tag in VOID or self._svg:
            self.handle_endtag(tag)

    def _own_text_start(self, tag, a):
        if tag in VOID:
            return
        for open_ in (self._main, self._inert):
            if open_ is not None and open_[0] == tag:
                open_[1] += 1
        style = re.sub(r"\s", "", (a.get("style") or "").lower())
        hides = "hidden" in a or "inert" in a or (a.get("aria-hidden") or "").strip().lower() == "true" \
            or any(d.removesuffix("!important") in ("display:none", "visibility:hidden") for d in style.split(";"))
        if hides and self._inert is None:
            self._inert = [tag, 1]
        if (tag == "main" or (a.get("role") or "").strip().lower() == "main") and self._main is None \
                and not self._boiler and not self._hidden and self._inert is None:
            self._main, self._main_start = [tag, 1], len(self.text)
        if tag in ("nav", "header", "footer"):
            if not self._boiler:
                self._boiler_start = len(self.text)
            self._boiler += 1

    def _own_text_end(self, tag):
        if tag in ("nav", "header", "footer") and self._boiler:
            self._boiler -= 1
            if not self._boiler:
                self.boilerplate.append((self._boiler_start, len(self.text)))
        if self._inert is not None and self._inert[0] == tag:
            self._inert[1] -= 1
            if not self._inert[1]:
                self._inert = None
        if self._main is not None and self._main[0] == tag:
            self._main[1] -= 1
            if not self._main[1]:
                self.mains.append((self._main_start, len(self.text)))
                self._main = None

    def own_text(self):
        """The page's own text: the text of its one main landmark (when it has exactly one, with
        text), else its visible text; without the text of its <nav>, <header> and <footer>."""
        ends = len(self.text)
        mains = self.mains + ([(self._main_start, ends)] if self._main is not None else [])
        boiler = self.boilerplate + ([(self._boiler_start, ends)] if self._boiler else [])
        within = (0, ends)
        if len(mains) == 1 and "".join(self.text[mains[0][0]:mains[0][1]]).strip():
            within = mains[0]
        out = []
        for i in range(*within):
            if not any(s <= i < e for s, e in boiler):
                out.append(self.text[i])
        return "".join(out)

    def handle_endtag(self, tag):
        if tag not in INLINE:
            self.text.append(" ")
        self._own_text_end(tag)
        if tag in self._hidden:
            while self._hidden and self._hidden.pop() != tag:
                pass
        if tag == "title":
            self._in_title = False
        elif tag == "svg" and self._svg:
            self._svg -= 1
        elif tag == "noscript" and self._noscript:
            self._noscript -= 1
        elif tag == self._cdata:
            self._cdata = None
            if self._json_ld is not None:
                self.json_ld.append(self._json_ld)
                self._json_ld = None
        elif tag in ("h1", "h2", "h3", "h4", "h5", "h6") and self._h1 == 1:
            self._h1 = 2

    def handle_data(self, data):
        if not self._hidden and (self._body or re.sub(r"[ \t\n\f\r]", "", data)):
            self.text.append(data)
        if self._json_ld is not None:
            self._json_ld += data
        if self._in_title:
            self.title += data
        if self._h1 == 1:
            self.h1 += data
        if not self._body and not self._noscript and not self._in_title and not self._cdata \
                and re.sub(r"[ \t\n\f\r]", "", data):
            self._body = True


def short_type(name):
    """A schema.org type by its short name (`https://schema.org/Product` is `Product`)."""
    name = name.strip()
    for prefix in ("https://schema.org/", "http://schema.org/", "schema:", "https://www.schema.org/",
                   "http://www.schema.org/"):
        if name.startswith(prefix):
            return name[len(prefix):].rstrip("/")
    return name


def structured_types(page):
    """The first type of each top-level item of the page (JSON-LD objects, the members of an
    @graph, top-level microdata and RDFa items), distinct, the first 8 (a crawl record keeps 8)."""
    types = []

    def node(value):
        if not isinstance(value, dict) or "@value" in value:
            return
        t = value.get("@type")
        if isinstance(t, list):  # the first type of several
            t = next((x for x in t if isinstance(x, str)), None)
        if isinstance(t, str) and short_type(t):
            types.append(short_type(t))

    def top(value):
        if isinstance(value, list):
            for v in value:
                top(v)
        elif isinstance(value, dict):
            if "@graph" in value:
                members = value["@graph"] if isinstance(value["@graph"], list) else [value["@graph"]]
                for m in members:
                    node(m)
                if "@type" not in value:
                    return
            node(value)

    for block in getattr(page, "json_ld", ()):
        try:
            top(json.loads(block))
        except ValueError:
            pass
    out = []
    for t in types + list(getattr(page, "markup_types", ())):
        if t not in out and len(t.encode()) <= 128 and len(out) < 8:
            out.append(t)
    return out


REFRESH_SPACE = " \t\n\x0c\r"


def refresh_url(content):
    """What a browser does with a refresh pragma's `content`, read as HTML's "shared
    declarative refresh steps" say: None when it ignores it; else a one-element tuple of the
    URL it goes to (None: the page reloads itself)."""
    s = content.lstrip(REFRESH_SPACE)
    time = re.match(r"[0-9]*", s).group(0)
    rest = s[len(time):]
    if not time and not rest.startswith("."):
        return None
    rest = rest.lstrip("0123456789.")
    if not rest:
        return (None,)
    if rest[0] not in ";," + REFRESH_SPACE:
        return None
    rest = rest.lstrip(REFRESH_SPACE)
    if rest[:1] in (";", ","):
        rest = rest[1:].lstrip(REFRESH_SPACE)
    keyword = re.match(r"(?i)url[" + REFRESH_SPACE + r"]*=[" + REFRESH_SPACE + r"]*", rest)
    if keyword:
        rest = rest[keyword.end():]
    if rest[:1] in ("'", '"'):
        rest = rest[1:].split(rest[0])[0]
    rest = rest.rstrip(REFRESH_SPACE)
    return (rest or None,)


def read_page(url, local):
    """The parsed page of `url` from its file, with its references resolved against its base:
    `canonical_url` (normalised, or None), `alternates` [(language, normalised URL)],
    `pagination` (the normalised next and prev on any site), and the keys the duplicate
    rules compare (`title_key`, `description_key`, `h1_key`, None when empty)."""
    with open(local, encoding="utf-8", errors="replace") as f:
        return parse_page(url, f.read())


def parse_page(url, text):
    """The parsed page of `url` from its HTML, as read_page gives it."""
    page = Links()
    page.feed(text)
    resolve_page(url, page)
    runs = run_keys(page.own_text())
    page.own_runs = None if runs is None else array.array("Q", runs)
    return page


def listing(local, path):
    """The HTML python's http.server answers for a directory without index.html: a page of
    its own, with a title, an <h1> and a link to each entry."""
    names = sorted(os.listdir(local), key=str.lower)
    shown = html.escape(urllib.parse.unquote(path, errors="surrogatepass"), quote=False)
    rows = ['<!DOCTYPE HTML>', '<html lang="en">', '<head>', '<meta charset="utf-8">',
            f'<title>Directory listing for {shown}</title>\n</head>', f'<body>\n<h1>Directory listing for {shown}</h1>',
            '<hr>\n<ul>']
    for name in names:
        slash = "/" if os.path.isdir(os.path.join(local, name)) else ""
        rows.append('<li><a href="%s">%s</a></li>' % (urllib.parse.quote(name + slash, errors="surrogatepass"),
                                                     html.escape(name + ("@" if os.path.islink(os.path.join(local, name)) else slash), quote=False)))
    rows.append('</ul>\n<hr>\n</body>\n</html>\n')
    return "\n".join(rows)


def resolve_page(url, page):
    base = url
    if page.base is not None:
        try:
            base = join(url, page.base.strip())
        except ValueError:
            pass
    page.base_url = base

    def resolve(ref):
        if ref is None:
            return None
        try:
            target = join(base, ref.strip())
            if urllib.parse.urlsplit(target).scheme not in ("http", "https"):
                return None
            return normalise(target)
        except ValueError:
            return None

    page.canonical_url = resolve(page.canonical)
    page.alternates = [(lang, u) for lang, u in ((lang, resolve(h)) for lang, h in page.hreflang) if u]
    page.next_url, page.prev_url = resolve(page.next), resolve(page.prev)
    page.pagination = [u for u in (page.next_url, page.prev_url) if u]
    page.refresh = None
    for written in page.refreshes:
        try:
            if written is not None:
                join(base, written.strip())
        except ValueError:
            continue  # a URL that does not parse: the browser gives this pragma up
        page.refresh = written
        break
    jump = page.refresh is not None and page.refresh.strip().startswith("#")
    page.refresh_url = None if jump else resolve(page.refresh)
    page.structured_types = structured_types(page)
    page.text_key = " ".join("".join(getattr(page, "text", ())).split()) or None
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


def remove_dot_segments(path):
    """RFC 3986's remove_dot_segments: `.` and `..` segments resolved, nothing else changed
    (an empty segment, as in `/a//b`, stays)."""
    segments, out = path.split("/"), []
    for i, segment in enumerate(segments):
        last = i == len(segments) - 1
        if segment in (".", ".."):
            if segment == ".." and len(out) > 1:
                out.pop()
            if last:
                out.append("")
            continue
        out.append(segment)
    return "/".join(out)


# What the WHATWG URL standard percent-encodes in a path and in a query (besides controls and
# non-ASCII characters); an existing escape is left as written.
PATH_ENCODED = set(' "#<>?`{}')
QUERY_ENCODED = set(' "#<>\'')


def join(base, ref):
    """`ref` resolved against `base` as RFC 3986 (and the WHATWG URL standard) resolve it.
    Python's urljoin drops empty path segments (`a//b` becomes `a/b`), the standard keeps them."""
    r = urllib.parse.urlsplit(ref.replace("\\", "/") if not re.match(r"[a-zA-Z][a-zA-Z0-9+.-]*:", ref) else ref)
    if r.scheme:
        return urllib.parse.urlunsplit((r.scheme, r.netloc, remove_dot_segments(r.path), r.query, r.fragment))
    b = urllib.parse.urlsplit(base)
    if ref.startswith("//"):
        return urllib.parse.urlunsplit((b.scheme, r.netloc, remove_dot_segments(r.path), r.query, r.fragment))
    if not r.path:
        path, query = b.path, (r.query if ref.startswith("?") or r.query else b.query)
    elif r.path.startswith("/"):
        path, query = remove_dot_segments(r.path), r.query
    else:
        path, query = remove_dot_segments(b.path[:b.path.rfind("/") + 1] + r.path), r.query
    return urllib.parse.urlunsplit((b.scheme, b.netloc, path or "/", query, r.fragment))


def encode(text, encoded):
    return "".join(urllib.parse.quote(c, safe="") if c in encoded or ord(c) < 0x21 or ord(c) > 0x7e else c
                   for c in text)


def normalise(url):
    """One spelling of a URL, as the WHATWG URL standard serialises it (which the crawl
    follows): scheme and host in lower case, `.` and `..` resolved, the path and query
    percent-encoded where the standard says (existing escapes kept), no fragment, no empty query."""
    p = urllib.parse.urlsplit(url.strip())
    path = encode(remove_dot_segments(p.path), PATH_ENCODED) if p.path else "/"
    return urllib.parse.urlunsplit((p.scheme.lower(), p.netloc.lower(), path, encode(p.query, QUERY_ENCODED), ""))


# The product token the crawl obeys in robots.txt (docs/RULES.md, "What a crawl visits").
TOKEN = "seoauditbot"


class Robots:
    """A site's robots.txt as RFC 9309 reads it for TOKEN: the groups naming the token (merged),
    else the `*` groups; the longest matching pattern decides, an Allow winning a tie; `*`
    matches any characters and a final `$` the end; /robots.txt itself is always allowed.
    Also its `Sitemap:` lines."""

    def __init__(self, text=""):
        groups, current, in_agents = [], None, False
        self.sitemaps = []
        for raw in text.splitlines():
            line = raw.split("#", 1)[0].strip()
            if ":" not in line:
                continue
            key, value = (x.strip() for x in line.split(":", 1))
            key = key.lower()
            if key == "user-agent":
                if not in_agents:
                    current = ([], [])
                    groups.append(current)
                in_agents = True
                agent = value.lower()
                current[0].append("*" if agent.startswith("*") else re.match(r"[a-z_-]*", agent).group(0))
            elif key == "sitemap":
                self.sitemaps.append(value)
            else:
                in_agents = False
                if key in ("allow", "disallow") and current is not None and value:
                    current[1].append((key == "allow", value))
        named = [rules for agents, rules in groups if TOKEN in agents]
        if not named:
            named = [rules for agents, rules in groups if "*" in agents]
        self.rules = [r for rules in named for r in rules]

    def allowed(self, url):
        parts = urllib.parse.urlsplit(url)
        path = (parts.path or "/") + ("?" + parts.query if parts.query else "")
        if parts.path == "/robots.txt":
            return True
        path = urllib.parse.unquote(path)
        best = None
        for allow, pattern in self.rules:
            regex = "".join(".*" if c == "*" else re.escape(c) for c in urllib.parse.unquote(pattern.rstrip("$")))
            if re.match(regex + ("$" if pattern.endswith("$") else ""), path, re.S):
                key = (len(pattern), allow)
                best = max(best, key) if best else key
        return best is None or best[1]


def load_robots(root):
    """The site's /robots.txt as it is served (none: allows everything)."""
    code, local, _ = answer(root, "/robots.txt")
    if code != 200 or os.path.isdir(local):
        return Robots()
    with open(local, encoding="utf-8", errors="replace") as f:
        return Robots(f.read())


# What the crawl reads of sitemaps (docs/RULES.md, "What a crawl visits"): indexes nested 2 deep.
SITEMAP_INDEX_DEPTH = 2
SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"


def read_sitemaps(root, base, robots):
    """The site's sitemaps as the crawl discovers them: /sitemap.xml, then robots.txt's
    `Sitemap:` lines on the site, and what the indexes among them name. Returns (the page URLs
    they list on the site, normalised, or None when no sitemap could be read; the sitemap-error
    findings, sitemap URL -> problems)."""
    host = urllib.parse.urlsplit(base).netloc
    queue, seen, errors, urls, read_any, indexes = [], set(), collections.defaultdict(list), set(), False, set()

    def push(url, depth, named):
        url = normalise(url)
        if urllib.parse.urlsplit(url).netloc != host:
            return
        if url not in seen:
            seen.add(url)
            queue.append([url, depth, named])
        elif named:
            for q in queue:
                if q[0] == url:
                    q[2] = True

    push(join(base, "/sitemap.xml"), 0, False)
    for named in robots.sitemaps:
        if not re.match(r"[a-zA-Z][a-zA-Z0-9+.-]*:", named) and named:
            # A relative Sitemap: line, read against robots.txt's URL and reported.
            named = normalise(join(join(base, "/robots.txt"), named))
            errors[named].append("relative Sitemap: line")
        push(named, 0, True)
    while queue:
        url, depth, named = queue.pop(0)
        code, local, _ = answer(root, urllib.parse.urlsplit(url).path or "/")
        if code != 200 or os.path.isdir(local):
            if named or depth > 0:
                errors[url].append(f"HTTP {code}")
            continue
        with open(local, "rb") as f:
            data = f.read()
        if data[:2] == b"\x1f\x8b":
            try:
                data = gzip.decompress(data)
            except OSError:
                errors[url].append("bad gzip")
                continue
        try:
            tree = ElementTree.fromstring(data)
        except ElementTree.ParseError:
            errors[url].append("not well-formed")
            continue
        ns, _, kind = tree.tag.rpartition("}")
        if kind not in ("urlset", "sitemapindex"):
            errors[url].append("not a sitemap")
            continue
        read_any = True
        if ns.lstrip("{") != SITEMAP_NS:
            errors[url].append("namespace")
        if kind == "sitemapindex":
            indexes.add(url)
        for loc in (loc for entry in tree for loc in entry):
            if loc.tag.rpartition("}")[2] != "loc" or not (loc.text or "").strip():
                continue
            text = loc.text.strip()
            if urllib.parse.urlsplit(text).scheme not in ("http", "https"):
                errors[url].append(f"relative <loc> {text}")
                text = join(url, text)
            target = normalise(text)
            if kind == "sitemapindex":
                if target in indexes:
                    errors[url].append(f"index loop: {target}")
                elif depth < SITEMAP_INDEX_DEPTH:
                    push(target, depth + 1, True)
                else:
                    errors[url].append(f"below {SITEMAP_INDEX_DEPTH} index levels: {target}")
            elif urllib.parse.urlsplit(target).netloc == host:
                urls.add(target)
    return (urls if read_any else None), errors


def walk(root, base, sitemap=None, robots=None):
    """The breadth-first walk from BASE, then from the sitemap's URLs no link reached: those
    and what only they link to have no click depth (None), as in the crawl. A URL robots.txt
    disallows is not fetched: it is in `skipped`, with its depth."""
    host = urllib.parse.urlsplit(base).netloc
    start = normalise(base)
    depth, status, redirect, html_page, info, inlinks = {start: 0}, {}, {}, {}, {}, collections.defaultdict(list)
    # The pages that link to a URL with a link a search engine follows (no rel nofollow, ugc
    # or sponsored on it, no page-wide nofollow): nofollow-only-inlinks.
    followed_inlinks = collections.defaultdict(set)
    # A breadth-first walk where a redirect costs no click: its target goes to the front of the
    # queue at the redirect's depth, and a URL waiting in the queue takes the least depth any
    # path gives it (docs/RULES.md, "What a crawl visits"); each URL is fetched once.
    queue, done = collections.deque([start]), set()
    skipped = set()

    def reach(target, d, front=False):
        if target in done or (target in depth and (d is None or (depth[target] is not None and depth[target] <= d))):
            return
        depth[target] = d
        (queue.appendleft if front else queue.append)(target)
    later = sorted(u for u in (sitemap or ()) if urllib.parse.urlsplit(u).netloc == host)
    while queue or later:
        if not queue:
            url = later.pop(0)
            if url not in depth:
                depth[url] = None
                queue.append(url)
            continue
        url = queue.popleft()
        if url in done:
            continue
        done.add(url)
        if robots is not None and not robots.allowed(url):
            skipped.add(url)
            continue
        path = urllib.parse.urlsplit(url).path or "/"
        code, local, location = answer(root, path)
        status[url] = code
        if code == 301:
            to = normalise(join(url, location))
            redirect[url] = to
            reach(to, depth[url], front=True)
            continue
        is_html = code == 200 and (os.path.isdir(local) or local.endswith((".html", ".htm")))
        html_page[url] = is_html
        if not is_html:
            continue
        if os.path.isdir(local):
            page = parse_page(url, listing(local, path))
        else:
            page = read_page(url, local)
        page.local = local
        info[url] = page
        targets = set()
        for href, follow in page.hrefs:
            try:
                target = join(page.base_url, href.strip())
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
            if follow and not page.nofollow_page:
                reach(target, None if depth[url] is None else depth[url] + 1)
        # The crawl keeps a page's first 5000 link targets only (docs/RULES.md, "Bounds"): a page
        # with more may make the inlink rules differ, and main() says so.
        page.link_targets = len(targets)
        # The page's canonical, hreflang alternates and pagination links on the site are fetched
        # too, one click deeper, without being inlinks (docs/RULES.md, "What a crawl visits").
        named = [page.canonical_url] + [u for _, u in page.alternates] + page.pagination + [page.refresh_url]
        for target in named:
            if target and target != url and urllib.parse.urlsplit(target).netloc == host:
                reach(target, None if depth[url] is None else depth[url] + 1)
    return start, depth, status, redirect, html_page, info, inlinks, followed_inlinks, skipped


def indexable(url, status, html_page, info):
    """Answered 200 with HTML, no noindex, and no canonical naming another URL."""
    page = info.get(url)
    if status.get(url) != 200 or not html_page.get(url) or page is None or page.noindex:
        return False
    return not page.canonical_url or page.canonical_url == url


def sitemap_findings(root, sitemap, status, html_page, info, skipped=()):
    """not-in-sitemap and sitemap-non-indexable-url: the pages reached that the sitemap
    omits, and the URLs it lists that are not indexable (answered as python's server
    answers them, reached by links or not)."""
    found = collections.defaultdict(set)
    for url in status:
        if indexable(url, status, html_page, info) and url not in sitemap:
            found["not-in-sitemap"].add(url)
    for url in sitemap:
        if url in skipped:
            ok = False
        elif url in status:
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
    # Where a page's refresh sends browsers, which the crawl fetches (no link, no inlink): a
    # broken target is broken-internal-link's too.
    for url, page in info.items():
        target = page.refresh_url
        if not target or target == url or target not in status:
            continue
        if status[target] >= 400 or status.get(final(target), 200) >= 400:
            found["broken-internal-link"].add(target)
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
            # Between indexable pages only: a bad alternate is hreflang-to-bad-url's, and a
            # page that may not be indexed needs no return link.
            if indexable(url, status, html_page, info) and indexable(alternate, status, html_page, info) \
                    and not any(back == url for _, back in other.alternates):
                found["hreflang-no-return-link"].add(alternate)
            # The return link names this page for none of the languages it gives itself
            # (x-default is a role, left out on both sides).
            own = {lang for lang, u in page.alternates if u == url and lang != "x-default"}
            back = {lang for lang, u in (other.alternates if other is not None else ()) if u == url and lang != "x-default"}
            if own and back and not own & back and indexable(url, status, html_page, info) \
                    and indexable(alternate, status, html_page, info):
                found["hreflang-inconsistent-return"].add(alternate)
    return found


# The file names a server answers for a directory (url-variant-duplicate's variants).
INDEX_FILES = ("index.html", "index.htm", "index.php")


def bare_path(path):
    """A path without its index file and final slash: what its variants share."""
    for name in INDEX_FILES:
        if path.endswith(name):
            path = path[:-len(name)]
            break
    return path.rstrip("/") or "/"


def variant_pair(a, b):
    """Whether two URLs of one origin are variants of one URL for url-variant-duplicate: their
    paths are the same, or one is the other in lower case, once an index file and a final
    slash are left out; at most one of them has a query string."""
    pa, pb = urllib.parse.urlsplit(a), urllib.parse.urlsplit(b)
    if pa.netloc != pb.netloc or (pa.query and pb.query) or a == b:
        return False

    x, y = bare_path(pa.path), bare_path(pb.path)
    return x == y or x.lower() == y or y.lower() == x


def plainness(url):
    """The plainer of two variants sorts first: no query, lower case, no index file, no final
    slash (the site's root aside), shorter, then the URL."""
    parts = urllib.parse.urlsplit(url)
    return (bool(parts.query), parts.path != parts.path.lower(),
            parts.path.endswith(INDEX_FILES),
            parts.path.endswith("/") and parts.path != "/", len(url), url)


def template_key(url):
    """structured-data-missing-in-template's group of a URL: its origin, its first path
    segment and its number of segments (every one-segment path is one group); None for the root."""
    parts = urllib.parse.urlsplit(url)
    segments = [x for x in parts.path.split("/") if x]
    origin = f"{parts.scheme}://{parts.netloc}"
    if not segments:
        return None
    if len(segments) == 1:
        return origin + "/*"
    return f"{origin}/{segments[0]}" + "/*" * (len(segments) - 1)


def more_findings(status, html_page, info, inlinks, skipped, redirect):
    """The rules judged since session 27: linked-page-blocked-by-robots, pagination-broken,
    url-variant-duplicate, structured-data-missing-in-template."""
    found = collections.defaultdict(set)
    for url in skipped:
        if inlinks.get(url):
            found["linked-page-blocked-by-robots"].add(url)
    # pagination-broken: a page's rel=next (rel=prev) names a crawled URL of the site that is
    # not an HTML page answering 200, or one whose rel=prev (rel=next) is not this page: neither
    # its URL, nor one redirecting to it, nor a variant of it serving the same file.
    def names(back, url):
        seen = [back]
        while seen[-1] in redirect and redirect[seen[-1]] not in seen and len(seen) <= 10:
            seen.append(redirect[seen[-1]])
        if seen[-1] == url:
            return True
        other = info.get(back)
        return other is not None and variant_pair(back, url) and other.local == info[url].local

    for url, page in info.items():
        for target, back in ((page.next_url, "prev_url"), (page.prev_url, "next_url")):
            if not target or target == url or (target not in status and target not in skipped):
                continue
            other = info.get(target)
            if target in skipped or status[target] != 200 or not html_page.get(target) or other is None \
                    or not (getattr(other, back) and names(getattr(other, back), url)):
                found["pagination-broken"].add(url)
    # url-variant-duplicate: two variants answering 200 as HTML without noindex, whose
    # canonicals (or URLs, without one) differ; the query variant only with the same text
    # (for a static server: the same file).
    def candidate(u):
        p = info.get(u)
        return status.get(u) == 200 and html_page.get(u) and p is not None and not p.noindex

    groups = collections.defaultdict(list)
    for u in status:
        if candidate(u):
            parts = urllib.parse.urlsplit(u)
            groups[(parts.netloc, bare_path(parts.path).lower())].append(u)
    for urls in groups.values():
        for i, a in enumerate(urls):
            for b in urls[i + 1:]:
                if not variant_pair(a, b):
                    continue
                if ("?" in a or "?" in b) and info[a].local != info[b].local:
                    continue
                if (info[a].canonical_url or a) == (info[b].canonical_url or b):
                    continue
                found["url-variant-duplicate"].add(max(a, b, key=plainness))
    # duplicate-content: indexable pages with the same visible text, white space collapsed.
    same_text = collections.defaultdict(list)
    for url, page in info.items():
        if page.text_key and indexable(url, status, html_page, info):
            same_text[page.text_key].append(url)
    for urls in same_text.values():
        if len(urls) > 1:
            found["duplicate-content"].update(urls)
    # structured-data-missing-in-template.
    by_key = collections.defaultdict(list)
    for url, page in info.items():
        key = template_key(url)
        if key and indexable(url, status, html_page, info):
            by_key[key].append(url)
    for key, urls in by_key.items():
        if len(urls) < 5:
            continue
        counts = collections.Counter(t for u in urls for t in info[u].structured_types)
        for t, n in counts.items():
            if n < len(urls) and n * 100 >= 60 * len(urls):
                found["structured-data-missing-in-template"].update(
                    u for u in urls if t not in info[u].structured_types)
    return found


# near-duplicate-content, judged by exact similarity: the crawl compares 64-bit SimHash
# signatures of the pages' own texts (runs of three words), which estimate the cosine
# similarity c of the two texts' runs (counted with their repeats): a bit differs with
# probability about acos(c) / pi (crates/crawl's test differing_bits_follow_the_angle_between_the_texts
# holds the crawl's hash to it). The walk computes c exactly for every candidate pair, the
# chance the crawl finds the pair (at most NEAR_THRESHOLD_BITS of 64 bits differing, a binomial
# tail), and per page bounds on the chance that at least one of its pairs is found: at least
# its closest pair's, at most that of its pairs found independently (a page's pairs share its
# signature, so they are found together more often than apart). A page whose lower bound is
# SURE_FOUND or more must be found; one whose upper bound is below NEVER_FOUND must not be; the
# pages between are judged together: the crawl must find between their lower bounds' sum and
# their upper bounds' sum, give or take four standard deviations (the variance doubled: pages
# are found in pairs).
MIN_SIGNATURE_WORDS = 50
NEAR_THRESHOLD_BITS = 6  # 90%: at most 6 of the 64 bits differ
SURE_FOUND, NEVER_FOUND = 0.997, 0.0015
SKETCH = 64  # the runs with the lowest mixed keys a page is indexed by, to find candidate pairs


def binomial_tail(p, at_most=NEAR_THRESHOLD_BITS, n=64):
    """P(at most `at_most` of `n` bits differ) when each differs with probability p."""
    return sum(math.comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(at_most + 1))


WORD_IDS = {}


# The words of a text as the crawl's signature splits them: on every character that is not
# alphanumeric in Rust's sense (the Unicode Alphabetic property, or a number). Python's `re` has
# no Alphabetic property (it splits `flinkⓡ` and the vowel signs of Devanagari where Rust does
# not); the `regex` package has it (`pip install regex`), and is used when installed.
try:
    import regex as _unicode_regex
    WORD = _unicode_regex.compile(r"[\p{Alphabetic}\p{N}]+")
except ImportError:
    _unicode_regex = None
    WORD = re.compile(r"[^\W_]+")


def words_of(text):
    """The lower-case words of `text`, as the signature reads them (WORD)."""
    return WORD.findall(text.lower())


def run_keys(text):
    """The page's runs of three words (words_of) as integer keys, sorted, repeats kept; None
    below MIN_SIGNATURE_WORDS."""
    words = words_of(text)
    if len(words) < MIN_SIGNATURE_WORDS:
        return None
    ids = [WORD_IDS.setdefault(w, len(WORD_IDS)) for w in words]
    # Three ids of 21 bits make a key of 63: more distinct words would make keys collide.
    assert len(WORD_IDS) < 1 << 21, "more distinct words than the run keys can hold"
    return sorted((ids[i] << 42) | (ids[i + 1] << 21) | ids[i + 2] for i in range(len(ids) - 2))


def norm_of(counts):
    """The length of a page's vector of runs (each run's count a coordinate)."""
    return math.sqrt(sum(v * v for v in counts.values()))


def expected_similarity(a, b, norm_a=None, norm_b=None):
    """The similarity the crawl's signatures estimate for two pages' runs (Counters): 1 -
    acos(c) / pi for their cosine c."""
    small, large = (a, b) if len(a) < len(b) else (b, a)
    dot = sum(v * large.get(k, 0) for k, v in small.items())
    norm = (norm_a or norm_of(a)) * (norm_b or norm_of(b))
    return 1 - math.acos(min(1.0, dot / norm)) / math.pi


def mixed(key):
    return (key * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF


def near_duplicates(status, html_page, info):
    """(must, may, chance, best): the pages near-duplicate-content must report and those it may
    (judged by count), each compared page's bounds on its chance of being found (low, high), and
    its closest other page with the similarity the crawl should estimate."""
    @functools.lru_cache(maxsize=4096)
    def counts(url):
        return collections.Counter(info[url].own_runs)

    norms, sketch = {}, {}
    for url, page in info.items():
        if not indexable(url, status, html_page, info) or getattr(page, "own_runs", None) is None:
            continue
        c = collections.Counter(page.own_runs)
        norms[url] = norm_of(c)
        sketch[url] = sorted(c, key=mixed)[:SKETCH]
    postings = collections.defaultdict(list)
    for url, sk in sketch.items():
        for k in sk:
            postings[k].append(url)
    best, missed, closest_found = {}, collections.defaultdict(lambda: 1.0), collections.defaultdict(float)
    done = set()
    for url in sorted(norms):
        shared = collections.Counter()
        for k in sketch[url]:
            for other in postings[k]:
                if other != url:
                    shared[other] += 1
        a = counts(url)
        for other, n in shared.most_common():
            if n < 2:  # pages sharing one of their sketches' runs at most are far apart
                break
            pair = (min(url, other), max(url, other))
            if pair in done:
                continue
            done.add(pair)
            if info[url].text_key == info[other].text_key:
                continue  # the same visible text: duplicate-content's
            predicted = expected_similarity(a, counts(other), norms[url], norms[other])
            found = binomial_tail(1 - predicted)
            for x, y in ((url, other), (other, url)):
                missed[x] *= 1 - found
                closest_found[x] = max(closest_found[x], found)
                if predicted > best.get(x, (0, None))[0]:
                    best[x] = (predicted, y)
            if closest_found[url] >= SURE_FOUND:
                break  # the page is found for sure: its other pairs change nothing
    near_duplicates.compared = len(norms)
    chance = {u: (closest_found[u], 1 - m) for u, m in missed.items()}
    must = {u for u, (low, _) in chance.items() if low >= SURE_FOUND}
    may = {u for u, (low, high) in chance.items() if low < SURE_FOUND and high >= NEVER_FOUND}
    return must, may, chance, best


# soft-404: the phrases of docs/RULES.md's soft-404 that say a page was not found (its
# "the same in German, French, Spanish, Italian or Dutch" spelled out as the rule reads them).
NOT_FOUND_PHRASES = ["not found", "cannot be found", "can't be found", "can\u2019t be found", "could not be found",
                     "couldn't be found", "does not exist", "doesn't exist", "no longer exists", "no longer available",
                     "nicht gefunden", "existiert nicht", "page introuvable", "n'existe pas", "no encontrada",
                     "no encontrado", "no existe", "non trovata", "non esiste", "niet gevonden", "bestaat niet"]
PROBE_PATH = "/seo-audit-404-0123456789abcdef"


def says_not_found(text):
    lower = (text or "").lower()
    return "404" in re.split(r"[^\w]|_", lower) or any(p in lower for p in NOT_FOUND_PHRASES)


def soft_404(root, base, start, status, html_page, info):
    """(must, may, chance, closest): the pages soft-404 must report (a 200 HTML page whose title
    or first <h1> says it was not found, or whose own text the crawl finds like the site's own
    "not found" page with a chance of SURE_FOUND or more), those it may (a chance between
    NEVER_FOUND and SURE_FOUND), each compared page's chance, and its similarity to that page;
    with the probe URL itself when the site answers it 200."""
    must, may, chance, closest = set(), set(), {}, {}
    probe_url = join(base, PROBE_PATH)
    code, local, _ = answer(root, PROBE_PATH)
    probe = None
    if code == 200 and local and os.path.isfile(local):
        probe = read_page(probe_url, local)
    elif code == 404 and GITHUB_PAGES and os.path.isfile(os.path.join(root, "404.html")):
        probe = read_page(probe_url, os.path.join(root, "404.html"))
    # python's http.server answers its own short error page: fewer words than a signature needs.
    if code == 200:
        must.add("PROBE")
    probe_runs = getattr(probe, "own_runs", None)
    probe_counts = collections.Counter(probe_runs) if probe_runs is not None else None
    soft_404.compared = 0
    for url, page in info.items():
        if status.get(url) != 200 or not html_page.get(url):
            continue
        if says_not_found(page.title_key) or says_not_found(page.h1_key):
            must.add(url)
            continue
        if url == start or probe_counts is None or getattr(page, "own_runs", None) is None:
            continue
        predicted = expected_similarity(probe_counts, collections.Counter(page.own_runs))
        closest[url] = (predicted, "the site's \"not found\" page")
        soft_404.compared += 1
        found = binomial_tail(1 - predicted)
        chance[url] = (found, found)
        if found >= SURE_FOUND:
            must.add(url)
        elif found >= NEVER_FOUND:
            may.add(url)
    return must, may, chance, closest


def calibration(store, best):
    """How the crawl's own similarities (from its store's page records) stand against the exact
    ones: for each distinct pair of `best` (each page and its closest page), the crawl's count of
    differing bits h against the binomial the exact similarity predicts, as z = (h - 64p) /
    sqrt(64p(1 - p)). Over many pairs z has mean 0 and variance 1 when the signatures behave as
    docs/RULES.md says; a bias in what the crawl reads of the texts, or bits that are not
    independent, would move one or the other."""
    import sqlite3
    import statistics
    signatures = {}
    with sqlite3.connect(store) as db:
        for url, record in db.execute("SELECT url, record_json FROM crawl_pages WHERE record_json IS NOT NULL"):
            signature = json.loads(record).get("content_signature")
            if signature is not None:
                signatures[url] = signature & 0xFFFFFFFFFFFFFFFF
    zs, seen, unsigned = [], set(), 0
    for url, (predicted, other) in best.items():
        pair = tuple(sorted((url, other)))
        if pair in seen:
            continue
        seen.add(pair)
        if url not in signatures or other not in signatures:
            unsigned += 1
            continue
        p = 1 - predicted
        if p < 0.005:  # all but equal: no spread to measure
            continue
        h = bin(signatures[url] ^ signatures[other]).count("1")
        zs.append((h - 64 * p) / math.sqrt(64 * p * (1 - p)))
    if len(zs) < 2:
        return f"{len(zs)} pairs to measure"
    return (f"{len(zs)} pairs: z mean {statistics.mean(zs):+.2f}, variance {statistics.pvariance(zs):.2f}, "
            f"{sum(abs(z) > 3 for z in zs)} beyond 3" + (f"; {unsigned} pairs without a crawl signature" if unsigned else ""))


def own_text_disagreements(status, html_page, info, reader):
    """The pages whose own text the crawl's reader (`reader`: the `own_text` example of
    crates/crawl, OWN_TEXT=PATH) reads otherwise than the walk, word for word, for every page
    the near-copy rules compare (directory listings included); and how many were compared.
    The example splits the words as the signature does; the walk as run_keys does."""
    import subprocess
    import tempfile
    out, compared = [], 0
    with tempfile.TemporaryDirectory() as scratch:
        for url, page in sorted(info.items()):
            if not indexable(url, status, html_page, info) or getattr(page, "own_runs", None) is None:
                continue
            local = page.local
            if os.path.isdir(local):
                # The listing python's server (or serve.py) writes for the directory.
                local = os.path.join(scratch, "listing.html")
                with open(local, "w", encoding="utf-8", errors="surrogateescape") as f:
                    f.write(listing(page.local, urllib.parse.urlsplit(url).path))
                kind = "text/html; charset=utf-8"
            else:
                # As the page was served: python's http.server names no charset, serve.py does.
                kind = "text/html; charset=utf-8" if GITHUB_PAGES or EXTRA_REDIRECTS else "text/html"
            printed = subprocess.run([reader, local, url, kind], capture_output=True, text=True,
                                     check=True).stdout
            theirs = printed.split("\n", 1)[0].split()
            ours = words_of(page.own_text())
            compared += 1
            if theirs != ours:
                at = next((i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b), min(len(ours), len(theirs)))
                out.append(f"own text: {url}: the walk reads {len(ours)} words, the crawl {len(theirs)}, first "
                           f"differing at word {at}: {ours[at:at + 5]} against {theirs[at:at + 5]}")
    return out, compared


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
          "hreflang-to-bad-url", "hreflang-no-return-link", "hreflang-conflicting-targets",
          "hreflang-inconsistent-return"]
JUDGED_WITH_SITEMAP = ["not-in-sitemap", "sitemap-non-indexable-url", "orphan-page"]
JUDGED += ["linked-page-blocked-by-robots", "pagination-broken", "url-variant-duplicate", "duplicate-content",
           "structured-data-missing-in-template", "sitemap-error", "near-duplicate-content",
           "soft-404"]


def main():
    global GITHUB_PAGES, EXTRA_REDIRECTS
    GITHUB_PAGES = os.environ.get("GITHUB_PAGES") == "1"
    EXTRA_REDIRECTS = load_redirects()
    root, base, report = sys.argv[1], sys.argv[2], sys.argv[3]
    store = sys.argv[4] if len(sys.argv) > 4 else None
    robots = load_robots(root)
    sitemap, sitemap_errors = read_sitemaps(root, base, robots)
    start, depth, status, redirect, html_page, info, inlinks, followed_inlinks, skipped = \
        walk(root, base, sitemap, robots)
    with open(report, encoding="utf-8") as f:
        crawl = json.load(f)["crawl"]
    pages = {p["url"]: p for p in crawl["pages"]}
    disagreements = []
    for url in sorted(set(status) | set(pages) | skipped):
        p = pages.get(url)
        if url in skipped or (p is not None and p.get("state") == "skipped"):
            if p is None:
                disagreements.append(f"walk skipped {url} (robots.txt), the crawl did not reach it")
            elif url not in skipped:
                disagreements.append(f"the crawl skipped {url} ({p.get('reason')}), the walk did not")
            elif p.get("state") != "skipped":
                disagreements.append(f"{url}: the walk skipped it (robots.txt), the crawl did not")
            elif p.get("depth") != depth.get(url):
                disagreements.append(f"{url} (skipped): walk depth {depth.get(url)}, crawl depth {p.get('depth')}")
            continue
        if p is None:
            disagreements.append(f"walk reached {url} (HTTP {status[url]}), the crawl did not")
        elif url not in status:
            disagreements.append(f"the crawl reached {url} (HTTP {p.get('status_code')}), the walk did not")
        elif p.get("status_code") != status[url]:
            disagreements.append(f"{url}: walk HTTP {status[url]}, crawl HTTP {p.get('status_code')}")
        elif p.get("depth") != depth.get(url):
            disagreements.append(f"{url}: walk depth {depth.get(url)}, crawl depth {p.get('depth')}")
    expected = expected_findings(start, sitemap, depth, status, redirect, html_page, info, inlinks, followed_inlinks)
    expected.update(more_findings(status, html_page, info, inlinks, skipped, redirect))
    expected["sitemap-error"] = set(sitemap_errors)
    must, may, chance, closest = near_duplicates(status, html_page, info)
    expected["near-duplicate-content"] = must
    tolerated = {"near-duplicate-content": (may, chance)}
    must, may, chance_404, closest_404 = soft_404(root, base, start, status, html_page, info)
    expected["soft-404"] = must
    tolerated["soft-404"] = (may, chance_404)
    judged_rules = set(JUDGED)
    if sitemap is not None:
        expected.update(sitemap_findings(root, sitemap, status, html_page, info, skipped))
        judged_rules |= set(JUDGED_WITH_SITEMAP)
    else:
        expected.pop("orphan-page", None)
    # A rule lists at most 10000 findings, the first in URL order, and counts them all
    # (docs/RULES.md, "Bounds"): past the last URL listed, only the count can be compared.
    got, counts, listed_up_to = collections.defaultdict(set), {}, {}
    for issue in crawl["issues"]:
        if issue["kind"] == "site":
            # The site's answer to the one URL that never existed (soft-404): random digits each crawl.
            urls = ["PROBE" if re.search(r"/seo-audit-404-[0-9a-f]{16}$", u["url"]) else u["url"] for u in issue["urls"]]
            got[issue["id"]].update(urls)
            counts[issue["id"]] = issue.get("count", len(set(urls)))
            if issue.get("truncated") and urls:
                listed_up_to[issue["id"]] = max(urls)
    judged = sorted(set(expected) | judged_rules)
    print(f"site {root}: {len(status)} URLs walked ({sum(1 for u in status if html_page.get(u))} HTML pages), "
          f"{len(pages)} crawled" + ("" if sitemap is None else f", {len(sitemap)} in the sitemaps")
          + (f", {len(skipped)} kept out by robots.txt" if skipped else ""))
    for rule in sorted(set(judged) | set(got)):
        e, g = expected.get(rule, set()), got.get(rule, set())
        mark = "" if rule in judged else "  (not judged by the walk)"
        last = listed_up_to.get(rule)
        if last:
            mark += f"  (the crawl lists its findings up to {last} only)"
        print(f"  {rule}: crawl {counts.get(rule, len(g))} URLs, walk {len(e) if rule in judged else '-'}{mark}")
        if rule in judged:
            near = {"near-duplicate-content": closest, "soft-404": closest_404}.get(rule, {})
            why = (lambda u: f" (closest {near[u][1]} at {near[u][0]:.1%})" if u in near else "")
            disagreements += [f"{rule}: walk finds {u}, the crawl does not{why(u)}" for u in sorted(e - g)
                              if last is None or u <= last]
            disagreements += [f"{rule}: the crawl finds {u}, the walk does not{why(u)}" for u in sorted(g - e)
                              if u not in tolerated.get(rule, ((), {}))[0]]
            if rule == "near-duplicate-content" and store:
                print(f"    the crawl's similarities against the exact ones ({calibration(store, closest)})")
            if rule in tolerated:
                # The pages the crawl finds by chance, judged together: their chances add up to
                # what it should find, and it must find that many within four standard
                # deviations (the variance doubled: a pair found is two pages found at once).
                between, chances = tolerated[rule]
                low = sum(chances[u][0] for u in between)
                high = sum(chances[u][1] for u in between)
                spread = 4 * math.sqrt(2 * sum(max(p * (1 - p) for p in chances[u]) for u in between)) + 1
                allowed = (max(0.0, low - spread), high + spread)
                found = len(between & g)
                compared = (near_duplicates if rule == "near-duplicate-content" else soft_404).compared
                print(f"    of {compared} pages compared, {len(between)} more are found by chance: the crawl finds "
                      f"{found} of them, {low:.1f} to {high:.1f} expected, {allowed[0]:.0f} to {allowed[1]:.0f} allowed")
                if not allowed[0] <= found <= allowed[1]:
                    disagreements.append(f"{rule}: the crawl finds {found} of the {len(between)} pages found by "
                                         f"chance, where {low:.1f} to {high:.1f} are expected ({allowed[0]:.0f} "
                                         f"to {allowed[1]:.0f} allowed)")
            if last is not None and counts[rule] != len(e):
                disagreements.append(f"{rule}: the crawl counts {counts[rule]} URLs, the walk {len(e)}")
    if os.environ.get("OWN_TEXT"):
        differ, compared = own_text_disagreements(status, html_page, info, os.environ["OWN_TEXT"])
        print(f"  own text: {compared} pages read by the crawl's reader too, {len(differ)} read otherwise"
              + ("" if _unicode_regex else " (words split without the `regex` package: see WORD)"))
        disagreements += differ
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
