-- The report page's pages table is sorted and filtered in the database (docs/API.md, "Site
-- crawl", "The report's pages table"): an index per column it filters or sorts by that no
-- index led by crawl_id covered (the URL is the key; depth leads no index after crawl_id
-- and state). A page's status and score are written once, when it is recorded.
CREATE INDEX crawl_pages_status ON crawl_pages (crawl_id, status);
CREATE INDEX crawl_pages_score ON crawl_pages (crawl_id, score);
CREATE INDEX crawl_pages_depth ON crawl_pages (crawl_id, depth);

-- Share links of a crawl's report page (docs/API.md, "Share links"): a link is a token
-- signed with the service's secret over its id, its crawl and its expiry; this row is what
-- makes it revocable and listable. Nothing secret is kept per link. At most 100 a crawl
-- (store::MAX_SHARES_PER_CRAWL); they go with their crawl.
CREATE TABLE crawl_shares (
    id         TEXT PRIMARY KEY NOT NULL,
    crawl_id   TEXT NOT NULL REFERENCES crawls (id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    revoked_at TEXT
);
CREATE INDEX crawl_shares_crawl ON crawl_shares (crawl_id, created_at);

-- The service's secrets, by name (hex): made at first use from the operating system's random
-- source, the same for every replica on the database. `crawl-share` signs the share links;
-- deleting the row voids every link made with it.
CREATE TABLE service_secrets (
    name       TEXT PRIMARY KEY NOT NULL,
    secret     TEXT NOT NULL,
    created_at TEXT NOT NULL
);
