//! Stored audits read back as typed values. A row keeps the [`AuditResult`] JSON of its day
//! plus additive fields (`page_text`, kept there by audits stored before page texts had a table
//! of their own); every field has a default, so rows written by older
//! versions read back, and nothing reads the JSON by string paths.

use audit_core::{AuditResult, Recommendation};
use serde::Deserialize;

/// A stored audit's result, typed.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct StoredResult {
    /// The result as the engine produced it.
    #[serde(flatten)]
    pub result: AuditResult,
    /// The page's visible text, white space collapsed, as audits stored before page texts
    /// had a table of their own kept it (`store::Store::audits_with_text_for_url` reads the
    /// newer ones); keyword history counts in it.
    #[serde(default)]
    pub page_text: Option<String>,
}

impl StoredResult {
    /// The result of a stored row. A row that does not parse (a bug or a damaged database)
    /// is logged and reads as an empty result, so one bad row cannot stop a monitor or a
    /// history.
    pub fn of(stored: &store::StoredAudit) -> StoredResult {
        serde_json::from_str(&stored.result_json).unwrap_or_else(|e| {
            tracing::error!(audit = %stored.id, error = %e, "stored audit result does not parse");
            StoredResult::default()
        })
    }

    /// Recommendations of one severity (`critical`, `warning`, `notice`).
    pub fn of_severity<'a>(&'a self, severity: &'a str) -> impl Iterator<Item = &'a Recommendation> + 'a {
        self.result.recommendations.iter().filter(move |r| r.kind.as_str() == severity)
    }

    /// How many recommendations of each severity: (critical, warning, notice).
    pub fn severity_counts(&self) -> (usize, usize, usize) {
        let n = |s| self.of_severity(s).count();
        (n("critical"), n("warning"), n("notice"))
    }

    /// Whether the audited page answered 2xx.
    pub fn is_2xx(&self) -> bool {
        (200..300).contains(&self.result.page.status_code)
    }

    /// Whether the rule `id` failed on the page.
    pub fn fails(&self, id: &str) -> bool {
        self.result.recommendations.iter().any(|r| r.id == id)
    }
}

/// A stored row holding `json`, for tests of what reads stored results.
#[cfg(test)]
pub(crate) fn test_row(json: &str) -> store::StoredAudit {
    store::StoredAudit {
        id: "a1".into(),
        url: "https://e.example/".into(),
        final_url: "https://e.example/".into(),
        host: "e.example".into(),
        score: 50,
        ruleset_version: "1.0.0".into(),
        result_json: json.into(),
        user_id: None,
        public: true,
        created_at: time::OffsetDateTime::UNIX_EPOCH,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::stored::test_row as row;
    use audit_core::rules::technical::HttpStatusError;
    use audit_core::Rule;

    #[test]
    fn partial_and_old_rows_read_back_with_defaults() {
        let id = HttpStatusError.meta().id;
        let r = StoredResult::of(&row(&format!(
            r#"{{"page":{{"status_code":503}},"recommendations":[{{"id":"{id}","type":"critical"}}]}}"#
        )));
        assert!(!r.is_2xx());
        assert_eq!(r.severity_counts(), (1, 0, 0));
        assert!(r.fails(id));
        assert_eq!(r.page_text, None);
        assert_eq!(r.result.page.title, "");
    }

    #[test]
    fn a_full_result_round_trips() {
        let audit = audit_core::audit(audit_core::Page::parse(
            "https://e.example/",
            b"<title>Oak</title><h1>Oak tables</h1>",
            audit_core::HttpFacts::new().with_status(200),
        ));
        let result = audit.to_result("2026-01-01T00:00:00.000Z");
        let mut json = serde_json::to_value(&result).unwrap();
        json["page_text"] = "Oak tables".into();
        let r = StoredResult::of(&row(&json.to_string()));
        assert_eq!(r.result, result);
        assert_eq!(r.page_text.as_deref(), Some("Oak tables"));
        assert!(r.is_2xx());
    }

    #[test]
    fn an_unreadable_row_is_empty_not_fatal() {
        assert_eq!(StoredResult::of(&row("not json")), StoredResult::default());
    }
}
