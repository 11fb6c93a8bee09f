//! The seo-audit service (being built): see `pipeline` for the shared audit path.

pub mod pipeline;

/// The current time as RFC 3339 UTC with milliseconds (`scanned_at`, timestamps on the wire).
pub fn now_rfc3339() -> String {
    store::now_rfc3339()
}
