//! The report page's pages table (docs/API.md, "The report's pages table"): sorted, filtered
//! and paged by the query of `GET /crawls/{id}` (`?sort=score&order=desc&status=404&rule=…&q=…&page=2`),
//! in the store ([`store::Store::crawl_page_table`]). The page carries no script (its
//! policy forbids them): each column heading is a link that sorts by it, the filters are a
//! GET form, and the pages of rows are links.
//!
//! Each parameter is checked as every query parameter of the API is: a malformed value is
//! 400 `invalid_request` naming it, never ignored. An empty value (what a form sends for a
//! field left blank) is an absent one.

use store::{PageSort, PageTableQuery, SortOrder, StatusFilter};
use strum::VariantArray as _;

use crate::AppError;

/// Rows a page of the table shows.
pub const TABLE_ROWS: usize = 100;
/// The last page number a request may ask for (1,000,000 rows in).
pub const MAX_TABLE_PAGE: u64 = 10_000;
/// Bytes of the URL substring filter.
pub const MAX_CONTAINS_BYTES: usize = 200;

/// The table a request asks for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TableQuery {
    /// The sort column.
    pub sort: PageSort,
    /// Its direction.
    pub order: SortOrder,
    /// The status filter.
    pub status: Option<StatusFilter>,
    /// Only URLs a finding of this rule names.
    pub rule: Option<String>,
    /// Only URLs containing this text.
    pub q: Option<String>,
    /// The page, from 1.
    pub page: u64,
}

impl TableQuery {
    /// What the store reads for this request.
    pub fn store_query(&self) -> PageTableQuery {
        PageTableQuery {
            sort: self.sort,
            order: self.order,
            status: self.status,
            rule: self.rule.clone(),
            contains: self.q.clone(),
            offset: self.page.saturating_sub(1).saturating_mul(TABLE_ROWS as u64),
            limit: TABLE_ROWS,
        }
    }
}

/// The names of the sort columns, as the `sort` parameter takes them.
pub fn sort_names() -> Vec<&'static str> {
    PageSort::VARIANTS.iter().map(|s| <&'static str>::from(*s)).collect()
}

/// A status filter as the page shows it back (`404`, `4xx`, `none`).
pub fn status_text(status: StatusFilter) -> String {
    match status {
        StatusFilter::Code(code) => code.to_string(),
        StatusFilter::Class(class) => format!("{class}xx"),
        StatusFilter::None => "none".to_string(),
    }
}

fn status_filter(raw: &str) -> Option<StatusFilter> {
    let raw = raw.to_ascii_lowercase();
    if raw == "none" {
        return Some(StatusFilter::None);
    }
    if let Some(class) = raw.strip_suffix("xx") {
        return match class.as_bytes() {
            [d @ b'1'..=b'5'] => Some(StatusFilter::Class(*d - b'0')),
            _ => None,
        };
    }
    if raw.len() == 3 && raw.bytes().all(|b| b.is_ascii_digit()) {
        return raw.parse().ok().filter(|c| (100..=599).contains(c)).map(StatusFilter::Code);
    }
    None
}

/// Whether `id` names a page rule or a site rule.
fn known_rule(id: &str) -> bool {
    audit_core::rule_by_id(id).is_some() || crawl::site_rule_by_id(id).is_some()
}

/// The table a request asks for, read from its query through `get`.
///
/// # Errors
/// `invalid_request` naming the first malformed parameter: `sort` (not a column), `order`
/// (not `asc` or `desc`), `status` (not a status, a class such as `4xx`, or `none`), `rule`
/// (no such rule), `q` (over [`MAX_CONTAINS_BYTES`] bytes), `page` (not a whole number from
/// 1 to [`MAX_TABLE_PAGE`]).
pub fn table_query(get: impl Fn(&str) -> Option<String>) -> Result<TableQuery, AppError> {
    let given = |name: &str| get(name).map(|v| v.trim().to_string()).filter(|v| !v.is_empty());
    let sort = match given("sort") {
        None => PageSort::default(),
        Some(raw) => raw
            .parse()
            .map_err(|_| AppError::invalid_parameter("sort", format!("one of {}", sort_names().join(", "))))?,
    };
    let order = match given("order") {
        None => SortOrder::default(),
        Some(raw) => raw.parse().map_err(|_| AppError::invalid_parameter("order", "asc or desc"))?,
    };
    let status = match given("status") {
        None => None,
        Some(raw) => Some(status_filter(&raw).ok_or_else(|| {
            AppError::invalid_parameter("status", "an HTTP status such as 404, a class such as 4xx, or none")
        })?),
    };
    let rule = match given("rule") {
        None => None,
        Some(raw) if known_rule(&raw) => Some(raw),
        Some(_) => {
            return Err(AppError::invalid_parameter("rule", "a page rule or site rule id (docs/RULES.md)"));
        }
    };
    let q = match given("q") {
        Some(raw) if raw.len() > MAX_CONTAINS_BYTES => {
            return Err(AppError::invalid_parameter("q", format!("at most {MAX_CONTAINS_BYTES} bytes")));
        }
        q => q,
    };
    let page = match given("page") {
        None => 1,
        Some(raw) => raw
            .parse::<u64>()
            .ok()
            .filter(|p| (1..=MAX_TABLE_PAGE).contains(p) && raw.bytes().all(|b| b.is_ascii_digit()))
            .ok_or_else(|| AppError::invalid_parameter("page", format!("a whole number from 1 to {MAX_TABLE_PAGE}")))?,
    };
    Ok(TableQuery { sort, order, status, rule, q, page })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(pairs: &[(&str, &str)]) -> Result<TableQuery, AppError> {
        let pairs: Vec<(String, String)> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        table_query(|name| pairs.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()))
    }

    fn refused_parameter(pairs: &[(&str, &str)]) -> Option<String> {
        match query(pairs) {
            Err(AppError::Refused(r)) => r.details.and_then(|d| d["parameter"].as_str().map(str::to_string)),
            _ => None,
        }
    }

    #[test]
    fn a_full_query_reads_into_its_types() {
        let rule = audit_core::RULES[0].meta().id;
        let q = query(&[
            ("sort", "score"),
            ("order", "desc"),
            ("status", "4xx"),
            ("rule", rule),
            ("q", " /Blog "),
            ("page", "3"),
        ])
        .unwrap();
        assert_eq!(
            q,
            TableQuery {
                sort: PageSort::Score,
                order: SortOrder::Desc,
                status: Some(StatusFilter::Class(4)),
                rule: Some(rule.to_string()),
                q: Some("/Blog".into()),
                page: 3,
            }
        );
        assert_eq!(q.store_query().offset, 2 * TABLE_ROWS as u64);
        assert_eq!(query(&[]).unwrap(), TableQuery { page: 1, ..TableQuery::default() });
        // A form's blank fields are absent ones.
        assert_eq!(query(&[("status", ""), ("rule", " "), ("q", ""), ("page", "")]).unwrap().page, 1);
        assert_eq!(query(&[("status", "404")]).unwrap().status, Some(StatusFilter::Code(404)));
        assert_eq!(query(&[("status", "NONE")]).unwrap().status, Some(StatusFilter::None));
        assert_eq!(status_text(StatusFilter::Class(3)), "3xx");
    }

    #[test]
    fn each_malformed_parameter_is_named() {
        for (name, value) in [
            ("sort", "colour"),
            ("order", "up"),
            ("status", "44"),
            ("status", "600"),
            ("status", "6xx"),
            ("status", "4XXX"),
            ("rule", "no-such-rule-anywhere"),
            ("page", "0"),
            ("page", "-1"),
            ("page", "+2"),
            ("page", "10001"),
            ("page", "two"),
        ] {
            assert_eq!(refused_parameter(&[(name, value)]).as_deref(), Some(name), "{name}={value}");
        }
        let long = "a".repeat(MAX_CONTAINS_BYTES + 1);
        assert_eq!(refused_parameter(&[("q", &long)]).as_deref(), Some("q"));
        let e = query(&[("sort", "colour")]).unwrap_err().to_string();
        assert!(e.contains("crawl, url, status, depth, inlinks, score, failed, title"), "{e}");
    }
}
