use super::prelude::*;

/// The rule: its text is `META`, its check is below.
#[derive(Debug, Clone, Copy)]
pub struct DuplicateTitle;

static META: SiteRuleMeta = SiteRuleMeta {
    id: "duplicate-title",
    name: "Titles are unique",
    severity: Severity::Warning,
    threshold: "two or more indexable pages have the same title",
    why: "Search engines show the title in results; identical titles make pages compete with each other and leave users unable to tell them apart.",
    fail_example: "/red and /blue are both titled 'Shirts'",
    pass_example: "each indexable page has a title of its own",
    reference: "https://developers.google.com/search/docs/appearance/title-link",
    phrases: &[],
    excluded: &[],
    glossary: &["title-tag", super::DuplicateContent::ID],
};

impl SiteRule for DuplicateTitle {
    fn meta(&self) -> &'static SiteRuleMeta {
        &META
    }

    fn check(&self, site: &dyn CrawledSite, out: &mut Findings) -> SiteResult<()> {
        duplicates(site, DuplicateKey::Title, "title", out)
    }
}
