//! The cards of the agent tools (docs/API.md, the tools table): what each tool says about
//! itself to agents (title, description, behaviour hints, whether it needs a key) and the
//! example requests of its skill in the agent card. Content only: the server pairs each card
//! with the tool's typed arguments, result and handler, and maps it to the protocol's types.

/// Behaviour hints of a tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hints {
    /// The tool changes nothing.
    pub read_only: bool,
    /// The tool reaches outside the server (fetches a page).
    pub open_world: bool,
    /// The tool may destroy data; `None` where it does not apply (read-only tools).
    pub destructive: Option<bool>,
    /// Repeating the call has no further effect; `None` where it does not apply.
    pub idempotent: Option<bool>,
}

/// Hints of a tool that changes nothing and reaches nothing outside the server's own data.
/// destructiveHint and idempotentHint only mean something for tools that are not
/// read-only, so read-only tools leave them out.
pub const READ_ONLY_LOCAL: Hints = Hints { read_only: true, open_world: false, destructive: None, idempotent: None };

/// Hints of a tool that fetches pages and stores what it finds, adding each time.
pub const AUDITS: Hints =
    Hints { read_only: false, open_world: true, destructive: Some(false), idempotent: Some(false) };

/// What a tool says about itself.
#[derive(Debug, Clone, Copy)]
pub struct ToolCard {
    /// Short human title.
    pub title: &'static str,
    /// Whether it needs an API key with the `mcp` scope (a write tool) or is public.
    pub needs_key: bool,
    /// Whether calling it charges no quota unit (docs/API.md, "Quota" of the agent-tool
    /// endpoint): status polls that only read the caller's own stored state, so an agent may
    /// poll them as often as it needs. Every other `tools/call` costs one unit, like its REST
    /// twin.
    pub free_of_quota: bool,
    /// Behaviour hints.
    pub hints: Hints,
    /// What the tool does and when to use it, for the agent.
    pub description: &'static str,
    /// Example requests of its skill in the agent card.
    pub examples: &'static [&'static str],
}

/// Whether calling the tool `name` is free of quota ([`ToolCard::free_of_quota`]).
pub fn free_of_quota(name: &str) -> bool {
    card(name).is_some_and(|c| c.free_of_quota)
}

/// The tools that charge no quota unit, in the documented order.
pub fn free_of_quota_tools() -> impl Iterator<Item = &'static str> {
    CARDS.iter().filter(|(_, c)| c.free_of_quota).map(|(name, _)| *name)
}

/// The card of the tool called `name`.
pub fn card(name: &str) -> Option<&'static ToolCard> {
    CARDS.iter().find(|(n, _)| *n == name).map(|(_, c)| c)
}

/// Every card by tool name, in the documented order.
pub static CARDS: &[(&str, ToolCard)] = &[
    ("get_site_info", GET_SITE_INFO),
    ("get_audit_methodology", GET_AUDIT_METHODOLOGY),
    ("get_seo_concept", GET_SEO_CONCEPT),
    ("seo_audit", SEO_AUDIT),
    ("get_opportunities", GET_OPPORTUNITIES),
    ("generate_fixes", GENERATE_FIXES),
    ("check_ai_readiness", CHECK_AI_READINESS),
    ("scan_ai_visibility", SCAN_AI_VISIBILITY),
    ("analyze_content_gap", ANALYZE_CONTENT_GAP),
    ("auto_fix_batch", AUTO_FIX_BATCH),
    ("workflow_execute", WORKFLOW_EXECUTE),
    ("workflow_status", WORKFLOW_STATUS),
    ("approve_fixes", APPROVE_FIXES),
    ("detect_regressions", DETECT_REGRESSIONS),
    ("compare_competitors", COMPARE_COMPETITORS),
    ("monitor_site", MONITOR_SITE),
    ("track_keywords", TRACK_KEYWORDS),
    ("run_experiment", RUN_EXPERIMENT),
    ("crawl_site", CRAWL_SITE),
    ("crawl_status", CRAWL_STATUS),
    ("list_crawls", LIST_CRAWLS),
    ("compare_crawls", COMPARE_CRAWLS),
    ("schedule_crawl", SCHEDULE_CRAWL),
    ("share_crawl_report", SHARE_CRAWL_REPORT),
];

/// get_site_info.
pub const GET_SITE_INFO: ToolCard = ToolCard {
    title: "Site information",
    needs_key: false,
    free_of_quota: false,
    hints: READ_ONLY_LOCAL,
    description:
        "Fetches one page and reports what it is: title, HTTP status and final URL after redirects, whether it \
         is indexable (status, noindex, robots.txt verdict for Googlebot), the robots.txt rule that decides, \
         detected technology (CMS, frameworks, server) and HTTPS. Public: no API key needed. Use it first to \
         check that a URL is reachable and crawlable before running a full seo_audit.",
    examples: &["Is https://example.com/ indexable?", "What is https://example.com/ built with?"],
};

/// get_audit_methodology.
pub const GET_AUDIT_METHODOLOGY: ToolCard = ToolCard {
    title: "Audit methodology",
    needs_key: false,
    free_of_quota: false,
    hints: READ_ONLY_LOCAL,
    description:
        "Explains how seo_audit scores a page: every rule (stable id, name, severity, weight, threshold) grouped \
         as technical, content and performance, the ruleset version and fingerprint, and how the percentage is \
         computed. Public: no API key needed. Use it to explain a score, to see which checks exist before an \
         audit, or to cite the exact threshold behind a finding. Pass category to get one group only.",
    examples: &["How is the SEO score computed?", "Which performance checks do you run?"],
};

/// get_seo_concept.
pub const GET_SEO_CONCEPT: ToolCard = ToolCard {
    title: "SEO concept",
    needs_key: false,
    free_of_quota: false,
    hints: READ_ONLY_LOCAL,
    description:
        "Explains an SEO term or an audit rule in plain words: definition, why it matters, how to fix or apply \
         it, the audit rule ids that check it and related concepts. Accepts a term in any form ('canonical tag', \
         'og tags', 'JSON-LD', 'LCP', 'llms.txt') or a rule id from an audit ('meta-description-missing'). \
         Public: no API key needed. When the term is unknown the result has found: false and up to 5 suggestions.",
    examples: &["What is a canonical URL?", "Explain meta-description-missing"],
};

/// seo_audit.
pub const SEO_AUDIT: ToolCard = ToolCard {
    title: "SEO audit",
    needs_key: true,
    free_of_quota: false,
    hints: AUDITS,
    description:
        "Fetches a page and runs the full deterministic SEO audit. The result is exactly the REST audit result \
         (GET /api/v1/audit): score (percentage of applicable rule weight passed), every failed check as a \
         recommendation with its rule id, type (severity), category, impact and effort, every check's outcome, \
         and the page facts (title, meta_description, h1, word_count, status_code, images, links, og, ...). \
         Stores the audit (it feeds monitoring, keyword history and experiments). Needs an API key with the mcp \
         scope. Use it for a complete picture of one page; follow with get_opportunities or generate_fixes. \
         With render=true the page is first rendered in headless Chromium (for pages built by JavaScript) and the \
         result adds a rendering section: what differs between the served HTML and the rendered DOM, and whether \
         indexable content depends on JavaScript (5 quota units).",
    examples: &[
        "Audit https://example.com/ for SEO",
        "What is the SEO score of https://example.com/pricing?",
        "Does https://example.com/app need JavaScript to show its content to Google?",
    ],
};

/// get_opportunities.
pub const GET_OPPORTUNITIES: ToolCard = ToolCard {
    title: "Ranked opportunities",
    needs_key: true,
    free_of_quota: false,
    hints: AUDITS,
    description:
        "Audits a page and returns its failed checks ranked by expected gain: a priority score from the rule's \
         weight, impact and effort (high impact, low effort and heavy weight first). Needs an API key with the \
         mcp scope. Use it to decide what to fix first; pass the top ids to generate_fixes or get_seo_concept.",
    examples: &["What should I fix first on https://example.com/?"],
};

/// generate_fixes.
pub const GENERATE_FIXES: ToolCard = ToolCard {
    title: "Generate fixes",
    needs_key: true,
    free_of_quota: false,
    hints: AUDITS,
    description:
        "Audits a page and writes a ready-to-paste fix (HTML, JSON-LD, robots.txt, HTTP header, server config \
         or text) for each of its top issues, filled with the page's own title, URL and text. Deterministic and \
         template-based: the same page gives the same fixes. Needs an API key with the mcp scope. Use it after \
         get_opportunities, or directly when the user wants code.",
    examples: &["Give me code fixes for the top 5 issues of https://example.com/"],
};

/// check_ai_readiness.
pub const CHECK_AI_READINESS: ToolCard = ToolCard {
    title: "AI readiness check",
    needs_key: true,
    free_of_quota: false,
    hints: AUDITS,
    description:
        "Audits a page (stored like every audit) and reads the site's llms.txt and robots.txt to say how ready \
         it is for AI assistants and AI search. The result is exactly the REST answer of POST /api/ai-readiness: \
         a 0-100 score, the llms.txt report (present, valid), what robots.txt says to GPTBot, ClaudeBot and \
         PerplexityBot (each with the group and line that decides), the semantic HTML (landmarks, heading \
         outline) and one recommendation per failed item, and `agents`: what AI agents meet there (the \
         discovery documents found at their well-known paths or through links, robots.txt Agentmap and Link \
         headers, each validated: AI catalog, MCP server card, A2A agent card, API catalog, OAuth resource \
         metadata; the page's WebMCP forms; markdown for agents (Accept: text/markdown, a markdown alternate, \
         .md twins); edge blocking: the page fetched as a browser and as 11 AI crawlers and fetchers, with \
         the status, challenge page or smaller body each got; llms-full.txt and the first llms.txt links). \
         Needs an API key with the mcp scope; one quota unit, like the REST endpoint. Use it for a quick \
         verdict; scan_ai_visibility gives the detailed four-pillar scan.",
    examples: &["Is https://example.com/ ready for AI search?", "Does https://example.com/ have a valid llms.txt?"],
};

/// scan_ai_visibility.
pub const SCAN_AI_VISIBILITY: ToolCard = ToolCard {
    title: "AI visibility scan",
    needs_key: true,
    free_of_quota: false,
    hints: AUDITS,
    description:
        "Audits a page (stored like every audit) and scores how visible it is to AI assistants and AI search on \
         four pillars: llms.txt, AI bot access (every known AI crawler, its purpose and the robots.txt line that \
         decides), answer structure (question headings, direct answers, lists, semantic HTML) and entity clarity \
         (Organization data, sameAs links). The result is exactly the REST answer of POST \
         /api/ai-visibility-scan: a deterministic 0-100 score overall and per pillar, the details behind \
         each pillar, every crawler's verdict, and recommendations. Needs an API key with the mcp scope; one quota unit, like the REST endpoint.",
    examples: &["How visible is https://example.com/ to ChatGPT and Perplexity?", "Which AI crawlers does https://example.com/ block?"],
};

/// analyze_content_gap.
pub const ANALYZE_CONTENT_GAP: ToolCard = ToolCard {
    title: "Content gap analysis",
    needs_key: true,
    free_of_quota: false,
    hints: AUDITS,
    description:
        "Audits a page (stored like every audit) and finds the topics and sections it lacks compared with up to 5 \
         competitor pages (fetched and parsed, not audited), or with the built-in model of its page type when no \
         competitors are given. The result is exactly the REST answer of POST /api/content-gap: the page type \
         and why, its coverage (0-100) of the expected sections, the gaps (heading, priority, estimated words, \
         reason), the sections covered, the basis (competitors or model), how many competitors were compared \
         and which were skipped and why (a competitor that cannot be fetched never fails the \
         call). title, wordCount and headings override the page's own. Needs an API key with the mcp scope; one \
         quota unit however many competitors, like the REST endpoint.",
    examples: &[
        "What content is https://example.com/guide missing compared with https://competitor.example/guide?",
        "Which sections should https://example.com/pricing add?",
    ],
};

/// auto_fix_batch.
pub const AUTO_FIX_BATCH: ToolCard = ToolCard {
    title: "Auto-fix a batch of issues",
    needs_key: true,
    free_of_quota: false,
    hints: Hints { read_only: true, open_world: false, destructive: None, idempotent: None },
    description:
        "Writes a ready-to-paste fix (HTML, JSON-LD, robots.txt, HTTP header, server config or text) for each of 1 \
         to 50 issues you pass, in order: an issue names a rule id (id) or describes the problem (title, \
         description), and its context (url, title, description, currentValue, ...) fills the template. Never \
         fetches anything and stores nothing: use it for issues from an earlier seo_audit or from another tool. \
         The result is exactly the REST answer of POST /api/auto-fix-batch; TODO: placeholders in a fix are \
         listed to fill in. Needs an API key with the mcp scope; one quota unit per batch, like the REST endpoint.",
    examples: &["Write fixes for meta-description-missing and canonical-missing on https://example.com/"],
};

/// workflow_execute.
pub const WORKFLOW_EXECUTE: ToolCard = ToolCard {
    title: "Start a workflow",
    needs_key: true,
    free_of_quota: false,
    hints: AUDITS,
    description:
        "Starts a persisted multi-step run and returns its runId at once. Intents: audit (audit and summary), \
         analyze (audit, then issues ranked as get_opportunities ranks them), fix (audit, a fix plan as \
         generate_fixes makes it, then pauses for approval with \
         approve_fixes), monitor (audit and a daily monitor), competitor (audits the page and competitorUrl and \
         compares them). Needs an API key with the mcp scope. Poll workflow_status with the runId.",
    examples: &[
        "Start a fix workflow for https://example.com/",
        "Compare https://example.com/ with https://competitor.example/",
    ],
};

/// workflow_status.
pub const WORKFLOW_STATUS: ToolCard = ToolCard {
    title: "Workflow status",
    needs_key: true,
    free_of_quota: true,
    hints: READ_ONLY_LOCAL,
    description:
        "Reports a workflow run: its state (queued, running, awaiting_approval, completed, rejected, failed), \
         each step with its timing, the results gathered so far, approvals waiting for approve_fixes, and the \
         failing step and reason when it failed. A run cut short by a server restart resumes from that step \
         (resumes counts how often). Without runId it lists your newest runs (runId, intent, url, state, \
         currentStep, times). Needs an API key with the mcp scope. Call it after workflow_execute until \
         the state is completed, rejected or failed.",
    examples: &["What is the status of run 6f1c0e8a?", "Which of my workflows are still running?"],
};

/// approve_fixes.
pub const APPROVE_FIXES: ToolCard = ToolCard {
    title: "Approve or reject fixes",
    needs_key: true,
    free_of_quota: false,
    hints: Hints { read_only: false, open_world: false, destructive: Some(false), idempotent: Some(true) },
    description:
        "Answers an approval gate of a fix workflow: approved lets the run finish its fix plan, rejected ends \
         the run in the rejected state. The approvalId comes from workflow_status' pendingApprovals. Deciding \
         the same gate again with the same decision changes nothing. Needs an API key with the mcp scope.",
    examples: &["Approve the fix plan of run 6f1c0e8a"],
};

/// detect_regressions.
pub const DETECT_REGRESSIONS: ToolCard = ToolCard {
    title: "Detect regressions",
    needs_key: true,
    free_of_quota: false,
    hints: AUDITS,
    description: "Audits two pages (for example production and staging, or a page before and after a release) and \
         reports what got worse or better: score change, rule ids newly failing and newly passing, and page facts \
         that changed (title, meta description, h1, canonical, robots, status, word count). Needs an API key with \
         the mcp scope. Use it before shipping a change.",
    examples: &["Did staging.example.com get worse than example.com?"],
};

/// compare_competitors.
pub const COMPARE_COMPETITORS: ToolCard = ToolCard {
    title: "Compare with a competitor",
    needs_key: true,
    free_of_quota: false,
    hints: AUDITS,
    description: "Audits a page and a competitor's page with the same ruleset and compares them: overall scores, the \
         percentage per audit category with the winner of each, and the rule ids only one side passes. Needs an \
         API key with the mcp scope. Use it to find what a better-ranking competitor does that the site does not.",
    examples: &["How does https://example.com/ compare with https://competitor.example/?"],
};

/// monitor_site.
pub const MONITOR_SITE: ToolCard = ToolCard {
    title: "Monitor a site",
    needs_key: true,
    free_of_quota: false,
    hints: Hints { read_only: false, open_world: true, destructive: Some(true), idempotent: Some(true) },
    description:
        "Puts a page under monitoring (re-audited daily) or, when it already is, reports on it: the alert rules \
         (score drop of 5 or more, new critical issue, status not 2xx, unreachable), recent alerts with a severity \
         breakdown of those alerts, and the issue counts of the latest audit and when it ran. Alerts also go to \
         the key owner's webhooks. Scheduled \
         re-audits obey the site's robots.txt for SeoAuditBot (a disallowed page raises unreachable instead). \
         Calling it again for the same URL creates nothing new. With action stop it stops monitoring the page \
         instead (the monitor and its alerts are deleted; answers monitorId, url and stopped). Needs an API key \
         with the mcp scope.",
    examples: &[
        "Monitor https://example.com/ daily and alert me on score drops",
        "Stop monitoring https://example.com/",
    ],
};

/// track_keywords.
pub const TRACK_KEYWORDS: ToolCard = ToolCard {
    title: "Track keywords on a page",
    needs_key: true,
    free_of_quota: false,
    hints: Hints { read_only: false, open_world: true, destructive: Some(true), idempotent: Some(false) },
    description: "Manages the key owner's tracked keywords: add (keyword and targetUrl required; audits the page at \
         once), remove (keyword required; the keyword and its history are deleted), list. For each keyword it \
         reports whether it appears in the title, h1, meta description and URL, how often in the body text, and \
         the history over audits. This is on-page tracking, not search-engine rank. Needs an API key with the \
         mcp scope.",
    examples: &["Track the keyword 'oak chairs' on https://example.com/chairs"],
};

/// run_experiment.
pub const RUN_EXPERIMENT: ToolCard = ToolCard {
    title: "SEO experiments",
    needs_key: true,
    free_of_quota: false,
    hints: AUDITS,
    description: "Records SEO experiments and measures them with audits: create (title, hypothesis and url required; \
         audits the page now as the baseline of the chosen metric) or list (each experiment with its baseline, \
         the latest audit's value and the change). experimentType is free text such as title-rewrite or \
         schema-added; metricTarget names the measured figure: score (default), word_count, or a rule id that \
         counts 1 when passing. Needs an API key with the mcp scope.",
    examples: &["Record an experiment: rewriting the title of https://example.com/ should raise the score"],
};

/// crawl_site.
pub const CRAWL_SITE: ToolCard = ToolCard {
    title: "Crawl a site",
    needs_key: true,
    free_of_quota: false,
    hints: AUDITS,
    description: "Starts a site crawl from url and returns its crawl_id and state at once: the site's own links and \
         sitemaps are followed (robots.txt obeyed, same site only), every HTML page is audited with the page rules, \
         then the site rules find what only a crawl sees (broken internal links, redirects, duplicate titles and \
         content, orphans, sitemap drift, deep pages). max_pages is cut to the key's tier (free 100, pro 500). The \
         start URL is checked as seo_audit checks its url. Needs an API key with the mcp scope. Poll crawl_status \
         with the crawl_id.",
    examples: &["Crawl https://example.com/ and find broken links", "Audit the first 50 pages of https://example.com/"],
};

/// crawl_status.
pub const CRAWL_STATUS: ToolCard = ToolCard {
    title: "Crawl status",
    needs_key: true,
    free_of_quota: true,
    hints: READ_ONLY_LOCAL,
    description: "Reports a site crawl started by crawl_site: its state (queued, running, completed, cancelled, \
         failed), progress (pages done, queued, failed, skipped), the site score (0-100) once it ended, and the top \
         issues (site and page rules, each with the number of URLs affected), with the report page and the REST \
         route that lists every page. Needs an API key with the mcp scope; polls are free. Call it after \
         crawl_site until the state is completed, cancelled or failed.",
    examples: &["What is the status of crawl cr_4mJ2?", "Which issues did the crawl of my site find?"],
};

/// list_crawls.
pub const LIST_CRAWLS: ToolCard = ToolCard {
    title: "List crawls",
    needs_key: true,
    free_of_quota: true,
    hints: READ_ONLY_LOCAL,
    description: "Lists the site crawls made with the keys of the caller's owner, newest first, a page at a time \
         (pass next_cursor back as cursor): each with its id, start URL, site, state, pages done and failed, site \
         score, when it was created and ended, and its status and report routes. Filter by state (queued, running, \
         completed, cancelled, failed) and by site (a host such as example.com, or host:port). Needs an API key with \
         the mcp scope; free of quota. Use it to find a crawl whose id was lost, or the previous crawl of a site.",
    examples: &["Which crawls of example.com did I run?", "List my completed crawls"],
};

/// compare_crawls.
pub const COMPARE_CRAWLS: ToolCard = ToolCard {
    title: "Compare two crawls",
    needs_key: true,
    free_of_quota: true,
    hints: READ_ONLY_LOCAL,
    description: "Compares two ended crawls of the same site made with the keys of the caller's owner: for each \
         rule the URLs with new findings, fixed findings and findings still failing (the first 100 of each, with \
         totals), the pages added and gone, the URLs whose HTTP status or indexability changed, and the site score \
         change. Pass the newer crawl as crawl_id and the earlier one as against (list_crawls finds them). Needs an \
         API key with the mcp scope; free of quota. Crawls of different sites, or one still running, are refused.",
    examples: &["What changed on example.com since my last crawl?", "Did the fixes remove the broken links?"],
};

/// schedule_crawl.
pub const SCHEDULE_CRAWL: ToolCard = ToolCard {
    title: "Schedule crawls",
    needs_key: true,
    free_of_quota: false,
    hints: Hints { read_only: false, open_world: true, destructive: Some(true), idempotent: Some(false) },
    description: "Schedules a site crawl for the caller's owner, run every day or every week at a time of day (UTC), \
         and manages the schedules: action create (crawl: the crawl_site request with url; frequency daily or \
         weekly; time HH:MM; weekday for weekly; alert_score_drop, default 5), list, pause, resume or end \
         (schedule_id), or alerts (the owner's alerts of its schedules and monitors, newest first; source, \
         cursor, limit). Each run is a crawl of the owner's, charged to the key as crawl_site is; each run that \
         completes is compared with the previous completed run, and new findings of a critical rule or a site \
         score drop of alert_score_drop points or more raise an alert: a crawl.alert webhook event and a row of \
         the owner's alert list; the schedule shows the last change and alerts. At most 20 schedules per owner. \
         Needs an API key with the mcp and audit scopes.",
    examples: &[
        "Crawl https://example.com/ every Monday at 03:00 and alert me on regressions",
        "Pause my weekly crawl",
    ],
};

/// share_crawl_report.
pub const SHARE_CRAWL_REPORT: ToolCard = ToolCard {
    title: "Share a crawl's report",
    needs_key: true,
    free_of_quota: true,
    // It stores a new link each time, and touches nothing outside the service.
    hints: Hints { read_only: false, open_world: false, destructive: Some(false), idempotent: Some(false) },
    description: "Makes a share link of the report page of a crawl made with the keys of the caller's owner: an \
         address that opens the report (site score, charts, issues, the sortable pages table) without the API key, \
         until it expires (expires_in seconds, 7 days by default, at most 30 days) or is revoked \
         (DELETE /api/v1/crawls/{id}/shares/{link}). Answers the link's url, id and expiry. Needs an API key with \
         the mcp scope; free of quota. Use it to show a crawl's result to someone who must not get the key.",
    examples: &[
        "Give me a link to the report of crawl cr_4mJ2 I can send to the client",
        "Share my last crawl's report for a week",
    ],
};
