use std::collections::HashMap;

use super::prelude::*;
use crate::rules::{DuplicateGroup, DUPLICATE_HEAD};

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

    fn check(&self, site: &dyn CrawledSite, out: &mut Findings) -> SiteResult<()> {
        // The records keep a few rich results each (crawl::MAX_RICH_RESULT_ERRORS); pages are
        // streamed: counted per rich result first, then the first pages of each shared one
        // named, then the findings given.
        let mut counts: HashMap<String, usize> = HashMap::new();
        site.pages(&mut |page| {
            if page.indexable() {
                for e in &page.rich_result_errors {
                    *counts.entry(e.rich_result.clone()).or_default() += 1;
                }
            }
            Ok(())
        })?;
        counts.retain(|_, n| *n > 1);
        if counts.is_empty() {
            return Ok(());
        }
        let mut groups: HashMap<String, DuplicateGroup> = HashMap::new();
        site.pages(&mut |page| {
            if page.indexable() {
                for e in &page.rich_result_errors {
                    if let Some(count) = counts.get(&e.rich_result) {
                        let group = groups
                            .entry(e.rich_result.clone())
                            .or_insert_with(|| DuplicateGroup { count: *count, head: Vec::new() });
                        if group.head.len() < DUPLICATE_HEAD {
                            group.head.push(page.url.clone());
                        }
                    }
                }
            }
            Ok(())
        })?;
        site.pages(&mut |page| {
            if !page.indexable() {
                return Ok(());
            }
            for e in &page.rich_result_errors {
                let Some(group) = groups.get(&e.rich_result) else { continue };
                let others: Vec<&str> =
                    group.head.iter().map(String::as_str).filter(|u| *u != page.url).take(3).collect();
                let more = group.count - 1 - others.len();
                let mut detail =
                    format!("{} not eligible (error at {}), as on {}", e.rich_result, e.path, others.join(", "));
                if more > 0 {
                    detail.push_str(&format!(" and {more} more"));
                }
                out.push(SiteFinding { url: page.url.clone(), linked_from: None, detail });
            }
            Ok(())
        })
    }
}
