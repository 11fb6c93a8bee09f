//! Any string → `validate_url` → the strict `AddressGuard`; accepted URLs must keep the
//! `invalid_url` rules, and the string is also tried as an IP address.
#![no_main]

use std::net::IpAddr;

use fetch::{is_public_ip, validate_url, AddressGuard, MAX_URL_LEN};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &str| {
    let guard = AddressGuard::default();
    if let Ok(url) = validate_url(input) {
        assert!(matches!(url.scheme(), "http" | "https"));
        assert!(url.host_str().is_some_and(|h| !h.is_empty()));
        assert!(url.username().is_empty() && url.password().is_none());
        assert!(url.as_str().len() <= MAX_URL_LEN);
        let _ = guard.check_url(&url);
    }
    if let Ok(ip) = input.trim().parse::<IpAddr>() {
        let public = is_public_ip(ip);
        assert_eq!(guard.check_ip("fuzz", ip, Some(80)).is_ok(), public);
        assert_eq!(guard.filter_resolved("fuzz.example", &[ip]).is_ok(), public);
    }
    let _ = AddressGuard::new(&[input]);
});
