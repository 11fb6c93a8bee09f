use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use super::prelude::*;
use crate::rules::DuplicateGroup;

/// The rule: its text is `META`, its check is below.
#[derive(Debug, Clone, Copy)]
pub struct DuplicateH1;

static META: SiteRuleMeta = SiteRuleMeta {
    id: "duplicate-h1",
    name: "Each page has its own main heading",
    severity: Severity::Notice,
    threshold: "two or more indexable pages have the same first <h1> (white space collapsed)",
    why: "The main heading tells readers and search engines what sets a page apart; pages with the same one look \
          alike and compete for the same searches.",
    fail_example: "/oak-chair and /pine-chair both have the heading \"Chairs\"",
    pass_example: "each page's heading names what it is about (\"Oak chair\", \"Pine chair\")",
    reference: "https://developers.google.com/search/docs/appearance/title-link",
    phrases: &[],
    excluded: &[],
    glossary: &["h1-heading", super::DuplicateContent::ID],
};

/// A fixed-size key of a heading (SipHash-1-3, zero keys): the rule holds one per page, not
/// the headings' text.
fn key(h1: &str) -> u64 {
    let mut hasher = siphasher::sip::SipHasher13::new_with_keys(0, 0);
    h1.hash(&mut hasher);
    hasher.finish()
}

impl SiteRule for DuplicateH1 {
    fn meta(&self) -> &'static SiteRuleMeta {
        &META
    }

    fn scan<'s>(&'s self, site: &'s dyn CrawledSite, _: &mut Findings) -> ScanResult<'s> {
        let passes = Passes { site, pass: 0, keys: Vec::new(), counts: HashMap::new(), groups: HashMap::new() };
        Ok(Some(Box::new(passes)))
    }
}

/// Three passes over the pages: each `<h1>`'s hash kept, then the first pages of each shared
/// one named, then the findings. What is held is 8 bytes a page with a heading until the
/// hashes are counted (sorted: a map of every distinct heading took four times that), then
/// grows with the shared headings only.
struct Passes<'s> {
    /// The crawl, for [`super::one_page_note`].
    site: &'s dyn CrawledSite,
    pass: u8,
    keys: Vec<u64>,
    counts: HashMap<u64, usize>,
    groups: HashMap<u64, DuplicateGroup>,
}

impl Scan for Passes<'_> {
    fn page(&mut self, page: &CrawledPage, out: &mut Findings) -> SiteResult<()> {
        let (true, Some(h1)) = (page.indexable(), page.h1.as_deref()) else { return Ok(()) };
        let k = key(h1);
        match self.pass {
            0 => self.keys.push(k),
            1 => {
                if let Some(count) = self.counts.get(&k) {
                    let group =
                        self.groups.entry(k).or_insert_with(|| DuplicateGroup { count: *count, head: Vec::new() });
                    group.offer(&page.url);
                }
            }
            _ => {
                if let Some(group) = self.groups.get(&k) {
                    let note = super::one_page_note(self.site, &page.url, group)?;
                    let detail = format!("same <h1> \"{h1}\" as {}{note}", group.others_than(&page.url));
                    out.push(SiteFinding { url: page.url.clone(), linked_from: None, detail });
                }
            }
        }
        Ok(())
    }

    fn end(&mut self, _: &mut Findings) -> SiteResult<Next> {
        self.pass += 1;
        if self.pass == 1 {
            let mut keys = std::mem::take(&mut self.keys);
            keys.sort_unstable();
            self.counts =
                keys.chunk_by(|a, b| a == b).filter(|run| run.len() > 1).map(|run| (run[0], run.len())).collect();
        }
        Ok(if self.pass < 3 && !self.counts.is_empty() { Next::ReadAgain } else { Next::Done })
    }
}
