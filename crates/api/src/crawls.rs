//! The wire types and operations of the site crawl (docs/API.md, "Site crawl"):
//! `POST /api/v1/crawls`, `GET /api/v1/crawls/{id}`, `.../pages`, `.../issues/{rule_id}`,
//! `.../export`, `DELETE /api/v1/crawls/{id}`, `GET /api/v1/crawls` (the listing).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;
use vocab::{CrawlId, Timestamp};

use crate::body::{Field, JsonBody, Unknown};
use crate::{answer, request, Access, Content, Header, In, Operation, Param, Response, MAX_URL_LEN};

/// The states of a crawl.
pub const CRAWL_STATES: &[&str] = &["queued", "running", "completed", "cancelled", "failed"];

/// The body of `POST /api/v1/crawls`: read as this type (members of the wrong type or
/// unknown ones are refused, naming the member), then checked for ranges and patterns.
// (The doc comment above is the schema's description.) Read by `crate::body::parse`: a
// member of another type is recorded, not fatal; the crawl's use case refuses the first
// faulty member in the documented order, then a member it does not know (`unknown`), then
// ranges and patterns.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct CrawlRequest {
    /// The start URL (checked as an audit checks its URL: it must answer an HTML page).
    #[schemars(length(min = 1, max = MAX_URL_LEN))]
    pub url: Field<String>,
    /// Pages fetched at most; above the caller's tier limit (anonymous 30, free 100, pro
    /// 500) it is cut to it, and the answer says so. Default: the tier limit.
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub max_pages: Field<Option<u64>>,
    /// Click depth followed at most (the start URL is 0). Default: no limit.
    #[serde(default)]
    pub max_depth: Field<Option<u64>>,
    /// URL patterns (regular expressions, at most 20 of at most 1,000 bytes each) matched
    /// against a URL's path and query from its start (`/blog`, `/(en|fr)/`, `.*\.html$`):
    /// when given, only URLs one of them matches are visited (the start URL always is).
    #[serde(default)]
    #[schemars(length(max = 20))]
    pub include: Field<Option<Vec<String>>>,
    /// URL patterns as `include`'s: URLs one of them matches are never fetched, and are
    /// listed as skipped with the pattern (the start URL is always visited).
    #[serde(default)]
    #[schemars(length(max = 20))]
    pub exclude: Field<Option<Vec<String>>>,
    /// Query parameters removed from every URL found before it is compared with those
    /// known (at most 50 names): a name (`sessionid`), a prefix ending in `*` (`utm_*`), or
    /// `*` for every parameter. `/p?id=1&utm_source=x` is then crawled once, as `/p?id=1`.
    #[serde(default)]
    #[schemars(length(max = 50))]
    pub strip_params: Field<Option<Vec<String>>>,
    /// Whether sitemaps are read (`Sitemap:` lines of robots.txt and `/sitemap.xml`), or the
    /// sitemaps to read beside those (absolute http(s) URLs on the crawled site, at most 10):
    /// a list reads them all.
    #[serde(default)]
    #[schemars(extend("default" = true))]
    pub sitemaps: Field<Option<Sitemaps>>,
    /// Whether each HTML page is rendered in headless Chromium and its rendered DOM audited
    /// (docs/API.md, "Rendered audits"): 5 quota units instead of 1.
    #[serde(default)]
    #[schemars(extend("default" = false))]
    pub render: Field<Option<bool>>,
    /// The similarity in percent from which the near-duplicate site rule reports two pages
    /// (docs/RULES.md, its site rules).
    #[serde(default)]
    #[schemars(range(min = 50, max = 100), extend("default" = 90))]
    pub near_duplicate_threshold: Field<Option<u64>>,
    /// Whether the links to other sites are checked for the broken-external-link site rule
    /// (docs/RULES.md): each external URL once, HEAD then GET, within the crawl's budget of
    /// external URLs (one per page of `max_pages`, at most 500); what was not checked is
    /// counted in the crawl's `external_links`.
    #[serde(default)]
    #[schemars(extend("default" = true))]
    pub external_links: Field<Option<bool>>,
    /// List mode (docs/RULES.md, "List mode"): the URLs to crawl beside the start URL `url`
    /// (fetched first), and no other: their links are recorded, not followed, no sitemap is
    /// read, and the site rules that need the whole site are skipped. Absolute http(s) URLs
    /// on the start URL's site (a URL off it is refused naming its index), at most the
    /// crawl's `max_pages` with the start URL (a longer list is refused, never cut).
    #[serde(default)]
    pub urls: Field<Option<Vec<String>>>,
    /// Custom extraction (docs/API.md, "Custom extraction"): at most 10 extractors, each
    /// giving every HTML page a value, shown as a column `extract:<name>` of the pages
    /// listing and the exports.
    #[schemars(length(max = 10))]
    #[serde(default)]
    pub extract: Field<Option<Vec<Extractor>>>,
    /// Request headers sent to the crawled site's host with every page, robots.txt and
    /// sitemap request, never to another host (docs/API.md, "Staging sites"): names and
    /// values, at most 20 headers (cookies and basic auth included) of 8 KiB in all. `Host`,
    /// `Content-Length`, the hop-by-hop headers, `Accept-Encoding`, `User-Agent` and `Cookie`
    /// are refused. Kept in memory for the crawl's life only; never stored, logged or
    /// answered.
    #[serde(default)]
    pub headers: Field<Option<std::collections::BTreeMap<String, Secret>>>,
    /// Cookies (`name=value`) sent to the crawled site's host in one `Cookie` header, as
    /// `headers` are.
    #[serde(default)]
    pub cookies: Field<Option<Vec<Secret>>>,
    /// HTTP basic auth sent to the crawled site's host, as `headers` are.
    #[serde(default)]
    pub basic_auth: Field<Option<BasicAuth>>,
    /// Who the crawl says it is (docs/API.md, "User agent"): `default`, SeoAuditBot obeying
    /// robots.txt's `SeoAuditBot` group; `smartphone`, Google's smartphone crawler's user
    /// agent obeying the `Googlebot` group (either falls back to `*`).
    #[schemars(extend("default" = "default"))]
    #[serde(default)]
    pub user_agent: Field<Option<UserAgent>>,
    /// The members sent that this type does not know, in the order sent: the use case
    /// refuses the first (the schema says `additionalProperties: false`).
    #[serde(flatten)]
    #[schemars(skip)]
    pub unknown: Unknown,
}

impl JsonBody for CrawlRequest {
    const MEMBERS: &'static str = "`url`";
}

/// The arguments of the `crawl_site` agent tool: the members of [`CrawlRequest`] an agent
/// gives, each of one type (the protocol layer checks them against this schema first). Read
/// by the crawl's use case (`app::crawl::from_tool`).
// (The field doc comments are the tool's input schema: agents read them.)
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CrawlSiteArgs {
    /// Absolute http or https URL the crawl starts from
    #[schemars(length(min = 1, max = 2048))]
    pub url: String,
    /// Pages fetched at most (cut to the key's tier: free 100, pro 500)
    #[schemars(range(min = 1))]
    pub max_pages: Option<u32>,
    /// Render every HTML page in headless Chromium and audit the rendered DOM (5 quota units
    /// for the call instead of 1)
    #[serde(default)]
    pub render: bool,
    /// Sitemaps to read beside /sitemap.xml and those robots.txt names: absolute http(s)
    /// URLs on the crawled site, at most 10 (`app::crawl::MAX_NAMED_SITEMAPS`)
    #[serde(default)]
    #[schemars(length(max = 10))]
    pub sitemaps: Vec<String>,
    /// URL patterns (regular expressions, at most 20) matched against a URL's path and query
    /// from its start (`/blog`, `/(en|fr)/`): when given, only URLs one of them matches are
    /// crawled (the start URL always is)
    #[serde(default)]
    #[schemars(length(max = 20))]
    pub include: Vec<String>,
    /// URL patterns as include's: URLs one of them matches are never fetched (listed as
    /// skipped)
    #[serde(default)]
    #[schemars(length(max = 20))]
    pub exclude: Vec<String>,
    /// Query parameters removed from every URL found before it is compared with those known
    /// (at most 50): a name, a prefix ending in * (utm_*), or * for all
    #[serde(default)]
    #[schemars(length(max = 50))]
    pub strip_params: Vec<String>,
    /// Check the links to other sites for broken-external-link (default true): each external
    /// URL once, HEAD then GET, within the crawl's budget of external URLs
    #[serde(default = "yes")]
    #[schemars(extend("default" = true))]
    pub external_links: bool,
    /// List mode: the URLs to crawl beside url (fetched first), and no other (their links
    /// are recorded, not followed; no sitemap is read; the site rules that need the whole
    /// site are skipped): absolute http(s) URLs on url's site, at most the key's pages per
    /// crawl with url
    #[serde(default)]
    pub urls: Vec<String>,
    /// Custom extraction: at most 10 extractors, each {name, css, attribute?, all?} (the
    /// first match's text or attribute, or every match's joined by " | ") or {name, regex}
    /// (its first capture group over the page's HTML); their values are the columns
    /// extract:<name> of the crawl's pages and exports
    #[serde(default)]
    #[schemars(length(max = 10))]
    pub extract: Vec<Extractor>,
    /// Request headers (name to value) sent to the crawled site's host only, for a staging
    /// site: at most 20 with cookies and basic auth, 8 KiB in all; Host, Content-Length,
    /// hop-by-hop headers, Accept-Encoding, User-Agent and Cookie refused. Never stored,
    /// logged or answered
    #[serde(default)]
    pub headers: std::collections::BTreeMap<String, Secret>,
    /// Cookies (name=value) sent to the crawled site's host only, as headers are
    #[serde(default)]
    pub cookies: Vec<Secret>,
    /// HTTP basic auth sent to the crawled site's host only, as headers are
    pub basic_auth: Option<BasicAuth>,
    /// Who the crawl says it is: default (SeoAuditBot, obeying robots.txt's SeoAuditBot
    /// group) or smartphone (Google's smartphone crawler's user agent, obeying the Googlebot
    /// group)
    pub user_agent: Option<UserAgent>,
}

fn yes() -> bool {
    true
}

/// A custom extractor of a crawl: a name and either `css` (with `attribute` and `all`) or
/// `regex`. Each value is at most 1,024 bytes (a longer one is cut and ends with `…`).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Extractor {
    /// 1 to 64 letters, digits, `_`, `-` or `.`; unique in the crawl.
    #[schemars(length(min = 1, max = 64))]
    pub name: String,
    /// A CSS selector: the text of the first element it matches (white space collapsed), or
    /// its `attribute`.
    #[schemars(length(min = 1, max = 1000))]
    pub css: Option<String>,
    /// The attribute read instead of the text (with `css`).
    pub attribute: Option<String>,
    /// Every element the selector matches, their values joined by ` | ` (with `css`).
    #[schemars(extend("default" = false))]
    pub all: Option<bool>,
    /// A regular expression over the page's HTML (the `regex` crate's syntax, compiled size
    /// at most 256 KiB): its first capture group, or the whole match.
    #[schemars(length(min = 1, max = 1000))]
    pub regex: Option<String>,
}

/// The `user_agent` of a crawl request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum UserAgent {
    /// `SeoAuditBot/<version> (+<bot page>)`, robots.txt group `SeoAuditBot`.
    Default,
    /// Google's smartphone crawler's user agent, robots.txt group `Googlebot`.
    Smartphone,
}

/// A value that is a secret: read as a string, never shown by `Debug`.
#[derive(Clone, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct Secret(pub String);

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("\"[hidden]\"")
    }
}

/// HTTP basic auth (RFC 7617) of a crawl of a staging site.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BasicAuth {
    /// The user name (no `:`).
    #[schemars(length(min = 1))]
    pub user: String,
    /// The password.
    pub password: Secret,
}

/// How a crawl checked the links to other sites (docs/RULES.md, `broken-external-link`):
/// every external URL its pages link to is checked or counted as not checked, by why.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ExternalLinks {
    /// The most external URLs the crawl checks.
    pub budget: u64,
    /// External URLs checked (answered, or no answer).
    pub checked: u64,
    /// Of them, broken (4xx, 5xx or no answer, after redirects): the rule's URLs.
    pub broken: u64,
    /// External URLs not checked because the budget was spent.
    pub not_checked_budget: u64,
    /// External URLs the address guard refused (inner addresses): never fetched.
    pub not_checked_refused: u64,
    /// External URLs whose check ran out of time (10 s).
    pub not_checked_timed_out: u64,
    /// External URLs not checked because the crawl stopped first (cancelled, time limit).
    pub not_checked_stopped: u64,
    /// External URLs whose check got no answer while no other site answered at all (those
    /// of at least 3 hosts failed): the service reached no other site, so they are not
    /// reported as broken.
    pub not_checked_unreachable: u64,
}

/// `sitemaps` of a crawl request: whether they are read, or which to read besides.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Sitemaps {
    /// Whether sitemaps are read.
    Read(bool),
    /// Sitemaps to read beside `/sitemap.xml` and robots.txt's.
    Named(#[schemars(length(min = 1, max = 10))] Vec<String>),
}

/// How far a crawl got.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CrawlProgress {
    /// URLs fetched that answered (any status).
    pub pages_done: u64,
    /// URLs waiting or being fetched.
    pub pages_queued: u64,
    /// URLs whose fetch failed (no answer, refused by the address guard...).
    pub pages_failed: u64,
    /// URLs never fetched (robots.txt, outside the scope).
    pub pages_skipped: u64,
}

/// A rule with findings in a crawl.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CrawlIssueCount {
    /// The rule id (a site rule's or a page rule's).
    pub id: String,
    /// `site` or `page`.
    #[schemars(extend("enum" = ["site", "page"]))]
    pub kind: String,
    /// `critical`, `warning` or `notice`.
    pub severity: String,
    /// Distinct URLs affected.
    pub count: u64,
}

/// `max_pages` cut to the tier's limit.
#[derive(Debug, Serialize, JsonSchema)]
pub struct MaxPagesCut {
    /// What was asked for.
    pub asked: u32,
    /// The tier's pages per crawl, now the crawl's `max_pages`.
    pub limit: u32,
    /// Said in words.
    pub message: String,
}

/// A crawl's pause because its site's recent answers were mostly errors, while it lasts
/// (docs/API.md, "Site crawl", "Politeness").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct CrawlPause {
    /// Why, in words: what share of which recent answers were errors, e.g. `"12 of the last
    /// 12 answers were errors (5xx, 429 or no answer)"` (the words `stopped_for_errors` says
    /// should the crawl end for it).
    pub reason: String,
    /// When the pause started (UTC).
    #[schemars(with = "String", extend("format" = "date-time"))]
    pub since: Timestamp,
    /// When the crawl goes on (UTC): it starts no request before.
    #[schemars(with = "String", extend("format" = "date-time"))]
    pub resumes_at: Timestamp,
    /// The pauses it took so far, this one included (as `error_pauses`).
    pub pauses: u32,
    /// The pauses a run of the crawl takes at most: when the site's answers are mostly errors
    /// again after them, the crawl ends, saying why in `stopped_for_errors`.
    pub max_pauses: u32,
}

/// A crawl's status.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Crawl {
    /// `cr_` and 22 base62 characters.
    #[schemars(with = "String")]
    pub id: CrawlId,
    /// The start URL, normalised.
    pub url: String,
    /// Where it is.
    #[schemars(extend("enum" = CRAWL_STATES))]
    pub state: String,
    /// Pages fetched at most.
    pub max_pages: u32,
    /// Present when `max_pages` was cut to the tier's limit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_pages_cut: Option<MaxPagesCut>,
    /// Its counts.
    pub progress: CrawlProgress,
    /// When it was created (UTC).
    #[schemars(with = "String", extend("format" = "date-time"))]
    pub created_at: Timestamp,
    /// When it started running.
    #[schemars(with = "Option<String>", extend("format" = "date-time"))]
    pub started_at: Option<Timestamp>,
    /// When it ended.
    #[schemars(with = "Option<String>", extend("format" = "date-time"))]
    pub finished_at: Option<Timestamp>,
    /// 0-100 once ended with pages audited: the mean page score less the site rules'
    /// penalties (docs/RULES.md, "Site score").
    pub site_score: Option<u32>,
    /// Why it failed.
    pub error: Option<String>,
    /// Whether its time limit ended it: it ended with what it had
    /// (docs/API.md, "Site crawl", "Ends").
    pub time_limited: bool,
    /// Times it paused because the site's recent answers were mostly errors: more than half
    /// of the last 20 (at least 10) were `5xx`, `429` or no answer (docs/API.md, "Site
    /// crawl", "Politeness"); counted as they happen.
    pub error_pauses: u32,
    /// The pause under way because the site's recent answers were mostly errors: why, since
    /// when and until when; `null` while the crawl goes on and once it ended. `state` stays
    /// `running` meanwhile (docs/API.md, "Site crawl", "Politeness").
    pub paused: Option<CrawlPause>,
    /// Why it ended early: the site's answers were still mostly errors after 2 pauses (the
    /// pages done are kept). Absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped_for_errors: Option<String>,
    /// Links to URLs the crawl left out because it had recorded as many URLs as it keeps
    /// (50 per page of `max_pages`; docs/API.md, "Site crawl", "Bounds"), or because the URL,
    /// from a sitemap or a redirect, is longer than 2,048 bytes: counted, never queued; 0
    /// while it runs.
    pub links_not_queued: u64,
    /// Links from its pages to URLs it did not record (other sites, out of its scope, past
    /// its bound of URLs): counted, not kept as inlinks, which the crawl keeps only for the
    /// URLs it recorded (docs/API.md, "What a crawl keeps"); 0 while it runs.
    pub links_to_unrecorded_urls: u64,
    /// How the links to other sites were checked, once the crawl ended; absent while it runs
    /// and when they were not checked (`external_links: false`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub external_links: Option<ExternalLinks>,
    /// Present and true for a list-mode crawl (`urls` in its request): it fetched the start
    /// URL and the list only (docs/RULES.md, "List mode").
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub list_mode: bool,
    /// The site rules a list-mode crawl skipped because they need the whole site, once it
    /// ended (docs/RULES.md, "List mode"); absent otherwise.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub site_rules_skipped: Vec<String>,
    /// When the retention sweep deleted its pages, long after its end (setting
    /// `retain_crawl_pages_days`; docs/API.md, "Running the service", "Retention"): its
    /// summary, progress and issues stay, its pages listing is empty. Absent while kept.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>", extend("format" = "date-time"))]
    pub pages_pruned_at: Option<Timestamp>,
    /// The rules with findings: site rules first, then by severity and count.
    pub issues: Vec<CrawlIssueCount>,
    /// The human report page of the crawl.
    pub report_url: String,
    /// The pages listing.
    pub pages_url: String,
}

/// The answer of `POST /api/v1/crawls`, `GET /api/v1/crawls/{id}` and `DELETE`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CrawlAnswer {
    #[schemars(extend("const" = true))]
    pub ok: bool,
    #[schemars(extend("const" = "v1"))]
    pub api_version: &'static str,
    /// The crawl.
    pub crawl: Crawl,
}

/// One URL of a crawl.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CrawlPage {
    /// The URL, normalised.
    pub url: String,
    /// `done` (answered), `failed` (no answer) or `skipped` (never fetched).
    pub state: String,
    /// The HTTP status.
    pub status_code: Option<u16>,
    /// Click depth from the start URL (`null`: found in a sitemap only).
    pub depth: Option<u32>,
    /// Crawled pages linking to it (counted when the crawl ends).
    pub inlinks: u32,
    /// The page score (HTML pages).
    pub score: Option<u32>,
    /// The page title.
    pub title: Option<String>,
    /// The page rules it failed.
    pub failed_rules: Vec<String>,
    /// Why it failed or was skipped.
    pub reason: Option<String>,
    /// The page that linked to it first (or redirected to it).
    pub found_from: Option<String>,
    /// Where a redirect pointed.
    pub redirect_to: Option<String>,
    /// The values of the crawl's custom extractors on this page (docs/API.md, "Custom
    /// extraction"): one member `extract:<name>` each, `null` where it matched nothing;
    /// none for a crawl without extractors or a URL that was no HTML page.
    #[serde(flatten)]
    pub extracted: std::collections::BTreeMap<String, Option<String>>,
}

/// The answer of `GET /api/v1/crawls/{id}/pages`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CrawlPages {
    #[schemars(extend("const" = true))]
    pub ok: bool,
    #[schemars(extend("const" = "v1"))]
    pub api_version: &'static str,
    /// The crawl.
    #[schemars(with = "String")]
    pub crawl_id: CrawlId,
    /// Its state.
    pub state: String,
    /// URLs in crawl order.
    pub pages: Vec<CrawlPage>,
    /// Pass as `cursor` for the next page; `null` on the last.
    pub next_cursor: Option<String>,
}

/// A rule as shown with its findings.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CrawlRule {
    /// The rule id.
    pub id: String,
    /// `site` or `page`.
    pub kind: String,
    /// `critical`, `warning` or `notice`.
    pub severity: String,
    /// Its name.
    pub name: String,
}

/// One affected URL.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CrawlFinding {
    /// The URL.
    pub url: String,
    /// The page that links to it (or names it), where there is one.
    pub linked_from: Option<String>,
    /// What is wrong, in a few words.
    pub detail: String,
}

/// The answer of `GET /api/v1/crawls/{id}/issues/{rule_id}`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CrawlIssue {
    #[schemars(extend("const" = true))]
    pub ok: bool,
    #[schemars(extend("const" = "v1"))]
    pub api_version: &'static str,
    /// The crawl.
    #[schemars(with = "String")]
    pub crawl_id: CrawlId,
    /// The rule.
    pub rule: CrawlRule,
    /// The affected URLs (none: the rule passed, or the crawl has not ended).
    pub urls: Vec<CrawlFinding>,
    /// Findings of the rule in all, those stored and those left out.
    pub total_findings: u64,
    /// Distinct URLs of all the findings (what the site score counts).
    pub total_urls: u64,
    /// Whether fewer findings are stored, and so listed page by page, than `total_findings`:
    /// a site rule keeps its first 10,000 in URL order (docs/RULES.md, "Site rules").
    pub truncated: bool,
    /// Pass as `cursor` for the next page; `null` on the last.
    pub next_cursor: Option<String>,
}

/// The JSON export of a crawl: the crawl, and the rows of the table asked for (`pages` by
/// default, or `issues`).
#[derive(Debug, Serialize, JsonSchema)]
pub struct CrawlExport {
    #[schemars(extend("const" = true))]
    pub ok: bool,
    #[schemars(extend("const" = "v1"))]
    pub api_version: &'static str,
    /// The crawl.
    pub crawl: Crawl,
    /// With `table=pages` (the default): every URL, in crawl order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pages: Option<Vec<CrawlPage>>,
    /// With `table=issues`: every finding, one row each.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub issues: Option<Vec<CrawlExportFinding>>,
}

/// One finding of a crawl, a row of the issues export.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CrawlExportFinding {
    /// The rule id.
    pub rule: String,
    /// `site` (a site rule) or `page` (a page rule failed on the URL).
    pub kind: String,
    /// `critical`, `warning` or `notice`.
    pub severity: String,
    /// The affected URL.
    pub url: String,
    /// What is wrong, in a few words (a page rule's finding title).
    pub detail: String,
    /// The page that links to it (or names it), where there is one.
    pub linked_from: Option<String>,
}

/// Crawls per page of `GET /api/v1/crawls` when the caller does not say.
pub const DEFAULT_CRAWLS_PAGE: u32 = 20;
/// The most crawls per page of `GET /api/v1/crawls`.
pub const MAX_CRAWLS_PAGE: u32 = 100;
/// The longest `site` filter: a host name (253) and a port.
pub const MAX_SITE_LEN: usize = 253 + 6;

/// Which of the key owner's crawls to list: the query of `GET /api/v1/crawls` and the
/// arguments of the list_crawls agent tool (one request, read by both).
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListCrawls {
    /// Only crawls in this state
    #[schemars(extend("enum" = CRAWL_STATES))]
    pub state: Option<String>,
    /// Only crawls whose start URL is on this site: a host name such as example.com, or a
    /// host and port such as example.com:8080 (a host alone matches every port of it)
    #[schemars(length(min = 1, max = MAX_SITE_LEN))]
    pub site: Option<String>,
    /// The next_cursor of the previous page, as it was given (send the same filters with it)
    #[schemars(length(min = 1, max = 200))]
    pub cursor: Option<String>,
    /// Crawls per page, 1 to 100 (default 20)
    #[schemars(range(min = 1, max = MAX_CRAWLS_PAGE))]
    pub limit: Option<u32>,
}

/// A crawl as listed: what it is and where it got, without its issues (its status route
/// has them).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CrawlListItem {
    /// The crawl id.
    #[schemars(with = "String")]
    pub id: CrawlId,
    /// The start URL, normalised.
    pub url: String,
    /// Its site: the start URL's host, with its port when not the scheme's default (what the
    /// `site` filter and a comparison match).
    pub site: String,
    /// Where it is.
    #[schemars(extend("enum" = CRAWL_STATES))]
    pub state: String,
    /// Pages fetched at most.
    pub max_pages: u32,
    /// URLs fetched that answered.
    pub pages_done: u64,
    /// URLs whose fetch failed.
    pub pages_failed: u64,
    /// 0-100 once ended with pages audited.
    pub site_score: Option<u32>,
    /// When it was created (RFC 3339, UTC).
    #[schemars(with = "String")]
    pub created_at: Timestamp,
    /// When it ended (RFC 3339, UTC).
    #[schemars(with = "Option<String>")]
    pub finished_at: Option<Timestamp>,
    /// Its status route.
    pub status_url: String,
    /// Its human report page.
    pub report_url: String,
}

/// A page of the key owner's crawls, newest first.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CrawlListing {
    /// The crawls, newest first.
    pub crawls: Vec<CrawlListItem>,
    /// Pass as `cursor` for the next page; `null` on the last.
    pub next_cursor: Option<String>,
}

/// The answer of `GET /api/v1/crawls`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CrawlList {
    #[schemars(extend("const" = true))]
    pub ok: bool,
    #[schemars(extend("const" = "v1"))]
    pub api_version: &'static str,
    /// The crawls, newest first.
    pub crawls: Vec<CrawlListItem>,
    /// Pass as `cursor` for the next page; `null` on the last.
    pub next_cursor: Option<String>,
}

/// URLs a comparison lists at most in each of its lists (each with its total).
pub const MAX_COMPARED_URLS: usize = 100;

/// URLs of one kind of change: the first [`MAX_COMPARED_URLS`] in URL order, and how many
/// there are in all.
#[derive(Debug, Clone, Default, Serialize, JsonSchema)]
pub struct UrlList {
    /// How many in all.
    pub total: u64,
    /// The first 100, in URL order.
    pub urls: Vec<String>,
}

/// How one rule's findings changed between two crawls.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct RuleChange {
    /// The rule id.
    pub id: String,
    /// `site` or `page`.
    #[schemars(extend("enum" = ["site", "page"]))]
    pub kind: String,
    /// `critical`, `warning` or `notice`.
    pub severity: String,
    /// URLs the rule finds in the crawl and did not find in the one it is compared against.
    pub new: UrlList,
    /// URLs the rule found in the crawl compared against and no longer finds.
    pub fixed: UrlList,
    /// URLs the rule finds in both.
    pub still_failing: UrlList,
}

/// A URL fetched by both crawls whose status changed.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct StatusChange {
    /// The URL.
    pub url: String,
    /// Its status in the crawl compared against (`null`: no answer).
    pub before: Option<u16>,
    /// Its status in the crawl (`null`: no answer).
    pub after: Option<u16>,
}

/// A URL fetched by both crawls that became indexable or stopped being so (indexable:
/// answered 2xx with HTML and no `noindex`).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct IndexabilityChange {
    /// The URL.
    pub url: String,
    /// Whether it was indexable in the crawl compared against.
    pub before: bool,
    /// Whether it is in the crawl.
    pub after: bool,
}

/// One side of a comparison.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ComparedCrawl {
    /// The crawl id.
    #[schemars(with = "String")]
    pub id: CrawlId,
    /// When it ended (RFC 3339, UTC).
    #[schemars(with = "Option<String>")]
    pub finished_at: Option<Timestamp>,
    /// Its site score.
    pub site_score: Option<u32>,
    /// URLs it fetched (answered or failed).
    pub pages: u64,
}

/// How a crawl differs from an earlier crawl of the same site.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CrawlChange {
    /// The crawl (`{id}` of the route).
    pub crawl: ComparedCrawl,
    /// The crawl it is compared against (`against`).
    pub against: ComparedCrawl,
    /// The crawl's site score less the other's (`null` when either has none).
    pub site_score_change: Option<i64>,
    /// Rules with findings in either crawl, in rule id order.
    pub rules: Vec<RuleChange>,
    /// Findings new in the crawl, over every rule.
    pub new_findings: u64,
    /// Findings of the other crawl gone from this one, over every rule.
    pub fixed_findings: u64,
    /// URLs the crawl fetched that the other did not.
    pub pages_added: UrlList,
    /// URLs the other crawl fetched that this one did not.
    pub pages_gone: UrlList,
    /// How many URLs fetched by both changed status.
    pub status_changes_total: u64,
    /// The first 100 of them, in URL order.
    pub status_changes: Vec<StatusChange>,
    /// How many URLs fetched by both changed indexability.
    pub indexability_changes_total: u64,
    /// The first 100 of them, in URL order.
    pub indexability_changes: Vec<IndexabilityChange>,
}

/// The answer of `GET /api/v1/crawls/{id}/compare`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CrawlComparison {
    #[schemars(extend("const" = true))]
    pub ok: bool,
    #[schemars(extend("const" = "v1"))]
    pub api_version: &'static str,
    /// The change.
    pub comparison: CrawlChange,
}

const fn error(status: &'static str, description: &'static str) -> Response {
    Response { status, description, headers: &[], content: Content::Json(answer::<crate::ErrorBody>) }
}

const E401: Response = error("401", "`unauthorized`: the key sent is unknown.");
const E403: Response =
    error("403", "`forbidden`: the key is disabled, expired, or lacks the `audit` scope (`details.reason`).");
const E404: Response = error(
    "404",
    "`not_found`: no crawl with that id, or one made by another key's owner (or with a key, asked without it).",
);
const E500: Response = error("500", "`internal`.");

const ID: Param = Param::Own {
    name: "id",
    at: In::Path,
    required: true,
    description: "The crawl id (`cr_` and 22 base62 characters).",
    schema: |_| json!({"type": "string"}),
};

const CURSOR: Param = Param::Own {
    name: "cursor",
    at: In::Query,
    required: false,
    description: "The `next_cursor` of the previous page.",
    schema: |_| json!({"type": "string"}),
};

const LIMIT: Param = Param::Own {
    name: "limit",
    at: In::Query,
    required: false,
    description: "Rows per page (1 to 500).",
    schema: |_| json!({"type": "integer", "minimum": 1, "maximum": 500, "default": 100}),
};

/// `POST /api/v1/crawls`.
pub static CREATE_CRAWL: Operation = Operation {
    id: "createCrawl",
    summary: "Start a site crawl",
    description: "Checks the start URL exactly as an audit does (invalid URL, address guard, not HTML: the \
        audit's errors, and no crawl is created), then crawls the site in the background: its own \
        links and sitemaps, robots.txt obeyed, every HTML page audited with the page rules, then the \
        site rules over the whole set. Consumes 1 quota unit (5 with `render`). Anonymous use allowed (limited per \
        client IP); `max_pages` above the caller's tier limit is cut to it (`max_pages_cut`).",
    tag: "crawl",
    access: Access::KeyOptional,
    params: &[Param::ApiKeyQuery],
    body: Some(request::<CrawlRequest>),
    responses: &[
        Response {
            status: "202",
            description: "The crawl, `queued`.",
            headers: &[Header::Own { name: "location", description: "`/api/v1/crawls/{id}`." }],
            content: Content::Json(answer::<CrawlAnswer>),
        },
        error(
            "400",
            "`missing_parameter` (`url`), `invalid_url`, or `invalid_request` (malformed JSON, a member \
        of the wrong type or range or an unknown one, named in `details.parameter`).",
        ),
        E401,
        E403,
        error("413", "`payload_too_large`: body over 1 MiB."),
        error("415", "`unsupported_media_type`: the body is not `application/json`."),
        error(
            "422",
            "`blocked_target` (non-public address, also after a redirect), `not_html`, or `target_too_large`.",
        ),
        error("429", "`rate_limited`: quota exhausted; `Retry-After` says when to retry."),
        E500,
        error("502", "`target_unreachable`: DNS failure, refused connection, TLS failure, too many redirects."),
        error("503", "`not_configured`: `render` was asked for and the service has no browser; nothing is charged."),
        error("504", "`target_timeout`: the target did not answer in time."),
    ],
};

/// `GET /api/v1/crawls`.
pub static LIST_CRAWLS: Operation = Operation {
    id: "listCrawls",
    summary: "The key owner's crawls",
    description: "The crawls made with the keys of the key's owner, newest first, a page at a time (follow \
        `next_cursor`), filtered by `state` and `site`. Crawls made without a key belong to no one and are \
        never listed. Requires a key with the `audit` scope; consumes no quota (it reads stored data). The \
        agent tool list_crawls answers the same listing.",
    tag: "crawl",
    access: Access::KeyRequired,
    params: &[
        Param::Own {
            name: "state",
            at: In::Query,
            required: false,
            description: "Only crawls in this state.",
            schema: |_| json!({"type": "string", "enum": CRAWL_STATES}),
        },
        Param::Own {
            name: "site",
            at: In::Query,
            required: false,
            description: "Only crawls whose start URL is on this site: a host name (`example.com`; case and a \
        final dot do not matter, `www.` is another site) matching every port of it, or a host and port \
        (`example.com:8080`).",
            schema: |_| json!({"type": "string", "minLength": 1, "maxLength": MAX_SITE_LEN}),
        },
        Param::Own {
            name: "cursor",
            at: In::Query,
            required: false,
            description: "The `next_cursor` of the previous page, as it was given (opaque). Send the same filters \
        with it.",
            schema: |_| json!({"type": "string", "minLength": 1, "maxLength": 200}),
        },
        Param::Own {
            name: "limit",
            at: In::Query,
            required: false,
            description: "Crawls per page.",
            schema: |_| json!({"type": "integer", "minimum": 1, "maximum": MAX_CRAWLS_PAGE, "default": DEFAULT_CRAWLS_PAGE}),
        },
        Param::ApiKeyQuery,
    ],
    body: None,
    responses: &[
        Response {
            status: "200",
            description: "A page of crawls.",
            headers: &[],
            content: Content::Json(answer::<CrawlList>),
        },
        error("400", "`invalid_request` (`details.parameter`): `state`, `site`, `cursor` or `limit` is malformed."),
        error("401", "`unauthorized`: no key, or an unknown key."),
        E403,
        E500,
    ],
};

/// `GET /api/v1/crawls/{id}`.
pub static GET_CRAWL: Operation = Operation {
    id: "getCrawl",
    summary: "A crawl's state, progress, site score and issues",
    description: "Consumes no quota. A crawl made with a key is seen only by that key's owner; one made \
        without a key only without one.",
    tag: "crawl",
    access: Access::KeyOptional,
    params: &[ID, Param::ApiKeyQuery],
    body: None,
    responses: &[
        Response {
            status: "200",
            description: "The crawl.",
            headers: &[],
            content: Content::Json(answer::<CrawlAnswer>),
        },
        E401,
        E403,
        E404,
        E500,
    ],
};

/// `GET /api/v1/crawls/{id}/compare`.
pub static COMPARE_CRAWLS: Operation = Operation {
    id: "compareCrawls",
    summary: "How a crawl differs from an earlier crawl of the same site",
    description: "Per rule, the URLs new, fixed and still failing; the URLs added and gone; the status and \
        indexability changes of the URLs both fetched; the site score change. Each list holds its first 100 \
        URLs in URL order beside its total. Both crawls must be the caller's, of one site (the start URL's \
        host and port), ended, and keep their pages. Consumes no quota.",
    tag: "crawl",
    access: Access::KeyOptional,
    params: &[
        ID,
        Param::Own {
            name: "against",
            at: In::Query,
            required: true,
            description: "The id of the crawl to compare with (usually the earlier one).",
            schema: |_| json!({"type": "string", "minLength": 1}),
        },
        Param::ApiKeyQuery,
    ],
    body: None,
    responses: &[
        Response {
            status: "200",
            description: "The comparison.",
            headers: &[],
            content: Content::Json(answer::<CrawlComparison>),
        },
        error(
            "400",
            "`missing_parameter` (`against`), or `invalid_request` naming `against`: a crawl of another site.",
        ),
        E401,
        E403,
        error("404", "`not_found`: either crawl is unknown, or another caller's."),
        error("409", "`conflict`: either crawl has not ended, or its pages were deleted by retention."),
        E500,
    ],
};

/// `GET /api/v1/crawls/{id}/pages`.
pub static CRAWL_PAGES: Operation = Operation {
    id: "crawlPages",
    summary: "The URLs of a crawl",
    description: "The URLs fetched or skipped so far, in crawl order, with cursor paging. Consumes no quota.",
    tag: "crawl",
    access: Access::KeyOptional,
    params: &[ID, CURSOR, LIMIT, Param::ApiKeyQuery],
    body: None,
    responses: &[
        Response {
            status: "200",
            description: "A page of URLs.",
            headers: &[],
            content: Content::Json(answer::<CrawlPages>),
        },
        error("400", "`invalid_request` (`details.parameter`): `cursor` or `limit`."),
        E401,
        E403,
        E404,
        E500,
    ],
};

/// `GET /api/v1/crawls/{id}/issues/{rule_id}`.
pub static CRAWL_ISSUE: Operation = Operation {
    id: "crawlIssue",
    summary: "The URLs a rule finds in a crawl",
    description: "For a site rule or a page rule: the affected URLs, with the linking page where one \
        exists, with cursor paging. Site rules run when the crawl ends. Consumes no quota.",
    tag: "crawl",
    access: Access::KeyOptional,
    params: &[
        ID,
        Param::Own {
            name: "rule_id",
            at: In::Path,
            required: true,
            description: "A site rule id (docs/RULES.md, \"Site rules\") or a page rule id.",
            schema: |_| json!({"type": "string"}),
        },
        CURSOR,
        LIMIT,
        Param::ApiKeyQuery,
    ],
    body: None,
    responses: &[
        Response {
            status: "200",
            description: "A page of findings.",
            headers: &[],
            content: Content::Json(answer::<CrawlIssue>),
        },
        error("400", "`invalid_request` (`details.parameter`): `cursor` or `limit`."),
        E401,
        E403,
        error("404", "`not_found`: no such crawl of this caller, or no such rule."),
        E500,
    ],
};

/// `GET /api/v1/crawls/{id}/export`.
pub static EXPORT_CRAWL: Operation = Operation {
    id: "exportCrawl",
    summary: "A crawl's pages or findings as CSV, JSON or XLSX",
    description: "The pages (one row per URL) or, with `table=issues`, the findings (one row per finding) as \
        CSV (RFC 4180, CRLF, a header line; lists joined by `;`; a field starting with `=`, `+`, `-` or `@` \
        prefixed with `'`) or JSON (the crawl and the rows, one member per column), or both as an XLSX \
        workbook (sheets `pages` and `issues`). The command line's `seo-audit crawl --format csv|json|xlsx` \
        writes the same columns. Consumes no quota.",
    tag: "crawl",
    access: Access::KeyOptional,
    params: &[
        ID,
        Param::Own {
            name: "format",
            at: In::Query,
            required: false,
            description: "",
            schema: |_| json!({"type": "string", "enum": ["csv", "json", "xlsx"], "default": "json"}),
        },
        Param::Own {
            name: "table",
            at: In::Query,
            required: false,
            description: "Which rows: `pages` or `issues` (not with `format=xlsx`, whose workbook has both).",
            schema: |_| json!({"type": "string", "enum": ["pages", "issues"], "default": "pages"}),
        },
        Param::ApiKeyQuery,
    ],
    body: None,
    responses: &[
        Response {
            status: "200",
            description: "The export.",
            headers: &[],
            content: Content::Media(&[
                ("application/json", answer::<CrawlExport>),
                ("text/csv", |_| json!({"type": "string"})),
                (
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
                    |_| json!({"type": "string", "format": "binary"}),
                ),
            ]),
        },
        error("400", "`invalid_request` (`details.parameter`): `format`, `table`; or the export does not fit within the analysis time limit."),
        E401,
        E403,
        E404,
        E500,
    ],
};

/// `DELETE /api/v1/crawls/{id}`.
pub static CANCEL_CRAWL: Operation = Operation {
    id: "cancelCrawl",
    summary: "Cancel a crawl",
    description: "A `queued` or `running` crawl becomes `cancelled`; the pages done are kept (and scored \
        when the runner stops). An ended crawl is answered as it is. Consumes no quota.",
    tag: "crawl",
    access: Access::KeyOptional,
    params: &[ID, Param::ApiKeyQuery],
    body: None,
    responses: &[
        Response {
            status: "200",
            description: "The crawl.",
            headers: &[],
            content: Content::Json(answer::<CrawlAnswer>),
        },
        E401,
        E403,
        E404,
        E500,
    ],
};

/// `GET /crawls/{id}`.
pub static CRAWL_REPORT: Operation = Operation {
    id: "crawlReport",
    summary: "The report page of a site crawl",
    description: "For people: the site score, charts, each issue with its first affected URLs (and the linking \
        page), and the pages table, 100 rows a page, sorted, filtered and paged by the query (links and a GET \
        form: the page runs no script). Reloads itself every 5 seconds while the crawl runs. Who may see it as \
        for `GET /api/v1/crawls/{id}`, or whoever holds a live share link of it (`share`, made by \
        `POST /api/v1/crawls/{id}/shares`; the key then stays out of the URL). Consumes no quota; the per-IP \
        flood guard of the report pages applies.",
    tag: "crawl",
    access: Access::KeyOptional,
    params: &[
        ID,
        Param::Own {
            name: "sort",
            at: In::Query,
            required: false,
            description: "The pages table's sort column (`crawl`: the crawl's order). Empty, as a form sends it: \
        the default.",
            schema: |_| json!({"type": "string", "enum": ["", "crawl", "url", "status", "depth", "inlinks", "score", "failed", "title"], "default": "crawl"}),
        },
        Param::Own {
            name: "order",
            at: In::Query,
            required: false,
            description: "The sort direction; ties stay in crawl order. Empty, as a form sends it: the default.",
            schema: |_| json!({"type": "string", "enum": ["", "asc", "desc"], "default": "asc"}),
        },
        Param::Own {
            name: "status",
            at: In::Query,
            required: false,
            description: "Only URLs with this HTTP status (`404`), of this class (`4xx`), or with none (`none`: no \
        answer, or skipped). Empty: any.",
            schema: |_| json!({"type": "string", "pattern": "^$|^[1-5][0-9][0-9]$|^[1-5][xX][xX]$|^[nN][oO][nN][eE]$"}),
        },
        Param::Own {
            name: "rule",
            at: In::Query,
            required: false,
            description: "Only URLs a finding of this page or site rule names. Empty: any.",
            schema: |_| json!({"type": "string", "maxLength": 100}),
        },
        Param::Own {
            name: "q",
            at: In::Query,
            required: false,
            description: "Only URLs that contain this text (ASCII letters compared without case). Empty: any.",
            schema: |_| json!({"type": "string", "maxLength": 200}),
        },
        Param::Own {
            name: "page",
            at: In::Query,
            required: false,
            description: "The page of the table, 100 rows each.",
            schema: |_| json!({"type": "integer", "minimum": 1, "maximum": 10000, "default": 1}),
        },
        Param::Own {
            name: "share",
            at: In::Query,
            required: false,
            description: "A share link's token: opens the report without a key while the link is live.",
            schema: |_| json!({"type": "string", "maxLength": 200}),
        },
        Param::ApiKeyQuery,
    ],
    body: None,
    responses: &[
        Response {
            status: "200",
            description: "The report.",
            headers: &[Header::Own { name: "Cache-Control", description: "`no-store`." }],
            content: Content::Html,
        },
        Response {
            status: "4XX",
            description: "400 `invalid_request` (a malformed `sort`, `order`, `status`, `rule`, `q` or `page`, \
        named), 404 `not_found` (no such crawl of this caller; a share token that is expired, revoked, altered or \
        of another crawl), 401/403 for a bad key, 429 from the flood guard: HTML pages with the code in \
        `x-error-code`.",
            headers: &[Header::ErrorCode],
            content: Content::Html,
        },
        Response { status: "500", description: "`internal`.", headers: &[Header::ErrorCode], content: Content::Html },
    ],
};
