use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct HttpStatusError;

static META: RuleMeta = RuleMeta {
    id: "http-status-error",
    name: "Page answers with a successful HTTP status",
    category: Category::Technical,
    severity: Severity::Critical,
    impact: Level::High,
    effort: Level::Medium,
    confidence: 100,
    weight: 5,
    threshold: "status >= 400",
    why: "Search engines drop pages that answer 4xx or 5xx from their index; users see an error instead of content.",
    fail_example: "a page that answers 404",
    pass_example: "a page that answers 200",
    reference: "https://developer.chrome.com/docs/lighthouse/seo/http-status-code",
    phrases: &[
        "page errcode",
        "http errcode",
        "status errcode",
        "http status error",
        "page status code",
        "page http error",
        "page return http",
        "page not found",
        "errcode not found",
        "server error page",
    ],
    excluded: &["link", "image", "resource", "redirect", "script"],
    glossary: &["http-status-code", "indexability"],
};

impl Rule for HttpStatusError {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let Some(status) = page.http.status else { return Outcome::NotApplicable };
        if status < 400 {
            return Outcome::Pass;
        }
        let kind = if status >= 500 { "server error" } else { "client error" };
        Outcome::Fail(
            Finding::new(
                format!("Page returns HTTP {status}"),
                format!("The page answered with HTTP {status} ({kind}); search engines will not index it."),
            )
            .current(status.to_string())
            .suggested("200"),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        let path = if c.known_url { c.url.path().to_string() } else { "TODO: path of this page".to_string() };
        // Stated only when known (from the page or the issue), and only an error status.
        let status = c.page.and_then(|p| p.http.status).or_else(|| c.current_status()).filter(|s| *s >= 400);
        let found = match status {
            Some(s) if s >= 500 => format!("The page answers with status {s}, a server error: fix what fails on the server (its error log says what) so the page answers 200. "),
            Some(s) => format!("The page answers with status {s}. "),
            None => String::new(),
        };
        FixTemplate::some(
            FixKind::ServerConfig,
            Difficulty::Medium,
            format!(
                "# nginx: if the page moved, send visitors and crawlers to its new address\nlocation = {path} {{\n    return 301 {NEW};\n}}\n\n# Apache (.htaccess)\nRedirect 301 {path} {NEW}",
            ),
            format!("{found}Restore the page so it answers 200, or, if it moved, redirect it permanently to the page that replaced it."),
        )
    }
}

/// Where the address that replaced a page goes: only the site owner knows it.
const NEW: &str = "TODO: full URL of the page that replaced this one";
