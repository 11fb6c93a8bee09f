use std::collections::HashMap;

use super::prelude::*;
use crate::rules::DuplicateGroup;

/// The rule: its text is `META`, its check is below.
#[derive(Debug, Clone, Copy)]
pub struct StructuredDataErrorsAcrossPages;

static META: SiteRuleMeta = SiteRuleMeta {
    id: "structured-data-errors-across-pages",
    name: "A rich result's structured data is valid across the site",
    severity: Severity::Warning,
    threshold: "two or more indexable pages have structured data with an error that costs the same rich result \
                (Product snippet, Recipe, Breadcrumb...)",
    why: "The same rich result lost on many pages is almost always one template writing the same markup: one fix \
          there makes every page eligible again, where the page audits list the fault page by page.",
    fail_example: "/oak-chair and /pine-chair both mark up a Product whose offer has no price",
    pass_example: "every product page's Product has a name and an offer with a numeric price and a currency",
    reference: "https://developers.google.com/search/docs/appearance/structured-data/sd-policies",
    phrases: &[],
    excluded: &[],
    glossary: &["structured-data", "rich-results"],
};

impl SiteRule for StructuredDataErrorsAcrossPages {
    fn meta(&self) -> &'static SiteRuleMeta {
        &META
    }

    fn scan<'s>(&'s self, _: &'s dyn CrawledSite, _: &mut Findings) -> ScanResult<'s> {
        Ok(Some(Box::<Passes>::default()))
    }
}

/// Three passes over the pages (the records keep a few rich results each,
/// crate::MAX_RICH_RESULT_ERRORS): counted per rich result first, then the first pages of each
/// shared one named, then the findings given.
#[derive(Default)]
struct Passes {
    pass: u8,
    counts: HashMap<String, usize>,
    groups: HashMap<String, DuplicateGroup>,
}

impl Scan for Passes {
    fn page(&mut self, page: &CrawledPage, out: &mut Findings) -> SiteResult<()> {
        if !page.indexable() {
            return Ok(());
        }
        for e in &page.rich_result_errors {
            match self.pass {
                0 => *self.counts.entry(e.rich_result.clone()).or_default() += 1,
                1 => {
                    if let Some(count) = self.counts.get(&e.rich_result) {
                        let group = self
                            .groups
                            .entry(e.rich_result.clone())
                            .or_insert_with(|| DuplicateGroup { count: *count, head: Vec::new() });
                        group.offer(&page.url);
                    }
                }
                _ => {
                    let Some(group) = self.groups.get(&e.rich_result) else { continue };
                    let detail = format!(
                        "{} not eligible (error at {}), as on {}",
                        e.rich_result,
                        e.path,
                        group.others_than(&page.url)
                    );
                    out.push(SiteFinding { url: page.url.clone(), linked_from: None, detail });
                }
            }
        }
        Ok(())
    }

    fn end(&mut self, _: &mut Findings) -> SiteResult<Next> {
        self.pass += 1;
        if self.pass == 1 {
            self.counts.retain(|_, n| *n > 1);
        }
        Ok(if self.pass < 3 && !self.counts.is_empty() { Next::ReadAgain } else { Next::Done })
    }
}
