//! The audit and the crawl as CI systems read them (docs/API.md, "Command line audits for
//! CI" and "Site crawl", "Command line"): SARIF 2.1.0 for code scanning, JUnit XML for test
//! reports. Both list the rule table's rules (and for a crawl the site rules);
//! `--min-score` still decides the exit status.

use std::fmt::Write as _;

use audit_core::{Audit, Outcome, RuleMeta, Severity};
use crawl::SiteRuleMeta;
use serde_json::{json, Value};

use crate::baseline::Marks;

/// The schema address SARIF files name (the OASIS 2.1.0 schema).
pub const SARIF_SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// Where the project documents its rules.
const RULES_URI: &str = "https://github.com/seo-audit/seo-audit/blob/main/docs/RULES.md";

/// The SARIF level of a severity: critical is `error`, warning `warning`, notice `note`.
fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Critical => "error",
        Severity::Warning => "warning",
        _ => "note",
    }
}

/// What the CI formats say of a rule: a page rule of the table or a site rule.
struct RuleDoc {
    id: &'static str,
    name: &'static str,
    why: &'static str,
    severity: Severity,
    /// The page rules' category; `None` for a site rule.
    category: Option<audit_core::Category>,
    /// The page rules' weight; `None` for a site rule.
    weight: Option<u32>,
    threshold: &'static str,
    pass_example: &'static str,
    fail_example: &'static str,
    reference: &'static str,
}

impl From<&RuleMeta> for RuleDoc {
    fn from(r: &RuleMeta) -> RuleDoc {
        RuleDoc {
            id: r.id,
            name: r.name,
            why: r.why,
            severity: r.severity,
            category: Some(r.category),
            weight: Some(r.weight),
            threshold: r.threshold,
            pass_example: r.pass_example,
            fail_example: r.fail_example,
            reference: r.reference,
        }
    }
}

impl From<&SiteRuleMeta> for RuleDoc {
    fn from(r: &SiteRuleMeta) -> RuleDoc {
        RuleDoc {
            id: r.id,
            name: r.name,
            why: r.why,
            severity: r.severity,
            category: None,
            weight: None,
            threshold: r.threshold,
            pass_example: r.pass_example,
            fail_example: r.fail_example,
            reference: r.reference,
        }
    }
}

/// The help text of a rule: what passes, what fails, and where the practice is documented.
fn help(rule: &RuleDoc) -> String {
    let mut text = String::new();
    if !rule.pass_example.is_empty() {
        let _ = write!(text, "Passes: {}", rule.pass_example);
    }
    if !rule.fail_example.is_empty() {
        let _ = write!(text, "{}Fails: {}", if text.is_empty() { "" } else { "\n" }, rule.fail_example);
    }
    if !rule.threshold.is_empty() {
        let _ = write!(text, "{}Threshold: {}", if text.is_empty() { "" } else { "\n" }, rule.threshold);
    }
    if !rule.reference.is_empty() {
        let _ = write!(text, "{}See {}", if text.is_empty() { "" } else { "\n" }, rule.reference);
    }
    if text.is_empty() {
        rule.why.to_string()
    } else {
        text
    }
}

/// A SARIF `reportingDescriptor` of a rule: id, name, short and full description, help,
/// default level from the severity, `helpUri` when the reference is a URL, and properties
/// (category and weight for a page rule, `kind` `site` for a site rule).
fn descriptor(r: &RuleDoc) -> Value {
    let properties = match (r.category, r.weight) {
        (Some(category), Some(weight)) => json!({
            "category": category.as_str(),
            "severity": r.severity.as_str(),
            "weight": weight,
            "tags": [category.as_str()],
        }),
        _ => json!({ "kind": "site", "severity": r.severity.as_str(), "tags": ["Site"] }),
    };
    let mut rule = json!({
        "id": r.id,
        "name": r.name,
        "shortDescription": { "text": r.name },
        "fullDescription": { "text": if r.why.is_empty() { r.name } else { r.why } },
        "help": { "text": help(r) },
        "defaultConfiguration": { "level": level(r.severity) },
        "properties": properties,
    });
    if r.reference.starts_with("https://") || r.reference.starts_with("http://") {
        rule["helpUri"] = json!(r.reference);
    }
    rule
}

/// A SARIF location at `uri`.
fn location_at(uri: &str) -> Value {
    json!({ "physicalLocation": { "artifactLocation": { "uri": uri } } })
}

/// A SARIF location of an element in the HTML at `uri`: the region of its start tag (line,
/// column, the tag as snippet), and its selector as a logical location, so that code scanning
/// annotates the line.
fn element_at(uri: &str, at: &audit_core::Location) -> Value {
    json!({
        "physicalLocation": {
            "artifactLocation": { "uri": uri },
            "region": {
                "startLine": at.line,
                "startColumn": at.column,
                "snippet": { "text": at.snippet },
            },
        },
        "logicalLocations": [{ "fullyQualifiedName": at.selector, "kind": "element" }],
    })
}

/// The SARIF results of one finding: one per element it lists (each annotates its own line),
/// or one located at the artifact when it points at no element.
fn finding_results(uri: &str, result: &Value, finding: &audit_core::Finding) -> Vec<Value> {
    if finding.locations.is_empty() {
        let mut r = result.clone();
        r["locations"] = json!([location_at(uri)]);
        return vec![r];
    }
    finding
        .locations
        .iter()
        .map(|at| {
            let mut r = result.clone();
            r["locations"] = json!([element_at(uri, at)]);
            r
        })
        .collect()
}

/// The tool part of a SARIF run, listing `rules`.
fn driver(rules: Vec<Value>) -> Value {
    json!({ "driver": {
        "name": "seo-audit",
        "version": audit_core::ENGINE_VERSION,
        "informationUri": RULES_URI,
        "rules": rules,
    } })
}

/// What a failed check says: its title, then its description and values.
fn message(finding: &audit_core::Finding) -> String {
    let mut text = finding.title.clone();
    if !finding.description.is_empty() {
        let _ = write!(text, ". {}", finding.description);
    }
    if let Some(current) = &finding.current_value {
        let _ = write!(text, " Current: {current}.");
    }
    if let Some(suggested) = &finding.suggested_value {
        let _ = write!(text, " Suggested: {suggested}.");
    }
    text
}

/// The SARIF 2.1.0 log of an audit: one run of the tool `seo-audit`, its driver listing every
/// rule of the audit (id, name, short and full description, help, default level from the
/// severity), and for each failed rule one result per element its finding lists, with the
/// region of the element's start tag in `location` (the path of the audited file, or the
/// page URL), or one result located at `location` when the finding points at no element.
/// Columns count Unicode characters (`columnKind`). The score and ruleset version are run
/// properties. With a baseline, each result carries its finding's `baselineState` (`new` or
/// `unchanged`) and the baseline's resolved findings are results too, `absent`.
pub fn sarif(audit: &Audit, location: &str, marks: Option<&Marks>) -> Value {
    let rules: Vec<Value> = audit.checks.iter().map(|c| descriptor(&RuleDoc::from(c.rule))).collect();
    let results: Vec<Value> = audit
        .checks
        .iter()
        .enumerate()
        .flat_map(|(i, c)| match &c.outcome {
            Outcome::Fail(f) => {
                let result = json!({
                    "ruleId": c.rule.id,
                    "ruleIndex": i,
                    "level": level(c.rule.severity),
                    "message": { "text": message(f) },
                });
                let result = with_state(result, marks.and_then(|m| m.state(c.rule.id, "")));
                finding_results(location, &result, f)
            }
            _ => Vec::new(),
        })
        .collect();
    let mut results = results;
    if let Some(marks) = marks {
        let index = |id: &str| audit.checks.iter().position(|c| c.rule.id == id);
        results.extend(marks.resolved().map(|f| resolved_result(f, index(&f.rule), location)));
    }
    let score = audit.score();
    json!({
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": driver(rules),
            "artifacts": [{ "location": { "uri": location } }],
            "columnKind": "unicodeCodePoints",
            "results": results,
            "properties": {
                "score": score.percentage,
                "rulesetVersion": score.ruleset_version,
                "baseline": marks.map(Marks::summary),
            },
        }],
    })
}

/// `result` with its `baselineState`, when there is a baseline.
fn with_state(mut result: Value, state: Option<audit_core::baseline::State>) -> Value {
    if let Some(state) = state {
        result["baselineState"] = json!(state.sarif());
    }
    result
}

/// A SARIF result for a baseline's finding that is resolved: `baselineState` `absent`, at
/// `location` (the finding's URL for a crawl), level `none` since it no longer fails.
fn resolved_result(f: &audit_core::baseline::Finding, index: Option<usize>, location: &str) -> Value {
    let title = if f.title.is_empty() { f.rule.as_str() } else { f.title.as_str() };
    let mut result = json!({
        "ruleId": f.rule,
        "level": "none",
        "message": { "text": format!("Resolved since the baseline: {title}") },
        "locations": [location_at(location)],
        "baselineState": "absent",
    });
    if let Some(i) = index {
        result["ruleIndex"] = json!(i);
    }
    result
}

/// The JUnit failure message of a finding: its state against the baseline first.
fn marked(state: Option<audit_core::baseline::State>, text: &str) -> String {
    match state {
        Some(state) => format!("[{state}] {text}"),
        None => text.to_string(),
    }
}

/// The suite properties of a comparison with a baseline: its counts.
fn baseline_properties(marks: Option<&Marks>) -> Vec<(&'static str, String)> {
    marks.map_or_else(Vec::new, |m| {
        let c = m.counts();
        vec![
            ("baselineNew", c.new.to_string()),
            ("baselineUnchanged", c.unchanged.to_string()),
            ("baselineResolved", c.resolved.to_string()),
        ]
    })
}

/// A rule's JUnit class: its category in kebab case (`SEO Technical` → `seo-technical`).
fn class_of(category: audit_core::Category) -> String {
    category.as_str().to_lowercase().split_whitespace().collect::<Vec<_>>().join("-")
}

/// Escapes text for an XML attribute or element.
fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 cannot carry at all.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// The elements a finding lists, one line each, `LOCATION:LINE:COLUMN SELECTOR`, and how
/// many more there are; empty when it lists none.
fn elements(finding: &audit_core::Finding, location: &str) -> String {
    let mut text = String::new();
    for at in &finding.locations {
        let _ = writeln!(text, "{location}:{}:{} {}", at.line, at.column, at.selector);
    }
    let more = (finding.locations_total as usize).saturating_sub(finding.locations.len());
    if more > 0 {
        let _ = writeln!(text, "... and {more} more");
    }
    text
}

/// The JUnit XML report of an audit: one `testsuite` named after `location`, one `testcase`
/// per rule (its id as the name, `seo-audit.` and [`class_of`] its category as the class), a `failure` for each
/// failed rule carrying the finding's message (its `type` the severity), `skipped` for a
/// rule that does not apply. The score is a suite property. With a baseline, a failure's
/// message starts with its state (`[new]`, `[unchanged]`), a rule whose finding was resolved
/// says so in its `system-out`, and the counts are suite properties.
pub fn junit(audit: &Audit, location: &str, timestamp: &str, marks: Option<&Marks>) -> String {
    let (mut failures, mut skipped) = (0, 0);
    let mut cases = String::new();
    for c in &audit.checks {
        let r = c.rule;
        let _ = write!(
            cases,
            "    <testcase name=\"{}\" classname=\"seo-audit.{}\" time=\"0\"",
            xml(r.id),
            xml(&class_of(r.category))
        );
        match &c.outcome {
            Outcome::Fail(f) => {
                failures += 1;
                let _ = write!(
                    cases,
                    ">\n      <failure message=\"{}\" type=\"{}\">{}</failure>\n    </testcase>\n",
                    xml(&marked(marks.and_then(|m| m.state(r.id, "")), &f.title)),
                    r.severity.as_str(),
                    xml(&format!("{}: {}\n{}{}", r.name, message(f), elements(f, location), help(&RuleDoc::from(r))))
                );
            }
            _ if marks.is_some_and(|m| m.resolved().any(|f| f.rule == r.id)) => {
                cases.push_str(">\n      <system-out>resolved since the baseline</system-out>\n    </testcase>\n");
            }
            Outcome::NotApplicable => {
                skipped += 1;
                cases.push_str(">\n      <skipped message=\"not applicable to this page\"/>\n    </testcase>\n");
            }
            _ => cases.push_str("/>\n"),
        }
    }
    let score = audit.score();
    let suite = Suite {
        name: location.to_string(),
        tests: audit.checks.len(),
        failures,
        skipped,
        properties: [("score", score.percentage.to_string()), ("rulesetVersion", score.ruleset_version.clone())]
            .into_iter()
            .chain(baseline_properties(marks))
            .collect(),
        cases,
    };
    testsuites(&[suite], timestamp)
}

/// One `<testsuite>` of a JUnit report, its test cases already written.
struct Suite {
    name: String,
    tests: usize,
    failures: usize,
    skipped: usize,
    properties: Vec<(&'static str, String)>,
    cases: String,
}

/// The JUnit document: `<testsuites>` with the counts summed, then each suite.
fn testsuites(suites: &[Suite], timestamp: &str) -> String {
    let sum = |f: fn(&Suite) -> usize| suites.iter().map(f).sum::<usize>();
    let (tests, failures, skipped) = (sum(|s| s.tests), sum(|s| s.failures), sum(|s| s.skipped));
    let mut out = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <testsuites name=\"seo-audit\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\">\n"
    );
    for s in suites {
        let _ = write!(
            out,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\" timestamp=\"{}\">\n    \
             <properties>\n",
            xml(&s.name),
            s.tests,
            s.failures,
            s.skipped,
            xml(timestamp)
        );
        for (name, value) in &s.properties {
            let _ = writeln!(out, "      <property name=\"{}\" value=\"{}\"/>", xml(name), xml(value));
        }
        let _ = write!(out, "    </properties>\n{}  </testsuite>\n", s.cases);
    }
    out.push_str("</testsuites>\n");
    out
}

/// A crawl as the CI formats read it: the site score, the audited pages with the page rules
/// each failed, and the site rules' findings (docs/API.md, "Site crawl", "Command line").
pub struct CrawlFailures<'a> {
    /// The start URL.
    pub url: &'a str,
    pub site_score: Option<u32>,
    /// The pages audited, in the report's order.
    pub pages: Vec<CrawlPage<'a>>,
    /// The site rules that found something, by id.
    pub site: Vec<SiteIssue<'a>>,
}

/// An audited page of a crawl.
pub struct CrawlPage<'a> {
    pub url: &'a str,
    pub score: u32,
    /// The page rules it failed, each with the title of its finding on this page.
    pub failed: Vec<PageFailure<'a>>,
}

/// A page rule a crawled page failed.
pub struct PageFailure<'a> {
    /// The rule id.
    pub id: &'a str,
    /// The finding's title on this page ("Page is not served over HTTPS"), which names the
    /// problem; empty when the store has none, and then the rule's reason is said alone.
    pub title: &'a str,
    /// The elements the finding points at on the page (the first of them), as the audit
    /// lists them; empty when it points at none.
    pub locations: &'a [audit_core::Location],
}

/// What one site rule found.
pub struct SiteIssue<'a> {
    pub id: &'a str,
    pub findings: Vec<SiteHit<'a>>,
}

/// One affected URL of a site rule.
pub struct SiteHit<'a> {
    pub url: &'a str,
    pub linked_from: Option<&'a str>,
    pub detail: &'a str,
}

/// The page rules of the table, then the site rules, as the crawl formats list them.
fn crawl_rules() -> Vec<RuleDoc> {
    let page = audit_core::RULES.iter().map(|r| RuleDoc::from(r.meta()));
    page.chain(crawl::SITE_RULES.iter().map(|r| RuleDoc::from(r.meta()))).collect()
}

/// What a site finding says: that the check failed (a site rule's name says what passing
/// means, so it is quoted as the check, never said as the finding), the detail, the linking
/// page.
fn site_message(rule: &RuleDoc, hit: &SiteHit<'_>) -> String {
    let mut text = format!("Check failed: \u{201c}{}\u{201d}", rule.name);
    if !hit.detail.is_empty() {
        let _ = write!(text, " ({})", hit.detail);
    }
    text.push('.');
    if let Some(from) = hit.linked_from {
        let _ = write!(text, " Linked from {from}.");
    }
    text
}

/// What a failed page rule of a crawled page says: the finding's title (which names the
/// problem, where the rule's name says what passing means), then why it matters.
fn failure_text(failure: &PageFailure<'_>, rule: &RuleDoc) -> String {
    if failure.title.is_empty() {
        return rule.why.to_string();
    }
    format!("{}. {}", failure.title.trim_end_matches('.'), rule.why)
}

/// The elements of a failed page rule as JUnit failure text lists them: one line each,
/// `line:col selector`.
fn elements_text(locations: &[audit_core::Location]) -> String {
    locations.iter().fold(String::new(), |mut text, at| {
        let _ = writeln!(text, "{}:{} {}", at.line, at.column, at.selector);
        text
    })
}

/// The SARIF 2.1.0 log of a crawl: one run whose driver lists the page rules of the table,
/// then the site rules (`properties.kind` `site`); one result per failed page rule per
/// audited page and element it points at (the region of the element's start tag, as for an
/// audit), located at the page's URL, and one per site-rule finding, located at the
/// affected URL with the linking page, where there is one, as a related location. The site
/// score is a run property. With a baseline, as for an audit: each result's `baselineState`,
/// and the resolved findings as `absent` results at their URL.
pub fn crawl_sarif(crawl: &CrawlFailures<'_>, marks: Option<&Marks>) -> Value {
    let docs = crawl_rules();
    let index = |id: &str| docs.iter().position(|d| d.id == id);
    let mut results = Vec::new();
    for page in &crawl.pages {
        for failure in &page.failed {
            let Some(i) = index(failure.id) else { continue };
            let r = &docs[i];
            let result = json!({
                "ruleId": r.id,
                "ruleIndex": i,
                "level": level(r.severity),
                "message": { "text": failure_text(failure, r) },
            });
            let state = marks.and_then(|m| m.state(r.id, page.url));
            // As for an audit: one result per element, each annotating its own line.
            let located: Vec<Value> = if failure.locations.is_empty() {
                vec![location_at(page.url)]
            } else {
                failure.locations.iter().map(|at| element_at(page.url, at)).collect()
            };
            for location in located {
                let mut r = result.clone();
                r["locations"] = json!([location]);
                results.push(with_state(r, state));
            }
        }
    }
    for issue in &crawl.site {
        let Some(i) = index(issue.id) else { continue };
        let r = &docs[i];
        for hit in &issue.findings {
            let mut result = json!({
                "ruleId": r.id,
                "ruleIndex": i,
                "level": level(r.severity),
                "message": { "text": site_message(r, hit) },
                "locations": [location_at(hit.url)],
            });
            result = with_state(result, marks.and_then(|m| m.state(r.id, hit.url)));
            if let Some(from) = hit.linked_from {
                let mut related = location_at(from);
                related["id"] = json!(0);
                related["message"] = json!({ "text": "the linking page" });
                result["relatedLocations"] = json!([related]);
            }
            results.push(result);
        }
    }
    if let Some(marks) = marks {
        results.extend(marks.resolved().map(|f| resolved_result(f, index(&f.rule), &f.url)));
    }
    json!({
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": driver(docs.iter().map(descriptor).collect()),
            "results": results,
            "properties": {
                "url": crawl.url,
                "siteScore": crawl.site_score,
                "pagesAudited": crawl.pages.len(),
                "baseline": marks.map(Marks::summary),
            },
        }],
    })
}

/// The JUnit XML report of a crawl: a first `testsuite` `site rules` with one `testcase` per
/// site rule (class `seo-audit.site`; a `failure` listing the affected URLs), then one
/// `testsuite` per audited page, named after its URL, with one `testcase` per page rule (as
/// for `audit`; the crawl keeps which rules failed, so a rule that passed or did not apply is
/// a passing case). The site score and each page's score are suite properties. With a
/// baseline, each failure and each affected URL starts with its state, and the counts are
/// properties of the site suite.
pub fn crawl_junit(crawl: &CrawlFailures<'_>, timestamp: &str, marks: Option<&Marks>) -> String {
    let mut suites = Vec::new();
    let (mut cases, mut failures) = (String::new(), 0);
    for rule in crawl::SITE_RULES.iter().map(|r| RuleDoc::from(r.meta())) {
        let _ = write!(cases, "    <testcase name=\"{}\" classname=\"seo-audit.site\" time=\"0\"", xml(rule.id));
        match crawl.site.iter().find(|i| i.id == rule.id && !i.findings.is_empty()) {
            Some(issue) => {
                failures += 1;
                let n = issue.findings.len();
                let mut text = format!(
                    "Check failed: \u{201c}{}\u{201d} on {n} URL{}\n",
                    rule.name,
                    if n == 1 { "" } else { "s" }
                );
                for hit in &issue.findings {
                    let state = marks.and_then(|m| m.state(rule.id, hit.url));
                    let _ = writeln!(text, "{}", marked(state, &format!("{}  {}", hit.url, site_message(&rule, hit))));
                }
                text.push_str(&help(&rule));
                let _ = write!(
                    cases,
                    ">\n      <failure message=\"{}\" type=\"{}\">{}</failure>\n    </testcase>\n",
                    xml(&format!(
                        "Check failed: \u{201c}{}\u{201d} ({n} URL{})",
                        rule.name,
                        if n == 1 { "" } else { "s" }
                    )),
                    rule.severity.as_str(),
                    xml(&text)
                );
            }
            None => cases.push_str("/>\n"),
        }
    }
    let score = crawl.site_score.map(|s| s.to_string()).unwrap_or_default();
    suites.push(Suite {
        name: "site rules".to_string(),
        tests: crawl::SITE_RULES.len(),
        failures,
        skipped: 0,
        properties: [("url", crawl.url.to_string()), ("siteScore", score)]
            .into_iter()
            .chain(baseline_properties(marks))
            .collect(),
        cases,
    });
    for page in &crawl.pages {
        let (mut cases, mut failures) = (String::new(), 0);
        for r in audit_core::RULES.iter().map(|r| r.meta()) {
            let _ = write!(
                cases,
                "    <testcase name=\"{}\" classname=\"seo-audit.{}\" time=\"0\"",
                xml(r.id),
                xml(&class_of(r.category))
            );
            if let Some(failure) = page.failed.iter().find(|f| f.id == r.id) {
                failures += 1;
                let doc = RuleDoc::from(r);
                let title = if failure.title.is_empty() { r.id } else { failure.title };
                let _ = write!(
                    cases,
                    ">\n      <failure message=\"{}\" type=\"{}\">{}</failure>\n    </testcase>\n",
                    xml(&marked(marks.and_then(|m| m.state(r.id, page.url)), title)),
                    r.severity.as_str(),
                    xml(&format!(
                        "{}\n{}{}",
                        failure_text(failure, &doc),
                        elements_text(failure.locations),
                        help(&doc)
                    ))
                );
            } else {
                cases.push_str("/>\n");
            }
        }
        suites.push(Suite {
            name: page.url.to_string(),
            tests: audit_core::RULES.len(),
            failures,
            skipped: 0,
            properties: vec![("score", page.score.to_string())],
            cases,
        });
    }
    testsuites(&suites, timestamp)
}
