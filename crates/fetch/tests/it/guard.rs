//! The address guard on its own: which URL forms and addresses are refused, with and
//! without an allow-list, and the same refusals through a real `Fetcher` (which refuses
//! before connecting, so these tests touch no network).

use std::net::IpAddr;

use fetch::{is_public_ip, AddressGuard, Error, FetchConfig, Fetcher};

/// What must happen to a URL.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Refused {
    /// `validate_url` already refuses it.
    Invalid,
    /// The guard refuses it, allow-list or not.
    Blocked,
    /// The guard refuses it, unless `127.0.0.1` is on the allow-list (another notation
    /// of that very address).
    BlockedUnlessLoopbackAllowed,
}
use Refused::*;

const REFUSED: &[(&str, Refused)] = &[
    // Loopback in every notation the url crate understands.
    ("http://127.0.0.1/", BlockedUnlessLoopbackAllowed),
    ("https://127.0.0.1:443/x", BlockedUnlessLoopbackAllowed),
    ("http://127.0.0.1./", BlockedUnlessLoopbackAllowed),
    ("http://2130706433/", BlockedUnlessLoopbackAllowed),
    ("http://0177.0.0.1/", BlockedUnlessLoopbackAllowed),
    ("http://0x7f.0.0.1/", BlockedUnlessLoopbackAllowed),
    ("http://0x7f000001/", BlockedUnlessLoopbackAllowed),
    ("http://0X7F.0.0.1/", BlockedUnlessLoopbackAllowed),
    ("http://127.1/", BlockedUnlessLoopbackAllowed),
    ("http://0177.1/", BlockedUnlessLoopbackAllowed),
    ("http://0x7f.1/", BlockedUnlessLoopbackAllowed),
    ("http://[::ffff:127.0.0.1]/", BlockedUnlessLoopbackAllowed),
    ("http://[::ffff:7f00:1]/", BlockedUnlessLoopbackAllowed),
    ("http://127.0.0.2/", Blocked),
    ("http://127.255.255.254/", Blocked),
    ("http://[::127.0.0.1]/", Blocked),
    ("http://[::1]/", Blocked),
    ("http://[0:0:0:0:0:0:0:1]:8080/", Blocked),
    // Names meaning this machine.
    ("http://localhost/", Blocked),
    ("http://localhost./", Blocked),
    ("http://LOCALHOST:8080/", Blocked),
    ("http://foo.localhost/", Blocked),
    ("http://a.b.localhost./", Blocked),
    // Unspecified.
    ("http://0/", Blocked),
    ("http://0.0.0.0/", Blocked),
    ("http://[::]/", Blocked),
    ("http://[::ffff:0.0.0.0]/", Blocked),
    // Private, shared, link-local, cloud metadata.
    ("http://10.0.0.1/", Blocked),
    ("http://10.1/", Blocked),
    ("http://012.0.0.1/", Blocked),
    ("http://167772161/", Blocked),
    ("http://0xa.0x0.0.01/", Blocked),
    ("http://172.16.0.1/", Blocked),
    ("http://172.31.255.255/", Blocked),
    ("http://192.168.1.1/", Blocked),
    ("http://100.64.0.1", Blocked),
    ("http://100.127.255.254/", Blocked),
    ("http://169.254.169.254/latest/meta-data", Blocked),
    ("http://[::ffff:a9fe:a9fe]/latest/meta-data", Blocked),
    ("http://[fd00:ec2::254]/latest/meta-data", Blocked),
    ("http://[::ffff:10.0.0.1]/", Blocked),
    // Multicast, broadcast, reserved, documentation, benchmarking, IETF.
    ("http://224.0.0.1", Blocked),
    ("http://239.255.255.250:1900/", Blocked),
    ("http://255.255.255.255", Blocked),
    ("http://240.0.0.1/", Blocked),
    ("http://192.0.2.1/", Blocked),
    ("http://198.51.100.7/", Blocked),
    ("http://203.0.113.9/", Blocked),
    ("http://198.18.0.1/", Blocked),
    ("http://198.19.255.1/", Blocked),
    ("http://192.0.0.8/", Blocked),
    // IPv6 special ranges and forms wrapping a refused IPv4 address.
    ("http://[2001:db8::1]/", Blocked),
    ("http://[fc00::1]/", Blocked),
    ("http://[fd12:3456::1]/", Blocked),
    ("http://[fe80::1]/", Blocked),
    ("http://[fec0::1]/", Blocked),
    ("http://[ff02::1]/", Blocked),
    ("http://[100::1]/", Blocked),
    ("http://[64:ff9b::a9fe:a9fe]/", Blocked),
    ("http://[64:ff9b::127.0.0.1]/", Blocked),
    ("http://[2002:c0a8:101::1]/", Blocked),
    ("http://[2002:7f00:1::]/", Blocked),
    ("http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", Blocked),
    // Not URLs the fetcher takes at all.
    ("http://[fe80::1%25eth0]/", Invalid),
    ("http://[::1%251]/", Invalid),
    ("http://user:pass@8.8.8.8/", Invalid),
    ("http://admin@127.0.0.1/", Invalid),
    ("file:///etc/passwd", Invalid),
    ("gopher://127.0.0.1:6379/_INFO", Invalid),
    ("ftp://10.0.0.1/", Invalid),
    ("http://256.0.0.1/", Invalid),
];

/// Runs one table entry against the guard, and against a fetcher with the same list.
async fn check_refused(input: &str, expected: Refused, loopback_allowed: bool) {
    let allow: &[&str] = if loopback_allowed { &["127.0.0.1"] } else { &[] };
    let guard = AddressGuard::new(allow).unwrap();
    let outcome = fetch::validate_url(input).and_then(|url| guard.check_url(&url).map(|()| url));
    match (expected, outcome) {
        (Invalid, Err(err)) => assert!(err.is_invalid_url(), "{input}: {err}"),
        (Blocked, Err(err)) => assert!(err.is_blocked(), "{input}: {err}"),
        (BlockedUnlessLoopbackAllowed, Err(err)) if !loopback_allowed => {
            assert!(err.is_blocked(), "{input}: {err}")
        }
        (BlockedUnlessLoopbackAllowed, Ok(url)) if loopback_allowed => {
            let ip = match url.host() {
                Some(url::Host::Ipv4(v4)) => IpAddr::V4(v4),
                Some(url::Host::Ipv6(v6)) => IpAddr::V6(v6),
                _ => panic!("{input}: not an address"),
            };
            assert_eq!(ip.to_canonical(), IpAddr::from([127, 0, 0, 1]), "{input}");
            return;
        }
        (expected, outcome) => panic!("{input}: expected {expected:?}, got {outcome:?}"),
    }
    if let Ok(url) = fetch::validate_url(input) {
        let fetcher = Fetcher::new(FetchConfig {
            allow_targets: allow.iter().map(|s| s.to_string()).collect(),
            ..FetchConfig::default()
        })
        .unwrap();
        let err = fetcher.fetch_page(&url).await.unwrap_err();
        assert!(err.is_blocked(), "fetch {input}: {err}");
        assert_eq!((err.code(), err.http_status()), ("blocked_target", 422));
    }
}

#[tokio::test]
async fn refused_without_allow_list() {
    assert!(REFUSED.len() >= 40);
    for (input, expected) in REFUSED {
        check_refused(input, *expected, false).await;
    }
}

#[tokio::test]
async fn refused_with_loopback_allowed() {
    for (input, expected) in REFUSED {
        check_refused(input, *expected, true).await;
    }
}

/// The url crate, not our code, turns these IPv4 notations into addresses; the guard
/// relies on it, so it is pinned here.
#[test]
fn url_crate_normalises_ipv4_notations() {
    for (input, host) in [
        ("http://2130706433/", "127.0.0.1"),
        ("http://0177.0.0.1/", "127.0.0.1"),
        ("http://0x7f.0.0.1/", "127.0.0.1"),
        ("http://127.1/", "127.0.0.1"),
        ("http://10.1/", "10.0.0.1"),
        ("http://0xa.0x0.0.01/", "10.0.0.1"),
        ("http://0/", "0.0.0.0"),
        ("http://127.0.0.1./", "127.0.0.1"),
        ("http://[::ffff:127.0.0.1]/", "[::ffff:7f00:1]"),
        ("http://[::127.0.0.1]/", "[::7f00:1]"),
    ] {
        let url = url::Url::parse(input).unwrap();
        assert!(matches!(url.host(), Some(url::Host::Ipv4(_) | url::Host::Ipv6(_))), "{input} parsed as a name");
        assert_eq!(url.host_str(), Some(host), "{input}");
    }
}

fn check_public(ip: &str, expected: bool) {
    let parsed: IpAddr = ip.parse().unwrap();
    assert_eq!(is_public_ip(parsed), expected, "{ip}");
    assert_eq!(fetch::refusal_reason(parsed).is_none(), expected, "{ip}");
}

#[test]
fn public_addresses_pass() {
    for ip in [
        "8.8.8.8",
        "1.1.1.1",
        "93.184.216.34",
        "9.255.255.255",
        "11.0.0.0",
        "100.63.255.255",
        "100.128.0.0",
        "169.253.255.255",
        "172.15.255.255",
        "172.32.0.0",
        "192.167.255.255",
        "192.169.0.0",
        "198.17.255.255",
        "198.20.0.0",
        "223.255.255.255",
        "2606:4700::1111",
        "2a00:1450:4001:82b::200e",
        "2001:4860:4860::8888",
        "::ffff:8.8.8.8",
        "64:ff9b::808:808",
        "2002:808:808::1",
    ] {
        check_public(ip, true);
    }
}

#[test]
fn edge_addresses_refused() {
    for ip in [
        "0.255.255.255",
        "10.255.255.255",
        "100.64.0.0",
        "127.0.0.0",
        "169.254.0.1",
        "172.16.0.0",
        "192.168.255.255",
        "198.18.0.0",
        "224.0.0.0",
        "239.255.255.255",
        "240.0.0.0",
        "::",
        "::1",
        "::2",
        "fe80::",
        "febf:ffff::1",
        "fbff::1",
        "ff0e::1",
        "4000::1",
        "64:ff9b:1::1",
        "::ffff:192.168.0.1",
        "3fff::1",
    ] {
        check_public(ip, false);
    }
}

#[test]
fn names_pass_the_url_check_and_are_judged_when_resolved() {
    let guard = AddressGuard::new::<&str>(&[]).unwrap();
    for input in ["http://example.com/", "https://localhost.example.com/", "http://localhostx/"] {
        let url = url::Url::parse(input).unwrap();
        assert!(guard.check_url(&url).is_ok(), "{input}");
    }
}

fn check_filter(allow: &[&str], name: &str, addrs: &[&str], expected: Result<&[&str], ()>) {
    let guard = AddressGuard::new(allow).unwrap();
    let addrs: Vec<IpAddr> = addrs.iter().map(|a| a.parse().unwrap()).collect();
    let got = guard.filter_resolved(name, &addrs);
    match (expected, got) {
        (Ok(want), Ok(kept)) => {
            let want: Vec<IpAddr> = want.iter().map(|a| a.parse().unwrap()).collect();
            assert_eq!(kept, want, "{name} {allow:?}");
        }
        (Err(()), Err(err)) => assert!(err.is_blocked(), "{name}: {err}"),
        (expected, got) => panic!("{name} {allow:?}: expected {expected:?}, got {got:?}"),
    }
}

#[test]
fn resolved_addresses_are_filtered() {
    check_filter(&[], "a.test", &["8.8.8.8"], Ok(&["8.8.8.8"]));
    check_filter(&[], "a.test", &["10.0.0.1", "8.8.8.8"], Ok(&["8.8.8.8"]));
    check_filter(&[], "a.test", &["10.0.0.1", "::1"], Err(()));
    check_filter(&[], "a.test", &["::ffff:127.0.0.1"], Err(()));
    check_filter(&["127.0.0.1"], "a.test", &["127.0.0.1", "10.0.0.1"], Ok(&["127.0.0.1"]));
    check_filter(&["127.0.0.1"], "a.test", &["127.0.0.2", "::1"], Err(()));
    // An address entry with a port admits only literal URLs at that port: the resolver
    // does not know the port, so it may not let the address through.
    check_filter(&["127.0.0.1:8080"], "a.test", &["127.0.0.1"], Err(()));
    check_filter(&["10.0.0.0/8"], "a.test", &["10.9.9.9", "192.168.0.1"], Ok(&["10.9.9.9"]));
    check_filter(&["dev.test"], "DEV.test.", &["10.0.0.1"], Ok(&["10.0.0.1"]));
    check_filter(&["localhost"], "localhost", &["::1", "127.0.0.1"], Ok(&["::1", "127.0.0.1"]));
    check_filter(&[], "localhost", &["8.8.8.8"], Err(()));
    check_filter(&["localhost:3000"], "localhost", &["::1"], Ok(&["::1"]));
}

fn check_allowed_url(allow: &[&str], input: &str, expected_ok: bool) {
    let guard = AddressGuard::new(allow).unwrap();
    let url = url::Url::parse(input).unwrap();
    let got = guard.check_url(&url);
    assert_eq!(got.is_ok(), expected_ok, "{input} with {allow:?}: {got:?}");
    if let Err(err) = got {
        assert!(err.is_blocked(), "{input}: {err}");
    }
}

#[test]
fn allow_list_lets_through_only_what_it_names() {
    let loopback = &["127.0.0.1"];
    check_allowed_url(loopback, "http://127.0.0.1:9999/", true);
    check_allowed_url(loopback, "http://127.0.0.2/", false);
    check_allowed_url(loopback, "http://localhost/", false);
    check_allowed_url(loopback, "http://[::1]/", false);
    check_allowed_url(loopback, "http://10.0.0.1/", false);

    let with_port = &["127.0.0.1:8080"];
    check_allowed_url(with_port, "http://127.0.0.1:8080/", true);
    check_allowed_url(with_port, "http://127.0.0.1:8081/", false);
    check_allowed_url(with_port, "http://127.0.0.1/", false);

    let names = &["localhost:3000", "dev.test"];
    check_allowed_url(names, "http://localhost:3000/", true);
    check_allowed_url(names, "http://localhost.:3000/", true);
    check_allowed_url(names, "http://localhost:22/", false);
    check_allowed_url(names, "http://foo.localhost:3000/", false);
    check_allowed_url(names, "http://dev.test:1234/", true);

    let block = &["10.0.0.0/8", "[::1]:8080"];
    check_allowed_url(block, "http://10.200.0.1/", true);
    check_allowed_url(block, "http://11.0.0.1/", true);
    check_allowed_url(block, "http://172.16.0.1/", false);
    check_allowed_url(block, "http://[::1]:8080/", true);
    check_allowed_url(block, "http://[::1]:8081/", false);
}

#[test]
fn bad_allow_list_entries_are_configuration_errors() {
    for entry in ["", "10.0.0.0/40", "not a host", "host:port"] {
        let err = AddressGuard::new(&[entry]).unwrap_err();
        assert!(matches!(err, Error::Config(_)), "{entry:?}: {err}");
        assert_eq!(err.code(), "internal");
    }
}

/// Offline mode (tests and sandboxes): public targets are refused too, and unlisted names
/// fail without a DNS lookup, so nothing here leaves the machine.
#[tokio::test]
async fn offline_mode_reaches_only_the_allow_list() {
    let guard = AddressGuard::new(&["127.0.0.1"]).unwrap().offline(true);
    assert!(guard.is_offline());
    check_offline_url(&guard, "http://127.0.0.1:8080/", true);
    check_offline_url(&guard, "http://8.8.8.8/", false);
    check_offline_url(&guard, "http://[2606:4700:4700::1111]/", false);
    check_offline_url(&guard, "http://10.0.0.1/", false);
    assert!(guard.filter_resolved("example.com", &["93.184.215.14".parse().unwrap()]).unwrap_err().is_blocked());
    assert!(!AddressGuard::new(&["127.0.0.1"]).unwrap().is_offline(), "off by default");

    let fetcher = Fetcher::new(FetchConfig {
        allow_targets: vec!["127.0.0.1".into()],
        dns_overrides: vec![("public.test".into(), vec!["8.8.8.8".parse().unwrap()])],
        offline: true,
        ..FetchConfig::default()
    })
    .unwrap();
    for (input, code) in [
        ("http://8.8.8.8/", "blocked_target"),
        ("http://public.test/", "blocked_target"),
        ("https://example.com/", "target_unreachable"),
        ("http://schemathesis.invalid/x", "target_unreachable"),
    ] {
        let err = fetcher.fetch_page(&url::Url::parse(input).unwrap()).await.unwrap_err();
        assert_eq!(err.code(), code, "{input}: {err}");
        assert!(err.to_string().contains("offline"), "{input}: {err}");
    }
}

fn check_offline_url(guard: &AddressGuard, input: &str, expected_ok: bool) {
    let outcome = guard.check_url(&url::Url::parse(input).unwrap());
    assert_eq!(outcome.is_ok(), expected_ok, "{input}: {outcome:?}");
}
