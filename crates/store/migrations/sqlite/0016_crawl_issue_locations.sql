-- The elements a page rule's finding points at on a crawled page (docs/API.md, "Site crawl"):
-- JSON `{"total": n, "items": [location, ...]}`, each item a location as an audit lists it
-- (line, column, selector, snippet), at most 50 items and at most
-- MAX_ISSUE_LOCATIONS_BYTES of JSON (docs/SECURITY.md). NULL for a finding that points at
-- no element, for a site rule's finding, and for rows written before this column.
ALTER TABLE crawl_issues ADD COLUMN locations TEXT;
