//! Helpers of the end-to-end tests: the real server on port 0 with a SQLite file in a
//! temporary directory, and OpenAPI schema checks. The loopback sites come from the
//! workspace's `test-support` crate.

// Each test module uses a part.
#![allow(dead_code, unused_imports)]

use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};
pub use test_support::{
    closed_port, fixture_site, fixtures_dir, wiremock, FixtureSite, Pages, ResponseTemplate, SLOW_DELAY,
};

/// The settings every test starts from: loopback allowed, short timeouts, small page limit,
/// generous quotas (tests of the limiter lower them).
pub fn test_config(data: &std::path::Path) -> server::Config {
    let mut c = server::Config {
        listen: "127.0.0.1:0".parse().unwrap(),
        data: data.to_path_buf(),
        allow_targets: vec!["127.0.0.1".to_string()],
        ..server::Config::default()
    };
    c.rate_limits = server::RateLimits { anonymous: 10_000, free: 10_000, pro: 10_000 };
    c.fetch.total_timeout_ms = 800;
    c.fetch.text_timeout_ms = 800;
    c.fetch.connect_timeout_ms = 800;
    c.fetch.max_body_bytes = 16 * 1024;
    c.shutdown_grace_ms = 5_000;
    // Tests reach nothing but loopback: the fixture sites link to public hosts, so a crawl
    // checks no external link unless its test turns the checks on.
    c.crawl_external_budget = 0;
    c
}

/// The variable that runs the server's tests on PostgreSQL: `SEO_AUDIT_TEST_DATABASE=postgres`
/// gives every test server a fresh database of the test process's PostgreSQL
/// (`test_support::TempPostgres`) instead of an SQLite file. `.ci/run` runs a set of the
/// suite's modules that way.
pub const TEST_DATABASE: &str = "SEO_AUDIT_TEST_DATABASE";

/// The PostgreSQL URL a test server with data directory `dir` uses, when the suite runs on
/// PostgreSQL: one database per directory, so a server started again on the same directory
/// (a restart) finds its data, as it would in its SQLite file.
pub fn test_database(dir: &std::path::Path) -> Option<String> {
    match std::env::var(TEST_DATABASE).as_deref() {
        Ok("postgres") => {
            let marker = dir.join("postgres-url");
            if let Ok(url) = std::fs::read_to_string(&marker) {
                return Some(url);
            }
            let server =
                test_support::TempPostgres::shared().expect("SEO_AUDIT_TEST_DATABASE=postgres needs PostgreSQL");
            let url = server.fresh_database();
            std::fs::write(&marker, &url).unwrap();
            Some(url)
        }
        Ok("" | "sqlite") | Err(_) => None,
        Ok(other) => panic!("{TEST_DATABASE}={other}: expected postgres or sqlite"),
    }
}

/// A running server and what tests need around it.
pub struct TestServer {
    pub server: server::Server,
    pub base: String,
    pub client: reqwest::Client,
    pub store: store::Store,
    pub dir: Arc<tempfile::TempDir>,
}

impl TestServer {
    pub async fn start(tweak: impl FnOnce(&mut server::Config)) -> TestServer {
        let dir = Arc::new(tempfile::tempdir().unwrap());
        TestServer::start_in(dir, tweak).await
    }

    pub async fn start_in(dir: Arc<tempfile::TempDir>, tweak: impl FnOnce(&mut server::Config)) -> TestServer {
        let mut config = test_config(dir.path());
        if let Some(url) = test_database(dir.path()) {
            config.database_url = url;
        }
        tweak(&mut config);
        let server = server::serve(config).await.unwrap();
        let base = format!("{}://{}", server.scheme(), server.local_addr());
        // The application's own handle: it follows the database file when the service
        // reconnects to a restored copy (faults.rs).
        let store = server.state().app.store.clone();
        let client = reqwest::Client::builder().no_proxy().build().unwrap();
        TestServer { server, base, client, store, dir }
    }

    pub fn url(&self, path_and_query: &str) -> String {
        format!("{}{}", self.base, path_and_query)
    }

    pub fn audit_url(&self, target: &str, extra: &str) -> String {
        let q: String = url::form_urlencoded::byte_serialize(target.as_bytes()).collect();
        self.url(&format!("/api/v1/audit?url={q}{extra}"))
    }

    pub async fn get(&self, path_and_query: &str) -> Answer {
        Answer::from(self.client.get(self.url(path_and_query)).send().await.unwrap()).await
    }

    pub fn key(&self, tweak: impl FnOnce(&mut store::NewKey)) -> (String, store::KeyRecord) {
        let mut new = store::NewKey::new("test", store::Tier::Free);
        tweak(&mut new);
        self.db(|s| s.create_key(new)).unwrap()
    }

    /// Runs a store call the way the service does, off the async threads: on a thread of its
    /// own (the PostgreSQL client refuses to block a thread that drives async tasks).
    pub fn db<T: Send>(&self, f: impl FnOnce(&store::Store) -> T + Send) -> T {
        std::thread::scope(|scope| scope.spawn(|| f(&self.store)).join().unwrap())
    }
}

/// A response, read whole.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: http::HeaderMap,
    pub body: Value,
    pub raw: String,
}

impl Answer {
    pub async fn from(resp: reqwest::Response) -> Answer {
        let status = resp.status().as_u16();
        let headers = resp.headers().clone();
        let raw = resp.text().await.unwrap();
        let body = serde_json::from_str(&raw).unwrap_or(Value::Null);
        Answer { status, headers, body, raw }
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// Every answer of the service: JSON content type and a request id.
    pub fn assert_common(&self) {
        assert_eq!(self.header("content-type"), Some(server::JSON_CONTENT_TYPE), "{self:?}");
        assert!(self.header("x-request-id").is_some_and(|v| !v.is_empty()), "{self:?}");
        assert!(!self.body.is_null(), "not JSON: {}", self.raw);
    }

    /// An error answer with this status and code, whose body matches the Error schema.
    pub fn assert_error(&self, status: u16, code: &str) {
        assert_eq!((self.status, self.body["error"]["code"].as_str()), (status, Some(code)), "{}", self.raw);
        self.assert_common();
        assert_eq!(self.body["ok"], false);
        validate_schema("Error", &self.body);
    }
}

/// A tools/call in the modern form with `key`; the answer as JSON-RPC.
pub async fn tool_call(t: &TestServer, key: &str, name: &str, arguments: Value) -> Answer {
    let body = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "name": name, "arguments": arguments, "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
        }},
    });
    let resp = t
        .client
        .post(t.url("/api/mcp"))
        .header("x-api-key", key)
        .header("MCP-Protocol-Version", "2026-07-28")
        .header("Mcp-Method", "tools/call")
        .header("Mcp-Name", name)
        .json(&body)
        .send()
        .await
        .unwrap();
    Answer::from(resp).await
}

/// Validates `value` against `components.schemas.<name>` of the OpenAPI document.
pub fn validate_schema(name: &str, value: &Value) {
    validate(&json!({ "$ref": format!("#/components/schemas/{name}") }), value);
}

/// Validates `value` against a schema of the OpenAPI document (refs resolved against it).
pub fn validate(schema: &Value, value: &Value) {
    let doc = server::openapi_document();
    let mut root = json!({ "allOf": [schema] });
    root["components"] = doc["components"].clone();
    let validator = jsonschema::validator_for(&root).expect("valid schema");
    let errors: Vec<String> = validator.iter_errors(value).map(|e| format!("{} at {}", e, e.instance_path)).collect();
    assert!(errors.is_empty(), "{value} does not match {schema}: {errors:#?}");
}

/// Validates an answer against the schema the document gives for (method, path, status).
pub fn validate_documented(method: &str, path: &str, answer: &Answer) {
    let doc = server::openapi_document();
    let op = &doc["paths"][path][method.to_ascii_lowercase()];
    assert!(op.is_object(), "{method} {path} is not documented");
    // An exact status, else its range (`4XX`), as OpenAPI allows.
    let exact = &op["responses"][answer.status.to_string()];
    let resp = if exact.is_object() { exact } else { &op["responses"][format!("{}XX", answer.status / 100)] };
    assert!(resp.is_object(), "status {} of {method} {path} is not documented", answer.status);
    let schema = &resp["content"]["application/json"]["schema"];
    assert!(schema.is_object(), "no JSON schema for {} of {method} {path}", answer.status);
    validate(schema, &answer.body);
    if let Some(headers) = resp["headers"].as_object() {
        for name in headers.keys() {
            assert!(answer.header(name).is_some(), "documented header {name} missing from {method} {path}: {answer:?}");
        }
    }
}

/// Waits until the clock is not in the last seconds of a minute, so a burst of requests
/// falls into one fixed rate-limit window.
pub async fn away_from_minute_boundary() {
    loop {
        let s = time::OffsetDateTime::now_utc().second();
        if s < 50 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}
