#!/usr/bin/env python3
"""Judges page rules on real pages: audits each page with `seo-audit audit FILE --url URL` and
compares each rule's outcome (fail, pass, not applicable) with this script's own reading of
the same file, written from docs/RULES.md's definitions and sharing no code with the crawler
(python's html.parser, a stack of open elements, the head ended as the HTML standard ends it
in a browser running scripts).

  page_rules.py SEO_AUDIT_BINARY corpus CORPUS_PAGES_DIR        # its INDEX.tsv gives the URLs
  page_rules.py SEO_AUDIT_BINARY site SITE_DIR https://origin/   # every .html file of a site

A site's files are audited at the URLs the site is published at (`index.html` at its
directory's URL), so the rules about https apply as they do to the published site. With
EVERY=N only every Nth file is audited. Prints, for each rule, how many pages each side
failed, passed and left out, and every page where the two disagree; exits 1 on a
disagreement.

The rules judged: page-nosnippet, page-noimageindex, head-ended-early, image-alt-too-long,
hreflang-lang-mismatch, hreflang-conflicting-entries, link-to-http, form-insecure,
picture-without-img, canonical-fragment, url-multiple-slashes, meta-refresh (canonical-header-conflict reads
HTTP headers, which a file has none of: both sides must leave every page out).
"""

import concurrent.futures
import html.parser
import json
import os
import re
import subprocess
import sys
import tempfile
import urllib.parse

from walk import join, normalise, refresh_url

RULES = ["page-nosnippet", "page-noimageindex", "head-ended-early", "canonical-header-conflict",
         "image-alt-too-long", "hreflang-lang-mismatch", "hreflang-conflicting-entries", "link-to-http",
         "form-insecure", "picture-without-img", "canonical-fragment", "url-multiple-slashes", "meta-refresh"]
ALT_MAX_CHARS = 100
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr",
        "basefont", "bgsound", "frame", "keygen", "param"}
# What the HTML standard's "in head" insertion mode takes without ending the head.
HEAD_ELEMENTS = {"base", "basefont", "bgsound", "link", "meta", "title", "noscript", "noframes", "style", "script",
                 "template", "html", "head"}
RAW_TEXT = {"script", "style", "title", "textarea", "xmp", "iframe", "noembed", "noframes"}
ASCII_SPACE = " \t\n\f\r"


def collapse(text):
    return " ".join(t for t in re.split(f"[{ASCII_SPACE}]+", text) if t)


def hidden_by(attrs):
    if "hidden" in attrs or "inert" in attrs:
        return True
    if (attrs.get("aria-hidden") or "").strip().lower() == "true":
        return True
    style = (attrs.get("style") or "").lower()
    style = "".join(style.split())
    return any(d.removesuffix("!important") in ("display:none", "visibility:hidden") for d in style.split(";"))


class Facts(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []  # (name, hidden, noscript)
        self.phase = "head"  # until the head ends: "head", then "body"
        self.in_head_noscript = False
        self.raw = None
        self.lang = None
        self.base = None
        self.robots = []
        self.images = []  # (alt or None, hidden, in_noscript)
        self.links = []  # href
        self.hreflang = []  # (lang, href) in the head
        self.template_depth = 0
        self.head_closed = False  # </head>, </body>, </html> or <body> came while in the head
        self.ended_by = None  # what ended the head before the page closed it
        self.metadata = {"canonical": [0, 0], "description": [0, 0], "hreflang": [0, 0]}  # [head, body]
        self.head_canonical = None  # href of the first canonical link of the head
        self.forms = []  # (action or None, method or None)
        self.open_pictures = []  # for each open <picture>: the number of <img> before it
        self.pictures_without_img = 0
        # The first <meta http-equiv=refresh> a browser acts on, anywhere: True when it
        # redirects or reloads, False for a jump within the page (None: none acted on).
        self.refresh = None

    def hidden(self):
        return any(h for _, h, _ in self.stack)

    def in_noscript(self):
        return any(n for _, _, n in self.stack)

    def end_head(self):
        self.phase = "body"
        self.in_head_noscript = False

    def handle_starttag(self, tag, attrs_list):
        attrs = {}
        for k, v in attrs_list:
            attrs.setdefault(k, "" if v is None else v)
        # A <template>'s content is a fragment of its own, outside the document's tree.
        if self.template_depth:
            if tag == "template":
                self.template_depth += 1
            return
        if tag == "template":
            self.template_depth = 1
            return
        # The head as a browser running scripts builds it (docs/RULES.md): a <noscript> of the
        # head is text there, so nothing inside it ends the head.
        if self.phase == "head" and not self.in_head_noscript and (tag == "body" or tag not in HEAD_ELEMENTS):
            if tag == "body":
                self.head_closed = True
            elif not self.head_closed:
                self.ended_by = f"<{tag}>"
            self.end_head()
        where = 0 if self.phase == "head" else 1
        rels = (attrs.get("rel") or "").lower().split()
        if tag == "link" and "href" in attrs and "canonical" in rels:
            self.metadata["canonical"][where] += 1
            if where == 0 and self.head_canonical is None:
                self.head_canonical = attrs["href"]
        if tag == "form":
            # The tree builder drops a <form> inside an open one (HTML's form element pointer).
            if any(name == "form" for name, _, _ in self.stack):
                return
            self.forms.append((attrs.get("action"), attrs.get("method")))
        if tag == "meta" and (attrs.get("http-equiv") or "").lower() == "refresh" and "content" in attrs \
                and not self.in_noscript() and not self.in_head_noscript:
            if self.refresh is None:
                self.refresh = refresh_acted_on(attrs["content"])
        if tag == "link" and "href" in attrs and "alternate" in rels and "hreflang" in attrs:
            self.metadata["hreflang"][where] += 1
        if tag == "meta" and (attrs.get("name") or "").strip().lower() == "description" and "content" in attrs:
            self.metadata["description"][where] += 1
        if tag == "html" and self.lang is None and "lang" in attrs:
            self.lang = attrs["lang"]
        if tag == "base" and self.base is None and "href" in attrs:
            self.base = attrs["href"]
        if tag == "meta":
            name = (attrs.get("name") or "").strip().lower()
            if name in ("robots", "googlebot") and "content" in attrs:
                self.robots.extend(d.strip().lower() for d in attrs["content"].split(","))
        hidden = self.hidden() or hidden_by(attrs)
        if tag == "img":
            self.images.append((attrs.get("alt"), hidden, self.in_noscript()))
        if tag == "a" and "href" in attrs:
            self.links.append(attrs["href"])
        if tag == "link" and self.phase == "head" and "hreflang" in attrs and "href" in attrs:
            rels = (attrs.get("rel") or "").lower().split()
            if "alternate" in rels:
                self.hreflang.append((attrs["hreflang"], attrs["href"]))
        if tag == "noscript" and self.phase == "head":
            self.in_head_noscript = True
        if tag in VOID:
            return
        if tag == "picture":
            self.open_pictures.append(len(self.images))
        self.stack.append((tag, hidden, tag == "noscript" or self.in_noscript()))
        if tag in RAW_TEXT:
            self.raw = tag

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag):
        if self.template_depth:
            if tag == "template":
                self.template_depth -= 1
            return
        if self.phase == "head" and tag in ("head", "body", "html"):
            self.head_closed = True
        if tag == "noscript":
            self.in_head_noscript = False
        if tag == self.raw:
            self.raw = None
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                self.close_open(len(self.stack) - i)
                break

    def close_open(self, n):
        """Pops the n innermost open elements; a <picture> closed without an <img> since it
        opened is counted."""
        for name, _, _ in self.stack[-n:]:
            if name == "picture" and self.open_pictures:
                if len(self.images) == self.open_pictures.pop():
                    self.pictures_without_img += 1
        del self.stack[-n:]

    def close(self):
        super().close()
        # Elements still open at the end of the page are closed there.
        if self.stack:
            self.close_open(len(self.stack))

    def handle_data(self, data):
        if self.template_depth:
            return
        if self.phase == "head" and self.raw is None and not self.in_head_noscript and data.strip(ASCII_SPACE):
            if not self.head_closed:
                self.ended_by = "text"
            self.end_head()


def refresh_acted_on(content):
    """What a browser does with a refresh pragma's content (HTML's "shared declarative
    refresh steps"): None when it ignores it (a time of digits or a dot must come first, then
    nothing, or `;`, `,` or white space; a URL that does not parse is given up too), False for
    a URL of `#part`, which only scrolls within the page, True for a redirect or a reload."""
    acted = refresh_url(content)  # the walk's reading of the steps
    if acted is None:
        return None
    url = acted[0]
    if url is None:
        return True  # a reload
    try:
        urllib.parse.urlsplit(url.strip(ASCII_SPACE))
    except ValueError:
        return None
    return not url.startswith("#")


def read(path):
    with open(path, "rb") as f:
        raw = f.read()
    # A byte-order mark opens no text: browsers (and the audit) take it as the encoding's sign.
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return raw.decode(encoding)
        except UnicodeDecodeError:
            continue
    return raw.decode("utf-8", errors="replace")


def same_url(a, b):
    """Whether two absolute URLs name one page: the WHATWG spelling (walk.normalise), the
    default port dropped, the fragment ignored."""
    def norm(u):
        p = urllib.parse.urlsplit(normalise(u))
        netloc = p.netloc
        if (p.scheme, p.port) in (("http", 80), ("https", 443)):
            netloc = p.hostname
        return (p.scheme, netloc, p.path, p.query)
    try:
        return norm(a) == norm(b)
    except ValueError:
        return a.strip() == b.strip()


ALIASES = {"iw": "he", "in": "id", "ji": "yi", "nb": "no", "nn": "no"}


def language_script_region(tag):
    """Language (its usual code), script and region subtags, lower-case."""
    parts = re.split(r"[-_]", tag.strip())
    language = ALIASES.get(parts[0].lower(), parts[0].lower())
    rest = parts[1:]
    script = None
    if rest and len(rest[0]) == 4 and rest[0].isalpha() and rest[0].isascii():
        script = rest.pop(0).lower()
    region = None
    if rest and ((len(rest[0]) == 2 and rest[0].isalpha() and rest[0].isascii()) or (len(rest[0]) == 3 and rest[0].isdigit())):
        region = rest[0].lower()
    return language, script, region


def code_lists():
    """The ISO code lists `html-lang-invalid` and `hreflang-invalid-code` check tags against:
    data, read from the crate's source (whether a code exists is their rules' matter; the
    comparison below is this script's own)."""
    here = os.path.dirname(os.path.abspath(__file__))
    source = open(os.path.join(here, "../../crates/audit-core/src/rules/util.rs"), encoding="utf-8").read()

    def words(name):
        m = re.search(r"const " + name + r": &str =\s*\"(.*?)\";", source, re.S)
        return {w.lower() for w in re.sub(r"\\\n", " ", m.group(1)).split()}
    return words("ISO_639_1"), words("ISO_639_2_ONLY"), words("ISO_3166_1")


ISO_639_1, ISO_639_2_ONLY, ISO_3166_1 = code_lists()


def is_region(s):
    return (len(s) == 2 and s.lower() in ISO_3166_1) or (len(s) == 3 and s.isdigit() and s.isascii())


def valid_lang(tag):
    """A well-formed BCP 47 tag, as html-lang-invalid reads it (docs/RULES.md)."""
    if "_" in tag:
        return False
    parts = tag.split("-")
    lang, rest = parts[0], parts[1:]
    if not ((len(lang) == 2 and lang.lower() in ISO_639_1) or (len(lang) == 3 and lang.isalpha() and lang.isascii())):
        return False
    i = 0
    if i < len(rest) and len(rest[i]) == 4 and rest[i].isalpha() and rest[i].isascii():
        i += 1
    if i < len(rest) and is_region(rest[i]):
        i += 1
    tail = rest[i:]
    if not all(1 <= len(t) <= 8 and t.isalnum() and t.isascii() for t in tail):
        return False
    return not tail or len(tail[0]) >= 4 or len(tail[0]) == 1 or tail[0][0].isdigit()


def valid_hreflang(value):
    """A valid hreflang value, as hreflang-invalid-code reads it (docs/RULES.md)."""
    if value.lower() == "x-default":
        return True
    parts = value.split("-")
    language = lambda l: (len(l) == 2 and l.lower() in ISO_639_1) or (len(l) == 3 and l.lower() in ISO_639_2_ONLY)
    if len(parts) == 1:
        return language(parts[0])
    if len(parts) == 2:
        if len(parts[1]) != 4:
            return language(parts[0]) and is_region(parts[1])
        return language(parts[0]) and parts[1].isalpha() and parts[1].isascii()
    if len(parts) == 3:
        return language(parts[0]) and len(parts[1]) == 4 and parts[1].isalpha() and is_region(parts[2])
    return False


def expected(url, text):
    f = Facts()
    try:
        f.feed(text)
        f.close()
    except Exception as e:  # noqa: BLE001 - a page python's parser cannot read is reported
        return {"error": str(e)}
    base = join(url, f.base.strip()) if f.base else url
    https = url.lower().startswith("https://")
    out = {}
    noindex = any(d in ("noindex", "none") for d in f.robots)
    nosnippet = any(d == "nosnippet" or re.fullmatch(r"max-snippet\s*:\s*0", d) for d in f.robots)
    out["page-nosnippet"] = "not_applicable" if noindex else ("fail" if nosnippet else "pass")
    counted = [i for i in f.images if not i[1] and not i[2]]
    noimageindex = "noimageindex" in f.robots
    out["page-noimageindex"] = "not_applicable" if noindex or not counted else ("fail" if noimageindex else "pass")
    lost = [kind for kind, (head, body) in f.metadata.items() if body and (kind == "hreflang" or not head)]
    out["head-ended-early"] = "fail" if f.ended_by and lost else "pass"
    out["canonical-header-conflict"] = "not_applicable"
    alts = [collapse(a) for a, _, _ in counted if a is not None and collapse(a)]
    out["image-alt-too-long"] = ("not_applicable" if not alts else
                                 "fail" if any(len(a) > ALT_MAX_CHARS for a in alts) else "pass")
    lang = (f.lang or "").strip()
    selves = []
    for hl, href in f.hreflang:
        hl = hl.strip()
        if hl.lower() == "x-default" or not valid_hreflang(hl):
            continue
        try:
            target = join(base, href.strip())
        except ValueError:
            continue
        if same_url(target, url):
            selves.append(hl)
    if not lang or not valid_lang(lang) or not selves:
        out["hreflang-lang-mismatch"] = "not_applicable"
    else:
        language, script, region = language_script_region(lang)
        differ = False
        for hl in selves:
            l, s_, r = language_script_region(hl)
            if l != language or (s_ and script and s_ != script) or (r and region and r != region):
                differ = True
        out["hreflang-lang-mismatch"] = "fail" if differ else "pass"
    entries = []
    for hl, href in f.hreflang:
        hl = hl.strip()
        if hl.lower() == "x-default" or not valid_hreflang(hl):
            continue
        try:
            entries.append((hl.lower(), join(base, href.strip())))
        except ValueError:
            continue
    if not f.hreflang:
        out["hreflang-conflicting-entries"] = "not_applicable"
    else:
        conflict = False
        for i, (code, target) in enumerate(entries):
            for other_code, other_target in entries[:i]:
                if code == other_code and not same_url(target, other_target):
                    conflict = True
                if (code != other_code and same_url(target, other_target)
                        and language_script_region(code)[0] != language_script_region(other_code)[0]):
                    conflict = True
        out["hreflang-conflicting-entries"] = "fail" if conflict else "pass"
    web = []
    for href in f.links:
        href = href.strip(ASCII_SPACE)
        try:
            target = join(base, href)
        except ValueError:
            continue
        scheme = target.split(":", 1)[0].lower() if ":" in target else ""
        try:
            # A URL whose port is no number (`http://host:port/`) is no URL a browser follows.
            # and a host with a space in it is none either.
            parts = urllib.parse.urlsplit(target)
            parts.port
            valid = " " not in (parts.hostname or "")
        except ValueError:
            valid = False
        if scheme in ("http", "https") and href and not href.startswith("#") and valid:
            web.append(target)
    if not https or not web:
        out["link-to-http"] = "not_applicable"
    else:
        out["link-to-http"] = "fail" if any(t.lower().startswith("http://") for t in web) else "pass"
    # HTML's form submission: an empty or missing action is the document's own URL (not the
    # base URL); a dialog form sends nothing.
    submitting = [(a, m) for a, m in f.forms if (m or "").strip(ASCII_SPACE).lower() != "dialog"]
    if not submitting:
        out["form-insecure"] = "not_applicable"
    else:
        def to_http(action):
            # A white-space-only action resolves against the base URL, as the URL parser
            # drops the spaces.
            empty = not action
            action = (action or "").strip(ASCII_SPACE)
            try:
                target = url if empty else join(base, action)
            except ValueError:
                return False
            return target.lower().startswith("http://")
        out["form-insecure"] = "fail" if not https or any(to_http(a) for a, _ in submitting) else "pass"
    if f.pictures_without_img:
        out["picture-without-img"] = "fail"
    else:
        out["picture-without-img"] = "pass" if f.images else "not_applicable"
    # A relative reference cannot bring a fragment the href does not write.
    if f.head_canonical is None:
        out["canonical-fragment"] = "not_applicable"
    else:
        out["canonical-fragment"] = "fail" if "#" in f.head_canonical else "pass"
    out["url-multiple-slashes"] = "fail" if "//" in urllib.parse.urlsplit(url).path else "pass"
    out["meta-refresh"] = "fail" if f.refresh else "pass"  # None (no refresh) and a jump pass
    return out


def audited(binary, data, path, url):
    run = subprocess.run([binary, "audit", path, "--url", url, "--format", "json", "--data", data],
                         capture_output=True, text=True, timeout=120)
    if run.returncode not in (0, 1):
        return {"error": run.stderr.strip()[:300]}
    result = json.loads(run.stdout)
    checks = result.get("checks") or result.get("audit", {}).get("checks") or []
    return {c["id"]: c["status"] for c in checks if c["id"] in RULES}


def targets(mode, where, origin=None):
    if mode == "corpus":
        # A page whose index row gives no original URL is audited at the URL its browser facts
        # name (the one Chromium was told).
        facts = {}
        with open(os.path.join(where, "browser-facts.jsonl"), encoding="utf-8") as f:
            for line in f:
                row = json.loads(line)
                facts[row["file"]] = row.get("url") or ""
        with open(os.path.join(where, "INDEX.tsv"), encoding="utf-8") as f:
            header = f.readline().rstrip("\n").split("\t")
            for line in f:
                row = dict(zip(header, line.rstrip("\n").split("\t")))
                url = row["original_url"] or facts.get(row["file"], "")
                if url:
                    yield os.path.join(where, row["file"]), url
                else:
                    print(f"  skipped: {row['file']} has no URL", file=sys.stderr)
        return
    for root, dirs, files in os.walk(where):
        dirs.sort()
        for name in sorted(files):
            if not name.endswith(".html"):
                continue
            rel = os.path.relpath(os.path.join(root, name), where).replace(os.sep, "/")
            path = rel[: -len("index.html")] if name == "index.html" else rel
            yield os.path.join(root, name), urllib.parse.urljoin(origin, urllib.parse.quote(path))


def main():
    binary, mode, where = sys.argv[1], sys.argv[2], sys.argv[3]
    origin = sys.argv[4] if mode == "site" else None
    every = int(os.environ.get("EVERY", "1"))
    pages = list(targets(mode, where, origin))[::every]
    scratch = tempfile.TemporaryDirectory()
    data = scratch.name
    totals = {r: {"fail": [0, 0], "pass": [0, 0], "not_applicable": [0, 0]} for r in RULES}
    disagreements = []
    errors = []

    def one(item):
        path, url = item
        return path, url, audited(binary, data, path, url), expected(url, read(path))

    with concurrent.futures.ThreadPoolExecutor(max_workers=int(os.environ.get("JOBS", "2"))) as pool:
        for path, url, got, want in pool.map(one, pages):
            if "error" in got or "error" in want:
                errors.append((url, got.get("error"), want.get("error")))
                continue
            for rule in RULES:
                # A rule the binary does not know (an older build) disagrees on every page.
                g, w = got.get(rule, "missing"), want[rule]
                totals[rule].setdefault(g, [0, 0])[0] += 1
                totals[rule][w][1] += 1
                if g != w:
                    disagreements.append((rule, url, g, w))
    print(f"{len(pages)} pages ({mode} {where}), {len(errors)} not read")
    for url, g, w in errors[:10]:
        print(f"  not read: {url}: audit {g!r}, walk {w!r}")
    for rule in RULES:
        t = totals[rule]
        print(f"  {rule}: fail {t['fail'][0]}/{t['fail'][1]}, pass {t['pass'][0]}/{t['pass'][1]}, "
              f"not applicable {t['not_applicable'][0]}/{t['not_applicable'][1]} (audit/walk)")
    for rule, url, g, w in disagreements[:60]:
        print(f"  DISAGREE {rule}: {url}: audit {g}, walk {w}")
    print(f"{len(disagreements)} disagreements")
    scratch.cleanup()
    sys.exit(1 if disagreements or errors else 0)


if __name__ == "__main__":
    main()
