//! `GET /api/v1/crawls/{id}/export?format=csv|json` (docs/API.md, "Site crawl"): every URL
//! of a crawl, one row each.

use serde_json::{json, Value};

/// The columns of the CSV export, in order.
pub const CSV_COLUMNS: &[&str] =
    &["url", "state", "status_code", "depth", "inlinks", "score", "title", "failed_rules", "reason", "found_from"];

/// One CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180); a
/// field a spreadsheet would read as a formula (`=`, `+`, `-`, `@` first) gets a leading
/// `'`.
fn field(value: &str) -> String {
    let value = if value.starts_with(['=', '+', '-', '@']) { format!("'{value}") } else { value.to_string() };
    if value.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", value.replace('"', "\"\""))
    } else {
        value
    }
}

/// The pages as CSV: a header line, then one line per URL (`failed_rules` joined by `;`).
pub fn csv(pages: &[store::CrawlPage]) -> String {
    let mut out = CSV_COLUMNS.join(",");
    out.push_str("\r\n");
    let opt = |v: Option<String>| v.unwrap_or_default();
    for p in pages {
        let row = [
            p.url.clone(),
            p.state.clone(),
            opt(p.status_code.map(|s| s.to_string())),
            opt(p.depth.map(|d| d.to_string())),
            p.inlinks.to_string(),
            opt(p.score.map(|s| s.to_string())),
            opt(p.title.clone()),
            p.failed_rules.join(";"),
            opt(p.reason.clone()),
            opt(p.found_from.clone()),
        ];
        out.push_str(&row.iter().map(|v| field(v)).collect::<Vec<_>>().join(","));
        out.push_str("\r\n");
    }
    out
}

/// One page as the JSON answers show it.
pub fn page_json(p: &store::CrawlPage) -> Value {
    json!({
        "url": p.url,
        "state": p.state,
        "status_code": p.status_code,
        "depth": p.depth,
        "inlinks": p.inlinks,
        "score": p.score,
        "title": p.title,
        "failed_rules": p.failed_rules,
        "reason": p.reason,
        "found_from": p.found_from,
        "redirect_to": p.redirect_to,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_quotes_what_needs_it() {
        let page = store::CrawlPage {
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
        };
        let text = csv(&[page]);
        let lines: Vec<&str> = text.split("\r\n").collect();
        assert_eq!(lines[0], CSV_COLUMNS.join(","));
        assert_eq!(lines[1], "https://a.test/,done,200,0,2,90,\"Oak, \"\"solid\"\"\",a;b,,");
        assert_eq!(field("=1+1"), "'=1+1");
    }
}
