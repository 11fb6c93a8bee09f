//! get_site_info: what a page is (title, final URL, status), whether search engines may
//! index it, and the technology it is built with, detected from the markup and the
//! response headers.

use audit_core::Page;
use mcp_protocol::ToolResult;
use serde_json::{json, Map, Value};

pub use app::techstack::detect_tech;

use super::{audit_slot, from_api_error, url_arg, ToolEnv};
use crate::error::ApiError;
use crate::pipeline::{http_facts, SEARCH_CRAWLER};

/// Runs the tool: fetches the page and its robots.txt (no audit is stored).
pub async fn call(env: &ToolEnv<'_>, args: &Map<String, Value>) -> ToolResult {
    let url = match url_arg(args, "url") {
        Ok(url) => url,
        Err(e) => return e,
    };
    let permit = match audit_slot(env.state).await {
        Ok(p) => p,
        Err(e) => return e,
    };
    let fetched = crate::pipeline::fetch_with_robots(&env.state.app.fetcher, &url).await;
    let (fetched, robots) = match fetched {
        Ok(f) => f,
        Err(e) => return from_api_error(ApiError::from(e), url.as_str()),
    };
    let requested = url.to_string();
    // Parsing is CPU work: off the reactor, in the slot, within the page budget, as audits.
    let limits = env.state.analysis_limits();
    let parsed = crate::pipeline::analyse_blocking(Some(permit), limits, move |budget| {
        let http = http_facts(&requested, &fetched, robots.as_ref());
        let page = Page::parse_within(&requested, &fetched.body, http, budget);
        let html = String::from_utf8_lossy(&fetched.body).to_ascii_lowercase();
        let tech = detect_tech(&page, &html);
        (page, tech, robots.is_some())
    })
    .await;
    let Ok((page, tech, robots_present)) = parsed else {
        return from_api_error(ApiError::internal("site info task failed"), url.as_str());
    };
    ToolResult::success(site_info(url.as_str(), &page, tech, robots_present))
}

/// The structuredContent of get_site_info.
pub fn site_info(url: &str, page: &Page, tech: Vec<String>, robots_present: bool) -> Value {
    let status = page.http.status.unwrap_or(0);
    let robots = page.http.robots_txt.as_ref();
    let allowed = robots.is_none_or(|r| r.allowed);
    let indexable = (200..300).contains(&status) && !page.is_noindex() && allowed;
    let server = page.http.header("server").map(str::to_string);
    let final_url = page.final_url.clone();
    json!({
        "url": url,
        "finalUrl": final_url,
        "title": page.title,
        "statusCode": status,
        "indexable": indexable,
        "noindex": page.is_noindex(),
        "robotsTxt": {
            "present": robots_present,
            "allowed": allowed,
            "rule": robots.and_then(|r| r.rule.clone()),
            "userAgent": SEARCH_CRAWLER,
        },
        "techStack": tech,
        "server": server,
        "https": final_url.starts_with("https://"),
        "redirects": page.http.redirects.len(),
        "lang": page.lang.clone().unwrap_or_default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use audit_core::HttpFacts;

    #[test]
    fn indexability() {
        let page = |html: &str, status: u16, allowed: Option<bool>| {
            let http = HttpFacts {
                status: Some(status),
                robots_txt: allowed.map(|a| audit_core::RobotsTxtFact { allowed: a, rule: Some("Disallow: /".into()) }),
                ..HttpFacts::default()
            };
            Page::parse("https://example.com/", html.as_bytes(), http)
        };
        let info = |p: &Page| site_info("https://example.com/", p, Vec::new(), true)["indexable"].as_bool();
        assert_eq!(info(&page("<title>a</title>", 200, None)), Some(true));
        assert_eq!(info(&page("<title>a</title>", 200, Some(true))), Some(true));
        assert_eq!(info(&page("<title>a</title>", 200, Some(false))), Some(false));
        assert_eq!(info(&page("<title>a</title>", 404, None)), Some(false));
        assert_eq!(info(&page(r#"<meta name="robots" content="noindex">"#, 200, None)), Some(false));
    }
}
