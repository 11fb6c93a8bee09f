-- PostgreSQL form of migrations/sqlite/0012_crawl_inlinks.sql (conventions: 0001_init.sql).
--
-- Inlinks kept per linked URL (one row each, counted into when a page is recorded)
-- instead of a row per link. A WITHOUT ROWID table in SQLite, so no rowid here.
-- n: links to url from other pages; first_seq, first_from: the crawl_pages rowid and URL
-- of the linking page first in crawl order.
CREATE TABLE crawl_inlinks (
    crawl_id   TEXT COLLATE "C" NOT NULL REFERENCES crawls (id) ON DELETE CASCADE,
    url        TEXT COLLATE "C" NOT NULL,
    n          BIGINT NOT NULL,
    first_seq  BIGINT,
    first_from TEXT COLLATE "C",
    PRIMARY KEY (crawl_id, url)
);
INSERT INTO crawl_inlinks (crawl_id, url, n, first_seq)
    SELECT l.crawl_id, l.to_url, COUNT(*), MIN(p.rowid) FROM crawl_links l
    JOIN crawl_pages p ON p.crawl_id = l.crawl_id AND p.url = l.from_url
    WHERE l.from_url <> l.to_url GROUP BY l.crawl_id, l.to_url;
UPDATE crawl_inlinks SET first_from = (SELECT p.url FROM crawl_pages p
    WHERE p.crawl_id = crawl_inlinks.crawl_id AND p.rowid = crawl_inlinks.first_seq);
-- A page's links are in its record (record_json); with the inlinks counted here, the
-- table of every link is no longer read.
DROP TABLE crawl_links;
-- How a linked URL answered, read from the index alone: the answer's columns come after
-- record_json in the row, and reading them from the table walks the record's overflow
-- pages (20 KB of JSON for a page of 150 links).
CREATE INDEX crawl_pages_answer ON crawl_pages (crawl_id, url, facts, status, fetch_error, redirect_to, html, noindex);
