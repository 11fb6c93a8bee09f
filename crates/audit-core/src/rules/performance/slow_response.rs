use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct SlowResponse;

static META: RuleMeta = RuleMeta {
    id: "slow-response",
    name: "Server responds within 800 ms",
    category: Category::Performance,
    severity: Severity::Warning,
    impact: Level::High,
    effort: Level::High,
    confidence: 70,
    weight: 1,
    threshold: "time to first byte > 800 ms",
    why: "A slow server delays everything else; Google recommends a TTFB under 800 ms.",
    fail_example: "a server that takes 1.5 s to answer",
    pass_example: "a server that answers in 200 ms",
    reference: "https://web.dev/articles/ttfb",
    phrases: &["slow response", "slow server", "ttfb", "time first byte", "server response time", "slow load"],
    excluded: &[],
    glossary: &["ttfb", "page-speed", "core-web-vitals", "lcp", "crawl-budget"],
};

impl Rule for SlowResponse {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let Some(ms) = page.http.ttfb_ms.or(page.http.load_time_ms) else { return Outcome::NotApplicable };
        if ms <= util::SLOW_RESPONSE_MS {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "Slow server response",
                format!("The server took {ms} ms to respond; aim for under {} ms.", util::SLOW_RESPONSE_MS),
            )
            .current(format!("{ms} ms"))
            .suggested(format!("<= {} ms", util::SLOW_RESPONSE_MS)),
        )
    }

    fn fix(&self, _: &FixCtx) -> Option<FixTemplate> {
        FixTemplate::some(
            FixKind::ServerConfig,
            Difficulty::Medium,
            "# nginx: compress and cache\ngzip on;\ngzip_types text/html text/css application/javascript application/json image/svg+xml;\n\nlocation ~* \\.(css|js|png|jpg|jpeg|webp|avif|svg|woff2)$ {\n    expires 30d;\n    add_header Cache-Control \"public, max-age=2592000, immutable\";\n}\n\n# cache rendered pages briefly at the proxy\nproxy_cache_valid 200 1m;",
            "Time to first byte over 800 ms usually comes from the application: cache rendered pages, speed up database queries, and serve from a CDN close to visitors.",
        )
    }
}
