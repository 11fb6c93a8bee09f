//! The AI-readiness section of the report page (docs/API.md, "GET /report/{domain}"): the
//! newest public AI-readiness answer of the audited page, in its bounded stored form
//! ([`ReadinessRecord`]): crawler verdicts by class, the robots.txt `Content-Signal:` lines,
//! what the server answered the main AI crawlers against a browser, the agent discovery
//! documents and the llms.txt findings. Every value is text escaped by the template; a list
//! the record cut says how many it had.

use ai_visibility::ReadinessRecord;
use maud::{html, Markup};

use crate::plural;

/// Removes the query strings and fragments of every URL of `record`, as the report page does
/// for the audit ([`crate::report::strip_query_strings`]): the checked URL may carry a token.
pub fn strip_query_strings(record: &mut ReadinessRecord) {
    let Ok(mut value) = serde_json::to_value(&*record) else {
        *record = ReadinessRecord::default();
        return;
    };
    crate::scrub::strip_query_strings(&mut value);
    // Only strings changed, so it reads back; should it not, nothing of it is shown rather
    // than an unscrubbed value.
    *record = serde_json::from_value(value).unwrap_or_default();
}

fn status(s: Option<u16>) -> String {
    s.map_or_else(|| "no answer".to_owned(), |s| s.to_string())
}

fn yes_no(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

/// "(showing the first N of M)" when a list was cut.
fn cut_note(shown: usize, total: usize) -> Option<String> {
    (total > shown).then(|| format!("Showing the first {shown} of {total}."))
}

/// The section; `checked_on` is when the check was made (RFC 3339; the date is shown).
pub(crate) fn section(record: &ReadinessRecord, checked_on: &str) -> Markup {
    let day = checked_on.get(..10).unwrap_or(checked_on);
    let signals = &record.content_signals;
    let llms = &record.llms;
    html! {
        section class="ai" aria-labelledby="ai-h" {
            h2 id="ai-h" { "AI readiness" }
            p {
                "AI-readiness check of " code { (record.url) } " on " (day) ": score "
                strong class="ai-score" { (record.score) "/100" } ". robots.txt blocks "
                strong class="ai-blocked" { (record.crawlers_blocked) } " of the " (record.crawlers)
                " AI crawlers it knows for this page."
            }
            h3 { "Crawlers by purpose" }
            table class="ai-table ai-classes" {
                thead { tr { th { "Purpose" } th { "Crawlers" } th { "Blocked by robots.txt" } th { "Blocked but ignore robots.txt" } } }
                tbody {
                    @for c in &record.classes {
                        tr data-class=(c.class) { td { (c.title) } td { (c.crawlers) } td { (c.blocked) } td { (c.disallow_ignored) } }
                    }
                }
            }
            h3 { "Content signals" }
            @if signals.present {
                p {
                    "For crawlers no group names: search " code { (signals.search.as_deref().unwrap_or("not set")) }
                    ", ai-input " code { (signals.ai_input.as_deref().unwrap_or("not set")) }
                    ", ai-train " code { (signals.ai_train.as_deref().unwrap_or("not set")) } "."
                }
                ul class="ai-signals" {
                    @for l in &signals.lines {
                        li { "Line " (l.line) " (" (l.group) "): " code { (l.value) } }
                    }
                }
                @if let Some(note) = cut_note(signals.lines.len(), signals.lines_total) { p class="muted" { (note) } }
                @for e in &signals.explanation { p class="muted" { (e) } }
            } @else {
                p { "robots.txt carries no " code { "Content-Signal:" } " line." }
            }
            h3 { "What the server answers AI crawlers" }
            @match &record.edge {
                None => p { "The site was not probed as AI crawlers." },
                Some(edge) => {
                    p {
                        "A browser got status " (status(edge.browser_status)) " with " (edge.browser_text_bytes)
                        " bytes of visible text; " strong class="ai-edge-blocked" { (edge.blocked) } " of the "
                        (edge.bots.len()) " crawlers fetched were turned away"
                        @if !edge.comparable { " (the browser did not get the page, so nothing can be compared)" }
                        @if edge.not_checked > 0 { "; " (edge.not_checked) " not checked: the check ran out of time" }
                        "."
                    }
                    table class="ai-table ai-edge" {
                        thead { tr { th { "Crawler" } th { "Status" } th { "Visible text (bytes)" } th { "Turned away" } } }
                        tbody {
                            @for b in &edge.bots {
                                tr class=(if b.blocked { "ai-row-blocked" } else { "ai-row-ok" }) {
                                    td { (b.bot) } td { (status(b.status)) } td { (b.text_bytes) }
                                    td { (yes_no(b.blocked)) @if let Some(e) = &b.evidence { ": " (e) } }
                                }
                            }
                        }
                    }
                }
            }
            h3 { "Agent discovery documents" }
            @if record.discovery.is_empty() {
                p { "None was looked for." }
            } @else {
                table class="ai-table ai-docs" {
                    thead { tr { th { "Document" } th { "Where" } th { "Status" } th { "Valid" } } }
                    tbody {
                        @for d in &record.discovery {
                            tr {
                                td { (d.kind) } td { code { (d.url) } } td { (status(d.status)) }
                                td {
                                    @if !d.present { "not served" }
                                    @else if d.valid { "yes" }
                                    @else { "no, " (plural(d.errors, "error")) @if let Some(e) = &d.first_error { ": " (e) } }
                                }
                            }
                        }
                    }
                }
                @if let Some(note) = cut_note(record.discovery.len(), record.discovery_total) { p class="muted" { (note) } }
            }
            h3 { "llms.txt" }
            @if llms.present {
                p {
                    code { (llms.url) } ": " @if llms.valid { "valid" } @else { "not valid" }
                    @if let Some(t) = &llms.title { ", titled “" (t) "”" }
                    ", " (plural(llms.sections, "section")) ", " (plural(llms.links, "link")) ", "
                    span class="ai-llms-findings" { (plural(llms.issues_total, "finding")) } "."
                }
                @if !llms.issues.is_empty() {
                    ul class="ai-llms" {
                        @for i in &llms.issues {
                            li { span class="sev" { (i.severity) } " " @if let Some(n) = i.line { "line " (n) ": " } (i.message) }
                        }
                    }
                    @if let Some(note) = cut_note(llms.issues.len(), llms.issues_total) { p class="muted" { (note) } }
                }
            } @else {
                p { "No llms.txt at " code { (llms.url) } "." }
            }
            @if let Some(present) = llms.full_present {
                p { "llms-full.txt: " @if !present { "not served" } @else if llms.full_valid == Some(true) { "served, valid" } @else { "served, not valid" } "." }
            }
        }
    }
}
