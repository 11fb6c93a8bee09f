//! Loopback servers for the integration tests of the workspace; a dev-dependency only.
//!
//! Three kinds of server, each on a loopback port:
//!
//! - Well-behaved peers: [`Pages`], on wiremock, which keeps every request: canned pages
//!   ([`Pages::start`]), answers from code ([`Pages::serve`]: receivers, fake providers,
//!   redirects, late answers by [`ResponseTemplate::set_delay`]) and a directory of
//!   `fixtures/sites/` served as a site ([`fixture_site`]).
//! - Misbehaving peers: [`RawServer`], raw sockets with one [`Reply`] per path: stalls,
//!   endless bodies, bytes that are not HTTP, answers cut short, arbitrary header bytes,
//!   connections reset; or bytes written before any request ([`RawServer::speaking_first`]).
//! - [`ThreadServer`]: a recording server on threads of its own, for tests without an async
//!   runtime (the command-line tests drive a child process), answers from code that blocks
//!   (a page held until the test opens a gate), requests counted per path, and a peer stopped
//!   and started again on the same port. It answers with the same [`Reply`]s.
//!
//! Beside them:
//!
//! - [`run_alone`]: one test in a process of its own, inside the crate's one test binary,
//!   for a test that changes or measures the whole process.
//! - [`tls::TestCerts`]: a test root and a server certificate it signed, for HTTPS tests.
//! - [`chromium_or_skip`]: the Chromium binary for tests that drive a real browser, or a skip
//!   (a failure under `SEO_AUDIT_REQUIRE_BROWSER=1`).
//! - [`TempPostgres`]: a real PostgreSQL server in a temporary directory, for the store's and
//!   the server's tests on PostgreSQL (see its module).

mod alone;
mod chromium;
mod memory;
mod postgres;
mod raw;
mod serve;
mod thread;
pub mod tls;

pub use alone::{alone, run_alone};
pub use chromium::{chromium_or_skip, find_chromium, REQUIRE_BROWSER};
pub use memory::{proc_kib, rss_mib};
pub use postgres::{TempPostgres, REQUIRE_POSTGRES, SUPERUSER};
pub use raw::{html, redirect, status, typed, RawServer, Recorded, Reply};
pub use serve::{fixture_site, fixtures_dir, FixtureSite, Pages, SLOW_DELAY};
pub use thread::{Gate, ThreadServer};
/// wiremock, under [`Pages`]: its `Request` is what [`Pages::serve`] answers.
pub use wiremock;
pub use wiremock::ResponseTemplate;

/// A port on 127.0.0.1 where nothing listens (it was free a moment ago).
pub fn closed_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind a free port");
    l.local_addr().expect("local addr").port()
}
