//! The DNS resolver reqwest uses: system resolution, then the address guard.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use reqwest::dns::{Addrs, Name, Resolve, Resolving};

use crate::guard::normalize_name;
use crate::{AddressGuard, DnsFailure, Error};

/// Resolves names and drops every address the guard refuses, at connection time.
///
/// reqwest connects only to what this returns, so a name whose records point inwards,
/// or change to point inwards after an earlier check (DNS rebinding), cannot be reached.
pub(crate) struct GuardedResolver {
    pub(crate) guard: Arc<AddressGuard>,
    /// Fixed answers consulted before the system resolver (still filtered by the guard).
    pub(crate) overrides: Arc<HashMap<String, Vec<IpAddr>>>,
}

impl Resolve for GuardedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let guard = Arc::clone(&self.guard);
        let overrides = Arc::clone(&self.overrides);
        let host = normalize_name(name.as_str());
        Box::pin(async move {
            let kept = resolve_checked(&guard, &overrides, &host).await?;
            // Port 0 is replaced by the URL's port (or the scheme's default) by reqwest.
            let addrs: Addrs = Box::new(kept.into_iter().map(|ip| SocketAddr::new(ip, 0)));
            Ok(addrs)
        })
    }
}

/// The addresses of `host` (a normalized name) that the guard lets through: the fixed
/// answers or the system resolver, then [`AddressGuard::filter_resolved`]. The one path by
/// which the fetcher and the browser proxy (`crate::proxy`) turn a name into addresses.
pub(crate) async fn resolve_checked(
    guard: &AddressGuard,
    overrides: &HashMap<String, Vec<IpAddr>>,
    host: &str,
) -> Result<Vec<IpAddr>, Error> {
    let found = match overrides.get(host) {
        Some(fixed) => fixed.clone(),
        // Offline mode: an unlisted name is not looked up at all.
        None if !guard.may_look_up(host) => {
            return Err(Error::Dns { host: host.to_string(), failure: DnsFailure::Offline, detail: String::new() })
        }
        None => lookup(host, overrides).await?,
    };
    guard.filter_resolved(host, &found)
}

async fn lookup(host: &str, overrides: &HashMap<String, Vec<IpAddr>>) -> Result<Vec<IpAddr>, Error> {
    let dns_error = |failure: DnsFailure, detail: String| Error::Dns { host: host.to_string(), failure, detail };
    if let Some(fixed) = overrides.get(host) {
        return Ok(fixed.clone());
    }
    // RFC 6761 §6.4: `.invalid` never resolves. Answering here keeps such lookups off the
    // network (a system resolver would ask upstream and could wait for its timeout).
    if host == "invalid" || host.ends_with(".invalid") {
        return Err(dns_error(DnsFailure::Reserved, String::new()));
    }
    // getaddrinfo reports a temporary failure (EAI_AGAIN) in its text only.
    let answers = tokio::net::lookup_host((host, 0)).await.map_err(|e| {
        let detail = e.to_string();
        let failure = if detail.to_ascii_lowercase().contains("temporary failure") {
            DnsFailure::NoAnswer
        } else {
            DnsFailure::NoSuchName
        };
        dns_error(failure, detail)
    })?;
    let mut found: Vec<IpAddr> = Vec::new();
    for addr in answers {
        if !found.contains(&addr.ip()) {
            found.push(addr.ip());
        }
    }
    if found.is_empty() {
        return Err(dns_error(DnsFailure::NoSuchName, "no addresses".to_string()));
    }
    Ok(found)
}
