//! What a finished crawl records of its run beside its score and issues
//! (`store::Crawl::summary_json`), typed: written when the crawl ends, read by the views.

use serde::{Deserialize, Serialize};

/// What a finished crawl records of its run beside its score (`store::Crawl::summary_json`).
/// Every field has a default, so summaries written by older versions still read.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct StoredSummary {
    /// Whether the time limit ended the crawl.
    pub time_limited: bool,
    /// Whether the crawl read the site's sitemaps.
    pub sitemaps_read: bool,
    /// Pages audited.
    pub pages_audited: u64,
    /// The mean of the pages' scores, when the crawl was scored.
    pub mean_page_score: Option<f64>,
    /// What the site-wide issues took off that mean, when the crawl was scored.
    pub penalty: Option<f64>,
}

impl StoredSummary {
    /// The summary of `crawl`: `None` while it runs. A summary that does not read (a bug or
    /// a damaged database) is logged and reads as `None`.
    pub fn of(crawl: &store::Crawl) -> Option<StoredSummary> {
        let json = crawl.summary_json.as_deref()?;
        serde_json::from_str(json)
            .map_err(|e| tracing::error!(crawl = %crawl.id, error = %e, "stored crawl summary does not parse"))
            .ok()
    }
}

#[cfg(test)]
mod tests {
    use super::StoredSummary;

    #[test]
    fn a_crawl_summary_keeps_its_names_and_old_rows_still_read() {
        let written = StoredSummary {
            time_limited: true,
            sitemaps_read: false,
            pages_audited: 3,
            mean_page_score: Some(81.5),
            penalty: None,
        };
        assert_eq!(
            serde_json::to_string(&written).expect("json"),
            r#"{"time_limited":true,"sitemaps_read":false,"pages_audited":3,"mean_page_score":81.5,"penalty":null}"#
        );
        let old: StoredSummary = serde_json::from_str(r#"{"time_limited":true}"#).expect("an older row reads");
        assert_eq!(old, StoredSummary { time_limited: true, ..StoredSummary::default() });
    }
}
