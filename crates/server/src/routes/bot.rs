//! `GET /bot`: the page the user agent `SeoAuditBot/<version> (+<base_url>/bot)` points to
//! (docs/API.md, "GET /bot"). Rendering is [`pages::bot`]'s, from this instance's settings;
//! this sets status and headers: those of the landing page (HTML,
//! [`pages::HTML_SECURITY_HEADERS`], `no-cache`).
//!
//! Like the landing page it needs no key, consumes no quota and has no flood guard: it is a
//! fixed page with no lookup behind it, and a webmaster asking who is fetching their site
//! should not meet a 429.

use http::StatusCode;
use pages::bot::{render_bot_page, BotFacts};

use crate::ctx::Ctx;
use crate::error::ApiError;
use crate::routes::web::{html, PAGE_CACHE_CONTROL};

/// `GET /bot`.
pub async fn get(ctx: Ctx) -> Result<crate::Response, ApiError> {
    Ok(html(StatusCode::OK, render_bot_page(&facts(&ctx.state.config)), PAGE_CACHE_CONTROL))
}

/// What the page says about the bot of a server running with `server`.
fn facts(server: &crate::Config) -> BotFacts {
    let badge_audits = !server.badge_audit_url.trim().is_empty();
    app::monitors::bot_facts(&server.fetch_config(), server.monitor_interval_s, badge_audits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_bot_is_described_with_the_documented_limits() {
        let config = crate::Config { base_url: "https://audit.example".into(), ..crate::Config::default() };
        let page = render_bot_page(&facts(&config));
        let ua = format!("SeoAuditBot/{} (+https://audit.example/bot)", env!("CARGO_PKG_VERSION"));
        assert!(page.contains(&format!("<code>{ua}</code>")), "{page}");
        for text in [
            "5 s to connect, 15 s in all",
            "At most 5 MiB of a page",
            "At most 5 redirects",
            "5 s and 500 KiB each",
            "User-agent: SeoAuditBot\nDisallow: /",
            "checked again every day",
            "at most once every 10 minutes per domain",
            "<code>SeoAuditBot</code>",
            // A site crawl follows links within the site and obeys robots.txt: the page
            // must not tell webmasters it never crawls.
            "Site crawls obey robots.txt.",
            "follows the links it finds on that site's own pages",
            "at most 4 requests in flight",
            "up to 30 s",
            "This stops site crawls and scheduled monitoring",
        ] {
            assert!(page.contains(text), "missing {text:?}");
        }
        assert!(!page.contains("does not crawl"), "{page}");
        assert!(!page.contains("It never follows the links"), "{page}");
        assert!(!page.contains("<script"), "no script");
        assert!(!page.contains("src="), "no external or embedded asset");
    }

    #[test]
    fn configured_values_are_escaped() {
        let config = crate::Config {
            base_url: "https://a.example/<x>\"".into(),
            monitor_interval_s: 60,
            badge_audit_url: String::new(),
            ..crate::Config::default()
        };
        let page = render_bot_page(&facts(&config));
        assert!(!page.contains("<x>"), "{page}");
        assert!(page.contains("https://a.example/&lt;x&gt;&quot;"), "{page}");
        assert!(page.contains("every 60 seconds"));
        assert!(!page.contains("score badge"), "background audits are off");
    }
}
