//! The facts the engine works on, merged from the request body and the fetched page.

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
        }
    }

    /// The page as a competitor: only its headings below h1 matter.
    pub fn section_headings(&self) -> impl Iterator<Item = &HeadingFact> {
        self.headings.iter().filter(|h| h.level != Some(1))
    }
}
