//! Properties of URL normalisation and scope.

use crawl::{normalize, normalize_relative, normalize_serialized, Scope, ScopeConfig, Site};
use proptest::prelude::*;

fn url_strategy() -> impl Strategy<Value = String> {
    let scheme = prop_oneof![Just("http"), Just("https"), Just("HTTP"), Just("HtTpS")];
    let host = prop_oneof![
        Just("example.com"),
        Just("WWW.Example.com"),
        Just("www.example.com"),
        Just("other.test"),
        Just("EXAMPLE.COM.")
    ];
    let port =
        prop_oneof![Just(String::new()), Just(":80".to_string()), Just(":443".to_string()), Just(":8080".to_string())];
    let path = proptest::collection::vec("[a-zA-Z0-9._~%!$&'()*+,;=:@ -]{0,8}", 0..4).prop_map(|s| s.join("/"));
    let query = prop_oneof![Just(String::new()), Just("?".to_string()), "\\?[a-z=&%0-9]{0,10}"];
    let fragment = prop_oneof![Just(String::new()), "#[a-z0-9 ]{0,6}"];
    (scheme, host, port, path, query, fragment).prop_map(|(s, h, p, path, q, f)| format!("{s}://{h}{p}/{path}{q}{f}"))
}

proptest! {
    /// The parser hands out URLs in the `url` crate's serialization (fragment included); the
    /// fast normalisation of such a URL is exactly the parsing one, or declines.
    #[test]
    fn the_fast_normalisation_agrees_with_parsing(input in url_strategy()) {
        if let Ok(parsed) = url::Url::parse(&input) {
            let serialized = parsed.as_str();
            let slow = normalize(serialized).ok();
            match (normalize_serialized(serialized), slow) {
                (Some((fast, site)), Some(slow)) => {
                    prop_assert_eq!(fast, slow.as_str());
                    prop_assert_eq!(site, Site::of(&slow));
                }
                (Some(fast), None) => prop_assert!(false, "fast {:?} where parsing refuses {}", fast, serialized),
                (None, _) => {}
            }
        }
    }

    #[test]
    fn normalising_is_idempotent_and_drops_fragments(input in url_strategy()) {
        if let Ok(url) = normalize(&input) {
            prop_assert_eq!(normalize(url.as_str()).unwrap(), url.clone());
            prop_assert!(url.fragment().is_none());
            prop_assert!(url.query() != Some(""));
            prop_assert_eq!(url.scheme().to_string(), url.scheme().to_ascii_lowercase());
            let host = url.host_str().unwrap();
            prop_assert_eq!(host.to_string(), host.to_ascii_lowercase());
            let default = if url.scheme() == "http" { 80 } else { 443 };
            prop_assert!(url.port().is_none_or(|p| p != default));
            prop_assert!(url.path().starts_with('/'));
        }
    }

    #[test]
    fn spellings_of_one_url_normalise_alike(path in "[a-z0-9/]{0,12}", fragment in "[a-z]{0,5}") {
        let a = normalize(&format!("HTTPS://Example.COM:443/{path}#{fragment}")).unwrap();
        let b = normalize(&format!("https://example.com/{path}")).unwrap();
        prop_assert_eq!(a, b);
    }

    #[test]
    fn scope_is_decided_by_site_and_prefixes(input in url_strategy(), prefix in "/[a-z]{1,3}") {
        let scope = Scope::new("https://www.example.com/", ScopeConfig { exclude: vec![prefix.clone()], ..ScopeConfig::default() }).unwrap();
        if let Ok(url) = normalize(&input) {
            let host = url.host_str().unwrap();
            let same = (host == "example.com" || host == "www.example.com") && url.port().is_none();
            prop_assert_eq!(scope.same_site(&url), same);
            let allowed = scope.check(&url, Some(1)).is_ok();
            let excluded = url.path().starts_with(&prefix);
            prop_assert_eq!(allowed, same && (!excluded || url.as_str() == "https://www.example.com/"));
        }
    }

    #[test]
    fn resolving_never_panics(reference in ".{0,40}") {
        let base = normalize("https://example.com/a/b").unwrap();
        if let Ok(url) = normalize_relative(&base, &reference) {
            prop_assert!(url.fragment().is_none());
        }
    }
}

proptest! {
    #[test]
    fn sitemap_parsing_never_panics(body in proptest::collection::vec(any::<u8>(), 0..200), xmlish in "(<[/a-z:]{0,10}>|[a-z&;#0-9 ]{0,5}){0,12}") {
        let limits = crawl::SitemapLimits::default();
        let _ = crawl::parse_sitemap(&body, &limits);
        let _ = crawl::parse_sitemap(xmlish.as_bytes(), &limits);
        let mut gz = vec![0x1f, 0x8b];
        gz.extend_from_slice(&body);
        let _ = crawl::parse_sitemap(&gz, &limits);
    }
}
