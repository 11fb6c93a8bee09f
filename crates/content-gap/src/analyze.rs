//! Gap analysis: which sections the page lacks, against the built-in model or competitors.

use std::collections::BTreeMap;

use audit_core::Page;
use serde::Serialize;

use crate::advice::{self, topic};
use crate::classify::{classify, structurally_covered, Classification};
use crate::facts::{Facts, HeadingFact};
use crate::model::{section, ModelSection, PageType, Section, SECTIONS};
use crate::normalize::{contains_phrase, key, tokens};

/// A section is a competitor gap only when at least this many competitors cover it.
pub const MIN_COMPETITORS_FOR_GAP: usize = 2;
/// The server fetches at most this many competitor pages (docs/API.md, "POST /api/content-gap").
pub const MAX_COMPETITORS: usize = 5;

/// What to analyse. Fields given in the request body override the facts of the fetched page.
#[derive(Debug, Clone, Default)]
pub struct GapInput<'a> {
    pub url: String,
    pub title: Option<String>,
    pub word_count: Option<usize>,
    pub headings: Option<Vec<String>>,
    pub page: Option<&'a Page>,
    /// Already-fetched competitor pages.
    pub competitors: &'a [Page],
}

/// How urgent a gap is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Priority {
    High,
    Medium,
    Low,
}

impl Priority {
    pub fn name(self) -> &'static str {
        match self {
            Priority::High => "high",
            Priority::Medium => "medium",
            Priority::Low => "low",
        }
    }

    fn from_weight(weight: u32) -> Priority {
        match weight {
            3.. => Priority::High,
            2 => Priority::Medium,
            _ => Priority::Low,
        }
    }
}

/// A missing section.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "ContentGap"))]
#[serde(rename_all = "camelCase")]
pub struct Gap {
    /// The heading to add, written for the page: its topic and the section's subject.
    pub heading: String,
    /// The section of the catalogue the gap is (`Shipping and returns`); `null` for a
    /// section competitors share that the catalogue does not know.
    pub section: Option<String>,
    pub priority: Priority,
    /// Typical length of the section in words.
    pub estimated_words: u32,
    pub reason: String,
}

/// What the gaps were measured against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Basis {
    /// The built-in model of the page type.
    Model,
    /// Sections that at least [`MIN_COMPETITORS_FOR_GAP`] competitors cover.
    Competitors,
}

/// The result; the server adds `ok` and `url`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ContentGapReport {
    pub page_type: PageType,
    /// 0..100: weighted share of the expected sections the page covers.
    #[cfg_attr(feature = "schema", schemars(range(max = 100)))]
    pub coverage: u8,
    pub gaps: Vec<Gap>,
    pub basis: Basis,
    /// Headings of the expected sections the page covers.
    pub covered: Vec<String>,
    /// Which signal decided the page type, in a sentence (`classification.reason`).
    pub page_type_reason: String,
    pub classification: Classification,
}

/// Classifies a parsed page.
pub fn classify_page(page: &Page) -> Classification {
    classify(&Facts::from_page(page))
}

fn merge(input: &GapInput) -> Facts {
    let mut facts = input.page.map(Facts::from_page).unwrap_or_default();
    if facts.url.is_empty() {
        facts.url = input.url.clone();
    }
    if let Some(title) = &input.title {
        facts.title = title.clone();
    }
    if let Some(wc) = input.word_count {
        facts.word_count = wc;
    }
    if let Some(hs) = &input.headings {
        facts.headings = hs
            .iter()
            .filter(|h| !h.trim().is_empty())
            .map(|h| HeadingFact { level: None, text: h.trim().to_string(), words: None })
            .collect();
    }
    facts
}

/// The heading of the page that covers a section, or the structure that does.
fn covering(sec: &Section, facts: &Facts, heading_tokens: &[(String, Vec<String>)]) -> Option<String> {
    let by_heading = heading_tokens.iter().find(|(_, ht)| sec.named_by(ht)).map(|(text, _)| text.clone());
    by_heading.or_else(|| structurally_covered(sec.detect, facts)).or_else(|| {
        // Links to the pages of what the site offers cover its offerings, however headed.
        let n = facts.structure.offering_links;
        (sec.key == "offerings" && n >= 3).then(|| format!("{n} links to products or services"))
    })
}

fn section_heading_tokens(facts: &Facts) -> Vec<(String, Vec<String>)> {
    facts.section_headings().map(|h| (h.text.clone(), tokens(&h.text))).collect()
}

/// Analyses a page: classification, coverage and gaps.
pub fn analyze(input: &GapInput) -> ContentGapReport {
    // Without a budget the analysis always finishes.
    analyze_within(input, &audit_core::Unlimited).unwrap_or_else(|| unreachable_report(input))
}

/// [`analyze`] within `budget`, asked between the steps of the analysis and between two
/// competitors: `None` when it ran out (its CPU time, or the caller went away). Every step
/// is linear in the headings and links of the pages (the catalogue's synonyms are
/// tokenised once, headings are counted and links grouped with hash maps), so the budget
/// is a backstop, not the bound itself.
pub fn analyze_within(input: &GapInput, budget: &dyn audit_core::Budget) -> Option<ContentGapReport> {
    let facts = merge(input);
    if budget.exhausted() {
        return None;
    }
    let classification = classify(&facts);
    if budget.exhausted() {
        return None;
    }
    let page_type = classification.page_type;
    let own = section_heading_tokens(&facts);
    let topic = topic(&facts);
    let page_type_reason = classification.reason.clone();

    if input.competitors.len() >= MIN_COMPETITORS_FOR_GAP {
        match against_competitors(page_type, &facts, &own, input.competitors, &topic, budget) {
            Err(Exhausted) => return None,
            Ok(Some((coverage, gaps, covered))) => {
                return Some(ContentGapReport {
                    page_type,
                    coverage,
                    gaps,
                    basis: Basis::Competitors,
                    covered,
                    page_type_reason,
                    classification,
                })
            }
            Ok(None) => {}
        }
    }
    if budget.exhausted() {
        return None;
    }
    let (coverage, gaps, covered) = against_model(page_type, &facts, &own, &topic);
    Some(ContentGapReport { page_type, coverage, gaps, basis: Basis::Model, covered, page_type_reason, classification })
}

/// The budget ran out.
struct Exhausted;

/// Coverage, gaps and the sections covered.
type Compared = (u8, Vec<Gap>, Vec<String>);

/// Never called: [`audit_core::Unlimited`] is never exhausted. Kept total rather than a
/// panic, the model's answer with nothing covered.
fn unreachable_report(input: &GapInput) -> ContentGapReport {
    let facts = merge(input);
    let classification = classify(&facts);
    let own = section_heading_tokens(&facts);
    let (coverage, gaps, covered) = against_model(classification.page_type, &facts, &own, &topic(&facts));
    ContentGapReport {
        page_type: classification.page_type,
        coverage,
        gaps,
        basis: Basis::Model,
        covered,
        page_type_reason: classification.reason.clone(),
        classification,
    }
}

fn percent(part: u32, whole: u32) -> u8 {
    if whole == 0 {
        return 100;
    }
    ((100 * part + whole / 2) / whole).min(100) as u8
}

fn against_model(
    t: PageType,
    facts: &Facts,
    own: &[(String, Vec<String>)],
    topic: &str,
) -> (u8, Vec<Gap>, Vec<String>) {
    let mut covered = Vec::new();
    let mut gaps = Vec::new();
    let (mut got, mut all) = (0, 0);
    for ms in t.model() {
        let Some(sec) = section(ms.key) else { continue };
        all += ms.weight;
        if covering(sec, facts, own).is_some() {
            got += ms.weight;
            covered.push(sec.heading.to_string());
        } else {
            gaps.push(model_gap(t, sec, ms, topic, facts.lang.as_deref()));
        }
    }
    // Stable sort keeps model order within a priority.
    gaps.sort_by_key(|g| g.priority);
    (percent(got, all), gaps, covered)
}

fn model_gap(t: PageType, sec: &Section, ms: &ModelSection, topic: &str, lang: Option<&str>) -> Gap {
    Gap {
        heading: advice::heading_in(lang, t, sec.key, sec.heading, topic),
        section: Some(sec.heading.to_string()),
        priority: Priority::from_weight(ms.weight),
        estimated_words: ms.words,
        reason: format!(
            "Top-ranking {} usually have a \"{}\" section (about {} words) covering {}; no heading or part of this page does.",
            t.plural(),
            sec.heading,
            ms.words,
            advice::covers(sec.key),
        ),
    }
}

/// A group of competitor headings that speak of the same thing.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Cluster {
    /// A section of the catalogue.
    Section(&'static str),
    /// Headings with the same normalised form.
    Heading(String),
}

#[derive(Default)]
struct ClusterAcc {
    /// Words per competitor (several headings of one competitor add up).
    words: BTreeMap<usize, usize>,
    /// Original heading texts, in order seen.
    texts: Vec<String>,
}

/// The catalogue section a heading is about: sections of the page's own type first, then the
/// most specific synonym (most words), then catalogue order.
fn best_section(t: PageType, heading: &[String]) -> Option<&'static Section> {
    let mut best: Option<((bool, usize, usize), &'static Section)> = None;
    for (i, sec) in SECTIONS.iter().enumerate() {
        let Some(len) = sec.synonym_tokens().iter().filter(|s| contains_phrase(heading, s)).map(Vec::len).max() else {
            continue;
        };
        let in_model = t.model().iter().any(|m| m.key == sec.key);
        let rank = (in_model, len, usize::MAX - i);
        if best.as_ref().is_none_or(|(r, _)| rank > *r) {
            best = Some((rank, sec));
        }
    }
    best.map(|(_, s)| s)
}

fn median(values: &[usize]) -> u32 {
    let mut v = values.to_vec();
    v.sort_unstable();
    match v.len() {
        0 => 0,
        n if n % 2 == 1 => v[n / 2] as u32,
        n => (v[n / 2 - 1] + v[n / 2]).div_ceil(2) as u32,
    }
}

fn against_competitors(
    t: PageType,
    facts: &Facts,
    own: &[(String, Vec<String>)],
    competitors: &[Page],
    topic: &str,
    budget: &dyn audit_core::Budget,
) -> Result<Option<Compared>, Exhausted> {
    let mut clusters: BTreeMap<Cluster, ClusterAcc> = BTreeMap::new();
    for (i, comp) in competitors.iter().enumerate() {
        if budget.exhausted() {
            return Err(Exhausted);
        }
        let cf = Facts::from_page(comp);
        for h in cf.section_headings() {
            let ht = tokens(&h.text);
            let cluster = match best_section(t, &ht) {
                Some(sec) => Cluster::Section(sec.key),
                None if !ht.is_empty() => Cluster::Heading(ht.join(" ")),
                None => continue,
            };
            let acc = clusters.entry(cluster).or_default();
            *acc.words.entry(i).or_default() += h.words.unwrap_or(0);
            acc.texts.push(h.text.clone());
        }
    }
    let total = competitors.len();
    let (mut got, mut all) = (0u32, 0u32);
    let mut gaps = Vec::new();
    let mut covered = Vec::new();
    for (cluster, acc) in &clusters {
        let n = acc.words.len();
        if n < MIN_COMPETITORS_FOR_GAP {
            continue;
        }
        all += n as u32;
        let (sec, have, model_weight) = match cluster {
            Cluster::Section(k) => {
                let Some(sec) = section(k) else { continue };
                let w = t.model().iter().find(|m| m.key == *k).map_or(0, |m| m.weight);
                (Some(sec), covering(sec, facts, own).is_some(), w)
            }
            Cluster::Heading(k) => {
                let kt: Vec<String> = k.split(' ').map(str::to_string).collect();
                let have = own.iter().any(|(text, ht)| key(text) == *k || contains_phrase(ht, &kt));
                (None, have, 0)
            }
        };
        if have {
            got += n as u32;
            covered.push(sec.map_or_else(|| most_common(&acc.texts), |s| s.heading.to_string()));
            continue;
        }
        let share = n as f64 / total as f64;
        let priority = if share >= 0.75 || (share >= 0.5 && model_weight >= 3) {
            Priority::High
        } else if share >= 0.5 || model_weight >= 2 {
            Priority::Medium
        } else {
            Priority::Low
        };
        let words: Vec<usize> = acc.words.values().copied().collect();
        let estimated_words = median(&words);
        let example = acc.texts.first().cloned().unwrap_or_default();
        let (heading, what) = match sec {
            // A competitor's own heading is concrete already; it is kept as they wrote it.
            None => (most_common(&acc.texts), String::new()),
            Some(sec) => (
                advice::heading_in(facts.lang.as_deref(), t, sec.key, sec.heading, topic),
                format!(" Such sections usually cover {}.", advice::covers(sec.key)),
            ),
        };
        gaps.push(Gap {
            heading,
            section: sec.map(|s| s.heading.to_string()),
            priority,
            estimated_words,
            reason: format!(
                "{n} of {total} competitors cover this (e.g. \"{example}\"), with a median of {estimated_words} words; the page has no such section.{what}"
            ),
        });
    }
    if all == 0 {
        return Ok(None);
    }
    gaps.sort_by(|a, b| {
        a.priority
            .cmp(&b.priority)
            .then(b.estimated_words.cmp(&a.estimated_words))
            .then_with(|| a.heading.cmp(&b.heading))
    });
    Ok(Some((percent(got, all), gaps, covered)))
}

/// The heading text used most often; the first seen wins ties. Counted in one pass (a
/// count per distinct text): comparing every text with every other was quadratic in the
/// headings competitors share.
fn most_common(texts: &[String]) -> String {
    let mut counts: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for t in texts {
        *counts.entry(t.as_str()).or_default() += 1;
    }
    let mut best: Option<(&String, usize)> = None;
    for t in texts {
        let c = counts.get(t.as_str()).copied().unwrap_or(0);
        if best.is_none_or(|(_, b)| c > b) {
            best = Some((t, c));
        }
    }
    best.map(|(t, _)| t.clone()).unwrap_or_default()
}
