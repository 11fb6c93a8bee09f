-- PostgreSQL form of migrations/sqlite/0016_crawl_issue_locations.sql (conventions: 0001_init.sql).
--
-- locations: the elements a page rule's finding points at, JSON `{"total", "items"}`; NULL
-- when it points at none.
ALTER TABLE crawl_issues ADD COLUMN locations TEXT COLLATE "C";
