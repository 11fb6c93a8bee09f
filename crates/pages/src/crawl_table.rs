//! The crawl report's pages table (docs/API.md, "The report's pages table"): sorted,
//! filtered and paged on the server. The page runs no script (its policy forbids them), so
//! every action is a plain link or a GET form: a column heading links to the table sorted by
//! it (again to reverse the order), the filters are a form whose blank fields mean "any", and
//! the pages of rows are links. Every link keeps the others' state and the share token the
//! page was opened with.

use maud::{html, Markup};

use crate::crawl_view::CrawlView;
use crate::encode_component;

/// The columns: heading and the `sort` name of each.
const COLUMNS: &[(&str, &str)] = &[
    ("URL", "url"),
    ("Status", "status"),
    ("Depth", "depth"),
    ("Inlinks", "inlinks"),
    ("Score", "score"),
    ("Failed rules", "failed"),
    ("Title", "title"),
];

/// A link to the table in another state: `sort` and `descending` as given, the filters kept
/// when `filters` (else dropped), at `page`; the share token always kept. Parameters at
/// their defaults are left out, so the plain report is `?`.
fn href(view: &CrawlView, sort: &str, descending: bool, filters: bool, page: u64) -> String {
    let t = &view.table;
    let mut pairs: Vec<(&str, String)> = Vec::new();
    if sort != "crawl" || descending {
        pairs.push(("sort", sort.to_string()));
        pairs.push(("order", if descending { "desc" } else { "asc" }.to_string()));
    }
    if filters {
        for (name, value) in [("status", &t.status), ("rule", &t.rule), ("q", &t.q)] {
            if !value.is_empty() {
                pairs.push((name, value.clone()));
            }
        }
    }
    if page > 1 {
        pairs.push(("page", page.to_string()));
    }
    if let Some(token) = &view.share {
        pairs.push(("share", token.clone()));
    }
    let query: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={}", encode_component(v))).collect();
    format!("?{}", query.join("&"))
}

/// A link to the table filtered by `rule` alone (the issue list's links), in crawl order.
pub(crate) fn rule_href(view: &CrawlView, rule: &str) -> String {
    let mut link = format!("?rule={}", encode_component(rule));
    if let Some(token) = &view.share {
        link.push_str("&share=");
        link.push_str(&encode_component(token));
    }
    link.push_str("#pages");
    link
}

fn sort_name(sort: &str) -> &str {
    COLUMNS.iter().find(|(_, name)| *name == sort).map_or("crawl order", |(label, _)| *label)
}

/// The pages table with its filters and pager.
pub(crate) fn render_table(view: &CrawlView) -> Markup {
    let t = &view.table;
    let pages = t.pages();
    let first_row = (t.page.saturating_sub(1)).saturating_mul(t.rows_per_page as u64) + 1;
    let last_row = (first_row + view.pages.len() as u64).saturating_sub(1);
    let order_text = if t.descending { "descending" } else { "ascending" };
    let rule_offered = t.rule.is_empty() || t.rules.contains(&t.rule);
    html! {
        h2 id="pages" { "Pages" }
        form class="table-filters" method="get" role="search" aria-label="Filter the pages" {
            label { "Status " input name="status" value=(t.status) placeholder="404, 4xx or none" size="12"; }
            label { "Rule "
                select name="rule" {
                    option value="" selected[t.rule.is_empty()] { "any" }
                    @for rule in &t.rules {
                        option value=(rule) selected[*rule == t.rule] { (rule) }
                    }
                    @if !rule_offered {
                        option value=(t.rule) selected { (t.rule) }
                    }
                }
            }
            label { "URL contains " input type="search" name="q" value=(t.q) size="24"; }
            @if t.sort != "crawl" || t.descending {
                input type="hidden" name="sort" value=(t.sort);
                input type="hidden" name="order" value=(if t.descending { "desc" } else { "asc" });
            }
            @if let Some(token) = &view.share {
                input type="hidden" name="share" value=(token);
            }
            button type="submit" { "Filter" }
            @if t.filtered() {
                " " a href=(href(view, &t.sort, t.descending, false, 1)) data-clear="" { "Clear filters" }
            }
        }
        p class="muted table-state" data-total=(t.total) data-page=(t.page) data-pages=(pages) {
            (t.total) " URL" @if t.total != 1 { "s" }
            @if t.filtered() { " match the filters" }
            @if !view.pages.is_empty() { ", " (first_row) "–" (last_row) " shown" }
            "; sorted by " (sort_name(&t.sort))
            @if t.sort != "crawl" { ", " (order_text) }
            @if t.sort != "crawl" || t.descending {
                " (" a href=(href(view, "crawl", false, true, 1)) data-sort-link="crawl" { "crawl order" } ")"
            }
            "."
        }
        table class="pages" data-sort=(t.sort) data-order=(if t.descending { "desc" } else { "asc" }) {
            thead { tr {
                @for (label, name) in COLUMNS {
                    @let current = t.sort == *name;
                    @let next_desc = current && !t.descending;
                    th scope="col" aria-sort=[current.then_some(if t.descending { "descending" } else { "ascending" })] {
                        a href=(href(view, name, next_desc, true, 1)) data-sort-link=(name)
                            title={ "Sort by " (label) @if next_desc { ", largest first" } } {
                            (label)
                            @if current { span aria-hidden="true" { @if t.descending { " ▼" } @else { " ▲" } } }
                        }
                    }
                }
                // The custom extractors' columns (docs/API.md, "Custom extraction"): not sortable.
                @for name in &view.extractors {
                    th scope="col" { "extract:" (name) }
                }
            } }
            tbody {
                @for p in &view.pages {
                    tr {
                        td { a href=(p.url) rel="nofollow noopener noreferrer" { (p.url) } }
                        td { @if let Some(s) = p.status { (s) } @else { (p.reason.as_deref().unwrap_or("–")) } }
                        td { @if let Some(d) = p.depth { (d) } @else { "–" } }
                        td { (p.inlinks) }
                        td { @if let Some(s) = p.score { (s) } @else { "–" } }
                        td { (p.failed) }
                        td { (p.title.as_deref().unwrap_or("")) }
                        @for i in 0..view.extractors.len() {
                            td { (p.extracted.get(i).cloned().flatten().unwrap_or_default()) }
                        }
                    }
                }
            }
        }
        @if view.pages.is_empty() {
            p { @if t.page > pages { "This page is past the last one: " a href=(href(view, &t.sort, t.descending, true, 1)) { "the first page" } "." }
                @else if t.filtered() { "No URL matches the filters." }
                @else { "No URL recorded yet." } }
        }
        @if pages > 1 {
            nav class="pager" aria-label="Pages of the table" {
                @if t.page > 1 {
                    a href=(href(view, &t.sort, t.descending, true, 1)) data-page-link="first" { "« First" } " "
                    a href=(href(view, &t.sort, t.descending, true, t.page.min(pages + 1) - 1)) rel="prev" data-page-link="prev" { "‹ Previous" } " "
                }
                span { "Page " (t.page) " of " (pages) } " "
                @if t.page < pages {
                    a href=(href(view, &t.sort, t.descending, true, t.page + 1)) rel="next" data-page-link="next" { "Next ›" } " "
                    a href=(href(view, &t.sort, t.descending, true, pages)) data-page-link="last" { "Last »" }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crawl::{render_crawl_report, CrawlIssueView, CrawlPageView, TableView};

    fn view(table: TableView, share: Option<&str>) -> CrawlView {
        CrawlView {
            id: "cr_x".into(),
            url: "https://a.test/".into(),
            state: "completed".into(),
            issues: vec![CrawlIssueView {
                id: "a-rule".into(),
                kind: "page".into(),
                severity: "warning".into(),
                count: 1,
                urls: vec![("https://a.test/".into(), None, String::new())],
            }],
            pages: vec![CrawlPageView { url: "https://a.test/".into(), status: Some(200), ..CrawlPageView::default() }],
            table,
            share: share.map(str::to_string),
            ..CrawlView::default()
        }
    }

    fn table() -> TableView {
        TableView {
            sort: "score".into(),
            descending: false,
            status: "4xx".into(),
            rule: "a-rule".into(),
            q: "a b&c".into(),
            page: 2,
            total: 250,
            rows_per_page: 100,
            rules: vec!["a-rule".into(), "b-rule".into()],
        }
    }

    #[test]
    fn a_heading_sorts_by_its_column_and_again_reverses_keeping_the_filters() {
        let v = view(table(), None);
        // The current column reverses; the others sort ascending; both go to the first page.
        assert_eq!(href(&v, "score", true, true, 1), "?sort=score&order=desc&status=4xx&rule=a-rule&q=a%20b%26c");
        let page = render_crawl_report("http://127.0.0.1", &v);
        assert!(
            page.contains(
                "href=\"?sort=score&amp;order=desc&amp;status=4xx&amp;rule=a-rule&amp;q=a%20b%26c\" data-sort-link=\"score\""
            ),
            "{page}"
        );
        assert!(page.contains("href=\"?sort=url&amp;order=asc&amp;status=4xx"), "{page}");
        assert!(page.contains("aria-sort=\"ascending\""));
        // Paging keeps order and filters; clearing keeps the order only.
        assert!(page.contains("data-page-link=\"next\"") && page.contains("page=3\" rel=\"next\""), "{page}");
        assert!(page.contains("href=\"?sort=score&amp;order=asc\" data-clear"), "{page}");
        assert!(page.contains("Page 2 of 3") && page.contains("250 URLs match the filters, 101–101 shown"), "{page}");
        // The form says what is filtered, and offers the crawl's rules.
        assert!(page.contains("value=\"4xx\"") && page.contains("<option value=\"a-rule\" selected>"), "{page}");
        assert!(page.contains("<input type=\"hidden\" name=\"sort\" value=\"score\">"), "{page}");
        assert!(page.contains("data-rule-link=\"a-rule\""));
        assert!(page.contains("/api/v1/crawls/cr_x/export"), "a key's view links to its exports");
    }

    #[test]
    fn a_shared_view_keeps_its_token_in_every_link_and_links_to_no_keyed_route() {
        let v = view(table(), Some("sh_t.1.sig"));
        let page = render_crawl_report("http://127.0.0.1", &v);
        assert!(page.contains("share=sh_t.1.sig\" data-sort-link=\"url\""), "{page}");
        assert!(page.contains("<input type=\"hidden\" name=\"share\" value=\"sh_t.1.sig\">"), "{page}");
        assert!(page.contains("?rule=a-rule&amp;share=sh_t.1.sig#pages"), "{page}");
        assert!(!page.contains("/api/v1/"), "{page}");
        assert!(page.contains("Opened through a share link"));
    }

    #[test]
    fn the_plain_table_has_no_parameters_and_an_empty_one_says_why() {
        let mut v = view(
            TableView { sort: "crawl".into(), page: 1, total: 1, rows_per_page: 100, ..TableView::default() },
            None,
        );
        assert_eq!(href(&v, "crawl", false, true, 1), "?");
        let page = render_crawl_report("http://127.0.0.1", &v);
        assert!(!page.contains("class=\"pager\"") && !page.contains("data-clear"), "one page, no filter");
        v.pages.clear();
        v.table = TableView { status: "5xx".into(), ..v.table };
        assert!(render_crawl_report("http://127.0.0.1", &v).contains("No URL matches the filters."));
        v.table = TableView { status: String::new(), page: 9, ..v.table };
        assert!(render_crawl_report("http://127.0.0.1", &v).contains("This page is past the last one"));
    }
}
