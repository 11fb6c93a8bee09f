use super::prelude::*;

/// The deepest click depth that passes.
pub const MAX_DEPTH: u32 = 3;

/// The rule: its text is `META`, its check is below.
#[derive(Debug, Clone, Copy)]
pub struct DeepPage;

static META: SiteRuleMeta = SiteRuleMeta {
    id: "deep-page",
    name: "Pages are a few clicks from the start",
    severity: Severity::Notice,
    threshold: "an HTML page answering 200 is more than 3 clicks from the start URL",
    why: "Pages deep in the click path get less link value and are crawled less often; important pages should be close to the home page.",
    fail_example: "/a/b/c/d is reached only after 4 clicks",
    pass_example: "every page is within 3 clicks of the start URL",
    reference: "https://developers.google.com/search/docs/crawling-indexing/links-crawlable",
    phrases: &[],
    excluded: &[],
    glossary: &["internal-linking", "crawl-budget"],
};

impl SiteRule for DeepPage {
    fn meta(&self) -> &'static SiteRuleMeta {
        &META
    }

    fn skipped_in_list_mode(&self) -> Option<&'static str> {
        Some("a list-mode crawl follows no link, so its pages have no click depth")
    }

    fn scan<'s>(&'s self, site: &'s dyn CrawledSite, _: &mut Findings) -> ScanResult<'s> {
        each_page(move |p: &CrawledPage, out: &mut Findings| {
            if p.status == Some(200) && p.html && p.depth.is_some_and(|d| d > MAX_DEPTH) {
                out.push(SiteFinding {
                    url: p.url.clone(),
                    linked_from: site.first_inlink(&p.url)?,
                    detail: format!("click depth {}", p.depth.unwrap_or_default()),
                });
            }
            Ok(())
        })
    }
}
