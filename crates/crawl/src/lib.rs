//! The site crawl engine (docs/RULES.md, "Site rules"): pure logic, no I/O.
//!
//! - [`normalize`] and [`Scope`]: the one spelling of a URL, and what a crawl may visit
//!   (same site, a `www.` twin included; include and exclude prefixes; depth and page caps).
//! - [`outlinks`] and [`CrawledPage`]: the small records kept of a fetched page.
//! - [`Frontier`] over a [`FrontierStore`]: breadth first with click depth, robots.txt for
//!   [`USER_AGENT_TOKEN`], politeness as data; [`MemoryStore`] keeps it in memory.
//! - [`Sitemaps`] and [`parse_sitemap`]: sitemap discovery and bounded parsing.
//! - [`SITE_RULES`], [`run_site_rules`] and [`site_score`]: what only a crawl can see.
//! - [`Extractors`]: the values a crawl pulls out of each page (custom extraction).
//!
//! A runner drives a crawl like this (the application layer does the same with real
//! fetches, its database as the [`FrontierStore`], several fetches at once, and the page
//! rules on each HTML page):
//!
//! ```
//! use std::collections::BTreeSet;
//! use audit_core::{audit, HttpFacts, Page};
//! use crawl::*;
//!
//! // A site of two pages: what the network would answer.
//! let get = |url: &str| -> (u16, &'static [u8]) {
//!     match url {
//!         "https://shop.test/" => (200, b"<title>Home</title><a href='/about'>About</a><a href='/gone'>Old</a>"),
//!         "https://shop.test/about" => (200, b"<title>About</title><a href='/'>Home</a>"),
//!         _ => (404, b""),
//!     }
//! };
//! let scope = Scope::new("https://shop.test/", ScopeConfig::default()).unwrap();
//! let mut frontier = Frontier::resume(MemoryStore::new(), scope.clone(), Limits::default()).unwrap();
//! let mut sitemaps = Sitemaps::new(scope.start(), SitemapLimits::default());
//! let (mut pages, mut sitemap_urls) = (Vec::new(), BTreeSet::new());
//! while !frontier.is_finished().unwrap() {
//!     for work in frontier.next_work().unwrap() {
//!         match work {
//!             Work::Robots { url } => {
//!                 let (status, body) = get(&url);
//!                 for sitemap in frontier.set_robots(&url, robots_from_answer(Some(status), body)) {
//!                     let _relative_line = sitemaps.add_source(&sitemap);
//!                 }
//!                 while let Some(next) = sitemaps.next_url().map(str::to_string) {
//!                     let (status, body) = get(&next);
//!                     for url in sitemaps.record(&next, Some(status), body).urls {
//!                         frontier.add_sitemap_url(&url).unwrap();
//!                         sitemap_urls.insert(url);
//!                     }
//!                 }
//!             }
//!             Work::Fetch(entry) => {
//!                 let (status, body) = get(&entry.url);
//!                 let record = if status == 200 {
//!                     let page = Page::parse(&entry.url, body, HttpFacts::new().with_status(status));
//!                     let score = audit(page.clone()).score().percentage;
//!                     CrawledPage::from_page(&entry.url, entry.depth, &page, &scope, Some(score))
//!                 } else {
//!                     CrawledPage::answered(&entry.url, entry.depth, status, None)
//!                 };
//!                 frontier.record(entry, Outcome::Answered(&record)).unwrap();
//!                 pages.push(record);
//!             }
//!         }
//!     }
//! }
//! let results = run_site_rules(&pages, &sitemap_urls, sitemaps.any_read());
//! let broken_link = rules::broken_internal_link::BrokenInternalLink.meta().id;
//! let broken = results.iter().find(|r| r.id == broken_link).unwrap();
//! assert_eq!(broken.findings[0].url, "https://shop.test/gone");
//! assert_eq!(broken.findings[0].linked_from.as_deref(), Some("https://shop.test/"));
//! let score = site_score(pages.iter().filter_map(|p| p.score), pages.len(), &results).unwrap();
//! assert!(score.score < 100);
//! ```
//!
//! Architecture Invariant: no async runtime, HTTP client or database (CI checks
//! `cargo tree -p crawl -e normal`); the application layer fetches and stores.

#![warn(missing_docs)]

mod docs;
mod external;
mod extract;
mod frontier;
mod page;
mod profile;
pub mod rules;
mod score;
mod sitemap;
mod urls;

pub use docs::{site_rule_markdown, site_rules_markdown};
pub use external::{
    ExternalBudget, ExternalLinks, ExternalOutcome, NotChecked, DEFAULT_EXTERNAL_BUDGET, DEFAULT_EXTERNAL_TIMEOUT_SECS,
    EXTERNAL_IN_FLIGHT, EXTERNAL_PER_HOST, UNREACHABLE_HOSTS,
};
pub use extract::{
    ExtractorError, ExtractorSpec, Extractors, EXTRACT_ALL_SEPARATOR, EXTRACT_REGEX_SIZE_LIMIT, MAX_EXTRACTORS,
    MAX_EXTRACTOR_NAME_BYTES, MAX_EXTRACTOR_PATTERN_BYTES, MAX_EXTRACT_VALUE_BYTES,
};
pub use frontier::{
    cut_marked, robots_from_answer, Counts, Entry, Frontier, FrontierStore, Limits, MemoryStore, Outcome, Source,
    State, Work, DEFAULT_MAX_IN_FLIGHT, DEFAULT_MAX_KNOWN_URLS, MAX_CRAWL_DELAY, MAX_REASON_BYTES, SEEN_CACHE,
    SEEN_PARENT_BYTES, USER_AGENT_TOKEN,
};
pub use page::{
    content_signature, outlinks, own_text_pieces, recorded_outlinks, signature_similarity, text_hash, CrawledPage,
    Outlink, RichResultError, TextFacts, MAX_RECORDED_ANCHOR_BYTES, MAX_RECORDED_HREFLANG, MAX_RECORDED_HREFLANG_BYTES,
    MAX_RECORDED_LANG_BYTES, MAX_RECORDED_LINKS, MAX_RECORDED_LINK_BYTES, MAX_RECORDED_PATH_BYTES,
    MAX_RECORDED_TEXT_BYTES, MAX_RECORDED_TYPE_BYTES, MAX_RECORDED_URL_BYTES, MAX_RECORD_BYTES, MAX_RICH_RESULT_ERRORS,
    MAX_STRUCTURED_DATA_TYPES, MIN_SIGNATURE_WORDS,
};
pub use profile::{CrawlerProfile, SMARTPHONE_TOKEN, SMARTPHONE_USER_AGENT};
pub use rules::{
    check_site, check_site_with, each_link, each_page, not_found_probe_path, run_site_rules, site_rule_by_id, Answer,
    CrawledSite, DuplicateGroup, DuplicateKey, EdgeAnswer, EdgeBot, EdgeProbe, Findings, LinkCache, Next,
    NotFoundProbe, Reads, Scan, ScanResult, SiteError, SiteFinding, SiteIndex, SiteResult, SiteRule, SiteRuleMeta,
    SiteRuleResult, SiteTotals, DUPLICATE_HEAD, EDGE_PROBE_BOTS, MAX_EDGE_SAMPLE, MAX_FINDINGS_PER_RULE,
    NEAR_DUPLICATE_SIMILARITY, NEAR_DUPLICATE_THRESHOLDS, ROBOTS_REASON_PREFIX, SITE_RULES,
};
pub use score::{site_score, site_score_of, SiteScore, SEVERITY_PENALTY};
pub use sitemap::{
    parse_sitemap, ParsedSitemap, SitemapError, SitemapKind, SitemapLimits, SitemapProblem, SitemapRead, Sitemaps,
    SITEMAP_NAMESPACE,
};
pub use urls::{
    normalize, normalize_relative, normalize_serialized, OutOfScope, PatternError, Scope, ScopeConfig, Site,
    StripParams, UrlError, UrlPatterns, MAX_STRIP_PARAMS, MAX_STRIP_PARAM_LEN, MAX_URL_PATTERNS, MAX_URL_PATTERN_LEN,
    URL_PATTERN_SIZE_LIMIT,
};
