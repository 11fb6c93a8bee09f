use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct RedirectChain;

impl RedirectChain {
    /// The rule's id as a constant: the glossary has a concept of the same name
    /// (crates/app/src/glossary.rs), which takes its slug from here so that the id is
    /// written once, in this file.
    pub const ID: &'static str = META.id;
}

static META: RuleMeta = RuleMeta {
    id: "redirect-chain",
    name: "Page is reached without a chain of redirects",
    category: Category::Technical,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Low,
    confidence: 90,
    weight: 1,
    threshold: "redirect hops >= 2",
    why: "Every redirect hop costs a round trip and some crawl budget; chains dilute signals and slow the first view.",
    fail_example: "http://a → https://a → https://www.a/",
    pass_example: "one hop or none",
    reference: "https://developer.chrome.com/docs/lighthouse/seo/redirects",
    phrases: &["redirect chain", "multiple redirect", "redirect hop", "redirect loop"],
    excluded: &[],
    glossary: &["redirect-chain", "crawl-budget"],
};

impl Rule for RedirectChain {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.http.status.is_none() {
            return Outcome::NotApplicable;
        }
        let hops = page.http.redirects.len();
        if hops < 2 {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "Redirect chain",
                format!("The URL went through {hops} redirects before the page; link to the final URL directly."),
            )
            .current(format!("{hops} redirects"))
            .suggested(page.final_url.clone()),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        let url = c.url_or_todo();
        // The first address of the chain is known only from the page; without it a
        // placeholder stands in (the page's own path would redirect it to itself).
        let redirects = c.page.map(|p| p.http.redirects.as_slice()).unwrap_or_default();
        let from_path = redirects.first().and_then(|f| url::Url::parse(f).ok()).map(|u| u.path().to_string());
        let hops = if redirects.is_empty() { c.current_number() } else { Some(redirects.len() as u64) };
        let found = hops.map_or(String::new(), |n| format!("The address goes through {n} redirects now. "));
        let from_path = from_path.unwrap_or_else(|| "TODO: path of the first address of the chain".to_string());
        FixTemplate::some(
            FixKind::ServerConfig,
            Difficulty::Medium,
            format!("# nginx: one hop from the old address to the final one\nlocation = {from_path} {{\n    return 301 {url};\n}}\n\n# Apache (.htaccess)\nRedirect 301 {from_path} {url}"),
            format!("{found}Point every old address straight at the final URL in one redirect, and update internal links to the final URL."),
        )
    }
}
