-- PostgreSQL form of migrations/sqlite/0013_crawl_pages_pruned.sql (conventions: 0001_init.sql).
--
-- pages_pruned_at: when an ended crawl's page rows were deleted by the retention sweep;
-- pruned_progress: its progress counts at that moment (JSON).
ALTER TABLE crawls ADD COLUMN pages_pruned_at TEXT COLLATE "C";
ALTER TABLE crawls ADD COLUMN pruned_progress TEXT COLLATE "C";
