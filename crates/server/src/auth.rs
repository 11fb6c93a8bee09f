//! Who is asking: [`authenticate`] resolves the request's identity (a key, or the client
//! IP for anonymous use); [`payer`] hands it to the use case, which charges its quota
//! itself, and [`billed`] writes the charge as the answer's `x-ratelimit-*` headers.

use std::net::IpAddr;
use std::sync::Arc;

use http::{HeaderMap, HeaderValue};
use time::OffsetDateTime;

use crate::ctx::Ctx;
use crate::error::ApiError;
use app::quota::{Decision, KeyRefusal};

/// Header carrying the API key; the query parameter of the same name is accepted too.
pub const API_KEY_HEADER: &str = "x-api-key";

pub use crate::config::DEFAULT_ANONYMOUS_IPV6_PREFIX;

/// The identity a request acts as: the application's ([`app::quota::Identity`]).
pub use app::quota::Identity;

/// The anonymous identity of a client at `client`: its network as [`anonymous_network`]
/// counts it.
pub fn anonymous(client: IpAddr, ipv6_prefix: u8) -> Identity {
    let (ip, prefix) = anonymous_network(client, ipv6_prefix);
    Identity::Anonymous { ip, prefix }
}

/// Whether a route needs a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyRule {
    /// Anonymous use allowed; a key that is sent must still be valid (never silently
    /// downgraded to anonymous).
    Optional,
    /// 401 without a key.
    Required,
}

/// The key sent with the request: the `x-api-key` header, else the query parameter.
pub fn presented_key(ctx: &Ctx) -> Option<String> {
    ctx.headers
        .get(API_KEY_HEADER)
        .map(|v| String::from_utf8_lossy(v.as_bytes()).trim().to_string())
        .or_else(|| ctx.query(API_KEY_HEADER).map(|v| v.trim().to_string()))
}

/// Resolves the identity of the request: 401 for an unknown key or a missing required
/// one, 403 for a disabled or expired key or one lacking `scope`.
pub async fn authenticate(ctx: &Ctx, rule: KeyRule, scope: Option<app::Scope>) -> Result<Identity, ApiError> {
    match identify(ctx, scope).await? {
        Ok(Identity::Anonymous { .. }) if rule == KeyRule::Required => Err(ApiError::unauthorized(KEY_REQUIRED)),
        Ok(identity) => Ok(identity),
        Err(KeyRefusal::Unknown) => Err(ApiError::unauthorized("The API key is not valid.")),
        Err(KeyRefusal::Disabled) => Err(ApiError::forbidden("disabled", "The API key is disabled.")),
        Err(KeyRefusal::Expired) => Err(ApiError::forbidden("expired", "The API key has expired.")),
        Err(KeyRefusal::MissingScope(scope)) => {
            Err(ApiError::forbidden("scope", format!("The API key lacks the `{scope}` scope."))
                .with_details(serde_json::json!({ "reason": "scope", "scope": scope })))
        }
    }
}

/// The key of a route that requires one, able to act for `scope`: 401 without a key, 403
/// without the scope ([`authenticate`]).
pub async fn required_key(ctx: &Ctx, scope: Option<app::Scope>) -> Result<Arc<app::KeyRecord>, ApiError> {
    match authenticate(ctx, KeyRule::Required, scope).await? {
        Identity::Key(key) => Ok(key),
        // `KeyRule::Required` refuses an anonymous caller already; this says the same.
        Identity::Anonymous { .. } => Err(ApiError::unauthorized(KEY_REQUIRED)),
    }
}

/// The owner of the key of a route that requires one with `scope` ([`required_key`]).
pub async fn key_owner(ctx: &Ctx, scope: app::Scope) -> Result<app::UserId, ApiError> {
    Ok(required_key(ctx, Some(scope)).await?.user_id.clone())
}

/// What a route that requires a key answers a caller without one.
const KEY_REQUIRED: &str =
    "This endpoint needs an API key in the x-api-key header; ask the operator of this service for one.";

/// The identity of the request (anonymous without a key), or why the key it sent cannot act
/// for `scope` ([`app::quota::check_key`]); the log line names the key once it is known.
/// Fails only when the database cannot answer.
pub async fn identify(ctx: &Ctx, scope: Option<app::Scope>) -> Result<Result<Identity, KeyRefusal>, ApiError> {
    let anonymous = anonymous_identity(ctx);
    ctx.set_identity(anonymous.label());
    // Without its database the service can neither count quota nor keep results: refuse
    // before any work (an audit would otherwise be fetched and then not stored). A key's
    // lookup checks the file itself (`AppState::db`).
    let Some(key) = presented_key(ctx) else {
        ctx.state.check_db().await?;
        return Ok(Ok(anonymous));
    };
    let Some(record) = ctx.state.app.find_key(key).await? else { return Ok(Err(KeyRefusal::Unknown)) };
    ctx.set_identity(record.identity());
    if let Err(refusal) = app::quota::check_key(&record, scope, OffsetDateTime::now_utc()) {
        return Ok(Err(refusal));
    }
    ctx.state.app.key_used(&record.id);
    Ok(Ok(Identity::Key(Arc::new(record))))
}

/// [`authenticate`] for an endpoint that charges quota: once the caller is known, the
/// answer carries its `x-ratelimit-*` headers (docs/API.md, Quota), so a request refused for a
/// bad parameter or a full server still tells the caller where its quota stands. Nothing
/// is consumed here; the use case charges ([`payer`]) and [`billed`] rewrites the headers.
pub async fn authenticate_metered(ctx: &Ctx, rule: KeyRule, scope: Option<app::Scope>) -> Result<Identity, ApiError> {
    let identity = authenticate(ctx, rule, scope).await?;
    let limit = identity.rate_limit(&ctx.state.config.rate_limits);
    write_rate_headers(&ctx.state.limiter.consume(&identity.label(), 0, limit).await, &mut ctx.outgoing().headers);
    Ok(identity)
}

/// The anonymous identity of the request's client (its address as [`client_ip`] finds
/// it, counted by network as [`anonymous_network`] says).
pub fn anonymous_identity(ctx: &Ctx) -> Identity {
    let ip = client_ip(ctx.peer.ip(), &ctx.headers, &ctx.state.config.trusted_proxies);
    anonymous(ip, ctx.state.config.anonymous_ipv6_prefix)
}

/// The network an anonymous client counts as, and its prefix length: the connection caps'
/// own rule ([`http_serve::conn::client_network`]: an IPv4 address or the IPv4 client of a
/// mapped address, /32; any other IPv6 address its first `ipv6_prefix` bits), so the quota and
/// the per-client connection cap count the same clients.
pub use http_serve::conn::client_network as anonymous_network;

/// The client address: the socket peer, or, when the peer is a trusted proxy, the
/// right-most `X-Forwarded-For` entry that is not itself a trusted proxy.
pub use http_serve::request::client_ip;

/// Writes `x-ratelimit-limit`, `x-ratelimit-remaining`, `x-ratelimit-reset`, and
/// `Retry-After` when refused (docs/API.md, Quota).
pub fn write_rate_headers(decision: &Decision, headers: &mut HeaderMap) {
    headers.insert("x-ratelimit-limit", HeaderValue::from(decision.limit));
    headers.insert("x-ratelimit-remaining", HeaderValue::from(decision.remaining));
    headers.insert("x-ratelimit-reset", HeaderValue::from(decision.reset_s));
    if !decision.allowed {
        headers.insert(http::header::RETRY_AFTER, HeaderValue::from(decision.reset_s));
    }
}

/// The payer of a request of `identity`: the use case charges it itself
/// ([`app::App::charge`]) on the shared limiter, within the identity's limit.
pub fn payer(ctx: &Ctx, identity: &Identity) -> app::quota::Payer {
    app::quota::Payer::new(identity.clone(), Arc::clone(&ctx.state.limiter), &ctx.state.config.rate_limits)
}

/// `result` of a use case `payer` paid for, its charge written as the answer's
/// `x-ratelimit-*` headers (and `Retry-After` when refused) whatever the use case answered.
///
/// # Errors
/// The use case's error, as an [`ApiError`].
pub fn billed<T>(ctx: &Ctx, payer: &app::quota::Payer, result: Result<T, app::AppError>) -> Result<T, ApiError> {
    if let Some(decision) = payer.decision() {
        write_rate_headers(&decision, &mut ctx.outgoing().headers);
    }
    Ok(result?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn label(ip: &str, prefix: u8) -> String {
        anonymous(ip.parse().unwrap(), prefix).label()
    }

    #[test]
    fn anonymous_identities_count_the_network() {
        // The limiter and usage identities.
        assert_eq!(label("203.0.113.7", 64), "ip:203.0.113.7");
        assert_eq!(label("::ffff:203.0.113.7", 64), "ip:203.0.113.7");
        assert_eq!(label("2001:db8:1:2:3:4:5:6", 64), "ip:2001:db8:1:2::/64");
        assert_eq!(label("2001:db8:1:2:3:4:5:6", 64), label("2001:db8:1:2:ffff::9", 64));
        assert_ne!(label("2001:db8:1:2::1", 64), label("2001:db8:1:3::1", 64));
        assert_eq!(label("2001:db8::1", 128), "ip:2001:db8::1");
    }
}
