//! The pages table of a crawl's report page, sorted, filtered and paged in the database
//! (docs/API.md, "Site crawl", "The report's pages table"): [`Store::crawl_page_table`].
//!
//! One query reads one page of rows (`LIMIT`/`OFFSET` after an `ORDER BY` that always ends
//! with the crawl order, so the order is total and a page boundary never moves), and one
//! counts the rows that pass the filters. The filters and sort keys have indexes
//! (migration `crawl_table_and_shares`: status, score, depth; the URL is the key; a rule's
//! URLs come from `crawl_issues_rule`), and a query never reads more than one crawl's rows.

use crate::error::{Error, Result};
use crate::sql::{Row, Value};
use crate::Store;

/// The column the table is sorted by.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, strum::EnumString, strum::IntoStaticStr, strum::VariantArray,
)]
#[strum(serialize_all = "snake_case")]
pub enum PageSort {
    /// The order the crawl recorded the URLs in.
    #[default]
    Crawl,
    /// The URL, byte order.
    Url,
    /// The HTTP status (URLs without one last).
    Status,
    /// The click depth (URLs found only in a sitemap last).
    Depth,
    /// Crawled pages linking to the URL.
    Inlinks,
    /// The page score (URLs without one last).
    Score,
    /// How many page rules the page failed.
    Failed,
    /// The page title, byte order (pages without one last).
    Title,
}

/// Which way the table is sorted.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, strum::EnumString, strum::IntoStaticStr, strum::VariantArray,
)]
#[strum(serialize_all = "snake_case")]
pub enum SortOrder {
    /// Smallest first.
    #[default]
    Asc,
    /// Largest first.
    Desc,
}

/// Which HTTP statuses pass the filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StatusFilter {
    /// Exactly this status.
    Code(u16),
    /// Every status of this hundred: `4` is 400 to 499.
    Class(u8),
    /// URLs that have no status: no answer, or never fetched (skipped).
    None,
}

/// What [`Store::crawl_page_table`] reads.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageTableQuery {
    /// The sort column.
    pub sort: PageSort,
    /// Its direction; ties are in crawl order either way.
    pub order: SortOrder,
    /// Only URLs with this status.
    pub status: Option<StatusFilter>,
    /// Only URLs a finding of this rule (page or site rule) names.
    pub rule: Option<String>,
    /// Only URLs that contain this text, ASCII letters compared without case.
    pub contains: Option<String>,
    /// Rows skipped (the page's first row).
    pub offset: u64,
    /// Rows read at most.
    pub limit: usize,
}

/// One row of the table.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageTableRow {
    /// The normalised URL.
    pub url: String,
    /// The frontier state (`done`, `failed`, `skipped`).
    pub state: String,
    /// The HTTP status.
    pub status_code: Option<u16>,
    /// Click depth (`None`: found in a sitemap only).
    pub depth: Option<u32>,
    /// Crawled pages linking to it, counted from the links recorded so far.
    pub inlinks: u32,
    /// The page score (HTML pages).
    pub score: Option<u32>,
    /// The page title.
    pub title: Option<String>,
    /// The page rules it failed.
    pub failed_rules: Vec<String>,
    /// Why it failed or was skipped.
    pub reason: Option<String>,
    /// The values of the crawl's custom extractors on it (`crawl::CrawledPage::extracted`):
    /// empty for a page with none.
    pub extracted: Vec<(String, Option<String>)>,
}

/// A page of the table and how many rows pass the filters in all.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageTable {
    /// The rows of the page asked for, in order.
    pub rows: Vec<PageTableRow>,
    /// Rows that pass the filters, on every page.
    pub total: u64,
}

/// The `LIKE` pattern of a substring: ASCII letters lowered (the column is lowered too, which
/// both databases do for ASCII only under a byte collation), and `%`, `_` and the escape
/// character itself escaped, so that the text matches literally.
fn contains_pattern(text: &str) -> String {
    let mut pattern = String::with_capacity(text.len() + 2);
    pattern.push('%');
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            pattern.push('\\');
        }
        pattern.push(c.to_ascii_lowercase());
    }
    pattern.push('%');
    pattern
}

/// The sort expression of a column. Inlinks and failed rules are read beside the row
/// (`crawl_inlinks`; the page's findings of page rules in `crawl_issues`), as the listing of
/// the crawl's pages reads them.
fn sort_key(sort: PageSort) -> &'static str {
    match sort {
        PageSort::Crawl => "p.rowid",
        PageSort::Url => "p.url",
        PageSort::Status => "p.status",
        PageSort::Depth => "p.depth",
        PageSort::Inlinks => "inlinks_n",
        PageSort::Score => "p.score",
        PageSort::Failed => "failed_n",
        PageSort::Title => "p.title",
    }
}

/// The two statements of a table query with their arguments: the count of the rows that
/// pass the filters, and the page of rows.
struct Statements<'a> {
    count: String,
    rows: String,
    values: Vec<Value<'a>>,
    row_values: Vec<Value<'a>>,
}

fn statements<'a>(crawl_id: &'a str, query: &'a PageTableQuery) -> Statements<'a> {
    let mut clauses = vec!["p.crawl_id = ?".to_owned(), "p.state IN ('done', 'failed', 'skipped')".to_owned()];
    let mut values: Vec<Value<'a>> = vec![Value::Text(crawl_id.into())];
    match query.status {
        None => {}
        Some(StatusFilter::Code(code)) => {
            clauses.push("p.status = ?".to_owned());
            values.push(Value::Int(code.into()));
        }
        Some(StatusFilter::Class(class)) => {
            clauses.push("p.status >= ? AND p.status < ?".to_owned());
            values.push(Value::Int(i64::from(class) * 100));
            values.push(Value::Int(i64::from(class) * 100 + 100));
        }
        Some(StatusFilter::None) => clauses.push("p.status IS NULL".to_owned()),
    }
    if let Some(rule) = &query.rule {
        clauses.push("p.url IN (SELECT i.url FROM crawl_issues i WHERE i.crawl_id = ? AND i.rule_id = ?)".to_owned());
        values.push(Value::Text(crawl_id.into()));
        values.push(Value::Text(rule.as_str().into()));
    }
    if let Some(text) = &query.contains {
        clauses.push("LOWER(p.url) LIKE ? ESCAPE '\\'".to_owned());
        values.push(Value::Text(contains_pattern(text).into()));
    }
    let filter = clauses.join(" AND ");
    let direction = match query.order {
        SortOrder::Asc => "ASC",
        SortOrder::Desc => "DESC",
    };
    // NULLS LAST on both databases (SQLite and PostgreSQL put them at opposite ends by
    // default); the crawl order breaks ties, so every row has one place.
    let order = match query.sort {
        PageSort::Crawl => format!("p.rowid {direction}"),
        sort => format!("{} {direction} NULLS LAST, p.rowid ASC", sort_key(sort)),
    };
    let count = format!("SELECT COUNT(*) FROM crawl_pages p WHERE {filter}");
    let rows = format!(
        "SELECT p.url, p.state, p.status, p.depth, \
         COALESCE((SELECT i.n FROM crawl_inlinks i WHERE i.crawl_id = p.crawl_id AND i.url = p.url), 0) AS inlinks_n, \
         p.score, p.title, p.failed_rules, p.reason, \
         (SELECT COUNT(*) FROM crawl_issues f WHERE f.crawl_id = p.crawl_id AND f.url = p.url AND f.kind = 'page') \
         AS failed_n, p.record_json FROM crawl_pages p WHERE {filter} ORDER BY {order} LIMIT ? OFFSET ?"
    );
    let mut row_values = values.clone();
    row_values.push(Value::Int(i64::try_from(query.limit).unwrap_or(i64::MAX)));
    row_values.push(Value::Int(i64::try_from(query.offset).unwrap_or(i64::MAX)));
    Statements { count, rows, values, row_values }
}

impl Store {
    /// A page of crawl `crawl_id`'s URLs (fetched, failed or skipped) that pass `query`'s
    /// filters, in its order, and how many pass in all.
    ///
    /// # Errors
    /// The database, or a stored row that cannot be read.
    pub fn crawl_page_table(&self, crawl_id: &str, query: &PageTableQuery) -> Result<PageTable> {
        let st = statements(crawl_id, query);
        self.read(|db| {
            let total: u64 = db.query_one(&st.count, &st.values, |row| row.get(0))?;
            let rows = db.query_map(&st.rows, &st.row_values, table_row)?;
            Ok(PageTable { rows, total })
        })
    }
}

fn table_row(row: &Row<'_>) -> Result<PageTableRow> {
    let failed: String = row.get(7)?;
    let record: Option<String> = row.get(10)?;
    Ok(PageTableRow {
        url: row.get(0)?,
        state: row.get(1)?,
        status_code: row.get(2)?,
        depth: row.get(3)?,
        inlinks: row.get(4)?,
        score: row.get(5)?,
        title: row.get(6)?,
        failed_rules: serde_json::from_str(&failed).map_err(|e| Error::corrupt("crawl_pages", e.to_string()))?,
        reason: row.get(8)?,
        // The record holds the extracted values; a page without one (failed, skipped) has none.
        extracted: record
            .and_then(|r| serde_json::from_str::<crawl::CrawledPage>(&r).ok())
            .map(|r| r.extracted)
            .unwrap_or_default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What SQLite's planner does with each filter and sort of the table: the index it
    /// searches or walks, never a scan of every crawl's pages.
    #[test]
    fn filters_and_sorts_read_through_indexes_on_sqlite() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("x.db")).unwrap();
        let cases = [
            (
                PageTableQuery { status: Some(StatusFilter::Code(404)), ..PageTableQuery::default() },
                "crawl_pages_status",
            ),
            (
                PageTableQuery { status: Some(StatusFilter::Class(4)), ..PageTableQuery::default() },
                "crawl_pages_status",
            ),
            (PageTableQuery { sort: PageSort::Score, ..PageTableQuery::default() }, "crawl_pages_score"),
            (PageTableQuery { rule: Some("a-rule".into()), ..PageTableQuery::default() }, "crawl_issues_rule"),
        ];
        for (query, index) in cases {
            let st = statements("cr_x", &query);
            let plan = store
                .read(|db| {
                    db.query_map(&format!("EXPLAIN QUERY PLAN {}", st.rows), &st.row_values, |r| r.get::<String>(3))
                })
                .unwrap()
                .join("\n");
            assert!(plan.contains(index), "{query:?}: {plan}");
            assert!(!plan.contains("SCAN p\n") && !plan.ends_with("SCAN p"), "{query:?}: {plan}");
        }
    }

    #[test]
    fn a_substring_matches_literally_and_without_ascii_case() {
        assert_eq!(contains_pattern("Blog"), "%blog%");
        assert_eq!(contains_pattern("50%_off\\"), "%50\\%\\_off\\\\%");
        assert_eq!(contains_pattern("É"), "%É%", "only ASCII letters are lowered, as the databases do");
    }
}
