//! The `/api/ai-readiness` response: llms.txt, the three named crawlers, semantic HTML,
//! and a 0..100 score from the fixed point table [`READINESS_POINTS`].

use audit_core::Page;
use serde::Serialize;

use crate::bots::{ai_crawlers, class_summary, BotAccess, ClassSummary, CrawlerVerdict, RobotsTxtReport};
use crate::llms::{LlmsTxt, LlmsTxtReport};
use crate::robots::Robots;
use crate::semantic::SemanticHtml;
use crate::signals::ContentSignalReport;

/// What a readiness item looks at.
struct Facts<'a> {
    llms: &'a LlmsTxtReport,
    robots: &'a RobotsTxtReport,
    semantic: &'a SemanticHtml,
}

/// One item of the readiness score.
#[derive(Clone, Copy)]
pub struct ReadinessItem {
    /// Stable kebab-case id.
    pub id: &'static str,
    /// Points it earns when it passes.
    pub points: u8,
    /// What earns them, as documented in `docs/AI-VISIBILITY.md`.
    pub earns: &'static str,
    /// The recommendation given when it fails.
    pub recommendation: &'static str,
    pass: fn(&Facts) -> bool,
}

impl std::fmt::Debug for ReadinessItem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReadinessItem").field("id", &self.id).field("points", &self.points).finish()
    }
}

const fn item(
    id: &'static str,
    points: u8,
    earns: &'static str,
    recommendation: &'static str,
    pass: fn(&Facts) -> bool,
) -> ReadinessItem {
    ReadinessItem { id, points, earns, recommendation, pass }
}

fn named_allowed(f: &Facts, name: &str) -> bool {
    f.robots.ai_bots.iter().any(|a| a.bot == name && !a.blocked)
}

/// The readiness score table; the points sum to 100.
pub const READINESS_POINTS: &[ReadinessItem] = &[
    item(
        "llms-present",
        15,
        "the site serves `/llms.txt`",
        "Publish an llms.txt at the site root (https://llmstxt.org) with a # title, a > summary and ## sections of links to your key pages.",
        |f| f.llms.present,
    ),
    item(
        "llms-valid",
        15,
        "the llms.txt has no error-level issue",
        "Fix the error-level issues listed under llms_txt.issues so assistants can use the file.",
        |f| f.llms.valid,
    ),
    item(
        "gptbot-allowed",
        10,
        "robots.txt lets GPTBot fetch the page",
        "Allow GPTBot in robots.txt (remove the Disallow that blocks it) if you want ChatGPT to know the page.",
        |f| named_allowed(f, "GPTBot"),
    ),
    item(
        "claudebot-allowed",
        10,
        "robots.txt lets ClaudeBot fetch the page",
        "Allow ClaudeBot in robots.txt if you want Claude to know the page.",
        |f| named_allowed(f, "ClaudeBot"),
    ),
    item(
        "perplexitybot-allowed",
        10,
        "robots.txt lets PerplexityBot fetch the page",
        "Allow PerplexityBot in robots.txt: Perplexity cites only pages it may crawl.",
        |f| named_allowed(f, "PerplexityBot"),
    ),
    item(
        "main",
        8,
        "a `<main>` element",
        "Wrap the page's primary content in a <main> element so readers can tell it from navigation and boilerplate.",
        |f| f.semantic.main,
    ),
    item(
        "article",
        6,
        "an `<article>` element",
        "Wrap self-contained content (a post, a product, a guide) in an <article> element.",
        |f| f.semantic.article,
    ),
    item("header", 6, "a `<header>` element", "Put the site or page header in a <header> element.", |f| f.semantic.header),
    item("nav", 6, "a `<nav>` element", "Put the main navigation in a <nav> element.", |f| f.semantic.nav),
    item("footer", 4, "a `<footer>` element", "Put the site footer (contact, legal links) in a <footer> element.", |f| {
        f.semantic.footer
    }),
    item(
        "heading-hierarchy",
        10,
        "one `h1`, first among the headings, no skipped levels, no empty heading",
        "Fix the heading outline: one h1 first, then h2, h3 ... without skipping levels (see semantic_html.heading_hierarchy.issues).",
        |f| f.semantic.heading_hierarchy.valid,
    ),
];

/// The `/api/ai-readiness` response body (docs/API.md, "POST /api/ai-readiness").
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(deny_unknown_fields))]
pub struct AiReadiness {
    /// Always `true`: a readiness check of a fetched page cannot fail.
    #[cfg_attr(feature = "schema", schemars(extend("const" = true)))]
    pub ok: bool,
    /// The checked URL.
    pub url: String,
    /// `0..=100`, the sum of the [`READINESS_POINTS`] items that pass.
    #[cfg_attr(feature = "schema", schemars(range(max = 100)))]
    pub score: u8,
    /// The llms.txt report.
    pub llms_txt: LlmsTxtReport,
    /// GPTBot, ClaudeBot and PerplexityBot (the [`crate::NAMED_BOTS`]) under robots.txt.
    pub robots_txt: RobotsTxtReport,
    /// Landmarks and heading outline.
    pub semantic_html: SemanticHtml,
    /// One concrete recommendation per failed item, biggest first.
    #[cfg_attr(feature = "schema", schemars(inner(length(min = 1))))]
    pub recommendations: Vec<String>,
    /// GPTBot, ClaudeBot and PerplexityBot (as in `robots_txt.ai_bots`), each with its
    /// verdict and the robots.txt group and line that decided it (additive; docs/API.md,
    /// "POST /api/ai-readiness").
    #[cfg_attr(feature = "schema", schemars(length(min = 3, max = 3)))]
    pub crawlers: Vec<CrawlerVerdict>,
    /// Every crawler of the AI crawler registry, in table order, judged as `crawlers` judges
    /// the three (additive; docs/API.md, "POST /api/ai-readiness").
    #[cfg_attr(feature = "schema", schemars(length(min = crate::AI_BOTS.len(), max = crate::AI_BOTS.len())))]
    pub ai_crawlers: Vec<CrawlerVerdict>,
    /// Per purpose class of `ai_crawlers`: how many, how many blocked, how many of those
    /// ignore robots.txt anyway (additive).
    #[cfg_attr(feature = "schema", schemars(length(min = 7, max = 7)))]
    pub crawler_classes: Vec<ClassSummary>,
    /// The robots.txt `Content-Signal:` lines, per group, explained (additive).
    pub content_signals: ContentSignalReport,
    /// What agents meet beyond robots.txt: llms-full.txt, the discovery documents, markdown
    /// on request and what the server answers the main AI crawlers (additive; `None` when
    /// the caller did not probe the site: the pure engine fetches nothing).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agents: Option<crate::agents::AgentReport>,
}

/// Builds the AI-readiness response for `url` (the page as fetched in `page`).
///
/// `llms` is where llms.txt was looked for and the body served there (`None` for the
/// body when there was none; `None` altogether when it was not looked for, in which
/// case `<origin>/llms.txt` is reported absent). `robots` is the site's robots.txt
/// (`None` when absent: every crawler is allowed). Access is judged for the page's URL.
pub fn ai_readiness(
    url: &str,
    page: &Page,
    llms: Option<(&str, Option<&str>)>,
    robots: Option<&Robots>,
) -> AiReadiness {
    let llms_txt = match llms {
        Some((at, Some(body))) => LlmsTxt::parse(body).report(at),
        Some((at, None)) => LlmsTxtReport::absent(at),
        None => LlmsTxtReport::absent(&default_llms_url(&page.final_url)),
    };
    let full = RobotsTxtReport::new(robots, &page.final_url);
    let ai_bots: Vec<BotAccess> = full.named().cloned().collect();
    let robots_txt = RobotsTxtReport {
        present: full.present,
        unreachable: full.unreachable.clone(),
        blocked_count: ai_bots.iter().filter(|a| a.blocked).count(),
        ai_bots,
    };
    let all_crawlers = ai_crawlers(robots, &page.final_url);
    let crawlers: Vec<CrawlerVerdict> =
        all_crawlers.iter().filter(|c| crate::NAMED_BOTS.contains(&c.bot)).cloned().collect();
    let crawler_classes = class_summary(&all_crawlers);
    let semantic_html = SemanticHtml::from_page(page);
    let facts = Facts { llms: &llms_txt, robots: &robots_txt, semantic: &semantic_html };
    let mut score = 0u8;
    let mut failed: Vec<&ReadinessItem> = Vec::new();
    for it in READINESS_POINTS {
        if (it.pass)(&facts) {
            score += it.points;
        } else {
            failed.push(it);
        }
    }
    // An absent llms.txt fails both llms items; one recommendation says it all.
    if !llms_txt.present {
        failed.retain(|it| it.id != "llms-valid");
    }
    failed.sort_by_key(|it| std::cmp::Reverse(it.points));
    let mut recommendations: Vec<String> = Vec::new();
    // A robots.txt that cannot be read shuts out every crawler: the one fix is to make it
    // answer, not to allow each crawler in a file nobody can read.
    if let Some(reason) = &robots_txt.unreachable {
        failed.retain(|it| !it.id.ends_with("bot-allowed"));
        recommendations.push(format!(
            "Make /robots.txt answer (it fails: {reason}). Crawlers treat a robots.txt that answers a server error \
             or not at all as a complete disallow (RFC 9309), so no AI crawler may fetch the site; serve the file, \
             or a 404 if there is none."
        ));
    }
    recommendations.extend(failed.into_iter().map(|it| it.recommendation.to_owned()));
    let content_signals = ContentSignalReport::new(robots);
    // `search=no` keeps the site out of search and AI answers; `ai-train=no` is a choice and
    // earns no recommendation.
    if content_signals.denies_search() {
        recommendations.push(
            "Remove `search=no` from the robots.txt Content-Signal line (keep `ai-train=no` if you wish): it asks \
             search engines, AI search included, not to index or cite the site."
                .to_owned(),
        );
    }
    // Only a group naming the crawler shows the owner meant to stop it; a blanket `*` block
    // would name every such crawler on every site that has one.
    let named_group = |c: &&CrawlerVerdict| {
        c.group
            .as_deref()
            .is_some_and(|g| g.lines().any(|l| !l.trim_start_matches("User-agent:").trim().starts_with('*')))
    };
    let ignored: Vec<&str> =
        all_crawlers.iter().filter(|c| c.disallow_ignored).filter(named_group).map(|c| c.bot).collect();
    if !ignored.is_empty() {
        recommendations.push(format!(
            "robots.txt blocks {}, which are documented to ignore robots.txt: block them at the server or CDN if the \
             block matters.",
            ignored.join(", ")
        ));
    }
    AiReadiness {
        ok: true,
        url: url.to_owned(),
        score,
        llms_txt,
        robots_txt,
        crawlers,
        semantic_html,
        recommendations,
        ai_crawlers: all_crawlers,
        crawler_classes,
        content_signals,
        agents: None,
    }
}

/// `<scheme>://<host>[:port]/llms.txt` for a page URL; the page URL itself when it does
/// not parse (the report then names what was checked).
pub fn default_llms_url(page_url: &str) -> String {
    match url::Url::parse(page_url) {
        Ok(u) if u.has_host() => u.join("/llms.txt").map(String::from).unwrap_or_else(|_| page_url.to_owned()),
        _ => page_url.to_owned(),
    }
}
