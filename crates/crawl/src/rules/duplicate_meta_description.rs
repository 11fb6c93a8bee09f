use super::prelude::*;

/// The rule: its text is `META`, its check is below.
#[derive(Debug, Clone, Copy)]
pub struct DuplicateMetaDescription;

static META: SiteRuleMeta = SiteRuleMeta {
    id: "duplicate-meta-description",
    name: "Meta descriptions are unique",
    severity: Severity::Notice,
    threshold: "two or more indexable pages have the same meta description",
    why: "The description is the snippet under the result; a shared one describes no page well.",
    fail_example: "/red and /blue share one description",
    pass_example: "each indexable page describes itself",
    reference: "https://developers.google.com/search/docs/appearance/snippet",
    phrases: &[],
    excluded: &[],
    glossary: &["meta-description", super::DuplicateContent::ID],
};

impl SiteRule for DuplicateMetaDescription {
    fn meta(&self) -> &'static SiteRuleMeta {
        &META
    }

    fn check(&self, site: &dyn CrawledSite, out: &mut Findings) -> SiteResult<()> {
        duplicates(site, DuplicateKey::MetaDescription, "meta description", out)
    }
}
