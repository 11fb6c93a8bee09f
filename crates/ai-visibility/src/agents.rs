//! What an agent meets at a site beyond robots.txt and llms.txt (docs/AI-VISIBILITY.md,
//! "What agents meet"): the discovery documents it looks for and where it finds them, whether
//! the page comes as markdown on request, and whether the server (or its CDN) answers the
//! main AI crawlers what it answers a browser. Pure: the application fetches, within the
//! budget documented there, and hands the answers in as [`Answer`]s.

use serde::Serialize;
use url::Url;

use audit_core::parse_link_header;

use crate::discovery::{DocFinding, DocKind};
use crate::llms::LlmsTxt;
use crate::robots::Robots;

/// The time all the probes of one readiness check may take together; each request also has
/// the fetcher's own text timeout. What is left when it runs out is reported as not checked.
pub const AGENT_PROBE_BUDGET: std::time::Duration = std::time::Duration::from_secs(20);

/// The most requests one check's probes make: llms-full.txt, the llms.txt links, the
/// discovery places, two markdown fetches, the browser and the crawlers of [`EDGE_BOTS`].
pub const MAX_AGENT_PROBES: u32 =
    1 + MAX_LLMS_LINK_CHECKS as u32 + MAX_DISCOVERY_FETCHES as u32 + 2 + 1 + EDGE_BOTS.len() as u32;

/// The user agent of the reference fetch the crawlers' answers are compared with: a current
/// desktop Chrome, as a visitor's browser sends it.
pub const BROWSER_USER_AGENT: &str =
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

/// One AI crawler or fetcher whose answer is compared with the browser's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EdgeBot {
    /// The registry token (`GPTBot`).
    pub bot: &'static str,
    /// The user agent it sends, as its operator documents it.
    pub user_agent: &'static str,
}

const fn edge_bot(bot: &'static str, user_agent: &'static str) -> EdgeBot {
    EdgeBot { bot, user_agent }
}

/// The crawlers and fetchers the edge check sends, in order: the main ones of the search,
/// user-fetch and training classes. With the browser's fetch that makes 12 requests, the
/// bound of one check.
pub const EDGE_BOTS: &[EdgeBot] = &[
    edge_bot("GPTBot", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)"),
    edge_bot(
        "OAI-SearchBot",
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot)",
    ),
    edge_bot(
        "ChatGPT-User",
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot",
    ),
    edge_bot("ClaudeBot", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)"),
    edge_bot("Claude-User", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)"),
    edge_bot("PerplexityBot", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)"),
    edge_bot(
        "Perplexity-User",
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)",
    ),
    edge_bot("CCBot", "CCBot/2.0 (https://commoncrawl.org/faq/)"),
    edge_bot("Bytespider", "Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)"),
    edge_bot(
        "Applebot",
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)",
    ),
    edge_bot(
        "Google-Agent",
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Google-Agent; +https://developers.google.com/search/docs/crawling-indexing/google-user-triggered-fetchers)",
    ),
];

/// The markers of the common CDN and bot-manager interstitials: a header (name, value
/// fragment; empty for any value) or a body fragment, each with the name reported. Only
/// markers of the interstitial itself: Cloudflare injects its `challenge-platform` script
/// and DataDome its `x-datadome` header into pages it lets through, so neither counts.
pub(crate) const CHALLENGE_HEADERS: &[(&str, &str, &str)] = &[
    ("cf-mitigated", "challenge", "Cloudflare challenge (cf-mitigated header)"),
    ("x-amzn-waf-action", "", "AWS WAF (x-amzn-waf-action header)"),
];
pub(crate) const CHALLENGE_BODIES: &[(&str, &str)] = &[
    ("_cf_chl_opt", "Cloudflare challenge page"),
    ("<title>just a moment...</title>", "Cloudflare challenge page"),
    ("attention required! | cloudflare", "Cloudflare block page"),
    ("captcha-delivery.com", "DataDome captcha"),
    ("_incapsula_resource", "Imperva Incapsula"),
    ("px-captcha", "HUMAN (PerimeterX) captcha"),
    ("/_sec/cp_challenge", "Akamai Bot Manager challenge"),
    ("sgcaptcha", "SiteGround captcha"),
    ("vercel security checkpoint", "Vercel security checkpoint"),
];

/// The bot-manager interstitial `headers` and `body` carry, if any.
pub fn challenge_marker(headers: &[(String, String)], body: &[u8]) -> Option<&'static str> {
    for (name, fragment, what) in CHALLENGE_HEADERS {
        let hit =
            headers.iter().any(|(n, v)| n.eq_ignore_ascii_case(name) && v.to_ascii_lowercase().contains(fragment));
        if hit {
            return Some(what);
        }
    }
    // Interstitials are small pages; their markers sit in the first 64 KiB.
    let head = String::from_utf8_lossy(&body[..body.len().min(64 * 1024)]).to_ascii_lowercase();
    CHALLENGE_BODIES.iter().find(|(fragment, _)| head.contains(fragment)).map(|(_, what)| *what)
}

/// Bytes of visible text in an HTML body: what is outside tags, `<script>`, `<style>` and
/// comments, white-space runs counted once. A cheap measure for comparing two answers of
/// one page, not the audit's text extraction.
pub fn visible_text_bytes(body: &[u8]) -> usize {
    let lower = body.to_ascii_lowercase();
    let mut count = 0usize;
    let mut i = 0usize;
    let mut space = true;
    while i < lower.len() {
        let rest = &lower[i..];
        if rest.starts_with(b"<script") || rest.starts_with(b"<style") || rest.starts_with(b"<!--") {
            let end: &[u8] = if rest.starts_with(b"<script") {
                b"</script"
            } else if rest.starts_with(b"<style") {
                b"</style"
            } else {
                b"-->"
            };
            // A closing tag is skipped by the tag arm below; a comment ends here.
            let skip = if end == b"-->" { end.len() } else { 0 };
            i += find(rest, end).map_or(rest.len(), |at| at.max(1) + skip);
            continue;
        }
        if rest[0] == b'<' {
            i += find(rest, b">").map_or(rest.len(), |at| at + 1);
            space = true;
            continue;
        }
        if rest[0].is_ascii_whitespace() {
            space = true;
        } else {
            if space && count > 0 {
                count += 1;
            }
            space = false;
            count += 1;
        }
        i += 1;
    }
    count
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// One answer of the server, as the probes saw it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "AgentProbeAnswer", deny_unknown_fields))]
pub struct Answer {
    /// The HTTP status; `None` when the server did not answer (see `error`).
    pub status: Option<u16>,
    /// The `Content-Type` of the answer.
    pub content_type: Option<String>,
    /// Body bytes (after content decoding).
    pub bytes: usize,
    /// Bytes of visible text in the body (see [`visible_text_bytes`]).
    pub text_bytes: usize,
    /// The interstitial the answer is, when it carries a bot manager's marker.
    pub challenge: Option<&'static str>,
    /// Why there was no answer (a refused connection, a timeout, the address guard).
    pub error: Option<String>,
}

impl Answer {
    /// The answer of a fetch that got one.
    pub fn of(status: u16, headers: &[(String, String)], content_type: Option<&str>, body: &[u8]) -> Answer {
        Answer {
            status: Some(status),
            content_type: content_type.map(str::to_owned),
            bytes: body.len(),
            text_bytes: visible_text_bytes(body),
            challenge: challenge_marker(headers, body),
            error: None,
        }
    }

    /// A fetch that got no answer.
    pub fn failed(error: impl Into<String>) -> Answer {
        Answer { error: Some(error.into()), ..Answer::default() }
    }

    fn success(&self) -> bool {
        self.status.is_some_and(|s| (200..300).contains(&s)) && self.challenge.is_none()
    }
}

/// What one crawler got, against the browser.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(deny_unknown_fields))]
pub struct EdgeVerdict {
    /// The registry token.
    pub bot: &'static str,
    /// The user agent sent.
    pub user_agent: &'static str,
    /// Its answer.
    pub answer: Answer,
    /// Whether it was turned away where the browser was not: another status, a challenge
    /// page, no answer, or less than half the browser's visible text.
    pub blocked: bool,
    /// What shows it, in a sentence (`None` when not blocked).
    pub evidence: Option<String>,
}

/// The `agents.edge_blocking` object of the readiness answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(deny_unknown_fields))]
pub struct EdgeBlocking {
    /// The browser's answer, which the crawlers' are compared with.
    pub browser: Answer,
    /// Whether the comparison means anything: the browser got the page (2xx, no challenge).
    /// When it did not, the site turns everyone away and no crawler is judged blocked.
    pub comparable: bool,
    /// One verdict per crawler of [`EDGE_BOTS`] that was fetched, in that order.
    pub bots: Vec<EdgeVerdict>,
    /// The crawlers of [`EDGE_BOTS`] not fetched because the check's time budget ran out.
    pub not_checked: Vec<&'static str>,
    /// The `bot` of each blocked verdict.
    pub blocked: Vec<&'static str>,
}

/// Compares each crawler's answer with the browser's.
pub fn edge_blocking(browser: Answer, bots: Vec<(EdgeBot, Answer)>, not_checked: Vec<&'static str>) -> EdgeBlocking {
    let comparable = browser.success();
    let verdicts: Vec<EdgeVerdict> = bots
        .into_iter()
        .map(|(bot, answer)| {
            let evidence = if comparable { difference(&browser, &answer) } else { None };
            EdgeVerdict { bot: bot.bot, user_agent: bot.user_agent, blocked: evidence.is_some(), evidence, answer }
        })
        .collect();
    let blocked = verdicts.iter().filter(|v| v.blocked).map(|v| v.bot).collect();
    EdgeBlocking { browser, comparable, bots: verdicts, not_checked, blocked }
}

/// Why `bot` was turned away where `browser` (a success) was not; `None` when it was not.
fn difference(browser: &Answer, bot: &Answer) -> Option<String> {
    let seen = browser.status.unwrap_or_default();
    let Some(status) = bot.status else {
        return Some(format!(
            "no answer ({}) where the browser got {seen}",
            bot.error.as_deref().unwrap_or("the connection failed")
        ));
    };
    if let Some(what) = bot.challenge {
        return Some(format!("a challenge page ({what}, status {status}) where the browser got the page"));
    }
    if !(200..300).contains(&status) {
        let meaning = match status {
            402 => " Payment Required (pay per crawl)",
            403 => " Forbidden",
            429 => " Too Many Requests",
            503 => " Service Unavailable",
            _ => "",
        };
        return Some(format!("status {status}{meaning} where the browser got {seen}"));
    }
    // A page of little text may differ by a cookie banner; only a page with real text,
    // served at less than half, says the crawler got something else.
    if browser.text_bytes >= 200 && bot.text_bytes * 2 < browser.text_bytes {
        return Some(format!(
            "a smaller page: {} bytes of visible text where the browser got {}",
            bot.text_bytes, browser.text_bytes
        ));
    }
    None
}

/// How an agent found a discovery document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum FoundBy {
    /// Its well-known path at the page's origin.
    WellKnown,
    /// A `<link rel>` element of the page.
    LinkElement,
    /// A `Link` header of the page's answer.
    LinkHeader,
    /// A robots.txt `Agentmap:` line (AI catalog only).
    RobotsAgentmap,
}

/// A place to look for a discovery document, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// What is expected there.
    pub kind: DocKind,
    /// Where.
    pub url: Url,
    /// The ways it was found, in [`FoundBy`] order.
    pub found_by: Vec<FoundBy>,
}

/// Most places looked at for discovery documents: the five well-known paths and three
/// pointed at by the page or robots.txt.
pub const MAX_DISCOVERY_FETCHES: usize = 8;

fn doc_kind_of_rel(rel: &str) -> Option<DocKind> {
    match rel {
        "ai-catalog" => Some(DocKind::AiCatalog),
        "api-catalog" => Some(DocKind::ApiCatalog),
        _ => None,
    }
}

/// Where to look for the discovery documents of the page at `page`: each kind's well-known
/// path at its origin, then the AI and API catalogs its `<link>` elements (`page_links`, as
/// [`audit_core::Page::agent_links`] keeps them), its `Link` headers (`link_headers`) and the
/// robots.txt `Agentmap:` lines point at. One candidate per URL, at most
/// [`MAX_DISCOVERY_FETCHES`]; only http(s) URLs.
pub fn discovery_candidates(
    page: &Url,
    page_links: &[(String, String, Option<String>)],
    link_headers: &[&str],
    robots: Option<&Robots>,
) -> Vec<Candidate> {
    let mut out: Vec<Candidate> = Vec::new();
    let mut add = |kind: DocKind, url: Option<Url>, by: FoundBy| {
        let Some(url) = url.filter(|u| matches!(u.scheme(), "http" | "https")) else { return };
        if let Some(c) = out.iter_mut().find(|c| c.url == url) {
            if !c.found_by.contains(&by) {
                c.found_by.push(by);
            }
        } else if out.len() < MAX_DISCOVERY_FETCHES {
            out.push(Candidate { kind, url, found_by: vec![by] });
        }
    };
    for kind in DocKind::ALL {
        add(kind, page.join(kind.well_known_path()).ok(), FoundBy::WellKnown);
    }
    for (rel, href, _) in page_links {
        if let Some(kind) = doc_kind_of_rel(rel) {
            add(kind, page.join(href.trim()).ok(), FoundBy::LinkElement);
        }
    }
    for value in link_headers {
        for (target, rels, _) in parse_link_header(value) {
            for kind in rels.iter().filter_map(|r| doc_kind_of_rel(r)) {
                add(kind, page.join(&target).ok(), FoundBy::LinkHeader);
            }
        }
    }
    // The first lines only: a candidate a line at most, and a file may hold tens of
    // thousands of them (this runs on the caller's async worker).
    for map in robots.map(Robots::agentmaps).unwrap_or_default().iter().take(MAX_DISCOVERY_FETCHES) {
        add(DocKind::AiCatalog, page.join(map.trim()).ok(), FoundBy::RobotsAgentmap);
    }
    out
}

/// One discovery document as found and judged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(deny_unknown_fields))]
pub struct DiscoveredDoc {
    /// Which document.
    pub kind: DocKind,
    /// Where it was looked for.
    pub url: String,
    /// How an agent finds it there.
    pub found_by: Vec<FoundBy>,
    /// The status it answered; `None` when it did not answer.
    pub status: Option<u16>,
    /// Whether a document was served there (a 2xx answer).
    pub present: bool,
    /// Present and without error-level findings.
    pub valid: bool,
    /// What the validator found (docs/AI-VISIBILITY.md, "Discovery documents").
    pub findings: Vec<DocFinding>,
}

impl DiscoveredDoc {
    /// Judges what `candidate` answered: its status and body (`None`: no answer).
    pub fn judge(candidate: &Candidate, answer: Option<(u16, &str)>) -> DiscoveredDoc {
        let (status, present, findings) = match answer {
            Some((status, body)) if (200..300).contains(&status) => (Some(status), true, candidate.kind.validate(body)),
            Some((status, _)) => (Some(status), false, Vec::new()),
            None => (None, false, Vec::new()),
        };
        let valid = present && findings.iter().all(|f| f.severity != "error");
        DiscoveredDoc {
            kind: candidate.kind,
            url: candidate.url.to_string(),
            found_by: candidate.found_by.clone(),
            status,
            present,
            valid,
            findings,
        }
    }
}

/// Whether an answer is markdown: a success whose type says so (`text/markdown`,
/// `text/x-markdown`) or a `text/plain` body that is no HTML page.
pub fn is_markdown_answer(status: u16, content_type: Option<&str>, body: &[u8]) -> bool {
    if !(200..300).contains(&status) {
        return false;
    }
    let kind = content_type.unwrap_or("").to_ascii_lowercase();
    let text = String::from_utf8_lossy(&body[..body.len().min(1024)]).trim_start().to_ascii_lowercase();
    let html = text.starts_with("<!doctype") || text.starts_with("<html");
    if kind.starts_with("text/markdown") || kind.starts_with("text/x-markdown") {
        return !html;
    }
    kind.starts_with("text/plain") && !html && !text.is_empty()
}

/// The `agents.markdown` object: can an agent get the page as markdown?
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(deny_unknown_fields))]
pub struct MarkdownReport {
    /// The page fetched with `Accept: text/markdown` came back as markdown.
    pub negotiated: bool,
    /// The `Content-Type` of that answer.
    pub negotiated_content_type: Option<String>,
    /// The markdown alternate a `<link rel="alternate" type="text/markdown">` or a `Link`
    /// header names, if any.
    pub alternate: Option<String>,
    /// The `.md` twin looked at when no alternate is named (`/docs/page` → `/docs/page.md`,
    /// `/docs/` → `/docs/index.md`).
    pub twin: Option<String>,
    /// Whether the alternate (or else the twin) answered markdown.
    pub alternate_served: bool,
    /// Whether any of the three ways gives an agent markdown.
    pub available: bool,
}

/// The markdown alternate the page's `<link>` elements or `Link` headers name.
pub fn markdown_alternate(
    page: &Url,
    page_links: &[(String, String, Option<String>)],
    link_headers: &[&str],
) -> Option<Url> {
    let markdown = |kind: &Option<String>| kind.as_deref().is_some_and(|k| k.starts_with("text/markdown"));
    page_links
        .iter()
        .find(|(rel, _, kind)| rel == "alternate" && markdown(kind))
        .and_then(|(_, href, _)| page.join(href.trim()).ok())
        .or_else(|| {
            link_headers.iter().flat_map(|v| parse_link_header(v)).find_map(|(target, rels, kind)| {
                (rels.iter().any(|r| r == "alternate") && markdown(&kind)).then(|| page.join(&target).ok()).flatten()
            })
        })
        .filter(|u| matches!(u.scheme(), "http" | "https"))
}

/// The `.md` twin of a page URL (query and fragment dropped).
pub fn markdown_twin(page: &Url) -> Url {
    let mut twin = page.clone();
    twin.set_query(None);
    twin.set_fragment(None);
    let path = page.path();
    let path = if path.ends_with('/') { format!("{path}index.md") } else { format!("{path}.md") };
    twin.set_path(&path);
    twin
}

/// The `agents.llms_full_txt` object: the full-content companion of llms.txt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(deny_unknown_fields))]
pub struct LlmsFullReport {
    /// Where it was looked for.
    pub url: String,
    /// Whether a non-empty file was served there.
    pub present: bool,
    /// Present, markdown (not an HTML page) and titled with an H1.
    pub valid: bool,
    /// Its H1.
    pub title: Option<String>,
    /// Its size in bytes.
    pub bytes: usize,
    /// Why it is not valid, in a sentence.
    pub problem: Option<String>,
}

impl LlmsFullReport {
    /// Judges what `/llms-full.txt` answered at `url` (`None`: no file there). The file holds
    /// the documentation itself, so only the llms.txt shape that applies to it is checked:
    /// markdown, and a title first. Its sections hold prose, not link lists.
    pub fn judge(url: &str, body: Option<&str>) -> LlmsFullReport {
        let Some(body) = body.filter(|b| !b.trim().is_empty()) else {
            return LlmsFullReport {
                url: url.to_owned(),
                present: false,
                valid: false,
                title: None,
                bytes: 0,
                problem: None,
            };
        };
        let doc = LlmsTxt::parse(body);
        let problem = if doc.has_issue(crate::llms::IssueCode::HtmlNotMarkdown) {
            Some("the server sent an HTML page instead of a Markdown file".to_owned())
        } else if doc.title.is_none() {
            Some("the file has no # H1 title".to_owned())
        } else {
            None
        };
        LlmsFullReport {
            url: url.to_owned(),
            present: true,
            valid: problem.is_none(),
            title: doc.title,
            bytes: body.len(),
            problem,
        }
    }
}

/// One llms.txt link fetched to see that it leads somewhere.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(deny_unknown_fields))]
pub struct LinkCheck {
    /// The link as resolved.
    pub url: String,
    /// Its status; `None` when it did not answer.
    pub status: Option<u16>,
    /// Whether it answered 2xx.
    pub ok: bool,
}

/// Most llms.txt links fetched per check: the first ones, as an agent reading the file
/// would.
pub const MAX_LLMS_LINK_CHECKS: usize = 3;

/// The first [`MAX_LLMS_LINK_CHECKS`] distinct http(s) links of an llms.txt, resolved
/// against where it was served.
pub fn llms_links_to_check(llms_url: &Url, body: &str) -> Vec<Url> {
    let doc = LlmsTxt::parse(body);
    let mut out: Vec<Url> = Vec::new();
    for link in doc.links() {
        let Ok(url) = llms_url.join(link.url.trim()) else { continue };
        if matches!(url.scheme(), "http" | "https") && !out.contains(&url) {
            out.push(url);
            if out.len() == MAX_LLMS_LINK_CHECKS {
                break;
            }
        }
    }
    out
}

/// One problem of a WebMCP form, as Lighthouse's `webmcp-schema-validity` audit names them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(deny_unknown_fields))]
pub struct WebMcpFinding {
    /// `error` (agents cannot call the tool as declared) or `warning`.
    pub severity: &'static str,
    /// The form's `toolname`, or `form <n>` (1-based, in document order) without one.
    pub form: String,
    /// What is wrong, in a sentence.
    pub message: String,
}

/// The `agents.webmcp` object: the page's WebMCP declarative forms, checked statically.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(deny_unknown_fields))]
pub struct WebMcpReport {
    /// Forms that declare a tool (`toolname` or `tooldescription`).
    pub forms: usize,
    /// Forms declared, without error-level findings.
    pub valid: bool,
    /// What is wrong, errors first.
    pub findings: Vec<WebMcpFinding>,
}

impl WebMcpReport {
    /// Checks the forms as Lighthouse's `webmcp-schema-validity` does, without a browser: a
    /// form needs `toolname` and `tooldescription` (errors), a required field a `name`
    /// (error), any other field a `name` and each field a description (warnings).
    pub fn of(forms: &[audit_core::WebMcpForm]) -> WebMcpReport {
        let mut findings = Vec::new();
        for (i, form) in forms.iter().enumerate() {
            let id = form
                .toolname
                .as_deref()
                .filter(|n| !n.trim().is_empty())
                .map_or_else(|| format!("form {}", i + 1), str::to_owned);
            let mut push =
                |severity, message: String| findings.push(WebMcpFinding { severity, form: id.clone(), message });
            if form.toolname.as_deref().is_none_or(|n| n.trim().is_empty()) {
                push("error", "the form has no `toolname`: agents cannot name the tool".to_owned());
            }
            if form.tooldescription.as_deref().is_none_or(|d| d.trim().is_empty()) {
                push("error", "the form has no `tooldescription`: agents cannot tell what the tool does".to_owned());
            }
            for (n, field) in form.fields.iter().enumerate() {
                match (&field.name, field.required) {
                    (None, true) => {
                        push("error", format!("required field {} has no `name`: the parameter has none", n + 1))
                    }
                    (None, false) => push("warning", format!("field {} has no `name`", n + 1)),
                    (Some(name), _) if !field.described => push(
                        "warning",
                        format!("field `{name}` has no `toolparamdescription` or `title` to tell agents what it takes"),
                    ),
                    _ => {}
                }
            }
        }
        findings.sort_by_key(|f| f.severity != "error");
        let valid = !forms.is_empty() && findings.iter().all(|f| f.severity != "error");
        WebMcpReport { forms: forms.len(), valid, findings }
    }
}

/// The `agents` object of the AI-readiness answer (docs/API.md, "POST /api/ai-readiness").
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(deny_unknown_fields))]
pub struct AgentReport {
    /// `/llms-full.txt`.
    pub llms_full_txt: LlmsFullReport,
    /// The first links of llms.txt, fetched.
    pub llms_links: Vec<LinkCheck>,
    /// Every place a discovery document was looked for, in the order of
    /// [`discovery_candidates`].
    pub discovery: Vec<DiscoveredDoc>,
    /// Markdown for agents.
    pub markdown: MarkdownReport,
    /// What the server answers the main AI crawlers, against a browser.
    pub edge_blocking: EdgeBlocking,
    /// The page's WebMCP declarative forms.
    pub webmcp: WebMcpReport,
    /// Requests this report cost (the page, robots.txt and llms.txt not counted).
    pub requests: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(text: &str) -> Answer {
        Answer::of(200, &[], Some("text/html"), text.as_bytes())
    }

    #[test]
    fn visible_text_skips_tags_scripts_and_comments() {
        let html = b"<html><head><style>p{}</style><script>var a = 1;</script></head>\
                     <body><!-- note --><p>Hello   <b>big</b>\n world</p></body></html>";
        assert_eq!(visible_text_bytes(html), "Hello big world".len());
    }

    #[test]
    fn challenge_markers_in_headers_and_bodies() {
        let cf = vec![("CF-Mitigated".to_owned(), "challenge".to_owned())];
        assert_eq!(challenge_marker(&cf, b""), Some("Cloudflare challenge (cf-mitigated header)"));
        let page = b"<html><head><title>Just a moment...</title></head></html>";
        assert_eq!(challenge_marker(&[], page), Some("Cloudflare challenge page"));
        // What Cloudflare and DataDome add to pages they let through is no challenge.
        let passed = b"<p>Hi</p><script src=\"/cdn-cgi/challenge-platform/scripts/jsd/main.js\"></script>";
        let datadome = vec![("x-datadome".to_owned(), "protected".to_owned())];
        assert_eq!(challenge_marker(&datadome, passed), None);
        assert_eq!(challenge_marker(&[], b"<p>Welcome</p>"), None);
    }

    #[test]
    fn crawlers_are_judged_against_the_browser() {
        let text = format!("<p>{}</p>", "word ".repeat(100));
        let browser = ok(&text);
        let bots = vec![
            (EDGE_BOTS[0], Answer::of(403, &[], None, b"Forbidden")),
            (EDGE_BOTS[1], Answer::of(402, &[], None, b"")),
            (EDGE_BOTS[2], ok("<title>Just a moment...</title>")),
            (EDGE_BOTS[3], ok("<p>short</p>")),
            (EDGE_BOTS[4], ok(&text)),
            (EDGE_BOTS[5], Answer::failed("connection reset")),
        ];
        let edge = edge_blocking(browser, bots, vec!["CCBot"]);
        assert!(edge.comparable);
        assert_eq!(edge.blocked, ["GPTBot", "OAI-SearchBot", "ChatGPT-User", "ClaudeBot", "PerplexityBot"]);
        let evidence: Vec<&str> = edge.bots.iter().filter_map(|b| b.evidence.as_deref()).collect();
        assert!(evidence[0].starts_with("status 403 Forbidden"), "{evidence:?}");
        assert!(evidence[1].contains("pay per crawl"), "{evidence:?}");
        assert!(evidence[2].starts_with("a challenge page"), "{evidence:?}");
        assert!(evidence[3].starts_with("a smaller page"), "{evidence:?}");
        assert!(evidence[4].contains("connection reset"), "{evidence:?}");
        // A site that turns the browser away too blocks nobody in particular.
        let edge = edge_blocking(
            Answer::of(403, &[], None, b""),
            vec![(EDGE_BOTS[0], Answer::of(403, &[], None, b""))],
            vec![],
        );
        assert!(!edge.comparable);
        assert!(edge.blocked.is_empty());
    }

    #[test]
    fn the_edge_check_stays_within_twelve_requests() {
        assert_eq!(EDGE_BOTS.len() + 1, 12);
        for bot in EDGE_BOTS {
            assert!(crate::find_bot(bot.bot).is_some(), "{} is in the registry", bot.bot);
            assert!(bot.user_agent.contains(bot.bot.split('-').next().unwrap_or(bot.bot)), "{}", bot.bot);
        }
    }

    #[test]
    fn link_headers_and_candidates() {
        let page = Url::parse("https://a.example/docs/x").unwrap();
        let robots =
            Robots::parse(b"User-agent: *\nAllow: /\nAgentmap: https://a.example/.well-known/ai-catalog.json\n");
        let links = vec![("ai-catalog".to_owned(), "/agents.json".to_owned(), None)];
        let found = discovery_candidates(&page, &links, &[r#"</apis>; rel="api-catalog""#], Some(&robots));
        assert_eq!(found.len(), 7);
        assert_eq!(found[0].found_by, [FoundBy::WellKnown, FoundBy::RobotsAgentmap]);
        assert_eq!(found[5].url.as_str(), "https://a.example/agents.json");
        assert_eq!(found[6].kind, DocKind::ApiCatalog);
        assert_eq!(found[6].found_by, [FoundBy::LinkHeader]);
        let alternate = markdown_alternate(&page, &[], &[r#"</p.md>; rel="alternate"; type="text/markdown""#]);
        assert_eq!(alternate.map(String::from).as_deref(), Some("https://a.example/p.md"));
        assert_eq!(markdown_twin(&page).as_str(), "https://a.example/docs/x.md");
        assert_eq!(
            markdown_twin(&Url::parse("https://a.example/?q=1").unwrap()).as_str(),
            "https://a.example/index.md"
        );
    }

    #[test]
    fn webmcp_forms_are_checked_like_lighthouse() {
        let html = r#"<html><body>
            <form toolname="quote" tooldescription="Prices a frame">
              <input name="width" required title="Width in metres"><input name="note"><input required>
              <input type="submit"><input type="hidden" name="csrf"></form>
            <form tooldescription="No name"><textarea name="q" toolparamdescription="Query"></textarea></form>
            <form><input name="plain"></form>
            <input name="outside" required></body></html>"#;
        let page = audit_core::Page::parse("https://a.example/", html.as_bytes(), audit_core::HttpFacts::default());
        assert_eq!(page.webmcp_forms.len(), 2);
        assert_eq!(page.webmcp_forms[0].fields.len(), 3);
        let report = WebMcpReport::of(&page.webmcp_forms);
        let got: Vec<(&str, &str)> = report.findings.iter().map(|f| (f.severity, f.form.as_str())).collect();
        assert_eq!(got, [("error", "quote"), ("error", "form 2"), ("warning", "quote")]);
        assert!(report.findings[0].message.starts_with("required field 3"));
        assert!(report.findings[2].message.contains("`note`"));
        assert!(!report.valid);
        assert!(!WebMcpReport::of(&[]).valid);
    }

    #[test]
    fn markdown_answers() {
        assert!(is_markdown_answer(200, Some("text/markdown; charset=utf-8"), b"# Title"));
        assert!(is_markdown_answer(200, Some("text/plain"), b"# Title"));
        assert!(!is_markdown_answer(200, Some("text/html"), b"<!doctype html>"));
        assert!(!is_markdown_answer(200, Some("text/markdown"), b"<!DOCTYPE html><html>"));
        assert!(!is_markdown_answer(404, Some("text/markdown"), b"# Not found"));
    }

    #[test]
    fn llms_full_and_links() {
        assert!(LlmsFullReport::judge("u", Some("# Docs\n\nAll of it.\n")).valid);
        let html = LlmsFullReport::judge("u", Some("<!doctype html><html></html>"));
        assert!(html.present && !html.valid);
        assert!(!LlmsFullReport::judge("u", None).present);
        let at = Url::parse("https://a.example/llms.txt").unwrap();
        let body = "# A\n## Docs\n- [a](/a.md)\n- [a again](https://a.example/a.md)\n- [b](https://b.example/b)\n- [c](/c)\n- [d](/d)\n";
        let links: Vec<String> = llms_links_to_check(&at, body).into_iter().map(String::from).collect();
        assert_eq!(links, ["https://a.example/a.md", "https://b.example/b", "https://a.example/c"]);
    }
}
