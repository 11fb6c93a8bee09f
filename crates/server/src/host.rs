//! DNS-rebinding protection of a service bound to loopback (docs/SECURITY.md, "A service
//! on loopback"): a page on another site can make a browser send requests to
//! `127.0.0.1` through a name of its own that it rebinds to that address. Such a request
//! names the foreign host in its `Host` header, its absolute-form target or its HTTP/2
//! `:authority`, so a loopback listener answers only requests that name it on all of them.

use http::{header, HeaderMap, Uri};
use mcp_protocol::{is_local_authority, is_local_origin};

use crate::config::Config;

/// Put in a request's extensions by the public listener: the request came over its socket,
/// so [`names_this_server`] applies to it when that listener is on loopback. Requests
/// handed to [`crate::handle`] in-process and the metrics listener's do not carry it.
#[derive(Debug, Clone, Copy)]
pub struct PublicListener;

/// Whether a request to a loopback listener names this server: a `Host` (exactly one) or
/// an authority in the target (absolute form, or HTTP/2's `:authority`) must be present,
/// and every one present must be a loopback name (`localhost`, `127.0.0.1`, `[::1]`, any
/// port) or the host of the configured `base_url`; an `Origin`, when sent, must be an
/// `http(s)` origin of such a host.
pub fn names_this_server(uri: &Uri, headers: &HeaderMap, config: &Config) -> bool {
    let own_host = url::Url::parse(&config.base_url).ok().and_then(|u| u.host_str().map(str::to_ascii_lowercase));
    let allowed = |authority: &str| is_local_authority(authority) || same_host(authority, own_host.as_deref());
    let mut hosts = headers.get_all(header::HOST).iter();
    let host = match (hosts.next(), hosts.next()) {
        (Some(_), Some(_)) => return false,
        (Some(value), None) => match value.to_str() {
            Ok(h) if allowed(h) => Some(h),
            _ => return false,
        },
        (None, _) => None,
    };
    let target = uri.authority().map(http::uri::Authority::as_str);
    if target.is_some_and(|a| !allowed(a)) {
        return false;
    }
    if host.is_none() && target.is_none() {
        return false;
    }
    match headers.get(header::ORIGIN).map(|v| v.to_str()) {
        None => true,
        Some(Ok(origin)) => {
            is_local_origin(origin)
                || origin
                    .trim()
                    .strip_prefix("https://")
                    .or_else(|| origin.trim().strip_prefix("http://"))
                    .is_some_and(|a| !a.contains('/') && same_host(a, own_host.as_deref()))
        }
        Some(Err(_)) => false,
    }
}

/// Whether `authority` (`host` or `host:port`) names `own` (a lower-case host name),
/// whatever the port: a proxy in front of the service forwards the public name, without
/// the port the service listens on.
fn same_host(authority: &str, own: Option<&str>) -> bool {
    let Some(own) = own else { return false };
    let Ok(parsed) = authority.trim().parse::<http::uri::Authority>() else { return false };
    parsed.host().trim_end_matches('.').eq_ignore_ascii_case(own.trim_end_matches('.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(target: &str, host: &[&str], origin: Option<&str>, base_url: &str) -> bool {
        let config = Config { base_url: base_url.into(), ..Config::default() };
        let mut headers = HeaderMap::new();
        for h in host {
            headers.append(header::HOST, h.parse().unwrap());
        }
        if let Some(o) = origin {
            headers.insert(header::ORIGIN, o.parse().unwrap());
        }
        names_this_server(&target.parse().unwrap(), &headers, &config)
    }

    #[test]
    fn only_requests_naming_this_server_pass() {
        let base = "http://127.0.0.1:8080";
        assert!(check("/api/status", &["127.0.0.1:8080"], None, base));
        assert!(check("/api/status", &["localhost"], Some("http://localhost:5173"), base));
        assert!(check("/api/status", &["[::1]:9"], None, base));
        // HTTP/2 without Host: the :authority decides.
        assert!(check("http://127.0.0.1:8080/api/status", &[], None, base));
        // HTTP/1.1 without Host, two Hosts, a foreign one.
        assert!(!check("/api/status", &[], None, base));
        assert!(!check("/api/status", &["127.0.0.1", "127.0.0.1"], None, base));
        assert!(!check("/api/status", &["evil.example"], None, base));
        // An absolute-form target or :authority naming another host, whatever Host says.
        assert!(!check("http://evil.example/api/status", &["127.0.0.1:8080"], None, base));
        assert!(!check("http://evil.example/api/status", &[], None, base));
        // A foreign or opaque Origin.
        assert!(!check("/api/status", &["127.0.0.1"], Some("http://evil.example"), base));
        assert!(!check("/api/status", &["127.0.0.1"], Some("null"), base));
        // Behind a proxy that forwards the public name: the base URL's host, any port.
        let public = "https://seo.example.net";
        assert!(check("/api/status", &["seo.example.net"], None, public));
        assert!(check("/api/status", &["SEO.example.net:443"], Some("https://seo.example.net"), public));
        assert!(!check("/api/status", &["seo.example.net.evil.example"], None, public));
        assert!(!check("/api/status", &["evil.example"], None, public));
    }
}
