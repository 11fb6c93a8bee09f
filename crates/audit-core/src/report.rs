//! The text report: what `seo-audit audit --format text` prints, for terminals and logs.

use std::fmt::Write as _;

use crate::audit::Audit;
use crate::rule::{Category, Outcome, Severity};

/// Wraps text in an ANSI colour code, or leaves it plain.
struct Paint(bool);

impl Paint {
    fn wrap(&self, code: &str, s: &str) -> String {
        if self.0 {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_string()
        }
    }
}

/// The text report of an audit: the page, its score, then the failed checks grouped by
/// category (in [`Category::ALL`] order), worst first, each with its description and
/// suggested fix, and how many checks did not apply. `color` adds ANSI colours (for a
/// terminal); without it the report is plain text.
///
/// ```
/// use audit_core::{audit, report, HttpFacts, Page};
///
/// let page = Page::parse("https://example.com/", b"<title>Hi</title>", HttpFacts::new());
/// let text = report::text(&audit(page), false);
/// assert!(text.starts_with("https://example.com/\nScore "));
/// assert!(text.contains("[title-too-short]"));
/// ```
pub fn text(audit: &Audit, color: bool) -> String {
    let source = if audit.page.final_url.is_empty() { &audit.page.url } else { &audit.page.final_url };
    text_of(audit, color, source)
}

/// [`text`], with each element a finding points at listed as `SOURCE:LINE:COLUMN SELECTOR`
/// (the form editors and terminals turn into a link): `source` names the HTML, the path of
/// an audited file (relative to the working directory) or the page's URL.
///
/// ```
/// use audit_core::{audit, report, HttpFacts, Page};
///
/// let page = Page::parse("file:///site/index.html", b"<title>Hi</title>\n<img src=a.png>", HttpFacts::new());
/// let text = report::text_of(&audit(page), false, "site/index.html");
/// assert!(text.contains("site/index.html:2:1 html > body > img"));
/// ```
pub fn text_of(audit: &Audit, color: bool, source: &str) -> String {
    let paint = Paint(color);
    let score = audit.score();
    let grade = match score.percentage {
        90.. => "32",
        50..=89 => "33",
        _ => "31",
    };
    let p = &audit.page;
    let mut out = String::new();
    let _ = writeln!(out, "{}", paint.wrap("1", &p.final_url));
    if let Some(status) = p.http.status {
        let _ = write!(out, "HTTP {status}");
        if let Some(ms) = p.http.load_time_ms {
            let _ = write!(out, ", {ms} ms");
        }
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "Score {} ({} of {} checks pass, ruleset {})",
        paint.wrap(&format!("1;{grade}"), &format!("{}/100", score.percentage)),
        score.passed,
        score.total,
        score.ruleset_version
    );
    let failures = audit.failures();
    if failures.is_empty() {
        out.push_str("\nNo problems found.\n");
        return out;
    }
    for cat in Category::ALL {
        let in_cat: Vec<_> = failures.iter().filter(|(r, _)| r.category == cat).collect();
        if in_cat.is_empty() {
            continue;
        }
        let _ = write!(out, "\n{}\n", paint.wrap("1", cat.as_str()));
        for (rule, finding) in in_cat {
            let sev = match rule.severity {
                Severity::Critical => paint.wrap("31", "critical"),
                Severity::Warning => paint.wrap("33", "warning "),
                Severity::Notice => paint.wrap("36", "notice  "),
            };
            let _ = writeln!(out, "  {sev} {} [{}]", finding.title, rule.id);
            let _ = writeln!(out, "           {}", finding.description);
            if let Some(s) = &finding.suggested_value {
                let _ = writeln!(out, "           fix: {s}");
            }
            for at in &finding.locations {
                let _ = writeln!(out, "           {source}:{}:{} {}", at.line, at.column, at.selector);
            }
            let more = finding.locations_total as usize - finding.locations.len().min(finding.locations_total as usize);
            if more > 0 {
                let _ = writeln!(out, "           ... and {more} more");
            }
        }
    }
    let na = audit.checks.iter().filter(|c| c.outcome == Outcome::NotApplicable).count();
    let _ = write!(out, "\n{na} checks did not apply to this page.\n");
    out
}
