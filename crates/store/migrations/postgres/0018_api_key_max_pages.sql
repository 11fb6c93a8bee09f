-- PostgreSQL form of migrations/sqlite/0024_api_key_max_pages.sql (conventions: 0001_init.sql).
--
-- max_pages: the key's own pages per site crawl; NULL for the tier's cap.
ALTER TABLE api_keys ADD COLUMN max_pages BIGINT CHECK (max_pages IS NULL OR max_pages >= 1);
