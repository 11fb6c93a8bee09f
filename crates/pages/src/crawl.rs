//! The human report of a site crawl (`GET /crawls/{id}`, docs/API.md, "Site crawl"): the
//! site score, the issues with their affected URLs, and the pages table (sorted, filtered
//! and paged on the server: [`TableView`]). Plain data in, HTML out; the server reads the
//! crawl and passes what it shows.

use maud::html;

use crate::charts::{bar_chart, Bar};
use crate::crawl_table::{render_table, rule_href};
pub use crate::crawl_view::{CrawlChangeView, CrawlCharts, CrawlIssueView, CrawlPageView, CrawlView, TableView};
use crate::frame::document;

/// Affected URLs shown per issue; the rest are counted (the REST route lists them all).
pub const URLS_PER_ISSUE: usize = 10;
/// Seconds after which a page of a crawl still running reloads itself.
pub const RUNNING_REFRESH_SECS: u32 = 5;

fn band(score: Option<u32>) -> (&'static str, &'static str) {
    match score {
        Some(90..) => ("band-good", "Good"),
        Some(50..=89) => ("band-fair", "Needs work"),
        Some(_) => ("band-poor", "Poor"),
        None => ("band-unknown", "Not scored yet"),
    }
}

/// The report page of a crawl; it reloads itself while the crawl is `queued` or `running`.
pub fn render_crawl_report(base_url: &str, view: &CrawlView) -> String {
    let running = matches!(view.state.as_str(), "queued" | "running");
    let (band_class, band_text) = band(view.site_score);
    let api = format!("/api/v1/crawls/{}", view.id);
    let [done, queued, failed, skipped] = view.counts;
    let main = html! {
        h1 { "Site crawl of " (view.url) }
        @if view.share.is_some() {
            p class="muted" { "Opened through a share link of the crawl's owner." }
        }
        section class="summary" aria-label="Site score" {
            div class={ "score " (band_class) } {
                @if let Some(score) = view.site_score {
                    span class="score-value" { (score) }
                    span class="score-max" { "/ 100" }
                } @else {
                    span class="score-value" { "–" }
                }
                span class="score-band" { (band_text) }
            }
            dl class="summary-facts" {
                dt { "State" } dd { (view.state) }
                dt { "Pages done" } dd { (done) }
                dt { "Queued" } dd { (queued) }
                dt { "Failed" } dd { (failed) }
                dt { "Skipped" } dd { (skipped) }
                @if let Some(error) = &view.error {
                    dt { "Error" } dd { (error) }
                }
                @if view.share.is_none() {
                    dt { "Data" } dd {
                        a href=(api) { "JSON" } " · "
                        a href={ (api) "/export?format=csv" } { "pages CSV" } " · "
                        a href={ (api) "/export?format=csv&table=issues" } { "issues CSV" } " · "
                        a href={ (api) "/export?format=xlsx" } { "XLSX" }
                    }
                }
            }
        }
        @if running {
            p class="muted" { "The crawl is under way: this page reloads every " (RUNNING_REFRESH_SECS) " seconds." }
        }
        h2 { "At a glance" }
        div class="charts" {
            (bar_chart("status", "URLs by HTTP status", &view.charts.status))
            (bar_chart("depth", "URLs by click depth", &view.charts.depth))
            (bar_chart("severity", "Affected URLs by severity", &view.charts.severity))
            (bar_chart("category", "Affected URLs by category", &view.charts.category))
            (bar_chart("scores", "Pages by score", &view.charts.scores))
            @if let Some(change) = &view.charts.change {
                @let [new, fixed, added, gone, status, indexability] = change.counts;
                @let shown = |s: Option<u32>| s.map_or_else(|| "–".to_string(), |s| s.to_string());
                (bar_chart("change", "Change since the previous crawl", &[
                    Bar { label: "new findings".into(), value: new, class: "bar-poor" },
                    Bar { label: "fixed findings".into(), value: fixed, class: "bar-good" },
                    Bar::plain("pages added", added),
                    Bar::plain("pages gone", gone),
                    Bar::plain("status changes", status),
                    Bar::plain("indexability", indexability),
                ]))
                p class="muted" {
                    "Site score " (shown(change.site_scores.0)) " → " (shown(change.site_scores.1))
                    " against "
                    @if view.share.is_none() {
                        a href={ (api) "/compare?against=" (change.against) } { "the previous crawl" } "."
                    } @else {
                        "the previous crawl."
                    }
                }
            } @else {
                p class="muted" { "No earlier completed crawl of this site to compare with." }
            }
        }
        h2 { "Issues" }
        @if view.issues.is_empty() {
            p { "No issue found." }
        }
        @for issue in &view.issues {
            section class="issue" aria-label=(issue.id) {
                h3 { code { (issue.id) } " " span class="muted" { (issue.kind) " rule · " (issue.severity) " · " (issue.count) " URL" @if issue.count != 1 { "s" } } }
                ul {
                    @for (url, from, detail) in &issue.urls {
                        li {
                            a href=(url) rel="nofollow noopener" { (url) }
                            @if !detail.is_empty() { " — " (detail) }
                            @if let Some(from) = from { " (linked from " a href=(from) rel="nofollow noopener" { (from) } ")" }
                        }
                    }
                }
                p class="muted" {
                    @if issue.count as usize > issue.urls.len() {
                        (issue.count as usize - issue.urls.len()) " more"
                        @if view.share.is_none() {
                            ": " a href={ (api) "/issues/" (issue.id) } { "every affected URL" }
                        }
                        " · "
                    }
                    a href=(rule_href(view, &issue.id)) data-rule-link=(issue.id) { "these URLs in the pages table" }
                }
            }
        }
        (render_table(view))
    };
    let title = format!("Site crawl of {} — seo-audit", view.url);
    document(&title, base_url, main, html! {}, running.then_some(RUNNING_REFRESH_SECS))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_shows_score_issues_and_pages_escaped() {
        let view = CrawlView {
            id: "cr_x".into(),
            url: "https://a.test/".into(),
            state: "completed".into(),
            site_score: Some(72),
            counts: [3, 0, 1, 0],
            issues: vec![CrawlIssueView {
                id: "a-site-rule".into(),
                kind: "site".into(),
                severity: "critical".into(),
                count: 12,
                urls: vec![("https://a.test/gone".into(), Some("https://a.test/".into()), "HTTP 404".into())],
            }],
            pages: vec![CrawlPageView {
                url: "https://a.test/".into(),
                status: Some(200),
                depth: Some(0),
                inlinks: 2,
                score: Some(80),
                title: Some("<script>x</script>".into()),
                failed: 3,
                reason: None,
                extracted: vec![Some("<b>42</b>".into())],
            }],
            extractors: vec!["price".into()],
            ..CrawlView::default()
        };
        let page = render_crawl_report("http://127.0.0.1", &view);
        assert!(page.contains(">72<") && page.contains("Needs work"));
        assert!(page.contains("a-site-rule") && page.contains("11 more"));
        assert!(page.contains("linked from"));
        assert!(page.contains("&lt;script&gt;") && !page.contains("<script>x"));
        assert!(
            page.contains("extract:price") && page.contains("&lt;b&gt;42&lt;/b&gt;"),
            "an extractor's column, escaped"
        );
        assert!(!page.contains("http-equiv=\"refresh\""), "an ended crawl does not reload");
        assert!(page.contains("No earlier completed crawl"), "no change without a previous crawl");
    }
}
