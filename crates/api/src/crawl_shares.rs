//! The wire types and operations of a crawl report's share links (docs/API.md, "Share
//! links"): `POST /api/v1/crawls/{id}/shares`, `GET /api/v1/crawls/{id}/shares`,
//! `DELETE /api/v1/crawls/{id}/shares/{link}`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;
use vocab::{CrawlId, ShareId, Timestamp};

use crate::body::{Field, JsonBody};
use crate::{answer, request, Access, Content, In, Operation, Param, Response};

/// The states of a share link.
pub const SHARE_STATES: &[&str] = &["active", "expired", "revoked"];

/// The body of `POST /api/v1/crawls/{id}/shares` (it may be left out).
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct ShareRequest {
    /// Seconds the link opens the report: 60 to 2,592,000 (30 days). Default 604,800 (7 days).
    #[serde(default)]
    #[schemars(with = "Option<u64>", range(min = 60, max = 2_592_000))]
    pub expires_in: Field<u64>,
}

impl JsonBody for ShareRequest {
    const MEMBERS: &'static str = "`expires_in`";
}

/// A share link of a crawl's report.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CrawlShare {
    /// The link id (`sh_` and 22 base62 characters): what `DELETE …/shares/{link}` takes.
    #[schemars(with = "String")]
    pub id: ShareId,
    /// The crawl it opens.
    #[schemars(with = "String")]
    pub crawl_id: CrawlId,
    /// `active` (it opens the report), `expired` or `revoked` (it opens nothing).
    #[schemars(extend("enum" = SHARE_STATES))]
    pub state: String,
    /// The address that opens the report without a key, while the link is `active`
    /// (`null` otherwise): `{base_url}/crawls/{id}?share={token}`.
    pub url: Option<String>,
    /// When it was made (RFC 3339).
    #[schemars(with = "String")]
    pub created_at: Timestamp,
    /// When it stops opening the report (RFC 3339).
    #[schemars(with = "String")]
    pub expires_at: Timestamp,
    /// When it was revoked (RFC 3339), if it was.
    #[schemars(with = "Option<String>")]
    pub revoked_at: Option<Timestamp>,
}

/// The answer of `POST /api/v1/crawls/{id}/shares` and `DELETE …/shares/{link}`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ShareAnswer {
    #[schemars(extend("const" = true))]
    pub ok: bool,
    #[schemars(extend("const" = "v1"))]
    pub api_version: &'static str,
    /// The link as it now is.
    pub share: CrawlShare,
}

/// The answer of `GET /api/v1/crawls/{id}/shares`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ShareList {
    #[schemars(extend("const" = true))]
    pub ok: bool,
    #[schemars(extend("const" = "v1"))]
    pub api_version: &'static str,
    /// The crawl.
    #[schemars(with = "String")]
    pub crawl_id: CrawlId,
    /// Every link of the crawl (at most 100), newest first.
    pub shares: Vec<CrawlShare>,
}

const fn error(status: &'static str, description: &'static str) -> Response {
    Response { status, description, headers: &[], content: Content::Json(answer::<crate::ErrorBody>) }
}

const E401: Response = error("401", "`unauthorized`: no key, or an unknown key.");
const E403: Response =
    error("403", "`forbidden`: the key is disabled, expired, or lacks the `audit` scope (`details.reason`).");
const E500: Response = error("500", "`internal`.");

const ID: Param = Param::Own {
    name: "id",
    at: In::Path,
    required: true,
    description: "The crawl id (`cr_` and 22 base62 characters).",
    schema: |_| json!({"type": "string"}),
};

/// `POST /api/v1/crawls/{id}/shares`.
pub static CREATE_CRAWL_SHARE: Operation = Operation {
    id: "createCrawlShare",
    summary: "Make a share link of a crawl's report",
    description: "A link that opens the crawl's report page (`/crawls/{id}`) without the key, until it expires \
        (`expires_in`, 7 days by default, at most 30) or is revoked: `{base_url}/crawls/{id}?share={token}`, the \
        token signed with the service's secret over the crawl, the link and its expiry. An expired, revoked or \
        altered link, or one of another crawl, answers 404 as an unknown crawl does. The link opens the report \
        page only (not the JSON routes or the exports). Requires a key with the `audit` scope, the crawl's \
        owner's; at most 100 links a crawl. The body may be left out. Consumes no quota.",
    tag: "crawl",
    access: Access::KeyRequired,
    params: &[ID],
    body: Some(request::<ShareRequest>),
    responses: &[
        Response {
            status: "201",
            description: "The link.",
            headers: &[],
            content: Content::Json(answer::<ShareAnswer>),
        },
        error(
            "400",
            "`invalid_request`: `expires_in` is not a whole number from 60 to 2,592,000 (`details.parameter`), or \
        the crawl has 100 links already (`details.limit`).",
        ),
        E401,
        E403,
        error("404", "`not_found`: no crawl with that id of the key's owner."),
        error("413", "`payload_too_large`: body over 1 MiB."),
        error("415", "`unsupported_media_type`: a body that is not `application/json`."),
        E500,
    ],
};

/// `GET /api/v1/crawls/{id}/shares`.
pub static LIST_CRAWL_SHARES: Operation = Operation {
    id: "listCrawlShares",
    summary: "The share links of a crawl",
    description: "Every link of the crawl, newest first, active, expired or revoked; an active one with its \
        `url`. Requires a key with the `audit` scope, the crawl's owner's. Consumes no quota.",
    tag: "crawl",
    access: Access::KeyRequired,
    params: &[ID],
    body: None,
    responses: &[
        Response {
            status: "200",
            description: "The links.",
            headers: &[],
            content: Content::Json(answer::<ShareList>),
        },
        E401,
        E403,
        error("404", "`not_found`: no crawl with that id of the key's owner."),
        E500,
    ],
};

/// `DELETE /api/v1/crawls/{id}/shares/{link}`.
pub static REVOKE_CRAWL_SHARE: Operation = Operation {
    id: "revokeCrawlShare",
    summary: "Revoke a share link of a crawl",
    description: "From now on the link opens nothing (404, as an unknown crawl). A link revoked before is \
        answered as it is. Requires a key with the `audit` scope, the crawl's owner's. Consumes no quota.",
    tag: "crawl",
    access: Access::KeyRequired,
    params: &[
        ID,
        Param::Own {
            name: "link",
            at: In::Path,
            required: true,
            description: "The link id (`sh_` and 22 base62 characters).",
            schema: |_| json!({"type": "string"}),
        },
    ],
    body: None,
    responses: &[
        Response {
            status: "200",
            description: "The link, revoked.",
            headers: &[],
            content: Content::Json(answer::<ShareAnswer>),
        },
        E401,
        E403,
        error("404", "`not_found`: no crawl with that id of the key's owner, or no such link of it."),
        E500,
    ],
};
