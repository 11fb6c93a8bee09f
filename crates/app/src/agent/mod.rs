//! What the agent-tool endpoint says about itself and offers besides its tools (docs/API.md,
//! the agent-tool endpoint): the server's identity and the instructions agents read first,
//! the [`tools`]' cards (with the example requests of each tool's skill in the agent card),
//! the [`resources`] and the [`prompts`]. Content only: the server maps it to JSON-RPC and the discovery documents.

pub mod prompts;
pub mod resources;
pub mod tools;

/// Machine name of the tool server.
pub const SERVER_NAME: &str = "seo-audit";
/// Human name of the tool server.
pub const SERVER_TITLE: &str = "seo-audit";
/// Version of the tool server descriptor (`/.well-known/mcp.json`), as docs/API.md states it.
pub const SERVER_VERSION: &str = "3.0.0";
/// One-sentence description used by the discovery documents.
pub const SERVER_DESCRIPTION: &str = "Deterministic SEO audits of public web pages: score and issues, ranked \
     opportunities, ready-to-apply fixes, workflows with approval, monitoring, competitor comparison, on-page \
     keyword tracking and experiments, AI-readiness and AI-visibility checks, content-gap analysis, plus an SEO glossary and the audit methodology.";

/// What an agent reads first (`instructions` of `initialize` and `server/discover`).
pub const INSTRUCTIONS: &str = "seo-audit audits public web pages for SEO with a deterministic, documented \
     ruleset: the same page always gives the same score and issues, and every issue carries a stable rule id.\n\n\
     Public tools (no API key): get_site_info (is a URL reachable and indexable, title, tech stack), \
     get_audit_methodology (every rule, weight and threshold, and how the score is computed) and get_seo_concept \
     (plain-language explanation of any SEO term or rule id).\n\n\
     Write tools (need an API key with the mcp scope in the x-api-key header): seo_audit, get_opportunities, \
     generate_fixes, check_ai_readiness, scan_ai_visibility, analyze_content_gap, auto_fix_batch, workflow_execute, \
     workflow_status, approve_fixes, detect_regressions, compare_competitors, monitor_site, track_keywords, \
     run_experiment, crawl_site, crawl_status, list_crawls, compare_crawls, schedule_crawl, share_crawl_report. A typical session: get_site_info, then seo_audit, then \
     get_opportunities and generate_fixes for the top issues; get_seo_concept to explain an issue id. Long jobs: \
     workflow_execute, then poll workflow_status; a fix workflow waits for approve_fixes; a whole site: \
     crawl_site, then poll crawl_status; list_crawls finds earlier crawls and compare_crawls says what changed since one; schedule_crawl runs a crawl daily or weekly and alerts on regressions; \
     share_crawl_report makes a link to a crawl's report that opens without the key.\n\n\
     Keys: the operator of this service issues them on its host; ask the operator for one with the mcp scope. \
     Each tools/call counts one unit against the caller's per-minute quota (shared with the REST API), except \
     workflow_status, crawl_status, list_crawls, compare_crawls and share_crawl_report, which are free; a refused call says when to retry. Audits take 5 to 15 seconds. Resources: svc://methodology, svc://checks, svc://seo-concepts, \
     svc://severity-levels, svc://data-sources. Prompts: audit_website, explain_seo_issue, prioritize_seo_fixes, \
     analyze_ai_visibility.";

/// Example requests for each tool's skill in the agent card ([`tools::card`]).
pub fn skill_examples(tool: &str) -> &'static [&'static str] {
    tools::card(tool).map_or(&[], |c| c.examples)
}
