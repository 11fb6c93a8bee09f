use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct NotHttps;

static META: RuleMeta = RuleMeta {
    id: "not-https",
    name: "Page is served over HTTPS",
    category: Category::Technical,
    severity: Severity::Warning,
    impact: Level::High,
    effort: Level::Medium,
    confidence: 100,
    weight: 2,
    threshold: "scheme is http",
    why: "HTTPS is a ranking signal and browsers mark plain-HTTP pages as not secure.",
    fail_example: "http://example.com/",
    pass_example: "https://example.com/",
    reference: "https://developers.google.com/search/docs/appearance/page-experience",
    phrases: &["missing https", "not https", "insecure http", "plain http", "http https redirect"],
    excluded: &["mixed", "resource", "subresource", "content", "hsts", "strict"],
    glossary: &["https"],
};

impl Rule for NotHttps {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let Some(url) = page.parsed_url() else { return Outcome::NotApplicable };
        if url.scheme() != "http" {
            return Outcome::Pass;
        }
        let mut https = url.clone();
        let _ = https.set_scheme("https");
        Outcome::Fail(
            Finding::new(
                "Page is not served over HTTPS",
                "The page is served over plain HTTP; serve it over HTTPS and redirect HTTP to it.",
            )
            .current(page.final_url.clone())
            .suggested(String::from(https)),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        let host = if c.known_url { c.host() } else { "TODO: your domain, e.g. www.your-site.com".to_string() };
        FixTemplate::some(
            FixKind::ServerConfig,
            Difficulty::Medium,
            format!(
                "# nginx: redirect all HTTP requests to HTTPS\nserver {{\n    listen 80;\n    server_name {host};\n    return 301 https://$host$request_uri;\n}}\n\n# in the HTTPS server block\nadd_header Strict-Transport-Security \"max-age=31536000; includeSubDomains\" always;\n\n# Apache (.htaccess)\nRewriteEngine On\nRewriteCond %{{HTTPS}} off\nRewriteRule ^ https://%{{HTTP_HOST}}%{{REQUEST_URI}} [L,R=301]"
            ),
            "Serve the site over HTTPS (a free certificate from Let's Encrypt works), redirect HTTP permanently, and send HSTS once HTTPS works everywhere.",
        )
    }
}
