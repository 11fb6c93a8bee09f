//! The [`Operation`] of every route of the server's routing table (`ROUTES`): what the OpenAPI document
//! says about it beyond its method and path. docs/API.md says the same in prose.

use serde_json::json;

use crate::{answer, request, Access, Content, Header, In, Operation, Param, Response};

/// An error answer with the REST error body.
const fn error(status: &'static str, description: &'static str) -> Response {
    Response { status, description, headers: &[], content: Content::Json(answer::<crate::ErrorBody>) }
}

/// `missing_parameter` (`url`, in `details.parameter`), `invalid_url`, or `invalid_request`
/// (body not a JSON object, `url` not a string, malformed JSON).
const E400_URL_BODY: Response = error(
    "400",
    "`missing_parameter` (`url`, in `details.parameter`), `invalid_url`, or `invalid_request` \
        (body not a JSON object, `url` not a string, malformed JSON).",
);

/// `unauthorized`: no key, or an unknown key.
const E401_KEY_NEEDED: Response = error("401", "`unauthorized`: no key, or an unknown key.");

/// `unauthorized`: the key sent is unknown.
const E401_KEY_UNKNOWN: Response = error("401", "`unauthorized`: the key sent is unknown.");

/// `forbidden`: the key is disabled, expired, or lacks the `audit` scope (`details.reason`).
const E403_AUDIT: Response =
    error("403", "`forbidden`: the key is disabled, expired, or lacks the `audit` scope (`details.reason`).");

/// `forbidden`: the key is disabled, expired, or lacks the `webhooks` scope.
const E403_WEBHOOKS: Response =
    error("403", "`forbidden`: the key is disabled, expired, or lacks the `webhooks` scope.");

/// `payload_too_large`: body over 1 MiB.
const E413: Response = error("413", "`payload_too_large`: body over 1 MiB.");

/// `unsupported_media_type`: the body is not `application/json`.
const E415: Response = error("415", "`unsupported_media_type`: the body is not `application/json`.");

/// `blocked_target` (non-public address, also after a redirect), `not_html`, or `target_too_large`.
const E422_TARGET: Response = error(
    "422",
    "`blocked_target` (non-public address, also after a redirect), `not_html`, or \
        `target_too_large`.",
);

/// `rate_limited`: quota exhausted; `Retry-After` says when to retry.
const E429: Response = error("429", "`rate_limited`: quota exhausted; `Retry-After` says when to retry.");

/// `internal`.
const E500: Response = error("500", "`internal`.");

/// `target_unreachable`: DNS failure, refused connection, TLS failure, too many redirects.
const E502: Response =
    error("502", "`target_unreachable`: DNS failure, refused connection, TLS failure, too many redirects.");

/// `overloaded`: too many audits in flight and the queue is full.
const E503: Response = error("503", "`overloaded`: too many audits in flight and the queue is full.");

/// `overloaded` or, for a rendered audit, `not_configured`.
const E503_RENDER: Response = error(
    "503",
    "`overloaded`: too many audits in flight and the queue is full (or, with `render`, every browser tab is busy \
        and the render queue is full); `not_configured`: `render` was asked for and the service has no browser \
        (`details.install` says how to install one).",
);

/// `target_timeout`: the target did not answer in time.
const E504: Response = error("504", "`target_timeout`: the target did not answer in time.");

/// `GET /api/widget`.
pub static WIDGET: Operation = Operation {
    id: "widget",
    summary: "Score badge (SVG image or iframe page)",
    description: "The score of the newest stored audit made without a key (anonymously or by the badge's \
        background queue) of the domain no older than 24 hours (home page preferred); audits made \
        with a key are private to it. Without one: a grey \"not audited\" badge, and one background \
        audit of the configured badge audit URL (default `https://DOMAIN/`) is queued (deduplicated \
        per domain, with a cool-down, globally rate limited, never delaying the answer). Consumes \
        no quota. Unknown parameters are ignored.",
    tag: "badge",
    access: Access::Public,
    params: &[
        Param::Own {
            name: "domain",
            at: In::Query,
            required: true,
            description: "Host name to show the score of (`example.com`; no scheme, path or port; IDNs punycoded). \
        `www.` and bare forms find each other's audits.",
            schema: |_| json!({"type": "string", "maxLength": 253, "pattern": pages::badge::DOMAIN_PATTERN}),
        },
        Param::Own {
            name: "color",
            at: In::Query,
            required: false,
            description: "Brand colour of the score panel: six hex digits without `#`.",
            schema: |_| json!({"type": "string", "pattern": "^[0-9A-Fa-f]{6}$", "default": "10b981"}),
        },
        Param::Own {
            name: "size",
            at: In::Query,
            required: false,
            description: "`small` 140x40, `medium` 200x56, `large` 300x80.",
            schema: |_| json!({"type": "string", "enum": ["small", "medium", "large"], "default": "medium"}),
        },
        Param::Own {
            name: "format",
            at: In::Query,
            required: false,
            description: "`svg`: the image; `iframe`: an HTML page embedding it, linked to the report.",
            schema: |_| json!({"type": "string", "enum": ["svg", "iframe"], "default": "svg"}),
        },
    ],
    body: None,
    responses: &[
        Response {
            status: "200",
            description: "The badge. SVG: `role=\"img\"`, `aria-label` and `<title>`, exactly the size's width and \
        height.",
            headers: &[Header::Own { name: "Cache-Control", description: "`public, max-age=300`." }],
            content: Content::Media(&[
                ("image/svg+xml", |_| json!({"type": "string", "description": "An SVG document."})),
                ("text/html", |_| {
                    let description = "With `format=iframe`: an HTML page holding the SVG in a link to \
                        `/report/{domain}`; framable by any site.";
                    json!({ "type": "string", "description": description })
                }),
            ]),
        },
        Response {
            status: "400",
            description: "`missing_parameter` (`domain`), or `invalid_request` for an invalid `domain`, `color`, \
        `size` or `format` (`details.parameter` names it).",
            headers: &[],
            content: Content::Json(answer::<crate::ErrorBody>),
        },
        Response {
            status: "4XX",
            description: "429 `rate_limited` (JSON error body, `Retry-After` header) from the per-IP flood guard of \
        the badge and report routes (default 120 requests per minute per IP). It is not the audit \
        quota: no `x-ratelimit-*` headers.",
            headers: &[Header::RetryAfter],
            content: Content::Json(answer::<crate::ErrorBody>),
        },
        E500,
    ],
};

/// `GET /widget.js`.
pub static WIDGET_SCRIPT: Operation = Operation {
    id: "widgetScript",
    summary: "Badge script",
    description: "`<script async src=\"BASE/widget.js\">` with optional `data-domain` (else the page's host \
        without `www.`), `data-color`, `data-size`, `data-position=\"inline\"` (into `#svc-widget`; \
        else fixed at the bottom right), `data-brand`, `data-link`. Loading it twice adds one \
        badge.",
    tag: "badge",
    access: Access::Public,
    params: &[],
    body: None,
    responses: &[Response {
        status: "200",
        description: "The script.",
        headers: &[Header::Own { name: "Cache-Control", description: "`public, max-age=3600`." }],
        content: Content::Media(&[("text/javascript", |_| json!({"type": "string"}))]),
    }],
};

/// `GET /report/{domain}`.
pub static REPORT: Operation = Operation {
    id: "report",
    summary: "HTML report of a domain's newest audit",
    description: "The page the badge links to: score, page facts, recommendations with auto-fix code, checks \
        by category, of the newest audit made without a key (audits made with a key are private to \
        it; `?audit=` finds only audits made without a key). No URL shown carries a query string or \
        fragment. Server-rendered, no script, no external assets. Consumes no quota.",
    tag: "badge",
    access: Access::Public,
    params: &[
        Param::Own {
            name: "domain",
            at: In::Path,
            required: true,
            description: "",
            schema: |_| json!({"type": "string", "maxLength": 253, "pattern": pages::badge::DOMAIN_PATTERN}),
        },
        Param::Own {
            name: "audit",
            at: In::Query,
            required: false,
            description: "Id of a stored audit of this domain to show instead of the newest (where `GET \
        /report?url=` redirects). An unknown id, or one of another domain, is ignored.",
            schema: |_| json!({"type": "string"}),
        },
    ],
    body: None,
    responses: &[
        Response {
            status: "200",
            description: "The report of the newest audit no older than 24 hours (home page preferred).",
            headers: &[Header::Own { name: "Cache-Control", description: "`no-cache`." }],
            content: Content::Html,
        },
        Response {
            status: "400",
            description: "`invalid_request`: the path does not name a domain.",
            headers: &[Header::ErrorCode],
            content: Content::Html,
        },
        Response {
            status: "404",
            description: "No audit of the domain from the last 24 hours: a page saying what the background queue did \
        with the configured audit URL (queued or already under way: reloads every 30 seconds; \
        refused for now because the service is busy: reloads, which asks again; cooling down after \
        a failed audit, or background audits switched off: no reload).",
            headers: &[Header::Own { name: "Cache-Control", description: "`no-store`." }],
            content: Content::Html,
        },
        Response {
            status: "4XX",
            description: "429 `rate_limited` (JSON error body, `Retry-After` header) from the per-IP flood guard of \
        the badge and report routes (default 120 requests per minute per IP). It is not the audit \
        quota: no `x-ratelimit-*` headers.",
            headers: &[Header::ErrorCode, Header::RetryAfter],
            content: Content::Html,
        },
        Response { status: "500", description: "`internal`.", headers: &[Header::ErrorCode], content: Content::Html },
    ],
};

/// `GET /report`.
pub static REPORT_FOR_URL: Operation = Operation {
    id: "reportForUrl",
    summary: "Audit a page and show its report",
    description: "The landing page's form. Audits the page as `GET /api/v1/audit` does (1 quota unit, same \
        rules and error codes), stores the audit and redirects to its report. Errors are HTML pages \
        for browsers, with the code in `x-error-code`.",
    tag: "badge",
    access: Access::KeyOptional,
    params: &[
        Param::Own {
            name: "url",
            at: In::Query,
            required: true,
            description: "The page to audit.",
            schema: |_| json!({"type": "string", "maxLength": crate::MAX_URL_LEN}),
        },
        Param::ApiKeyQuery,
    ],
    body: None,
    responses: &[
        Response {
            status: "303",
            description: "Audited without a key: `Location: /report/{host}?audit={id}`.",
            headers: &[Header::Own { name: "Location", description: "The report of this audit." }],
            content: Content::Media(&[("text/html", |_| json!({"type": "string", "maxLength": 0}))]),
        },
        Response {
            status: "200",
            description: "Audited with a key (the audit is private to it and never on the public report page), or \
        the host is an address rather than a domain, or the audit could not be stored: the report \
        is the answer itself, with no query string in any URL shown.",
            headers: &[],
            content: Content::Html,
        },
        Response {
            status: "400",
            description: "`missing_parameter` or `invalid_url`.",
            headers: &[Header::ErrorCode],
            content: Content::Html,
        },
        Response {
            status: "401",
            description: "`unauthorized`: the key sent is unknown.",
            headers: &[Header::ErrorCode],
            content: Content::Html,
        },
        Response {
            status: "403",
            description: "`forbidden`: the key is disabled, expired, or lacks the `audit` scope.",
            headers: &[Header::ErrorCode],
            content: Content::Html,
        },
        Response {
            status: "422",
            description: "`blocked_target`, `not_html` or `target_too_large`.",
            headers: &[Header::ErrorCode],
            content: Content::Html,
        },
        Response {
            status: "429",
            description: "`rate_limited`: audit quota exhausted.",
            headers: &[Header::ErrorCode, Header::RetryAfter],
            content: Content::Html,
        },
        Response { status: "500", description: "`internal`.", headers: &[Header::ErrorCode], content: Content::Html },
        Response {
            status: "502",
            description: "`target_unreachable`.",
            headers: &[Header::ErrorCode],
            content: Content::Html,
        },
        Response { status: "503", description: "`overloaded`.", headers: &[Header::ErrorCode], content: Content::Html },
        Response {
            status: "504",
            description: "`target_timeout`.",
            headers: &[Header::ErrorCode],
            content: Content::Html,
        },
    ],
};

/// `GET /`.
pub static LANDING: Operation = Operation {
    id: "landing",
    summary: "Landing page",
    description: "What the service does, a form that audits a URL (`GET /report?url=`), API and badge \
        snippets.",
    tag: "badge",
    access: Access::Public,
    params: &[],
    body: None,
    responses: &[Response {
        status: "200",
        description: "The landing page.",
        headers: &[Header::Own { name: "Cache-Control", description: "`no-cache`." }],
        content: Content::Html,
    }],
};

/// `GET /bot`.
pub static BOT_PAGE: Operation = Operation {
    id: "botPage",
    summary: "What SeoAuditBot is",
    description: "The page the user agent `SeoAuditBot/<version> (+<base_url>/bot)` points to, for \
        webmasters who find it in their logs: what the bot is (the web client of this seo-audit \
        instance, fetching on demand for its users), its user agent and robots.txt product token \
        `SeoAuditBot`, what it fetches, this instance's fetch limits, how robots.txt applies \
        (scheduled monitoring obeys it; on-demand audits act for a user), how to block it, and that \
        the operator of this instance is the contact. Server-rendered HTML with inline CSS, no \
        script and no external asset. No key, no quota, no flood guard.",
    tag: "badge",
    access: Access::Public,
    params: &[],
    body: None,
    responses: &[Response {
        status: "200",
        description: "The bot page.",
        headers: &[
            Header::Own { name: "Cache-Control", description: "`no-cache`." },
            Header::Own {
                name: "Content-Security-Policy",
                description:
                    "`default-src 'none'` plus inline styles, same-origin images and form posts, no framing: no \
        script can run.",
            },
            Header::Own { name: "X-Frame-Options", description: "`DENY`." },
        ],
        content: Content::Html,
    }],
};

/// `POST /api/ai-readiness`.
pub static AI_READINESS: Operation = Operation {
    id: "aiReadiness",
    summary: "AI-readiness check of one page",
    description: "Audits the page (stored like every audit) and fetches the site's `/llms.txt` and \
        `/robots.txt`. Reports the llms.txt (llmstxt.org format: presence, validity, issues), \
        whether GPTBot, ClaudeBot and PerplexityBot may fetch the page under robots.txt (RFC 9309; \
        `crawlers` names each one's deciding group, rule and line), and the page's semantic HTML (landmarks, heading outline). \
        `score` 0..100 is the sum of fixed points per passing item (docs/AI-VISIBILITY.md). An \
        llms.txt that answers 404, or cannot be fetched, is reported absent; one that answers an \
        HTML page is present with the issue `html_not_markdown`. Consumes 1 quota unit.",
    tag: "ai-visibility",
    access: Access::KeyOptional,
    params: &[Param::ApiKeyQuery],
    body: Some(request::<crate::UrlRequest>),
    responses: &[
        Response {
            status: "200",
            description: "The AI-readiness report.",
            headers: &[],
            content: Content::Json(answer::<crate::AiReadinessAnswer>),
        },
        E400_URL_BODY,
        E401_KEY_UNKNOWN,
        E403_AUDIT,
        E413,
        E415,
        E422_TARGET,
        E429,
        E500,
        E502,
        E503,
        E504,
    ],
};

/// `POST /api/ai-visibility-scan`.
pub static AI_VISIBILITY_SCAN: Operation = Operation {
    id: "aiVisibilityScan",
    summary: "Deterministic four-pillar AI-visibility scan",
    description: "Audits the page (stored like every audit), fetches `/llms.txt` and `/robots.txt`, and \
        scores four pillars of 0..25 points each: llms.txt, AI bot access (every crawler of the AI \
        bot table), answer structure and entity clarity; `score` is their sum. `details` lists the \
        points of every named check; `crawlers` lists every crawler judged with its verdict and the \
        robots.txt group and line that decided it. Consumes 1 quota unit.",
    tag: "ai-visibility",
    access: Access::KeyOptional,
    params: &[Param::ApiKeyQuery],
    body: Some(request::<crate::UrlRequest>),
    responses: &[
        Response {
            status: "200",
            description: "The scan.",
            headers: &[],
            content: Content::Json(answer::<crate::AiVisibilityScanAnswer>),
        },
        E400_URL_BODY,
        E401_KEY_UNKNOWN,
        E403_AUDIT,
        E413,
        E415,
        E422_TARGET,
        E429,
        E500,
        E502,
        E503,
        E504,
    ],
};

/// `POST /api/geo-check`.
pub static GEO_CHECK: Operation = Operation {
    id: "geoCheck",
    summary: "Query-based visibility check against an AI search engine",
    description: "Audits the page (stored like every audit), generates 12 queries from it deterministically, \
        asks the operator's AI search provider (OpenAI-compatible chat completions) and counts \
        mentions of the domain or brand in each answer's text and cited URLs. `visibilityScore` is \
        the share of queries in which the site was found, in percent. Results are cached per domain \
        (lower-case, without `www.`) for 24 h: a call within that time answers the cached result \
        with `cached: true` and asks neither the page nor the provider. Consumes 1 quota unit, also \
        when cached.",
    tag: "ai-visibility",
    access: Access::KeyOptional,
    params: &[Param::ApiKeyQuery],
    body: Some(request::<crate::UrlRequest>),
    responses: &[
        Response {
            status: "200",
            description: "The visibility check (fresh or cached).",
            headers: &[],
            content: Content::Json(answer::<ai_visibility::GeoCheckResult>),
        },
        E400_URL_BODY,
        E401_KEY_UNKNOWN,
        E403_AUDIT,
        E413,
        E415,
        E422_TARGET,
        E429,
        E500,
        Response {
            status: "502",
            description: "`target_unreachable`: DNS failure, refused connection, TLS failure, too many redirects. \
        `upstream_error`: the AI search provider failed (timeout, non-2xx status, unreadable \
        answer, unreachable; `details.reason`, and `details.upstream_status` for a status).",
            headers: &[],
            content: Content::Json(answer::<crate::ErrorBody>),
        },
        Response {
            status: "503",
            description: "`overloaded`: too many audits in flight and the queue is full. `not_configured`: the \
        operator has configured no AI search provider (`details.settings` names the settings); \
        nothing is charged.",
            headers: &[],
            content: Content::Json(answer::<crate::ErrorBody>),
        },
        E504,
    ],
};

/// `GET /api/v1/audit`.
pub static AUDIT: Operation = Operation {
    id: "audit",
    summary: "Audit one page",
    description: "Fetches the page (and its robots.txt) and returns the full audit or the compact summary. \
        Consumes 1 quota unit (5 with `render`). Anonymous use allowed (limited per client IP); a key that is sent \
        must be valid.",
    tag: "audit",
    access: Access::KeyOptional,
    params: &[
        Param::Own {
            name: "url",
            at: In::Query,
            required: true,
            description: "The page to audit (http or https, at most 2048 bytes; a bare host gets https://).",
            schema: |_| json!({"type": "string", "maxLength": crate::MAX_URL_LEN}),
        },
        Param::Own {
            name: "format",
            at: In::Query,
            required: false,
            description: "",
            schema: |_| json!({"type": "string", "enum": ["json", "compact"], "default": "json"}),
        },
        Param::Own {
            name: "render",
            at: In::Query,
            required: false,
            description: "`true`: render the page in headless Chromium and audit the rendered DOM, with the \
        `rendering` section (5 quota units; docs/API.md, \"Rendered audits\").",
            schema: |_| json!({"type": "string", "enum": ["true", "false", "1", "0"], "default": "false"}),
        },
        Param::ApiKeyQuery,
    ],
    body: None,
    responses: &[
        Response {
            status: "200",
            description: "The audit (also when the page itself answered 404 or 500: see `page.status_code`).",
            headers: &[],
            content: Content::Json(answer::<crate::AuditAnswer>),
        },
        Response {
            status: "400",
            description: "`missing_parameter` (`details.parameter`), `invalid_url`, or `invalid_request` (unknown \
        `format`).",
            headers: &[],
            content: Content::Json(answer::<crate::ErrorBody>),
        },
        E401_KEY_UNKNOWN,
        E403_AUDIT,
        E429,
        E503_RENDER,
        E500,
        E422_TARGET,
        E502,
        E504,
    ],
};

/// `POST /api/v1/audit/batch`.
pub static AUDIT_BATCH: Operation = Operation {
    id: "auditBatch",
    summary: "Audit up to 10 pages",
    description: "Audits 1 to 10 URLs, 3 at a time, and answers them in input order. Duplicates are audited \
        once and reported at each position. One quota unit per distinct valid URL (5 with `render`) is reserved \
        before any audit starts; if fewer remain, 429 and nothing is consumed. A URL that fails is \
        reported at its position; the batch still answers 200.",
    tag: "audit",
    access: Access::KeyOptional,
    params: &[Param::ApiKeyQuery],
    body: Some(request::<crate::BatchRequest>),
    responses: &[
        Response {
            status: "200",
            description: "One result per input URL, in order.",
            headers: &[],
            content: Content::Json(answer::<crate::BatchResult>),
        },
        Response {
            status: "400",
            description: "`invalid_request` (malformed JSON, wrong types, 0 or more than 10 URLs, unknown `format`) \
        or `missing_parameter` (`urls`).",
            headers: &[],
            content: Content::Json(answer::<crate::ErrorBody>),
        },
        E413,
        E415,
        E401_KEY_UNKNOWN,
        E403_AUDIT,
        E429,
        E503_RENDER,
        E500,
    ],
};

// ---------------------------------------------------------------- stored audits
// docs/API.md, "Stored audits: GET /api/v1/audits, /api/v1/audits/{id}, /api/v1/history".

/// `limit` of `GET /api/v1/audits`.
fn audits_limit_schema(_: &mut crate::Gen) -> serde_json::Value {
    json!({"type": "integer", "minimum": 1, "maximum": crate::MAX_AUDITS_PAGE, "default": crate::DEFAULT_AUDITS_PAGE})
}

/// `limit` of `GET /api/v1/history`.
fn history_limit_schema(_: &mut crate::Gen) -> serde_json::Value {
    json!({"type": "integer", "minimum": 1, "maximum": crate::MAX_HISTORY, "default": crate::DEFAULT_HISTORY})
}

/// `since` of the stored-audit routes.
fn since_schema(_: &mut crate::Gen) -> serde_json::Value {
    json!({"type": "string", "format": "date-time"})
}

/// `GET /api/v1/audits`.
pub static LIST_AUDITS: Operation = Operation {
    id: "listAudits",
    summary: "The key owner's stored audits",
    description: "The audits made with the keys of the key's owner, newest first, a page at a time (follow \
        `next_cursor`). Audits made without a key belong to no one and are never listed. Requires a \
        key with the `audit` scope; consumes no quota (it reads stored data).",
    tag: "audit",
    access: Access::KeyRequired,
    params: &[
        Param::Own {
            name: "url",
            at: In::Query,
            required: false,
            description: "Only audits whose requested or final URL is this one (normalised as `GET /api/v1/audit` \
        normalises its `url`: a bare host gets https://).",
            schema: |_| json!({"type": "string", "minLength": 1, "maxLength": crate::MAX_URL_LEN}),
        },
        Param::Own {
            name: "domain",
            at: In::Query,
            required: false,
            description: "Only audits whose final URL is on this domain (case and a final dot do not matter; \
        `www.` is another domain).",
            schema: |_| json!({"type": "string", "maxLength": 253, "pattern": pages::badge::DOMAIN_PATTERN}),
        },
        Param::Own {
            name: "since",
            at: In::Query,
            required: false,
            description: "Only audits made at or after this instant (RFC 3339, such as 2026-11-01T00:00:00Z).",
            schema: since_schema,
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
            description: "Audits per page.",
            schema: audits_limit_schema,
        },
        Param::ApiKeyQuery,
    ],
    body: None,
    responses: &[
        Response {
            status: "200",
            description: "A page of audits, newest first; `next_cursor` is null on the last page.",
            headers: &[],
            content: Content::Json(answer::<crate::StoredAuditList>),
        },
        Response {
            status: "400",
            description: "`invalid_request` (`details.parameter`): a malformed `cursor`, a `since` that is not \
        RFC 3339, a `limit` outside 1..100, a `domain` that is not a domain name; `invalid_url`: an \
        invalid `url`.",
            headers: &[],
            content: Content::Json(answer::<crate::ErrorBody>),
        },
        E401_KEY_NEEDED,
        E403_AUDIT,
        E500,
    ],
};

/// `GET /api/v1/audits/{id}`.
pub static GET_AUDIT: Operation = Operation {
    id: "getAudit",
    summary: "One stored audit of the key's owner",
    description: "The audit result as `GET /api/v1/audit` answered it (envelope included), with the stored \
        audit's `id` and `created_at`. Another owner's audit, an audit made without a key and an \
        unknown id all answer 404. Requires a key with the `audit` scope; consumes no quota.",
    tag: "audit",
    access: Access::KeyRequired,
    params: &[
        Param::Own {
            name: "id",
            at: In::Path,
            required: true,
            description: "The audit id (`id` of a listed audit).",
            schema: |_| json!({"type": "string"}),
        },
        Param::ApiKeyQuery,
    ],
    body: None,
    responses: &[
        Response {
            status: "200",
            description: "The stored audit.",
            headers: &[],
            content: Content::Json(answer::<crate::StoredAuditAnswer>),
        },
        Response {
            status: "404",
            description: "`not_found`: no audit of this owner has that id.",
            headers: &[],
            content: Content::Json(answer::<crate::ErrorBody>),
        },
        E401_KEY_NEEDED,
        E403_AUDIT,
        E500,
    ],
};

/// `GET /api/v1/history`.
pub static HISTORY: Operation = Operation {
    id: "history",
    summary: "Score history of a URL",
    description: "Score, ruleset version and recommendations by severity of each stored audit of the URL \
        (requested or final), oldest first: the newest `limit` of them. With a key (scope `audit`): \
        the audits of the key's owner only. Without a key: the public audits (made without a key), \
        the history the public report page charts, limited per client IP by the flood guard of the \
        badge and report routes. Consumes no quota.",
    tag: "audit",
    access: Access::KeyOptional,
    params: &[
        Param::Own {
            name: "url",
            at: In::Query,
            required: true,
            description: "The page (normalised as `GET /api/v1/audit` normalises its `url`).",
            schema: |_| json!({"type": "string", "maxLength": crate::MAX_URL_LEN}),
        },
        Param::Own {
            name: "limit",
            at: In::Query,
            required: false,
            description: "How many of the newest audits to return.",
            schema: history_limit_schema,
        },
        Param::ApiKeyQuery,
    ],
    body: None,
    responses: &[
        Response {
            status: "200",
            description: "The audits of the URL, oldest first (none: an empty list).",
            headers: &[],
            content: Content::Json(answer::<crate::ScoreHistory>),
        },
        Response {
            status: "400",
            description: "`missing_parameter` (`url`), `invalid_url` (an invalid `url`), or `invalid_request` \
        (`details.parameter`): a `limit` outside 1..500.",
            headers: &[],
            content: Content::Json(answer::<crate::ErrorBody>),
        },
        E401_KEY_UNKNOWN,
        E403_AUDIT,
        Response {
            status: "4XX",
            description: "429 `rate_limited` (anonymous callers only, `Retry-After` header): the per-IP flood guard \
        of the badge and report routes (default 120 requests per minute per IP). It is not the \
        audit quota: no `x-ratelimit-*` headers.",
            headers: &[Header::RetryAfter],
            content: Content::Json(answer::<crate::ErrorBody>),
        },
        E500,
    ],
};

/// `POST /api/content-gap`.
pub static CONTENT_GAP: Operation = Operation {
    id: "contentGap",
    summary: "Missing sections of a page",
    description: "Fetches and audits the page (the audit is stored like every audit), classifies it \
        (article, product, service, ...) and lists the sections it lacks: against the built-in \
        model of its page type, or, when `competitors` are given and at least two of them cover a \
        section, against them (the gap's length is their median). `title`, `wordCount` and \
        `headings` in the body override the fetched page's. Competitors are fetched 3 at a time, \
        duplicates once; one that cannot be fetched or answers a non-2xx status is skipped and \
        listed in `skippedCompetitors`, it does not fail the request. Consumes 1 quota unit \
        whatever the number of competitors; takes one audit slot.",
    tag: "analysis",
    access: Access::KeyOptional,
    params: &[Param::ApiKeyQuery],
    body: Some(request::<crate::ContentGapRequest>),
    responses: &[
        Response {
            status: "200",
            description: "The page type, coverage and gaps.",
            headers: &[],
            content: Content::Json(answer::<crate::ContentGapResult>),
        },
        Response {
            status: "400",
            description: "`invalid_request` (not an object, wrong field types, more than 5 competitors), \
        `missing_parameter` (`url`), or `invalid_url` (the page, or a competitor: `details.index` \
        and `details.url` name it).",
            headers: &[],
            content: Content::Json(answer::<crate::ErrorBody>),
        },
        Response {
            status: "422",
            description: "The page: `blocked_target` (non-public address, also after a redirect), `not_html`, or \
        `target_too_large`.",
            headers: &[],
            content: Content::Json(answer::<crate::ErrorBody>),
        },
        Response {
            status: "502",
            description: "The page: `target_unreachable`.",
            headers: &[],
            content: Content::Json(answer::<crate::ErrorBody>),
        },
        E503,
        Response {
            status: "504",
            description: "The page: `target_timeout`.",
            headers: &[],
            content: Content::Json(answer::<crate::ErrorBody>),
        },
        E401_KEY_UNKNOWN,
        E403_AUDIT,
        E413,
        E415,
        E429,
        E500,
    ],
};

/// `POST /api/auto-fix-batch`.
pub static AUTO_FIX_BATCH: Operation = Operation {
    id: "autoFixBatch",
    summary: "Code fixes for up to 50 issues",
    description: "One ready-to-use fix per issue, in input order. An issue is found by its rule `id` when it \
        names a template, else by the words of its `title`, `description`, `recommendation` and \
        `category`; an issue nothing matches gets an honest generic `text` fix, never an error. \
        `context` fills the templates (URL, title, description, text); nothing is fetched, not even \
        `context.url`. Consumes 1 quota unit whatever the number of issues.",
    tag: "analysis",
    access: Access::KeyOptional,
    params: &[Param::ApiKeyQuery],
    body: Some(request::<crate::AutoFixRequest>),
    responses: &[
        Response {
            status: "200",
            description: "One fix per issue, in order.",
            headers: &[],
            content: Content::Json(answer::<crate::AutoFixResult>),
        },
        Response {
            status: "400",
            description: "`invalid_request` (not an object, 0 or more than 50 issues, an item that is not an issue \
        object: `details.index` names it) or `missing_parameter` (`issues`).",
            headers: &[],
            content: Content::Json(answer::<crate::ErrorBody>),
        },
        E401_KEY_UNKNOWN,
        E403_AUDIT,
        E413,
        E415,
        E429,
        E500,
    ],
};

/// `GET /api/v1/usage`.
pub static USAGE: Operation = Operation {
    id: "usage",
    summary: "Usage snapshot of the key",
    description: "Requires a key (any scope). Consumes no quota. Counts are those of the key sending the \
        request.",
    tag: "account",
    access: Access::KeyRequired,
    params: &[Param::ApiKeyQuery],
    body: None,
    responses: &[
        Response {
            status: "200",
            description: "The snapshot.",
            headers: &[],
            content: Content::Json(answer::<crate::Usage>),
        },
        E401_KEY_NEEDED,
        Response {
            status: "403",
            description: "`forbidden`: the key is disabled or expired.",
            headers: &[],
            content: Content::Json(answer::<crate::ErrorBody>),
        },
        E500,
    ],
};

/// `POST /api/v1/webhooks`.
pub static CREATE_WEBHOOK: Operation = Operation {
    id: "createWebhook",
    summary: "Subscribe to webhook events",
    description: "Requires a key with the `webhooks` scope; consumes no quota. The target URL must be an \
        absolute `http://` or `https://` URL (no scheme is guessed) whose host is a dotted DNS name \
        of valid labels or an IP address literal (else 400 `invalid_url`), and pass the address \
        guard (checked now for literal addresses and again at every delivery). The answer carries \
        the signing `secret`, shown only this once. Deliveries are POSTs of `{id, event, createdAt, \
        data}` signed with `x-signature-256: sha256=HEX(HMAC-SHA256(secret, \
        \"{x-webhook-timestamp}.{body}\"))`; failures are retried with exponential backoff (5 \
        attempts). Each subscription has its own bounded queue (at most 2 attempts in flight, 100 \
        deliveries pending; a newer event past that is dropped and written to the delivery log), so \
        a slow receiver delays no other subscription.",
    tag: "webhooks",
    access: Access::KeyRequired,
    params: &[],
    body: Some(request::<crate::WebhookRequest>),
    responses: &[
        Response {
            status: "201",
            description: "The subscription, with its signing secret.",
            headers: &[],
            content: Content::Json(answer::<crate::WebhookCreated>),
        },
        Response {
            status: "400",
            description: "`invalid_request` (bad JSON, unknown event, no events, too many subscriptions), \
        `missing_parameter`, or `invalid_url`.",
            headers: &[],
            content: Content::Json(answer::<crate::ErrorBody>),
        },
        E413,
        E415,
        Response {
            status: "422",
            description: "`blocked_target`: the URL points to a non-public address.",
            headers: &[],
            content: Content::Json(answer::<crate::ErrorBody>),
        },
        E401_KEY_NEEDED,
        E403_WEBHOOKS,
        E500,
    ],
};

/// `GET /api/v1/webhooks`.
pub static LIST_WEBHOOKS: Operation = Operation {
    id: "listWebhooks",
    summary: "The key owner's webhook subscriptions",
    description: "Requires a key with the `webhooks` scope; consumes no quota. Secrets are never listed.",
    tag: "webhooks",
    access: Access::KeyRequired,
    params: &[],
    body: None,
    responses: &[
        Response {
            status: "200",
            description: "The subscriptions, oldest first.",
            headers: &[],
            content: Content::Json(answer::<crate::WebhookList>),
        },
        E401_KEY_NEEDED,
        E403_WEBHOOKS,
        E500,
    ],
};

/// `DELETE /api/v1/webhooks/{id}`.
pub static DELETE_WEBHOOK: Operation = Operation {
    id: "deleteWebhook",
    summary: "Delete a webhook subscription",
    description: "Requires a key with the `webhooks` scope; consumes no quota. Another owner's id answers \
        404 like an unknown one. The delivery log of the subscription goes with it.",
    tag: "webhooks",
    access: Access::KeyRequired,
    params: &[Param::Own {
        name: "id",
        at: In::Path,
        required: true,
        description: "The subscription id.",
        schema: |_| json!({"type": "string"}),
    }],
    body: None,
    responses: &[
        Response {
            status: "200",
            description: "Deleted.",
            headers: &[],
            content: Content::Json(answer::<crate::WebhookDeleted>),
        },
        Response {
            status: "404",
            description: "`not_found`: no subscription of this owner has that id.",
            headers: &[],
            content: Content::Json(answer::<crate::ErrorBody>),
        },
        E401_KEY_NEEDED,
        E403_WEBHOOKS,
        E500,
    ],
};

/// `GET /api/status`.
pub static STATUS: Operation = Operation {
    id: "status",
    summary: "Health check",
    description: "No key, no quota. `latency_ms` is the round trip of a real database ping.",
    tag: "service",
    access: Access::Public,
    params: &[],
    body: None,
    responses: &[
        Response {
            status: "200",
            description: "The database answers.",
            headers: &[],
            content: Content::Json(answer::<crate::Status>),
        },
        Response {
            status: "503",
            description: "`degraded`: the database does not answer.",
            headers: &[],
            content: Content::Json(answer::<crate::Status>),
        },
    ],
};

/// `GET /livez`.
pub static LIVEZ: Operation = Operation {
    id: "livez",
    summary: "Liveness",
    description: "No key, no quota, no database: 200 while the process answers. For orchestrators' liveness \
        probes; also served on the metrics listener.",
    tag: "service",
    access: Access::Public,
    params: &[],
    body: None,
    responses: &[Response {
        status: "200",
        description: "`live`.",
        headers: &[],
        content: Content::Json(answer::<crate::Health>),
    }],
};

/// `GET /readyz`.
pub static READYZ: Operation = Operation {
    id: "readyz",
    summary: "Readiness",
    description: "No key, no quota. 200 `ready` when the database answers a ping and the service is not \
        shutting down; 503 from the shutdown signal (SIGTERM) until the process exits, so a load \
        balancer drains the replica while its running audits finish. Also served on the metrics \
        listener.",
    tag: "service",
    access: Access::Public,
    params: &[],
    body: None,
    responses: &[
        Response {
            status: "200",
            description: "`ready`.",
            headers: &[],
            content: Content::Json(answer::<crate::Health>),
        },
        Response {
            status: "503",
            description: "`draining` (shutting down) or `db_down` (the database does not answer).",
            headers: &[],
            content: Content::Json(answer::<crate::Health>),
        },
    ],
};

/// `GET /openapi.json`.
pub static OPENAPI: Operation = Operation {
    id: "openapi",
    summary: "This document",
    description: "",
    tag: "service",
    access: Access::Public,
    params: &[],
    body: None,
    responses: &[Response {
        status: "200",
        description: "The OpenAPI 3.1 document.",
        headers: &[],
        content: Content::Json(|_| json!({"type": "object", "required": ["openapi", "paths"]})),
    }],
};

/// `POST /api/mcp`.
pub static MCP: Operation = Operation {
    id: "mcp",
    summary: "Agent-tool endpoint (MCP over JSON-RPC)",
    description: "Serves the stateless 2026-07-28 protocol and the 2025 `initialize` handshake on one path; \
        one JSON-RPC message per request, answered as `application/json`; no sessions, no SSE. \
        Public tools work without a key; write tools need a key with the `mcp` scope (without one: \
        HTTP 200 with an `isError` tool result). Consumes one unit of the shared quota per \
        `tools/call` (lists, reads, prompts and discovery are free); a call over quota answers HTTP \
        200 with an `isError` result and the `x-ratelimit-*` and `Retry-After` headers. A \
        `tools/call` answer carries `x-ratelimit-limit`, `x-ratelimit-remaining`, \
        `x-ratelimit-reset`. On a loopback listener, a non-local Host or Origin is refused with 403 \
        (DNS-rebinding protection). See docs/API.md.",
    tag: "agent-tools",
    access: Access::KeyOptional,
    params: &[
        Param::Own {
            name: "MCP-Protocol-Version",
            at: In::Header,
            required: false,
            description: "`2026-07-28` (modern; must equal `_meta` protocolVersion) or a 2025 version (legacy). \
        Absent: legacy 2025-03-26.",
            schema: |_| json!({"type": "string"}),
        },
        Param::Own {
            name: "Mcp-Method",
            at: In::Header,
            required: false,
            description: "Required on modern requests; mirrors the JSON-RPC method.",
            schema: |_| json!({"type": "string"}),
        },
        Param::Own {
            name: "Mcp-Name",
            at: In::Header,
            required: false,
            description: "Required on modern tools/call, prompts/get (params.name) and resources/read (params.uri); \
        `=?base64?...?=` accepted.",
            schema: |_| json!({"type": "string"}),
        },
    ],
    body: Some(request::<mcp_protocol::JsonRpcRequest>),
    responses: &[
        Response {
            status: "200",
            description: "A JSON-RPC result, or a JSON-RPC error raised by the method on the legacy path (unknown \
        method, -32602 invalid params, -32002 resource not found).",
            headers: &[],
            content: Content::Json(answer::<mcp_protocol::JsonRpcResponse>),
        },
        Response {
            status: "202",
            description: "A notification (or a client's JSON-RPC response) was accepted; no body.",
            headers: &[],
            content: Content::Empty,
        },
        Response {
            status: "400",
            description: "Invalid JSON (-32700), a batch array or a malformed request (-32600), modern `_meta` \
        without protocolVersion or clientCapabilities (-32602), a mirrored header missing or \
        different from the body (-32020), an unsupported protocol version (-32022, \
        `data.supported`).",
            headers: &[],
            content: Content::Json(answer::<mcp_protocol::JsonRpcError>),
        },
        Response {
            status: "401",
            description: "-32001: the x-api-key header names no known key (any method).",
            headers: &[],
            content: Content::Json(answer::<mcp_protocol::JsonRpcError>),
        },
        Response {
            status: "403",
            description: "-32003: the key is disabled or expired (any method); or -32600: a non-local Host or Origin \
        on a loopback listener.",
            headers: &[],
            content: Content::Json(answer::<mcp_protocol::JsonRpcError>),
        },
        Response {
            status: "404",
            description: "-32601: unknown method on the modern path (including `initialize` and `ping` sent as \
        modern requests).",
            headers: &[],
            content: Content::Json(answer::<mcp_protocol::JsonRpcError>),
        },
        Response {
            status: "413",
            description: "-32600: body over 1 MiB.",
            headers: &[],
            content: Content::Json(answer::<mcp_protocol::JsonRpcError>),
        },
        Response {
            status: "415",
            description: "-32600: Content-Type is not application/json.",
            headers: &[],
            content: Content::Json(answer::<mcp_protocol::JsonRpcError>),
        },
        Response {
            status: "500",
            description: "-32603: internal error.",
            headers: &[],
            content: Content::Json(answer::<mcp_protocol::JsonRpcError>),
        },
    ],
};

/// `GET /api/mcp`.
pub static MCP_GET: Operation = mcp_not_allowed("mcpGet");

/// `DELETE /api/mcp`.
pub static MCP_DELETE: Operation = mcp_not_allowed("mcpDelete");

/// Every method of `/api/mcp` but `POST`: 405 with `Allow: POST`.
const fn mcp_not_allowed(id: &'static str) -> Operation {
    Operation {
        id,
        summary: "Not allowed: the endpoint is POST only",
        description: "No SSE stream and no sessions: 405 with `Allow: POST` and a JSON-RPC error body. Every \
            other method but `POST` (`HEAD`, `PUT`, `PATCH`, `OPTIONS`, ...) gets the same answer.",
        tag: "agent-tools",
        access: Access::Unlisted,
        params: &[],
        body: None,
        responses: &[Response {
            status: "405",
            description: "-32600 with `Allow: POST`.",
            headers: &[Header::Own { name: "Allow", description: "`POST`" }],
            content: Content::Json(answer::<mcp_protocol::JsonRpcError>),
        }],
    }
}

/// The 429 of the discovery documents (`/.well-known/...`): the per-IP flood guard, not the
/// audit quota.
const DISCOVERY_FLOOD_GUARD: Response = Response {
    status: "4XX",
    description: "429 `rate_limited` (JSON error body, `Retry-After` header) from the per-IP flood guard \
        shared by the badge, report and discovery routes (default 120 requests per minute per IP). \
        It is not the audit quota: no `x-ratelimit-*` headers.",
    headers: &[Header::RetryAfter],
    content: Content::Json(answer::<crate::ErrorBody>),
};

/// `GET /.well-known/mcp.json`.
pub static MCP_DISCOVERY: Operation = Operation {
    id: "mcpDiscovery",
    summary: "MCP discovery document",
    description: "The agent-tool server descriptor merged with the experimental MCP server card. No key, no \
        quota, readable from any origin.",
    tag: "agent-tools",
    access: Access::Unlisted,
    params: &[],
    body: None,
    responses: &[
        Response {
            status: "200",
            description: "The document.",
            headers: &[Header::Own { name: "Access-Control-Allow-Origin", description: "`*`" }],
            content: Content::Json(answer::<mcp_protocol::discovery::McpDiscovery>),
        },
        DISCOVERY_FLOOD_GUARD,
    ],
};

/// `GET /.well-known/agent-card.json`.
pub static AGENT_CARD: Operation = Operation {
    id: "agentCard",
    summary: "A2A agent card",
    description: "A2A 1.0 agent card of the agent-tool endpoint: one skill per tool. It lists no A2A interface \
                  (`supportedInterfaces` is empty): the endpoint it describes speaks MCP, not A2A's `message/send`. \
                  No key, no quota, readable from any origin.",
    tag: "agent-tools",
    access: Access::Unlisted,
    params: &[],
    body: None,
    responses: &[
        Response {
            status: "200",
            description: "The document.",
            headers: &[Header::Own { name: "Access-Control-Allow-Origin", description: "`*`" }],
            content: Content::Json(answer::<mcp_protocol::discovery::AgentCard>),
        },
        DISCOVERY_FLOOD_GUARD,
    ],
};

/// `GET /.well-known/ai-catalog.json`.
pub static AI_CATALOG: Operation = Operation {
    id: "aiCatalog",
    summary: "AI catalog",
    description: "The AI catalog of the service: its MCP server card (`/.well-known/mcp.json`) and its A2A agent \
                  card as entries, each with a `urn:air:` identifier, example queries and a `did:web` identity. \
                  No key, no quota, readable from any origin.",
    tag: "agent-tools",
    access: Access::Unlisted,
    params: &[],
    body: None,
    responses: &[
        Response {
            status: "200",
            description: "The document.",
            headers: &[Header::Own { name: "Access-Control-Allow-Origin", description: "`*`" }],
            content: Content::Json(answer::<mcp_protocol::discovery::AiCatalog>),
        },
        DISCOVERY_FLOOD_GUARD,
    ],
};

/// For routing tables the document does not describe (tests of the dispatcher itself).
pub static UNDOCUMENTED: Operation = Operation {
    id: "undocumented",
    summary: "",
    description: "",
    tag: "",
    access: Access::Unlisted,
    params: &[],
    body: None,
    responses: &[],
};

// What a key created, listed and ended (docs/API.md, "Managing what a key created").

/// `forbidden`: the key is disabled, expired, or lacks the `mcp` scope.
const E403_MCP: Response = error("403", "`forbidden`: the key is disabled, expired, or lacks the `mcp` scope.");

/// The `{id}` path parameter of a subscription.
const WEBHOOK_ID: Param = Param::Own {
    name: "id",
    at: In::Path,
    required: true,
    description: "The subscription id.",
    schema: |_| json!({"type": "string"}),
};

/// 404 for an id the owner does not hold.
const fn not_owned(what: &'static str) -> Response {
    error("404", what)
}

/// `GET /api/v1/monitors`.
pub static LIST_MONITORS: Operation = Operation {
    id: "listMonitors",
    summary: "The key owner's monitors",
    description: "Requires a key with the `mcp` scope (monitors are made by the `monitor_site` agent tool and \
        the monitor workflow); consumes no quota. Each monitor with its interval, when its latest \
        scheduled check started and the next is due, the alert rules it applies and its newest alert.",
    tag: "monitors",
    access: Access::KeyRequired,
    params: &[],
    body: None,
    responses: &[
        Response {
            status: "200",
            description: "The monitors, oldest first.",
            headers: &[],
            content: Content::Json(answer::<crate::MonitorList>),
        },
        E401_KEY_NEEDED,
        E403_MCP,
        E500,
    ],
};

/// `DELETE /api/v1/monitors/{id}`.
pub static STOP_MONITOR: Operation = Operation {
    id: "stopMonitor",
    summary: "Stop a monitor",
    description: "Requires a key with the `mcp` scope; consumes no quota. The monitor is deleted with its \
        alerts: the page is no longer re-audited (its stored audits stay). Another owner's id answers \
        404 like an unknown one.",
    tag: "monitors",
    access: Access::KeyRequired,
    params: &[Param::Own {
        name: "id",
        at: In::Path,
        required: true,
        description: "The monitor id (`monitorId` of monitor_site).",
        schema: |_| json!({"type": "string"}),
    }],
    body: None,
    responses: &[
        Response {
            status: "200",
            description: "Stopped.",
            headers: &[],
            content: Content::Json(answer::<crate::MonitorStopped>),
        },
        not_owned("`not_found`: no monitor of this owner has that id."),
        E401_KEY_NEEDED,
        E403_MCP,
        E500,
    ],
};

/// `GET /api/v1/workflows`.
pub static LIST_WORKFLOWS: Operation = Operation {
    id: "listWorkflows",
    summary: "The key owner's workflow runs",
    description: "Requires a key with the `mcp` scope (runs are started by the `workflow_execute` agent \
        tool); consumes no quota. The newest 100 runs, each with its state and the step it is at; \
        the `workflow_status` agent tool reports one run in full.",
    tag: "workflows",
    access: Access::KeyRequired,
    params: &[],
    body: None,
    responses: &[
        Response {
            status: "200",
            description: "The runs, newest first.",
            headers: &[],
            content: Content::Json(answer::<crate::WorkflowList>),
        },
        E401_KEY_NEEDED,
        E403_MCP,
        E500,
    ],
};

/// `PATCH /api/v1/webhooks/{id}`.
pub static UPDATE_WEBHOOK: Operation = Operation {
    id: "updateWebhook",
    summary: "Disable or enable a webhook subscription",
    description: "Requires a key with the `webhooks` scope; consumes no quota. A disabled subscription gets \
        no new deliveries (no event is queued for it) and its pending ones wait until it is enabled \
        again. Other fields of the body are ignored. Another owner's id answers 404 like an unknown one.",
    tag: "webhooks",
    access: Access::KeyRequired,
    params: &[WEBHOOK_ID],
    body: Some(request::<crate::WebhookUpdate>),
    responses: &[
        Response {
            status: "200",
            description: "The subscription as it now stands.",
            headers: &[],
            content: Content::Json(answer::<crate::WebhookUpdated>),
        },
        error(
            "400",
            "`invalid_request` (bad JSON, not an object, `enabled` not a boolean) or `missing_parameter` \
        (`enabled`).",
        ),
        not_owned("`not_found`: no subscription of this owner has that id."),
        E413,
        E415,
        E401_KEY_NEEDED,
        E403_WEBHOOKS,
        E500,
    ],
};

/// `POST /api/v1/webhooks/{id}/test`.
pub static TEST_WEBHOOK: Operation = Operation {
    id: "testWebhook",
    summary: "Send a test event to a webhook subscription",
    description: "Requires a key with the `webhooks` scope; costs 1 quota unit (it makes the service send \
        a signed request), charged before the subscription is looked up. Queues one `ping` event \
        (data `{webhookId, message}`) for this subscription only, whatever events it subscribed to; it \
        is signed, sent and retried like any event, and its delivery shows in the delivery log. A \
        disabled subscription is refused (409 `conflict`); a full queue drops it (state \
        `dropped`). No body is needed; one that is sent must be JSON and is ignored.",
    tag: "webhooks",
    access: Access::KeyRequired,
    params: &[WEBHOOK_ID],
    body: None,
    responses: &[
        Response {
            status: "202",
            description: "Queued: the delivery, with the event id its `x-webhook-id` header will carry.",
            headers: &[],
            content: Content::Json(answer::<crate::WebhookTestQueued>),
        },
        error("400", "`invalid_request`: a body was sent that is not JSON."),
        not_owned("`not_found`: no subscription of this owner has that id."),
        error("409", "`conflict`: the subscription is disabled; enable it first."),
        E413,
        E415,
        E401_KEY_NEEDED,
        E403_WEBHOOKS,
        E429,
        E500,
    ],
};

/// `GET /api/v1/webhooks/{id}/deliveries`.
pub static WEBHOOK_DELIVERIES: Operation = Operation {
    id: "webhookDeliveries",
    summary: "The delivery log of a webhook subscription",
    description: "Requires a key with the `webhooks` scope; consumes no quota. The newest 50 deliveries, newest \
        first: event, state, attempts, the latest attempt's status or error, the next attempt. \
        Finished deliveries are kept 7 days.",
    tag: "webhooks",
    access: Access::KeyRequired,
    params: &[WEBHOOK_ID],
    body: None,
    responses: &[
        Response {
            status: "200",
            description: "The deliveries, newest first.",
            headers: &[],
            content: Content::Json(answer::<crate::WebhookDeliveryList>),
        },
        not_owned("`not_found`: no subscription of this owner has that id."),
        E401_KEY_NEEDED,
        E403_WEBHOOKS,
        E500,
    ],
};
