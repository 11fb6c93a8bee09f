//! The audit pipeline: fetch a page and its robots.txt, turn them into page facts, run the
//! rules. Shared by the REST endpoints, the agent tools, the badge's background audits and
//! the command line, so every way in audits a page the same way.

use ai_visibility::Robots;
use audit_core::{Audit, HttpFacts, Page, RobotsTxtFact};
use fetch::{FetchedPage, Fetcher};
use url::Url;

/// The user agent whose robots.txt verdict the crawlability rule reports: a search crawler,
/// falling back to the `*` group by the matcher's own rules.
pub const SEARCH_CRAWLER: &str = "Googlebot";

/// Why a page could not be audited.
#[derive(Debug, thiserror::Error)]
pub enum AuditError {
    /// The page could not be fetched (blocked, unreachable, not HTML...).
    #[error(transparent)]
    Fetch(#[from] fetch::Error),
    /// The engine panicked on this input: a bug, reported as `internal`.
    #[error("audit engine failed: {0}")]
    Engine(String),
}

/// A fetched and audited page.
#[derive(Debug)]
pub struct PageAudit {
    /// The audit of the page.
    pub audit: Audit,
    /// The body of the site's robots.txt when it answered 200 (for engines that need more
    /// than the crawlability verdict, such as AI-bot access).
    pub robots_txt: Option<Robots>,
}

/// Fetches `url` and its site's robots.txt concurrently and audits the page. The CPU-bound
/// part (parse, facts, rules) runs on the blocking pool so it never stalls the reactor.
pub async fn audit_url(fetcher: &Fetcher, url: &Url) -> Result<PageAudit, AuditError> {
    let (page, robots) = fetch_with_robots(fetcher, url).await?;
    let requested = url.to_string();
    let audit = tokio::task::spawn_blocking(move || {
        let http = http_facts(&requested, &page, robots.as_ref());
        (audit_core::audit(Page::parse(&requested, &page.body, http)), robots)
    })
    .await
    .map_err(|e| AuditError::Engine(e.to_string()))?;
    Ok(PageAudit { audit: audit.0, robots_txt: audit.1 })
}

/// Fetches `url` and its site's robots.txt concurrently. A robots.txt governs only its own
/// scheme, host and port (RFC 9309 §2.3), so after a redirect to another origin the final
/// origin's file is fetched too (the fetcher caches it per origin) and decides. See
/// [`site_robots`] for what each answer means.
///
/// # Errors
/// The page could not be fetched.
pub async fn fetch_with_robots(fetcher: &Fetcher, url: &Url) -> Result<(FetchedPage, Option<Robots>), fetch::Error> {
    let (page, robots) = tokio::join!(fetcher.fetch_page(url), fetcher.fetch_robots_txt(url));
    let page = page?;
    let robots =
        if page.final_url.origin() == url.origin() { robots } else { fetcher.fetch_robots_txt(&page.final_url).await };
    Ok((page, site_robots(robots)))
}

/// What the answer to a robots.txt request means (RFC 9309 §2.3.1): a 2xx body is parsed;
/// a server error (5xx) or no answer at all (DNS, connection or TLS failure, timeout) is
/// [`Robots::unreachable`], a complete disallow; anything else (4xx, redirects past the
/// limit, a file over the size limit, an address the guard refuses) is `None`: no
/// robots.txt, everything allowed.
pub fn site_robots(answer: Result<Option<FetchedPage>, fetch::Error>) -> Option<Robots> {
    match answer {
        Ok(Some(r)) if (200..300).contains(&r.status) => Some(Robots::parse(&r.body)),
        Ok(Some(r)) if r.status >= 500 => Some(Robots::unreachable(format!("HTTP {}", r.status))),
        Ok(_) => None,
        Err(
            e @ (fetch::Error::Timeout | fetch::Error::Dns { .. } | fetch::Error::Connect(_) | fetch::Error::Tls(_)),
        ) => Some(Robots::unreachable(e.code())),
        Err(_) => None,
    }
}

/// Audits HTML that is already at hand (a local file, or a page fetched elsewhere).
pub fn audit_html(url: &str, html: &[u8], http: HttpFacts) -> Audit {
    audit_core::audit(Page::parse(url, html, http))
}

/// What the HTTP exchange tells the rules.
pub fn http_facts(requested: &str, page: &FetchedPage, robots: Option<&Robots>) -> HttpFacts {
    let final_url = page.final_url.to_string();
    HttpFacts {
        status: Some(page.status),
        final_url: (final_url != requested).then(|| final_url.clone()),
        redirects: page.redirect_chain.iter().map(|h| h.url.to_string()).collect(),
        headers: page.headers.clone(),
        ttfb_ms: Some(page.ttfb_ms),
        load_time_ms: Some(page.total_ms),
        robots_txt: robots.map(|r| {
            let v = r.verdict(SEARCH_CRAWLER, &final_url);
            RobotsTxtFact { allowed: v.allowed, rule: v.matched_rule }
        }),
    }
}
