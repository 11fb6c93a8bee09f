-- Inlinks kept per linked URL instead of a row per link (docs/PERFORMANCE.md, "Site
-- crawl"). crawl_links held every link of every page, four times over (the table, its key
-- and two indexes, one of them by to_url, where every insert lands in a random place): a
-- 2,000-page crawl of 150 links a page wrote 350,000 rows, 120 MB, and its inserts missed
-- SQLite's page cache almost every time. crawl_inlinks has one row per linked URL, counted
-- into when a page is recorded.
--
-- WITHOUT ROWID: the row lives in its key's b-tree, so counting a link is one b-tree
-- change, not two (the key's index and the row).
--
-- n: links to url from other pages (each linking page once); first_seq, first_from: the
-- crawl_pages rowid and URL of the linking page first in crawl order.
CREATE TABLE crawl_inlinks (
    crawl_id   TEXT NOT NULL REFERENCES crawls (id) ON DELETE CASCADE,
    url        TEXT NOT NULL,
    n          INTEGER NOT NULL,
    first_seq  INTEGER,
    first_from TEXT,
    PRIMARY KEY (crawl_id, url)
) WITHOUT ROWID;
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
