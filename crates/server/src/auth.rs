//! Who is asking: [`authenticate`] resolves the request's identity (a key, or the client
//! IP for anonymous use) and [`consume_quota`] charges it on the shared limiter.

use std::net::IpAddr;
use std::sync::Arc;

use http::{HeaderMap, StatusCode};
use time::OffsetDateTime;

use crate::ctx::Ctx;
use crate::error::ApiError;
use crate::limiter::Decision;

/// Header carrying the API key; the query parameter of the same name is accepted too.
pub const API_KEY_HEADER: &str = "x-api-key";

pub use crate::config::DEFAULT_ANONYMOUS_IPV6_PREFIX;

/// The identity a request acts as.
#[derive(Debug, Clone)]
pub enum Identity {
    /// No key: limited per client network (docs/API.md, "Conventions of every endpoint":
    /// an IPv4 address, an IPv6 client's prefix).
    Anonymous {
        /// The client network's address: the IPv4 address (IPv4-mapped IPv6 included), or
        /// the IPv6 address with the bits past `prefix` cleared.
        ip: IpAddr,
        /// Bits of `ip` that count: 32 for IPv4, the configured prefix for IPv6.
        prefix: u8,
    },
    /// A known, usable key.
    Key(Arc<app::KeyRecord>),
}

impl Identity {
    /// The anonymous identity of a client at `client`: see [`anonymous_network`].
    pub fn anonymous(client: IpAddr, ipv6_prefix: u8) -> Identity {
        let (ip, prefix) = anonymous_network(client, ipv6_prefix);
        Identity::Anonymous { ip, prefix }
    }

    /// The limiter and usage identity: `key:<id>`, `ip:<IPv4 address>`, or
    /// `ip:<IPv6 network>/<prefix>` (`ip:<address>` for a full /128).
    pub fn label(&self) -> String {
        match self {
            Identity::Anonymous { ip: ip @ IpAddr::V6(_), prefix } if *prefix < 128 => {
                format!("{}/{prefix}", app::ip_identity(ip))
            }
            Identity::Anonymous { ip, .. } => app::ip_identity(ip),
            Identity::Key(k) => k.identity(),
        }
    }

    /// Quota units per minute: the key's own limit, else its tier's configured limit;
    /// the anonymous limit without a key.
    pub fn rate_limit(&self, limits: &crate::RateLimits) -> u32 {
        match self {
            Identity::Anonymous { .. } => limits.anonymous,
            Identity::Key(k) => k.rate_limit_or(limits.for_tier(k.tier)),
        }
    }

    /// The tier the rate limiter counts this identity under, as a metric label:
    /// `anonymous`, `free` or `pro`.
    pub fn tier_label(&self) -> &'static str {
        match self {
            Identity::Key(k) => k.tier.as_str(),
            Identity::Anonymous { .. } => "anonymous",
        }
    }

    /// The key, if any.
    pub fn key(&self) -> Option<&app::KeyRecord> {
        match self {
            Identity::Key(k) => Some(k),
            Identity::Anonymous { .. } => None,
        }
    }

    /// Owner of the key, if any.
    pub fn user_id(&self) -> Option<&str> {
        self.key().map(|k| k.user_id.as_str())
    }
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
pub async fn authenticate(ctx: &Ctx, rule: KeyRule, scope: Option<&'static str>) -> Result<Identity, ApiError> {
    let anonymous = anonymous_identity(ctx);
    ctx.set_identity(anonymous.label());
    // Without its database the service can neither count quota nor keep results: refuse
    // before any work (an audit would otherwise be fetched and then not stored). A key's
    // lookup checks the file itself (`AppState::db`).
    let Some(key) = presented_key(ctx) else {
        ctx.state.check_db().await?;
        return match rule {
            KeyRule::Optional => Ok(anonymous),
            KeyRule::Required => Err(ApiError::unauthorized(
                "This endpoint needs an API key in the x-api-key header; create one with `seo-audit keys create`.",
            )),
        };
    };
    let record = if key.is_empty() || key.len() > 200 { None } else { ctx.state.app.find_key(key).await? };
    let Some(record) = record else {
        return Err(ApiError::unauthorized("The API key is not valid."));
    };
    ctx.set_identity(record.identity());
    if !record.enabled {
        return Err(ApiError::forbidden("disabled", "The API key is disabled."));
    }
    if record.is_expired(OffsetDateTime::now_utc()) {
        return Err(ApiError::forbidden("expired", "The API key has expired."));
    }
    if let Some(scope) = scope {
        if !record.has_scope(scope) {
            return Err(ApiError::forbidden("scope", format!("The API key lacks the `{scope}` scope."))
                .with_details(serde_json::json!({ "reason": "scope", "scope": scope })));
        }
    }
    ctx.state.app.key_used(&record.id);
    Ok(Identity::Key(Arc::new(record)))
}

/// [`authenticate`] for an endpoint that charges quota: once the caller is known, the
/// answer carries its `x-ratelimit-*` headers (docs/API.md, Quota), so a request refused for a
/// bad parameter or a full server still tells the caller where its quota stands. Nothing
/// is consumed here; [`consume_quota`] charges and rewrites the headers.
pub async fn authenticate_metered(ctx: &Ctx, rule: KeyRule, scope: Option<&'static str>) -> Result<Identity, ApiError> {
    let identity = authenticate(ctx, rule, scope).await?;
    let limit = identity.rate_limit(&ctx.state.config.rate_limits);
    ctx.state.limiter.consume(&identity.label(), 0, limit).await.write_headers(&mut ctx.outgoing().headers);
    Ok(identity)
}

/// Charges `units` to the identity on the shared limiter and sets the `x-ratelimit-*`
/// headers of the answer; 429 `rate_limited` (with `Retry-After`) when too few remain,
/// in which case nothing is consumed.
pub async fn consume_quota(ctx: &Ctx, identity: &Identity, units: u32) -> Result<Decision, ApiError> {
    let limit = identity.rate_limit(&ctx.state.config.rate_limits);
    let decision = ctx.state.limiter.consume(&identity.label(), units, limit).await;
    decision.write_headers(&mut ctx.outgoing().headers);
    if decision.allowed {
        return Ok(decision);
    }
    if let Some(metrics) = &ctx.state.metrics {
        metrics.rate_limited(identity.tier_label());
    }
    let hint = if identity.key().is_some() { "" } else { " An API key raises the limit." };
    let message = if units > 1 && decision.remaining > 0 {
        format!(
            "This request needs {units} requests of quota but only {} of {limit} per minute remain; retry in {} \
             seconds, or send fewer URLs.{hint}",
            decision.remaining, decision.reset_s
        )
    } else {
        format!("Rate limit of {limit} requests per minute reached; retry in {} seconds.{hint}", decision.reset_s)
    };
    Err(ApiError::new(StatusCode::TOO_MANY_REQUESTS, "rate_limited", message).with_details(serde_json::json!({
        "limit": limit,
        "requested": units,
        "remaining": decision.remaining,
        "retry_after_s": decision.reset_s,
    })))
}

/// The anonymous identity of the request's client (its address as [`client_ip`] finds
/// it, counted by network as [`anonymous_network`] says).
pub fn anonymous_identity(ctx: &Ctx) -> Identity {
    let ip = client_ip(ctx.peer.ip(), &ctx.headers, &ctx.state.config.trusted_proxies);
    Identity::anonymous(ip, ctx.state.config.anonymous_ipv6_prefix)
}

/// The network an anonymous client counts as, and its prefix length: the connection caps'
/// own rule ([`http_serve::conn::client_network`]: an IPv4 address or the IPv4 client of a
/// mapped address, /32; any other IPv6 address its first `ipv6_prefix` bits), so the quota and
/// the per-client connection cap count the same clients.
pub use http_serve::conn::client_network as anonymous_network;

/// The client address: the socket peer, or, when the peer is a trusted proxy, the
/// right-most `X-Forwarded-For` entry that is not itself a trusted proxy.
pub fn client_ip(peer: IpAddr, headers: &HeaderMap, trusted: &[IpAddr]) -> IpAddr {
    if !trusted.contains(&peer) {
        return peer;
    }
    let mut chain: Vec<IpAddr> = Vec::new();
    for v in headers.get_all("x-forwarded-for") {
        let Ok(v) = v.to_str() else { return peer };
        for part in v.split(',') {
            match part.trim().parse::<IpAddr>() {
                Ok(ip) => chain.push(ip),
                // A garbled chain tells nothing reliable: fall back to the proxy itself.
                Err(_) => return peer,
            }
        }
    }
    chain.into_iter().rev().find(|ip| !trusted.contains(ip)).unwrap_or(peer)
}

/// [`consume_quota`] as the charge of the application's use cases (which run it once the
/// request is admitted): the refusal, or nothing.
pub async fn charge_quota(ctx: &Ctx, identity: &Identity, units: u32) -> Result<(), ApiError> {
    consume_quota(ctx, identity, units).await.map(drop)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(peer: &str, xff: &[&str], trusted: &[&str], expected: &str) {
        let mut headers = HeaderMap::new();
        for v in xff {
            headers.append("x-forwarded-for", v.parse().unwrap());
        }
        let trusted: Vec<IpAddr> = trusted.iter().map(|s| s.parse().unwrap()).collect();
        let got = client_ip(peer.parse().unwrap(), &headers, &trusted);
        assert_eq!(got.to_string(), expected, "{peer} {xff:?} {trusted:?}");
    }

    #[test]
    fn forwarded_for_only_from_trusted_proxies() {
        check("1.2.3.4", &["9.9.9.9"], &[], "1.2.3.4");
        check("1.2.3.4", &["9.9.9.9"], &["10.0.0.1"], "1.2.3.4");
        check("10.0.0.1", &["9.9.9.9"], &["10.0.0.1"], "9.9.9.9");
        check("10.0.0.1", &["6.6.6.6, 9.9.9.9"], &["10.0.0.1"], "9.9.9.9");
        check("10.0.0.1", &["6.6.6.6", "9.9.9.9, 10.0.0.2"], &["10.0.0.1", "10.0.0.2"], "9.9.9.9");
        check("10.0.0.1", &[], &["10.0.0.1"], "10.0.0.1");
        check("10.0.0.1", &["garbage"], &["10.0.0.1"], "10.0.0.1");
        check("::1", &["2001:db8::1"], &["::1"], "2001:db8::1");
    }

    fn network(ip: &str, prefix: u8) -> (String, u8) {
        let (net, bits) = anonymous_network(ip.parse().unwrap(), prefix);
        (net.to_string(), bits)
    }

    fn label(ip: &str, prefix: u8) -> String {
        Identity::anonymous(ip.parse().unwrap(), prefix).label()
    }

    #[test]
    fn ipv6_clients_count_as_their_prefix() {
        let n = |s: &str, p: u8| (s.to_string(), p);
        // IPv4 is the address itself, whatever the IPv6 prefix.
        assert_eq!(network("203.0.113.7", 64), n("203.0.113.7", 32));
        assert_eq!(network("203.0.113.7", 1), n("203.0.113.7", 32));
        // IPv4-mapped IPv6 is the IPv4 address (a dual-stack socket shows IPv4 this way).
        assert_eq!(network("::ffff:203.0.113.7", 64), n("203.0.113.7", 32));
        assert_eq!(network("::ffff:cb00:7107", 48), n("203.0.113.7", 32));
        // Every address of a /64 is one network; the next /64 is another.
        assert_eq!(network("2001:db8:1:2:aaaa:bbbb:cccc:dddd", 64), n("2001:db8:1:2::", 64));
        assert_eq!(network("2001:db8:1:2::1", 64), n("2001:db8:1:2::", 64));
        assert_eq!(network("2001:db8:1:3::1", 64), n("2001:db8:1:3::", 64));
        // Other prefixes, on and off nibble boundaries, and the clamps.
        assert_eq!(network("2001:db8:1:2ff::1", 56), n("2001:db8:1:200::", 56));
        assert_eq!(network("2001:db8:abcd:ffff::1", 48), n("2001:db8:abcd::", 48));
        assert_eq!(network("2001:db8:0:ffff::1", 63), n("2001:db8:0:fffe::", 63));
        assert_eq!(network("2001:db8::1", 128), n("2001:db8::1", 128));
        assert_eq!(network("2001:db8::1", 200), n("2001:db8::1", 128));
        assert_eq!(network("ffff::1", 0), n("8000::", 1));
        assert_eq!(network("::1", 64), n("::", 64));
        // The limiter and usage identities.
        assert_eq!(label("203.0.113.7", 64), "ip:203.0.113.7");
        assert_eq!(label("::ffff:203.0.113.7", 64), "ip:203.0.113.7");
        assert_eq!(label("2001:db8:1:2:3:4:5:6", 64), "ip:2001:db8:1:2::/64");
        assert_eq!(label("2001:db8:1:2:3:4:5:6", 64), label("2001:db8:1:2:ffff::9", 64));
        assert_ne!(label("2001:db8:1:2::1", 64), label("2001:db8:1:3::1", 64));
        assert_eq!(label("2001:db8::1", 128), "ip:2001:db8::1");
    }
}
