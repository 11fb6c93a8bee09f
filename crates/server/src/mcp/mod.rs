//! The catalog of the agent-tool endpoint: what `POST /api/mcp` offers, as pure,
//! deterministic data the server's [`mcp_protocol::Registry`] hands out.
//!
//! - [`calls::tool_defs`]: the 14 tools of docs/API.md with input and output schemas (the
//!   output schemas are the contract of each tool's `structuredContent`).
//! - [`methodology::methodology`] / [`methodology::methodology_markdown`]: the scoring
//!   explanation, generated from the rule table.
//! - [`glossary::concept`]: the forgiving SEO glossary behind get_seo_concept.
//! - [`resources::resource_defs`], [`resources::resource_template_defs`],
//!   [`resources::read_resource`]: the `svc://` resources.
//! - [`prompts::prompt_defs`] / [`prompts::get_prompt`]: the four prompts.
//! - [`discovery::mcp_json`] / [`discovery::agent_card`]: the `.well-known` documents.
//! - [`server_info`]: name, version and the instructions agents read first.
//!
//! - [`registry::McpRegistry`]: the [`mcp_protocol::Registry`] of one request (quota on the
//!   shared limiter, `tools/call` dispatched to one function per tool in [`calls`]).
//!
//! Apart from `registry` and `calls`, nothing here does I/O.

pub mod calls;
pub mod discovery;
/// The SEO glossary lives in the application crate (SEO knowledge, not HTTP).
pub use app::glossary;
/// How the audit scores a page lives in the application crate (SEO knowledge, not JSON-RPC).
pub use app::methodology;
pub mod prompts;
pub mod registry;
pub mod resources;
pub mod tools;

pub use registry::catalog;

use mcp_protocol::ServerInfo;

/// Machine name of the tool server.
pub const SERVER_NAME: &str = "seo-audit";
/// Human name of the tool server.
pub const SERVER_TITLE: &str = "seo-audit";
/// Version of the tool server descriptor (`/.well-known/mcp.json`), as docs/API.md states it.
pub const SERVER_VERSION: &str = "2.0.0";
/// One-sentence description used by the discovery documents.
pub const SERVER_DESCRIPTION: &str = "Deterministic SEO audits of public web pages: score and issues, ranked \
     opportunities, ready-to-apply fixes, workflows with approval, monitoring, competitor comparison, on-page \
     keyword tracking and experiments, plus an SEO glossary and the audit methodology.";

/// What an agent reads first (`instructions` of `initialize` and `server/discover`).
pub const INSTRUCTIONS: &str = "seo-audit audits public web pages for SEO with a deterministic, documented \
     ruleset: the same page always gives the same score and issues, and every issue carries a stable rule id.\n\n\
     Public tools (no API key): get_site_info (is a URL reachable and indexable, title, tech stack), \
     get_audit_methodology (every rule, weight and threshold, and how the score is computed) and get_seo_concept \
     (plain-language explanation of any SEO term or rule id).\n\n\
     Write tools (need an API key with the mcp scope in the x-api-key header): seo_audit, get_opportunities, \
     generate_fixes, workflow_execute, workflow_status, approve_fixes, detect_regressions, compare_competitors, \
     monitor_site, track_keywords, run_experiment. A typical session: get_site_info, then seo_audit, then \
     get_opportunities and generate_fixes for the top issues; get_seo_concept to explain an issue id. Long jobs: \
     workflow_execute, then poll workflow_status; a fix workflow waits for approve_fixes.\n\n\
     Keys: the operator creates them with `seo-audit keys create --name NAME --tier free --scopes audit,mcp`. \
     Each tools/call counts against the caller's per-minute quota (shared with the REST API); a refused call says \
     when to retry. Audits take 5 to 15 seconds. Resources: svc://methodology, svc://checks, svc://seo-concepts, \
     svc://severity-levels, svc://data-sources. Prompts: audit_website, explain_seo_issue, prioritize_seo_fixes, \
     analyze_ai_visibility.";

/// Identity and instructions of the tool server, with the default caching policy.
pub fn server_info() -> ServerInfo {
    ServerInfo::new(SERVER_NAME, SERVER_VERSION, INSTRUCTIONS)
}
