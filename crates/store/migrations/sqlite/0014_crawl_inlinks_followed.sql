-- How many of a URL's inlinks the crawl follows (docs/RULES.md, nofollow-only-inlinks): a
-- link without rel nofollow, ugc or sponsored on a page without a page-wide nofollow. Each
-- linking page counts once, as in n; followed <= n.
--
-- Rows recorded before are counted as followed: whether their links were followed is not
-- known, and the rule must then stay silent rather than report every page.
ALTER TABLE crawl_inlinks ADD COLUMN followed INTEGER NOT NULL DEFAULT 0;
UPDATE crawl_inlinks SET followed = n;
