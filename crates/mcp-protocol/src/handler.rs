//! The entry point: one HTTP body in, one [`Reply`] out.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use crate::defs::{ServerInfo, ToolDef, ToolResult};
use crate::error::Error;
use crate::headers::{self, decode_header_value, HEADER_METHOD, HEADER_NAME, HEADER_PROTOCOL_VERSION};
use crate::jsonrpc::{self, Id};
use crate::registry::{Auth, CallContext, Quota, RateLimit, Registry, Standing, KEY_HELP, MCP_SCOPE};
use crate::version::{
    negotiate_version, Era, ASSUMED_VERSION_WITHOUT_HEADER, LEGACY_VERSIONS, META_CLIENT_CAPABILITIES,
    META_PROTOCOL_VERSION, META_SERVER_INFO, MODERN_VERSION, SUPPORTED_VERSIONS,
};
use crate::{args, cursor};

/// One POST to the agent-tool endpoint, as the server hands it over.
///
/// The HTTP method, content type, body size, Host/Origin checks and the key lookup are
/// the server's; the crate needs the headers (any case), the body and the key verdict.
#[derive(Debug, Clone, Copy)]
pub struct McpRequest<'a> {
    /// Request headers as (name, value) pairs; names are matched case-insensitively.
    pub headers: &'a [(String, String)],
    /// The raw body.
    pub body: &'a [u8],
    /// What the server made of the `x-api-key` header.
    pub auth: &'a Auth,
}

/// What to answer: a status, an optional JSON body (absent for 202), extra headers.
///
/// The server adds `Content-Type: application/json` when `body` is present, plus its
/// own headers (`x-request-id`, ...).
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    /// HTTP status.
    pub status: u16,
    /// One JSON-RPC message, or `None` for `202 Accepted`.
    pub body: Option<Value>,
    /// Headers to add (`x-ratelimit-*`, `Retry-After`).
    pub headers: Vec<(String, String)>,
}

impl Reply {
    /// The body serialised, empty for 202.
    pub fn body_bytes(&self) -> Vec<u8> {
        self.body.as_ref().map(|b| b.to_string().into_bytes()).unwrap_or_default()
    }

    fn accepted() -> Self {
        Reply { status: 202, body: None, headers: Vec::new() }
    }

    fn error(id: &Id, error: &Error, era: Era) -> Self {
        Reply {
            status: error.http_status(era),
            body: Some(jsonrpc::failure(id, &error.to_object(era))),
            headers: Vec::new(),
        }
    }
}

/// A parsed request that passed the checks of its era.
struct Call<'a> {
    method: &'a str,
    params: &'a Map<String, Value>,
    era: Era,
    version: String,
}

/// What a method handler produced: the result and any headers to add.
struct Outcome {
    result: Value,
    headers: Vec<(String, String)>,
}

impl From<Value> for Outcome {
    fn from(result: Value) -> Self {
        Outcome { result, headers: Vec::new() }
    }
}

/// The params of a request that sent none.
static EMPTY: std::sync::LazyLock<Map<String, Value>> = std::sync::LazyLock::new(Map::new);

/// Answers one request. Never panics; every failure is a JSON-RPC error reply.
///
/// Order of checks: JSON parse (400, -32700) and shape (400, -32600: batch arrays,
/// non-objects, bad ids); then a refused key (401/403, every method); then the era and
/// its checks (see the crate documentation); then the method.
pub async fn handle<R: Registry>(req: &McpRequest<'_>, reg: &R) -> Reply {
    let value: Value = match serde_json::from_slice(req.body) {
        Ok(v) => v,
        Err(e) => return Reply::error(&Id::Null, &Error::Parse(e.to_string()), Era::Legacy),
    };
    let obj = match &value {
        Value::Object(obj) => obj,
        Value::Array(_) => {
            let e = Error::InvalidRequest("batch requests are not supported: send one message per request".into());
            return Reply::error(&Id::Null, &e, Era::Legacy);
        }
        _ => {
            let e = Error::InvalidRequest("the body must be a JSON-RPC request object".into());
            return Reply::error(&Id::Null, &e, Era::Legacy);
        }
    };
    let id = match obj.get("id") {
        None => None,
        Some(v) => match Id::from_value(v) {
            Some(id) => Some(id),
            None => {
                let e = Error::InvalidRequest("id must be a string, an integer or null".into());
                return Reply::error(&Id::Null, &e, Era::Legacy);
            }
        },
    };
    let reply_id = id.clone().unwrap_or(Id::Null);
    if let Auth::Rejected(rejection) = req.auth {
        return Reply::error(&reply_id, &Error::KeyRejected(*rejection), Era::Legacy);
    }
    let call = match classify(req.headers, obj) {
        Ok(Some(call)) => call,
        // A client's response to a server request: nothing to answer.
        Ok(None) => return Reply::accepted(),
        Err((e, era)) => return Reply::error(&reply_id, &e, era),
    };
    // The simple form (no `jsonrpc`) expects an answer even without an id.
    let is_notification = call.method.starts_with("notifications/") || (id.is_none() && obj.contains_key("jsonrpc"));
    if is_notification {
        return Reply::accepted();
    }
    let ctx = CallContext { era: call.era, protocol_version: &call.version, auth: req.auth };
    match dispatch(&call, &ctx, reg).await {
        Ok(outcome) => {
            let result = match call.era {
                Era::Modern => decorate_modern(outcome.result, &reg.catalog().info),
                Era::Legacy => outcome.result,
            };
            Reply { status: 200, body: Some(jsonrpc::success(&reply_id, result)), headers: outcome.headers }
        }
        Err(e) => Reply::error(&reply_id, &e, call.era),
    }
}

/// Decides the era and runs its checks. `Ok(None)` for a client's JSON-RPC response.
fn classify<'a>(headers: &[(String, String)], obj: &'a Map<String, Value>) -> Result<Option<Call<'a>>, (Error, Era)> {
    let legacy = |e: Error| (e, Era::Legacy);
    match obj.get("jsonrpc") {
        None => {}
        Some(Value::String(v)) if v == "2.0" => {}
        Some(_) => return Err(legacy(Error::InvalidRequest("jsonrpc must be \"2.0\"".into()))),
    }
    let method = match obj.get("method") {
        Some(Value::String(m)) => m.as_str(),
        None if obj.contains_key("jsonrpc") && (obj.contains_key("result") || obj.contains_key("error")) => {
            return Ok(None)
        }
        _ => return Err(legacy(Error::InvalidRequest("method must be a string".into()))),
    };
    let params = match obj.get("params") {
        None | Some(Value::Null) => &EMPTY,
        Some(Value::Object(p)) => p,
        Some(_) => return Err(legacy(Error::InvalidRequest("params must be an object".into()))),
    };
    let meta = params.get("_meta").and_then(Value::as_object);
    let meta_version = meta.and_then(|m| m.get(META_PROTOCOL_VERSION));
    let raw_header_version = headers::find(headers, HEADER_PROTOCOL_VERSION);
    let header_version = raw_header_version.map(|raw| decode_header_value(raw).unwrap_or_else(|| raw.to_string()));

    let modern = meta_version.is_some() || header_version.as_deref() == Some(MODERN_VERSION);
    if !modern {
        let version = match header_version {
            None => ASSUMED_VERSION_WITHOUT_HEADER.to_string(),
            Some(v) if LEGACY_VERSIONS.contains(&v.as_str()) => v,
            Some(v) => return Err(legacy(Error::UnsupportedVersion { requested: v })),
        };
        return Ok(Some(Call { method, params, era: Era::Legacy, version }));
    }

    let modern_err = |e: Error| (e, Era::Modern);
    // Check 2: `_meta` carries the version and the capabilities.
    let Some(Value::String(version)) = meta_version else {
        return Err(modern_err(Error::InvalidMeta(format!(
            "params._meta must carry {META_PROTOCOL_VERSION} (a string)"
        ))));
    };
    if !meta.and_then(|m| m.get(META_CLIENT_CAPABILITIES)).is_some_and(Value::is_object) {
        return Err(modern_err(Error::InvalidMeta(format!(
            "params._meta must carry {META_CLIENT_CAPABILITIES} (an object)"
        ))));
    }
    // Check 3: mirrored headers. A missing MCP-Protocol-Version is tolerated (a modern
    // request may carry its version in `_meta` alone, and the header, when present, must
    // equal it); a missing Mcp-Method or Mcp-Name is not.
    if let Some(h) = &header_version {
        if h != version {
            return Err(modern_err(Error::HeaderMismatch(format!(
                "MCP-Protocol-Version header {h:?} differs from _meta protocolVersion {version:?}"
            ))));
        }
    }
    check_mirror(headers, HEADER_METHOD, "Mcp-Method", Some(method)).map_err(modern_err)?;
    let name_field = match method {
        "tools/call" | "prompts/get" => Some("name"),
        "resources/read" => Some("uri"),
        _ => None,
    };
    if let Some(field) = name_field {
        let body_value = params.get(field).and_then(Value::as_str);
        check_mirror(headers, HEADER_NAME, "Mcp-Name", body_value).map_err(modern_err)?;
    }
    // Check 4: a version we speak.
    if !SUPPORTED_VERSIONS.contains(&version.as_str()) {
        return Err(modern_err(Error::UnsupportedVersion { requested: version.clone() }));
    }
    Ok(Some(Call { method, params, era: Era::Modern, version: version.clone() }))
}

fn check_mirror(
    headers: &[(String, String)],
    header: &str,
    display: &str,
    body_value: Option<&str>,
) -> Result<(), Error> {
    let Some(raw) = headers::find(headers, header) else {
        // Nothing in the body to mirror: the method itself reports the missing field.
        if body_value.is_none() {
            return Ok(());
        }
        return Err(Error::HeaderMismatch(format!("the {display} header is required")));
    };
    let decoded = decode_header_value(raw);
    match (decoded.as_deref(), body_value) {
        (Some(h), Some(b)) if h == b => Ok(()),
        (Some(h), Some(b)) => {
            Err(Error::HeaderMismatch(format!("{display} header {h:?} differs from the body value {b:?}")))
        }
        (Some(h), None) => Err(Error::HeaderMismatch(format!("{display} header {h:?} has no counterpart in the body"))),
        (None, _) => Err(Error::HeaderMismatch(format!("{display} header is not valid =?base64?...?= text"))),
    }
}

fn decorate_modern(result: Value, info: &ServerInfo) -> Value {
    let Value::Object(mut map) = result else {
        return result;
    };
    map.insert("resultType".into(), Value::String("complete".into()));
    let server = json!({ "name": info.name, "version": info.version });
    match map.get_mut("_meta") {
        Some(Value::Object(meta)) => {
            meta.insert(META_SERVER_INFO.into(), server);
        }
        _ => {
            map.insert("_meta".into(), json!({ META_SERVER_INFO: server }));
        }
    }
    Value::Object(map)
}

fn cache_fields(mut result: Value, info: &ServerInfo) -> Value {
    if let Value::Object(map) = &mut result {
        map.insert("ttlMs".into(), json!(info.ttl_ms));
        map.insert("cacheScope".into(), json!(info.cache_scope));
    }
    result
}

async fn dispatch<R: Registry>(call: &Call<'_>, ctx: &CallContext<'_>, reg: &R) -> Result<Outcome, Error> {
    let info = &reg.catalog().info;
    let p = call.params;
    let legacy_only = call.era == Era::Legacy;
    match call.method {
        "server/discover" => Ok(cache_fields(discover(info), info).into()),
        "initialize" if legacy_only => Ok(initialize(info, p).into()),
        "ping" if legacy_only => Ok(json!({}).into()),
        "tools/list" => list(&reg.catalog().tools, "tools", p, reg).map(Outcome::from),
        "resources/list" => list(&reg.catalog().resources, "resources", p, reg).map(Outcome::from),
        "resources/templates/list" => {
            list(&reg.catalog().resource_templates, "resourceTemplates", p, reg).map(Outcome::from)
        }
        "prompts/list" => list(&reg.catalog().prompts, "prompts", p, reg).map(Outcome::from),
        "tools/call" => call_tool(p, ctx, reg).await,
        "resources/read" => {
            let uri = required_str(p, "uri")?;
            match reg.read_resource(uri).await {
                Some(contents) => {
                    let result = json!({ "contents": [contents] });
                    Ok(cache_fields(result, info).into())
                }
                None => Err(Error::ResourceNotFound { uri: uri.to_string() }),
            }
        }
        "prompts/get" => get_prompt(p, reg).map(Outcome::from),
        other => Err(Error::MethodNotFound(other.to_string())),
    }
}

fn required_str<'a>(params: &'a Map<String, Value>, field: &str) -> Result<&'a str, Error> {
    params
        .get(field)
        .and_then(Value::as_str)
        .ok_or_else(|| Error::InvalidParams(format!("params.{field} must be a string")))
}

fn discover(info: &ServerInfo) -> Value {
    json!({
        "resultType": "complete",
        "supportedVersions": SUPPORTED_VERSIONS,
        "capabilities": { "tools": {}, "resources": {}, "prompts": {} },
        // Not in MCP.md's shape, but the C# SDK requires it and extra fields are harmless.
        "serverInfo": { "name": info.name, "version": info.version },
        "instructions": info.instructions,
    })
}

fn initialize(info: &ServerInfo, params: &Map<String, Value>) -> Value {
    let requested = params.get("protocolVersion").and_then(Value::as_str);
    json!({
        "protocolVersion": negotiate_version(requested),
        "capabilities": {
            "tools": { "listChanged": false },
            "resources": { "subscribe": false, "listChanged": false },
            "prompts": { "listChanged": false },
        },
        "serverInfo": { "name": info.name, "version": info.version },
        "instructions": info.instructions,
    })
}

fn list<T: serde::Serialize, R: Registry>(
    items: &[T],
    key: &str,
    params: &Map<String, Value>,
    reg: &R,
) -> Result<Value, Error> {
    let cursor = match params.get("cursor") {
        None | Some(Value::Null) => None,
        Some(Value::String(c)) => Some(c.as_str()),
        Some(_) => return Err(Error::InvalidParams("params.cursor must be a string".into())),
    };
    let (page, next) = cursor::page(items, cursor, reg.page_size())?;
    let mut map = Map::new();
    map.insert(key.into(), json!(page));
    if let Some(next) = next {
        map.insert("nextCursor".into(), Value::String(next));
    }
    Ok(cache_fields(Value::Object(map), &reg.catalog().info))
}

async fn call_tool<R: Registry>(params: &Map<String, Value>, ctx: &CallContext<'_>, reg: &R) -> Result<Outcome, Error> {
    let name = required_str(params, "name")?;
    let Some(tool) = reg.catalog().tools.iter().find(|t| t.name == name) else {
        return Err(Error::InvalidParams(format!("unknown tool {name:?}")));
    };
    let arguments = match params.get("arguments") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(a)) => a.clone(),
        Some(_) => return Err(Error::InvalidParams("params.arguments must be an object".into())),
    };
    if let Some(refusal) = key_refusal(tool, ctx.auth) {
        return Ok(refusal.to_json().into());
    }
    let problems = args::check(&tool.input_schema, &arguments);
    if !problems.is_empty() {
        // Every failure text starts with the REST error code (docs/API.md, "Agent tools").
        let text = format!("invalid_request: Invalid arguments for {}: {}.", tool.name, problems.join("; "));
        return Ok(ToolResult::error(text).to_json().into());
    }
    let headers = match reg.take_quota(&tool.name, ctx).await {
        Quota::Unlimited => Vec::new(),
        Quota::Granted(limit) => limit.headers(),
        Quota::Exceeded(window) => return Ok(over_quota(&window, None, ctx.auth)),
        Quota::ExceededFor { window, standing } => return Ok(over_quota(&window, Some(standing), ctx.auth)),
    };
    let result = reg.call_tool(&tool.name, arguments, ctx).await.to_json();
    Ok(Outcome { result, headers })
}

/// The tool result refusing a write tool to a caller without an `mcp`-scoped key.
fn key_refusal(tool: &ToolDef, auth: &Auth) -> Option<ToolResult> {
    if tool.category == crate::defs::Category::Public || auth.has_scope(MCP_SCOPE) {
        return None;
    }
    // The REST codes of the same refusals: no key is `unauthorized`, a key without the
    // scope `forbidden`.
    let (code, why) = match auth {
        Auth::Key { .. } => ("forbidden", "this API key lacks the `mcp` scope"),
        _ => ("unauthorized", "no API key was sent"),
    };
    Some(ToolResult::error(format!(
        "{code}: {} needs an API key with the `mcp` scope, and {why}. To get a key, {KEY_HELP}.",
        tool.name
    )))
}

/// The refusal of a call over quota, with `x-ratelimit-*` and `Retry-After`. The advice
/// follows the caller's standing: a key for anonymous callers, a higher tier for keys below
/// the top, and only the wait otherwise (a keyed caller of unknown tier may hold the top one).
fn over_quota(window: &RateLimit, standing: Option<Standing>, auth: &Auth) -> Outcome {
    let mut headers = window.headers();
    headers.push(("retry-after".to_string(), window.reset_secs.to_string()));
    let who = match auth {
        Auth::Key { .. } => "for this API key",
        _ => "for anonymous use from this address",
    };
    let standing = standing.or(matches!(auth, Auth::Anonymous).then_some(Standing::Anonymous));
    let advice = match standing {
        Some(Standing::Anonymous) => format!(" An API key raises the limit: {KEY_HELP}."),
        Some(Standing::Below { higher }) => {
            format!(" A key of the {higher} tier raises the limit; ask the operator for one.")
        }
        Some(Standing::Top) | None => String::new(),
    };
    let text = format!(
        "rate_limited: The rate limit of {} requests per minute {who}, shared with the REST API, is reached. Retry \
         in {} seconds, when the window resets.{advice}",
        window.limit, window.reset_secs
    );
    Outcome { result: ToolResult::error(text).to_json(), headers }
}

fn get_prompt<R: Registry>(params: &Map<String, Value>, reg: &R) -> Result<Value, Error> {
    let name = required_str(params, "name")?;
    let Some(prompt) = reg.catalog().prompts.iter().find(|p| p.name == name) else {
        return Err(Error::InvalidParams(format!("unknown prompt {name:?}")));
    };
    let mut arguments = BTreeMap::new();
    match params.get("arguments") {
        None | Some(Value::Null) => {}
        Some(Value::Object(a)) => {
            for (k, v) in a {
                match v {
                    Value::String(s) => {
                        arguments.insert(k.clone(), s.clone());
                    }
                    _ => return Err(Error::InvalidParams(format!("prompt argument `{k}` must be a string"))),
                }
            }
        }
        Some(_) => return Err(Error::InvalidParams("params.arguments must be an object".into())),
    }
    let missing: Vec<&str> = prompt
        .arguments
        .iter()
        .filter(|a| a.required && !arguments.contains_key(&a.name))
        .map(|a| a.name.as_str())
        .collect();
    if !missing.is_empty() {
        return Err(Error::InvalidParams(format!(
            "prompt {name:?} is missing required argument(s): {}",
            missing.join(", ")
        )));
    }
    reg.get_prompt(&prompt.name, &arguments).map(|m| m.to_json()).map_err(Error::InvalidParams)
}
