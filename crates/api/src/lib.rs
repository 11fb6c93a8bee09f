//! The REST interface as data: the wire types ([`wire`]: the body of each answer and the
//! documented body of each request), the [`Operation`] of each route ([`ops`]: summary,
//! parameters, request body, responses, who may call it), and the generator of the OpenAPI
//! 3.1 document from them (component schemas derived with schemars; doc comments become
//! descriptions). The server builds the wire types and feeds the generator its routing table;
//! the result is checked in as `docs/openapi.json` (`just openapi` rewrites it; a test fails
//! when it is stale). No I/O here (docs/ARCHITECTURE.md).

pub mod alerts;
pub mod body;
pub mod compare;
pub mod crawl_shares;
pub mod crawls;
pub mod ops;
pub mod request;
pub mod schedules;
pub mod wire;

pub use wire::*;

use schemars::generate::{Contract, SchemaSettings};
use schemars::{JsonSchema, SchemaGenerator};
use serde_json::{json, Map, Value};

/// The API key header (the server's `API_KEY_HEADER`).
const API_KEY_HEADER: &str = "x-api-key";

/// Builds a schema, registering the component schemas it refers to.
pub type SchemaFn = fn(&mut Gen) -> Value;

/// Who may call an operation (its `security`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// No `security` listed (the agent-tool discovery documents, the refused `/api/mcp` methods).
    Unlisted,
    /// Anyone, no key (`[{}]`).
    Public,
    /// Without a key (limited per client IP) or with one (`[{}, {apiKey: []}]`).
    KeyOptional,
    /// A key is required (`[{apiKey: []}]`).
    KeyRequired,
}

/// Where a parameter is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum In {
    /// In the query string.
    Query,
    /// A `{name}` segment of the path.
    Path,
    /// A request header.
    Header,
}

/// One parameter of an operation.
#[derive(Debug)]
pub enum Param {
    /// The deprecated `x-api-key` query parameter (`components.parameters.ApiKeyQuery`).
    ApiKeyQuery,
    /// A parameter of this operation.
    Own {
        /// Its name.
        name: &'static str,
        /// Where it is.
        at: In,
        /// Whether it must be sent.
        required: bool,
        /// What it means (empty: none).
        description: &'static str,
        /// Its schema.
        schema: SchemaFn,
    },
}

/// One header of a response.
#[derive(Debug)]
pub enum Header {
    /// `x-error-code` of the HTML error pages.
    ErrorCode,
    /// `Retry-After`.
    RetryAfter,
    /// A string header of this response only.
    Own {
        /// Its name.
        name: &'static str,
        /// Its value, described.
        description: &'static str,
    },
}

/// What a response carries.
#[derive(Debug)]
pub enum Content {
    /// No body.
    Empty,
    /// `application/json` with this schema.
    Json(SchemaFn),
    /// A complete HTML page (`text/html`).
    Html,
    /// Media types with their schemas, as given.
    Media(&'static [(&'static str, SchemaFn)]),
}

/// One response of an operation. Every response gets `x-request-id`; on a route that consumes
/// quota, 2xx, 3xx and 429 answers also get the `x-ratelimit-*` headers, and 429 `Retry-After`.
#[derive(Debug)]
pub struct Response {
    /// The status (`200`) or range (`4XX`).
    pub status: &'static str,
    /// When it is answered.
    pub description: &'static str,
    /// Headers beyond the automatic ones.
    pub headers: &'static [Header],
    /// The body.
    pub content: Content,
}

/// The metadata of one route for the OpenAPI document.
#[derive(Debug)]
pub struct Operation {
    /// `operationId`.
    pub id: &'static str,
    /// One line.
    pub summary: &'static str,
    /// The rest (empty: none).
    pub description: &'static str,
    /// Its group.
    pub tag: &'static str,
    /// Who may call it.
    pub access: Access,
    /// Its parameters.
    pub params: &'static [Param],
    /// The JSON request body's schema, if it takes one.
    pub body: Option<SchemaFn>,
    /// Its responses.
    pub responses: &'static [Response],
}

/// Collects the component schemas while the document is built: responses are described as
/// they are serialised, request bodies as they are read.
#[derive(Debug)]
pub struct Gen {
    serialize: SchemaGenerator,
    deserialize: SchemaGenerator,
}

impl Gen {
    fn new() -> Gen {
        let settings = |contract| {
            let mut s = SchemaSettings::draft2020_12();
            s.definitions_path = "/components/schemas".into();
            s.meta_schema = None;
            s.contract = contract;
            s
        };
        Gen {
            serialize: settings(Contract::Serialize).into_generator(),
            deserialize: settings(Contract::Deserialize).into_generator(),
        }
    }

    /// The schema of an answer of type `T` (a `$ref` to its component).
    pub fn answer<T: JsonSchema>(&mut self) -> Value {
        self.serialize.subschema_for::<T>().to_value()
    }

    /// The schema of a request body of type `T` (a `$ref` to its component).
    pub fn request<T: JsonSchema>(&mut self) -> Value {
        self.deserialize.subschema_for::<T>().to_value()
    }

    fn components(&mut self) -> Map<String, Value> {
        // An answer always carries every field it serialises: the `default`s that
        // `#[serde(default)]` (for reading stored results back) puts in the schema say nothing
        // about it.
        let mut all: Map<String, Value> = self
            .serialize
            .take_definitions(true)
            .into_iter()
            .map(|(name, schema)| (name, without_defaults(schema)))
            .collect();
        // A request field's `default: null` (an absent `Option`) says no more than leaving
        // the field out of `required` does.
        for (name, mut schema) in self.deserialize.take_definitions(true) {
            each_schema(&mut schema, &mut |map| {
                if map.get("default").is_some_and(Value::is_null) {
                    map.remove("default");
                }
            });
            if let Some(other) = all.get(&name) {
                assert_eq!(other, &schema, "component {name} differs as read and as written; rename one");
            }
            all.insert(name, schema);
        }
        all.sort_keys();
        all.into_iter().map(|(name, schema)| (name, tidy(schema))).collect()
    }
}

/// The schema of an answer of type `T`, as a [`SchemaFn`].
pub fn answer<T: JsonSchema>(g: &mut Gen) -> Value {
    g.answer::<T>()
}

/// The schema of a request body of type `T`, as a [`SchemaFn`].
pub fn request<T: JsonSchema>(g: &mut Gen) -> Value {
    g.request::<T>()
}

/// The schema without any `default` keyword.
fn without_defaults(mut schema: Value) -> Value {
    each_schema(&mut schema, &mut |map| {
        map.remove("default");
    });
    schema
}

/// Drops what OpenAPI tools do not know: Rust's integer and float `format`s (`uint32`,
/// `double`; the bounds say what matters).
fn tidy(mut schema: Value) -> Value {
    each_schema(&mut schema, &mut |map| {
        let rust_format = map.get("format").and_then(Value::as_str).is_some_and(|f| {
            matches!(f, "uint" | "int" | "float" | "double")
                || f.strip_prefix("uint").or_else(|| f.strip_prefix("int")).is_some_and(|n| n.parse::<u8>().is_ok())
        });
        if rust_format {
            map.remove("format");
        }
    });
    schema
}

/// Calls `f` on `schema` and on every schema inside it (not on the maps of property names).
fn each_schema(schema: &mut Value, f: &mut dyn FnMut(&mut Map<String, Value>)) {
    match schema {
        Value::Object(map) => {
            f(map);
            for (key, v) in map.iter_mut() {
                match (key.as_str(), v) {
                    ("properties" | "patternProperties" | "$defs", Value::Object(named)) => {
                        named.values_mut().for_each(|s| each_schema(s, f));
                    }
                    ("const" | "enum" | "examples" | "default", _) => {}
                    (_, v) => each_schema(v, f),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|s| each_schema(s, f)),
        _ => {}
    }
}

/// `info.description`: the conventions of every endpoint (docs/API.md).
const INFO_DESCRIPTION: &str = "SEO audits for search engines and AI assistants. Errors everywhere but `/api/mcp` share one body: `{ok: false, api_version, error: {code, message, details?}}`. Every response carries `x-request-id`. Unknown routes answer 404 `not_found`, known paths with another method 405 `method_not_allowed` with an `Allow` header. `HEAD` is accepted wherever `GET` is, without being listed as an operation (RFC 9110 §9.1): the same status and headers as the `GET`, `Content-Length` included, and no body; it does what the `GET` does (an audit route audits and consumes quota), and an `Allow` header that names `GET` names `HEAD` too. `/api/mcp` answers every method but `POST` as `GET` and `DELETE` are documented: 405, `Allow: POST`, a JSON-RPC error body.";

/// One route, as the document needs it.
#[derive(Debug, Clone, Copy)]
pub struct RouteDoc<'a> {
    /// `GET`, `POST`, ...
    pub method: &'a str,
    /// Path pattern; `{name}` is a path parameter.
    pub path: &'a str,
    /// Whether it consumes quota of the rate limiter: its 2xx, 3xx and 429 answers then carry
    /// the `x-ratelimit-*` headers, and 429 `Retry-After`.
    pub consumes_quota: bool,
    /// What the document says about it.
    pub doc: &'a Operation,
}

/// The whole document: the paths of `routes`, the component schemas their operations refer
/// to, and the components `listed` names although no operation answers them (the webhook
/// delivery body, whose type the store owns).
pub fn generate<'a>(routes: impl IntoIterator<Item = RouteDoc<'a>>, listed: &[SchemaFn]) -> Value {
    let mut g = Gen::new();
    let mut paths = Map::new();
    for route in routes {
        let method = route.method.to_ascii_lowercase();
        let entry = paths.entry(route.path).or_insert_with(|| json!({}));
        entry[method] = operation(&mut g, &route);
    }
    for schema in listed {
        schema(&mut g);
    }
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "seo-audit",
            "version": env!("CARGO_PKG_VERSION"),
            "description": INFO_DESCRIPTION,
            "license": { "name": "MIT OR Apache-2.0", "identifier": "MIT OR Apache-2.0" },
        },
        "servers": [{ "url": "http://127.0.0.1:8080" }],
        "paths": paths,
        "components": {
            "schemas": g.components(),
            "securitySchemes": {
                "apiKey": {
                    "type": "apiKey",
                    "in": "header",
                    "name": API_KEY_HEADER,
                    "description": "`sa_` + 32 base62 characters; created with `seo-audit keys create`.",
                },
            },
            "parameters": {
                "ApiKeyQuery": {
                    "name": API_KEY_HEADER,
                    "in": "query",
                    "required": false,
                    "deprecated": true,
                    "description": "The key as a query parameter, accepted for compatibility (redacted in logs); prefer the header.",
                    "schema": { "type": "string" },
                },
            },
            "headers": {
                "RequestId": { "description": "Id of this request, also in the server's log line.", "schema": { "type": "string" } },
                "RateLimitLimit": { "description": "Quota units per minute of this identity.", "schema": { "type": "integer", "minimum": 0 } },
                "RateLimitRemaining": { "description": "Units left in the current minute.", "schema": { "type": "integer", "minimum": 0 } },
                "RateLimitReset": { "description": "Seconds until the minute window ends.", "schema": { "type": "integer", "minimum": 1, "maximum": 60 } },
                "RetryAfter": { "description": "Seconds to wait before retrying.", "schema": { "type": "integer", "minimum": 0 } },
                "ErrorCode": {
                    "description": "A stable snake_case error code (`invalid_url`, `rate_limited`, ...); docs/API.md lists each endpoint's.",
                    "schema": { "type": "string" },
                },
            },
        },
    })
}

/// The operations whose JSON body may be left out (every member has a default): the
/// document says so (`requestBody.required: false`), so that a client leaving it out is
/// following the contract.
const BODY_MAY_BE_LEFT_OUT: &[&str] = &["createCrawlShare"];

fn operation(g: &mut Gen, route: &RouteDoc) -> Value {
    let doc = route.doc;
    let mut op = json!({ "operationId": doc.id, "summary": doc.summary, "tags": [doc.tag] });
    if !doc.description.is_empty() {
        op["description"] = json!(doc.description);
    }
    let key = json!({ "apiKey": [] });
    match doc.access {
        Access::Unlisted => {}
        Access::Public => op["security"] = json!([{}]),
        Access::KeyOptional => op["security"] = json!([{}, key]),
        Access::KeyRequired => op["security"] = json!([key]),
    }
    if !doc.params.is_empty() {
        let params: Vec<Value> = doc.params.iter().map(|p| param(g, p)).collect();
        op["parameters"] = json!(params);
    }
    if let Some(body) = doc.body {
        let required = !BODY_MAY_BE_LEFT_OUT.contains(&doc.id);
        op["requestBody"] = json!({ "required": required, "content": { "application/json": { "schema": body(g) } } });
    }
    let mut responses = Map::new();
    for r in doc.responses {
        responses.insert(r.status.to_string(), response(g, r, route.consumes_quota));
    }
    op["responses"] = Value::Object(responses);
    op
}

fn param(g: &mut Gen, p: &Param) -> Value {
    match p {
        Param::ApiKeyQuery => json!({ "$ref": "#/components/parameters/ApiKeyQuery" }),
        Param::Own { name, at, required, description, schema } => {
            let at = match at {
                In::Query => "query",
                In::Path => "path",
                In::Header => "header",
            };
            let mut v = json!({ "name": name, "in": at, "required": required });
            if !description.is_empty() {
                v["description"] = json!(description);
            }
            v["schema"] = schema(g);
            v
        }
    }
}

fn header_ref(name: &str) -> Value {
    json!({ "$ref": format!("#/components/headers/{name}") })
}

fn response(g: &mut Gen, r: &Response, consumes_quota: bool) -> Value {
    let mut headers = Map::new();
    headers.insert("x-request-id".into(), header_ref("RequestId"));
    let metered = consumes_quota && (r.status.starts_with('2') || r.status.starts_with('3') || r.status == "429");
    for h in r.headers.iter().filter(|h| matches!(h, Header::ErrorCode)) {
        headers.insert("x-error-code".into(), header(h));
    }
    if metered {
        headers.insert("x-ratelimit-limit".into(), header_ref("RateLimitLimit"));
        headers.insert("x-ratelimit-remaining".into(), header_ref("RateLimitRemaining"));
        headers.insert("x-ratelimit-reset".into(), header_ref("RateLimitReset"));
    }
    if consumes_quota && r.status == "429" {
        headers.insert("Retry-After".into(), header_ref("RetryAfter"));
    }
    for h in r.headers.iter().filter(|h| !matches!(h, Header::ErrorCode)) {
        let name = match h {
            Header::RetryAfter => "Retry-After",
            Header::Own { name, .. } => name,
            Header::ErrorCode => unreachable!(),
        };
        headers.insert(name.to_string(), header(h));
    }
    let mut v = json!({ "description": r.description, "headers": headers });
    let html = || json!({ "type": "string", "description": "A complete HTML document with inline CSS and no script." });
    match &r.content {
        Content::Empty => {}
        Content::Json(schema) => v["content"] = json!({ "application/json": { "schema": schema(g) } }),
        Content::Html => v["content"] = json!({ "text/html": { "schema": html() } }),
        Content::Media(media) => {
            let mut content = Map::new();
            for (media, schema) in media.iter() {
                content.insert(media.to_string(), json!({ "schema": schema(g) }));
            }
            v["content"] = Value::Object(content);
        }
    }
    v
}

fn header(h: &Header) -> Value {
    match h {
        Header::ErrorCode => header_ref("ErrorCode"),
        Header::RetryAfter => header_ref("RetryAfter"),
        Header::Own { description, .. } => json!({ "description": description, "schema": { "type": "string" } }),
    }
}

/// A document as checked in: pretty JSON with a final newline.
pub fn render(document: &Value) -> String {
    let mut text = serde_json::to_string_pretty(document).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `$ref` of `v`.
    fn refs(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Object(map) => {
                if let Some(Value::String(r)) = map.get("$ref") {
                    out.push(r.clone());
                }
                map.values().for_each(|v| refs(v, out));
            }
            Value::Array(items) => items.iter().for_each(|v| refs(v, out)),
            _ => {}
        }
    }

    #[test]
    fn operations_refer_to_derived_components_only() {
        let ops = [
            ("GET", "/api/v1/audit", &ops::AUDIT),
            ("POST", "/api/v1/audit/batch", &ops::AUDIT_BATCH),
            ("POST", "/api/ai-readiness", &ops::AI_READINESS),
            ("POST", "/api/ai-visibility-scan", &ops::AI_VISIBILITY_SCAN),
            ("POST", "/api/geo-check", &ops::GEO_CHECK),
            ("POST", "/api/content-gap", &ops::CONTENT_GAP),
            ("POST", "/api/auto-fix-batch", &ops::AUTO_FIX_BATCH),
            ("GET", "/api/v1/usage", &ops::USAGE),
            ("POST", "/api/v1/webhooks", &ops::CREATE_WEBHOOK),
            ("GET", "/api/status", &ops::STATUS),
        ];
        let routes = ops.iter().map(|(method, path, doc)| RouteDoc { method, path, consumes_quota: true, doc });
        let doc = generate(routes, &[]);
        let mut found = Vec::new();
        refs(&doc, &mut found);
        assert!(found.len() > 20);
        for r in found {
            let Some(name) = r.strip_prefix("#/components/schemas/") else { continue };
            assert!(doc["components"]["schemas"].get(name).is_some(), "{r} is not a component");
        }
    }
}
