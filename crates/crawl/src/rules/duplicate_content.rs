//! `duplicate-content`: Pages have content of their own.
//!
//! - **What it checks:** fails when two or more indexable pages have the same visible text after white space is collapsed (compared by a hash).
//! - **Why it matters:** Duplicates split links and ranking between URLs, and search engines pick one of them, not always yours.
//! - **Fails:** /print/a shows the same text as /a, and neither names a canonical
//! - **Passes:** each indexable page has its own text, or names the original as its canonical

use super::prelude::*;

/// See the module documentation.
#[derive(Debug, Clone, Copy)]
pub struct DuplicateContent;

static META: SiteRuleMeta = SiteRuleMeta {
    id: "duplicate-content",
    name: "Pages have content of their own",
    severity: Severity::Warning,
    threshold:
        "two or more indexable pages have the same visible text after white space is collapsed (compared by a hash)",
    why: "Duplicates split links and ranking between URLs, and search engines pick one of them, not always yours.",
    fail_example: "/print/a shows the same text as /a, and neither names a canonical",
    pass_example: "each indexable page has its own text, or names the original as its canonical",
    reference: "https://developers.google.com/search/docs/crawling-indexing/consolidate-duplicate-urls",
};

impl SiteRule for DuplicateContent {
    fn meta(&self) -> &'static SiteRuleMeta {
        &META
    }

    fn check(&self, site: &dyn CrawledSite, out: &mut Findings) -> SiteResult<()> {
        duplicates(site, DuplicateKey::TextHash, "visible text", out)
    }
}
