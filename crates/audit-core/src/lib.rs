//! The pure SEO audit engine: HTML bytes → [`Page`] facts → [`RULES`] → [`Audit`] → JSON.
//!
//! No I/O happens here: no sockets, files, clocks or threads. The caller fetches the page
//! (see the `fetch` crate), passes what HTTP told it as [`HttpFacts`], and supplies the
//! timestamp. The same bytes and facts always give byte-identical findings.
//!
//! ```
//! use audit_core::rules::images::ImageAltMissing;
//! use audit_core::{audit, HttpFacts, Page, Rule};
//!
//! let html = br#"<html lang="en"><head><title>Handmade oak furniture from Bavaria</title></head>
//!   <body><h1>Oak furniture</h1><img src="chair.jpg"></body></html>"#;
//! let page = Page::parse("https://example.com/", html, HttpFacts::new().with_status(200));
//! assert_eq!(page.title, "Handmade oak furniture from Bavaria");
//!
//! let result = audit(page).to_result("2026-01-01T00:00:00.000Z");
//! assert!(result.score.percentage < 100);
//! assert!(result.recommendations.iter().any(|r| r.id == ImageAltMissing.meta().id));
//! ```
//!
//! Rules of your own run beside the built-in table with [`audit_with`]; [`report::text`]
//! renders the terminal report of the `seo-audit` command line.
//!
//! Architecture Invariant: this crate depends on no other crate of the workspace and on no
//! async runtime, HTTP or database crate (CI checks `cargo tree -p seo-audit-core -e normal`).

#![warn(missing_docs)]

mod audit;
pub mod baseline;
pub mod bound;
mod charset;
mod docs;
pub mod fix;
pub mod locate;
mod page;
mod parse;
mod recommendation;
pub mod rendering;
pub mod report;
mod rule;
pub mod rules;
pub mod structured_data;

pub use audit::{
    audit, audit_with, ruleset_fingerprint, Audit, AuditResult, Check, CheckStatus, CheckSummary, CompactRendering,
    CompactResult, CompactScore, HeadingSummary, HreflangSummary, ImageCounts, IssueCounts, OgSummary, PageSummary,
    ResultMeta, Score, TopIssue, API_VERSION, COMPACT_TOP_ISSUES, ENGINE_VERSION, MAX_LISTED_HEADINGS,
    MAX_LISTED_HREFLANG, MAX_LISTED_SCHEMA_TYPES, RULESET_VERSION,
};
pub use charset::{decode, Charset, CharsetSource, META_PRESCAN_BYTES};
pub use docs::{rule_markdown, rules_markdown};
pub use locate::{Location, Spot};
pub use page::{
    markup_of, parse_link_header, Form, Heading, Hreflang, HttpFacts, Image, Link, LinkKind, Page, RefreshPragma,
    RobotsTxtFact, RobotsTxtProblem, Semantic, Spots, WebMcpField, WebMcpForm, AGENT_LINK_RELS,
};
pub use parse::{Analysis, Budget, Stop, Unlimited};
pub use recommendation::{LinkCounts, Recommendation};
pub use rendering::Rendering;
pub use rule::{Category, Finding, Group, Level, Outcome, Rule, RuleMeta, Severity, UnknownName};
pub use rules::RULES;
pub use structured_data::JsonLd;

/// The thresholds the rules compare with, for callers that explain or reuse them.
pub mod thresholds {
    pub use crate::rules::util::{
        DESCRIPTION_MAX_CHARS, DESCRIPTION_MIN_CHARS, MAX_DOM_NODES, MAX_HTML_BYTES, MAX_LINKS, MIN_TEXT_RATIO,
        SLOW_RESPONSE_MS, THIN_CONTENT_WORDS, TITLE_MAX_CHARS, TITLE_MIN_CHARS, URL_MAX_CHARS, URL_MAX_PARAMS,
    };
}

/// The bounds on the work one page may cost (see `Page::parse_within`).
pub mod limits {
    pub use crate::parse::{
        CHECK_EVERY_TOKENS, CHUNK_BYTES, MAX_FORMATTING, MAX_NODES, MAX_OPEN_ELEMENTS, WALK_CHECK_EVERY_NODES,
    };
}

/// Text helpers the other engines share with the rules (same definitions everywhere).
pub mod text {
    pub use crate::page::{collapse, count_words};
    pub use crate::rules::util::{
        is_absolute_url, is_generic_link_text, is_generic_link_text_in, is_valid_bcp47, is_valid_hreflang, same_url,
        suggest_description, suggest_h1, suggest_title, trim_at_word, GENERIC_LINK_TEXT,
    };
}

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctest;

/// Looks a rule up by id.
pub fn rule_by_id(id: &str) -> Option<&'static RuleMeta> {
    RULES.iter().map(|r| r.meta()).find(|m| m.id == id)
}
