//! The stored form of an AI-readiness answer ([`ReadinessRecord`]): what the report page's
//! AI-readiness section shows (docs/AI-VISIBILITY.md, "The report page"). Every list is cut
//! to [`MAX_RECORD_ITEMS`] with its total kept beside it, and every text to
//! [`MAX_RECORD_TEXT_CHARS`], so a stored record is small whatever the site served.

use serde::{Deserialize, Serialize};

use crate::readiness::AiReadiness;

/// Items kept at most in each list of a [`ReadinessRecord`]; the list's total is kept too.
pub const MAX_RECORD_ITEMS: usize = 20;
/// Characters kept at most of each text of a [`ReadinessRecord`] (cut with a visible `…`).
pub const MAX_RECORD_TEXT_CHARS: usize = 300;

/// The bounded record of one AI-readiness answer. Read back with defaults for what a record
/// of an older build lacks (`#[serde(default)]`), so a stored row always renders.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ReadinessRecord {
    /// The checked URL.
    pub url: String,
    /// The readiness score, 0 to 100.
    pub score: u8,
    /// Crawlers of the registry judged under robots.txt.
    pub crawlers: usize,
    /// How many of them robots.txt blocks for the page.
    pub crawlers_blocked: usize,
    /// The verdicts per purpose class, in documentation order.
    pub classes: Vec<ClassRecord>,
    /// The robots.txt `Content-Signal:` lines.
    pub content_signals: SignalsRecord,
    /// What the server answered the main AI crawlers against a browser; `None` when the
    /// site was not probed.
    pub edge: Option<EdgeRecord>,
    /// The agent discovery documents looked for (at most [`MAX_RECORD_ITEMS`]).
    pub discovery: Vec<DocRecord>,
    /// How many were looked for.
    pub discovery_total: usize,
    /// llms.txt and llms-full.txt.
    pub llms: LlmsRecord,
}

/// One purpose class of crawlers.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ClassRecord {
    /// The class's wire name (`search`, `user_fetch`, ...).
    pub class: String,
    /// The class described for people.
    pub title: String,
    /// Crawlers of the registry in it.
    pub crawlers: usize,
    /// How many of them robots.txt blocks.
    pub blocked: usize,
    /// How many of the blocked ones are documented to ignore robots.txt anyway.
    pub disallow_ignored: usize,
}

/// The `Content-Signal:` lines of robots.txt.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SignalsRecord {
    /// Whether robots.txt carries any.
    pub present: bool,
    /// `search` for a crawler no group names.
    pub search: Option<String>,
    /// `ai-input` likewise.
    pub ai_input: Option<String>,
    /// `ai-train` likewise.
    pub ai_train: Option<String>,
    /// The lines (at most [`MAX_RECORD_ITEMS`]).
    pub lines: Vec<SignalLineRecord>,
    /// How many lines robots.txt carries.
    pub lines_total: usize,
    /// What the signals mean, one sentence each (at most [`MAX_RECORD_ITEMS`]).
    pub explanation: Vec<String>,
}

/// One `Content-Signal:` line.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SignalLineRecord {
    /// The `User-agent:` lines of its group.
    pub group: String,
    /// Its 1-based line in robots.txt.
    pub line: usize,
    /// Its value as written.
    pub value: String,
}

/// The edge-blocking comparison.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct EdgeRecord {
    /// Whether the browser got the page, so that the comparison means something.
    pub comparable: bool,
    /// The browser's status.
    pub browser_status: Option<u16>,
    /// Bytes of visible text the browser got.
    pub browser_text_bytes: usize,
    /// One row per crawler fetched (at most [`MAX_RECORD_ITEMS`]).
    pub bots: Vec<EdgeBotRecord>,
    /// How many crawlers were turned away.
    pub blocked: usize,
    /// How many were not fetched because the check's time ran out.
    pub not_checked: usize,
}

/// What one crawler got.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct EdgeBotRecord {
    /// The registry token.
    pub bot: String,
    /// Its status; `None` when there was no answer.
    pub status: Option<u16>,
    /// Bytes of visible text it got.
    pub text_bytes: usize,
    /// Whether it was turned away where the browser was not.
    pub blocked: bool,
    /// What shows it.
    pub evidence: Option<String>,
}

/// One discovery document looked for.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct DocRecord {
    /// Which document, for people (`AI catalog`, ...).
    pub kind: String,
    /// Where it was looked for.
    pub url: String,
    /// The status it answered.
    pub status: Option<u16>,
    /// Whether one was served there.
    pub present: bool,
    /// Present and without error-level findings.
    pub valid: bool,
    /// Error-level findings.
    pub errors: usize,
    /// The first of them.
    pub first_error: Option<String>,
}

/// llms.txt and llms-full.txt.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct LlmsRecord {
    /// Where llms.txt was looked for.
    pub url: String,
    /// Whether the site serves one.
    pub present: bool,
    /// Present and without error-level issues.
    pub valid: bool,
    /// Its H1 title.
    pub title: Option<String>,
    /// Its H2 sections.
    pub sections: usize,
    /// Its links.
    pub links: usize,
    /// Its findings (at most [`MAX_RECORD_ITEMS`]).
    pub issues: Vec<LlmsIssueRecord>,
    /// How many findings it has.
    pub issues_total: usize,
    /// Whether llms-full.txt is served (`None` when not looked for).
    pub full_present: Option<bool>,
    /// Whether it is a usable markdown file.
    pub full_valid: Option<bool>,
}

/// One llms.txt finding.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct LlmsIssueRecord {
    /// `error`, `warning` or `info`.
    pub severity: String,
    /// Its 1-based line.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

/// `text` cut to [`MAX_RECORD_TEXT_CHARS`] characters, with a visible `…` when cut.
fn cut(text: &str) -> String {
    match text.char_indices().nth(MAX_RECORD_TEXT_CHARS) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

fn cut_opt(text: Option<&str>) -> Option<String> {
    text.map(cut)
}

impl ReadinessRecord {
    /// The bounded record of `answer`.
    pub fn of(answer: &AiReadiness) -> ReadinessRecord {
        let classes = answer
            .crawler_classes
            .iter()
            .map(|c| ClassRecord {
                class: c.purpose.key().to_owned(),
                title: c.purpose.title().to_owned(),
                crawlers: c.crawlers,
                blocked: c.blocked,
                disallow_ignored: c.disallow_ignored,
            })
            .collect();
        let signals = &answer.content_signals;
        let content_signals = SignalsRecord {
            present: signals.present,
            search: cut_opt(signals.search.as_deref()),
            ai_input: cut_opt(signals.ai_input.as_deref()),
            ai_train: cut_opt(signals.ai_train.as_deref()),
            lines: signals
                .lines
                .iter()
                .take(MAX_RECORD_ITEMS)
                .map(|l| SignalLineRecord { group: cut(&l.group), line: l.line, value: cut(&l.value) })
                .collect(),
            lines_total: signals.lines.len(),
            explanation: signals.explanation.iter().take(MAX_RECORD_ITEMS).map(|e| cut(e)).collect(),
        };
        let agents = answer.agents.as_ref();
        let edge = agents.map(|a| {
            let e = &a.edge_blocking;
            EdgeRecord {
                comparable: e.comparable,
                browser_status: e.browser.status,
                browser_text_bytes: e.browser.text_bytes,
                bots: e
                    .bots
                    .iter()
                    .take(MAX_RECORD_ITEMS)
                    .map(|v| EdgeBotRecord {
                        bot: v.bot.to_owned(),
                        status: v.answer.status,
                        text_bytes: v.answer.text_bytes,
                        blocked: v.blocked,
                        evidence: cut_opt(v.evidence.as_deref()),
                    })
                    .collect(),
                blocked: e.blocked.len(),
                not_checked: e.not_checked.len(),
            }
        });
        let discovery: Vec<DocRecord> = agents
            .map(|a| {
                a.discovery
                    .iter()
                    .take(MAX_RECORD_ITEMS)
                    .map(|d| {
                        let errors: Vec<_> = d.findings.iter().filter(|f| f.severity == "error").collect();
                        DocRecord {
                            kind: d.kind.title().to_owned(),
                            url: cut(&d.url),
                            status: d.status,
                            present: d.present,
                            valid: d.valid,
                            errors: errors.len(),
                            first_error: errors.first().map(|f| {
                                cut(&if f.path.is_empty() {
                                    f.message.clone()
                                } else {
                                    format!("{}: {}", f.path, f.message)
                                })
                            }),
                        }
                    })
                    .collect()
            })
            .unwrap_or_default();
        let llms = &answer.llms_txt;
        let llms = LlmsRecord {
            url: cut(&llms.url),
            present: llms.present,
            valid: llms.valid,
            title: cut_opt(llms.title.as_deref()),
            sections: llms.sections,
            links: llms.links,
            issues: llms
                .issues
                .iter()
                .take(MAX_RECORD_ITEMS)
                .map(|i| LlmsIssueRecord {
                    severity: i.severity.key().to_owned(),
                    line: i.line,
                    message: cut(&i.message),
                })
                .collect(),
            issues_total: llms.issues.len(),
            full_present: agents.map(|a| a.llms_full_txt.present),
            full_valid: agents.map(|a| a.llms_full_txt.valid),
        };
        ReadinessRecord {
            url: cut(&answer.url),
            score: answer.score,
            crawlers: answer.ai_crawlers.len(),
            crawlers_blocked: answer.ai_crawlers.iter().filter(|c| c.verdict != crate::CrawlerAccess::Allowed).count(),
            classes,
            content_signals,
            edge,
            discovery_total: agents.map_or(0, |a| a.discovery.len()),
            discovery,
            llms,
        }
    }
}
