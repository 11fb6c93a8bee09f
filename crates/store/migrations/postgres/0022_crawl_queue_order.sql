-- PostgreSQL form of migrations/sqlite/0021_crawl_queue_order.sql (conventions: 0001_init.sql).
--
-- The frontier's claim reads a crawl's queued URLs in the order `depth, rowid`. Without the
-- rowid, the queue index gave the depth order only, and each claim sorted every queued URL
-- of the shallowest depth to take its first few (an Incremental Sort over the whole level:
-- hundreds of thousands of rows on a frontier of a million URLs). SQLite's indexes end
-- with the rowid implicitly; this one now does so explicitly.
DROP INDEX crawl_pages_queue;
CREATE INDEX crawl_pages_queue ON crawl_pages (crawl_id, state, depth, rowid);
