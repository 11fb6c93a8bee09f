//! The probes of the AI-readiness check beyond the page, robots.txt and llms.txt
//! (docs/AI-VISIBILITY.md, "What agents meet"): llms-full.txt and the first llms.txt links,
//! the agent discovery documents, markdown on request, and the page as the main AI crawlers
//! get it. Every request goes through the fetcher (address guard, size and time limits), one
//! at a time, so a site sees at most one of them at once; all of them share one time budget,
//! past which the rest is reported as not checked.

use std::time::Instant;

use ai_visibility::{
    discovery_candidates, edge_blocking, is_markdown_answer, llms_links_to_check, markdown_alternate, markdown_twin,
    AgentReport, Answer, DiscoveredDoc, LinkCheck, LlmsFullReport, MarkdownReport, Robots, WebMcpReport,
    AGENT_PROBE_BUDGET, BROWSER_USER_AGENT, EDGE_BOTS,
};
use audit_core::Page;
use fetch::{FetchedPage, Fetcher};
use url::Url;

/// The `Accept` of the browser and crawler fetches: what browsers send, so that a site which
/// negotiates markdown answers them its HTML page, as it answers the audit.
const HTML_ACCEPT: &str = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

/// The fetcher with a request count and a deadline.
struct Probe<'a> {
    fetcher: &'a Fetcher,
    deadline: Instant,
    requests: u32,
}

impl Probe<'_> {
    /// One request, or `None` when the budget is spent (nothing is sent then).
    async fn get(
        &mut self,
        url: &Url,
        max: usize,
        agent: Option<&str>,
        accept: Option<&str>,
    ) -> Option<Result<FetchedPage, String>> {
        let left = self.deadline.checked_duration_since(Instant::now()).filter(|d| !d.is_zero())?;
        self.requests += 1;
        match tokio::time::timeout(left, self.fetcher.fetch_text_as(url, max, agent, accept)).await {
            Ok(answer) => Some(answer.map_err(|e| e.to_string())),
            Err(_) => Some(Err("the check's time budget ran out".to_owned())),
        }
    }
}

/// Probes the site of `page` as agents meet it. `llms` is where llms.txt was found and its
/// body, when there is one.
pub(crate) async fn probe(
    fetcher: &Fetcher,
    page: &Page,
    robots: Option<&Robots>,
    llms: (&str, Option<&str>),
) -> AgentReport {
    let mut probe = Probe { fetcher, deadline: Instant::now() + AGENT_PROBE_BUDGET, requests: 0 };
    let text_max = fetcher.config().text_max_bytes;
    let page_max = fetcher.config().max_body_bytes;
    let Ok(at) = Url::parse(&page.final_url) else {
        return empty_report(llms.0);
    };

    // llms-full.txt, beside llms.txt, and the first links of llms.txt.
    let full_url = at.join("/llms-full.txt").unwrap_or_else(|_| at.clone());
    let full_body = match probe.get(&full_url, text_max, None, None).await {
        Some(Ok(answer)) if (200..300).contains(&answer.status) => {
            Some(String::from_utf8_lossy(&answer.body).into_owned())
        }
        _ => None,
    };
    let llms_full_txt = LlmsFullReport::judge(full_url.as_str(), full_body.as_deref());
    let mut llms_links = Vec::new();
    if let (Ok(llms_url), Some(body)) = (Url::parse(llms.0), llms.1) {
        for link in llms_links_to_check(&llms_url, body) {
            let Some(answer) = probe.get(&link, text_max, None, None).await else { break };
            let status = answer.ok().map(|a| a.status);
            llms_links.push(LinkCheck {
                url: link.to_string(),
                status,
                ok: status.is_some_and(|s| (200..300).contains(&s)),
            });
        }
    }

    // The discovery documents, where agents look for them.
    let link_headers: Vec<&str> =
        page.http.headers.iter().filter(|(n, _)| n.eq_ignore_ascii_case("link")).map(|(_, v)| v.as_str()).collect();
    let mut discovery = Vec::new();
    for candidate in discovery_candidates(&at, &page.agent_links, &link_headers, robots) {
        let answer = match probe.get(&candidate.url, text_max, None, Some("application/json")).await {
            None => break,
            Some(answer) => answer.ok(),
        };
        let body = answer.as_ref().map(|a| String::from_utf8_lossy(&a.body).into_owned());
        let judged = answer.as_ref().zip(body.as_deref()).map(|(a, b)| (a.status, b));
        discovery.push(DiscoveredDoc::judge(&candidate, judged));
    }

    // Markdown: negotiated on the page's URL, then the named alternate or else the twin.
    let mut markdown = MarkdownReport::default();
    if let Some(Ok(answer)) = probe.get(&at, page_max, None, Some("text/markdown")).await {
        markdown.negotiated = is_markdown_answer(answer.status, answer.content_type.as_deref(), &answer.body);
        markdown.negotiated_content_type = answer.content_type.clone();
    }
    let alternate = markdown_alternate(&at, &page.agent_links, &link_headers);
    markdown.alternate = alternate.as_ref().map(Url::to_string);
    let other = alternate.unwrap_or_else(|| {
        let twin = markdown_twin(&at);
        markdown.twin = Some(twin.to_string());
        twin
    });
    if let Some(Ok(answer)) = probe.get(&other, page_max, None, Some("text/markdown, text/plain;q=0.9")).await {
        markdown.alternate_served = is_markdown_answer(answer.status, answer.content_type.as_deref(), &answer.body);
    }
    markdown.available = markdown.negotiated || markdown.alternate_served;

    // The page as a browser gets it, then as each crawler.
    let as_answer = |answer: Result<FetchedPage, String>| match answer {
        Ok(a) => Answer::of(a.status, &a.headers, a.content_type.as_deref(), &a.body),
        Err(e) => Answer::failed(e),
    };
    let browser = match probe.get(&at, page_max, Some(BROWSER_USER_AGENT), Some(HTML_ACCEPT)).await {
        Some(answer) => as_answer(answer),
        None => Answer::failed("the check's time budget ran out"),
    };
    let mut bots = Vec::new();
    let mut not_checked = Vec::new();
    for bot in EDGE_BOTS {
        match probe.get(&at, page_max, Some(bot.user_agent), Some(HTML_ACCEPT)).await {
            Some(answer) => bots.push((*bot, as_answer(answer))),
            None => not_checked.push(bot.bot),
        }
    }
    let edge_blocking = edge_blocking(browser, bots, not_checked);
    let webmcp = WebMcpReport::of(&page.webmcp_forms);
    AgentReport { llms_full_txt, llms_links, discovery, markdown, edge_blocking, webmcp, requests: probe.requests }
}

fn empty_report(llms_url: &str) -> AgentReport {
    AgentReport {
        llms_full_txt: LlmsFullReport::judge(llms_url, None),
        llms_links: Vec::new(),
        discovery: Vec::new(),
        markdown: MarkdownReport::default(),
        edge_blocking: edge_blocking(Answer::failed("the page has no URL to probe"), Vec::new(), Vec::new()),
        webmcp: WebMcpReport::default(),
        requests: 0,
    }
}

/// The recommendations the probes add to the readiness answer: crawlers the edge turns away
/// though robots.txt lets them in, and discovery documents served broken. A missing document
/// is no defect and earns none.
pub(crate) fn recommendations(report: &AgentReport, allowed_by_robots: impl Fn(&str) -> bool) -> Vec<String> {
    let mut out = Vec::new();
    let edge: Vec<String> = report
        .edge_blocking
        .bots
        .iter()
        .filter(|v| v.blocked && allowed_by_robots(v.bot))
        .map(|v| format!("{} ({})", v.bot, v.evidence.as_deref().unwrap_or("blocked")))
        .collect();
    if !edge.is_empty() {
        out.push(format!(
            "robots.txt lets these AI crawlers in, but the server or its CDN turns them away: {}. Allow them in the \
             CDN's bot settings or firewall rules if you want AI answers to use the site.",
            edge.join("; ")
        ));
    }
    for doc in report.discovery.iter().filter(|d| d.present && !d.valid) {
        let first = doc.findings.iter().find(|f| f.severity == "error").map(|f| f.message.as_str()).unwrap_or("");
        out.push(format!("Fix the {} at {}: {first}.", doc.kind.title(), doc.url));
    }
    if let Some(first) = report.webmcp.findings.iter().find(|f| f.severity == "error") {
        out.push(format!(
            "Fix the WebMCP form {}: {} ({} error(s) in the page's tool forms).",
            first.form,
            first.message,
            report.webmcp.findings.iter().filter(|f| f.severity == "error").count()
        ));
    }
    if report.llms_full_txt.present && !report.llms_full_txt.valid {
        out.push(format!(
            "Fix /llms-full.txt: {}.",
            report.llms_full_txt.problem.as_deref().unwrap_or("it is not a Markdown file")
        ));
    }
    out
}
