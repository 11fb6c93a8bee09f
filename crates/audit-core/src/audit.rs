//! Running the rule table over page facts, scoring, and the wire shapes of the result.

use std::collections::BTreeMap;
use std::fmt::{self, Write as _};
use std::str::FromStr;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::bound::{
    bound_finding, cut_option, cut_text, keep_within, Cuts, MAX_LISTED_HEADING_BYTES, MAX_LISTED_HREFLANG_BYTES,
    MAX_LISTED_INVALID_BLOCKS, MAX_LISTED_ITEM_BYTES, MAX_LISTED_LOCATION_BYTES, MAX_LISTED_ROBOTS_DIRECTIVES,
    MAX_LISTED_TYPE_BYTES, MAX_RESULT_DESCRIPTION_BYTES, MAX_RESULT_INSIGHTS_BYTES, MAX_RESULT_TEXT_BYTES,
    MAX_RESULT_URL_BYTES,
};
use crate::page::Page;
use crate::recommendation::{LinkCounts, Recommendation};
use crate::rule::{wire_names, Category, Outcome, Rule, RuleMeta, Severity, UnknownName};
use crate::rules::RULES;

/// The audit-core crate version: `engine_version` of every result.
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");
/// Bumped whenever a rule, weight or threshold changes (semver).
pub const RULESET_VERSION: &str = "1.8.0";
/// The version of the HTTP API whose result shapes this crate builds: the `api_version` the
/// server writes beside them (docs/API.md, "Conventions of every endpoint"). The results
/// themselves carry no envelope.
pub const API_VERSION: &str = "v1";
/// At most this many issues in the compact form's `top_issues`.
pub const COMPACT_TOP_ISSUES: usize = 5;

/// The first 16 hex digits of SHA-256 over the canonical listing of the rule table: one line
/// per rule, `id weight severity threshold`, in table order.
pub fn ruleset_fingerprint() -> &'static str {
    static FP: OnceLock<String> = OnceLock::new();
    FP.get_or_init(|| {
        let mut listing = String::new();
        for rule in RULES {
            let m = rule.meta();
            let _ = writeln!(listing, "{}\t{}\t{}\t{}", m.id, m.weight, m.severity, m.threshold);
        }
        hex::encode(Sha256::digest(listing.as_bytes()))[..16].to_string()
    })
}

/// One rule's outcome on a page.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Check {
    /// The rule's static description.
    pub rule: &'static RuleMeta,
    /// How the page came out.
    pub outcome: Outcome,
}

/// A page with every rule's outcome: the engine's result before serialisation.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Audit {
    /// The page facts the rules ran on.
    pub page: Page,
    /// One check per rule, in the order the rules ran.
    pub checks: Vec<Check>,
}

/// Passed and applicable checks and weights: what a score is computed from.
#[derive(Debug, Default)]
struct Tally {
    passed: usize,
    total: usize,
    passed_weight: u32,
    applicable_weight: u32,
}

impl Tally {
    /// `round(100 * passed_weight / applicable_weight)`, half up; `None` when nothing applies.
    fn percentage(&self) -> Option<u32> {
        // Integer rounding, half up: exact and the same on every platform.
        (self.applicable_weight > 0)
            .then(|| (200 * self.passed_weight + self.applicable_weight) / (2 * self.applicable_weight))
    }
}

/// Runs every rule of [`RULES`] on the page.
pub fn audit(page: Page) -> Audit {
    audit_with(page, &[])
}

/// Runs every rule of [`RULES`], then `rules` (rules of your own), on the page.
///
/// Your rules count like the built-in ones: a failure becomes a recommendation (ordered by
/// severity, then weight, then position: yours after the table), and its
/// [`RuleMeta::weight`] joins the score's denominator whenever it applies. The result's
/// `ruleset_version` and `ruleset_fingerprint` still name the built-in table only;
/// `meta.checks_executed` counts your checks too.
///
/// ```
/// use audit_core::{audit_with, Category, Finding, HttpFacts, Level, Outcome, Page, Rule, RuleMeta, Severity};
///
/// /// Pages must name the company in their title.
/// struct TitleNamesBrand;
///
/// static META: RuleMeta = RuleMeta {
///     id: "x-title-brand",
///     name: "The title names the brand",
///     category: Category::Content,
///     severity: Severity::Notice,
///     impact: Level::Low,
///     effort: Level::Low,
///     confidence: 90,
///     weight: 1,
///     threshold: "title without \"Oakwood\"",
///     why: "Our style guide says so.",
///     fail_example: "<title>Chairs</title>",
///     pass_example: "<title>Chairs | Oakwood</title>",
///     reference: "https://example.com/style-guide",
///     phrases: &["title brand"],
///     excluded: &[],
///     glossary: &[],
/// };
///
/// impl Rule for TitleNamesBrand {
///     fn meta(&self) -> &'static RuleMeta {
///         &META
///     }
///     fn check(&self, page: &Page) -> Outcome {
///         if page.title.contains("Oakwood") {
///             Outcome::Pass
///         } else {
///             Outcome::Fail(Finding::new("Title lacks the brand", "Add \"| Oakwood\" to the title."))
///         }
///     }
/// }
///
/// let page = Page::parse("https://example.com/", b"<title>Chairs</title>", HttpFacts::new());
/// let result = audit_with(page, &[&TitleNamesBrand]).to_result("2026-01-01T00:00:00.000Z");
/// assert!(result.recommendations.iter().any(|r| r.id == "x-title-brand"));
/// ```
pub fn audit_with(page: Page, rules: &[&dyn Rule]) -> Audit {
    let checks = RULES.iter().chain(rules).map(|r| Check { rule: r.meta(), outcome: r.check(&page) }).collect();
    Audit { page, checks }
}

impl Audit {
    /// The score as docs/API.md ("The audit result") defines it.
    pub fn score(&self) -> Score {
        let tally = self.tally(|_| true);
        let percentage = tally.percentage().unwrap_or(100);
        let (passed, total) = (tally.passed, tally.total);
        Score {
            current: percentage,
            max: 100,
            percentage,
            passed,
            total,
            engine_version: ENGINE_VERSION.to_string(),
            ruleset_version: RULESET_VERSION.to_string(),
            ruleset_fingerprint: ruleset_fingerprint().to_string(),
        }
    }

    /// The score of the rules of one category, by the same formula as [`Audit::score`];
    /// `None` when no rule of the category applies to the page.
    pub fn category_score(&self, category: Category) -> Option<u32> {
        self.tally(|rule| rule.category == category).percentage()
    }

    /// Checks and weights of the rules `include` keeps.
    fn tally(&self, include: impl Fn(&RuleMeta) -> bool) -> Tally {
        let mut t = Tally::default();
        for c in self.checks.iter().filter(|c| include(c.rule)) {
            match c.outcome {
                Outcome::NotApplicable => {}
                Outcome::Pass => {
                    t.passed += 1;
                    t.total += 1;
                    t.passed_weight += c.rule.weight;
                    t.applicable_weight += c.rule.weight;
                }
                Outcome::Fail(_) => {
                    t.total += 1;
                    t.applicable_weight += c.rule.weight;
                }
            }
        }
        t
    }

    /// Failed checks, worst first: severity, then weight, then table order.
    pub fn failures(&self) -> Vec<(&'static RuleMeta, &crate::rule::Finding)> {
        let mut out: Vec<_> = self
            .checks
            .iter()
            .enumerate()
            .filter_map(|(i, c)| match &c.outcome {
                Outcome::Fail(f) => Some((i, c.rule, f)),
                _ => None,
            })
            .collect();
        out.sort_by_key(|(i, r, _)| (r.severity, std::cmp::Reverse(r.weight), *i));
        out.into_iter().map(|(_, r, f)| (r, f)).collect()
    }

    /// Recommendations, worst first.
    pub fn recommendations(&self) -> Vec<Recommendation> {
        self.failures()
            .into_iter()
            .map(|(r, f)| Recommendation {
                id: r.id.to_string(),
                kind: r.severity,
                category: r.category,
                title: f.title.clone(),
                description: f.description.clone(),
                impact: r.impact,
                effort: r.effort,
                confidence: r.confidence,
                current_value: f.current_value.clone(),
                suggested_value: f.suggested_value.clone(),
                locations: f.locations.clone(),
                locations_total: f.locations_total,
            })
            .collect()
    }

    /// A short deterministic paragraph written from the findings, worst problem first.
    pub fn ai_insights(&self) -> String {
        let score = self.score();
        let failures = self.failures();
        let mut out =
            format!("Score {}/100: {} of {} applicable checks pass.", score.current, score.passed, score.total);
        match failures.first() {
            None => out.push_str(" No problems found; keep the page's title, description and structured data current."),
            Some((rule, finding)) => {
                let _ = write!(out, " Most serious: {} ({}).", finding.title, rule.severity);
                let next: Vec<&str> = failures.iter().skip(1).take(3).map(|(_, f)| f.title.as_str()).collect();
                if !next.is_empty() {
                    let _ = write!(out, " Then: {}.", next.join("; "));
                }
            }
        }
        let p = &self.page;
        let ai_ready = !p.json_ld.is_empty() && !p.title.is_empty() && p.meta_description().is_some();
        out.push_str(if ai_ready {
            " For AI assistants the page states its topic (title, description) and its entities (structured data)."
        } else {
            " AI assistants quote pages that state their topic and entities plainly: a clear title, a meta description and JSON-LD help."
        });
        out
    }

    /// The full result of `GET /api/v1/audit` (docs/API.md, "The audit result"), without the
    /// envelope (`ok`, `api_version`) the server writes around it. `scanned_at` is the
    /// caller's clock: the engine reads none.
    ///
    /// Its texts and lists are within the bounds of [`crate::bound`]: the result is what the
    /// service sends and stores, the rules read the whole page.
    pub fn to_result(&self, scanned_at: &str) -> AuditResult {
        self.to_result_with_cuts(scanned_at).0
    }

    /// [`Audit::to_result`] and what its bounds cut ([`crate::bound::Cuts`]): what the corpus
    /// test reads to show that no real page loses anything.
    pub fn to_result_with_cuts(&self, scanned_at: &str) -> (AuditResult, Cuts) {
        let mut result = self.result_unbounded(scanned_at);
        let cuts = result.bound();
        (result, cuts)
    }

    /// The result before [`AuditResult::bound`] (the lists already cut by count).
    fn result_unbounded(&self, scanned_at: &str) -> AuditResult {
        let p = &self.page;
        let (internal, external) = p.link_counts();
        let types = p.json_ld_types();
        AuditResult {
            scanned_at: scanned_at.to_string(),
            target_type: "public".to_string(),
            target: None,
            page: PageSummary {
                url: p.url.clone(),
                final_url: p.final_url.clone(),
                title: p.title.clone(),
                meta_description: p.meta_description().map(str::to_string),
                h1: p.h1().to_string(),
                word_count: p.word_count,
                images: ImageCounts { total: p.images.len(), missing_alt: p.images_missing_alt() },
                links: LinkCounts { internal, external },
                og: OgSummary {
                    title: p.og.get("og:title").cloned().unwrap_or_default(),
                    description: p.og.get("og:description").cloned().unwrap_or_default(),
                    image: p.og.get("og:image").cloned().unwrap_or_default(),
                },
                canonical: p.canonical(),
                robots: p.meta_robots.first().cloned().unwrap_or_default(),
                schema_markup: p.json_ld.iter().any(|b| b.value.is_some()) || !p.microdata_types.is_empty(),
                load_time_ms: p.http.load_time_ms.unwrap_or(0),
                status_code: p.http.status.unwrap_or(0),
                lang: p.lang.clone().unwrap_or_default(),
                charset: p.charset.used.clone(),
                headings: p
                    .headings
                    .iter()
                    .take(MAX_LISTED_HEADINGS)
                    .map(|h| HeadingSummary { level: h.level, text: h.text.clone() })
                    .collect(),
                headings_total: (p.headings.len() > MAX_LISTED_HEADINGS).then_some(p.headings.len()),
                hreflang: p
                    .hreflang
                    .iter()
                    .take(MAX_LISTED_HREFLANG)
                    .map(|h| HreflangSummary {
                        lang: h.lang.clone(),
                        href: h.url.clone().unwrap_or_else(|| h.href.clone()),
                    })
                    .collect(),
                hreflang_total: (p.hreflang.len() > MAX_LISTED_HREFLANG).then_some(p.hreflang.len()),
                schema_types: types.iter().take(MAX_LISTED_SCHEMA_TYPES).map(|t| t.to_string()).collect(),
                schema_types_total: (types.len() > MAX_LISTED_SCHEMA_TYPES).then_some(types.len()),
            },
            score: self.score(),
            recommendations: self.recommendations(),
            checks: self
                .checks
                .iter()
                .map(|c| CheckSummary {
                    id: c.rule.id.to_string(),
                    category: c.rule.category,
                    status: match c.outcome {
                        Outcome::Pass => CheckStatus::Pass,
                        Outcome::Fail(_) => CheckStatus::Fail,
                        Outcome::NotApplicable => CheckStatus::NotApplicable,
                    },
                })
                .collect(),
            ai_insights: self.ai_insights(),
            meta: ResultMeta {
                engine_version: ENGINE_VERSION.to_string(),
                ruleset_version: RULESET_VERSION.to_string(),
                ruleset_fingerprint: ruleset_fingerprint().to_string(),
                checks_executed: self.checks.len(),
            },
            structured_data: p.structured_data.clone(),
            rendering: None,
        }
    }

    /// The compact form (`format=compact`, docs/API.md "Compact form"), without the envelope.
    pub fn to_compact(&self, scanned_at: &str) -> CompactResult {
        let score = self.score();
        let failures = self.failures();
        let mut issues = BTreeMap::new();
        for s in Severity::ALL {
            issues.insert(s, failures.iter().filter(|(r, _)| r.severity == s).count());
        }
        CompactResult {
            url: self.page.url.clone(),
            scanned_at: scanned_at.to_string(),
            status_code: self.page.http.status.unwrap_or(0),
            score: CompactScore { current: score.current, max: score.max, percentage: score.percentage },
            issues: IssueCounts {
                critical: issues[&Severity::Critical],
                warning: issues[&Severity::Warning],
                notice: issues[&Severity::Notice],
            },
            top_issues: failures
                .iter()
                .take(COMPACT_TOP_ISSUES)
                .map(|(r, f)| TopIssue { id: r.id.to_string(), kind: r.severity, title: f.title.clone() })
                .collect(),
            rendering: None,
        }
    }
}

/// `score` of the audit result.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct Score {
    /// The score, 0 to 100 (the same number as `percentage`).
    pub current: u32,
    /// Always 100.
    pub max: u32,
    /// `round(100 * passed weight / applicable weight)`, 100 when no rule applies.
    #[cfg_attr(feature = "schema", schemars(range(max = 100)))]
    pub percentage: u32,
    /// Checks that passed.
    pub passed: usize,
    /// Checks that applied (passed or failed).
    pub total: usize,
    /// [`ENGINE_VERSION`] of the engine that scored.
    pub engine_version: String,
    /// [`RULESET_VERSION`] of the rule table.
    pub ruleset_version: String,
    /// [`ruleset_fingerprint`] of the rule table.
    #[cfg_attr(feature = "schema", schemars(regex(pattern = r"^[0-9a-f]{16}$")))]
    pub ruleset_fingerprint: String,
}

/// Outcome of one check, in `checks`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum CheckStatus {
    /// `pass`.
    Pass,
    /// `fail`: there is a recommendation with the same id.
    Fail,
    /// `not_applicable`: left out of the score.
    #[default]
    NotApplicable,
}

wire_names!(CheckStatus, "check status", schema: "Outcome of one check, in `checks`.", {
    Pass => "pass",
    Fail => "fail",
    NotApplicable => "not_applicable",
});

/// One entry of `checks`: every rule and how it came out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct CheckSummary {
    /// The rule's id.
    pub id: String,
    /// The rule's category.
    pub category: Category,
    /// How the page came out.
    pub status: CheckStatus,
}

/// An empty entry: no id, category `SEO Technical`, not applicable.
impl Default for CheckSummary {
    fn default() -> CheckSummary {
        CheckSummary { id: String::new(), category: Category::Technical, status: CheckStatus::NotApplicable }
    }
}

/// `page.images` of the audit result.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct ImageCounts {
    /// `<img>` elements.
    pub total: usize,
    /// Those without an `alt` attribute.
    pub missing_alt: usize,
}

/// `page.og` of the audit result: the first value of three Open Graph properties, `""` when
/// absent.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct OgSummary {
    /// `og:title`.
    pub title: String,
    /// `og:description`.
    pub description: String,
    /// `og:image`.
    pub image: String,
}

/// One heading in `page.headings`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct HeadingSummary {
    /// 1 for `<h1>` ... 6 for `<h6>`.
    #[cfg_attr(feature = "schema", schemars(range(min = 1, max = 6)))]
    pub level: u8,
    /// Its text, white space collapsed.
    pub text: String,
}

/// One hreflang link in `page.hreflang`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct HreflangSummary {
    /// The `hreflang` value as written.
    pub lang: String,
    /// The resolved URL (the `href` as written when it does not resolve).
    pub href: String,
}

/// `page` of the audit result: every field existing clients read, plus additive ones
/// (docs/API.md, "The audit result").
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "Page"))]
#[serde(default)]
pub struct PageSummary {
    /// The URL the audit was asked for.
    pub url: String,
    /// The URL after redirects.
    pub final_url: String,
    /// `document.title`, `""` when none.
    pub title: String,
    /// The first meta description.
    pub meta_description: Option<String>,
    /// Text of the first `<h1>`, `""` when none.
    pub h1: String,
    /// Visible words.
    pub word_count: usize,
    /// Image counts.
    pub images: ImageCounts,
    /// Link counts.
    pub links: LinkCounts,
    /// Open Graph basics.
    pub og: OgSummary,
    /// The first canonical, resolved; `""` when none.
    pub canonical: String,
    /// The first `<meta name=robots>` content, `""` when none.
    pub robots: String,
    /// Whether the page carries structured data (valid JSON-LD or microdata).
    pub schema_markup: bool,
    /// Total fetch time in milliseconds; 0 when unknown.
    pub load_time_ms: u64,
    /// HTTP status of the audited page; 0 when the page was read from a file.
    #[cfg_attr(feature = "schema", schemars(range(max = 999)))]
    pub status_code: u16,
    /// The `lang` of `<html>`, `""` when none.
    pub lang: String,
    /// The encoding the page was decoded with.
    pub charset: String,
    /// The headings in document order: every one, or the first [`MAX_LISTED_HEADINGS`].
    pub headings: Vec<HeadingSummary>,
    /// How many headings the page has, present only when `headings` lists the first
    /// [`MAX_LISTED_HEADINGS`] of more (the result, which is stored, stays bounded however
    /// many the page has).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub headings_total: Option<usize>,
    /// The hreflang links: every one, or the first [`MAX_LISTED_HREFLANG`].
    pub hreflang: Vec<HreflangSummary>,
    /// How many hreflang links the page has, present only when `hreflang` lists the first
    /// [`MAX_LISTED_HREFLANG`] of more.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hreflang_total: Option<usize>,
    /// The distinct JSON-LD `@type`s in document order: every one, or the first
    /// [`MAX_LISTED_SCHEMA_TYPES`].
    pub schema_types: Vec<String>,
    /// How many distinct JSON-LD `@type`s the page has, present only when `schema_types`
    /// lists the first [`MAX_LISTED_SCHEMA_TYPES`] of more.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schema_types_total: Option<usize>,
}

/// Headings listed in the audit result at most (`page.headings`; `page.headings_total` then
/// counts them all). The rules read every heading; the list is what is sent and stored, so a
/// page with 100,000 headings does not make a 4 MB result (docs/SECURITY.md).
pub const MAX_LISTED_HEADINGS: usize = 500;

/// Hreflang links listed in the audit result at most (`page.hreflang`;
/// `page.hreflang_total` then counts them all).
pub const MAX_LISTED_HREFLANG: usize = 500;

/// Distinct JSON-LD types listed in the audit result at most (`page.schema_types`;
/// `page.schema_types_total` then counts them all). The page of the shared corpus of real
/// pages with the most has 12; a page of thousands of blocks of made-up types would
/// otherwise store every one.
pub const MAX_LISTED_SCHEMA_TYPES: usize = 50;

/// `meta` of the audit result.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct ResultMeta {
    /// [`ENGINE_VERSION`].
    pub engine_version: String,
    /// [`RULESET_VERSION`].
    pub ruleset_version: String,
    /// [`ruleset_fingerprint`].
    pub ruleset_fingerprint: String,
    /// Number of checks that ran (the rule table, plus any rules of [`audit_with`]).
    pub checks_executed: usize,
}

/// The full audit result (docs/API.md, "The audit result"), without the envelope: the server
/// writes `ok` and `api_version` before these fields. Reading one back fills absent fields
/// with their defaults and ignores unknown ones (such as the envelope), so a result stored by
/// an older version (or a partial one) still reads as this type.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct AuditResult {
    /// When the page was audited (RFC 3339), as the caller gave it.
    #[cfg_attr(feature = "schema", schemars(extend("format" = "date-time")))]
    pub scanned_at: String,
    /// Always `public`.
    pub target_type: String,
    /// Always `null`.
    pub target: Option<String>,
    /// Facts about the page.
    pub page: PageSummary,
    /// The score.
    pub score: Score,
    /// Failed checks, worst first.
    pub recommendations: Vec<Recommendation>,
    /// Every check, in rule-table order.
    pub checks: Vec<CheckSummary>,
    /// A short paragraph written from the findings.
    pub ai_insights: String,
    /// Versions and the number of checks.
    pub meta: ResultMeta,
    /// The page's structured data as search engines read it: each item with its type, source
    /// and line, the rich results it is eligible for, its errors and warnings (docs/API.md,
    /// "Structured data").
    pub structured_data: crate::structured_data::StructuredData,
    /// Only in rendered audits: the served HTML against the rendered DOM (docs/API.md,
    /// "Rendered audits"); absent otherwise, so the result of an audit without rendering
    /// keeps its shape.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rendering: Option<crate::rendering::Rendering>,
}

impl AuditResult {
    /// Brings the result within the bounds of [`crate::bound`] (it is sent and stored; the
    /// rules read the whole page); answers what was cut. The lists already
    /// cut by count when the result was built (headings, hreflang links, type names) keep their
    /// totals.
    pub fn bound(&mut self) -> Cuts {
        let result = self;
        let mut cuts = Cuts::default();
        let p = &mut result.page;
        for url in [&mut p.url, &mut p.final_url, &mut p.canonical, &mut p.og.image] {
            cut_text(url, MAX_RESULT_URL_BYTES, &mut cuts);
        }
        for text in [&mut p.title, &mut p.h1, &mut p.og.title, &mut p.robots, &mut p.lang, &mut p.charset] {
            cut_text(text, MAX_RESULT_TEXT_BYTES, &mut cuts);
        }
        cut_text(&mut p.og.description, MAX_RESULT_DESCRIPTION_BYTES, &mut cuts);
        cut_option(&mut p.meta_description, MAX_RESULT_DESCRIPTION_BYTES, &mut cuts);
        let headings = p.headings_total.unwrap_or(p.headings.len());
        cuts.entries += headings.saturating_sub(p.headings.len());
        if keep_within(&mut p.headings, usize::MAX, MAX_LISTED_HEADING_BYTES, &mut cuts).is_some()
            || headings > p.headings.len()
        {
            p.headings_total = Some(headings);
        }
        for h in &mut p.hreflang {
            cut_text(&mut h.lang, MAX_LISTED_TYPE_BYTES, &mut cuts);
            cut_text(&mut h.href, MAX_RESULT_URL_BYTES, &mut cuts);
        }
        let hreflang = p.hreflang_total.unwrap_or(p.hreflang.len());
        cuts.entries += hreflang.saturating_sub(p.hreflang.len());
        if keep_within(&mut p.hreflang, usize::MAX, MAX_LISTED_HREFLANG_BYTES, &mut cuts).is_some()
            || hreflang > p.hreflang.len()
        {
            p.hreflang_total = Some(hreflang);
        }
        cuts.entries += p.schema_types_total.map_or(0, |total| total.saturating_sub(p.schema_types.len()));
        for t in &mut p.schema_types {
            cut_text(t, MAX_LISTED_TYPE_BYTES, &mut cuts);
        }

        let mut left = MAX_LISTED_LOCATION_BYTES;
        for r in &mut result.recommendations {
            bound_finding(r, &mut left, &mut cuts);
        }
        cut_text(&mut result.ai_insights, MAX_RESULT_INSIGHTS_BYTES, &mut cuts);

        let sd = &mut result.structured_data;
        let items = sd.items_total.unwrap_or(sd.items.len());
        if keep_within(&mut sd.items, usize::MAX, MAX_LISTED_ITEM_BYTES, &mut cuts).is_some() || items > sd.items.len()
        {
            sd.items_total = Some(items);
        }
        for b in &mut sd.invalid_blocks {
            cut_text(&mut b.message, MAX_RESULT_TEXT_BYTES, &mut cuts);
        }
        let blocks = sd.invalid_blocks_total.unwrap_or(sd.invalid_blocks.len());
        if keep_within(&mut sd.invalid_blocks, MAX_LISTED_INVALID_BLOCKS, usize::MAX, &mut cuts).is_some()
            || blocks > sd.invalid_blocks.len()
        {
            sd.invalid_blocks_total = Some(blocks);
        }

        if let Some(r) = &mut result.rendering {
            cut_text(&mut r.final_url, MAX_RESULT_URL_BYTES, &mut cuts);
            for b in &mut r.blocked {
                cut_text(&mut b.url, MAX_RESULT_URL_BYTES, &mut cuts);
                cut_text(&mut b.reason, MAX_RESULT_TEXT_BYTES, &mut cuts);
            }
            for view in [&mut r.served, &mut r.rendered] {
                cut_text(&mut view.title, MAX_RESULT_TEXT_BYTES, &mut cuts);
                cut_text(&mut view.h1, MAX_RESULT_TEXT_BYTES, &mut cuts);
                cut_text(&mut view.canonical, MAX_RESULT_URL_BYTES, &mut cuts);
                cut_option(&mut view.meta_description, MAX_RESULT_DESCRIPTION_BYTES, &mut cuts);
                // Each directive is a word of the page's robots content; the flags `noindex` and
                // `nofollow` are decided on all of them.
                if view.robots.len() > MAX_LISTED_ROBOTS_DIRECTIVES {
                    cuts.entries += view.robots.len() - MAX_LISTED_ROBOTS_DIRECTIVES;
                    view.robots.truncate(MAX_LISTED_ROBOTS_DIRECTIVES);
                }
                for d in &mut view.robots {
                    cut_text(d, MAX_LISTED_TYPE_BYTES, &mut cuts);
                }
            }
            for link in &mut r.links_only_rendered.first {
                cut_text(link, MAX_RESULT_URL_BYTES, &mut cuts);
            }
            // The rendering's findings have their own small budget of locations (they point at
            // none today): the page's budget is spent already.
            let mut left = MAX_LISTED_LOCATION_BYTES / 8;
            for f in &mut r.findings {
                bound_finding(f, &mut left, &mut cuts);
            }
        }
        cuts
    }
}

/// `score` of the compact result.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct CompactScore {
    /// The score, 0 to 100.
    pub current: u32,
    /// Always 100.
    pub max: u32,
    /// The same number as `current`.
    #[cfg_attr(feature = "schema", schemars(range(max = 100)))]
    pub percentage: u32,
}

/// `issues` of the compact result: failed checks by severity.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct IssueCounts {
    /// Failed checks of severity `critical`.
    pub critical: usize,
    /// Failed checks of severity `warning`.
    pub warning: usize,
    /// Failed checks of severity `notice`.
    pub notice: usize,
}

/// One of the compact result's `top_issues`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct TopIssue {
    /// The rule's id.
    pub id: String,
    /// The rule's severity, serialised as `type`.
    #[serde(rename = "type")]
    pub kind: Severity,
    /// What was found.
    pub title: String,
}

/// An empty entry: no id or title, a `notice`.
impl Default for TopIssue {
    fn default() -> TopIssue {
        TopIssue { id: String::new(), kind: Severity::Notice, title: String::new() }
    }
}

/// The compact audit result (docs/API.md, "Compact form"), without the envelope.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(deny_unknown_fields))]
#[serde(default)]
pub struct CompactResult {
    /// The URL the audit was asked for.
    pub url: String,
    /// When the page was audited (RFC 3339).
    #[cfg_attr(feature = "schema", schemars(extend("format" = "date-time")))]
    pub scanned_at: String,
    /// HTTP status of the audited page; 0 when the page was read from a file.
    pub status_code: u16,
    /// The score.
    pub score: CompactScore,
    /// Failed checks by severity.
    pub issues: IssueCounts,
    /// The worst failed checks, at most [`COMPACT_TOP_ISSUES`].
    #[cfg_attr(feature = "schema", schemars(length(max = 5)))]
    pub top_issues: Vec<TopIssue>,
    /// A rendered audit's summary of its `rendering` section; absent (not `null`) without
    /// rendering (docs/API.md, "Compact form").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rendering: Option<CompactRendering>,
}

/// The compact form's summary of a rendered audit (docs/API.md, "Compact form").
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(deny_unknown_fields))]
#[serde(default)]
pub struct CompactRendering {
    /// Whether indexable content depends on JavaScript.
    pub depends_on_javascript: bool,
    /// The render reached its time limit.
    pub timed_out: bool,
    /// The fields of the served and rendered views that differ.
    pub differences: Vec<String>,
    /// How many browser requests were refused.
    pub blocked_total: usize,
    /// The rendering findings, worst first.
    pub findings: Vec<TopIssue>,
}

impl CompactRendering {
    /// The summary of `rendering`.
    pub fn of(rendering: &crate::rendering::Rendering) -> CompactRendering {
        CompactRendering {
            depends_on_javascript: rendering.depends_on_javascript,
            timed_out: rendering.timed_out,
            differences: rendering.differences.clone(),
            blocked_total: rendering.blocked_total,
            findings: rendering
                .findings
                .iter()
                .map(|f| TopIssue { id: f.id.clone(), kind: f.kind, title: f.title.clone() })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::HttpFacts;
    use crate::rule::{Finding, Level};

    /// A rule of a user's own: pages must mention "oak".
    struct MentionsOak;

    static MENTIONS_OAK: RuleMeta = RuleMeta {
        id: "x-mentions-oak",
        name: "The page mentions oak",
        category: Category::Content,
        severity: Severity::Critical,
        impact: Level::High,
        effort: Level::Low,
        confidence: 100,
        weight: 50,
        threshold: "no \"oak\" in the visible text",
        why: "We sell oak.",
        fail_example: "<p>Pine chairs</p>",
        pass_example: "<p>Oak chairs</p>",
        reference: "https://example.com/",
        phrases: &[],
        excluded: &[],
        glossary: &[],
    };

    impl Rule for MentionsOak {
        fn meta(&self) -> &'static RuleMeta {
            &MENTIONS_OAK
        }

        fn check(&self, page: &Page) -> Outcome {
            if page.visible_text.to_lowercase().contains("oak") {
                Outcome::Pass
            } else {
                Outcome::Fail(Finding::new("No oak", "Say what the chairs are made of.").suggested("Oak chairs"))
            }
        }
    }

    const AT: &str = "2026-01-01T00:00:00.000Z";

    fn page(html: &str) -> Page {
        Page::parse("https://example.com/", html.as_bytes(), HttpFacts::new().with_status(200))
    }

    #[test]
    fn audit_with_runs_the_table_then_the_callers_rules() {
        let html = "<html lang=en><head><title>Chairs</title></head><body><p>Pine chairs</p></body></html>";
        let builtin = audit(page(html));
        let mine = audit_with(page(html), &[&MentionsOak]);

        assert_eq!(mine.checks.len(), RULES.len() + 1);
        assert_eq!(mine.checks.last().map(|c| c.rule.id), Some("x-mentions-oak"));
        let result = mine.to_result(AT);
        assert_eq!(result.meta.checks_executed, RULES.len() + 1);
        // The table's own identity does not change with a caller's rules.
        assert_eq!(result.meta.ruleset_fingerprint, ruleset_fingerprint());
        // A critical failure of weight 50 comes first and costs the score its weight.
        let first = &result.recommendations[0];
        assert_eq!(first.id, "x-mentions-oak");
        assert_eq!(first.kind, Severity::Critical);
        assert_eq!(first.suggested_value.as_deref(), Some("Oak chairs"));
        assert_eq!(
            result.checks.last().map(|c| (c.id.as_str(), c.status)),
            Some(("x-mentions-oak", CheckStatus::Fail))
        );
        let (b, m) = (builtin.score(), mine.score());
        assert_eq!(m.total, b.total + 1);
        assert!(m.percentage < b.percentage, "{} !< {}", m.percentage, b.percentage);

        // Passing, it adds its weight to both sides.
        let passing = audit_with(page(&html.replace("Pine", "Oak")), &[&MentionsOak]);
        assert_eq!(passing.score().passed, audit(page(&html.replace("Pine", "Oak"))).score().passed + 1);
        assert!(passing.recommendations().iter().all(|r| r.id != "x-mentions-oak"));
        // No rules of one's own: the same as `audit`.
        assert_eq!(audit_with(page(html), &[]).to_result(AT), builtin.to_result(AT));
    }

    #[test]
    fn typed_fields_serialise_as_their_wire_names() {
        let result = audit(page("<title>x</title><img src=a.png>")).to_result(AT);
        let json = serde_json::to_value(&result).unwrap();
        let alt = json["recommendations"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == crate::rules::images::ImageAltMissing.meta().id)
            .unwrap();
        assert_eq!(alt["type"], "warning");
        assert_eq!(alt["category"], "Images");
        assert_eq!(alt["impact"], Level::Medium.as_str());
        assert!(json["checks"].as_array().unwrap().iter().any(|c| c["category"] == "SEO Technical"));
        // No envelope: the server writes `ok` and `api_version`.
        assert!(json.get("ok").is_none() && json.get("api_version").is_none());
        assert_eq!(json.as_object().unwrap().keys().next().map(String::as_str), Some("scanned_at"));
        // Read back, with or without the envelope of a stored row.
        let back: AuditResult = serde_json::from_value(json.clone()).unwrap();
        assert_eq!(back, result);
        let mut stored = serde_json::json!({ "ok": true, "api_version": "v1" });
        stored.as_object_mut().unwrap().extend(json.as_object().unwrap().clone());
        assert_eq!(serde_json::from_value::<AuditResult>(stored).unwrap(), result);
        // A partial recommendation reads with defaults; an unknown severity does not read.
        let partial: Recommendation = serde_json::from_str(r#"{"id":"x","type":"critical"}"#).unwrap();
        assert_eq!((partial.kind, partial.category), (Severity::Critical, Category::Technical));
        assert!(serde_json::from_str::<Recommendation>(r#"{"type":"fatal"}"#).is_err());

        let compact = serde_json::to_value(audit(page("<title>x</title>")).to_compact(AT)).unwrap();
        assert!(compact.get("ok").is_none());
        assert!(compact["top_issues"].as_array().unwrap().iter().all(|t| t["type"].is_string()));
    }
}
