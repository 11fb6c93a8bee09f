//! seo-audit's application layer: every use case as a typed function over the store, the
//! fetcher and the engines, with no HTTP and no JSON-RPC in it. The server translates HTTP
//! and JSON-RPC to these functions and their errors back (docs/ARCHITECTURE.md).
//!
//! - [`App`]: the store, the fetcher, the audit slots, the analysis limits and where events
//!   go; [`App::run_audit`] is the one audit path (admission, quota, fetch, analysis, result,
//!   record), entered through [`App::audit_for_client`], [`App::audit_batch`],
//!   [`App::audit_charged`] or [`App::audit_background`].
//! - [`AuditSlots`]: the bounded audit concurrency and queue every audit passes.
//! - [`pipeline`]: fetching a page with its robots.txt and analysing it within its budget.
//! - [`Comparison`]: the one comparison of two audits (regressions, competitors, monitors).
//! - [`StoredResult`]: a stored audit read back as a typed value.
//! - [`glossary`]: the SEO glossary (get_seo_concept, the methodology resource).
//! - [`techstack`]: technology detection from a page's facts, HTML and headers.
//! - [`AppError`]: why a use case failed.

mod audit;
pub mod audit_report;
mod compare;
pub mod competitors;
pub mod concept;
mod error;
pub mod experiments;
pub mod glossary;
pub mod keywords;
pub mod methodology;
pub mod pipeline;
pub mod site_info;
mod slots;
mod stored;
pub mod techstack;

pub use audit::{audit_record, App, Audited, Events, MAX_STORED_TEXT};
pub use compare::Comparison;
pub use error::AppError;
pub use slots::{AuditSlots, Ticket};
pub use stored::StoredResult;
