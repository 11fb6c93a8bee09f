//! The address guard: which hosts and addresses may be connected to.
//!
//! The guard is consulted in two places, and both are needed:
//! - before every hop, on the URL itself ([`AddressGuard::check_url`]), because reqwest
//!   connects to address literals without asking any resolver, and because `localhost`
//!   names are refused by name;
//! - inside the DNS resolver, on every address a name resolves to
//!   ([`AddressGuard::filter_resolved`]), so the check happens at connection time and a
//!   name that changes its answer between two lookups (DNS rebinding) gains nothing.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use url::{Host, Url};

use crate::error::{Error, LOCAL_NAME_REASON, OFFLINE_REASON, OTHER_PORT_REASON};

/// Refused IPv4 ranges: network, prefix length, and the reason shown in errors.
///
/// Sources: the IANA IPv4 Special-Purpose Address Registry (RFC 6890 and successors).
const REFUSED_V4: &[(Ipv4Addr, u8, &str)] = &[
    (Ipv4Addr::new(0, 0, 0, 0), 8, "unspecified or \"this network\""),
    (Ipv4Addr::new(10, 0, 0, 0), 8, "private (rfc 1918)"),
    (Ipv4Addr::new(100, 64, 0, 0), 10, "shared address space (cgnat)"),
    (Ipv4Addr::new(127, 0, 0, 0), 8, "loopback"),
    (Ipv4Addr::new(169, 254, 0, 0), 16, "link-local (cloud metadata)"),
    (Ipv4Addr::new(172, 16, 0, 0), 12, "private (rfc 1918)"),
    (Ipv4Addr::new(192, 0, 0, 0), 24, "ietf protocol assignment"),
    (Ipv4Addr::new(192, 0, 2, 0), 24, "documentation"),
    (Ipv4Addr::new(192, 88, 99, 0), 24, "6to4 relay anycast (deprecated)"),
    (Ipv4Addr::new(192, 168, 0, 0), 16, "private (rfc 1918)"),
    (Ipv4Addr::new(198, 18, 0, 0), 15, "benchmarking"),
    (Ipv4Addr::new(198, 51, 100, 0), 24, "documentation"),
    (Ipv4Addr::new(203, 0, 113, 0), 24, "documentation"),
    (Ipv4Addr::new(224, 0, 0, 0), 4, "multicast"),
    (Ipv4Addr::new(255, 255, 255, 255), 32, "broadcast"),
    (Ipv4Addr::new(240, 0, 0, 0), 4, "reserved"),
];

/// Refused IPv6 ranges outside the forms that embed an IPv4 address (those are unwrapped
/// and judged by the IPv4 table). Anything outside global unicast `2000::/3` is refused
/// as well, so this table mostly exists to give precise reasons.
const REFUSED_V6: &[(Ipv6Addr, u8, &str)] = &[
    (Ipv6Addr::new(0, 0, 0, 0, 0, 0, 0, 0), 128, "unspecified"),
    (Ipv6Addr::new(0, 0, 0, 0, 0, 0, 0, 1), 128, "loopback"),
    (Ipv6Addr::new(0x64, 0xff9b, 1, 0, 0, 0, 0, 0), 48, "local-use nat64"),
    (Ipv6Addr::new(0x100, 0, 0, 0, 0, 0, 0, 0), 64, "discard-only"),
    (Ipv6Addr::new(0x2001, 0, 0, 0, 0, 0, 0, 0), 32, "teredo"),
    (Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 0), 32, "documentation"),
    // The rest of 2001::/23 holds benchmarking, ORCHID and protocol anycast addresses;
    // none of them hosts a web site.
    (Ipv6Addr::new(0x2001, 0, 0, 0, 0, 0, 0, 0), 23, "ietf protocol assignment"),
    (Ipv6Addr::new(0x3fff, 0, 0, 0, 0, 0, 0, 0), 20, "documentation"),
    (Ipv6Addr::new(0xfc00, 0, 0, 0, 0, 0, 0, 0), 7, "unique local"),
    (Ipv6Addr::new(0xfe80, 0, 0, 0, 0, 0, 0, 0), 10, "link-local"),
    (Ipv6Addr::new(0xfec0, 0, 0, 0, 0, 0, 0, 0), 10, "site-local (deprecated)"),
    (Ipv6Addr::new(0xff00, 0, 0, 0, 0, 0, 0, 0), 8, "multicast"),
];

fn v4_in(ip: Ipv4Addr, net: Ipv4Addr, prefix: u8) -> bool {
    let mask = u32::MAX.checked_shl(32 - u32::from(prefix)).unwrap_or(0);
    u32::from(ip) & mask == u32::from(net) & mask
}

fn v6_in(ip: Ipv6Addr, net: Ipv6Addr, prefix: u8) -> bool {
    let mask = u128::MAX.checked_shl(128 - u32::from(prefix)).unwrap_or(0);
    u128::from(ip) & mask == u128::from(net) & mask
}

/// Why the address may not be connected to, or `None` when it is a public address.
///
/// IPv6 forms that carry an IPv4 address (IPv4-mapped `::ffff:a.b.c.d`, NAT64
/// `64:ff9b::a.b.c.d`, 6to4 `2002:AABB:CCDD::`) are judged by the IPv4 address they
/// carry. IPv4-compatible addresses `::a.b.c.d` are deprecated and never routed, so the
/// whole `::/96` is refused.
pub fn refusal_reason(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => refusal_reason_v4(v4),
        IpAddr::V6(v6) => refusal_reason_v6(v6),
    }
}

/// Whether the address is a public one the fetcher may connect to without an allow-list.
///
/// ```
/// use std::net::IpAddr;
/// assert!(fetch::is_public_ip("8.8.8.8".parse::<IpAddr>().unwrap()));
/// assert!(!fetch::is_public_ip("::ffff:10.0.0.1".parse::<IpAddr>().unwrap()));
/// ```
pub fn is_public_ip(ip: IpAddr) -> bool {
    refusal_reason(ip).is_none()
}

fn refusal_reason_v4(ip: Ipv4Addr) -> Option<&'static str> {
    REFUSED_V4.iter().find(|(net, prefix, _)| v4_in(ip, *net, *prefix)).map(|(_, _, why)| *why)
}

fn refusal_reason_v6(ip: Ipv6Addr) -> Option<&'static str> {
    let bits = u128::from(ip);
    let low_v4 = Ipv4Addr::from((bits & 0xffff_ffff) as u32);
    if let Some(v4) = ip.to_ipv4_mapped() {
        return refusal_reason_v4(v4);
    }
    if v6_in(ip, Ipv6Addr::new(0x64, 0xff9b, 0, 0, 0, 0, 0, 0), 96) {
        return refusal_reason_v4(low_v4);
    }
    if v6_in(ip, Ipv6Addr::new(0x2002, 0, 0, 0, 0, 0, 0, 0), 16) {
        let carried = Ipv4Addr::from(((bits >> 80) & 0xffff_ffff) as u32);
        return refusal_reason_v4(carried);
    }
    if let Some((_, _, why)) = REFUSED_V6.iter().find(|(net, prefix, _)| v6_in(ip, *net, *prefix)) {
        return Some(why);
    }
    if v6_in(ip, Ipv6Addr::UNSPECIFIED, 96) {
        return Some("ipv4-compatible (deprecated)");
    }
    if !v6_in(ip, Ipv6Addr::new(0x2000, 0, 0, 0, 0, 0, 0, 0), 3) {
        return Some("not global unicast");
    }
    None
}

/// Whether a host name is one of the names that always mean this machine
/// (`localhost`, `*.localhost`, RFC 6761 §6.3). Expects a lowercase name.
fn is_local_name(name: &str) -> bool {
    name == "localhost" || name.ends_with(".localhost")
}

/// Lowercases a host name and drops one trailing dot, so `LocalHost.` and `localhost`
/// are the same name.
pub(crate) fn normalize_name(name: &str) -> String {
    name.strip_suffix('.').unwrap_or(name).to_ascii_lowercase()
}

/// One operator allow-list entry.
#[derive(Debug, Clone, PartialEq, Eq)]
enum AllowEntry {
    /// An address (prefix 32/128) or a CIDR block, optionally at one port.
    Net { net: IpAddr, prefix: u8, port: Option<u16> },
    /// A host name, optionally at one port.
    Name { name: String, port: Option<u16> },
}

impl AllowEntry {
    fn parse(raw: &str) -> Result<AllowEntry, Error> {
        let bad = |why: &str| Error::Config(format!("allow-list entry {raw:?}: {why}"));
        let text = raw.trim();
        if text.is_empty() {
            return Err(bad("empty"));
        }
        if let Some((addr, prefix)) = text.split_once('/') {
            let net: IpAddr = addr.parse().map_err(|_| bad("not an address"))?;
            let max = if net.is_ipv4() { 32 } else { 128 };
            let prefix: u8 = prefix.parse().ok().filter(|p| *p <= max).ok_or_else(|| bad("bad prefix length"))?;
            return Ok(AllowEntry::Net { net, prefix, port: None });
        }
        if let Ok(ip) = text.parse::<IpAddr>() {
            return Ok(AllowEntry::Net { net: ip, prefix: if ip.is_ipv4() { 32 } else { 128 }, port: None });
        }
        if let Ok(sock) = text.parse::<std::net::SocketAddr>() {
            let ip = sock.ip();
            return Ok(AllowEntry::Net {
                net: ip,
                prefix: if ip.is_ipv4() { 32 } else { 128 },
                port: Some(sock.port()),
            });
        }
        if let Some(inner) = text.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
            let ip: Ipv6Addr = inner.parse().map_err(|_| bad("not an ipv6 address"))?;
            return Ok(AllowEntry::Net { net: IpAddr::V6(ip), prefix: 128, port: None });
        }
        let (name, port) = match text.rsplit_once(':') {
            Some((name, port)) => (name, Some(port.parse::<u16>().map_err(|_| bad("bad port"))?)),
            None => (text, None),
        };
        let name = normalize_name(name);
        let well_formed =
            !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.' || c == '_');
        if !well_formed {
            return Err(bad("not an address, cidr block or host name"));
        }
        Ok(AllowEntry::Name { name, port })
    }
}

/// How a host name stands with the allow-list.
enum NameStanding {
    /// Listed, at this port or at any port.
    Allowed,
    /// Listed only at other ports.
    OtherPortOnly,
    /// Not listed.
    Unlisted,
}

/// The address guard: refuses every non-public address and `localhost` name, except
/// what the operator's allow-list names.
///
/// Allow-list entries (`--allow-target`, `allow_targets`: docs/API.md, "Running the service") are,
/// with an optional port:
/// - an address, `127.0.0.1`, `::1`, `127.0.0.1:8080`, `[::1]:8080`;
/// - a CIDR block, `10.0.0.0/8`, `fd00::/8` (no port);
/// - a host name, `localhost`, `dev.internal:3000`; the name passes the name check and
///   every address it resolves to is let through.
///
/// Ports: the resolver is never told the port, so an address entry *with* a port only
/// admits URLs whose host is that address literal at that port; an address entry without
/// a port also admits names resolving to it. A host-name entry with a port admits that
/// name at that port only; the same name at any other port is refused outright.
///
/// IPv4-mapped IPv6 addresses are compared as the IPv4 address they carry.
///
/// Offline mode ([`AddressGuard::offline`], a test and sandbox setting) refuses public
/// addresses too: only the allow-list is reachable, and names neither listed nor pinned
/// by a DNS override are not even looked up, so fuzzers that invent URLs cannot make the
/// service touch the internet.
#[derive(Debug, Clone, Default)]
pub struct AddressGuard {
    allow: Vec<AllowEntry>,
    offline: bool,
}

impl AddressGuard {
    /// A guard with the given allow-list; an empty list lets nothing non-public through.
    ///
    /// # Errors
    /// [`Error::Config`] for an entry that is not an address, CIDR block or host name.
    pub fn new<S: AsRef<str>>(allow_targets: &[S]) -> Result<AddressGuard, Error> {
        let allow = allow_targets.iter().map(|raw| AllowEntry::parse(raw.as_ref())).collect::<Result<Vec<_>, _>>()?;
        Ok(AddressGuard { allow, offline: false })
    }

    /// The same guard in offline mode (`true`): nothing outside the allow-list is
    /// reachable, public addresses included.
    pub fn offline(self, offline: bool) -> AddressGuard {
        AddressGuard { offline, ..self }
    }

    /// Whether the guard is in offline mode.
    pub fn is_offline(&self) -> bool {
        self.offline
    }

    /// Whether the resolver may ask DNS about `name`: always, except in offline mode,
    /// where only allow-listed names may be looked up. Expects a normalized name.
    pub(crate) fn may_look_up(&self, name: &str) -> bool {
        !self.offline || !matches!(self.name_standing(name, None), NameStanding::Unlisted)
    }

    /// Whether the allow-list is empty, i.e. only public targets are reachable.
    pub fn is_strict(&self) -> bool {
        self.allow.is_empty()
    }

    fn ip_allowed(&self, ip: IpAddr, port: Option<u16>) -> bool {
        let ip = ip.to_canonical();
        self.allow.iter().any(|entry| match entry {
            AllowEntry::Net { net, prefix, port: want } => {
                let port_ok = want.is_none() || (port.is_some() && *want == port);
                let net_ok = match (ip, net.to_canonical()) {
                    (IpAddr::V4(ip), IpAddr::V4(net)) => v4_in(ip, net, *prefix),
                    (IpAddr::V6(ip), IpAddr::V6(net)) => v6_in(ip, net, *prefix),
                    _ => false,
                };
                port_ok && net_ok
            }
            AllowEntry::Name { .. } => false,
        })
    }

    fn name_standing(&self, name: &str, port: Option<u16>) -> NameStanding {
        let mut listed = false;
        for entry in &self.allow {
            if let AllowEntry::Name { name: n, port: p } = entry {
                if n == name {
                    if p.is_none() || *p == port {
                        return NameStanding::Allowed;
                    }
                    listed = true;
                }
            }
        }
        if listed {
            NameStanding::OtherPortOnly
        } else {
            NameStanding::Unlisted
        }
    }

    /// Checks one address (with the port when known) against the guard.
    ///
    /// # Errors
    /// [`Error::Blocked`] naming `host` when the address is not public and not allowed.
    pub fn check_ip(&self, host: &str, ip: IpAddr, port: Option<u16>) -> Result<(), Error> {
        if self.ip_allowed(ip, port) {
            return Ok(());
        }
        if self.offline {
            return Err(Error::Blocked { host: host.to_string(), addr: Some(ip), reason: OFFLINE_REASON });
        }
        match refusal_reason(ip) {
            None => Ok(()),
            Some(reason) => Err(Error::Blocked { host: host.to_string(), addr: Some(ip), reason }),
        }
    }

    /// The check made before every hop, on the URL alone: address literals are judged
    /// here (no resolver ever sees them), and `localhost` names are refused by name.
    /// Other names pass; their addresses are judged when they are resolved.
    ///
    /// The `url` crate has already turned every IPv4 notation of an http(s) URL
    /// (`2130706433`, `0177.0.0.1`, `0x7f.1`, `127.1`) into a plain address, so a host
    /// is either an address literal or a name here.
    ///
    /// # Errors
    /// [`Error::Blocked`] when the target may not be reached; [`Error::InvalidUrl`] when
    /// the URL has no host.
    pub fn check_url(&self, url: &Url) -> Result<(), Error> {
        let port = url.port_or_known_default();
        match url.host() {
            None => Err(Error::InvalidUrl("it has no host".into())),
            Some(Host::Ipv4(v4)) => self.check_ip(&v4.to_string(), IpAddr::V4(v4), port),
            Some(Host::Ipv6(v6)) => self.check_ip(&format!("[{v6}]"), IpAddr::V6(v6), port),
            Some(Host::Domain(raw)) => {
                let name = normalize_name(raw);
                // Belt and braces: should a name ever be an address in disguise, judge
                // the address.
                if let Ok(ip) = name.parse::<IpAddr>() {
                    return self.check_ip(raw, ip, port);
                }
                match self.name_standing(&name, port) {
                    NameStanding::Allowed => Ok(()),
                    NameStanding::OtherPortOnly => {
                        Err(Error::Blocked { host: raw.to_string(), addr: None, reason: OTHER_PORT_REASON })
                    }
                    NameStanding::Unlisted if is_local_name(&name) => {
                        Err(Error::Blocked { host: raw.to_string(), addr: None, reason: LOCAL_NAME_REASON })
                    }
                    NameStanding::Unlisted => Ok(()),
                }
            }
        }
    }

    /// The check made at connection time: keeps the addresses of `name` that may be
    /// connected to.
    ///
    /// # Errors
    /// [`Error::Blocked`] (naming the first refused address) when none is left.
    pub fn filter_resolved(&self, name: &str, addrs: &[IpAddr]) -> Result<Vec<IpAddr>, Error> {
        let name = normalize_name(name);
        // A name listed at some port only: the port was enforced by `check_url` before
        // this hop, and the resolver is not told the port.
        if let NameStanding::Allowed | NameStanding::OtherPortOnly = self.name_standing(&name, None) {
            return Ok(addrs.to_vec());
        }
        if is_local_name(&name) {
            return Err(Error::Blocked { host: name, addr: None, reason: LOCAL_NAME_REASON });
        }
        let mut kept = Vec::with_capacity(addrs.len());
        let mut first_refusal = None;
        for &ip in addrs {
            match self.check_ip(&name, ip, None) {
                Ok(()) => kept.push(ip),
                Err(err) => {
                    first_refusal.get_or_insert(err);
                }
            }
        }
        match (kept.is_empty(), first_refusal) {
            (true, Some(err)) => Err(err),
            _ => Ok(kept),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_entry(raw: &str, expected: Option<AllowEntry>) {
        assert_eq!(AllowEntry::parse(raw).ok(), expected, "entry {raw:?}");
    }

    #[test]
    fn allow_entries_parse() {
        let net = |net: &str, prefix, port| AllowEntry::Net { net: net.parse().unwrap(), prefix, port };
        let name = |name: &str, port| AllowEntry::Name { name: name.into(), port };
        check_entry("127.0.0.1", Some(net("127.0.0.1", 32, None)));
        check_entry(" ::1 ", Some(net("::1", 128, None)));
        check_entry("[::1]", Some(net("::1", 128, None)));
        check_entry("[::1]:8080", Some(net("::1", 128, Some(8080))));
        check_entry("127.0.0.1:3000", Some(net("127.0.0.1", 32, Some(3000))));
        check_entry("10.0.0.0/8", Some(net("10.0.0.0", 8, None)));
        check_entry("fd00::/8", Some(net("fd00::", 8, None)));
        check_entry("LocalHost.", Some(name("localhost", None)));
        check_entry("dev.internal:3000", Some(name("dev.internal", Some(3000))));
        check_entry("", None);
        check_entry("10.0.0.0/33", None);
        check_entry("10.0.0.0/x", None);
        check_entry("host:99999", None);
        check_entry("bad host", None);
        check_entry("http://x", None);
    }
}
