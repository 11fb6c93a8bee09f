use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use super::prelude::*;
use crate::rules::{DuplicateGroup, DUPLICATE_HEAD};

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

    fn check(&self, site: &dyn CrawledSite, out: &mut Findings) -> SiteResult<()> {
        // The record keeps the first <h1> in its JSON only (no indexed column as the other
        // duplicate keys have), so the pages are streamed: counted by key first, then the
        // first members of each shared key named, then the findings given.
        let mut counts: HashMap<u64, usize> = HashMap::new();
        site.pages(&mut |page| {
            if let (true, Some(h1)) = (page.indexable(), page.h1.as_deref()) {
                *counts.entry(key(h1)).or_default() += 1;
            }
            Ok(())
        })?;
        counts.retain(|_, n| *n > 1);
        if counts.is_empty() {
            return Ok(());
        }
        let mut groups: HashMap<u64, DuplicateGroup> = HashMap::new();
        site.pages(&mut |page| {
            if let (true, Some(h1)) = (page.indexable(), page.h1.as_deref()) {
                let k = key(h1);
                if let Some(count) = counts.get(&k) {
                    let group = groups.entry(k).or_insert_with(|| DuplicateGroup { count: *count, head: Vec::new() });
                    if group.head.len() < DUPLICATE_HEAD {
                        group.head.push(page.url.clone());
                    }
                }
            }
            Ok(())
        })?;
        site.pages(&mut |page| {
            if let (true, Some(h1)) = (page.indexable(), page.h1.as_deref()) {
                if let Some(group) = groups.get(&key(h1)) {
                    let others: Vec<&str> =
                        group.head.iter().map(String::as_str).filter(|u| *u != page.url).take(3).collect();
                    let more = group.count - 1 - others.len();
                    let mut detail = format!("same <h1> \"{h1}\" as {}", others.join(", "));
                    if more > 0 {
                        detail.push_str(&format!(" and {more} more"));
                    }
                    out.push(SiteFinding { url: page.url.clone(), linked_from: None, detail });
                }
            }
            Ok(())
        })
    }
}
