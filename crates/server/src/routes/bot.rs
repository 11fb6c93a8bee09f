//! `GET /bot`: the page the user agent `SeoAuditBot/<version> (+<base_url>/bot)` points to
//! (docs/API.md, "GET /bot"). Rendering is [`crate::web::bot`]'s; this sets status and headers:
//! those of the landing page (HTML, [`crate::web::HTML_SECURITY_HEADERS`], `no-cache`).
//!
//! Like the landing page it needs no key, consumes no quota and has no flood guard: it is a
//! fixed page with no lookup behind it, and a webmaster asking who is fetching their site
//! should not meet a 429.

use bytes::Bytes;
use http::{header, HeaderValue, StatusCode};
use http_body_util::Full;

use crate::router::{Ctx, HandlerFuture};
use crate::routes::web::PAGE_CACHE_CONTROL;
use crate::web::bot::{render_bot_page, BotFacts};
use crate::web::{HTML_CONTENT_TYPE, HTML_SECURITY_HEADERS};

/// `GET /bot`.
pub fn get(ctx: Ctx) -> HandlerFuture {
    Box::pin(async move {
        let body = render_bot_page(&BotFacts::new(&ctx.state.config));
        let mut resp = http::Response::new(Full::new(Bytes::from(body)));
        *resp.status_mut() = StatusCode::OK;
        let headers = resp.headers_mut();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(HTML_CONTENT_TYPE));
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(PAGE_CACHE_CONTROL));
        for (name, value) in HTML_SECURITY_HEADERS {
            headers.insert(*name, HeaderValue::from_static(value));
        }
        Ok(resp)
    })
}
