-- Site crawls (docs/API.md, "Site crawl"): one row per crawl, one row per URL of its
-- frontier (the frontier entry and, once fetched, what the crawl keeps of the page), the
-- links between its pages, the URLs its sitemaps list and the issues found (page rules on
-- each page as it is recorded, site rules when the crawl ends).
--
-- A crawl is driven by the replica that holds its lease (claimed_by, claimed_until), like a
-- workflow run (docs/ARCHITECTURE.md, "Replicas"); a page being fetched names the worker that
-- claimed it, and is queued again only when that worker no longer holds the crawl's lease.
CREATE TABLE crawls (
    id            TEXT PRIMARY KEY NOT NULL,
    user_id       TEXT REFERENCES users (id) ON DELETE SET NULL,
    url           TEXT NOT NULL,
    state         TEXT NOT NULL CHECK (state IN ('queued', 'running', 'completed', 'cancelled', 'failed')),
    options_json  TEXT NOT NULL,
    max_pages     INTEGER NOT NULL,
    site_score    INTEGER,
    summary_json  TEXT,
    error         TEXT,
    resumes       INTEGER NOT NULL DEFAULT 0,
    created_at    TEXT NOT NULL,
    started_at    TEXT,
    finished_at   TEXT,
    claimed_by    TEXT,
    claimed_until TEXT
);
CREATE INDEX crawls_user ON crawls (user_id, created_at);
CREATE INDEX crawls_lease ON crawls (state, claimed_until);

CREATE TABLE crawl_pages (
    crawl_id     TEXT NOT NULL REFERENCES crawls (id) ON DELETE CASCADE,
    url          TEXT NOT NULL,
    depth        INTEGER,
    found_from   TEXT,
    source       TEXT NOT NULL,
    state        TEXT NOT NULL CHECK (state IN ('queued', 'fetching', 'done', 'failed', 'skipped')),
    status       INTEGER,
    reason       TEXT,
    claimed_by   TEXT,
    html         INTEGER NOT NULL DEFAULT 0 CHECK (html IN (0, 1)),
    title        TEXT,
    score        INTEGER,
    inlinks      INTEGER NOT NULL DEFAULT 0,
    failed_rules TEXT NOT NULL DEFAULT '[]',
    record_json  TEXT,
    PRIMARY KEY (crawl_id, url)
);
CREATE INDEX crawl_pages_queue ON crawl_pages (crawl_id, state, depth);

CREATE TABLE crawl_links (
    crawl_id TEXT NOT NULL REFERENCES crawls (id) ON DELETE CASCADE,
    from_url TEXT NOT NULL,
    to_url   TEXT NOT NULL,
    anchor   TEXT NOT NULL,
    internal INTEGER NOT NULL CHECK (internal IN (0, 1)),
    nofollow INTEGER NOT NULL CHECK (nofollow IN (0, 1)),
    PRIMARY KEY (crawl_id, from_url, to_url)
);
CREATE INDEX crawl_links_to ON crawl_links (crawl_id, to_url);

CREATE TABLE crawl_sitemap_urls (
    crawl_id TEXT NOT NULL REFERENCES crawls (id) ON DELETE CASCADE,
    url      TEXT NOT NULL,
    PRIMARY KEY (crawl_id, url)
);

-- kind 'page': a page rule failed on url; kind 'site': a site rule's finding.
CREATE TABLE crawl_issues (
    crawl_id    TEXT NOT NULL REFERENCES crawls (id) ON DELETE CASCADE,
    kind        TEXT NOT NULL CHECK (kind IN ('page', 'site')),
    rule_id     TEXT NOT NULL,
    severity    TEXT NOT NULL,
    url         TEXT NOT NULL,
    linked_from TEXT,
    detail      TEXT NOT NULL
);
CREATE INDEX crawl_issues_rule ON crawl_issues (crawl_id, rule_id);
CREATE INDEX crawl_issues_url ON crawl_issues (crawl_id, url);
