//! The only crate of seo-audit that talks to the network.
//!
//! - [`validate_url`] turns user input into a target [`url::Url`] under the `invalid_url`
//!   rules (http/https only, no credentials, at most [`MAX_URL_LEN`] bytes, a host).
//! - [`Fetcher`] fetches pages ([`Fetcher::fetch_page`]), text files
//!   ([`Fetcher::fetch_text`], [`Fetcher::fetch_robots_txt`]) and posts JSON
//!   ([`Fetcher::post_json`]), within the limits of [`FetchConfig`] (5 s connect, 15 s
//!   total, 5 MiB decompressed, 5 redirects by default), and returns a [`FetchedPage`]:
//!   final URL, status, redirect chain, all headers, raw body bytes and timings.
//! - [`AddressGuard`] keeps every request away from loopback, private, link-local,
//!   multicast and other non-public addresses, in any notation and after any redirect,
//!   unless the operator's allow-list names them (docs/SECURITY.md). It runs before every
//!   hop on the URL and, through a custom DNS resolver, at connection time on every
//!   resolved address, which defeats DNS rebinding. [`is_public_ip`] is its address rule.
//! - [`SiteHeaders`]: the request headers, cookies and basic auth of a staging site's crawl,
//!   sent by [`Fetcher::for_site`] to that site's host only, never to another.
//! - [`Error`] is the single error type; [`Error::code`] and [`Error::http_status`] give
//!   the API's error code and status for each failure.
//!
//! Bodies are returned undecoded: charset detection (header, BOM, `<meta charset>`)
//! belongs to whoever parses the page.
//!
//! # Example
//! ```no_run
//! # async fn run() -> Result<(), fetch::Error> {
//! let fetcher = fetch::Fetcher::new(fetch::FetchConfig::default())?;
//! let url = fetch::validate_url("example.com")?; // https://example.com/
//! match fetcher.fetch_page(&url).await {
//!     Ok(page) => println!("{} {} bytes", page.status, page.body.len()),
//!     Err(err) => println!("{} ({}): {err}", err.code(), err.http_status()),
//! }
//! # Ok(())
//! # }
//! ```
//! Address checks need no network:
//! ```
//! let guard = fetch::AddressGuard::new(&["127.0.0.1"]).unwrap();
//! let allowed = url::Url::parse("http://127.0.0.1:8080/").unwrap();
//! let refused = url::Url::parse("http://0x7f.0.0.2/").unwrap(); // 127.0.0.2
//! assert!(guard.check_url(&allowed).is_ok());
//! assert!(guard.check_url(&refused).unwrap_err().is_blocked());
//! ```

#![warn(missing_docs)]

mod client;
mod error;
mod guard;
mod page;
pub mod proxy;
mod resolver;
mod site;
mod validate;

use std::time::Duration;

pub use client::{FetchConfig, Fetcher};
pub use error::{
    clip, ConnectFailure, DnsFailure, Error, TimeoutPhase, TlsFailure, ALLOW_TARGET_SETTING, MAX_ECHO_CHARS,
};
pub use guard::{is_public_ip, refusal_reason, AddressGuard};
pub use page::{FetchedPage, LinkAnswer, RedirectHop};
pub use site::{
    applies_to, SiteHeaderError, SiteHeaders, MAX_SITE_HEADERS, MAX_SITE_HEADER_BYTES, REFUSED_SITE_HEADERS,
};
pub use validate::validate_url;

/// Longest accepted target URL, in bytes (docs/API.md, "GET /api/v1/audit").
pub const MAX_URL_LEN: usize = 2048;
/// Longest wait for a connection, per hop.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// Longest time for a whole page fetch, redirects and body included.
pub const DEFAULT_TOTAL_TIMEOUT: Duration = Duration::from_secs(15);
/// Largest page body, after decompression: 5 MiB.
pub const DEFAULT_MAX_BODY_BYTES: usize = 5 * 1024 * 1024;
/// Longest time for a text fetch (robots.txt, llms.txt).
pub const DEFAULT_TEXT_TIMEOUT: Duration = Duration::from_secs(5);
/// Largest text body: 500 KiB, the least RFC 9309 asks crawlers to parse of a robots.txt.
pub const DEFAULT_TEXT_MAX_BYTES: usize = 500 * 1024;
/// Largest body of an answer to [`Fetcher::post_json`]: 1 MiB.
pub const DEFAULT_POST_MAX_BYTES: usize = 1024 * 1024;
/// Redirects followed before giving up (docs/SECURITY.md, "The address guard (SSRF)").
pub const DEFAULT_MAX_REDIRECTS: usize = 5;
/// Base URL named in the user agent when none is configured: the default listen address.
pub const DEFAULT_BASE_URL: &str = "http://127.0.0.1:8080";
/// The public description of the bot that the user agent links while the base URL is an
/// address webmasters cannot open (docs/API.md, "GET /bot").
pub const PUBLIC_BOT_PAGE: &str = "https://github.com/seo-audit/seo-audit/blob/main/docs/API.md#get-bot";
/// Most origins whose robots.txt the cache keeps.
pub const DEFAULT_ROBOTS_CACHE_ENTRIES: usize = 1024;
