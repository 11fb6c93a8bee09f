//! `--baseline FILE` of `seo-audit audit` and `seo-audit crawl` (docs/API.md, "Command line
//! audits for CI"): the previous JSON output of the same command, read back, and this run's
//! findings compared with it by [`audit_core::baseline::compare`]. [`Marks`] is what every
//! output format reads of the comparison.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use audit_core::baseline::{self, Comparison, Counts, Element, Finding, State};
use serde_json::{json, Value};

use app::ErrorCode;

use crate::cli_error::CliError;

/// What `--fail-on` fails the command on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FailOn {
    /// A finding that is not in the baseline (or an element it did not list).
    New,
}

/// Which command's output a baseline must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    /// `seo-audit audit`.
    Audit,
    /// `seo-audit crawl`.
    Crawl,
}

impl Command {
    fn name(self) -> &'static str {
        match self {
            Command::Audit => "audit",
            Command::Crawl => "crawl",
        }
    }

    /// What `--baseline` takes, in words.
    fn expected(self) -> String {
        format!("--baseline takes the JSON output of a previous `seo-audit {} --format json`", self.name())
    }
}

/// A report read back: its findings, and the ruleset it was written with.
#[derive(Debug, Clone)]
pub struct Report {
    /// The audited URL (`audit`) or the start URL (`crawl`).
    pub url: String,
    /// The ruleset version it names, if any (crawl reports before this version named none).
    pub ruleset_version: Option<String>,
    /// Its findings.
    pub findings: Vec<Finding>,
    /// The rules whose list of findings the report cut (a site rule lists at most 10,000):
    /// how many findings it lists and how many there were.
    pub cut: HashMap<String, (usize, u64)>,
}

/// Reads the baseline at `path`, which must be the JSON output of `command`.
///
/// # Errors
/// An `invalid_request` failure saying what the file is and what was expected: unreadable,
/// not JSON, not a seo-audit report, or the other command's report.
pub fn read(path: &Path, command: Command) -> Result<Report, CliError> {
    let shown = path.display();
    let bytes = std::fs::read(path)
        .map_err(|e| CliError::new(ErrorCode::InvalidRequest, format!("cannot read the baseline {shown}: {e}")))?;
    let value: Value = serde_json::from_slice(&bytes).map_err(|e| {
        CliError::new(
            ErrorCode::InvalidRequest,
            format!("the baseline {shown} is not JSON ({e}); {}", command.expected()),
        )
    })?;
    let found = if value.get("crawl").and_then(|c| c.get("issues")).is_some_and(Value::is_array) {
        Some(Command::Crawl)
    } else {
        match baseline::audit_findings(&value) {
            Ok(_) => Some(Command::Audit),
            Err(baseline::NotAnAudit::Compact) if command == Command::Audit => {
                return Err(CliError::new(
                    ErrorCode::InvalidRequest,
                    format!(
                        "the baseline {shown} is the compact form, which lists only the worst five findings; {}",
                        command.expected()
                    ),
                ))
            }
            Err(_) => None,
        }
    };
    match found {
        Some(c) if c == command => Ok(report_of(&value, command)),
        Some(other) => Err(CliError::new(
            ErrorCode::InvalidRequest,
            format!("the baseline {shown} is a `seo-audit {}` report; {}", other.name(), command.expected()),
        )),
        None => Err(CliError::new(
            ErrorCode::InvalidRequest,
            format!("the baseline {shown} is not a seo-audit report; {}", command.expected()),
        )),
    }
}

/// The findings of a report of `command` already recognised as one (the current run's
/// output is read the same way, so both sides are alike).
pub fn report_of(value: &Value, command: Command) -> Report {
    match command {
        Command::Audit => {
            let read = baseline::audit_findings(value).unwrap_or_default();
            Report {
                url: read.url,
                ruleset_version: read.ruleset_version,
                findings: read.findings,
                cut: HashMap::new(),
            }
        }
        Command::Crawl => crawl_report(value),
    }
}

/// A crawl report's findings: a page issue is one finding per URL, whose elements are those
/// its `locations` list; a site issue's findings
/// at one URL are one finding whose elements are the pages linking to it (`linked_from`
/// stands as the element's selector), so a new link to a broken URL is a new element.
fn crawl_report(value: &Value) -> Report {
    let crawl = &value["crawl"];
    let mut findings: Vec<Finding> = Vec::new();
    let mut at: HashMap<(String, String), usize> = HashMap::new();
    let mut cut = HashMap::new();
    for issue in crawl["issues"].as_array().into_iter().flatten() {
        let rule = issue["id"].as_str().unwrap_or_default();
        if issue["truncated"].as_bool() == Some(true) {
            let listed = issue["urls"].as_array().map_or(0, Vec::len);
            cut.insert(rule.to_string(), (listed, issue["findings"].as_u64().unwrap_or_default()));
        }
        for hit in issue["urls"].as_array().into_iter().flatten() {
            let url = hit["url"].as_str().unwrap_or_default();
            let key = (rule.to_string(), url.to_string());
            let i = *at.entry(key).or_insert_with(|| {
                findings.push(Finding {
                    title: hit["detail"].as_str().unwrap_or_default().to_string(),
                    ..Finding::new(rule, url)
                });
                findings.len() - 1
            });
            if let Some(from) = hit["linked_from"].as_str() {
                findings[i].elements.push(Element { selector: Some(from.to_string()), ..Element::default() });
            }
            // A page rule's finding lists the elements it points at, as an audit does: they
            // are matched by selector, then snippet.
            let elements = hit["locations"].as_array().into_iter().flatten();
            findings[i].elements.extend(elements.filter_map(|l| serde_json::from_value::<Element>(l.clone()).ok()));
            if let Some(total) = hit["locations_total"].as_u64() {
                findings[i].elements_total = usize::try_from(total).unwrap_or(usize::MAX);
            }
        }
    }
    Report {
        url: crawl["url"].as_str().unwrap_or_default().to_string(),
        ruleset_version: crawl["ruleset_version"].as_str().map(str::to_string),
        findings,
        cut,
    }
}

/// Leaves out of a crawl comparison what only one side could list: when a report cut a
/// rule's list, a finding of that rule that the other report has at a URL past the cut is
/// neither new nor resolved (it may be among those not listed). A note says so per rule.
fn leave_out_past_cuts(current: &mut Report, baseline: &mut Report, notes: &mut Vec<String>) {
    /// Leaves out of `keep_in` the findings of each rule `by` cut at URLs `by` does not list.
    fn leave_out(keep_in: &mut Vec<Finding>, by: &Report, side: &str, other: &str, notes: &mut Vec<String>) {
        let mut rules: Vec<(&String, &(usize, u64))> = by.cut.iter().collect();
        rules.sort();
        for (rule, &(listed, total)) in rules {
            let urls: HashSet<&str> = by.findings.iter().filter(|f| &f.rule == rule).map(|f| f.url.as_str()).collect();
            let before = keep_in.len();
            keep_in.retain(|f| &f.rule != rule || urls.contains(f.url.as_str()));
            let left_out = before - keep_in.len();
            notes.push(format!(
                "{rule}: {side} lists {listed} of its {total} findings; {left_out} of {other} at URLs it does not \
                 list are left out of the comparison, which covers only what both list"
            ));
        }
    }
    // Each side is judged against what the other listed before anything was left out.
    let mut kept_current = current.findings.clone();
    leave_out(&mut kept_current, baseline, "the baseline", "this run's", notes);
    leave_out(&mut baseline.findings, current, "this run", "the baseline's", notes);
    current.findings = kept_current;
}

/// The comparison of this run with its baseline, as the output formats read it.
#[derive(Debug, Clone)]
pub struct Marks {
    /// The baseline's path as given.
    pub file: String,
    /// What the user should know of the comparison (an older ruleset, another URL).
    pub notes: Vec<String>,
    /// The baseline's ruleset version, if it names one.
    pub baseline_ruleset: Option<String>,
    /// This run's findings.
    pub current: Vec<Finding>,
    /// The baseline's.
    pub baseline: Vec<Finding>,
    /// The comparison of the two.
    pub comparison: Comparison,
}

impl Marks {
    /// This run's `current` against `baseline` read from `file`. For `audit` the one page is
    /// compared whatever its URL: a file audited without `--url` has its absolute path as
    /// URL, which differs between checkouts (a note says so when the URLs differ).
    pub fn new(file: &Path, command: Command, mut current: Report, mut baseline: Report) -> Marks {
        let mut notes = Vec::new();
        if let Some(note) = ruleset_note(baseline.ruleset_version.as_deref()) {
            notes.push(note);
        }
        if command == Command::Audit {
            if current.url != baseline.url {
                notes.push(format!(
                    "the baseline audited {}, this run {}: their findings are compared by rule and element",
                    baseline.url, current.url
                ));
            }
            for f in current.findings.iter_mut().chain(baseline.findings.iter_mut()) {
                f.url.clear();
            }
        } else {
            if current.url != baseline.url {
                notes.push(format!("the baseline crawled from {}, this run from {}", baseline.url, current.url));
            }
            leave_out_past_cuts(&mut current, &mut baseline, &mut notes);
        }
        let comparison = baseline::compare(&current.findings, &baseline.findings);
        Marks {
            file: file.display().to_string(),
            notes,
            baseline_ruleset: baseline.ruleset_version,
            current: current.findings,
            baseline: baseline.findings,
            comparison,
        }
    }

    /// Findings in each state.
    pub fn counts(&self) -> Counts {
        self.comparison.counts()
    }

    /// Whether anything is new.
    pub fn has_new(&self) -> bool {
        self.comparison.has_new()
    }

    /// The state of the current finding of `rule` at `url` (`url` empty for `audit`).
    pub fn state(&self, rule: &str, url: &str) -> Option<State> {
        self.current
            .iter()
            .zip(&self.comparison.current)
            .find(|(f, _)| f.rule == rule && f.url == url)
            .map(|(_, j)| j.state)
    }

    /// The baseline's findings resolved since.
    pub fn resolved(&self) -> impl Iterator<Item = &Finding> {
        self.comparison.resolved.iter().map(|&i| &self.baseline[i])
    }

    /// The `baseline` member of the JSON outputs: the file, the ruleset it was written with,
    /// the counts, the notes, and the resolved findings.
    pub fn summary(&self) -> Value {
        let resolved: Vec<Value> = self
            .resolved()
            .map(|f| {
                let mut r = json!({ "id": f.rule, "title": f.title });
                if !f.url.is_empty() {
                    r["url"] = json!(f.url);
                }
                if !f.elements.is_empty() {
                    r["locations"] = json!(f.elements);
                }
                r
            })
            .collect();
        json!({
            "file": self.file,
            "ruleset_version": self.baseline_ruleset,
            "counts": self.counts(),
            "notes": self.notes,
            "resolved": resolved,
        })
    }

    /// Marks a JSON audit result in place: each recommendation gets its `baseline_state`, each
    /// of its locations too, and the baseline's locations it no longer has as
    /// `resolved_locations`; the result gets the `baseline` summary.
    pub fn mark_audit(&self, result: &mut Value) {
        if let Some(recommendations) = result.get_mut("recommendations").and_then(Value::as_array_mut) {
            for (r, judged) in recommendations.iter_mut().zip(&self.comparison.current) {
                self.mark_one(r, judged);
            }
        }
        result["baseline"] = self.summary();
    }

    /// Marks a JSON crawl report in place: each affected URL of an issue gets the
    /// `baseline_state` of its finding; the report gets the `baseline` summary.
    pub fn mark_crawl(&self, report: &mut Value) {
        let states: HashMap<(&str, &str), State> = self
            .current
            .iter()
            .zip(&self.comparison.current)
            .map(|(f, j)| ((f.rule.as_str(), f.url.as_str()), j.state))
            .collect();
        if let Some(issues) = report.pointer_mut("/crawl/issues").and_then(Value::as_array_mut) {
            for issue in issues {
                let rule = issue["id"].as_str().unwrap_or_default().to_string();
                for hit in issue.get_mut("urls").and_then(Value::as_array_mut).into_iter().flatten() {
                    let url = hit["url"].as_str().unwrap_or_default();
                    if let Some(state) = states.get(&(rule.as_str(), url)) {
                        hit["baseline_state"] = json!(state);
                    }
                }
            }
        }
        report["baseline"] = self.summary();
    }

    fn mark_one(&self, r: &mut Value, judged: &baseline::Judged) {
        r["baseline_state"] = json!(judged.state);
        if let Some(locations) = r.get_mut("locations").and_then(Value::as_array_mut) {
            for (l, state) in locations.iter_mut().zip(&judged.elements) {
                l["baseline_state"] = json!(state);
            }
        }
        if let Some(b) = judged.baseline {
            let gone: Vec<&Element> =
                judged.resolved_elements.iter().filter_map(|&i| self.baseline[b].elements.get(i)).collect();
            if !gone.is_empty() {
                r["resolved_locations"] = json!(gone);
            }
        }
    }

    /// The text outputs' closing section: the counts, the notes, the new findings and the
    /// resolved ones.
    pub fn text(&self) -> String {
        use std::fmt::Write as _;
        let c = self.counts();
        let mut out = format!(
            "\nAgainst the baseline {}: {} new, {} unchanged, {} resolved\n",
            self.file, c.new, c.unchanged, c.resolved
        );
        for note in &self.notes {
            let _ = writeln!(out, "  note: {note}");
        }
        let place = |f: &Finding| if f.url.is_empty() { String::new() } else { format!(" {}", f.url) };
        for (f, j) in self.current.iter().zip(&self.comparison.current) {
            if j.state == State::New {
                let _ = writeln!(out, "  new       [{}]{} {}", f.rule, place(f), f.title);
                for (e, s) in f.elements.iter().zip(&j.elements) {
                    if *s == State::New {
                        let _ = writeln!(out, "              {}", element_text(e));
                    }
                }
            }
        }
        for f in self.resolved() {
            let _ = writeln!(out, "  resolved  [{}]{} {}", f.rule, place(f), f.title);
        }
        out
    }
}

/// An element as the text report names it: `line:col selector`, or what of it there is.
fn element_text(e: &Element) -> String {
    let mut parts = Vec::new();
    if let (Some(line), Some(col)) = (e.line, e.column) {
        parts.push(format!("{line}:{col}"));
    }
    if let Some(s) = e.selector.as_deref().or(e.snippet.as_deref()) {
        parts.push(s.to_string());
    }
    parts.join(" ")
}

/// The note on a baseline written with another ruleset, or naming none.
fn ruleset_note(baseline: Option<&str>) -> Option<String> {
    let now = audit_core::RULESET_VERSION;
    match baseline {
        Some(v) if v == now => None,
        Some(v) => Some(format!(
            "the baseline was written with ruleset {v}, this run uses ruleset {now}: a rule that changed between them \
             may show its findings as new or resolved"
        )),
        None => Some(format!(
            "the baseline names no ruleset version (written by an older seo-audit); this run uses ruleset {now}: a rule \
             that changed since may show its findings as new or resolved"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(value: &Value) -> tempfile::NamedTempFile {
        let file = tempfile::NamedTempFile::new().expect("temp file");
        std::fs::write(file.path(), serde_json::to_vec(value).expect("json")).expect("write");
        file
    }

    #[test]
    fn a_crawl_report_is_refused_as_an_audit_baseline_and_the_other_way_round() {
        let crawl = write(&json!({ "ok": true, "crawl": { "url": "https://example.com/", "issues": [] } }));
        let e = read(crawl.path(), Command::Audit).unwrap_err();
        assert_eq!(e.code.as_str(), "invalid_request");
        assert!(e.message.contains("is a `seo-audit crawl` report"), "{}", e.message);
        assert!(e.message.contains("`seo-audit audit --format json`"), "{}", e.message);
        let audit = write(&json!({ "recommendations": [], "checks": [], "meta": {} }));
        let e = read(audit.path(), Command::Crawl).unwrap_err();
        assert!(e.message.contains("is a `seo-audit audit` report"), "{}", e.message);
        let other = write(&json!({ "version": "2.1.0", "runs": [] }));
        let e = read(other.path(), Command::Crawl).unwrap_err();
        assert!(e.message.contains("is not a seo-audit report"), "{}", e.message);
    }

    #[test]
    fn a_crawl_reports_site_findings_at_one_url_are_one_finding_with_its_linking_pages() {
        let report = json!({ "crawl": { "url": "https://example.com/", "ruleset_version": "1.4.0", "issues": [
            { "id": "a-site-rule", "kind": "site", "urls": [
                { "url": "https://example.com/gone", "linked_from": "https://example.com/a" },
                { "url": "https://example.com/gone", "linked_from": "https://example.com/b" } ] },
            { "id": "a-page-rule", "kind": "page", "urls": [{ "url": "https://example.com/a" }] } ] } });
        let r = crawl_report(&report);
        assert_eq!(r.findings.len(), 2);
        assert_eq!(r.findings[0].elements.len(), 2);
        assert_eq!(r.findings[1].url, "https://example.com/a");
        assert_eq!(r.ruleset_version.as_deref(), Some("1.4.0"));
    }

    /// A page rule's finding lists its elements as an audit does: they are read as the
    /// finding's elements, so an image without alt added to a page that already had one is a
    /// new finding, and the same image moved down the page is not.
    #[test]
    fn a_crawl_reports_page_findings_elements_are_matched_by_selector_then_snippet() {
        let report = |locations: Value, total: u64| {
            crawl_report(&json!({ "crawl": { "url": "https://example.com/", "issues": [
                { "id": "a-page-rule", "kind": "page", "urls": [
                    { "url": "https://example.com/a", "locations": locations, "locations_total": total } ] } ] } }))
        };
        let hero = json!({ "line": 12, "column": 1, "selector": "#hero", "snippet": "<img id=\"hero\">" });
        let baseline = report(json!([hero.clone()]), 1);
        assert_eq!(baseline.findings[0].elements.len(), 1);
        assert_eq!(baseline.findings[0].elements[0].selector.as_deref(), Some("#hero"));
        assert_eq!(baseline.findings[0].elements[0].line, Some(12));
        assert_eq!(baseline.findings[0].elements_total, 1);

        let moved = json!({ "line": 40, "column": 3, "selector": "#hero", "snippet": "<img id=\"hero\">" });
        let same = audit_core::baseline::compare(&report(json!([moved]), 1).findings, &baseline.findings);
        assert_eq!(same.counts().new, 0, "a moved element is the same element");

        let added = json!({ "line": 13, "column": 1, "selector": "#side", "snippet": "<img id=\"side\">" });
        let more = audit_core::baseline::compare(&report(json!([hero, added]), 2).findings, &baseline.findings);
        assert_eq!(more.counts().new, 1, "an element the baseline did not list makes the finding new");
    }

    /// A site rule cut at 10,000 on one side: a URL past the cut is neither new nor resolved,
    /// what both list is compared, and a note says so.
    #[test]
    fn urls_past_a_cut_list_are_left_out_of_the_comparison() {
        let report = |urls: &[&str], truncated: bool| {
            let urls: Vec<Value> = urls
                .iter()
                .map(|u| json!({ "url": format!("https://example.com/{u}"), "linked_from": "https://example.com/" }))
                .collect();
            json!({ "crawl": { "url": "https://example.com/", "issues": [
                { "id": "a-site-rule", "kind": "site", "findings": 12_000, "truncated": truncated, "urls": urls },
                { "id": "a-page-rule", "kind": "page", "urls": [{ "url": "https://example.com/p" }] } ] } })
        };
        // The baseline listed a and b of its 12,000; this run lists a, c and d, uncut.
        let baseline = crawl_report(&report(&["a", "b"], true));
        let current = crawl_report(&report(&["a", "c", "d"], false));
        let marks = Marks::new(Path::new("base.json"), Command::Crawl, current, baseline);
        let counts = marks.counts();
        assert_eq!((counts.new, counts.unchanged, counts.resolved), (0, 2, 1), "{:?}", marks.notes);
        assert_eq!(marks.state("a-site-rule", "https://example.com/a"), Some(State::Unchanged));
        assert_eq!(marks.state("a-site-rule", "https://example.com/c"), None, "past the baseline's cut");
        assert_eq!(marks.resolved().map(|f| f.url.as_str()).collect::<Vec<_>>(), ["https://example.com/b"]);
        assert!(
            marks
                .notes
                .iter()
                .any(|n| n.contains("a-site-rule: the baseline lists 2 of its 12000 findings; 2 of this run's")),
            "{:?}",
            marks.notes
        );
        // Cut on this run's side: the baseline's URLs past it are not resolved.
        let baseline = crawl_report(&report(&["a", "b"], false));
        let current = crawl_report(&report(&["a"], true));
        let marks = Marks::new(Path::new("base.json"), Command::Crawl, current, baseline);
        let counts = marks.counts();
        assert_eq!((counts.new, counts.unchanged, counts.resolved), (0, 2, 0), "{:?}", marks.notes);
        assert!(marks.notes.iter().any(|n| n.contains("this run lists 1 of its 12000 findings")), "{:?}", marks.notes);
    }
}
