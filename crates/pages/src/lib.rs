//! The pages of seo-audit: the score badge ([`badge`]: SVG image, iframe page, domain
//! validation), the badge script ([`WIDGET_JS`]), the HTML report, the landing page and the
//! "not audited yet" page ([`report`]), the page the bot's user agent points to ([`bot`]) and
//! the error page of the browser routes ([`error_page`]).
//!
//! A pure crate (docs/ARCHITECTURE.md): every function here is a function of its arguments,
//! with no I/O, no clock and no async. The server looks audits up, queues audits, and sets
//! status and headers; the constants below are the headers each page needs.
//!
//! The HTML pages are [`maud`] templates: checked at compile time, and every value is
//! escaped unless it is marked as markup. The SVG badge is a text template with its own
//! escaping ([`badge::escape_xml`]), and `widget.js` is a static file.
//!
//! | route | body | headers |
//! |---|---|---|
//! | `GET /` | [`report::render_landing`] | [`HTML_CONTENT_TYPE`], [`HTML_SECURITY_HEADERS`] |
//! | `GET /report/{domain}` | [`report::render_report`], [`report::render_not_audited`] | [`HTML_CONTENT_TYPE`], [`HTML_SECURITY_HEADERS`] |
//! | `GET /crawls/{id}` | [`crawl::render_crawl_report`] | [`HTML_CONTENT_TYPE`], [`HTML_SECURITY_HEADERS`] |
//! | `GET /bot` | [`bot::render_bot_page`] | [`HTML_CONTENT_TYPE`], [`HTML_SECURITY_HEADERS`] |
//! | `GET /api/widget?format=svg` | [`badge::render_svg`] | [`SVG_CONTENT_TYPE`], [`SVG_CACHE_CONTROL`], [`SVG_SECURITY_HEADERS`] |
//! | `GET /api/widget?format=iframe` | [`badge::render_iframe_page`] | [`HTML_CONTENT_TYPE`], [`SVG_CACHE_CONTROL`], [`IFRAME_SECURITY_HEADERS`] |
//! | `GET /widget.js` | [`WIDGET_JS`] | [`JS_CONTENT_TYPE`], [`WIDGET_JS_CACHE_CONTROL`], [`WIDGET_JS_SECURITY_HEADERS`] |

pub mod badge;
pub mod bot;
pub mod charts;
pub mod crawl;
mod crawl_table;
mod crawl_view;
mod error;
mod frame;
pub mod readiness;
pub mod report;
mod scrub;

pub use error::error_page;

/// The badge script served at `GET /widget.js`: one strict-mode IIFE that leaks no global
/// name and builds its DOM without `innerHTML`.
pub const WIDGET_JS: &str = include_str!("widget.js");

/// `Content-Type` of the landing, report and iframe badge pages.
pub const HTML_CONTENT_TYPE: &str = "text/html; charset=utf-8";
/// `Content-Type` of the SVG badge.
pub const SVG_CONTENT_TYPE: &str = "image/svg+xml";
/// `Content-Type` of `/widget.js`.
pub const JS_CONTENT_TYPE: &str = "text/javascript; charset=utf-8";

/// `Cache-Control` of the SVG and iframe badge (docs/API.md, "GET /api/widget"): a score may be
/// five minutes stale, which keeps embedding sites from hammering the service.
pub const SVG_CACHE_CONTROL: &str = "public, max-age=300";
/// `Cache-Control` of `/widget.js`: the script changes only with a release.
pub const WIDGET_JS_CACHE_CONTROL: &str = "public, max-age=3600";

/// The content security policy of the landing and report pages: inline styles only, images
/// from this origin (the badge preview), forms posting back here, and no framing. The pages
/// carry no script at all, so `script-src` stays at `'none'`.
pub const PAGE_CSP: &str =
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/// The content security policy of the iframe badge page: like [`PAGE_CSP`] but any site may
/// frame it, which is the point of the iframe form.
pub const IFRAME_CSP: &str =
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'none'; base-uri 'none'; frame-ancestors *";

/// The policy sent with the SVG: should someone open the image directly, nothing in it may
/// load or run (it contains no script; this is defence in depth against a rendering bug).
pub const SVG_CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/// Headers of `GET /`, `GET /report/{domain}` and `GET /bot` (HTML that must not be framed).
pub const HTML_SECURITY_HEADERS: &[(&str, &str)] = &[
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "strict-origin-when-cross-origin"),
    ("content-security-policy", PAGE_CSP),
    ("x-frame-options", "DENY"),
];

/// Headers of `GET /api/widget?format=iframe` (HTML that any site may frame; no
/// `x-frame-options`, which would forbid that).
pub const IFRAME_SECURITY_HEADERS: &[(&str, &str)] = &[
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "strict-origin-when-cross-origin"),
    ("content-security-policy", IFRAME_CSP),
];

/// Headers of `GET /api/widget` (SVG). `cross-origin-resource-policy` lets sites that
/// isolate themselves (COEP) still show the badge.
pub const SVG_SECURITY_HEADERS: &[(&str, &str)] = &[
    ("x-content-type-options", "nosniff"),
    ("content-security-policy", SVG_CSP),
    ("cross-origin-resource-policy", "cross-origin"),
];

/// Headers of `GET /widget.js`, which every embedding site loads cross-origin.
pub const WIDGET_JS_SECURITY_HEADERS: &[(&str, &str)] =
    &[("x-content-type-options", "nosniff"), ("cross-origin-resource-policy", "cross-origin")];

/// Everything but the RFC 3986 unreserved characters (`A-Z a-z 0-9 - . _ ~`).
const COMPONENT: &percent_encoding::AsciiSet =
    &percent_encoding::NON_ALPHANUMERIC.remove(b'-').remove(b'.').remove(b'_').remove(b'~');

/// Percent-encodes one URL path segment or query value (everything but RFC 3986 unreserved
/// characters), so a domain or URL can be put into a link whatever it contains.
pub fn encode_component(text: &str) -> String {
    percent_encoding::utf8_percent_encode(text, COMPONENT).to_string()
}

/// A text value as the pages show it: escaped by the template engine (`&`, `<`, `>` and `"`
/// become entities). For finding a value in a rendered page; the pages themselves never call
/// it, the templates escape every value they are given.
pub fn escape(text: &str) -> String {
    maud::html! { (text) }.into_string()
}

/// `1 warning`, `2 warnings`.
pub(crate) fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::encode_component;

    #[test]
    fn components_keep_only_unreserved_characters() {
        assert_eq!(encode_component("example.com"), "example.com");
        assert_eq!(encode_component("A-z_0.9~"), "A-z_0.9~");
        assert_eq!(
            encode_component("https://a.example/?q=1&r=é ü"),
            "https%3A%2F%2Fa.example%2F%3Fq%3D1%26r%3D%C3%A9%20%C3%BC"
        );
    }
}
