//! The read-only resources of the agent-tool endpoint, generated from the tables the
//! engines use (the rule table, the severities, the glossary, the AI bot table), so what
//! an agent reads is what the audit does.

use std::fmt::Write as _;

use ai_visibility::{Purpose, AI_BOTS};
use audit_core::{ruleset_fingerprint, Category, Level, RuleMeta, Severity, ENGINE_VERSION, RULES, RULESET_VERSION};
use mcp_protocol::{ResourceContents, ResourceDef, ResourceTemplateDef};
use serde_json::{json, Value};

use super::glossary::{self, GLOSSARY};
use super::methodology::methodology_markdown;

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

const CHECK_PREFIX: &str = "svc://checks/";
const CONCEPT_PREFIX: &str = "svc://seo-concepts/";

const MARKDOWN: &str = "text/markdown";
const JSON: &str = "application/json";

/// The fixed resources, in a fixed order.
pub fn resource_defs() -> Vec<ResourceDef> {
    let def = |uri: &str, name: &str, description: &str, mime: &str| ResourceDef {
        uri: uri.into(),
        name: name.into(),
        description: description.into(),
        mime_type: mime.into(),
    };
    vec![
        def(
            METHODOLOGY_URI,
            "methodology",
            "How seo_audit scores a page: the scoring formula, and every rule by group and category with its \
             severity, weight and threshold.",
            MARKDOWN,
        ),
        def(
            CONCEPTS_URI,
            "seo-concepts",
            "Index of the SEO glossary: every concept's slug, title, aliases and the audit rules that check it. \
             Read one with svc://seo-concepts/{concept} or the get_seo_concept tool.",
            JSON,
        ),
        def(
            CHECKS_URI,
            "checks",
            "Every audit rule with its stable id, category, group, severity, impact, effort, confidence, weight, \
             threshold, why it matters, failing and passing examples and a reference.",
            JSON,
        ),
        def(
            SEVERITY_URI,
            "severity-levels",
            "What the issue types critical, warning and notice mean, what impact and effort levels mean, and how \
             many rules and points each severity holds.",
            JSON,
        ),
        def(
            DATA_SOURCES_URI,
            "data-sources",
            "What the service fetches to answer (the page, /robots.txt, /llms.txt, competitor pages, the configured \
             AI search provider), how, and what it never does; with the table of AI crawlers it knows.",
            MARKDOWN,
        ),
    ]
}

/// The resource templates, in a fixed order.
pub fn resource_template_defs() -> Vec<ResourceTemplateDef> {
    vec![
        ResourceTemplateDef {
            uri_template: "svc://checks/{id}".into(),
            name: "check".into(),
            description: "One audit rule by its id (as in an issue's id), with its glossary concept.".into(),
            mime_type: JSON.into(),
        },
        ResourceTemplateDef {
            uri_template: "svc://seo-concepts/{concept}".into(),
            name: "seo-concept".into(),
            description: "One glossary entry by slug, alias or rule id, as get_seo_concept returns it.".into(),
            mime_type: JSON.into(),
        },
    ]
}

/// The contents of a resource, or `None` when the URI names nothing.
pub fn read_resource(uri: &str) -> Option<ResourceContents> {
    let (mime, text) = match uri {
        METHODOLOGY_URI => (MARKDOWN, methodology_markdown()),
        CONCEPTS_URI => (JSON, pretty(&concepts_index())),
        CHECKS_URI => (JSON, pretty(&checks())),
        SEVERITY_URI => (JSON, pretty(&severity_levels())),
        DATA_SOURCES_URI => (MARKDOWN, data_sources_markdown()),
        _ => {
            if let Some(id) = uri.strip_prefix(CHECK_PREFIX) {
                let meta = audit_core::rule_by_id(&percent_decode(id)?)?;
                (JSON, pretty(&check(meta, true)))
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
    Some(ResourceContents { uri: uri.to_string(), mime_type: mime.to_string(), text })
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_else(|_| v.to_string())
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

fn check(m: &RuleMeta, with_concept: bool) -> Value {
    let mut v = json!({
        "id": m.id,
        "name": m.name,
        "category": m.category.name(),
        "group": m.category.group().name(),
        "severity": m.severity.name(),
        "impact": m.impact.name(),
        "effort": m.effort.name(),
        "confidence": m.confidence,
        "weight": m.weight,
        "threshold": m.threshold,
        "why": m.why,
        "failExample": m.fail_example,
        "passExample": m.pass_example,
        "reference": m.reference,
        "uri": format!("{CHECK_PREFIX}{}", m.id),
    });
    if with_concept {
        if let (Some(e), Some(obj)) = (glossary::entry_for_rule(m.id), v.as_object_mut()) {
            obj.insert("concept".into(), json!(e.slug));
            obj.insert("howToFix".into(), json!(e.how_to_fix));
        }
    }
    v
}

fn checks() -> Value {
    let rules: Vec<Value> = RULES.iter().map(|r| check(r.meta(), false)).collect();
    json!({
        "rulesetVersion": RULESET_VERSION,
        "rulesetFingerprint": ruleset_fingerprint(),
        "engineVersion": ENGINE_VERSION,
        "count": rules.len(),
        "totalWeight": RULES.iter().map(|r| r.meta().weight).sum::<u32>(),
        "categories": Category::ALL.iter().map(|c| json!({ "category": c.name(), "group": c.group().name() })).collect::<Vec<_>>(),
        "checks": rules,
    })
}

fn concepts_index() -> Value {
    let concepts: Vec<Value> = GLOSSARY
        .iter()
        .map(|e| {
            json!({
                "concept": e.slug,
                "title": e.title,
                "aliases": e.aliases,
                "relatedRules": e.rules,
                "uri": format!("{CONCEPT_PREFIX}{}", e.slug),
            })
        })
        .collect();
    json!({ "count": concepts.len(), "concepts": concepts })
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

fn severity_levels() -> Value {
    let levels: Vec<Value> = SEVERITIES
        .iter()
        .zip(SEVERITY_MEANINGS)
        .map(|(s, (meaning, consequence))| {
            let rules: Vec<&str> = RULES.iter().map(|r| r.meta()).filter(|m| m.severity == *s).map(|m| m.id).collect();
            let weight: u32 = RULES.iter().map(|r| r.meta()).filter(|m| m.severity == *s).map(|m| m.weight).sum();
            json!({
                "level": s.name(),
                "meaning": meaning,
                "consequence": consequence,
                "ruleCount": rules.len(),
                "weight": weight,
                "rules": rules,
            })
        })
        .collect();
    let scale = |what: &str, levels: [(Level, &str); 3]| {
        json!({
            "field": what,
            "levels": levels.iter().map(|(l, meaning)| json!({ "level": l.name(), "points": l.points(), "meaning": meaning })).collect::<Vec<_>>(),
        })
    };
    json!({
        "severity": {
            "field": "type",
            "description": "The type of an issue (recommendation) is the severity of the rule that failed.",
            "levels": levels,
        },
        "impact": scale("impact", [
            (Level::High, "fixing it is likely to change rankings, indexing or clicks noticeably"),
            (Level::Medium, "a moderate, usually indirect, improvement"),
            (Level::Low, "a small improvement or good practice"),
        ]),
        "effort": scale("effort", [
            (Level::High, "needs development or infrastructure work (templates, server, content production)"),
            (Level::Medium, "a change to a template or several pages"),
            (Level::Low, "a one-line change to the page's head or markup"),
        ]),
        "ranking": "get_opportunities ranks issues by rule weight, impact and effort: high impact, low effort and heavy weight first.",
    })
}

fn purpose_text(p: Purpose) -> &'static str {
    match p {
        Purpose::Training => "model training",
        Purpose::Search => "AI search index",
        Purpose::UserFetch => "fetch on a user's request",
    }
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
         The AI-readiness check names the first three; the scan reports all of them.\n\n\
         | token | operator | purpose |\n|---|---|---|",
        AI_BOTS.len()
    );
    for b in AI_BOTS {
        let _ = writeln!(out, "| `{}` | {} | {} |", b.name, b.operator, purpose_text(b.purpose));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::percent_decode;

    #[test]
    fn escapes_are_decoded_strictly() {
        assert_eq!(percent_decode("canonical%20tag").as_deref(), Some("canonical tag"));
        assert_eq!(percent_decode("caf%C3%A9").as_deref(), Some("café"));
        assert_eq!(percent_decode("title-missing").as_deref(), Some("title-missing"));
        for bad in ["", "%", "%4", "a%zz", "%+F", "%FF", "%C3%A"] {
            assert_eq!(percent_decode(bad), None, "{bad}");
        }
    }
}
