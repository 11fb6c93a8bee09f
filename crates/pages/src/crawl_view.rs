//! The data the crawl report shows ([`crate::crawl`] renders it; [`crate::crawl_table`]
//! renders its pages table): plain data the server fills from the crawl.

use crate::charts::Bar;

/// One issue of the crawl with its first affected URLs.
#[derive(Debug, Clone, Default)]
pub struct CrawlIssueView {
    /// The rule id.
    pub id: String,
    /// `site` or `page`.
    pub kind: String,
    /// `critical`, `warning` or `notice`.
    pub severity: String,
    /// Distinct URLs affected.
    pub count: u64,
    /// The first affected URLs: `(url, linked_from, detail)`.
    pub urls: Vec<(String, Option<String>, String)>,
}

/// One row of the pages table.
#[derive(Debug, Clone, Default)]
pub struct CrawlPageView {
    /// The URL.
    pub url: String,
    /// HTTP status, when it answered.
    pub status: Option<u16>,
    /// Click depth.
    pub depth: Option<u32>,
    /// Crawled pages linking to it.
    pub inlinks: u32,
    /// The page score.
    pub score: Option<u32>,
    /// The title.
    pub title: Option<String>,
    /// How many page rules it failed.
    pub failed: usize,
    /// Why it failed or was skipped.
    pub reason: Option<String>,
    /// The values of the crawl's extractors ([`CrawlView::extractors`], in their order;
    /// `None`: no match, or no HTML page).
    pub extracted: Vec<Option<String>>,
}

/// What the crawl report shows.
#[derive(Debug, Clone, Default)]
pub struct CrawlView {
    /// The crawl id.
    pub id: String,
    /// The start URL.
    pub url: String,
    /// Its state.
    pub state: String,
    /// The site score, once ended.
    pub site_score: Option<u32>,
    /// Pages done, queued, failed, skipped.
    pub counts: [u64; 4],
    /// Why it failed.
    pub error: Option<String>,
    /// The issues, in the crawl's order.
    pub issues: Vec<CrawlIssueView>,
    /// The rows of the pages table shown, in the table's order.
    pub pages: Vec<CrawlPageView>,
    /// The names of the crawl's custom extractors: a column each, after the fixed ones.
    pub extractors: Vec<String>,
    /// How the pages table is sorted, filtered and paged.
    pub table: TableView,
    /// The share token the page was opened with (docs/API.md, "Share links"): its links
    /// carry it, and it shows no link to the routes that need the key.
    pub share: Option<String>,
    /// The site at a glance, over every URL of the crawl (not only the rows shown).
    pub charts: CrawlCharts,
}

/// The crawl report's charts: counts over every URL and finding of the crawl.
#[derive(Debug, Clone, Default)]
pub struct CrawlCharts {
    /// URLs by HTTP status (`no answer`, `skipped` beside the codes).
    pub status: Vec<Bar>,
    /// URLs fetched by click depth (`sitemap only` for those no link reached).
    pub depth: Vec<Bar>,
    /// Affected URLs by severity, summed over the rules.
    pub severity: Vec<Bar>,
    /// Affected URLs by rule category (site rules as `Site-wide`), summed over the rules.
    pub category: Vec<Bar>,
    /// Audited pages by score band.
    pub scores: Vec<Bar>,
    /// The change since the owner's previous completed crawl of the site, when there is one.
    pub change: Option<CrawlChangeView>,
}

/// How the crawl differs from the previous crawl of its site.
#[derive(Debug, Clone, Default)]
pub struct CrawlChangeView {
    /// The previous crawl's id.
    pub against: String,
    /// The previous crawl's site score, and this one's.
    pub site_scores: (Option<u32>, Option<u32>),
    /// Findings new, fixed; pages added, gone; status and indexability changes.
    pub counts: [u64; 6],
}

/// The state of the pages table: its order, filters and page, and what the filters offer.
#[derive(Debug, Clone, Default)]
pub struct TableView {
    /// The sort column's name as the `sort` parameter takes it (`crawl` for crawl order).
    pub sort: String,
    /// Sorted largest first.
    pub descending: bool,
    /// The status filter as given (`404`, `4xx`, `none`), empty when absent.
    pub status: String,
    /// The rule filter, empty when absent.
    pub rule: String,
    /// The URL text filter, empty when absent.
    pub q: String,
    /// The page shown, from 1.
    pub page: u64,
    /// Rows that pass the filters, on every page.
    pub total: u64,
    /// Rows a page shows.
    pub rows_per_page: usize,
    /// The rules the rule filter offers: the crawl's rules with findings.
    pub rules: Vec<String>,
}

impl TableView {
    /// How many pages the rows fill (at least 1).
    pub fn pages(&self) -> u64 {
        self.total.div_ceil(self.rows_per_page.max(1) as u64).max(1)
    }

    /// Whether any filter is set.
    pub fn filtered(&self) -> bool {
        !(self.status.is_empty() && self.rule.is_empty() && self.q.is_empty())
    }
}
