//! The deterministic four-pillar AI-visibility scan (`/api/ai-visibility-scan`).
//!
//! Every point comes from one named check in [`SCAN_CHECKS`]; the pillars are each worth
//! 25 and the score is their sum. `docs/AI-VISIBILITY.md` is generated from the same
//! table ([`crate::scan_methodology_markdown`]), so the documentation cannot drift.

use audit_core::{LinkKind, Page};
use serde::Serialize;

use crate::bots::{
    ai_crawlers, class_summary, scan_check_of, BotAccess, ClassSummary, CrawlerVerdict, AI_BOTS, NAMED_BOTS,
};
use crate::entity::{brand_name, entity_nodes, entity_type, node_name, same_as};
use crate::llms::{IssueCode, LlmsTxt};
use crate::robots::{MatchedGroup, Robots};
use crate::signals::{ContentSignalReport, ANY_AGENT};

/// The version of the scan's methodology, bumped whenever a check or its points change
/// (docs/AI-VISIBILITY.md). 2: the crawler registry, and the `content-signal-search` check
/// (one point taken from `bots-no-blanket`).
pub const SCAN_VERSION: u8 = 2;
/// Points each pillar is worth.
pub const PILLAR_MAX: u8 = 25;
/// A summary counts as "near the top" when at most this many visible words come before
/// the first real paragraph (navigation and header text included).
pub const SUMMARY_WITHIN_WORDS: usize = 100;
/// Longest heading section (and longest average), in words, for a page to count as scannable.
pub const MAX_WORDS_PER_HEADING: usize = 300;
/// Words that open a question heading (English and German), compared case-insensitively.
pub const QUESTION_WORDS: &[&str] = &[
    "what", "how", "why", "when", "where", "who", "which", "can", "does", "do", "is", "are", "should", "will", "wie",
    "was", "warum", "wieso", "weshalb", "wann", "wo", "wer", "welche", "welcher", "welches", "kann", "gibt",
];

/// One of the four pillars.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pillar {
    /// The site's `/llms.txt`.
    LlmsTxt,
    /// What robots.txt lets AI crawlers fetch.
    AiBotAccess,
    /// Whether the page answers questions in a shape assistants quote.
    AnswerStructure,
    /// Whether the page says clearly who stands behind it.
    EntityClarity,
}

impl Pillar {
    /// The four pillars, in wire order.
    pub const ALL: [Pillar; 4] = [Pillar::LlmsTxt, Pillar::AiBotAccess, Pillar::AnswerStructure, Pillar::EntityClarity];

    /// The key on the wire (`llmsTxt`, ...).
    pub fn key(self) -> &'static str {
        match self {
            Pillar::LlmsTxt => "llmsTxt",
            Pillar::AiBotAccess => "aiBotAccess",
            Pillar::AnswerStructure => "answerStructure",
            Pillar::EntityClarity => "entityClarity",
        }
    }

    /// A human name for documents.
    pub fn title(self) -> &'static str {
        match self {
            Pillar::LlmsTxt => "llms.txt",
            Pillar::AiBotAccess => "AI bot access",
            Pillar::AnswerStructure => "Answer structure",
            Pillar::EntityClarity => "Entity clarity",
        }
    }
}

/// What a check looks at.
struct Input<'a> {
    page: &'a Page,
    /// The parsed llms.txt; `None` when the site serves none.
    llms: Option<LlmsTxt>,
    robots: Option<&'a Robots>,
    access: Vec<BotAccess>,
    signals: ContentSignalReport,
}

/// One scoring check: a stable id, the points it can earn and what earns them.
#[derive(Clone, Copy)]
pub struct ScanCheck {
    /// Stable kebab-case id, reported in `details[].check`.
    pub id: &'static str,
    /// The pillar it counts toward.
    pub pillar: Pillar,
    /// Most points it can earn.
    pub max: u8,
    /// What earns the points, as documented in `docs/AI-VISIBILITY.md`.
    pub earns: &'static str,
    /// The recommendation given when it earns less than `max`.
    pub recommendation: &'static str,
    points: fn(&Input) -> u8,
}

impl std::fmt::Debug for ScanCheck {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScanCheck").field("id", &self.id).field("pillar", &self.pillar).field("max", &self.max).finish()
    }
}

const fn check(
    id: &'static str,
    pillar: Pillar,
    max: u8,
    earns: &'static str,
    recommendation: &'static str,
    points: fn(&Input) -> u8,
) -> ScanCheck {
    ScanCheck { id, pillar, max, earns, recommendation, points }
}

fn all_or_nothing(max: u8, pass: bool) -> u8 {
    if pass {
        max
    } else {
        0
    }
}

/// `max` scaled by the share `n / total`, rounded; full points when there is nothing to count.
fn share(max: u8, n: usize, total: usize) -> u8 {
    if total == 0 {
        return max;
    }
    ((usize::from(max) * n * 2 + total) / (total * 2)) as u8
}

/// The llms.txt when it is a real Markdown file (an HTML error page served at the
/// address, or an empty body, is not one).
fn real_llms<'a>(i: &'a Input) -> Option<&'a LlmsTxt> {
    i.llms.as_ref().filter(|l| !l.has_issue(IssueCode::HtmlNotMarkdown) && !l.has_issue(IssueCode::EmptyFile))
}

fn llms_check(max: u8, i: &Input, pass: impl Fn(&LlmsTxt) -> bool) -> u8 {
    all_or_nothing(max, real_llms(i).is_some_and(pass))
}

/// `max` scaled by the share of the crawlers the check `check` weighs ([`scan_check_of`]
/// their class) that robots.txt lets fetch the page.
fn bots_allowed(i: &Input, check: &str, max: u8) -> u8 {
    let of_purpose: Vec<&BotAccess> = i.access.iter().filter(|a| scan_check_of(a.purpose) == Some(check)).collect();
    share(max, of_purpose.iter().filter(|a| !a.blocked).count(), of_purpose.len())
}

fn question_headings(page: &Page) -> usize {
    page.headings.iter().filter(|h| is_question(&h.text)).count()
}

/// Whether a heading asks a question: it ends with `?` or opens with a question word.
pub fn is_question(text: &str) -> bool {
    let t = text.trim();
    if t.ends_with('?') || t.starts_with('¿') {
        return true;
    }
    let first = t.split(|c: char| !c.is_alphanumeric()).next().unwrap_or("").to_lowercase();
    QUESTION_WORDS.contains(&first.as_str())
}

fn has_faq_markup(page: &Page) -> bool {
    let faq = |t: &str| {
        let t = crate::entity::short_type(t);
        t.eq_ignore_ascii_case("FAQPage") || t.eq_ignore_ascii_case("QAPage")
    };
    page.json_ld.iter().flat_map(|b| &b.types).any(|t| faq(t)) || page.microdata_types.iter().any(|t| faq(t))
}

fn scannable(page: &Page) -> bool {
    let subheadings = page.headings.iter().filter(|h| h.level >= 2).count();
    if subheadings < 2 {
        return false;
    }
    let words: usize = page.headings.iter().map(|h| h.section_words).sum();
    // The last section runs into the footer, so only the average limits it.
    let inner = &page.headings[..page.headings.len() - 1];
    words / page.headings.len() <= MAX_WORDS_PER_HEADING
        && inner.iter().all(|h| h.section_words <= MAX_WORDS_PER_HEADING)
}

/// Whether `haystack` contains `needle`, case-insensitively.
fn contains_ci(haystack: &str, needle: &str) -> bool {
    haystack.to_lowercase().contains(&needle.to_lowercase())
}

fn brand_consistent(page: &Page) -> bool {
    let Some(brand) = brand_name(page) else { return false };
    let mut names: Vec<String> = entity_nodes(page).into_iter().filter_map(node_name).map(str::to_owned).collect();
    names.extend(page.og.get("og:site_name").cloned());
    let agrees = |n: &String| contains_ci(n, &brand) || contains_ci(&brand, n);
    contains_ci(&page.title, &brand) && names.iter().all(agrees)
}

const ABOUT_WORDS: &[&str] =
    &["about", "ueber-uns", "uber-uns", "über-uns", "über uns", "team", "company", "unternehmen", "who-we-are"];
const CONTACT_WORDS: &[&str] = &["contact", "kontakt", "impressum", "imprint"];

fn links_to(page: &Page, words: &[&str]) -> bool {
    page.links.iter().filter(|l| l.kind == LinkKind::Web && l.internal).any(|l| {
        let path =
            l.url.as_deref().and_then(|u| url::Url::parse(u).ok()).map(|u| u.path().to_lowercase()).unwrap_or_default();
        let text = l.text.to_lowercase();
        words.iter().any(|w| path.contains(w) || text.contains(w))
    })
}

use Pillar::{AiBotAccess, AnswerStructure, EntityClarity, LlmsTxt as Llms};

/// Every check of the scan, by pillar. Each pillar's `max` values sum to [`PILLAR_MAX`].
pub const SCAN_CHECKS: &[ScanCheck] = &[
    check(
        "llms-present",
        Llms,
        5,
        "`/llms.txt` answers with a non-empty Markdown file (an HTML page served at that address does not count)",
        "Publish an llms.txt at the site root (https://llmstxt.org): a Markdown file that tells AI assistants what the site is and where its key pages are.",
        |i| all_or_nothing(5, real_llms(i).is_some()),
    ),
    check(
        "llms-title",
        Llms,
        4,
        "the llms.txt opens with exactly one `# H1` title",
        "Give the llms.txt exactly one `# Title` line naming the site or project.",
        |i| llms_check(4, i, |l| l.title.is_some() && !l.has_issue(IssueCode::MultipleH1)),
    ),
    check(
        "llms-summary",
        Llms,
        4,
        "a `> blockquote` summary follows the title",
        "Add a one-paragraph `> summary` blockquote under the llms.txt title: it is what an assistant quotes first.",
        |i| llms_check(4, i, |l| l.summary.is_some()),
    ),
    check(
        "llms-sections",
        Llms,
        5,
        "at least one `## H2` section, and every section lists at least one link",
        "Group the llms.txt links under `## Section` headings (Docs, Products, Optional ...), each a list of `- [name](url): notes` items.",
        |i| llms_check(5, i, |l| !l.sections.is_empty() && !l.has_issue(IssueCode::SectionWithoutLinks)),
    ),
    check(
        "llms-absolute-links",
        Llms,
        3,
        "the llms.txt has links, all absolute and well-formed",
        "Write every llms.txt link as an absolute https:// URL; relative links cannot be followed by a reader that only has the file.",
        |i| {
            llms_check(3, i, |l| {
                l.links().next().is_some() && !l.has_issue(IssueCode::RelativeLink) && !l.has_issue(IssueCode::BrokenLink)
            })
        },
    ),
    check(
        "llms-valid",
        Llms,
        4,
        "the llms.txt has no error-level issue (see the `llms_txt.issues` of `/api/ai-readiness`)",
        "Fix the error-level problems of the llms.txt reported by /api/ai-readiness (missing title, sections without links, broken links).",
        |i| llms_check(4, i, LlmsTxt::valid),
    ),
    check(
        "bots-search",
        AiBotAccess,
        8,
        "share of the crawlers of class `search` (PerplexityBot, OAI-SearchBot, Claude-SearchBot, ...) that robots.txt lets fetch the page, times 8, rounded",
        "Allow the AI search crawlers (OAI-SearchBot, PerplexityBot, Claude-SearchBot, ...) in robots.txt: blocking them keeps the site out of AI answers and their citations.",
        |i| bots_allowed(i, "bots-search", 8),
    ),
    check(
        "bots-user-fetch",
        AiBotAccess,
        7,
        "share of the crawlers that fetch for a person, classes `user_fetch`, `agent` and `coding_agent` (ChatGPT-User, Claude-User, Perplexity-User, ChatGPT Agent, Claude-Code, ...), allowed, times 7, rounded",
        "Allow the user-triggered AI fetchers (ChatGPT-User, Claude-User, Perplexity-User, ...) in robots.txt: they fetch a page only when a person asks an assistant about it.",
        |i| bots_allowed(i, "bots-user-fetch", 7),
    ),
    check(
        "bots-training",
        AiBotAccess,
        4,
        "share of the crawlers of class `training` (GPTBot, ClaudeBot, CCBot, Google-Extended, ...) allowed, times 4, rounded; weighs least because blocking training is a legitimate choice (classes `scraper` and `unknown` weigh nothing)",
        "Consider allowing training crawlers (GPTBot, ClaudeBot, Google-Extended, CCBot): models learn about brands from what they were trained on.",
        |i| bots_allowed(i, "bots-training", 4),
    ),
    check(
        "bots-named",
        AiBotAccess,
        3,
        "one point for each of GPTBot, ClaudeBot and PerplexityBot allowed",
        "Allow GPTBot, ClaudeBot and PerplexityBot, the three crawlers the AI-readiness check names.",
        |i| NAMED_BOTS.iter().filter(|n| i.access.iter().any(|a| a.bot == **n && !a.blocked)).count() as u8,
    ),
    check(
        "bots-no-blanket",
        AiBotAccess,
        2,
        "the `User-agent: *` group does not disallow the page for every crawler (no robots.txt passes)",
        "Remove the blanket `User-agent: *` / `Disallow: /` from robots.txt, or the page is closed to every crawler not named elsewhere.",
        |i| {
            let blanket = i.robots.map(|r| r.verdict(ANY_AGENT, &i.page.final_url)).is_some_and(|v| v.group == MatchedGroup::Global && !v.allowed);
            all_or_nothing(2, !blanket)
        },
    ),
    check(
        "content-signal-search",
        AiBotAccess,
        1,
        "no robots.txt `Content-Signal:` line says `search=no` to crawlers in general or to a crawler of the registry (`ai-train=no` and `ai-input=no` are choices and cost nothing)",
        "Remove `search=no` from the robots.txt Content-Signal line (keep `ai-train=no` if you wish): it asks search engines, AI search included, not to show the site.",
        |i| all_or_nothing(1, !i.signals.denies_search()),
    ),
    check(
        "question-headings",
        AnswerStructure,
        6,
        "headings phrased as questions (ending in `?` or opening with what/how/why/wie/was/warum ...): 3 points for one, 6 for two or more",
        "Phrase some headings as the questions your readers ask (\"How does X work?\") and answer each right below it.",
        |i| match question_headings(i.page) {
            0 => 0,
            1 => 3,
            _ => 6,
        },
    ),
    check(
        "lists",
        AnswerStructure,
        4,
        "at least one `<ul>` or `<ol>` list",
        "Put steps, features or key facts in a `<ul>`/`<ol>` list: assistants lift lists into answers verbatim.",
        |i| all_or_nothing(4, i.page.lists > 0),
    ),
    check(
        "tables",
        AnswerStructure,
        3,
        "at least one `<table>`",
        "Present comparisons, prices or specifications as an HTML `<table>`.",
        |i| all_or_nothing(3, i.page.tables > 0),
    ),
    check(
        "faq-markup",
        AnswerStructure,
        4,
        "`FAQPage` or `QAPage` structured data (JSON-LD or microdata)",
        "Mark up question-and-answer content with FAQPage JSON-LD.",
        |i| all_or_nothing(4, has_faq_markup(i.page)),
    ),
    check(
        "summary-first",
        AnswerStructure,
        5,
        "a paragraph of at least eight words starts within the first 100 visible words",
        "Open the page with a short paragraph that answers its main question, before menus, banners and long introductions.",
        |i| all_or_nothing(5, i.page.first_paragraph.is_some() && i.page.words_before_first_paragraph <= SUMMARY_WITHIN_WORDS),
    ),
    check(
        "heading-density",
        AnswerStructure,
        3,
        "at least two h2-h6 subheadings, no section between two headings longer than 300 words, and at most 300 words per heading on average",
        "Break long text into sections of a few hundred words, each under a descriptive subheading.",
        |i| all_or_nothing(3, scannable(i.page)),
    ),
    check(
        "entity-schema",
        EntityClarity,
        7,
        "Organization, Person or LocalBusiness (or a sub-type such as Restaurant) in JSON-LD or microdata",
        "Add Organization (or Person, or LocalBusiness) JSON-LD with name, url, logo and sameAs, so assistants know who stands behind the site.",
        |i| all_or_nothing(7, entity_type(i.page).is_some()),
    ),
    check(
        "brand-consistent",
        EntityClarity,
        5,
        "the brand name (og:site_name, else the JSON-LD entity name) appears in the title, and og:site_name and JSON-LD names agree",
        "Use one brand name everywhere: in the <title>, in og:site_name and in the JSON-LD name.",
        |i| all_or_nothing(5, brand_consistent(i.page)),
    ),
    check(
        "og-site-name",
        EntityClarity,
        3,
        "an `og:site_name` meta property",
        "Add <meta property=\"og:site_name\" content=\"Your Brand\">.",
        |i| all_or_nothing(3, i.page.og.get("og:site_name").is_some_and(|s| !s.trim().is_empty())),
    ),
    check(
        "about-contact",
        EntityClarity,
        4,
        "2 points for an internal link to an about page (about, team, company, ueber-uns ...), 2 for one to a contact page (contact, kontakt, impressum, imprint)",
        "Link to an About page and a Contact page from every page: they tell readers and assistants who runs the site.",
        |i| all_or_nothing(2, links_to(i.page, ABOUT_WORDS)) + all_or_nothing(2, links_to(i.page, CONTACT_WORDS)),
    ),
    check(
        "same-as",
        EntityClarity,
        3,
        "the JSON-LD entity lists at least one absolute `sameAs` URL (social profiles, Wikipedia, Wikidata)",
        "List the brand's official profiles (LinkedIn, Wikipedia, Wikidata, GitHub ...) as sameAs URLs in the Organization JSON-LD.",
        |i| all_or_nothing(3, !same_as(i.page).is_empty()),
    ),
    check(
        "html-lang",
        EntityClarity,
        3,
        "`<html lang>` holds a valid BCP 47 language tag",
        "Declare the page language with <html lang=\"en\"> (or the right tag).",
        |i| all_or_nothing(3, i.page.lang.as_deref().is_some_and(audit_core::text::is_valid_bcp47)),
    ),
];

/// The points one check earned.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "ScanCheckResult", deny_unknown_fields))]
pub struct CheckResult {
    /// The check's id.
    #[cfg_attr(feature = "schema", schemars(regex(pattern = r"^[a-z0-9]+(-[a-z0-9]+)*$")))]
    pub check: &'static str,
    /// Points earned.
    #[cfg_attr(feature = "schema", schemars(range(max = 25)))]
    pub points: u8,
    /// Points it can earn.
    #[cfg_attr(feature = "schema", schemars(range(min = 1, max = 25)))]
    pub max: u8,
    /// Whether it earned all of them.
    pub passed: bool,
}

/// The four pillar scores, each `0..=25`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(deny_unknown_fields))]
#[serde(rename_all = "camelCase")]
pub struct Pillars {
    /// llms.txt.
    #[cfg_attr(feature = "schema", schemars(range(max = 25)))]
    pub llms_txt: u8,
    /// AI bot access.
    #[cfg_attr(feature = "schema", schemars(range(max = 25)))]
    pub ai_bot_access: u8,
    /// Answer structure.
    #[cfg_attr(feature = "schema", schemars(range(max = 25)))]
    pub answer_structure: u8,
    /// Entity clarity.
    #[cfg_attr(feature = "schema", schemars(range(max = 25)))]
    pub entity_clarity: u8,
}

/// What earned each pillar's points, check by check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(deny_unknown_fields))]
#[serde(rename_all = "camelCase")]
pub struct ScanDetails {
    /// llms.txt checks.
    pub llms_txt: Vec<CheckResult>,
    /// AI bot access checks.
    pub ai_bot_access: Vec<CheckResult>,
    /// Answer structure checks.
    pub answer_structure: Vec<CheckResult>,
    /// Entity clarity checks.
    pub entity_clarity: Vec<CheckResult>,
}

/// The `/api/ai-visibility-scan` response body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(deny_unknown_fields))]
pub struct AiVisibilityScan {
    /// Always `true`: a scan of a fetched page cannot fail.
    #[cfg_attr(feature = "schema", schemars(extend("const" = true)))]
    pub ok: bool,
    /// Sum of the pillars, `0..=100`.
    #[cfg_attr(feature = "schema", schemars(range(max = 100)))]
    pub score: u8,
    /// The version of the methodology ([`SCAN_VERSION`], additive).
    pub version: u8,
    /// The pillar scores.
    pub pillars: Pillars,
    /// One recommendation per check that fell short, biggest loss first.
    #[cfg_attr(feature = "schema", schemars(inner(length(min = 1))))]
    pub recommendations: Vec<String>,
    /// What earned each point (an additive field of the documented shape).
    pub details: ScanDetails,
    /// Every crawler of the AI bot table the `aiBotAccess` checks judged, in table order,
    /// with its verdict and the robots.txt group and line that decided it (additive).
    #[cfg_attr(feature = "schema", schemars(length(min = AI_BOTS.len(), max = AI_BOTS.len())))]
    pub crawlers: Vec<CrawlerVerdict>,
    /// Per purpose class of `crawlers`: how many, how many blocked, how many of those
    /// ignore robots.txt anyway, and the check that weighs the class (additive).
    #[cfg_attr(feature = "schema", schemars(length(min = 7, max = 7)))]
    pub crawler_classes: Vec<ClassSummary>,
    /// The robots.txt `Content-Signal:` lines, per group, explained (additive).
    pub content_signals: ContentSignalReport,
}

/// Scans a page. `llms_txt` is the body served at `/llms.txt` (`None` when there is
/// none), `robots` the site's robots.txt (`None` when there is none: everything is
/// allowed then). Bot access is judged for the page's own URL.
pub fn ai_visibility_scan(page: &Page, llms_txt: Option<&str>, robots: Option<&Robots>) -> AiVisibilityScan {
    let crawlers = ai_crawlers(robots, &page.final_url);
    let access = crawlers.iter().map(CrawlerVerdict::access).collect();
    let input =
        Input { page, llms: llms_txt.map(LlmsTxt::parse), robots, access, signals: ContentSignalReport::new(robots) };
    debug_assert_eq!(input.access.len(), AI_BOTS.len());
    let mut details = ScanDetails {
        llms_txt: Vec::new(),
        ai_bot_access: Vec::new(),
        answer_structure: Vec::new(),
        entity_clarity: Vec::new(),
    };
    let mut shortfalls: Vec<(u8, &'static str)> = Vec::new();
    for c in SCAN_CHECKS {
        let points = (c.points)(&input).min(c.max);
        if points < c.max {
            shortfalls.push((c.max - points, c.recommendation));
        }
        let result = CheckResult { check: c.id, points, max: c.max, passed: points == c.max };
        match c.pillar {
            Pillar::LlmsTxt => details.llms_txt.push(result),
            Pillar::AiBotAccess => details.ai_bot_access.push(result),
            Pillar::AnswerStructure => details.answer_structure.push(result),
            Pillar::EntityClarity => details.entity_clarity.push(result),
        }
    }
    // Stable sort: equal losses keep table order.
    shortfalls.sort_by_key(|s| std::cmp::Reverse(s.0));
    let sum = |v: &[CheckResult]| v.iter().map(|r| r.points).sum::<u8>();
    let pillars = Pillars {
        llms_txt: sum(&details.llms_txt),
        ai_bot_access: sum(&details.ai_bot_access),
        answer_structure: sum(&details.answer_structure),
        entity_clarity: sum(&details.entity_clarity),
    };
    AiVisibilityScan {
        ok: true,
        score: pillars.llms_txt + pillars.ai_bot_access + pillars.answer_structure + pillars.entity_clarity,
        version: SCAN_VERSION,
        pillars,
        recommendations: shortfalls.into_iter().map(|(_, r)| r.to_owned()).collect(),
        details,
        crawler_classes: class_summary(&crawlers),
        crawlers,
        content_signals: input.signals,
    }
}
