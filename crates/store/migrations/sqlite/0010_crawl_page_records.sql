-- How many times a crawl recorded a URL's fetch result (and, for an HTML page, its audit):
-- 1 for every URL fetched once; a page fetched and audited again would show 2.
ALTER TABLE crawl_pages ADD COLUMN records INTEGER NOT NULL DEFAULT 0;
UPDATE crawl_pages SET records = 1 WHERE record_json IS NOT NULL;
