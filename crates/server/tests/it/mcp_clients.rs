//! The official MCP clients against the real server: the Python SDK (`mcp` 2.x), the
//! TypeScript SDKs (`@modelcontextprotocol/sdk` 1.x, `@modelcontextprotocol/client` 2.x) and
//! the MCP conformance suite, each run as a subprocess from `tests/clients/` at the
//! repository root with the endpoint URL, a key, a loopback fixture page, the start of a
//! small loopback fixture site to crawl (`crawl_site`, then `crawl_status` polled until the
//! crawl ends) and the names of the tools in `tools/list` order in the environment.
//!
//! A client that is not installed is skipped with a message, unless
//! `SEO_AUDIT_REQUIRE_CLIENTS=1` (CI sets it after installing them): then it fails.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Stdio;

use common::*;

fn clients_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/clients")
}

fn required() -> bool {
    std::env::var("SEO_AUDIT_REQUIRE_CLIENTS").is_ok_and(|v| v == "1")
}

/// Skips (or, when clients are required, fails) with a message.
fn unavailable(what: &str) {
    assert!(!required(), "{what} (SEO_AUDIT_REQUIRE_CLIENTS=1)");
    println!("skipped: {what}");
}

struct Env {
    url: String,
    key: String,
    fixture: String,
    /// The start URL of the site `crawl_site` crawls (`fixtures/sites/server-basic`).
    crawl: String,
}

async fn start() -> (TestServer, FixtureSite, Env) {
    let site = fixture_site("server-basic").await;
    let t = TestServer::start(|c| c.max_concurrent_audits = 4).await;
    let (key, _) = t.key(|_| {});
    let env = Env { url: t.url("/api/mcp"), key, fixture: site.url("/index.html"), crawl: site.url("/") };
    (t, site, env)
}

/// Runs a client to completion, prints its output, and asserts it exited 0.
async fn run(program: &str, args: &[&str], dir: &Path, env: &Env) {
    let out = tokio::process::Command::new(program)
        .args(args)
        .current_dir(dir)
        .env("MCP_URL", &env.url)
        .env("MCP_KEY", &env.key)
        .env("FIXTURE_URL", &env.fixture)
        .env("CRAWL_URL", &env.crawl)
        .env("MCP_TOOLS", server::mcp::calls::tool_names().join(","))
        .env("NO_PROXY", "127.0.0.1,localhost")
        .stdin(Stdio::null())
        .output()
        .await
        .unwrap_or_else(|e| panic!("cannot start {program}: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("---- {program} {args:?}\n{stdout}\n---- stderr\n{stderr}");
    assert!(out.status.success(), "{program} {args:?} failed ({}):\n{stdout}\n{stderr}", out.status);
}

fn python_has_mcp() -> bool {
    std::process::Command::new("python3")
        .args(["-c", "import mcp, httpx2; from mcp import Client"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_sdk() {
    if !python_has_mcp() {
        return unavailable("python3 with the `mcp` 2.x package is not installed (pip install \"mcp>=2,<3\")");
    }
    let (_t, _site, env) = start().await;
    run("python3", &["client.py"], &clients_dir().join("python"), &env).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typescript_sdks() {
    let dir = clients_dir().join("ts");
    if !dir.join("node_modules/@modelcontextprotocol/client").is_dir()
        || !dir.join("node_modules/@modelcontextprotocol/sdk").is_dir()
    {
        return unavailable("tests/clients/ts/node_modules is missing (npm ci in tests/clients/ts)");
    }
    let (_t, _site, env) = start().await;
    run("node", &["run.mjs"], &dir, &env).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn conformance_suite() {
    let dir = clients_dir().join("conformance");
    if !dir.join("node_modules/.bin/node").exists()
        || !dir.join("node_modules/@modelcontextprotocol/conformance").is_dir()
    {
        return unavailable("tests/clients/conformance/node_modules is missing (npm ci in tests/clients/conformance)");
    }
    let (_t, _site, env) = start().await;
    let url = env.url.clone();
    run("bash", &["run.sh", &url], &dir, &env).await;
}
