//! Fix-only units: fixes for issues that no audit rule reports (the AI-readiness check,
//! security headers), each with its id, its text and its phrases, as a rule carries them in
//! its `RuleMeta`. Issues reach them by id or by text, as they reach the rules' fixes.

use std::sync::OnceLock;

use audit_core::fix::{attr, cut, Difficulty, FixCtx, FixKind, FixTemplate, Given};
use audit_core::RULES;
use crawl::rules::{SiteRule, SITE_RULES};

/// A fix that no audit rule reports.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct FixOnly {
    /// Stable kebab-case id, as a rule id.
    pub id: &'static str,
    /// The issue it fixes, as `<name>: <what is wrong>`; the part before `:` is the fix's
    /// issue title.
    pub description: &'static str,
    /// How issue titles name the problem (see `RuleMeta::phrases`).
    pub phrases: &'static [&'static str],
    /// Words that, in such a title, mean another problem.
    pub excluded: &'static [&'static str],
    /// The fix, from the page context and what the issue said (its text names a crawler).
    pub fix: fn(&FixCtx, &str) -> Option<FixTemplate>,
}

/// Every fix-only unit, after the rules' fixes in matching order.
pub static EXTRA_TEMPLATES: &[FixOnly] = &[
    FixOnly {
        id: "ai-crawler-blocked",
        description: "AI crawler blocked by robots.txt: GPTBot, ClaudeBot or PerplexityBot cannot fetch the site",
        phrases: &["ai crawler", "ai bot", "ai agent block"],
        excluded: &[],
        fix: ai_crawler_blocked,
    },
    FixOnly {
        id: "llms-txt-missing",
        description: "llms.txt missing: no llms.txt file describes the site for AI assistants",
        phrases: &["llms"],
        excluded: &[],
        fix: llms_txt_missing,
    },
    FixOnly {
        id: "hsts-missing",
        description: "HSTS header missing: Strict-Transport-Security not sent",
        phrases: &["hsts", "strict transport security"],
        excluded: &[],
        fix: hsts_missing,
    },
    FixOnly {
        id: "x-robots-tag-missing",
        description: "X-Robots-Tag header missing for files that should not be indexed (PDF, feeds)",
        phrases: &["x robot tag missing", "x robot tag header missing", "x robot tag pdf"],
        excluded: &[],
        fix: x_robots_tag_missing,
    },
    FixOnly {
        id: "semantic-html-missing",
        description: "Semantic HTML landmarks missing: no main, article, header, nav or footer elements",
        phrases: &["semantic html", "semantic element", "landmark"],
        excluded: &[],
        fix: semantic_html_missing,
    },
];

/// Allow groups for the crawlers the issue names, else for the well-known AI crawlers.
fn ai_crawler_blocked(_: &FixCtx, issue_text: &str) -> Option<FixTemplate> {
    let lower = issue_text.to_lowercase();
    let mut bots: Vec<&str> = ai_visibility::AI_BOTS
        .iter()
        // The hand-checked crawlers only: the registry also holds tokens that are
        // ordinary words (`Code`, `Spider`, `Operator`).
        .filter(|b| b.curated)
        .map(|b| b.name)
        .filter(|n| lower.split(|ch: char| !(ch.is_alphanumeric() || ch == '-')).any(|w| w.eq_ignore_ascii_case(n)))
        .collect();
    if bots.is_empty() {
        bots = ai_visibility::NAMED_BOTS.to_vec();
    }
    let code: Vec<String> = bots.iter().map(|b| format!("User-agent: {b}\nAllow: /\n")).collect();
    FixTemplate::some(
        FixKind::Robots,
        Difficulty::Easy,
        code.join("\n"),
        format!("Add these groups to /robots.txt and remove any `Disallow: /` in groups naming {} so the crawler may read the site.", bots.join(", ")),
    )
}

fn llms_txt_missing(c: &FixCtx, _: &str) -> Option<FixTemplate> {
    let summary =
        c.description_or_written().unwrap_or_else(|| "TODO: what the site offers, in one sentence".to_string());
    let note =
        if summary.starts_with("TODO:") { "TODO: a short note on the page".to_string() } else { cut(&summary, 100) };
    FixTemplate::some(
        FixKind::Text,
        Difficulty::Easy,
        format!(
            "# {}\n\n> {}\n\n## Pages\n\n- [{}]({}): {}\n",
            c.site_name_or_todo(),
            summary,
            c.topic_or_todo("name of the page"),
            c.url_or_todo(),
            note
        ),
        "Save this as /llms.txt at the site root and list the pages that matter most, each with a short note.",
    )
}

fn hsts_missing(_: &FixCtx, _: &str) -> Option<FixTemplate> {
    FixTemplate::some(
        FixKind::HttpHeader,
        Difficulty::Easy,
        "Strict-Transport-Security: max-age=31536000; includeSubDomains\n\n# nginx\nadd_header Strict-Transport-Security \"max-age=31536000; includeSubDomains\" always;\n\n# Apache\nHeader always set Strict-Transport-Security \"max-age=31536000; includeSubDomains\"",
        "Send HSTS on HTTPS responses only, once every subdomain serves HTTPS; start with a short max-age if unsure.",
    )
}

fn x_robots_tag_missing(_: &FixCtx, _: &str) -> Option<FixTemplate> {
    FixTemplate::some(
        FixKind::ServerConfig,
        Difficulty::Easy,
        "# nginx: keep PDF and other documents out of the index\nlocation ~* \\.(pdf|docx?|xlsx?)$ {\n    add_header X-Robots-Tag \"noindex, nofollow\" always;\n}\n\n# Apache\n<FilesMatch \"\\.(pdf|docx?|xlsx?)$\">\n    Header set X-Robots-Tag \"noindex, nofollow\"\n</FilesMatch>",
        "Files without HTML cannot carry a robots meta tag; the X-Robots-Tag header does the same job.",
    )
}

fn semantic_html_missing(c: &FixCtx, _: &str) -> Option<FixTemplate> {
    FixTemplate::some(
        FixKind::Html,
        Difficulty::Medium,
        format!(
            "<header><nav><a href=\"/\">{}</a></nav></header>\n<main>\n<article>\n<h1>{}</h1>\n</article>\n</main>\n<footer></footer>",
            attr(&c.site_name_or_todo()),
            attr(&c.topic_or_todo("the topic of the page"))
        ),
        "Wrap the page in landmark elements so crawlers and assistive technology find the main content.",
    )
}

/// The site rules (crawl's `SITE_RULES`) that offer a fix, in table order. A site rule's `fix`
/// is optional; one that returns nothing even without a page has none, and is left out of
/// matching so that an issue naming it gets the honest generic fix rather than no fix.
pub(crate) fn site_rules_with_fix() -> &'static [&'static dyn SiteRule] {
    static WITH_FIX: OnceLock<Vec<&'static dyn SiteRule>> = OnceLock::new();
    WITH_FIX.get_or_init(|| {
        let bare = FixCtx::new(None, Given::new());
        SITE_RULES.iter().copied().filter(|r| r.fix(&bare).is_some()).collect()
    })
}

/// Every template id: the page rules' ids, then the site rules' that offer a fix, then the
/// fix-only units'.
pub fn template_ids() -> Vec<&'static str> {
    RULES
        .iter()
        .map(|r| r.meta().id)
        .chain(site_rules_with_fix().iter().map(|r| r.meta().id))
        .chain(EXTRA_TEMPLATES.iter().map(|x| x.id))
        .collect()
}

/// Renders the fix of `id`, a rule's or a fix-only unit's; `None` when there is none.
/// `issue_text` is what the issue said, used where it names something (a crawler).
pub(crate) fn render(id: &str, c: &FixCtx, issue_text: &str) -> Option<FixTemplate> {
    if let Some(rule) = RULES.iter().find(|r| r.meta().id == id) {
        return rule.fix(c);
    }
    if let Some(rule) = SITE_RULES.iter().find(|r| r.meta().id == id) {
        return rule.fix(c);
    }
    EXTRA_TEMPLATES.iter().find(|x| x.id == id).and_then(|x| (x.fix)(c, issue_text))
}
