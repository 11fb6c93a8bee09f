//! Loopback servers for the integration tests of the workspace; a dev-dependency only.
//!
//! - Well-behaved peers: [`Pages`] (canned pages, request counting, on wiremock),
//!   [`serve_loopback`] (any hyper handler, HTTP/1.1 and HTTP/2, for answers that need code:
//!   slow bodies, recorded requests, fake providers) and [`fixture_site`] (a directory of
//!   `fixtures/sites/` served as a site).
//! - Misbehaving peers: [`RawServer`], raw sockets with one [`Reply`] per path: stalls,
//!   endless bodies, bytes that are not HTTP, answers cut short, arbitrary header bytes.
//! - [`thread_site`]: a blocking server on threads, for tests without an async runtime
//!   (the command-line tests drive a child process).
//! - [`tls::TestCerts`]: a test root and a server certificate it signed, for HTTPS tests.
//! - [`chromium_or_skip`]: the Chromium binary for tests that drive a real browser, or a skip
//!   (a failure under `SEO_AUDIT_REQUIRE_BROWSER=1`).
//! - [`TempPostgres`]: a real PostgreSQL server in a temporary directory, for the store's and
//!   the server's tests on PostgreSQL (see its module).

mod chromium;
mod postgres;
mod raw;
mod serve;
mod thread;
pub mod tls;

pub use chromium::{chromium_or_skip, find_chromium, REQUIRE_BROWSER};
pub use postgres::{TempPostgres, REQUIRE_POSTGRES, SUPERUSER};
pub use raw::{html, redirect, typed, RawServer, Recorded, Reply};
pub use serve::{fixture_site, fixtures_dir, serve_loopback, FixtureSite, Pages, SLOW_DELAY};
pub use thread::{thread_site, ThreadSite};

/// A port on 127.0.0.1 where nothing listens (it was free a moment ago).
pub fn closed_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind a free port");
    l.local_addr().expect("local addr").port()
}
