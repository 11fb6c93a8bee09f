//! AI visibility: how a site presents itself to AI crawlers and assistants.
//!
//! Pure engines, no I/O: callers fetch `/robots.txt` and `/llms.txt` and hand the
//! bodies in. Parsing never fails; oddities are data on the result. The one exception,
//! asking an AI search provider over the network, is compiled only with the `provider`
//! feature (off by default; the server enables it), so that without it the crate links no
//! async runtime and no HTTP client (`.ci/run` checks this).
//!
//! - [`Robots`]: a robots.txt parsed per RFC 9309 with the documented behaviour of
//!   Google's reference parser (groups, longest match, `Allow` wins ties, `*` and `$`,
//!   percent-encoding normalisation, BOM, CR/LF/CRLF, over-long lines, accepted typos).
//!   [`Robots::verdict`] answers for one user agent and URL and names the deciding
//!   rule and its line, and [`Robots::deciding_group`] the group that held it;
//!   [`Robots::sitemaps`], [`Robots::crawl_delay`] and [`Robots::stats`] give the
//!   rest. Helpers from the reference: [`get_path_params_query`], [`escape_pattern`],
//!   [`is_valid_user_agent`].
//! - [`LlmsTxt`]: an llms.txt parsed and validated against the llmstxt.org format;
//!   [`LlmsTxt::valid`] is true when no [`Issue`] is an error, and
//!   [`LlmsTxt::report`] builds the `llms_txt` object of `/api/ai-readiness`
//!   ([`LlmsTxtReport`]).
//! - [`AI_BOTS`]: the one table of AI crawlers ([`AiBot`]: token, operator,
//!   [`Purpose`]); [`NAMED_BOTS`] are the three the interface names.
//!   [`ai_crawlers`] judges each one under a robots.txt ([`CrawlerVerdict`]: verdict, the
//!   deciding group's user-agent lines, the deciding rule and its line),
//!   [`ai_bot_access`] gives the same reading as [`BotAccess`], and
//!   [`RobotsTxtReport`] is the `robots_txt` object of `/api/ai-readiness`.
//!
//! - [`SemanticHtml`]: landmarks and the heading outline of an audit-core [`audit_core::Page`].
//! - [`ai_readiness`]: the `/api/ai-readiness` body ([`AiReadiness`]), scored by
//!   [`READINESS_POINTS`].
//! - [`ai_visibility_scan`]: the deterministic four-pillar scan ([`AiVisibilityScan`]);
//!   every point comes from a named check of [`SCAN_CHECKS`], documented in
//!   `docs/AI-VISIBILITY.md` ([`scan_methodology_markdown`]).
//! - [`generate_queries`] and, with the `provider` feature, `geo_check`: the query-based
//!   visibility check against an [`AiSearchProvider`]; `OpenAiCompatibleProvider` (also
//!   `provider`) talks to any OpenAI-compatible chat-completions service through the
//!   `fetch` crate (the only I/O of this crate).
//!
//! ```
//! use ai_visibility::{ai_bot_access, LlmsTxt, Robots};
//!
//! let robots = Robots::parse(b"User-agent: *\nDisallow: /admin\n\nUser-agent: GPTBot\nDisallow: /\n");
//! assert!(!robots.is_allowed("GPTBot", "https://example.com/blog/post"));
//! assert!(robots.is_allowed("ClaudeBot", "/blog/post"));
//! assert_eq!(robots.verdict("ClaudeBot", "/admin/x").matched_rule.as_deref(), Some("Disallow: /admin"));
//!
//! let access = ai_bot_access(Some(&robots), "/");
//! let gpt = access.iter().find(|a| a.bot == "GPTBot").unwrap();
//! assert!(gpt.blocked);
//! assert_eq!(gpt.rule.as_deref(), Some("Disallow: /"));
//!
//! let llms = LlmsTxt::parse("# Example\n\n> What it is.\n\n## Docs\n\n- [Guide](https://example.com/guide.md): start here\n");
//! assert!(llms.valid());
//! assert_eq!(llms.sections[0].links[0].notes.as_deref(), Some("start here"));
//! ```
//!
//! ```
//! use ai_visibility::{ai_readiness, ai_visibility_scan, generate_queries, Robots};
//! use audit_core::{HttpFacts, Page};
//!
//! let html = r#"<html lang="en"><head><title>Acme | Widgets</title></head>
//!   <body><main><h1>Widgets</h1><p>Acme makes widgets for every kind of workshop and garage.</p></main></body></html>"#;
//! let page = Page::parse("https://acme.com/", html.as_bytes(), HttpFacts::default());
//! let robots = Robots::parse(b"User-agent: GPTBot\nDisallow: /\n");
//!
//! let readiness = ai_readiness("https://acme.com/", &page, None, Some(&robots));
//! assert_eq!(readiness.robots_txt.blocked_count, 1);
//! assert!(readiness.semantic_html.main);
//!
//! let scan = ai_visibility_scan(&page, None, Some(&robots));
//! assert_eq!(scan.pillars.llms_txt, 0);
//! assert!(scan.score <= 100);
//! // Which crawler lost the point, and the robots.txt group and line that did it.
//! let gpt = &scan.crawlers[0];
//! assert_eq!((gpt.bot, gpt.group.as_deref(), gpt.line), ("GPTBot", Some("User-agent: GPTBot"), Some(2)));
//! assert_eq!(gpt.rule, "Disallow: /");
//!
//! assert_eq!(generate_queries(&page, "acme.com").len(), 12);
//! ```

mod bots;
mod docs;
mod entity;
mod geo;
mod llms;
#[cfg(feature = "provider")]
mod provider;
mod readiness;
mod robots;
mod scan;
mod semantic;

pub use bots::{
    ai_bot_access, ai_crawlers, find_bot, named_crawlers, AiBot, BotAccess, CrawlerAccess, CrawlerVerdict, Purpose,
    RobotsTxtReport, AI_BOTS, NAMED_BOTS, NO_GROUP_APPLIES, NO_ROBOTS_TXT, NO_RULE_MATCHED, ROBOTS_TXT_ITSELF,
};
pub use docs::scan_methodology_markdown;
pub use entity::{brand_name, domain_label, normalize_domain, ENTITY_TYPES};
pub use geo::{
    count_mentions, generate_queries, AiSearchProvider, GeoCheckResult, GeoOptions, GeoQuery, GeoQueryResult,
    GeoReport, ProviderAnswer, ProviderError, ProviderFuture, QueryKind, DEFAULT_GEO_CONCURRENCY,
    DEFAULT_GEO_TOTAL_TIMEOUT, DEFAULT_PROVIDER_TIMEOUT, GEO_QUERY_COUNT,
};
pub use llms::{Issue, IssueCode, Link, LlmsTxt, LlmsTxtReport, Section, Severity};
#[cfg(feature = "provider")]
pub use provider::{geo_check, OpenAiCompatibleProvider};
pub use readiness::{ai_readiness, default_llms_url, AiReadiness, ReadinessItem, READINESS_POINTS};
pub use robots::{
    escape_pattern, get_path_params_query, is_valid_user_agent, AgentLine, Group, MatchedGroup, ParseStats, Robots,
    Rule, RuleKind, Verdict, MAX_LINE_LEN, MAX_ROBOTS_BYTES,
};
pub use scan::{
    ai_visibility_scan, is_question, AiVisibilityScan, CheckResult, Pillar, Pillars, ScanCheck, ScanDetails,
    MAX_WORDS_PER_HEADING, PILLAR_MAX, QUESTION_WORDS, SCAN_CHECKS, SUMMARY_WITHIN_WORDS,
};
pub use semantic::{heading_hierarchy, HeadingHierarchy, SemanticHtml};
