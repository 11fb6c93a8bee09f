//! What a page is (title, final URL, status), whether search engines may index it, and the
//! technology it is built with: the get_site_info tool (docs/API.md, the tools table).
//! Fetches the page and its robots.txt; stores nothing.

use audit_core::Page;
use schemars::JsonSchema;
use serde::Serialize;
use url::Url;

use crate::pipeline::{analyse_blocking, fetch_with_robots, http_facts, SEARCH_CRAWLER};
use crate::techstack::detect_tech;
use crate::{App, AppError};

/// A page's identity, indexability and technology.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SiteInfo {
    /// The URL as asked.
    pub url: String,
    /// The URL after redirects.
    pub final_url: String,
    /// The page's `<title>`.
    pub title: String,
    /// HTTP status of the final response.
    pub status_code: u16,
    /// 2xx, no noindex, and robots.txt lets the search crawler in.
    pub indexable: bool,
    /// The page asks not to be indexed (meta robots or `X-Robots-Tag`).
    pub noindex: bool,
    /// The robots.txt verdict for the search crawler.
    pub robots_txt: RobotsVerdict,
    /// Detected technology (CMS, frameworks, server).
    pub tech_stack: Vec<String>,
    /// The `Server` response header.
    pub server: Option<String>,
    /// The final URL is HTTPS.
    pub https: bool,
    /// Redirects followed.
    pub redirects: usize,
    /// The page's language (`<html lang>`), empty when absent.
    pub lang: String,
}

/// What robots.txt says about the page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RobotsVerdict {
    /// The site answered a robots.txt.
    pub present: bool,
    /// The search crawler may fetch the page.
    pub allowed: bool,
    /// The rule that decides, when one does.
    pub rule: Option<String>,
    /// The user agent the verdict is for.
    pub user_agent: String,
}

impl App {
    /// Fetches `url` and its robots.txt within an audit slot (a full server answers
    /// `overloaded` at once) and reports what the page is. Not an audit: the page is parsed
    /// for its identity, indexability and technology, never scored or stored, so it takes
    /// its slot through [`App::parse_slot`] rather than the one audit path.
    ///
    /// # Errors
    /// `overloaded`, what the fetch met, or a failed analysis task.
    pub async fn site_info(&self, url: &Url) -> Result<SiteInfo, AppError> {
        let permit = self.parse_slot().await?;
        let (fetched, robots) = fetch_with_robots(&self.fetcher, url).await?;
        let requested = url.to_string();
        // Parsing is CPU work: off the reactor, in the slot, within the page budget, as audits.
        let (page, tech, robots_present) = analyse_blocking(Some(permit), self.limits, move |budget| {
            let robots = crate::pipeline::site_robots_shared(robots);
            let http = http_facts(&requested, &fetched, robots.as_deref());
            let page = Page::parse_within(&requested, &fetched.body, http, budget);
            let html = String::from_utf8_lossy(&fetched.body).to_ascii_lowercase();
            let tech = detect_tech(&page, &html);
            (page, tech, robots.is_some())
        })
        .await
        .map_err(|_| AppError::internal("site info task failed"))?;
        Ok(site_info(url.as_str(), &page, tech, robots_present))
    }
}

/// The report on a parsed page.
pub fn site_info(url: &str, page: &Page, tech: Vec<String>, robots_present: bool) -> SiteInfo {
    let status = page.http.status.unwrap_or(0);
    let robots = page.http.robots_txt.as_ref();
    let allowed = robots.is_none_or(|r| r.allowed);
    let final_url = page.final_url.clone();
    SiteInfo {
        url: url.to_string(),
        title: page.title.clone(),
        status_code: status,
        indexable: (200..300).contains(&status) && !page.is_noindex() && allowed,
        noindex: page.is_noindex(),
        robots_txt: RobotsVerdict {
            present: robots_present,
            allowed,
            rule: robots.and_then(|r| r.rule.clone()),
            user_agent: SEARCH_CRAWLER.to_string(),
        },
        tech_stack: tech,
        server: page.http.header("server").map(str::to_string),
        https: final_url.starts_with("https://"),
        redirects: page.http.redirects.len(),
        lang: page.lang.clone().unwrap_or_default(),
        final_url,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use audit_core::HttpFacts;

    #[test]
    fn indexability() {
        let page = |html: &str, status: u16, allowed: Option<bool>| {
            let mut http = HttpFacts::new().with_status(status);
            http.robots_txt = allowed.map(|a| audit_core::RobotsTxtFact::new(a, Some("Disallow: /".into())));
            Page::parse("https://example.com/", html.as_bytes(), http)
        };
        let info = |p: &Page| site_info("https://example.com/", p, Vec::new(), true).indexable;
        assert!(info(&page("<title>a</title>", 200, None)));
        assert!(info(&page("<title>a</title>", 200, Some(true))));
        assert!(!info(&page("<title>a</title>", 200, Some(false))));
        assert!(!info(&page("<title>a</title>", 404, None)));
        assert!(!info(&page(r#"<meta name="robots" content="noindex">"#, 200, None)));
    }
}
