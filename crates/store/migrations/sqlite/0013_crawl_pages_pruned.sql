-- An ended crawl's pages can be pruned by age while the crawl row, its summary and its
-- issue counts stay (docs/API.md, "Running the service", retention): pages_pruned_at is when
-- its page rows (crawl_pages, crawl_inlinks, crawl_sitemap_urls) were deleted, and
-- pruned_progress its progress counts at that moment (JSON: they are counted from
-- crawl_pages, which is then empty).
ALTER TABLE crawls ADD COLUMN pages_pruned_at TEXT;
ALTER TABLE crawls ADD COLUMN pruned_progress TEXT;
