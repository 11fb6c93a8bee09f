//! The facts the engine works on, merged from the request body and the fetched page.

use std::collections::{HashMap, HashSet};

use audit_core::Page;

/// A heading as the engine sees it: from a parsed page it has a level and a section length;
/// from a request body it is only text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HeadingFact {
    pub level: Option<u8>,
    pub text: String,
    pub words: Option<usize>,
}

/// Everything classification and matching read.
#[derive(Debug, Clone, Default)]
pub(crate) struct Facts {
    pub url: String,
    pub title: String,
    pub h1: String,
    pub word_count: usize,
    pub headings: Vec<HeadingFact>,
    pub json_ld_types: Vec<String>,
    pub og_type: Option<String>,
    /// An opening paragraph before the first subheading.
    pub has_intro: bool,
    /// The `lang` of the page's `<html>`, lower case.
    pub lang: Option<String>,
    /// The page's structure, when there is a parsed page (empty for a request body).
    pub structure: Structure,
}

/// What the page's markup declares and how it is built: the facts the classifier reads
/// before any word list.
#[derive(Debug, Clone, Default)]
pub(crate) struct Structure {
    /// `@type`s of the main JSON-LD items (top level, `@graph`, `mainEntity`, list
    /// elements), each with how often it occurs.
    pub json_ld_main: Vec<(String, usize)>,
    /// Microdata `itemtype`s, the schema.org name only, each with how often it occurs.
    pub microdata: Vec<(String, usize)>,
    /// A JSON-LD item names an author / a publication date / offers.
    pub ld_author: bool,
    pub ld_date: bool,
    pub ld_offers: bool,
    /// Visible text, the first words only.
    pub text: String,
    /// A link marked as the author's (`rel=author`, `/author/` in the address).
    pub author_link: bool,
    /// Subheadings (h2 to h4), and how many of them read exactly like a link of the page to
    /// another address of the site (the title of a card).
    pub subheadings: usize,
    pub linked_subheadings: usize,
    /// Distinct pages of the site's products, categories or services the page links to.
    pub offering_links: usize,
}

/// Path segments of the pages a site offers its products, categories or services on.
const OFFERING_SEGMENTS: &[&str] = &[
    "product",
    "products",
    "shop",
    "collections",
    "collection",
    "category",
    "categories",
    "p",
    "c",
    "produkt",
    "produkte",
    "kategorie",
    "sortiment",
    "services",
    "service",
    "leistungen",
];

/// Words of visible text the structural checks read.
const TEXT_WORDS: usize = 1500;

fn schema_name(t: &str) -> String {
    t.trim().trim_end_matches('/').rsplit(['/', '#', ':']).next().unwrap_or("").to_string()
}

/// Records one more `t`; [`tally`] adds the records up once all are in.
fn count(out: &mut Vec<(String, usize)>, t: String) {
    if !t.is_empty() {
        out.push((t, 1));
    }
}

/// One entry per distinct name, in the order first seen, with its count. Added up with a
/// map once: searching the list for each name was quadratic in a page's 100,000 JSON-LD
/// blocks of distinct types.
fn tally(records: Vec<(String, usize)>) -> Vec<(String, usize)> {
    let mut at: HashMap<String, usize> = HashMap::new();
    let mut out: Vec<(String, usize)> = Vec::new();
    for (name, n) in records {
        match at.get(&name) {
            Some(&i) => out[i].1 += n,
            None => {
                at.insert(name.clone(), out.len());
                out.push((name, n));
            }
        }
    }
    out
}

fn item_types(v: &serde_json::Value) -> Vec<String> {
    match v.get("@type") {
        Some(serde_json::Value::String(s)) => vec![schema_name(s)],
        Some(serde_json::Value::Array(a)) => a.iter().filter_map(|x| x.as_str()).map(schema_name).collect(),
        _ => Vec::new(),
    }
}

/// Walks the main items of a JSON-LD value (not the nested publisher, offers or related
/// products).
fn main_items(v: &serde_json::Value, depth: usize, s: &mut Structure) {
    if depth > 4 {
        return;
    }
    match v {
        serde_json::Value::Array(a) => a.iter().for_each(|x| main_items(x, depth + 1, s)),
        serde_json::Value::Object(o) => {
            for t in item_types(v) {
                count(&mut s.json_ld_main, t);
            }
            s.ld_author |= o.get("author").is_some_and(|a| !a.is_null());
            s.ld_date |= o.get("datePublished").is_some_and(|a| !a.is_null());
            s.ld_offers |= o.get("offers").is_some_and(|a| !a.is_null());
            for key in ["@graph", "mainEntity", "itemListElement", "item"] {
                if let Some(x) = o.get(key) {
                    main_items(x, depth + 1, s);
                }
            }
        }
        _ => {}
    }
}

impl Structure {
    fn from_page(page: &Page) -> Structure {
        let mut s = Structure::default();
        for v in page.json_ld.iter().filter_map(|b| b.value.as_ref()) {
            main_items(v, 0, &mut s);
        }
        for t in &page.microdata_types {
            count(&mut s.microdata, schema_name(t));
        }
        s.json_ld_main = tally(std::mem::take(&mut s.json_ld_main));
        s.microdata = tally(std::mem::take(&mut s.microdata));
        s.text = page.visible_text.split_whitespace().take(TEXT_WORDS).collect::<Vec<_>>().join(" ");
        s.author_link = page.links.iter().any(|l| {
            l.rel.iter().any(|r| r.eq_ignore_ascii_case("author"))
                || l.href.as_deref().is_some_and(|h| {
                    let h = h.to_ascii_lowercase();
                    h.contains("/author/") || h.contains("/autor/") || h.contains("/authors/")
                })
        });
        let subs: Vec<&str> =
            page.headings.iter().filter(|h| (2..=4).contains(&h.level)).map(|h| h.text.trim()).collect();
        s.subheadings = subs.len();
        // A subheading is linked when an internal link with the same text leads to another
        // page not linked by an earlier subheading. The links are grouped by text once, and
        // each text keeps a cursor past the links already used or skipped (the set of
        // targets only grows, so a link skipped once stays skipped): scanning every link for
        // every subheading was quadratic in a page's headings and links.
        let own = page.final_url.split('#').next().unwrap_or("");
        let mut by_text: HashMap<&str, (usize, Vec<&str>)> = HashMap::new();
        for l in page.links.iter().filter(|l| l.internal) {
            let Some(u) = l.url.as_deref().filter(|u| u.split('#').next() != Some(own)) else { continue };
            by_text.entry(l.text.trim()).or_default().1.push(u);
        }
        let mut targets: HashSet<&str> = HashSet::new();
        for h in subs.iter().filter(|h| !h.is_empty()) {
            let Some((cursor, urls)) = by_text.get_mut(h) else { continue };
            while let Some(u) = urls.get(*cursor) {
                *cursor += 1;
                if targets.insert(u) {
                    break;
                }
            }
        }
        s.linked_subheadings = targets.len();
        let mut offers: HashSet<&str> = HashSet::new();
        for u in page.links.iter().filter(|l| l.internal).filter_map(|l| l.url.as_deref()) {
            if offers.contains(u) {
                continue;
            }
            let on_offer = url::Url::parse(u).ok().is_some_and(|x| {
                let segs: Vec<&str> =
                    x.path_segments().map(|s| s.filter(|p| !p.is_empty()).collect()).unwrap_or_default();
                segs.len() >= 2 && OFFERING_SEGMENTS.contains(&segs[0].to_ascii_lowercase().as_str())
            });
            if on_offer {
                offers.insert(u);
            }
        }
        s.offering_links = offers.len();
        s
    }
}

/// Words before the first subheading that make an introduction.
const INTRO_MIN_WORDS: usize = 30;

impl Facts {
    pub fn from_page(page: &Page) -> Facts {
        // A section runs to the next heading of the same or a higher level, so its length
        // includes the text under its subheadings.
        let hs = &page.headings;
        let headings: Vec<HeadingFact> = hs
            .iter()
            .enumerate()
            .map(|(i, h)| {
                let nested: usize = hs[i + 1..].iter().take_while(|n| n.level > h.level).map(|n| n.section_words).sum();
                HeadingFact { level: Some(h.level), text: h.text.clone(), words: Some(h.section_words + nested) }
            })
            .collect();
        // The introduction is the text under the h1 (or before any heading) up to the first
        // subheading; a first paragraph before any subheading counts too.
        let first_sub = page.headings.iter().position(|h| h.level >= 2);
        let intro_words = match first_sub {
            Some(i) => page.headings[..i].iter().map(|h| h.section_words).sum::<usize>(),
            None => page.word_count,
        };
        Facts {
            url: page.final_url.clone(),
            title: page.title.clone(),
            h1: page.h1().to_string(),
            word_count: page.word_count,
            headings,
            json_ld_types: page.json_ld_types().into_iter().map(str::to_string).collect(),
            og_type: page.og.get("og:type").cloned(),
            has_intro: intro_words >= INTRO_MIN_WORDS,
            lang: page.lang.as_deref().map(|l| l.trim().to_ascii_lowercase()).filter(|l| !l.is_empty()),
            structure: Structure::from_page(page),
        }
    }

    /// The page as a competitor: only its headings below h1 matter.
    pub fn section_headings(&self) -> impl Iterator<Item = &HeadingFact> {
        self.headings.iter().filter(|h| h.level != Some(1))
    }
}
