//! The exports of a crawl (docs/API.md, "Site crawl", "Exports"): its pages, one row per URL,
//! and its findings, one row per finding, as CSV, JSON or an XLSX workbook. The REST route
//! `GET /api/v1/crawls/{id}/export` and `seo-audit crawl --format csv|json|xlsx` write them
//! with the functions here, over the same store, so both give the same columns, separator
//! and JSON members.
//!
//! The columns are listed once, in [`PAGE_COLUMNS`] and [`ISSUE_COLUMNS`]: each format reads
//! them, so a new column (a custom extractor's value, say) is one line there.
//!
//! The rows are read from the store a batch at a time and written as they come; the caller's
//! `stop` is asked between batches, so an export whose caller went away (or whose time budget
//! ran out) stops with [`ExportError::Stopped`] rather than writing the rest for nobody.

use std::io::Write;

use serde_json::{Map, Value};

use crate::AppError;

/// Rows read from the store at a time.
const BATCH: usize = store::CRAWL_SITE_BATCH;

/// What joins the items of a list in one CSV or XLSX cell (`failed_rules`).
pub const LIST_SEPARATOR: &str = ";";

/// The name of the workbook's sheet of pages.
pub const PAGES_SHEET: &str = "pages";
/// The name of the workbook's sheet of findings.
pub const ISSUES_SHEET: &str = "issues";

/// The most rows of one XLSX sheet, the header included (the format's own limit).
const XLSX_MAX_ROWS: usize = 1_048_576;

/// One cell of an export row.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// No value: an empty CSV field, an empty sheet cell, JSON `null`.
    Empty,
    /// Text.
    Text(String),
    /// A whole number (a sheet cell of type number, a JSON number).
    Int(i64),
    /// A list: joined by [`LIST_SEPARATOR`] in CSV and XLSX, a JSON array.
    List(Vec<String>),
}

impl Cell {
    fn text(v: &Option<String>) -> Cell {
        v.as_ref().map_or(Cell::Empty, |s| Cell::Text(s.clone()))
    }

    fn int(v: Option<impl Into<i64>>) -> Cell {
        v.map_or(Cell::Empty, |n| Cell::Int(n.into()))
    }

    /// The cell as the text of a CSV field, before quoting.
    fn flat(&self) -> String {
        match self {
            Cell::Empty => String::new(),
            Cell::Text(s) => s.clone(),
            Cell::Int(n) => n.to_string(),
            Cell::List(items) => items.join(LIST_SEPARATOR),
        }
    }

    /// The cell as a JSON value.
    pub fn json(&self) -> Value {
        match self {
            Cell::Empty => Value::Null,
            Cell::Text(s) => Value::String(s.clone()),
            Cell::Int(n) => Value::from(*n),
            Cell::List(items) => Value::from(items.clone()),
        }
    }
}

/// A column of an export: its name (the CSV header, the sheet's header, the JSON member) and
/// how a row gives its cell.
#[derive(Debug)]
pub struct Column<R: 'static> {
    /// The name.
    pub name: &'static str,
    /// The row's cell.
    pub cell: fn(&R) -> Cell,
}

/// The columns of the pages export, in order: one row per URL the crawl fetched, failed or
/// skipped, in crawl order.
pub const PAGE_COLUMNS: &[Column<store::CrawlPage>] = &[
    Column { name: "url", cell: |p| Cell::Text(p.url.clone()) },
    Column { name: "state", cell: |p| Cell::Text(p.state.clone()) },
    Column { name: "status_code", cell: |p| Cell::int(p.status_code) },
    Column { name: "depth", cell: |p| Cell::int(p.depth) },
    Column { name: "inlinks", cell: |p| Cell::Int(p.inlinks.into()) },
    Column { name: "score", cell: |p| Cell::int(p.score) },
    Column { name: "title", cell: |p| Cell::text(&p.title) },
    Column { name: "failed_rules", cell: |p| Cell::List(p.failed_rules.clone()) },
    Column { name: "reason", cell: |p| Cell::text(&p.reason) },
    Column { name: "found_from", cell: |p| Cell::text(&p.found_from) },
    Column { name: "redirect_to", cell: |p| Cell::text(&p.redirect_to) },
];

/// What names a custom extractor's column, after those of [`PAGE_COLUMNS`].
pub use super::wire::EXTRACT_COLUMN_PREFIX;

/// The cells a row has after its table's fixed columns: a page's extractor values, one per
/// extractor of the crawl (`names`, in order; empty where it matched nothing), a finding none.
pub trait ExtraCells {
    /// The cells of the extractors `names`.
    fn extra_cells(&self, names: &[String]) -> Vec<Cell>;
}

impl ExtraCells for store::CrawlPage {
    fn extra_cells(&self, names: &[String]) -> Vec<Cell> {
        names
            .iter()
            .map(|name| {
                let value = self.extracted.iter().find(|(n, _)| n == name).and_then(|(_, v)| v.clone());
                value.map_or(Cell::Empty, Cell::Text)
            })
            .collect()
    }
}

impl ExtraCells for store::CrawlIssue {
    fn extra_cells(&self, _names: &[String]) -> Vec<Cell> {
        Vec::new()
    }
}

pub use super::wire::extractor_names;

/// The header of a table of `columns` and the extractors `names`.
fn header<R>(columns: &[Column<R>], names: &[String]) -> Vec<String> {
    columns
        .iter()
        .map(|c| c.name.to_string())
        .chain(names.iter().map(|n| format!("{EXTRACT_COLUMN_PREFIX}{n}")))
        .collect()
}

/// A row's cells: those of `columns`, then its extractor values.
fn cells<R: ExtraCells>(columns: &[Column<R>], names: &[String], row: &R) -> Vec<Cell> {
    columns.iter().map(|c| (c.cell)(row)).chain(row.extra_cells(names)).collect()
}

/// The columns of the issues export, in order: one row per finding (a page rule failed on a
/// page, or a site rule's finding), site rules first, then by severity.
pub const ISSUE_COLUMNS: &[Column<store::CrawlIssue>] = &[
    Column { name: "rule", cell: |i| Cell::Text(i.rule_id.clone()) },
    Column { name: "kind", cell: |i| Cell::Text(super::wire::kind_name(i.kind).to_string()) },
    Column { name: "severity", cell: |i| Cell::Text(i.severity.clone()) },
    Column { name: "url", cell: |i| Cell::Text(i.url.clone()) },
    Column { name: "detail", cell: |i| Cell::Text(i.detail.clone()) },
    Column { name: "linked_from", cell: |i| Cell::text(&i.linked_from) },
];

/// The format of an export.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// CSV (RFC 4180, CRLF line ends, a header line).
    Csv,
    /// JSON.
    Json,
    /// An XLSX workbook with the sheets [`PAGES_SHEET`] and [`ISSUES_SHEET`].
    Xlsx,
}

impl Format {
    /// The format named by the `format` query parameter.
    ///
    /// # Errors
    /// `invalid_request` naming `format`.
    pub fn parse(name: &str) -> Result<Format, AppError> {
        match name {
            "csv" => Ok(Format::Csv),
            "json" => Ok(Format::Json),
            "xlsx" => Ok(Format::Xlsx),
            _ => Err(AppError::invalid_parameter("format", "`csv`, `json` or `xlsx`")),
        }
    }

    /// The media type of the export.
    pub fn content_type(self) -> &'static str {
        match self {
            Format::Csv => "text/csv; charset=utf-8",
            Format::Json => "application/json",
            Format::Xlsx => "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        }
    }

    /// The file name extension of the export.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::Json => "json",
            Format::Xlsx => "xlsx",
        }
    }
}

/// Which rows a CSV or JSON export holds (an XLSX workbook holds both, a sheet each).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Table {
    /// One row per URL ([`PAGE_COLUMNS`]).
    Pages,
    /// One row per finding ([`ISSUE_COLUMNS`]).
    Issues,
}

impl Table {
    /// The table named by the `table` query parameter.
    ///
    /// # Errors
    /// `invalid_request` naming `table`.
    pub fn parse(name: &str) -> Result<Table, AppError> {
        match name {
            "pages" => Ok(Table::Pages),
            "issues" => Ok(Table::Issues),
            _ => Err(AppError::invalid_parameter("table", "`pages` or `issues`")),
        }
    }

    /// The table's name (`pages`, `issues`): the JSON member holding its rows.
    pub fn name(self) -> &'static str {
        match self {
            Table::Pages => PAGES_SHEET,
            Table::Issues => ISSUES_SHEET,
        }
    }
}

/// The format and table an export request names: `format` (default `json`) and `table`
/// (default `pages`; refused beside `xlsx`, whose workbook holds both).
///
/// # Errors
/// `invalid_request` naming the parameter at fault.
pub fn parse_request(format: Option<&str>, table: Option<&str>) -> Result<(Format, Table), AppError> {
    let format = Format::parse(format.unwrap_or("json"))?;
    let table = match (table, format) {
        (None, _) => Table::Pages,
        (Some(_), Format::Xlsx) => {
            return Err(AppError::invalid_parameter("table", "absent with `format=xlsx` (the workbook has both)"))
        }
        (Some(t), _) => Table::parse(t)?,
    };
    Ok((format, table))
}

/// The file name a CSV or XLSX export of crawl `crawl_id` is downloaded as (a JSON export
/// is an answer, not a download: `None`).
pub fn file_name(crawl_id: &str, format: Format, table: Table) -> Option<String> {
    let suffix = if table == Table::Issues { "-issues" } else { "" };
    (format != Format::Json).then(|| format!("{crawl_id}{suffix}.{}", format.extension()))
}

/// Why an export was not written.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The store failed.
    #[error("the store: {0}")]
    Store(#[from] store::Error),
    /// Writing failed.
    #[error("writing: {0}")]
    Io(#[from] std::io::Error),
    /// The workbook could not be made.
    #[error("the workbook: {0}")]
    Xlsx(String),
    /// A sheet would hold more rows than XLSX allows.
    #[error("the {0} sheet would hold more than {XLSX_MAX_ROWS} rows, the most an XLSX sheet holds; use CSV")]
    TooManyRows(&'static str),
    /// The caller's `stop` said to stop.
    #[error("the export was stopped")]
    Stopped,
}

impl From<ExportError> for AppError {
    fn from(e: ExportError) -> AppError {
        match e {
            ExportError::Store(e) => AppError::from(e),
            ExportError::TooManyRows(_) => AppError::refused(crate::ErrorCode::InvalidRequest, e.to_string()),
            ExportError::Stopped => AppError::refused(
                crate::ErrorCode::InvalidRequest,
                "The crawl is too large to export within the analysis time limit.",
            ),
            other => AppError::internal(other),
        }
    }
}

impl From<rust_xlsxwriter::XlsxError> for ExportError {
    fn from(e: rust_xlsxwriter::XlsxError) -> ExportError {
        ExportError::Xlsx(e.to_string())
    }
}

/// The row's cells as a JSON object, one member per column, then one per extractor of
/// `names` (`extract:<name>`).
pub fn row_json<R: ExtraCells>(columns: &[Column<R>], names: &[String], row: &R) -> Map<String, Value> {
    header(columns, names).into_iter().zip(cells(columns, names, row)).map(|(name, cell)| (name, cell.json())).collect()
}

/// Calls `f` with each URL of crawl `crawl_id` in crawl order (the pages export's rows), a
/// batch read from the store at a time; stops with [`ExportError::Stopped`] when `stop` says
/// so before a batch.
///
/// # Errors
/// The store's, `f`'s, or [`ExportError::Stopped`].
pub fn each_page(
    store: &store::Store,
    crawl_id: &str,
    stop: &dyn Fn() -> bool,
    mut f: impl FnMut(&store::CrawlPage) -> Result<(), ExportError>,
) -> Result<(), ExportError> {
    let mut after = None;
    loop {
        if stop() {
            return Err(ExportError::Stopped);
        }
        let (pages, next) = store.crawl_pages(crawl_id, after, BATCH)?;
        for p in &pages {
            f(p)?;
        }
        match next {
            Some(n) => after = Some(n),
            None => return Ok(()),
        }
    }
}

/// Calls `f` with each finding of crawl `crawl_id` (the issues export's rows): rule by rule,
/// site rules first, then by severity and by how many URLs a rule affects (the order of the
/// crawl's issue counts), each rule's findings in the order they were recorded.
///
/// # Errors
/// The store's, `f`'s, or [`ExportError::Stopped`].
pub fn each_finding(
    store: &store::Store,
    crawl_id: &str,
    stop: &dyn Fn() -> bool,
    mut f: impl FnMut(&store::CrawlIssue) -> Result<(), ExportError>,
) -> Result<(), ExportError> {
    for count in store.crawl_issue_counts(crawl_id)? {
        let mut after = None;
        loop {
            if stop() {
                return Err(ExportError::Stopped);
            }
            let (issues, next) = store.crawl_issues(crawl_id, &count.rule_id, after, BATCH)?;
            for i in &issues {
                f(i)?;
            }
            match next {
                Some(n) => after = Some(n),
                None => break,
            }
        }
    }
    Ok(())
}

/// A CSV field's text as written: a field a spreadsheet would read as a formula (`=`, `+`,
/// `-`, `@` first) gets a leading `'`, so opening an export never runs what a crawled page
/// put in its title.
fn guarded(value: String) -> String {
    if value.starts_with(['=', '+', '-', '@']) {
        format!("'{value}")
    } else {
        value
    }
}

/// Writes the CSV of `columns` over `rows` (see [`each_page`], [`each_finding`]) to `out`:
/// a header line, then one line per row, CRLF line ends, fields quoted where RFC 4180
/// needs it.
fn csv_of<R: ExtraCells>(
    columns: &[Column<R>],
    names: &[String],
    out: impl Write,
    rows: impl FnOnce(&mut dyn FnMut(&R) -> Result<(), ExportError>) -> Result<(), ExportError>,
) -> Result<(), ExportError> {
    let mut writer = csv::WriterBuilder::new().terminator(csv::Terminator::CRLF).from_writer(out);
    let csv_error = |e: csv::Error| ExportError::Io(std::io::Error::other(e));
    writer.write_record(header(columns, names)).map_err(csv_error)?;
    rows(&mut |row| {
        writer.write_record(cells(columns, names, row).iter().map(|c| guarded(c.flat()))).map_err(csv_error)
    })?;
    writer.flush()?;
    Ok(())
}

/// The names of crawl `crawl_id`'s extractors ([`extractor_names`]), read from the store.
///
/// # Errors
/// The store's.
pub fn crawl_extractor_names(store: &store::Store, crawl_id: &str) -> Result<Vec<String>, ExportError> {
    Ok(extractor_names(&store.get_crawl(crawl_id)?.options_json))
}

/// Writes crawl `crawl_id`'s `table` as CSV to `out` (the pages with a column per extractor
/// of the crawl after the fixed ones).
///
/// # Errors
/// The store's, writing's, or [`ExportError::Stopped`].
pub fn write_csv(
    store: &store::Store,
    crawl_id: &str,
    table: Table,
    stop: &dyn Fn() -> bool,
    out: impl Write,
) -> Result<(), ExportError> {
    match table {
        Table::Pages => {
            let names = crawl_extractor_names(store, crawl_id)?;
            csv_of(PAGE_COLUMNS, &names, out, |f| each_page(store, crawl_id, stop, f))
        }
        Table::Issues => csv_of(ISSUE_COLUMNS, &[], out, |f| each_finding(store, crawl_id, stop, f)),
    }
}

/// Crawl `crawl_id`'s `table` as JSON rows (one object per row, one member per column).
///
/// # Errors
/// The store's, or [`ExportError::Stopped`].
pub fn json_rows(
    store: &store::Store,
    crawl_id: &str,
    table: Table,
    stop: &dyn Fn() -> bool,
) -> Result<Vec<Value>, ExportError> {
    let mut rows = Vec::new();
    match table {
        Table::Pages => {
            let names = crawl_extractor_names(store, crawl_id)?;
            each_page(store, crawl_id, stop, |p| {
                rows.push(Value::Object(row_json(PAGE_COLUMNS, &names, p)));
                Ok(())
            })?;
        }
        Table::Issues => each_finding(store, crawl_id, stop, |i| {
            rows.push(Value::Object(row_json(ISSUE_COLUMNS, &[], i)));
            Ok(())
        })?,
    }
    Ok(rows)
}

/// Writes `columns` over `rows` into a new sheet `name` of `workbook`: a bold header row,
/// then one row per row (numbers as numbers).
fn sheet_of<R: ExtraCells>(
    workbook: &mut rust_xlsxwriter::Workbook,
    name: &'static str,
    columns: &[Column<R>],
    names: &[String],
    rows: impl FnOnce(&mut dyn FnMut(&R) -> Result<(), ExportError>) -> Result<(), ExportError>,
) -> Result<(), ExportError> {
    let sheet = workbook.add_worksheet();
    sheet.set_name(name)?;
    let bold = rust_xlsxwriter::Format::new().set_bold();
    for (c, column) in (0u16..).zip(header(columns, names)) {
        sheet.write_string_with_format(0, c, column, &bold)?;
    }
    let mut r: u32 = 0;
    rows(&mut |row| {
        r += 1;
        if usize::try_from(r).unwrap_or(usize::MAX) >= XLSX_MAX_ROWS {
            return Err(ExportError::TooManyRows(name));
        }
        for (c, cell) in (0u16..).zip(cells(columns, names, row)) {
            match cell {
                Cell::Empty => {}
                Cell::Int(n) => {
                    // Whole numbers of a crawl (statuses, depths, counts, scores) are far
                    // within the 53 bits a sheet's number keeps exactly.
                    #[allow(clippy::cast_precision_loss)]
                    sheet.write_number(r, c, n as f64)?;
                }
                other => {
                    sheet.write_string(r, c, other.flat())?;
                }
            }
        }
        Ok(())
    })?;
    sheet.set_freeze_panes(1, 0)?;
    Ok(())
}

/// Crawl `crawl_id` as an XLSX workbook: the sheet [`PAGES_SHEET`] ([`PAGE_COLUMNS`]) and the
/// sheet [`ISSUES_SHEET`] ([`ISSUE_COLUMNS`]). A workbook is a zip archive written whole, so
/// it is made in memory; its size grows with the crawl's rows, as a CSV export's does.
///
/// # Errors
/// The store's, the workbook's, [`ExportError::TooManyRows`] or [`ExportError::Stopped`].
pub fn xlsx(store: &store::Store, crawl_id: &str, stop: &dyn Fn() -> bool) -> Result<Vec<u8>, ExportError> {
    let mut workbook = rust_xlsxwriter::Workbook::new();
    let names = crawl_extractor_names(store, crawl_id)?;
    sheet_of(&mut workbook, PAGES_SHEET, PAGE_COLUMNS, &names, |f| each_page(store, crawl_id, stop, f))?;
    sheet_of(&mut workbook, ISSUES_SHEET, ISSUE_COLUMNS, &[], |f| each_finding(store, crawl_id, stop, f))?;
    if stop() {
        return Err(ExportError::Stopped);
    }
    Ok(workbook.save_to_buffer()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_export_request_names_its_format_table_and_file() {
        assert_eq!(parse_request(None, None).unwrap(), (Format::Json, Table::Pages));
        assert_eq!(parse_request(Some("csv"), Some("issues")).unwrap(), (Format::Csv, Table::Issues));
        assert_eq!(parse_request(Some("xlsx"), None).unwrap(), (Format::Xlsx, Table::Pages));
        for (format, table) in [(Some("xlsx"), Some("pages")), (Some("xml"), None), (None, Some("links"))] {
            assert!(matches!(parse_request(format, table), Err(AppError::Refused(_))), "{format:?} {table:?}");
        }
        assert_eq!(file_name("cr_1", Format::Csv, Table::Issues).as_deref(), Some("cr_1-issues.csv"));
        assert_eq!(file_name("cr_1", Format::Xlsx, Table::Pages).as_deref(), Some("cr_1.xlsx"));
        assert_eq!(file_name("cr_1", Format::Json, Table::Issues), None);
    }

    fn page() -> store::CrawlPage {
        store::CrawlPage {
            seq: 1,
            url: "https://a.test/".into(),
            state: "done".into(),
            status_code: Some(200),
            depth: Some(0),
            inlinks: 2,
            score: Some(90),
            title: Some("Oak, \"solid\"".into()),
            failed_rules: vec!["a".into(), "b".into()],
            reason: None,
            found_from: None,
            redirect_to: None,
            records: 1,
            extracted: Vec::new(),
        }
    }

    #[test]
    fn csv_quotes_what_needs_it_and_guards_formulas() {
        let mut formula = page();
        formula.title = Some("=1+1".into());
        let mut out = Vec::new();
        csv_of(PAGE_COLUMNS, &[], &mut out, |f| {
            f(&page())?;
            f(&formula)
        })
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.split("\r\n").collect();
        let header: Vec<&str> = PAGE_COLUMNS.iter().map(|c| c.name).collect();
        assert_eq!(lines[0], header.join(","));
        assert_eq!(lines[1], "https://a.test/,done,200,0,2,90,\"Oak, \"\"solid\"\"\",a;b,,,");
        assert_eq!(lines[2], "https://a.test/,done,200,0,2,90,'=1+1,a;b,,,");
    }

    /// The REST pages answers (`/pages`, the JSON export's schema) and the export's columns
    /// name the same members, so a column added to one and not the other fails here.
    #[test]
    fn the_wire_page_has_the_export_columns_as_members() {
        let wire = serde_json::to_value(crate::crawl::views::wire_page(&page())).unwrap();
        let wire_names: Vec<&str> = wire.as_object().unwrap().keys().map(String::as_str).collect();
        let column_names: Vec<&str> = PAGE_COLUMNS.iter().map(|c| c.name).collect();
        assert_eq!(wire_names, column_names);
        assert_eq!(Value::Object(row_json(PAGE_COLUMNS, &[], &page())), wire);
    }

    /// Likewise for the issues export and the JSON export's schema of a finding.
    #[test]
    fn the_wire_finding_has_the_export_columns_as_members() {
        let issue = store::CrawlIssue {
            kind: store::IssueKind::Site,
            rule_id: "r".into(),
            severity: "warning".into(),
            url: "https://a.test/x".into(),
            linked_from: Some("https://a.test/".into()),
            detail: "HTTP 404".into(),
            locations: None,
        };
        let wire = api::crawls::CrawlExportFinding {
            rule: issue.rule_id.clone(),
            kind: "site".into(),
            severity: issue.severity.clone(),
            url: issue.url.clone(),
            detail: issue.detail.clone(),
            linked_from: issue.linked_from.clone(),
        };
        assert_eq!(Value::Object(row_json(ISSUE_COLUMNS, &[], &issue)), serde_json::to_value(wire).unwrap());
    }

    #[test]
    fn extractor_columns_follow_the_fixed_ones() {
        let mut with = page();
        with.extracted = vec![("price".into(), Some("=42".into())), ("sku".into(), None)];
        let names = vec!["sku".to_string(), "price".to_string(), "gone".to_string()];
        let mut out = Vec::new();
        csv_of(PAGE_COLUMNS, &names, &mut out, |f| f(&with)).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.split("\r\n").collect();
        assert!(lines[0].ends_with(",redirect_to,extract:sku,extract:price,extract:gone"), "{}", lines[0]);
        assert!(lines[1].ends_with(",,'=42,"), "the order of the names, a formula guarded: {}", lines[1]);
        let json = row_json(PAGE_COLUMNS, &names, &with);
        assert_eq!((&json["extract:price"], &json["extract:sku"]), (&Value::from("=42"), &Value::Null));
        let options = r#"{"request":{"url":"https://a.test/","extract":[{"name":"sku","regex":"x"},{"name":"price","css":"b"}]}}"#;
        assert_eq!(extractor_names(options), ["sku", "price"]);
        assert!(extractor_names("{}").is_empty());
    }

    #[test]
    fn bad_names_are_refused_naming_the_parameter() {
        assert_eq!(Format::parse("xlsx").unwrap(), Format::Xlsx);
        assert_eq!(Table::parse("issues").unwrap(), Table::Issues);
        let e = Format::parse("pdf").unwrap_err();
        assert_eq!(e.code(), "invalid_request");
        assert!(e.message().contains("format"), "{}", e.message());
        assert!(Table::parse("links").unwrap_err().message().contains("table"));
    }
}
