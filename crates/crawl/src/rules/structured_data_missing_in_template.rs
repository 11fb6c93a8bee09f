use std::collections::{BTreeMap, HashMap};

use super::prelude::*;

/// A group needs at least this many indexable HTML pages before its pages are compared: in
/// fewer, a page without the markup is as likely another kind of page as a forgotten one.
pub const MIN_TEMPLATE_PAGES: usize = 5;

/// The share of a group's pages (in percent) that must carry a type before the others are
/// reported as missing it.
pub const MIN_TYPE_SHARE_PERCENT: usize = 60;

/// The rule: its text is `META`, its check is below.
#[derive(Debug, Clone, Copy)]
pub struct StructuredDataMissingInTemplate;

static META: SiteRuleMeta = SiteRuleMeta {
    id: "structured-data-missing-in-template",
    name: "Pages of one kind carry the same structured data",
    severity: Severity::Notice,
    threshold: "in a group of 5 or more indexable HTML pages sharing a URL shape (the first path segment and the \
                number of segments: /products/* holds /products/oak-chair but not /products/oak/chair, and \
                every one-segment path is one group /*), at least 60% of the pages carry a structured data \
                type and this page does not",
    why: "When most pages built from one template carry a type (Product, Article, Recipe...) and a few do not, \
          those few usually lost it to a template branch or an empty field, and cannot earn the rich result \
          their siblings earn.",
    fail_example: "/recipes/soup, /recipes/bread and /recipes/cake mark up a Recipe, /recipes/pie and \
                   /recipes/tart mark up nothing",
    pass_example: "every page under /recipes/ marks up a Recipe, or too few of them do to call it the template's",
    reference: "https://developers.google.com/search/docs/appearance/structured-data/sd-policies",
    phrases: &[],
    excluded: &[],
    glossary: &["structured-data", "rich-results"],
};

/// The URL shape that groups pages of one template: the origin, the first path segment and
/// one `*` per further segment (`https://example.com/products/*`); every path of one segment
/// is `https://example.com/*`. `None` for the root (a kind of its own) and URLs that do not
/// parse. The query is ignored.
fn template_key(url: &str) -> Option<String> {
    let parsed = url::Url::parse(url).ok()?;
    let segments: Vec<&str> = parsed.path_segments()?.filter(|s| !s.is_empty()).collect();
    let origin = parsed.origin().ascii_serialization();
    match segments.as_slice() {
        [] => None,
        [_] => Some(format!("{origin}/*")),
        [first, rest @ ..] => Some(format!("{origin}/{first}{}", "/*".repeat(rest.len()))),
    }
}

/// What a group's pages carry: how many pages, and how many of them carry each type.
#[derive(Debug, Default)]
struct Group {
    pages: usize,
    types: BTreeMap<String, usize>,
}

impl Group {
    /// The types most of the group's pages carry but not all (with how many carry each).
    fn expected(&self) -> impl Iterator<Item = (&String, usize)> {
        let pages = self.pages;
        self.types
            .iter()
            .map(|(t, n)| (t, *n))
            .filter(move |(_, n)| *n < pages && n * 100 >= MIN_TYPE_SHARE_PERCENT * pages)
    }
}

impl SiteRule for StructuredDataMissingInTemplate {
    fn meta(&self) -> &'static SiteRuleMeta {
        &META
    }

    fn scan<'s>(&'s self, _: &'s dyn CrawledSite, _: &mut Findings) -> ScanResult<'s> {
        Ok(Some(Box::<Passes>::default()))
    }
}

#[cfg(test)]
mod tests {
    use super::template_key;

    #[test]
    fn the_key_is_the_first_segment_and_the_depth() {
        let k = |u: &str| template_key(u);
        assert_eq!(k("https://a.test/"), None);
        assert_eq!(k("https://a.test/about").as_deref(), Some("https://a.test/*"));
        assert_eq!(k("https://a.test/p/oak").as_deref(), Some("https://a.test/p/*"));
        assert_eq!(k("https://a.test/p/oak/?x=1").as_deref(), Some("https://a.test/p/*"));
        assert_eq!(k("https://a.test/p/oak/chair").as_deref(), Some("https://a.test/p/*/*"));
        assert_ne!(k("https://a.test/p/oak"), k("https://b.test/p/oak"));
    }
}

/// Two passes over the pages: counted per group first, then each page of a group with an
/// expected type it lacks reported. What is held grows with the groups and their types (at
/// most crate::MAX_STRUCTURED_DATA_TYPES a page), not with the records.
#[derive(Default)]
struct Passes {
    pass: u8,
    groups: HashMap<String, Group>,
}

impl Scan for Passes {
    fn page(&mut self, page: &CrawledPage, out: &mut Findings) -> SiteResult<()> {
        if !page.indexable() {
            return Ok(());
        }
        let Some(key) = template_key(&page.url) else { return Ok(()) };
        if self.pass == 0 {
            let group = self.groups.entry(key).or_default();
            group.pages += 1;
            for t in &page.structured_data_types {
                *group.types.entry(t.clone()).or_default() += 1;
            }
            return Ok(());
        }
        let Some(group) = self.groups.get(&key) else { return Ok(()) };
        for (t, n) in group.expected() {
            if !page.structured_data_types.contains(t) {
                out.push(SiteFinding {
                    url: page.url.clone(),
                    linked_from: None,
                    detail: format!("no {t} markup, which {n} of the {} pages of {key} carry", group.pages),
                });
            }
        }
        Ok(())
    }

    fn end(&mut self, _: &mut Findings) -> SiteResult<Next> {
        self.pass += 1;
        if self.pass > 1 {
            return Ok(Next::Done);
        }
        self.groups.retain(|_, g| g.pages >= MIN_TEMPLATE_PAGES && g.expected().next().is_some());
        Ok(if self.groups.is_empty() { Next::Done } else { Next::ReadAgain })
    }
}
