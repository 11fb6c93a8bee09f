-- A key's own pages per site crawl (docs/API.md, "Running the service"): set by the operator
-- (`seo-audit keys create --max-pages N`, `seo-audit keys set ID --max-pages N`) to raise or
-- lower the cap of the key's tier for that key alone. NULL: the tier's cap (the `[max_pages]`
-- settings), as for every key made before this column.
ALTER TABLE api_keys ADD COLUMN max_pages INTEGER CHECK (max_pages IS NULL OR max_pages >= 1);
