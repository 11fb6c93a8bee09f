//! Property tests of the URL rules and the address guard (`invalid_url` of docs/API.md;
//! docs/SECURITY.md).
//!
//! Addresses are generated inside each refused range, in both IPv4 and the IPv6 forms that
//! carry an IPv4 address, and every one must be refused by [`fetch::is_public_ip`] and by a
//! strict [`fetch::AddressGuard`], both as an address and as a URL literal.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use fetch::{is_public_ip, validate_url, AddressGuard, MAX_URL_LEN};
use proptest::prelude::*;

/// IPv4 ranges that must be refused: network and prefix length.
const REFUSED_V4: &[([u8; 4], u8)] = &[
    ([0, 0, 0, 0], 8),
    ([10, 0, 0, 0], 8),
    ([100, 64, 0, 0], 10),
    ([127, 0, 0, 0], 8),
    ([169, 254, 0, 0], 16),
    ([172, 16, 0, 0], 12),
    ([192, 0, 0, 0], 24),
    ([192, 0, 2, 0], 24),
    ([192, 168, 0, 0], 16),
    ([198, 18, 0, 0], 15),
    ([198, 51, 100, 0], 24),
    ([203, 0, 113, 0], 24),
    ([224, 0, 0, 0], 4),
    ([240, 0, 0, 0], 4),
];

/// IPv6 ranges that must be refused (outside the IPv4-carrying forms).
const REFUSED_V6: &[(u128, u8)] = &[
    (0, 128),                     // unspecified
    (1, 128),                     // loopback
    (0, 96),                      // ipv4-compatible
    (0xfc00 << 112, 7),           // unique local
    (0xfe80 << 112, 10),          // link-local
    (0xfec0 << 112, 10),          // site-local
    (0xff00 << 112, 8),           // multicast
    (0x2001_0db8 << 96, 32),      // documentation
    (0x0064_ff9b_0001 << 80, 48), // local-use nat64
];

/// An address inside `net/prefix`, chosen by `noise`.
fn in_v4(index: usize, noise: u32) -> Ipv4Addr {
    let (net, prefix) = REFUSED_V4[index % REFUSED_V4.len()];
    let host_mask = u32::MAX.checked_shr(u32::from(prefix)).unwrap_or(0);
    Ipv4Addr::from((u32::from(Ipv4Addr::from(net)) & !host_mask) | (noise & host_mask))
}

fn in_v6(index: usize, noise: u128) -> Ipv6Addr {
    let (net, prefix) = REFUSED_V6[index % REFUSED_V6.len()];
    let host_mask = u128::MAX.checked_shr(u32::from(prefix)).unwrap_or(0);
    Ipv6Addr::from((net & !host_mask) | (noise & host_mask))
}

/// The IPv6 forms that carry `v4`: IPv4-mapped, NAT64 well-known prefix, 6to4.
fn v6_forms(v4: Ipv4Addr) -> [Ipv6Addr; 3] {
    let bits = u128::from(u32::from(v4));
    [
        v4.to_ipv6_mapped(),
        Ipv6Addr::from((0x0064_ff9b_u128 << 96) | bits),
        Ipv6Addr::from((0x2002_u128 << 112) | (bits << 80)),
    ]
}

/// Asserts that a strict guard refuses `ip` every way it can be presented.
fn assert_refused(ip: IpAddr) -> Result<(), TestCaseError> {
    let guard = AddressGuard::new::<&str>(&[]).expect("empty allow-list");
    prop_assert!(!is_public_ip(ip), "{ip} judged public");
    let err = guard.check_ip("host", ip, Some(443)).expect_err("refused address let through");
    prop_assert!(err.is_blocked(), "{ip}: {err:?}");
    prop_assert!(guard.filter_resolved("host.example", &[ip]).is_err(), "{ip} survived resolution filter");
    let literal = match ip {
        IpAddr::V4(v4) => format!("http://{v4}/"),
        IpAddr::V6(v6) => format!("http://[{v6}]/"),
    };
    let url = validate_url(&literal).expect("an address literal is a valid URL");
    prop_assert!(guard.check_url(&url).is_err(), "{literal} let through");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn validate_url_accepts_only_sound_urls(input in prop_oneof![
        "\\PC{0,64}",
        "(https?|ftp|javascript|data|file|HTTP)://[ -~]{0,48}",
        "[a-z]{1,8}(\\.[a-z]{1,8}){0,3}(:[0-9]{1,6})?(/[ -~]{0,16})?",
        "https?://[a-z:@]{0,12}@[a-z.]{1,12}/",
        "https?://[a-z]{1,4}/[a-z]{2030,2060}",
        "https?://\\[[0-9a-f:.]{0,40}\\]/",
        "\\s{0,3}https?://[^ ]{1,30}\\s{0,3}",
    ]) {
        if let Ok(url) = validate_url(&input) {
            prop_assert!(matches!(url.scheme(), "http" | "https"), "{input:?} → {url}");
            prop_assert!(url.host_str().is_some_and(|h| !h.is_empty()), "{input:?} → {url}");
            prop_assert!(url.username().is_empty() && url.password().is_none(), "{input:?} → {url}");
            prop_assert!(url.as_str().len() <= MAX_URL_LEN, "{input:?} → {} bytes", url.as_str().len());
            // Accepting is stable: the normalised form is accepted as itself.
            let again = validate_url(url.as_str()).expect("a validated URL validates again");
            prop_assert_eq!(again.as_str(), url.as_str());
        }
    }

    #[test]
    fn refused_ipv4_ranges_are_refused_in_every_form(index in 0usize..64, noise in any::<u32>()) {
        let v4 = in_v4(index, noise);
        assert_refused(IpAddr::V4(v4))?;
        for v6 in v6_forms(v4) {
            assert_refused(IpAddr::V6(v6))?;
        }
    }

    #[test]
    fn refused_ipv6_ranges_are_refused(index in 0usize..64, noise in any::<u128>()) {
        assert_refused(IpAddr::V6(in_v6(index, noise)))?;
    }

    #[test]
    fn anything_outside_global_unicast_is_refused(noise in any::<u128>()) {
        // Not 2000::/3 and not an IPv4-carrying form: never public.
        let ip = Ipv6Addr::from(noise);
        let global = noise >> 125 == 0b001;
        let carries_v4 = ip.to_ipv4_mapped().is_some() || noise >> 32 == 0x0064_ff9b_u128 << 64;
        if !global && !carries_v4 {
            prop_assert!(!is_public_ip(IpAddr::V6(ip)), "{ip} judged public");
        }
    }

    #[test]
    fn guard_never_panics_on_any_address(v4 in any::<u32>(), v6 in any::<u128>(), port in any::<Option<u16>>()) {
        let guard = AddressGuard::new(&["127.0.0.1:8080"]).expect("valid allow entry");
        for ip in [IpAddr::V4(Ipv4Addr::from(v4)), IpAddr::V6(Ipv6Addr::from(v6))] {
            let public = is_public_ip(ip);
            // A public address always passes, allow-list or not.
            if public {
                prop_assert!(guard.check_ip("h", ip, port).is_ok());
            }
        }
    }
}
