//! The site crawl engine (docs/API.md, "Site crawl"): pure logic, no I/O.
//!
//! - [`normalize`] and [`Scope`]: the one spelling of a URL, and what a crawl may visit
//!   (same site, a `www.` twin included; include and exclude prefixes; depth and page caps).
//! - [`outlinks`] and [`CrawledPage`]: the small records kept of a fetched page.
//! - [`Frontier`] over a [`FrontierStore`]: breadth first with click depth, robots.txt for
//!   [`USER_AGENT_TOKEN`], politeness as data; [`MemoryStore`] keeps it in memory.
//! - [`Sitemaps`] and [`parse_sitemap`]: sitemap discovery and bounded parsing.
//! - [`SITE_RULES`], [`run_site_rules`] and [`site_score`]: what only a crawl can see.
//!
//! Architecture Invariant: no async runtime, HTTP client or database (CI checks
//! `cargo tree -p crawl -e normal`); the application layer fetches and stores.

#![warn(missing_docs)]

mod docs;
mod frontier;
mod page;
pub mod rules;
mod score;
mod sitemap;
mod urls;

pub use docs::site_rules_markdown;
pub use frontier::{
    robots_from_answer, Counts, Entry, Frontier, FrontierStore, Limits, MemoryStore, Outcome, Source, State,
    UnknownName, Work, DEFAULT_MAX_IN_FLIGHT, DEFAULT_MAX_KNOWN_URLS, MAX_CRAWL_DELAY, USER_AGENT_TOKEN,
};
pub use page::{outlinks, text_hash, CrawledPage, Outlink};
pub use rules::{
    run_site_rules, site_rule_by_id, SiteFinding, SiteIndex, SiteRule, SiteRuleMeta, SiteRuleResult, SITE_RULES,
};
pub use score::{site_score, SiteScore, SEVERITY_PENALTY};
pub use sitemap::{parse_sitemap, ParsedSitemap, SitemapError, SitemapKind, SitemapLimits, SitemapRead, Sitemaps};
pub use urls::{normalize, normalize_relative, OutOfScope, Scope, ScopeConfig, Site, UrlError};
