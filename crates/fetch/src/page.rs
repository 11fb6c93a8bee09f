//! What a fetch returns.

use bytes::Bytes;
use url::Url;

/// One redirect that was followed: the URL that answered, and its 3xx status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RedirectHop {
    /// The URL that was requested and answered with a redirect.
    pub url: Url,
    /// The redirect status (301, 302, 303, 307 or 308).
    pub status: u16,
}

/// A fetched response: the final answer after redirects, with its body.
///
/// Any HTTP status is a successful fetch: a page answering 404 or 500 is still a page to
/// report on (docs/API.md, `status_code`). Only a failure to get an answer at all is an error.
#[derive(Debug, Clone)]
pub struct FetchedPage {
    /// The URL that was asked for.
    pub requested_url: Url,
    /// The URL that gave the final answer (differs after redirects).
    pub final_url: Url,
    /// The final answer's HTTP status.
    pub status: u16,
    /// Every redirect followed, in order; empty when the first answer was final.
    pub redirect_chain: Vec<RedirectHop>,
    /// Every header of the final answer, in order, names lowercase, repeated headers
    /// kept as separate entries. Values that are not UTF-8 are decoded lossily.
    pub headers: Vec<(String, String)>,
    /// The `Content-Type` header as sent, when there was one.
    pub content_type: Option<String>,
    /// The body after content decoding (gzip, brotli, deflate), but before any charset
    /// decoding: the bytes exactly as the server meant them.
    pub body: Bytes,
    /// Time to first byte of the final hop: from sending its request to receiving its
    /// response headers, in milliseconds.
    pub ttfb_ms: u64,
    /// Time for the whole fetch, all hops and the body included, in milliseconds.
    pub total_ms: u64,
}

impl FetchedPage {
    /// The first value of a header, by case-insensitive name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// Every value of a header, in the order sent, by case-insensitive name.
    pub fn header_all(&self, name: &str) -> Vec<&str> {
        self.headers.iter().filter(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str()).collect()
    }
}

/// How a link answered ([`Fetcher::check_link`](crate::Fetcher::check_link)): its status
/// after the redirects, no body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkAnswer {
    /// The last answer's status (a 3xx without `Location` is a last answer).
    pub status: u16,
    /// The redirects followed, in order.
    pub redirect_chain: Vec<RedirectHop>,
    /// The URL that gave the last answer.
    pub final_url: Url,
    /// Whether a hop was asked with GET because HEAD was refused (405, 501, or the
    /// connection reset or closed on HEAD).
    pub by_get: bool,
}
