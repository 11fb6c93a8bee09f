//! The read-only resources agents read (docs/API.md, the agent-tool endpoint): what each
//! one is, and its contents as typed values generated from the tables the engines use (the
//! rule table, the severities, the glossary, the AI bot table), so what an agent reads is
//! what the audit does. The server maps a resource URI to these functions and their values
//! to the protocol's types.

use std::fmt::Write as _;

use ai_visibility::{Purpose, RobotsCompliance, AI_BOTS};
use audit_core::{ruleset_fingerprint, Category, Level, RuleMeta, Severity, ENGINE_VERSION, RULES, RULESET_VERSION};
use serde::Serialize;

use crate::glossary::{self, GLOSSARY};

/// URI of the scoring methodology (Markdown).
pub const METHODOLOGY_URI: &str = "svc://methodology";
/// URI of the glossary index (JSON).
pub const CONCEPTS_URI: &str = "svc://seo-concepts";
/// URI of the rule table (JSON).
pub const CHECKS_URI: &str = "svc://checks";
/// URI of the severity, impact and effort scales (JSON).
pub const SEVERITY_URI: &str = "svc://severity-levels";
/// URI of what the service fetches and never does (Markdown).
pub const DATA_SOURCES_URI: &str = "svc://data-sources";
/// Prefix of one rule's URI (`svc://checks/{id}`).
pub const CHECK_PREFIX: &str = "svc://checks/";
/// Prefix of one glossary entry's URI (`svc://seo-concepts/{concept}`).
pub const CONCEPT_PREFIX: &str = "svc://seo-concepts/";

/// Media type of the Markdown resources.
pub const MARKDOWN: &str = "text/markdown";
/// Media type of the JSON resources.
pub const JSON: &str = "application/json";

/// What a resource (or resource template) is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResourceInfo {
    /// The URI (or URI template).
    pub uri: &'static str,
    /// Short name.
    pub name: &'static str,
    /// What it holds.
    pub description: &'static str,
    /// Media type of its contents.
    pub mime_type: &'static str,
}

/// The fixed resources, in a fixed order.
pub const RESOURCES: [ResourceInfo; 5] = [
    ResourceInfo {
        uri: METHODOLOGY_URI,
        name: "methodology",
        description: "How seo_audit scores a page: the scoring formula, and every rule by group and category with \
                      its severity, weight and threshold.",
        mime_type: MARKDOWN,
    },
    ResourceInfo {
        uri: CONCEPTS_URI,
        name: "seo-concepts",
        description: "Index of the SEO glossary: every concept's slug, title, aliases and the audit rules that check \
                      it. Read one with svc://seo-concepts/{concept} or the get_seo_concept tool.",
        mime_type: JSON,
    },
    ResourceInfo {
        uri: CHECKS_URI,
        name: "checks",
        description: "Every audit rule with its stable id, category, group, severity, impact, effort, confidence, \
                      weight, threshold, why it matters, failing and passing examples and a reference.",
        mime_type: JSON,
    },
    ResourceInfo {
        uri: SEVERITY_URI,
        name: "severity-levels",
        description: "What the issue types critical, warning and notice mean, what impact and effort levels mean, \
                      and how many rules and points each severity holds.",
        mime_type: JSON,
    },
    ResourceInfo {
        uri: DATA_SOURCES_URI,
        name: "data-sources",
        description: "What the service fetches to answer (the page, /robots.txt, /llms.txt, competitor pages, the \
                      configured AI search provider), how, and what it never does; with the table of AI crawlers \
                      it knows.",
        mime_type: MARKDOWN,
    },
];

/// The resource templates, in a fixed order.
pub const RESOURCE_TEMPLATES: [ResourceInfo; 2] = [
    ResourceInfo {
        uri: "svc://checks/{id}",
        name: "check",
        description: "One audit rule by its id (as in an issue's id), with its glossary concept.",
        mime_type: JSON,
    },
    ResourceInfo {
        uri: "svc://seo-concepts/{concept}",
        name: "seo-concept",
        description: "One glossary entry by slug, alias or rule id, as get_seo_concept returns it.",
        mime_type: JSON,
    },
];

/// One audit rule (`svc://checks/{id}`, and each row of `svc://checks`).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Check {
    /// Stable rule id.
    pub id: &'static str,
    /// Rule name.
    pub name: &'static str,
    /// Category.
    pub category: &'static str,
    /// Group of the category.
    pub group: &'static str,
    /// Severity.
    pub severity: &'static str,
    /// Impact level.
    pub impact: &'static str,
    /// Effort level.
    pub effort: &'static str,
    /// Confidence, 0 to 100.
    pub confidence: u8,
    /// Points in the score.
    pub weight: u32,
    /// What passes.
    pub threshold: &'static str,
    /// Why it matters.
    pub why: &'static str,
    /// A failing example.
    pub fail_example: &'static str,
    /// A passing example.
    pub pass_example: &'static str,
    /// Where to read more.
    pub reference: &'static str,
    /// This rule's resource URI.
    pub uri: String,
    /// The glossary concept (one rule read alone).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub concept: Option<&'static str>,
    /// How to fix it, from the glossary (one rule read alone).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub how_to_fix: Option<&'static str>,
}

impl Check {
    fn of(m: &RuleMeta, with_concept: bool) -> Check {
        let entry = with_concept.then(|| glossary::entry_for_rule(m.id)).flatten();
        Check {
            id: m.id,
            name: m.name,
            category: m.category.as_str(),
            group: m.category.group().as_str(),
            severity: m.severity.as_str(),
            impact: m.impact.as_str(),
            effort: m.effort.as_str(),
            confidence: m.confidence,
            weight: m.weight,
            threshold: m.threshold,
            why: m.why,
            fail_example: m.fail_example,
            pass_example: m.pass_example,
            reference: m.reference,
            uri: format!("{CHECK_PREFIX}{}", m.id),
            concept: entry.map(|e| e.slug),
            how_to_fix: entry.map(|e| e.how_to_fix),
        }
    }
}

/// One rule with its glossary concept, or `None` for an unknown id.
pub fn check(id: &str) -> Option<Check> {
    audit_core::rule_by_id(id).map(|m| Check::of(m, true))
}

/// A category and its group.
#[derive(Debug, Clone, Serialize)]
pub struct CategoryGroup {
    /// Category.
    pub category: &'static str,
    /// Its group.
    pub group: &'static str,
}

/// The rule table (`svc://checks`).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Checks {
    /// Ruleset version.
    pub ruleset_version: &'static str,
    /// Ruleset fingerprint.
    pub ruleset_fingerprint: &'static str,
    /// Engine version.
    pub engine_version: &'static str,
    /// Number of rules.
    pub count: usize,
    /// Sum of the rules' weights.
    pub total_weight: u32,
    /// Every category with its group.
    pub categories: Vec<CategoryGroup>,
    /// Every rule.
    pub checks: Vec<Check>,
}

/// The rule table.
pub fn checks() -> Checks {
    let checks: Vec<Check> = RULES.iter().map(|r| Check::of(r.meta(), false)).collect();
    Checks {
        ruleset_version: RULESET_VERSION,
        ruleset_fingerprint: ruleset_fingerprint(),
        engine_version: ENGINE_VERSION,
        count: checks.len(),
        total_weight: RULES.iter().map(|r| r.meta().weight).sum(),
        categories: Category::ALL
            .iter()
            .map(|c| CategoryGroup { category: c.as_str(), group: c.group().as_str() })
            .collect(),
        checks,
    }
}

/// One row of the glossary index.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConceptRef {
    /// Slug.
    pub concept: &'static str,
    /// Title.
    pub title: &'static str,
    /// Other names.
    pub aliases: &'static [&'static str],
    /// Rules that check it.
    pub related_rules: Vec<&'static str>,
    /// Its resource URI.
    pub uri: String,
}

/// The glossary index (`svc://seo-concepts`).
#[derive(Debug, Clone, Serialize)]
pub struct ConceptIndex {
    /// Number of concepts.
    pub count: usize,
    /// Every concept.
    pub concepts: Vec<ConceptRef>,
}

/// The glossary index.
pub fn concepts_index() -> ConceptIndex {
    let concepts: Vec<ConceptRef> = GLOSSARY
        .iter()
        .map(|e| ConceptRef {
            concept: e.slug,
            title: e.title,
            aliases: e.aliases,
            related_rules: e.rules().collect(),
            uri: format!("{CONCEPT_PREFIX}{}", e.slug),
        })
        .collect();
    ConceptIndex { count: concepts.len(), concepts }
}

/// Meaning of each severity; the order is that of [`SEVERITIES`].
const SEVERITY_MEANINGS: [(&str, &str); 3] = [
    (
        "Blocks indexing or breaks the page for every visitor (error status, noindex, robots.txt block, no title). Fix first.",
        "Any one critical issue can keep the page out of search results.",
    ),
    (
        "Costs rankings, clicks or accessibility in a way users or search engines notice (missing description, no h1, images without alt). Fix soon.",
        "Each warning weakens the page; several together usually explain a mediocre score.",
    ),
    (
        "Good practice with a small or indirect effect (favicon, URL style, Open Graph details). Fix when convenient.",
        "Notices rarely move rankings alone but add up, and are usually quick.",
    ),
];

/// Severities from worst to mildest.
pub const SEVERITIES: [Severity; 3] = [Severity::Critical, Severity::Warning, Severity::Notice];

/// One severity with its rules.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SeverityLevel {
    /// The severity.
    pub level: &'static str,
    /// What it means.
    pub meaning: &'static str,
    /// What it costs.
    pub consequence: &'static str,
    /// Rules of this severity.
    pub rule_count: usize,
    /// Their weight.
    pub weight: u32,
    /// Their ids.
    pub rules: Vec<&'static str>,
}

/// The severity scale.
#[derive(Debug, Clone, Serialize)]
pub struct SeverityScale {
    /// The issue field it applies to.
    pub field: &'static str,
    /// What it is.
    pub description: &'static str,
    /// Each severity.
    pub levels: Vec<SeverityLevel>,
}

/// One level of the impact or effort scale.
#[derive(Debug, Clone, Serialize)]
pub struct ScaleLevel {
    /// The level.
    pub level: &'static str,
    /// Its points in the priority score.
    pub points: u32,
    /// What it means.
    pub meaning: &'static str,
}

/// The impact or effort scale.
#[derive(Debug, Clone, Serialize)]
pub struct Scale {
    /// The issue field it applies to.
    pub field: &'static str,
    /// Each level.
    pub levels: Vec<ScaleLevel>,
}

/// The severity, impact and effort scales (`svc://severity-levels`).
#[derive(Debug, Clone, Serialize)]
pub struct SeverityLevels {
    /// Severities.
    pub severity: SeverityScale,
    /// Impact levels.
    pub impact: Scale,
    /// Effort levels.
    pub effort: Scale,
    /// How get_opportunities ranks.
    pub ranking: &'static str,
}

/// The severity, impact and effort scales.
pub fn severity_levels() -> SeverityLevels {
    let levels = SEVERITIES
        .iter()
        .zip(SEVERITY_MEANINGS)
        .map(|(s, (meaning, consequence))| {
            let of_severity = || RULES.iter().map(|r| r.meta()).filter(|m| m.severity == *s);
            let rules: Vec<&str> = of_severity().map(|m| m.id).collect();
            SeverityLevel {
                level: s.as_str(),
                meaning,
                consequence,
                rule_count: rules.len(),
                weight: of_severity().map(|m| m.weight).sum(),
                rules,
            }
        })
        .collect();
    let scale = |field: &'static str, levels: [(Level, &'static str); 3]| Scale {
        field,
        levels: levels
            .iter()
            .map(|&(l, meaning)| ScaleLevel { level: l.as_str(), points: l.points(), meaning })
            .collect(),
    };
    SeverityLevels {
        severity: SeverityScale {
            field: "type",
            description: "The type of an issue (recommendation) is the severity of the rule that failed.",
            levels,
        },
        impact: scale(
            "impact",
            [
                (Level::High, "fixing it is likely to change rankings, indexing or clicks noticeably"),
                (Level::Medium, "a moderate, usually indirect, improvement"),
                (Level::Low, "a small improvement or good practice"),
            ],
        ),
        effort: scale(
            "effort",
            [
                (Level::High, "needs development or infrastructure work (templates, server, content production)"),
                (Level::Medium, "a change to a template or several pages"),
                (Level::Low, "a one-line change to the page's head or markup"),
            ],
        ),
        ranking: "get_opportunities ranks issues by rule weight, impact and effort: high impact, low effort and heavy weight first.",
    }
}

fn purpose_text(p: Purpose) -> &'static str {
    p.title()
}
/// The `svc://data-sources` text.
pub fn data_sources_markdown() -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Data sources\n\n\
         Everything the service knows about a site it fetched itself, at the moment of the request, from the \
         public web. It holds no third-party SEO database (no backlink index, no search volumes, no rank data).\n\n\
         ## What it fetches\n\n\
         - **The page** you name (tools seo_audit, get_site_info, get_opportunities, generate_fixes, workflows, \
         monitoring, keyword tracking and experiments): one GET of the URL, following at most 5 redirects, 5 s to \
         connect, 15 s in total, at most 5 MiB of body, with the user agent `SeoAuditBot`. Scripts are not run: \
         the audit reads the HTML as served.\n\
         - **/robots.txt** of the page's host: to report whether Googlebot and the AI crawlers may fetch the page \
         (RFC 9309 rules).\n\
         - **/llms.txt** of the host: for the AI-readiness and AI-visibility checks (llmstxt.org format).\n\
         - **Competitor pages**: only the URLs you pass to compare_competitors, the competitor workflow or \
         content-gap, fetched the same way.\n\
         - **The configured AI search provider**: only for /api/geo-check, and only when the operator configured \
         one (an OpenAI-compatible chat-completions service). It receives 12 generated queries about the domain; \
         nothing else is sent to it.\n\n\
         ## What it stores\n\n\
         Audit results of tool calls (to power monitoring, regression checks, keyword history and experiments), \
         workflow runs, monitors, keywords and experiments of the key owner, and per-key usage counters. API keys \
         are stored only as SHA-256 hashes.\n\n\
         ## What it never does\n\n\
         - Fetch private, loopback, link-local or other non-public addresses (checked on every redirect hop), or \
         anything but http and https.\n\
         - Log in, submit forms, run the page's JavaScript or execute any code from the page.\n\
         - Crawl beyond the URLs a request names (monitoring re-fetches only monitored pages, and obeys robots.txt).\n\
         - Send a page's content to an AI provider (geo-check sends only its 12 generated questions), or use \
         anything it fetched to train models.\n\
         - Claim search-engine rank positions: keyword tracking is on-page presence and frequency.\n\
         - Change anything on the audited site: fixes are returned as text for you to apply.\n"
    );
    let _ = writeln!(
        out,
        "## AI crawlers it knows ({} user-agent tokens)\n\n\
         The {} user agents of the public list of AI crawlers (the ai.robots.txt project, commit `{}`), \
         one row per robots.txt token. The AI-readiness check names the first three; the scan and the readiness \
         check judge all of them. A crawler that does not honour robots.txt is not stopped by a `Disallow`.\n\n\
         | token | operator | purpose | honours robots.txt |\n|---|---|---|---|",
        AI_BOTS.len(),
        ai_visibility::UPSTREAM_USER_AGENTS,
        ai_visibility::REGISTRY_COMMIT,
    );
    for b in AI_BOTS {
        let honours = match b.respects_robots_txt {
            RobotsCompliance::Yes => "yes",
            RobotsCompliance::No => "no",
            RobotsCompliance::Unclear => "unclear",
        };
        let _ = writeln!(out, "| `{}` | {} | {} | {honours} |", b.name, b.operator, purpose_text(b.purpose));
    }
    out
}

/// The media type and text of the resource `uri`, or `None` when the URI names nothing.
pub fn read(uri: &str) -> Option<(&'static str, String)> {
    let (mime, text) = match uri {
        METHODOLOGY_URI => (MARKDOWN, crate::methodology::methodology_markdown()),
        CONCEPTS_URI => (JSON, pretty(&concepts_index())),
        CHECKS_URI => (JSON, pretty(&checks())),
        SEVERITY_URI => (JSON, pretty(&severity_levels())),
        DATA_SOURCES_URI => (MARKDOWN, data_sources_markdown()),
        _ => {
            if let Some(id) = uri.strip_prefix(CHECK_PREFIX) {
                (JSON, pretty(&check(&percent_decode(id)?)?))
            } else if let Some(query) = uri.strip_prefix(CONCEPT_PREFIX) {
                let concept = glossary::concept(&percent_decode(query)?);
                if !concept.found {
                    return None;
                }
                (JSON, pretty(&concept.to_json()))
            } else {
                return None;
            }
        }
    };
    Some((mime, text))
}

fn pretty<T: Serialize>(v: &T) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

/// Decodes `%XX` escapes; `None` for a malformed escape, bytes that are not UTF-8, or
/// nothing at all. The decoder leaves a malformed escape as written, so it is refused
/// first: a resource URI with one names nothing, rather than a check or concept whose
/// name happens to contain `%`.
fn percent_decode(s: &str) -> Option<String> {
    let malformed =
        s.split('%').skip(1).any(|rest| !rest.as_bytes().get(..2).is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)));
    if malformed {
        return None;
    }
    let decoded = percent_encoding::percent_decode_str(s).decode_utf8().ok()?;
    (!decoded.is_empty()).then(|| decoded.into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rule_table_lists_every_rule_and_one_rule_names_its_concept() {
        let all = checks();
        assert_eq!(all.count, RULES.len());
        assert!(all.checks.iter().all(|c| c.concept.is_none() && c.uri == format!("{CHECK_PREFIX}{}", c.id)));
        let with_concept = RULES.iter().map(|r| r.meta().id).find(|id| glossary::entry_for_rule(id).is_some());
        let one = check(with_concept.unwrap_or_default()).map(|c| c.concept.is_some());
        assert_eq!(one, Some(true));
        assert!(check("no-such-rule").is_none());
    }

    #[test]
    fn severities_share_out_every_rule() {
        let levels = severity_levels();
        let counted: usize = levels.severity.levels.iter().map(|l| l.rule_count).sum();
        assert_eq!(counted, RULES.len());
        assert_eq!(concepts_index().count, GLOSSARY.len());
    }
}

#[cfg(test)]
mod uri_tests {
    use super::percent_decode;

    #[test]
    fn escapes_are_decoded_strictly() {
        assert_eq!(percent_decode("canonical%20tag").as_deref(), Some("canonical tag"));
        assert_eq!(percent_decode("caf%C3%A9").as_deref(), Some("café"));
        assert_eq!(percent_decode("meta-tags").as_deref(), Some("meta-tags"));
        for bad in ["", "%", "%4", "a%zz", "%+F", "%FF", "%C3%A"] {
            assert_eq!(percent_decode(bad), None, "{bad}");
        }
    }
}
