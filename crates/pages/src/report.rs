//! The human-readable pages: the report of a domain's newest audit (`GET /report/{domain}`),
//! the page of a domain without one, and the landing page (`GET /`).
//!
//! All are complete HTML documents with inline CSS and no script, so they work under
//! [`crate::PAGE_CSP`]. The report renders a typed [`AuditResult`]; results stored by older
//! engine versions read back with defaults, and an empty value renders as "—", never as a
//! panic. Values from the audited page are cut to [`MAX_VALUE_CHARS`] and escaped by the
//! template.

use std::time::Duration;

use audit_core::{rule_by_id, AuditResult, Category, CheckStatus, CheckSummary, Recommendation, Score, RULES};
use maud::{html, Markup};

use crate::frame::{audit_form, document};
use crate::{badge, encode_component, plural};

/// Shown for a value the result does not carry.
const MISSING: &str = "—";
/// Values from the audited page are cut to this many characters: a page title of a
/// megabyte must not make a report of a megabyte.
pub const MAX_VALUE_CHARS: usize = 1000;
/// Seconds after which the "not audited yet" page reloads itself, to show the queued audit
/// (or to ask again for one the queue was too busy to take).
pub const NOT_AUDITED_REFRESH_SECS: u32 = 30;

/// Removes every query string and fragment from the URLs of an audit result, so that the
/// report page never shows one (docs/API.md, "GET /report/{domain}"): they often carry
/// tokens, session ids or other private values of whoever asked for the audit.
///
/// Every string of the result is treated: a string that is a URL (absolute, or a path
/// starting with `/`) loses its `?…` and `#…`; in any other text, every `http://` or
/// `https://` URL in it loses them too, and the query strings of the audited URL and of
/// every URL of the result are removed wherever else they appear (a page's canonical or
/// social tags often repeat the audited URL, query included).
pub fn strip_query_strings(result: &mut AuditResult) {
    let Ok(mut value) = serde_json::to_value(&*result) else {
        *result = AuditResult::default();
        return;
    };
    crate::scrub::strip_query_strings(&mut value);
    // Only strings changed, so the result reads back; should it not, nothing of it is shown
    // rather than an unscrubbed value.
    *result = serde_json::from_value(value).unwrap_or_default();
}

/// Renders the report of `domain` from its newest audit result. A domain without a recent
/// audit gets [`render_not_audited`].
///
/// `fixes` maps rule ids to the auto-fix code shown under each recommendation. `base_url` is
/// the public address of the service, used in the badge snippets.
pub fn render_report(base_url: &str, domain: &str, result: &AuditResult, fixes: &[(String, String)]) -> String {
    render_report_with_history(base_url, domain, result, fixes, &[])
}

/// One audit of the score chart of a report: when it was made (RFC 3339) and its score.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScorePoint {
    /// When the audit was made (RFC 3339; the date is shown).
    pub at: String,
    /// Its score percentage (clamped to 100).
    pub score: u32,
}

/// The newest site crawl of a domain, linked from its report page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrawlLink {
    /// The crawl's id: its report is `/crawls/{id}`.
    pub id: String,
    /// Its site score, when it audited pages.
    pub site_score: Option<u32>,
    /// URLs it fetched.
    pub pages: u64,
    /// When it ended (RFC 3339; the date is shown).
    pub finished_at: String,
}

/// [`render_report`] with the score history of the page (oldest first) drawn under the
/// summary as an inline SVG chart, one point per audit, when it has at least two.
pub fn render_report_with_history(
    base_url: &str,
    domain: &str,
    result: &AuditResult,
    fixes: &[(String, String)],
    history: &[ScorePoint],
) -> String {
    render_report_with_crawl(base_url, domain, result, fixes, history, None)
}

/// [`render_report_with_history`] with a link to the domain's newest site crawl, when it has
/// one (docs/API.md, "GET /report/{domain}").
pub fn render_report_with_crawl(
    base_url: &str,
    domain: &str,
    result: &AuditResult,
    fixes: &[(String, String)],
    history: &[ScorePoint],
    crawl: Option<&CrawlLink>,
) -> String {
    render_report_with_readiness(base_url, domain, result, fixes, history, crawl, None)
}

/// The newest public AI-readiness answer of the audited page, shown in the report's
/// AI-readiness section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadinessShown {
    /// Its bounded stored form, query strings already removed
    /// ([`crate::readiness::strip_query_strings`]).
    pub record: ai_visibility::ReadinessRecord,
    /// When the check was made (RFC 3339; the date is shown).
    pub checked_at: String,
}

/// [`render_report_with_crawl`] with an AI-readiness section when the audited page has a
/// public AI-readiness answer (docs/API.md, "GET /report/{domain}").
pub fn render_report_with_readiness(
    base_url: &str,
    domain: &str,
    result: &AuditResult,
    fixes: &[(String, String)],
    history: &[ScorePoint],
    crawl: Option<&CrawlLink>,
    readiness: Option<&ReadinessShown>,
) -> String {
    let base = base_url.trim_end_matches('/');
    let score = score_of(&result.score);
    let band = Band::of(score);
    let page = &result.page;
    let url = text(&page.final_url).or_else(|| text(&page.url));
    let recs = recommendations(result);
    let count = |t: &str| recs.iter().filter(|r| r.kind.as_str() == t).count();
    // A severity with nothing in it is not coloured as a problem.
    let sev = |t: &str| if count(t) == 0 { "sev sev-none".to_string() } else { format!("sev sev-{t}") };
    let passed = if result.score.total > 0 {
        format!("{} of {}", result.score.passed, result.score.total)
    } else {
        MISSING.into()
    };
    let body = html! {
        h1 { "SEO report for " span class="domain" { (domain) } }
        section class="summary" aria-labelledby="summary-h" {
            h2 id="summary-h" class="visually-hidden" { "Summary" }
            div class={ "score " (band.class()) } {
                span class="score-value" { (score.map_or_else(|| MISSING.to_string(), |s| s.to_string())) }
                span class="score-max" { "/100" }
                span class="score-band" { (band.label()) }
            }
            dl class="summary-facts" {
                dt { "Audited URL" } dd { (url.map_or_else(|| html! { (MISSING) }, link_if_http)) }
                dt { "Audited on" } dd { (date_html(text(&result.scanned_at))) }
                dt { "Checks passed" } dd { (passed) }
                dt { "Problems" }
                dd {
                    span class=(sev("critical")) { (count("critical")) " critical" } " "
                    span class=(sev("warning")) { (plural(count("warning"), "warning")) } " "
                    span class=(sev("notice")) { (plural(count("notice"), "notice")) }
                }
            }
        }
        (history_section(history))
        @if let Some(crawl) = crawl {
            section class="crawl" aria-labelledby="crawl-h" {
                h2 id="crawl-h" { "Site crawl" }
                p {
                    "The whole site was crawled on " (date_html(Some(&crawl.finished_at))) ": "
                    (plural(usize::try_from(crawl.pages).unwrap_or(usize::MAX), "page")) " fetched"
                    @if let Some(score) = crawl.site_score { ", site score " strong { (score) "/100" } }
                    ". "
                    a href={ (base.trim_end_matches('/')) "/crawls/" (crawl.id) } { "See the crawl report" }
                    " (broken links, duplicate titles, orphan pages and the other site rules)."
                }
            }
        }
        @if let Some(insights) = text(&result.ai_insights) {
            p class="insights" { (value_text(insights)) }
        }
        (facts_section(result))
        @if let Some(shown) = readiness {
            (crate::readiness::section(&shown.record, &shown.checked_at))
        }
        (recommendations_section(&recs, fixes))
        (checks_section(&result.checks))
        // Only a domain has a badge: a report of an address (a public IP audited through
        // `GET /report?url=`) offers none, since the badge routes would refuse it.
        @if badge::validate_domain(domain).as_deref() == Some(domain) {
            (embed_section(base, domain))
        }
    };
    let (meta, s) = (&result.meta, &result.score);
    let version = text(&meta.ruleset_version).or_else(|| text(&s.ruleset_version));
    let fingerprint = text(&meta.ruleset_fingerprint).or_else(|| text(&s.ruleset_fingerprint));
    let engine = text(&meta.engine_version).or_else(|| text(&s.engine_version));
    let methodology = html! {
        p class="methodology" {
            "Ruleset " (show(version)) " (fingerprint " code { (show(fingerprint)) } "), engine " (show(engine))
            ". The same page and ruleset always give the same findings."
        }
    };
    let title =
        format!("SEO report for {}: {}", domain, score.map_or_else(|| "no score".to_string(), |s| format!("{s}/100")));
    document(&title, base, body, methodology, None)
}

/// The landing page: what the service does, a form that audits a URL and shows its report
/// (`GET /report?url=`), the API and the badge snippets.
pub fn render_landing(base_url: &str) -> String {
    let base = base_url.trim_end_matches('/');
    let curl = format!("curl '{base}/api/v1/audit?url=https%3A%2F%2Fexample.com%2F'");
    let crawl = format!(
        "curl -X POST {base}/api/v1/crawls -H 'content-type: application/json' -d '{{\"url\": \"https://example.com/\"}}'"
    );
    let script = format!(r#"<script async src="{base}/widget.js" data-domain="example.com"></script>"#);
    let inline = format!(
        "<div id=\"svc-widget\"></div>\n<script async src=\"{base}/widget.js\" data-domain=\"example.com\" data-position=\"inline\" data-color=\"2563eb\"></script>"
    );
    let iframe = format!(
        r#"<iframe src="{base}/api/widget?domain=example.com&amp;format=iframe" width="200" height="56" title="SEO score" style="border:0"></iframe>"#
    );
    let body = html! {
        h1 { "SEO audit" }
        p class="lead" {
            "Check a web page for the problems that cost it search traffic: title and description, headings, images, links, structured data, social cards, speed, mobile and language signals. Every problem comes with what to change and a ready-to-use fix."
        }
        (audit_form(""))
        section aria-labelledby="checks-h" {
            h2 id="checks-h" { "What is checked" }
            ul class="cats" {
                @for cat in Category::ALL {
                    li {
                        (cat.as_str()) " "
                        span class="muted" { "(" (plural(RULES.iter().filter(|r| r.meta().category == cat).count(), "check")) ")" }
                    }
                }
            }
        }
        section aria-labelledby="api-h" {
            h2 id="api-h" { "API" }
            p {
                "The same audit as JSON, no key needed for basic use. The whole interface is described in "
                a href="/openapi.json" { "openapi.json" } "."
            }
            pre { code { (curl) } }
        }
        section aria-labelledby="crawl-h" {
            h2 id="crawl-h" { "Site crawl" }
            p {
                "Audit a whole site at once: a crawl starts at a URL, follows the site's own links and sitemaps (obeying robots.txt), audits every page and then checks the site as a whole: broken internal links, internal redirects and loops, duplicate titles, descriptions and content, orphan and deep pages, pages missing from the sitemap, hreflang that does not link back."
            }
            pre { code { (crawl) } }
            p {
                "Each crawl has a report page of its own, and agents start one with the " code { "crawl_site" }
                " tool. From a terminal, " code { "seo-audit crawl https://example.com/" } " prints the same report."
            }
        }
        section aria-labelledby="badge-h" {
            h2 id="badge-h" { "Score badge" }
            p { "Show a domain's current score on its own site; the badge links to the full report. Fixed at the bottom right:" }
            pre { code { (script) } }
            p { "In place, in your brand colour:" }
            pre { code { (inline) } }
            p {
                "Without script, as a frame or as an image in a link to the report (" code { "size" }
                ": small, medium or large; " code { "color" } ": six hex digits):"
            }
            pre { code { (iframe) } }
            pre { code { (image_snippet(base, "example.com")) } }
        }
    };
    document("SEO audit: check any web page", base, body, html! {}, None)
}

/// The "Show this score on your site" section of a report: the badge as it looks, and the
/// script and image snippets for `domain` (already validated).
fn embed_section(base: &str, domain: &str) -> Markup {
    let script = format!(r#"<script async src="{base}/widget.js" data-domain="{domain}"></script>"#);
    html! {
        section class="embed" aria-labelledby="embed-h" {
            h2 id="embed-h" { "Show this score on your site" }
            p {
                img src={ "/api/widget?domain=" (encode_component(domain)) "&size=medium" }
                    alt={ "SEO score badge for " (domain) } width="200" height="56";
            }
            pre { code { (script) } }
            p { "Without script, as an image in a link to this report:" }
            pre { code { (image_snippet(base, domain)) } }
        }
    }
}

/// The no-script badge to copy: the SVG image inside a link to the domain's report, since
/// the badge links to the report (docs/API.md). Returned as markup source; the pages show
/// it as text.
pub fn image_snippet(base_url: &str, domain: &str) -> String {
    let base = base_url.trim_end_matches('/');
    let q = encode_component(domain);
    html! {
        a href={ (base) "/report/" (q) } {
            img src={ (base) "/api/widget?domain=" (q) } alt={ "SEO score for " (domain) } width="200" height="56";
        }
    }
    .into_string()
}

/// What the background queue did when a report was asked for a domain without a recent
/// audit (the server's badge queue answers it; docs/API.md, "GET /report/{domain}").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Enqueued {
    /// An audit of the domain was queued.
    Queued,
    /// An audit of the domain is already queued or running.
    Pending,
    /// The domain was audited in the background a short while ago.
    CoolingDown,
    /// The global per-minute budget of background audits is spent.
    RateLimited,
    /// The queue is full.
    QueueFull,
    /// Background audits are switched off, or give no URL for this domain.
    Disabled,
}

/// The report page of a domain without a recent audit (404), saying what became of the
/// background audit the request asked for: `queued` is what the queue answered, `audit_url`
/// the URL it audits for the domain (`None` when background audits are off), `cooldown` how
/// long a domain rests between two background audits. Only when an audit is queued or
/// running, or the queue may take one on the next try, does the page reload itself.
pub fn render_not_audited(
    base_url: &str,
    domain: &str,
    queued: Enqueued,
    audit_url: Option<&str>,
    cooldown: Duration,
) -> String {
    let home = format!("https://{domain}/");
    let none_recent = format!("There is no audit of {domain} from the last 24 hours");
    let refresh = NOT_AUDITED_REFRESH_SECS;
    let (heading, text, reload) = match (queued, audit_url) {
        (Enqueued::Disabled, _) | (_, None) => (
            "No audit was queued",
            html! { (none_recent) ", and this service does not audit domains in the background." },
            false,
        ),
        (Enqueued::Queued, Some(url)) => (
            "An audit has been queued",
            html! {
                (none_recent) ", so an audit of " code { (url) } " has been queued. This page reloads every "
                (refresh) " seconds and shows the report once the audit is done."
            },
            true,
        ),
        (Enqueued::Pending, Some(url)) => (
            "An audit is under way",
            html! {
                (none_recent) ". An audit of " code { (url) } " is already queued or running; this page reloads every "
                (refresh) " seconds and shows the report once it is done."
            },
            true,
        ),
        (Enqueued::CoolingDown, Some(url)) => {
            let m = cooldown.as_secs() / 60;
            (
                "No audit was queued",
                html! {
                    (none_recent) ". A background audit of " code { (url) } " ended less than " (m)
                    " minutes ago without giving a report for " (domain)
                    " (the site may not have answered, or its home page may redirect to another domain), and a domain is audited in the background at most once every "
                    (m) " minutes."
                },
                false,
            )
        }
        (Enqueued::RateLimited | Enqueued::QueueFull, Some(url)) => (
            "No audit was queued",
            html! {
                (none_recent) ", and the service is busy with other background audits, so no audit of " code { (url) }
                " was queued. This page reloads every " (refresh) " seconds and asks again."
            },
            true,
        ),
    };
    let body = html! {
        h1 { span class="domain" { (domain) } " has not been audited yet" }
        section class="empty" aria-labelledby="queued-h" {
            h2 id="queued-h" { (heading) }
            p { (text) }
            p { "To audit a particular page of the site now:" }
            (audit_form(audit_url.unwrap_or(&home)))
            p { a href="/" { "Back to the start page" } }
        }
    };
    let title = format!("{domain} has not been audited yet");
    document(&title, base_url.trim_end_matches('/'), body, html! {}, reload.then_some(refresh))
}

/// Width and height of the score chart's drawing area, in SVG units.
const CHART_W: u32 = 320;
const CHART_H: u32 = 80;
/// Margin around the drawing area, so that the points at the ends are whole.
const CHART_PAD: u32 = 6;

/// The "Score history" section: a line chart of the scores, one circle per audit with its
/// date and score as a tooltip; nothing with fewer than two audits.
fn history_section(history: &[ScorePoint]) -> Markup {
    if history.len() < 2 {
        return html! {};
    }
    let n = u32::try_from(history.len()).unwrap_or(u32::MAX);
    let xy = |i: usize, score: u32| {
        let i = u32::try_from(i).unwrap_or(0);
        let x = CHART_PAD + i * CHART_W / (n - 1);
        let y = CHART_PAD + (100 - score.min(100)) * CHART_H / 100;
        (x, y)
    };
    let points: Vec<String> = history
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let (x, y) = xy(i, p.score);
            format!("{x},{y}")
        })
        .collect();
    let day = |at: &str| at.get(..10).unwrap_or(at).to_string();
    let (first, last) = (&history[0], &history[history.len() - 1]);
    let label = format!(
        "Score history of this page: {} audits, from {} on {} to {} on {}.",
        history.len(),
        first.score.min(100),
        day(&first.at),
        last.score.min(100),
        day(&last.at)
    );
    let (w, h) = (CHART_W + 2 * CHART_PAD, CHART_H + 2 * CHART_PAD);
    html! {
        section class="history" aria-labelledby="history-h" {
            h2 id="history-h" { "Score history" }
            svg class="score-chart" xmlns="http://www.w3.org/2000/svg" role="img" aria-label=(label)
                width=(w) height=(h) viewBox={ "0 0 " (w) " " (h) } data-points=(history.len()) {
                line x1=(CHART_PAD) y1=(CHART_PAD + CHART_H / 2) x2=(CHART_PAD + CHART_W) y2=(CHART_PAD + CHART_H / 2)
                    stroke="#e5e7eb" stroke-dasharray="4 4" {}
                polyline points=(points.join(" ")) fill="none" stroke="#1d4ed8" stroke-width="2" {}
                @for (i, p) in history.iter().enumerate() {
                    @let (x, y) = xy(i, p.score);
                    circle class="point" cx=(x) cy=(y) r="3.5" fill="#1d4ed8" {
                        title { (day(&p.at)) ": " (p.score.min(100)) "/100" }
                    }
                }
            }
            p class="muted" { (label) }
        }
    }
}

fn facts_section(result: &AuditResult) -> Markup {
    let page = &result.page;
    let schema = match page.schema_markup {
        false => "none".to_string(),
        true if page.schema_types.is_empty() => "present".to_string(),
        true => {
            let types: Vec<String> = page.schema_types.iter().map(|t| value_text(t)).collect();
            format!("present: {}", types.join(", "))
        }
    };
    let rows: [(&str, String); 12] = [
        ("Title", show(text(&page.title))),
        ("Meta description", show(page.meta_description.as_deref().and_then(text))),
        ("H1", show(text(&page.h1))),
        ("Word count", group(page.word_count as u64)),
        (
            "Images",
            format!("{} ({} without alt text)", group(page.images.total as u64), group(page.images.missing_alt as u64)),
        ),
        (
            "Links",
            format!("{} internal, {} external", group(page.links.internal as u64), group(page.links.external as u64)),
        ),
        ("Canonical URL", show(text(&page.canonical))),
        ("HTTP status", if page.status_code > 0 { page.status_code.to_string() } else { MISSING.to_string() }),
        ("Load time", format!("{} ms", group(page.load_time_ms))),
        ("Language", show(text(&page.lang))),
        ("Robots directive", show(text(&page.robots))),
        ("Structured data", schema),
    ];
    html! {
        section aria-labelledby="facts-h" {
            h2 id="facts-h" { "Page facts" }
            dl class="facts" {
                @for (name, value) in rows {
                    div { dt { (name) } dd { (value) } }
                }
            }
        }
    }
}

fn recommendations_section(recs: &[&Recommendation], fixes: &[(String, String)]) -> Markup {
    html! {
        section aria-labelledby="recs-h" {
            h2 id="recs-h" { "Recommendations" }
            @if recs.is_empty() {
                p { "No problems found." }
            } @else {
                p class="muted" { "Worst first." }
                @for rec in recs {
                    (recommendation(rec, fixes))
                }
            }
        }
    }
}

fn recommendation(rec: &Recommendation, fixes: &[(String, String)]) -> Markup {
    let kind = rec.kind.as_str();
    let sev_class = match kind {
        "critical" | "warning" | "notice" => kind,
        _ => "other",
    };
    let tags = [("", rec.category.as_str()), ("Impact: ", rec.impact.as_str()), ("Effort: ", rec.effort.as_str())];
    let current = rec.current_value.as_deref().and_then(text);
    let suggested = rec.suggested_value.as_deref().and_then(text);
    let fix = text(&rec.id).and_then(|id| fixes.iter().find(|(rule, _)| rule == id));
    html! {
        article class={ "rec rec-" (sev_class) } {
            h3 { (show(text(&rec.title))) }
            p class="tags" {
                span class={ "sev sev-" (sev_class) } { (if kind.is_empty() { "issue" } else { kind }) }
                @for (label, value) in tags {
                    @if let Some(v) = text(value) {
                        " " span class="tag" { (label) (value_text(v)) }
                    }
                }
            }
            @if let Some(desc) = text(&rec.description) {
                p { (value_text(desc)) }
            }
            @if current.is_some() || suggested.is_some() {
                dl class="values" {
                    @if let Some(v) = current {
                        div { dt { "Now" } dd { code { (value_text(v)) } } }
                    }
                    @if let Some(v) = suggested {
                        div { dt { "Suggested" } dd { code { (value_text(v)) } } }
                    }
                }
            }
            @if !rec.locations.is_empty() {
                (locations(rec))
            }
            @if let Some((_, code)) = fix {
                h4 { "How to fix" }
                pre { code { (code) } }
            }
        }
    }
}

/// The elements a recommendation points at: line and column in the HTML, the selector and
/// the start tag of each, and how many more there are.
fn locations(rec: &Recommendation) -> Markup {
    let total = (rec.locations_total as usize).max(rec.locations.len());
    let more = total - rec.locations.len();
    html! {
        details class="locations" {
            summary { "Where: " (total) (if total == 1 { " element" } else { " elements" }) }
            ol {
                @for at in &rec.locations {
                    li {
                        "line " (at.line) ", column " (at.column) " "
                        code { (value_text(&at.selector)) } " "
                        code class="snippet" { (value_text(&at.snippet)) }
                    }
                }
            }
            @if more > 0 {
                p class="muted" { "and " (more) " more" }
            }
        }
    }
}

fn checks_section(checks: &[CheckSummary]) -> Markup {
    let mut groups: Vec<(&str, Vec<&CheckSummary>)> =
        Category::ALL.iter().map(|c| (c.as_str(), checks.iter().filter(|ch| ch.category == *c).collect())).collect();
    for (_, items) in &mut groups {
        // Failures first, then passes, then checks that did not apply; table order within.
        items.sort_by_key(|ch| match ch.status {
            CheckStatus::Fail => 0,
            CheckStatus::Pass => 1,
            _ => 2,
        });
    }
    html! {
        section aria-labelledby="checks-h" {
            h2 id="checks-h" { "Checks by category" }
            @if checks.is_empty() {
                p { "Per-check results are not available for this audit." }
            }
            @for (name, items) in groups.iter().filter(|(_, items)| !items.is_empty()) {
                section class="cat" {
                    h3 {
                        (name) " "
                        span class="muted" {
                            (items.iter().filter(|ch| ch.status == CheckStatus::Pass).count()) " of "
                            (items.iter().filter(|ch| ch.status != CheckStatus::NotApplicable).count()) " passed"
                        }
                    }
                    ul class="checks" {
                        @for ch in items {
                            (check(ch))
                        }
                    }
                }
            }
        }
    }
}

fn check(ch: &CheckSummary) -> Markup {
    let label = rule_by_id(&ch.id)
        .map_or_else(|| value_text(if ch.id.is_empty() { MISSING } else { &ch.id }), |m| m.name.to_string());
    let (class, status) = match ch.status {
        CheckStatus::Pass => ("pass", "Passed"),
        CheckStatus::Fail => ("fail", "Failed"),
        _ => ("na", "Not applicable"),
    };
    html! {
        li class={ "check " (class) } {
            span class="status" { (status) } " "
            span class="name" { (label) } " "
            code class="rule-id" { (ch.id) }
        }
    }
}

/// The score band: the colour and word next to the number.
#[derive(Clone, Copy)]
enum Band {
    Good,
    Fair,
    Poor,
    Unknown,
}

impl Band {
    fn of(score: Option<u32>) -> Band {
        match score {
            Some(s) if s >= 90 => Band::Good,
            Some(s) if s >= 50 => Band::Fair,
            Some(_) => Band::Poor,
            None => Band::Unknown,
        }
    }

    fn class(self) -> &'static str {
        match self {
            Band::Good => "band-good",
            Band::Fair => "band-fair",
            Band::Poor => "band-poor",
            Band::Unknown => "band-unknown",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Band::Good => "Good",
            Band::Fair => "Needs work",
            Band::Poor => "Poor",
            Band::Unknown => "No score",
        }
    }
}

/// The percentage, clamped to 100; none for a result that carries no score at all (an
/// empty or unreadable stored result).
fn score_of(score: &Score) -> Option<u32> {
    (*score != Score::default()).then(|| score.percentage.min(100))
}

/// Recommendations, worst first; the engine already orders them, the stable sort only
/// guards results from elsewhere.
fn recommendations(result: &AuditResult) -> Vec<&Recommendation> {
    let mut recs: Vec<&Recommendation> = result.recommendations.iter().collect();
    recs.sort_by_key(|r| match r.kind.as_str() {
        "critical" => 0,
        "warning" => 1,
        "notice" => 2,
        _ => 3,
    });
    recs
}

/// A string that says something: `None` when it is empty or only white space.
fn text(value: &str) -> Option<&str> {
    Some(value).filter(|s| !s.trim().is_empty())
}

/// A value from the audited page, cut to [`MAX_VALUE_CHARS`]. Control characters other
/// than tab and newlines become U+FFFD: they never belong in a rendered value.
fn value_text(text: &str) -> String {
    let clean = |s: &str| -> String {
        s.chars().map(|c| if c.is_control() && !matches!(c, '\t' | '\n' | '\r') { '\u{fffd}' } else { c }).collect()
    };
    match text.char_indices().nth(MAX_VALUE_CHARS) {
        None => clean(text),
        Some((cut, _)) => format!("{}…", clean(&text[..cut])),
    }
}

fn show(text: Option<&str>) -> String {
    text.map_or_else(|| MISSING.to_string(), value_text)
}

/// The URL as a link when it is http(s), as plain text otherwise (never a `javascript:`
/// link). The link leaves no referrer and passes no ranking.
fn link_if_http(url: &str) -> Markup {
    let lower = url.trim_start().to_ascii_lowercase();
    html! {
        @if lower.starts_with("http://") || lower.starts_with("https://") {
            a href=(url) rel="nofollow noopener noreferrer" { (value_text(url)) }
        } @else {
            (value_text(url))
        }
    }
}

/// `scanned_at` as `<time>`: ISO 8601 UTC shown as `2026-01-01 12:00 UTC`.
fn date_html(scanned_at: Option<&str>) -> Markup {
    let Some(ts) = scanned_at else {
        return html! { (MISSING) };
    };
    let b = ts.as_bytes();
    let iso = b.len() >= 16
        && b[..16].iter().enumerate().all(|(i, c)| match i {
            4 | 7 => *c == b'-',
            10 => *c == b'T',
            13 => *c == b':',
            _ => c.is_ascii_digit(),
        });
    html! {
        @if iso {
            time datetime=(ts) { (&ts[..10]) " " (&ts[11..16]) " UTC" }
        } @else {
            (value_text(ts))
        }
    }
}

/// An integer with thousands separators.
fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typed_result_loses_its_query_strings() {
        let mut result = AuditResult::default();
        result.page.final_url = "https://site.example/p?token=SECRET123#top".into();
        result.page.title = "See https://site.example/p?token=SECRET123.".into();
        result
            .recommendations
            .push(Recommendation { current_value: Some("token=SECRET123".into()), ..Recommendation::default() });
        strip_query_strings(&mut result);
        assert_eq!(result.page.final_url, "https://site.example/p");
        assert_eq!(result.page.title, "See https://site.example/p.");
        assert_eq!(result.recommendations[0].current_value.as_deref(), Some(""));
        let page = render_report("https://svc.example", "site.example", &result, &[]);
        assert!(!page.contains("SECRET123"));
    }

    #[test]
    fn an_empty_result_has_no_score() {
        let page = render_report("https://svc.example", "site.example", &AuditResult::default(), &[]);
        assert!(page.contains("<title>SEO report for site.example: no score</title>"));
        assert!(page.contains("<span class=\"score-band\">No score</span>"));
    }

    #[test]
    fn the_score_history_is_a_chart_of_one_point_per_audit() {
        let point = |day: u32, score| ScorePoint { at: format!("2026-03-{day:02}T10:00:00.000Z"), score };
        let result = AuditResult::default();
        let history = [point(1, 40), point(2, 55), point(3, 200)];
        let page = render_report_with_history("https://svc.example", "site.example", &result, &[], &history);
        assert_eq!(page.matches("<svg class=\"score-chart\"").count(), 1, "{page}");
        assert_eq!(page.matches("<circle class=\"point\"").count(), 3);
        assert!(page.contains("data-points=\"3\""));
        // Oldest at the left, a score of 100 (clamped) at the top.
        assert!(page.contains("points=\"6,54 166,42 326,6\""), "{page}");
        assert!(page.contains("<title>2026-03-02: 55/100</title>"));
        assert!(page.contains("3 audits, from 40 on 2026-03-01 to 100 on 2026-03-03."));
        assert!(!page.contains("<script"));
        let one = render_report_with_history("https://svc.example", "site.example", &result, &[], &history[..1]);
        assert!(!one.contains("score-chart"));
        assert_eq!(one, render_report("https://svc.example", "site.example", &result, &[]));
    }
}
