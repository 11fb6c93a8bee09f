use super::prelude::*;

/// The rule: its text is `META`, its check is below.
#[derive(Debug, Clone, Copy)]
pub struct DuplicateContent;

impl DuplicateContent {
    /// The rule's id as a constant: the glossary has a concept of the same name
    /// (crates/app/src/glossary.rs), which takes its slug from here so that the id is
    /// written once, in this file.
    pub const ID: &'static str = META.id;
}

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
    phrases: &[],
    excluded: &[],
    glossary: &["duplicate-content"],
};

impl SiteRule for DuplicateContent {
    fn meta(&self) -> &'static SiteRuleMeta {
        &META
    }

    fn check(&self, site: &dyn CrawledSite, out: &mut Findings) -> SiteResult<()> {
        duplicates(site, DuplicateKey::TextHash, "visible text", out)
    }
}
