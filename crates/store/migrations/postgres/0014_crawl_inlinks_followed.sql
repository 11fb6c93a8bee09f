-- PostgreSQL form of migrations/sqlite/0014_crawl_inlinks_followed.sql (conventions: 0001_init.sql).
--
-- followed: how many of a URL's inlinks the crawl follows; rows recorded before count as
-- followed (not known).
ALTER TABLE crawl_inlinks ADD COLUMN followed BIGINT NOT NULL DEFAULT 0;
UPDATE crawl_inlinks SET followed = n;
