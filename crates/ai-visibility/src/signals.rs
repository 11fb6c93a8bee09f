//! Content signals: the `Content-Signal:` lines of a robots.txt (the Content Signals Policy
//! that a CDN writes into the robots.txt it manages), read per RFC 9309 group and explained.
//!
//! A signal states what the site owner permits fetched content to be used for: `search`
//! (a search index, links and short excerpts in results), `ai-input` (input to an AI answer:
//! retrieval, grounding) and `ai-train` (training or fine-tuning models). It blocks nobody;
//! robots.txt rules still decide what may be fetched.

use serde::Serialize;

use crate::robots::{ContentSignalLine, Robots};

/// The signals the policy defines, in its order.
pub const KNOWN_SIGNALS: [&str; 3] = ["search", "ai-input", "ai-train"];

/// A user agent no group names, so the `*` group (if any) decides for it.
pub(crate) const ANY_AGENT: &str = "SomeOtherCrawler";

/// One `Content-Signal:` line as reported.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(deny_unknown_fields))]
pub struct ContentSignalEntry {
    /// The user-agent lines of the group it stands in, one per line. A line before any group
    /// applies to no one (RFC 9309) and is not reported.
    pub group: String,
    /// 1-based line number in robots.txt.
    #[cfg_attr(feature = "schema", schemars(range(min = 1)))]
    pub line: usize,
    /// The value as written.
    pub value: String,
    /// `search`: `yes`, `no`, another value as written, or `null` when the line does not say.
    pub search: Option<String>,
    /// `ai-input`, likewise.
    pub ai_input: Option<String>,
    /// `ai-train`, likewise.
    pub ai_train: Option<String>,
    /// What the line holds besides the three signals: unknown signal names, pieces that are
    /// no `name=value` pair, and values other than `yes` and `no`.
    pub issues: Vec<String>,
}

impl ContentSignalEntry {
    fn new(group: String, l: &ContentSignalLine) -> ContentSignalEntry {
        let mut issues: Vec<String> = l.malformed.iter().map(|p| format!("`{p}` is no name=value pair")).collect();
        for (name, value) in &l.signals {
            if !KNOWN_SIGNALS.contains(&name.as_str()) {
                issues.push(format!("unknown signal `{name}`"));
            } else if !value.eq_ignore_ascii_case("yes") && !value.eq_ignore_ascii_case("no") {
                issues.push(format!("`{name}={value}`: the value is yes or no"));
            }
        }
        let get = |n: &str| l.get(n).map(|v| v.to_ascii_lowercase());
        ContentSignalEntry {
            group,
            line: l.line,
            value: l.value.clone(),
            search: get("search"),
            ai_input: get("ai-input"),
            ai_train: get("ai-train"),
            issues,
        }
    }
}

/// The `content_signals` object of the readiness and scan answers (docs/API.md, "Content
/// signals").
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(deny_unknown_fields))]
pub struct ContentSignalReport {
    /// Whether robots.txt carries any `Content-Signal:` line.
    pub present: bool,
    /// Every line, in file order, with the group it belongs to.
    pub lines: Vec<ContentSignalEntry>,
    /// The signals that apply to a crawler no group names (those of the `User-agent: *`
    /// groups; the last word wins): `search`.
    pub search: Option<String>,
    /// Likewise `ai-input`.
    pub ai_input: Option<String>,
    /// Likewise `ai-train`.
    pub ai_train: Option<String>,
    /// Crawlers of the registry a line applying to them tells `search=no`.
    pub search_denied_to: Vec<&'static str>,
    /// What the signals mean for the site, one sentence each.
    pub explanation: Vec<String>,
}

/// The last value of `name` among `lines`, lower-cased.
fn last(lines: &[&ContentSignalLine], name: &str) -> Option<String> {
    lines.iter().rev().find_map(|l| l.get(name)).map(str::to_ascii_lowercase)
}

impl ContentSignalReport {
    /// Reads the content signals of `robots` (`None`: no robots.txt).
    pub fn new(robots: Option<&Robots>) -> ContentSignalReport {
        let Some(robots) = robots else { return ContentSignalReport::absent() };
        let mut lines: Vec<ContentSignalEntry> = Vec::new();
        for group in robots.groups() {
            lines.extend(group.content_signals.iter().map(|l| ContentSignalEntry::new(group.agent_lines(), l)));
        }
        lines.sort_by_key(|l| l.line);
        if lines.is_empty() {
            return ContentSignalReport::absent();
        }
        let general = robots.content_signals_for(ANY_AGENT);
        let search_denied_to = crate::AI_BOTS
            .iter()
            .filter(|b| last(&robots.content_signals_for(b.name), "search").as_deref() == Some("no"))
            .map(|b| b.name)
            .collect();
        let mut report = ContentSignalReport {
            present: true,
            lines,
            search: last(&general, "search"),
            ai_input: last(&general, "ai-input"),
            ai_train: last(&general, "ai-train"),
            search_denied_to,
            explanation: Vec::new(),
        };
        report.explanation = report.explain();
        report
    }

    fn absent() -> ContentSignalReport {
        ContentSignalReport {
            present: false,
            lines: Vec::new(),
            search: None,
            ai_input: None,
            ai_train: None,
            search_denied_to: Vec::new(),
            explanation: Vec::new(),
        }
    }

    /// Whether a signal tells the crawlers in general, or some AI crawler, not to use the
    /// content for search: a defect (the site will not be cited), unlike `ai-train=no`.
    pub fn denies_search(&self) -> bool {
        self.search.as_deref() == Some("no") || !self.search_denied_to.is_empty()
    }

    fn explain(&self) -> Vec<String> {
        let mut out = Vec::new();
        let said = |v: &Option<String>| match v.as_deref() {
            Some("yes") => "yes",
            Some("no") => "no",
            Some(_) => "other",
            None => "unsaid",
        };
        out.push(match said(&self.search) {
            "yes" => {
                "search=yes: the content may be indexed for search and shown as links and short excerpts.".to_owned()
            }
            "no" => {
                "search=no: the site asks search engines, AI search included, not to index the content or show links \
                     and excerpts of it, so it will not be cited; unless that is intended, this is a defect."
                    .to_owned()
            }
            _ => "search is not stated for crawlers in general: neither granted nor refused.".to_owned(),
        });
        out.push(match said(&self.ai_input) {
            "yes" => {
                "ai-input=yes: the content may be given to AI models as input for an answer (retrieval, grounding)."
                    .to_owned()
            }
            "no" => {
                "ai-input=no: the content may not be given to AI models as input for an answer; AI assistants that \
                     honour it will not quote the page."
                    .to_owned()
            }
            _ => "ai-input is not stated for crawlers in general.".to_owned(),
        });
        out.push(match said(&self.ai_train) {
            "yes" => "ai-train=yes: the content may be used to train or fine-tune AI models.".to_owned(),
            "no" => "ai-train=no: the content may not be used to train or fine-tune AI models; a choice, not a defect \
                     (it costs no point)."
                .to_owned(),
            _ => "ai-train is not stated for crawlers in general.".to_owned(),
        });
        if self.search.as_deref() != Some("no") && !self.search_denied_to.is_empty() {
            out.push(format!("search=no is signalled to {}.", self.search_denied_to.join(", ")));
        }
        out.push(
            "Signals state how fetched content may be used; they block nothing: robots.txt rules decide what may be \
             fetched."
                .to_owned(),
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A robots.txt as a CDN manages it: the signals in the `*` group, a stricter group for
    /// two crawlers, and a line before any group (which applies to no one).
    const MANAGED: &str = "# content signals\nContent-Signal: ai-input=yes\n\nUser-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n\nUser-agent: Bytespider\nUser-agent: Amazonbot\nContent-Signal: search=no; ai-train=no, color=blue, nonsense\nDisallow: /\n";

    #[test]
    fn signals_are_read_per_group() {
        let robots = Robots::parse(MANAGED.as_bytes());
        let r = ContentSignalReport::new(Some(&robots));
        assert!(r.present);
        // The line before any group applies to no one.
        assert_eq!(r.lines.len(), 2);
        assert_eq!(robots.stats().rules_outside_groups, 1);
        let star = &r.lines[0];
        assert_eq!(
            (
                star.group.as_str(),
                star.line,
                star.search.as_deref(),
                star.ai_train.as_deref(),
                star.ai_input.as_deref()
            ),
            ("User-agent: *", 5, Some("yes"), Some("no"), None)
        );
        assert!(star.issues.is_empty());
        let strict = &r.lines[1];
        assert_eq!(strict.group, "User-agent: Bytespider\nUser-agent: Amazonbot");
        assert_eq!(strict.search.as_deref(), Some("no"));
        assert_eq!(strict.issues, ["`nonsense` is no name=value pair", "unknown signal `color`"]);
        // For crawlers in general: the `*` group.
        assert_eq!(
            (r.search.as_deref(), r.ai_input.as_deref(), r.ai_train.as_deref()),
            (Some("yes"), None, Some("no"))
        );
        assert_eq!(r.search_denied_to, ["Bytespider", "Amazonbot"]);
        assert!(r.denies_search());
        assert!(r.explanation.iter().any(|e| e.starts_with("ai-train=no") && e.contains("not a defect")));
        assert!(r.explanation.iter().any(|e| e.contains("Bytespider, Amazonbot")));
        // The lines are no rules: the `*` group still allows everything to the others.
        assert!(robots.is_allowed("GPTBot", "/"));
        assert!(!robots.is_allowed("Amazonbot", "/"));
    }

    #[test]
    fn ai_train_no_alone_denies_nothing() {
        let robots = Robots::parse(b"User-agent: *\nContent-Signal: search=yes,ai-train=no\nAllow: /\n");
        let r = ContentSignalReport::new(Some(&robots));
        assert!(!r.denies_search());
        assert!(r.search_denied_to.is_empty());
        let general = Robots::parse(b"User-Agent: *\ncontent-signal: SEARCH=No\n");
        assert!(ContentSignalReport::new(Some(&general)).denies_search());
        for none in [None, Some(Robots::parse(b"User-agent: *\nDisallow:\n"))] {
            let r = ContentSignalReport::new(none.as_ref());
            assert_eq!((r.present, r.lines.len(), r.explanation.len()), (false, 0, 0));
        }
    }
}
