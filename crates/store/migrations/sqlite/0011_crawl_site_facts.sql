-- The site rules read a crawl from the store (docs/ARCHITECTURE.md, "Site crawl"): what
-- they ask of a page is kept in columns beside its record, with indexes, so that each of
-- their queries reads few rows and none holds the whole crawl in memory.
--
-- facts: 1 once the columns below were written from record_json (rows recorded before this
-- migration are filled in from their record when their crawl's site rules run).
-- dup_title, dup_description, dup_text: for an indexable page, a hash of its title, meta
-- description and visible text (NULL otherwise): the duplicate rules group pages by them.
-- In SQLite an index on crawl_id alone is ordered by rowid: the order pages are streamed.
ALTER TABLE crawl_pages ADD COLUMN facts INTEGER NOT NULL DEFAULT 0 CHECK (facts IN (0, 1));
ALTER TABLE crawl_pages ADD COLUMN redirect_to TEXT;
ALTER TABLE crawl_pages ADD COLUMN fetch_error TEXT;
ALTER TABLE crawl_pages ADD COLUMN noindex INTEGER NOT NULL DEFAULT 0 CHECK (noindex IN (0, 1));
ALTER TABLE crawl_pages ADD COLUMN dup_title TEXT;
ALTER TABLE crawl_pages ADD COLUMN dup_description TEXT;
ALTER TABLE crawl_pages ADD COLUMN dup_text TEXT;
CREATE INDEX crawl_pages_seq ON crawl_pages (crawl_id);
CREATE INDEX crawl_pages_redirect ON crawl_pages (crawl_id, redirect_to);
CREATE INDEX crawl_pages_dup_title ON crawl_pages (crawl_id, dup_title);
CREATE INDEX crawl_pages_dup_description ON crawl_pages (crawl_id, dup_description);
CREATE INDEX crawl_pages_dup_text ON crawl_pages (crawl_id, dup_text);
CREATE INDEX crawl_links_seq ON crawl_links (crawl_id);
