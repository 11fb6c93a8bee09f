//! Running the rule table over page facts, scoring, and the wire shapes of the result.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::page::Page;
use crate::rule::{Outcome, RuleMeta, Severity};
use crate::rules::RULES;

/// The audit-core crate version: `engine_version` of every result.
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");
/// Bumped whenever a rule, weight or threshold changes (semver).
pub const RULESET_VERSION: &str = "1.3.0";
/// `api_version` of every result.
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
            let _ = writeln!(listing, "{}\t{}\t{}\t{}", m.id, m.weight, m.severity.name(), m.threshold);
        }
        hex::encode(Sha256::digest(listing.as_bytes()))[..16].to_string()
    })
}

/// One rule's outcome on a page.
#[derive(Debug, Clone)]
pub struct Check {
    pub rule: &'static RuleMeta,
    pub outcome: Outcome,
}

/// A page with every rule's outcome: the engine's result before serialisation.
#[derive(Debug, Clone)]
pub struct Audit {
    pub page: Page,
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
    let checks = RULES.iter().map(|r| Check { rule: r.meta(), outcome: r.check(&page) }).collect();
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
    pub fn category_score(&self, category: crate::rule::Category) -> Option<u32> {
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
                kind: r.severity.name().to_string(),
                category: r.category.name().to_string(),
                title: f.title.clone(),
                description: f.description.clone(),
                impact: r.impact.name().to_string(),
                effort: r.effort.name().to_string(),
                confidence: r.confidence,
                current_value: f.current_value.clone(),
                suggested_value: f.suggested_value.clone(),
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
                let _ = write!(out, " Most serious: {} ({}).", finding.title, rule.severity.name());
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

    /// The full result of `GET /api/v1/audit` (docs/API.md, "The audit result").
    pub fn to_result(&self, scanned_at: &str) -> AuditResult {
        let p = &self.page;
        let (internal, external) = p.link_counts();
        AuditResult {
            ok: true,
            api_version: API_VERSION.to_string(),
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
                headings: p.headings.iter().map(|h| HeadingSummary { level: h.level, text: h.text.clone() }).collect(),
                hreflang: p
                    .hreflang
                    .iter()
                    .map(|h| HreflangSummary {
                        lang: h.lang.clone(),
                        href: h.url.clone().unwrap_or_else(|| h.href.clone()),
                    })
                    .collect(),
                schema_types: p.json_ld_types().into_iter().map(str::to_string).collect(),
            },
            score: self.score(),
            recommendations: self.recommendations(),
            checks: self
                .checks
                .iter()
                .map(|c| CheckSummary {
                    id: c.rule.id.to_string(),
                    category: c.rule.category.name().to_string(),
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
        }
    }

    /// The compact form (`format=compact`, docs/API.md "Compact form").
    pub fn to_compact(&self, scanned_at: &str) -> CompactResult {
        let score = self.score();
        let failures = self.failures();
        let mut issues = BTreeMap::new();
        for s in [Severity::Critical, Severity::Warning, Severity::Notice] {
            issues.insert(s.name().to_string(), failures.iter().filter(|(r, _)| r.severity == s).count());
        }
        CompactResult {
            ok: true,
            api_version: API_VERSION.to_string(),
            url: self.page.url.clone(),
            scanned_at: scanned_at.to_string(),
            status_code: self.page.http.status.unwrap_or(0),
            score: CompactScore { current: score.current, max: score.max, percentage: score.percentage },
            issues: IssueCounts { critical: issues["critical"], warning: issues["warning"], notice: issues["notice"] },
            top_issues: failures
                .iter()
                .take(COMPACT_TOP_ISSUES)
                .map(|(r, f)| TopIssue {
                    id: r.id.to_string(),
                    kind: r.severity.name().to_string(),
                    title: f.title.clone(),
                })
                .collect(),
        }
    }
}

/// `score` of the audit result.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct Score {
    pub current: u32,
    pub max: u32,
    #[cfg_attr(feature = "schema", schemars(range(max = 100)))]
    pub percentage: u32,
    pub passed: usize,
    pub total: usize,
    pub engine_version: String,
    pub ruleset_version: String,
    #[cfg_attr(feature = "schema", schemars(regex(pattern = r"^[0-9a-f]{16}$")))]
    pub ruleset_fingerprint: String,
}

/// One recommendation (a failed check).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct Recommendation {
    pub id: String,
    #[cfg_attr(feature = "schema", schemars(with = "crate::rule::Severity"))]
    #[serde(rename = "type")]
    pub kind: String,
    #[cfg_attr(feature = "schema", schemars(with = "crate::rule::Category"))]
    pub category: String,
    pub title: String,
    pub description: String,
    #[cfg_attr(feature = "schema", schemars(with = "crate::rule::Level"))]
    pub impact: String,
    #[cfg_attr(feature = "schema", schemars(with = "crate::rule::Level"))]
    pub effort: String,
    #[cfg_attr(feature = "schema", schemars(range(max = 100)))]
    pub confidence: u8,
    pub current_value: Option<String>,
    pub suggested_value: Option<String>,
}

/// Outcome of one check, in `checks`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum CheckStatus {
    Pass,
    Fail,
    #[default]
    NotApplicable,
}

/// One entry of `checks`: every rule and how it came out.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct CheckSummary {
    pub id: String,
    #[cfg_attr(feature = "schema", schemars(with = "crate::rule::Category"))]
    pub category: String,
    pub status: CheckStatus,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct ImageCounts {
    pub total: usize,
    pub missing_alt: usize,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct LinkCounts {
    pub internal: usize,
    pub external: usize,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct OgSummary {
    pub title: String,
    pub description: String,
    pub image: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct HeadingSummary {
    #[cfg_attr(feature = "schema", schemars(range(min = 1, max = 6)))]
    pub level: u8,
    pub text: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct HreflangSummary {
    pub lang: String,
    pub href: String,
}

/// `page` of the audit result: every field existing clients read, plus additive ones
/// (docs/API.md, "The audit result").
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "Page"))]
#[serde(default)]
pub struct PageSummary {
    pub url: String,
    pub final_url: String,
    pub title: String,
    pub meta_description: Option<String>,
    pub h1: String,
    pub word_count: usize,
    pub images: ImageCounts,
    pub links: LinkCounts,
    pub og: OgSummary,
    pub canonical: String,
    pub robots: String,
    pub schema_markup: bool,
    pub load_time_ms: u64,
    /// HTTP status of the audited page; 0 when the page was read from a file.
    #[cfg_attr(feature = "schema", schemars(range(max = 999)))]
    pub status_code: u16,
    pub lang: String,
    pub charset: String,
    pub headings: Vec<HeadingSummary>,
    pub hreflang: Vec<HreflangSummary>,
    pub schema_types: Vec<String>,
}

/// `meta` of the audit result.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct ResultMeta {
    pub engine_version: String,
    pub ruleset_version: String,
    pub ruleset_fingerprint: String,
    pub checks_executed: usize,
}

/// The full audit result. Reading one back fills absent fields with their defaults, so a
/// result stored by an older version (or a partial one) still reads as this type.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct AuditResult {
    #[cfg_attr(feature = "schema", schemars(extend("const" = true)))]
    pub ok: bool,
    #[cfg_attr(feature = "schema", schemars(extend("const" = "v1")))]
    pub api_version: String,
    #[cfg_attr(feature = "schema", schemars(extend("format" = "date-time")))]
    pub scanned_at: String,
    pub target_type: String,
    pub target: Option<String>,
    pub page: PageSummary,
    pub score: Score,
    pub recommendations: Vec<Recommendation>,
    pub checks: Vec<CheckSummary>,
    pub ai_insights: String,
    pub meta: ResultMeta,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct CompactScore {
    pub current: u32,
    pub max: u32,
    #[cfg_attr(feature = "schema", schemars(range(max = 100)))]
    pub percentage: u32,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct IssueCounts {
    pub critical: usize,
    pub warning: usize,
    pub notice: usize,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct TopIssue {
    pub id: String,
    #[cfg_attr(feature = "schema", schemars(with = "crate::rule::Severity"))]
    #[serde(rename = "type")]
    pub kind: String,
    pub title: String,
}

/// The compact audit result.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(deny_unknown_fields))]
#[serde(default)]
pub struct CompactResult {
    #[cfg_attr(feature = "schema", schemars(extend("const" = true)))]
    pub ok: bool,
    #[cfg_attr(feature = "schema", schemars(extend("const" = "v1")))]
    pub api_version: String,
    pub url: String,
    #[cfg_attr(feature = "schema", schemars(extend("format" = "date-time")))]
    pub scanned_at: String,
    pub status_code: u16,
    pub score: CompactScore,
    pub issues: IssueCounts,
    #[cfg_attr(feature = "schema", schemars(length(max = 5)))]
    pub top_issues: Vec<TopIssue>,
}
