//! The human-readable pages: the report of a domain's newest audit (`GET /report/{domain}`)
//! and the landing page (`GET /`).
//!
//! Both are complete HTML documents with inline CSS and no script, so they work under
//! [`super::PAGE_CSP`]. The report reads the audit result as JSON, defensively: a missing
//! or mistyped field renders as "—", never as a panic, so results stored by older engine
//! versions still render. Every value that came from the audited page goes through
//! [`escape_html`].

use std::fmt::Write as _;

use audit_core::{rule_by_id, Category, RULES};
use serde_json::Value;

use super::{badge, encode_component, escape_html};
use crate::badge_queue::{Enqueued, BADGE_AUDIT_COOLDOWN};

/// Shown for a value the result does not carry.
const MISSING: &str = "—";
/// Values from the audited page are cut to this many characters: a page title of a
/// megabyte must not make a report of a megabyte.
const MAX_VALUE_CHARS: usize = 1000;
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
pub fn strip_query_strings(result: &mut Value) {
    let mut secrets: Vec<String> = Vec::new();
    collect_queries(result, &mut secrets);
    // Longest first, so that a query containing another is removed whole.
    secrets.sort_by_key(|q| std::cmp::Reverse(q.len()));
    secrets.dedup();
    scrub(result, &secrets);
}

/// The non-empty `?query` and `#fragment` parts of every URL-like string.
fn collect_queries(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(text) => {
            for span in url_spans(text) {
                let url = &text[span];
                if let Some(at) = url.find(['?', '#']) {
                    let tail = &url[at..];
                    if tail.len() > 1 {
                        out.push(tail.to_string());
                    }
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| collect_queries(v, out)),
        Value::Object(map) => map.values().for_each(|v| collect_queries(v, out)),
        _ => {}
    }
}

fn scrub(value: &mut Value, secrets: &[String]) {
    match value {
        Value::String(text) => {
            if let Some(clean) = scrubbed(text, secrets) {
                *text = clean;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| scrub(v, secrets)),
        Value::Object(map) => map.values_mut().for_each(|v| scrub(v, secrets)),
        _ => {}
    }
}

/// `text` without the queries and fragments of its URLs and without any of `secrets`;
/// `None` when nothing changes.
fn scrubbed(text: &str, secrets: &[String]) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for span in url_spans(text) {
        let url = &text[span.clone()];
        if let Some(at) = url.find(['?', '#']) {
            out.push_str(&text[last..span.start + at]);
            last = span.end;
        }
    }
    out.push_str(&text[last..]);
    for secret in secrets {
        if out.contains(secret.as_str()) {
            out = out.replace(secret.as_str(), "");
        }
        // The bare query (`token=…`), as a template or a message may repeat it; only a
        // query with a value, long enough not to be an ordinary word.
        if let Some(bare) = secret.strip_prefix('?').and_then(|q| q.split('#').next()) {
            if bare.len() >= 6 && bare.contains('=') && out.contains(bare) {
                out = out.replace(bare, "");
            }
        }
    }
    (out != text).then_some(out)
}

/// Byte ranges of the URLs in `text`: the whole text when it is a path (`/…`) or an
/// absolute URL, else every `http://` or `https://` URL in it, each up to whitespace or a
/// quote or angle bracket, without the punctuation that ends a sentence.
fn url_spans(text: &str) -> Vec<std::ops::Range<usize>> {
    let trimmed = text.trim();
    if trimmed.starts_with('/') && !trimmed.contains(char::is_whitespace) {
        let start = text.len() - text.trim_start().len();
        return std::iter::once(start..start + trimmed.len()).collect();
    }
    let lower = text.to_ascii_lowercase();
    let mut spans = Vec::new();
    let mut from = 0;
    while let Some(found) = ["http://", "https://"].iter().filter_map(|p| lower[from..].find(p)).min() {
        let start = from + found;
        let end = text[start..]
            .find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '<' | '>'))
            .map_or(text.len(), |n| start + n);
        // Punctuation after a URL in a sentence is not part of it.
        let end = start + text[start..end].trim_end_matches(['.', ',', ';', ':', '!', ')', ']']).len();
        spans.push(start..end);
        from = end.max(start + 1);
    }
    spans
}

/// Renders the report of `domain` from its newest audit result (the JSON of
/// `GET /api/v1/audit`). A domain without a recent audit gets [`render_not_audited`].
///
/// `fixes` maps rule ids to the auto-fix code shown under each recommendation. `base_url` is
/// the public address of the service, used in the badge snippets.
pub fn render_report(base_url: &str, domain: &str, result: &Value, fixes: &[(String, String)]) -> String {
    let base = base_url.trim_end_matches('/');
    let score = score_of(result);
    let band = Band::of(score);
    let d = escape_html(domain);

    let mut body = String::with_capacity(16 * 1024);
    let _ = write!(body, r#"<h1>SEO report for <span class="domain">{d}</span></h1>"#);

    // Summary: score, URL, date, counts.
    let url = str_at(result, &["page", "final_url"]).or_else(|| str_at(result, &["page", "url"]));
    let recs = recommendations(result);
    let count = |t: &str| recs.iter().filter(|r| str_at(r, &["type"]) == Some(t)).count();
    let _ = write!(
        body,
        r#"<section class="summary" aria-labelledby="summary-h"><h2 id="summary-h" class="visually-hidden">Summary</h2><div class="score {cls}"><span class="score-value">{value}</span><span class="score-max">/100</span><span class="score-band">{label}</span></div><dl class="summary-facts"><dt>Audited URL</dt><dd>{url}</dd><dt>Audited on</dt><dd>{date}</dd><dt>Checks passed</dt><dd>{passed}</dd><dt>Problems</dt><dd><span class="sev {cc}">{c} critical</span> <span class="sev {wc}">{w}</span> <span class="sev {nc}">{n}</span></dd></dl></section>"#,
        cls = band.class(),
        value = score.map_or_else(|| MISSING.to_string(), |s| s.to_string()),
        label = band.label(),
        url = url.map_or_else(|| MISSING.to_string(), link_if_http),
        date = date_html(str_at(result, &["scanned_at"])),
        passed = match (int_at(result, &["score", "passed"]), int_at(result, &["score", "total"])) {
            (Some(p), Some(t)) => format!("{p} of {t}"),
            _ => MISSING.to_string(),
        },
        c = count("critical"),
        w = plural(count("warning"), "warning"),
        n = plural(count("notice"), "notice"),
        // A severity with nothing in it is not coloured as a problem.
        cc = if count("critical") == 0 { "sev-none" } else { "sev-critical" },
        wc = if count("warning") == 0 { "sev-none" } else { "sev-warning" },
        nc = if count("notice") == 0 { "sev-none" } else { "sev-notice" },
    );
    if let Some(insights) = str_at(result, &["ai_insights"]) {
        let _ = write!(body, r#"<p class="insights">{}</p>"#, value_text(insights));
    }

    body.push_str(&facts_section(result));
    body.push_str(&recommendations_section(&recs, fixes));
    body.push_str(&checks_section(result));

    // Only a domain has a badge: a report of an address (a public IP audited through
    // `GET /report?url=`) offers none, since the badge routes would refuse it.
    if badge::validate_domain(domain).as_deref() == Some(domain) {
        body.push_str(&embed_section(base, domain));
    }

    let version =
        str_at(result, &["meta", "ruleset_version"]).or_else(|| str_at(result, &["score", "ruleset_version"]));
    let fingerprint =
        str_at(result, &["meta", "ruleset_fingerprint"]).or_else(|| str_at(result, &["score", "ruleset_fingerprint"]));
    let engine = str_at(result, &["meta", "engine_version"]).or_else(|| str_at(result, &["score", "engine_version"]));
    let methodology = format!(
        r#"<p class="methodology">Ruleset {v} (fingerprint <code>{f}</code>), engine {e}. The same page and ruleset always give the same findings.</p>"#,
        v = show(version),
        f = show(fingerprint),
        e = show(engine),
    );
    let title =
        format!("SEO report for {}: {}", domain, score.map_or_else(|| "no score".to_string(), |s| format!("{s}/100")));
    document(&title, base, &body, &methodology, None)
}

/// The landing page: what the service does, a form that audits a URL and shows its report
/// (`GET /report?url=`), the API and the badge snippets.
pub fn render_landing(base_url: &str) -> String {
    let base = base_url.trim_end_matches('/');
    let mut body = String::with_capacity(8 * 1024);
    body.push_str(
        r#"<h1>SEO audit</h1><p class="lead">Check a web page for the problems that cost it search traffic: title and description, headings, images, links, structured data, social cards, speed, mobile and language signals. Every problem comes with what to change and a ready-to-use fix.</p>"#,
    );
    body.push_str(&audit_form(""));

    body.push_str(r#"<section aria-labelledby="checks-h"><h2 id="checks-h">What is checked</h2><ul class="cats">"#);
    for cat in Category::ALL {
        let n = RULES.iter().filter(|r| r.meta().category == cat).count();
        let _ =
            write!(body, "<li>{} <span class=\"muted\">({})</span></li>", escape_html(cat.name()), plural(n, "check"));
    }
    body.push_str("</ul></section>");

    let curl = format!("curl '{base}/api/v1/audit?url=https%3A%2F%2Fexample.com%2F'");
    let _ = write!(
        body,
        r#"<section aria-labelledby="api-h"><h2 id="api-h">API</h2><p>The same audit as JSON, no key needed for basic use. The whole interface is described in <a href="/openapi.json">openapi.json</a>.</p><pre><code>{}</code></pre></section>"#,
        escape_html(&curl),
    );

    let script = format!(r#"<script async src="{base}/widget.js" data-domain="example.com"></script>"#);
    let inline = format!(
        "<div id=\"svc-widget\"></div>\n<script async src=\"{base}/widget.js\" data-domain=\"example.com\" data-position=\"inline\" data-color=\"2563eb\"></script>"
    );
    let iframe = format!(
        r#"<iframe src="{base}/api/widget?domain=example.com&amp;format=iframe" width="200" height="56" title="SEO score" style="border:0"></iframe>"#
    );
    let img = image_snippet(base, "example.com");
    let _ = write!(
        body,
        r#"<section aria-labelledby="badge-h"><h2 id="badge-h">Score badge</h2><p>Show a domain's current score on its own site; the badge links to the full report. Fixed at the bottom right:</p><pre><code>{}</code></pre><p>In place, in your brand colour:</p><pre><code>{}</code></pre><p>Without script, as a frame or as an image in a link to the report (<code>size</code>: small, medium or large; <code>color</code>: six hex digits):</p><pre><code>{}</code></pre><pre><code>{}</code></pre></section>"#,
        escape_html(&script),
        escape_html(&inline),
        escape_html(&iframe),
        escape_html(&img),
    );
    document("SEO audit: check any web page", base, &body, "", None)
}

/// The "Show this score on your site" section of a report: the badge as it looks, and the
/// script and image snippets for `domain` (already validated).
fn embed_section(base: &str, domain: &str) -> String {
    let script = format!(r#"<script async src="{base}/widget.js" data-domain="{domain}"></script>"#);
    format!(
        r#"<section class="embed" aria-labelledby="embed-h"><h2 id="embed-h">Show this score on your site</h2><p><img src="/api/widget?domain={q}&amp;size=medium" alt="SEO score badge for {d}" width="200" height="56"></p><pre><code>{script}</code></pre><p>Without script, as an image in a link to this report:</p><pre><code>{img}</code></pre></section>"#,
        q = escape_html(&encode_component(domain)),
        d = escape_html(domain),
        script = escape_html(&script),
        img = escape_html(&image_snippet(base, domain)),
    )
}

/// The no-script badge to copy: the SVG image inside a link to the domain's report, since
/// the badge links to the report (docs/API.md). Returned as markup; escape it to show it.
pub fn image_snippet(base_url: &str, domain: &str) -> String {
    let base = escape_html(base_url.trim_end_matches('/'));
    let q = encode_component(domain);
    let d = escape_html(domain);
    format!(
        r#"<a href="{base}/report/{q}"><img src="{base}/api/widget?domain={q}" alt="SEO score for {d}" width="200" height="56"></a>"#
    )
}

/// The report page of a domain without a recent audit (404), saying what became of the
/// background audit the request asked for: `queued` is what
/// [`crate::badge_queue::BadgeQueue::enqueue`] answered, `audit_url` the URL it audits for
/// the domain (`None` when background audits are off). Only when an audit is queued or
/// running, or the queue may take one on the next try, does the page reload itself.
pub fn render_not_audited(base_url: &str, domain: &str, queued: Enqueued, audit_url: Option<&str>) -> String {
    let d = escape_html(domain);
    let home = format!("https://{domain}/");
    let none_recent = format!("There is no audit of {d} from the last 24 hours");
    let (heading, text, refresh) = match (queued, audit_url) {
        (Enqueued::Disabled, _) | (_, None) => (
            "No audit was queued",
            format!("{none_recent}, and this service does not audit domains in the background."),
            None,
        ),
        (Enqueued::Queued, Some(url)) => (
            "An audit has been queued",
            format!(
                "{none_recent}, so an audit of <code>{u}</code> has been queued. This page reloads every {NOT_AUDITED_REFRESH_SECS} seconds and shows the report once the audit is done.",
                u = escape_html(url),
            ),
            Some(NOT_AUDITED_REFRESH_SECS),
        ),
        (Enqueued::Pending, Some(url)) => (
            "An audit is under way",
            format!(
                "{none_recent}. An audit of <code>{u}</code> is already queued or running; this page reloads every {NOT_AUDITED_REFRESH_SECS} seconds and shows the report once it is done.",
                u = escape_html(url),
            ),
            Some(NOT_AUDITED_REFRESH_SECS),
        ),
        (Enqueued::CoolingDown, Some(url)) => (
            "No audit was queued",
            format!(
                "{none_recent}. A background audit of <code>{u}</code> ended less than {m} minutes ago without giving a report for {d} (the site may not have answered, or its home page may redirect to another domain), and a domain is audited in the background at most once every {m} minutes.",
                u = escape_html(url),
                m = BADGE_AUDIT_COOLDOWN.as_secs() / 60,
            ),
            None,
        ),
        (Enqueued::RateLimited | Enqueued::QueueFull, Some(url)) => (
            "No audit was queued",
            format!(
                "{none_recent}, and the service is busy with other background audits, so no audit of <code>{u}</code> was queued. This page reloads every {NOT_AUDITED_REFRESH_SECS} seconds and asks again.",
                u = escape_html(url),
            ),
            Some(NOT_AUDITED_REFRESH_SECS),
        ),
    };
    let form_value = audit_url.unwrap_or(&home);
    let mut body = String::new();
    let _ = write!(
        body,
        r#"<h1><span class="domain">{d}</span> has not been audited yet</h1><section class="empty" aria-labelledby="queued-h"><h2 id="queued-h">{heading}</h2><p>{text}</p><p>To audit a particular page of the site now:</p>{form}<p><a href="/">Back to the start page</a></p></section>"#,
        form = audit_form(form_value),
    );
    document(&format!("{domain} has not been audited yet"), base_url.trim_end_matches('/'), &body, "", refresh)
}

/// The form that audits a URL and then shows its report.
fn audit_form(value: &str) -> String {
    format!(
        r#"<form class="audit" method="get" action="/report" aria-label="Audit a page"><label for="audit-url">Page URL</label><div class="row"><input id="audit-url" type="url" name="url" required placeholder="https://example.com/" value="{}" autocomplete="url" inputmode="url"><button type="submit">Audit</button></div></form>"#,
        escape_html(value)
    )
}

/// The shared frame of every page (report, landing, `/bot`): head with the inline
/// stylesheet, banner, main, footer. `title` and `base` are escaped here; `main` and
/// `footer_extra` are markup.
pub(crate) fn document(title: &str, base: &str, main: &str, footer_extra: &str, refresh: Option<u32>) -> String {
    let refresh = refresh.map_or_else(String::new, |s| format!(r#"<meta http-equiv="refresh" content="{s}">"#));
    format!(
        r##"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
{refresh}<title>{title}</title>
<style>{CSS}</style>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="banner"><div class="wrap"><a class="brand" href="/">seo-audit</a></div></header>
<main id="main" class="wrap">
{main}
</main>
<footer class="wrap">{footer_extra}<p>Generated by seo-audit at <a href="/">{base}</a> · <a href="/openapi.json">API description</a></p></footer>
</body>
</html>
"##,
        title = escape_html(title),
        base = escape_html(base),
    )
}

fn facts_section(result: &Value) -> String {
    let page = |k: &str| str_at(result, &["page", k]);
    let pint = |path: &[&str]| {
        let mut full = vec!["page"];
        full.extend_from_slice(path);
        int_at(result, &full)
    };
    let images = match (pint(&["images", "total"]), pint(&["images", "missing_alt"])) {
        (Some(t), Some(m)) => format!("{} ({} without alt text)", group(t), group(m)),
        (Some(t), None) => group(t),
        _ => MISSING.to_string(),
    };
    let links = match (pint(&["links", "internal"]), pint(&["links", "external"])) {
        (Some(i), Some(e)) => format!("{} internal, {} external", group(i), group(e)),
        _ => MISSING.to_string(),
    };
    let schema = match get(result, &["page", "schema_markup"]).and_then(Value::as_bool) {
        None => MISSING.to_string(),
        Some(false) => "none".to_string(),
        Some(true) => {
            let types: Vec<String> = get(result, &["page", "schema_types"])
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_str).map(value_text).collect())
                .unwrap_or_default();
            if types.is_empty() {
                "present".to_string()
            } else {
                format!("present: {}", types.join(", "))
            }
        }
    };
    let rows: [(&str, String); 12] = [
        ("Title", show(page("title"))),
        ("Meta description", show(page("meta_description"))),
        ("H1", show(page("h1"))),
        ("Word count", pint(&["word_count"]).map_or_else(|| MISSING.to_string(), group)),
        ("Images", images),
        ("Links", links),
        ("Canonical URL", show(page("canonical"))),
        (
            "HTTP status",
            pint(&["status_code"]).filter(|s| *s > 0).map_or_else(|| MISSING.to_string(), |s| s.to_string()),
        ),
        ("Load time", pint(&["load_time_ms"]).map_or_else(|| MISSING.to_string(), |ms| format!("{} ms", group(ms)))),
        ("Language", show(page("lang"))),
        ("Robots directive", show(page("robots"))),
        ("Structured data", schema),
    ];
    let mut out =
        String::from(r#"<section aria-labelledby="facts-h"><h2 id="facts-h">Page facts</h2><dl class="facts">"#);
    for (name, value) in rows {
        let _ = write!(out, "<div><dt>{name}</dt><dd>{value}</dd></div>");
    }
    out.push_str("</dl></section>");
    out
}

fn recommendations_section(recs: &[&Value], fixes: &[(String, String)]) -> String {
    let mut out = String::from(r#"<section aria-labelledby="recs-h"><h2 id="recs-h">Recommendations</h2>"#);
    if recs.is_empty() {
        out.push_str("<p>No problems found.</p></section>");
        return out;
    }
    out.push_str(r#"<p class="muted">Worst first.</p>"#);
    for rec in recs {
        let kind = str_at(rec, &["type"]).unwrap_or("");
        let sev_class = match kind {
            "critical" | "warning" | "notice" => kind,
            _ => "other",
        };
        let _ = write!(
            out,
            r#"<article class="rec rec-{sev_class}"><h3>{title}</h3><p class="tags"><span class="sev sev-{sev_class}">{kind}</span>"#,
            title = show(str_at(rec, &["title"])),
            kind = if kind.is_empty() { "issue".to_string() } else { escape_html(kind) },
        );
        for (label, key) in [("", "category"), ("Impact: ", "impact"), ("Effort: ", "effort")] {
            if let Some(v) = str_at(rec, &[key]) {
                let _ = write!(out, r#" <span class="tag">{label}{}</span>"#, value_text(v));
            }
        }
        out.push_str("</p>");
        if let Some(desc) = str_at(rec, &["description"]) {
            let _ = write!(out, "<p>{}</p>", value_text(desc));
        }
        let current = str_at(rec, &["current_value"]);
        let suggested = str_at(rec, &["suggested_value"]);
        if current.is_some() || suggested.is_some() {
            out.push_str(r#"<dl class="values">"#);
            if let Some(v) = current {
                let _ = write!(out, "<div><dt>Now</dt><dd><code>{}</code></dd></div>", value_text(v));
            }
            if let Some(v) = suggested {
                let _ = write!(out, "<div><dt>Suggested</dt><dd><code>{}</code></dd></div>", value_text(v));
            }
            out.push_str("</dl>");
        }
        let fix = str_at(rec, &["id"]).and_then(|id| fixes.iter().find(|(rule, _)| rule == id));
        if let Some((_, code)) = fix {
            let _ = write!(out, "<h4>How to fix</h4><pre><code>{}</code></pre>", escape_html(code));
        }
        out.push_str("</article>");
    }
    out.push_str("</section>");
    out
}

fn checks_section(result: &Value) -> String {
    let mut out = String::from(r#"<section aria-labelledby="checks-h"><h2 id="checks-h">Checks by category</h2>"#);
    let checks: Vec<&Value> =
        get(result, &["checks"]).and_then(Value::as_array).map(|a| a.iter().collect()).unwrap_or_default();
    if checks.is_empty() {
        out.push_str("<p>Per-check results are not available for this audit.</p></section>");
        return out;
    }
    let known: Vec<&str> = Category::ALL.iter().map(|c| c.name()).collect();
    let mut groups: Vec<(&str, Vec<&Value>)> = Category::ALL
        .iter()
        .map(|c| (c.name(), checks.iter().copied().filter(|ch| str_at(ch, &["category"]) == Some(c.name())).collect()))
        .collect();
    groups.push((
        "Other",
        checks.iter().copied().filter(|ch| !str_at(ch, &["category"]).is_some_and(|c| known.contains(&c))).collect(),
    ));
    for (name, mut items) in groups {
        if items.is_empty() {
            continue;
        }
        // Failures first, then passes, then checks that did not apply; table order within.
        items.sort_by_key(|ch| match str_at(ch, &["status"]) {
            Some("fail") => 0,
            Some("pass") => 1,
            _ => 2,
        });
        let passed = items.iter().filter(|ch| str_at(ch, &["status"]) == Some("pass")).count();
        let applicable = items.iter().filter(|ch| matches!(str_at(ch, &["status"]), Some("pass" | "fail"))).count();
        let _ = write!(
            out,
            r#"<section class="cat"><h3>{name} <span class="muted">{passed} of {applicable} passed</span></h3><ul class="checks">"#,
            name = escape_html(name),
        );
        for ch in items {
            let id = str_at(ch, &["id"]).unwrap_or("");
            let label = rule_by_id(id)
                .map_or_else(|| value_text(if id.is_empty() { MISSING } else { id }), |m| escape_html(m.name));
            let (class, status) = match str_at(ch, &["status"]) {
                Some("pass") => ("pass", "Passed"),
                Some("fail") => ("fail", "Failed"),
                Some("not_applicable") => ("na", "Not applicable"),
                _ => ("na", "Unknown"),
            };
            let _ = write!(
                out,
                r#"<li class="check {class}"><span class="status">{status}</span> <span class="name">{label}</span> <code class="rule-id">{id}</code></li>"#,
                id = escape_html(id),
            );
        }
        out.push_str("</ul></section>");
    }
    out.push_str("</section>");
    out
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

fn score_of(result: &Value) -> Option<u32> {
    int_at(result, &["score", "percentage"])
        .or_else(|| int_at(result, &["score", "current"]))
        .map(|s| s.clamp(0, 100) as u32)
}

/// Recommendations, worst first; the engine already orders them, the stable sort only
/// guards results from elsewhere.
fn recommendations(result: &Value) -> Vec<&Value> {
    let mut recs: Vec<&Value> = get(result, &["recommendations"])
        .and_then(Value::as_array)
        .map(|a| a.iter().filter(|r| r.is_object()).collect())
        .unwrap_or_default();
    recs.sort_by_key(|r| match str_at(r, &["type"]) {
        Some("critical") => 0,
        Some("warning") => 1,
        Some("notice") => 2,
        _ => 3,
    });
    recs
}

fn get<'a>(value: &'a Value, path: &[&str]) -> Option<&'a Value> {
    path.iter().try_fold(value, |v, key| v.get(key))
}

/// A non-empty string at `path`.
fn str_at<'a>(value: &'a Value, path: &[&str]) -> Option<&'a str> {
    get(value, path).and_then(Value::as_str).filter(|s| !s.trim().is_empty())
}

/// An integer at `path`; finite floats are rounded, anything else is absent.
fn int_at(value: &Value, path: &[&str]) -> Option<i64> {
    let v = get(value, path)?;
    v.as_i64().or_else(|| v.as_f64().filter(|f| f.is_finite() && f.abs() < 1e15).map(|f| f.round() as i64))
}

/// A value from the audited page: cut to [`MAX_VALUE_CHARS`], then escaped.
fn value_text(text: &str) -> String {
    match text.char_indices().nth(MAX_VALUE_CHARS) {
        None => escape_html(text),
        Some((cut, _)) => format!("{}…", escape_html(&text[..cut])),
    }
}

fn show(text: Option<&str>) -> String {
    text.map_or_else(|| MISSING.to_string(), value_text)
}

/// The URL as a link when it is http(s), as plain text otherwise (never a `javascript:`
/// link). The link leaves no referrer and passes no ranking.
fn link_if_http(url: &str) -> String {
    let lower = url.trim_start().to_ascii_lowercase();
    let text = value_text(url);
    if lower.starts_with("http://") || lower.starts_with("https://") {
        format!(r#"<a href="{}" rel="nofollow noopener noreferrer">{text}</a>"#, escape_html(url))
    } else {
        text
    }
}

/// `scanned_at` as `<time>`: ISO 8601 UTC shown as `2026-01-01 12:00 UTC`.
fn date_html(scanned_at: Option<&str>) -> String {
    let Some(ts) = scanned_at else {
        return MISSING.to_string();
    };
    let b = ts.as_bytes();
    let iso = b.len() >= 16
        && b[..16].iter().enumerate().all(|(i, c)| match i {
            4 | 7 => *c == b'-',
            10 => *c == b'T',
            13 => *c == b':',
            _ => c.is_ascii_digit(),
        });
    if iso {
        let shown = format!("{} {} UTC", &ts[..10], &ts[11..16]);
        format!(r#"<time datetime="{}">{}</time>"#, escape_html(ts), shown)
    } else {
        value_text(ts)
    }
}

/// `1 warning`, `2 warnings`.
fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// An integer with thousands separators.
fn group(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0 {
        format!("-{out}")
    } else {
        out
    }
}

/// The one stylesheet. Colours meet WCAG AA on their backgrounds (text on white at least
/// 4.5:1); status is always said in words as well as colour.
const CSS: &str = "\
:root{color-scheme:light;--ink:#111827;--muted:#4b5563;--line:#e5e7eb;--bg:#f9fafb;--good:#047857;--fair:#b45309;--poor:#b91c1c;--link:#1d4ed8}\
*{box-sizing:border-box}\
body{margin:0;font:16px/1.55 -apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:var(--ink);background:var(--bg)}\
a{color:var(--link)}a:focus-visible,button:focus-visible,input:focus-visible{outline:3px solid #2563eb;outline-offset:2px}\
.wrap{max-width:960px;margin:0 auto;padding:0 16px}\
.skip{position:absolute;left:-9999px;top:0;background:#fff;padding:8px}.skip:focus{left:8px}\
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}\
.banner{background:#111827;color:#fff;padding:12px 0}.banner .brand{color:#fff;font-weight:700;text-decoration:none}\
h1{font-size:1.8rem;line-height:1.25;margin:24px 0 16px;overflow-wrap:anywhere}h2{font-size:1.35rem;margin:32px 0 12px}h3{font-size:1.1rem;margin:0 0 8px}h4{font-size:1rem;margin:12px 0 4px}\
.muted{color:var(--muted);font-weight:400}\
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}\
pre{background:#111827;color:#f9fafb;padding:12px;border-radius:6px;overflow-x:auto;white-space:pre-wrap;overflow-wrap:anywhere}\
dd,dt,p,li{overflow-wrap:anywhere}\
.summary{display:flex;flex-wrap:wrap;gap:24px;align-items:center;background:#fff;border:1px solid var(--line);border-radius:8px;padding:20px}\
.score{display:flex;flex-direction:column;align-items:center;justify-content:center;width:150px;height:150px;border-radius:50%;border:10px solid currentColor;flex:none}\
.score-value{font-size:3rem;font-weight:800;line-height:1}.score-max{font-size:1rem;color:var(--muted)}.score-band{font-size:.9rem;font-weight:700}\
.band-good{color:var(--good)}.band-fair{color:var(--fair)}.band-poor{color:var(--poor)}.band-unknown{color:var(--muted)}\
.summary-facts{flex:1 1 280px;margin:0;display:grid;grid-template-columns:max-content 1fr;gap:4px 16px}.summary-facts dt{font-weight:600}.summary-facts dd{margin:0}\
.insights{background:#fff;border-left:4px solid var(--link);padding:12px 16px;margin:16px 0}\
.facts{display:grid;grid-template-columns:repeat(auto-fit,minmax(260px,1fr));gap:8px;margin:0}\
.facts div{background:#fff;border:1px solid var(--line);border-radius:6px;padding:8px 12px}.facts dt{font-size:.85rem;color:var(--muted)}.facts dd{margin:0}\
.rec{background:#fff;border:1px solid var(--line);border-left:6px solid var(--muted);border-radius:6px;padding:16px;margin:0 0 12px}\
.rec-critical{border-left-color:var(--poor)}.rec-warning{border-left-color:var(--fair)}.rec-notice{border-left-color:var(--link)}\
.tags{margin:0 0 8px;display:flex;flex-wrap:wrap;gap:6px}.tag,.sev{font-size:.8rem;border-radius:999px;padding:1px 10px;border:1px solid var(--line);background:var(--bg)}\
.sev{font-weight:700;text-transform:capitalize}.sev-critical{color:var(--poor)}.sev-warning{color:var(--fair)}.sev-notice{color:var(--link)}.sev-none{color:var(--muted)}\
.values{display:grid;gap:4px;margin:8px 0}.values div{display:grid;grid-template-columns:7em 1fr}.values dt{font-weight:600}.values dd{margin:0}\
.cat{background:#fff;border:1px solid var(--line);border-radius:6px;padding:12px 16px;margin:0 0 12px}\
.checks{list-style:none;margin:0;padding:0}.check{padding:4px 0;border-top:1px solid var(--line)}.check:first-child{border-top:0}\
.status{display:inline-block;min-width:8.5em;font-weight:700;font-size:.85rem}.pass .status{color:var(--good)}.fail .status{color:var(--poor)}.na .status{color:var(--muted)}\
.rule-id{color:var(--muted);font-size:.8em}\
.audit{background:#fff;border:1px solid var(--line);border-radius:8px;padding:16px;margin:16px 0}.audit label{display:block;font-weight:600;margin-bottom:6px}\
.row{display:flex;flex-wrap:wrap;gap:8px}.row input{flex:1 1 240px;font:inherit;padding:8px 10px;border:1px solid #6b7280;border-radius:6px}\
button{font:inherit;font-weight:700;padding:8px 18px;border:0;border-radius:6px;background:#1d4ed8;color:#fff;cursor:pointer}\
.lead{font-size:1.1rem}.cats{columns:2 220px}\
footer{color:var(--muted);font-size:.9rem;border-top:1px solid var(--line);margin-top:40px;padding-top:12px;padding-bottom:24px}\
@media (max-width:600px){h1{font-size:1.4rem}.score{width:120px;height:120px}.score-value{font-size:2.4rem}.summary-facts{grid-template-columns:1fr}}\
@media print{body{background:#fff;font-size:11pt}.skip,.banner,.audit,.embed{display:none}a{color:inherit;text-decoration:none}.rec,.cat,.facts div{break-inside:avoid}pre{background:#fff;color:#000;border:1px solid #999}}\
";

#[cfg(test)]
mod query_tests {
    use serde_json::json;

    use super::strip_query_strings;

    #[test]
    fn no_url_keeps_its_query_or_fragment() {
        let mut result = json!({
            "page": {
                "url": "https://site.example/private?token=SECRET123",
                "final_url": "https://site.example/private?token=SECRET123#top",
                "canonical": "/private?token=SECRET123",
                "og_url": " https://site.example/private?token=SECRET123 ",
                "title": "Private page: what?",
                "links": ["https://a.example/x?y=1", "/p#frag", "mailto:a@b.example?subject=hi"],
            },
            "recommendations": [{
                "message": "The canonical https://site.example/private?token=SECRET123, differs from \"https://b.example/?q=2\".",
                "current_value": "token=SECRET123",
            }],
            "score": { "percentage": 80 },
        });
        strip_query_strings(&mut result);
        let text = result.to_string();
        assert!(!text.contains("SECRET123"), "{text}");
        assert!(!text.contains("y=1") && !text.contains("q=2") && !text.contains("#frag"), "{text}");
        assert_eq!(result["page"]["url"], "https://site.example/private");
        assert_eq!(result["page"]["final_url"], "https://site.example/private");
        assert_eq!(result["page"]["canonical"], "/private");
        assert_eq!(result["page"]["og_url"], " https://site.example/private ");
        assert_eq!(result["page"]["links"][1], "/p");
        // Ordinary text, question marks and other values are left alone.
        assert_eq!(result["page"]["title"], "Private page: what?");
        assert_eq!(result["score"]["percentage"], 80);
        assert_eq!(
            result["recommendations"][0]["message"],
            "The canonical https://site.example/private, differs from \"https://b.example/\"."
        );
    }

    #[test]
    fn results_without_queries_are_unchanged() {
        let original = json!({ "page": { "url": "https://site.example/", "title": "Top stop? #1" }, "n": [1, 2] });
        let mut result = original.clone();
        strip_query_strings(&mut result);
        assert_eq!(result, original);
    }
}
