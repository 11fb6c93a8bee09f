//! A staging site's headers, cookies and basic auth ([`fetch::Fetcher::for_site`]) reach
//! the site's own host, and nothing else: not a redirect's target on another host, not a
//! link check, not a fetcher without them.

use std::net::IpAddr;

use fetch::{FetchConfig, Fetcher, SiteHeaders};
use test_support::{html, redirect, RawServer};

const SECRETS: [&str; 3] = ["s3cret-header", "s3cret-cookie", "s3cret-password"];

fn staging_headers() -> SiteHeaders {
    let mut headers = SiteHeaders::new();
    headers.header("X-Staging-Token", SECRETS[0]).unwrap();
    headers.cookie(&format!("preview={}", SECRETS[1])).unwrap();
    headers.basic_auth("preview", SECRETS[2]).unwrap();
    headers
}

/// Whether a recorded request carries any of the secrets, in any header.
fn carries_secrets(request: &test_support::Recorded) -> bool {
    request.headers.iter().any(|(name, value)| {
        let name = name.to_ascii_lowercase();
        name == "authorization"
            || name == "cookie"
            || name == "x-staging-token"
            || SECRETS.iter().any(|s| value.contains(s))
    })
}

#[tokio::test]
async fn site_headers_reach_the_site_host_only() {
    let elsewhere = RawServer::start(
        "127.0.0.1",
        vec![("/landing", html("<title>elsewhere</title>")), ("/robots.txt", html("User-agent: *"))],
    )
    .await;
    let away = |path: &str| format!("http://elsewhere.test:{}{path}", elsewhere.addr.port());
    let site = RawServer::start(
        "127.0.0.1",
        vec![
            ("/", html("<title>staging</title>")),
            ("/away", redirect(302, &away("/landing"))),
            ("/robots.txt", redirect(301, &away("/robots.txt"))),
        ],
    )
    .await;
    let loopback = vec!["127.0.0.1".parse::<IpAddr>().unwrap()];
    let plain = Fetcher::new(FetchConfig {
        allow_targets: vec!["127.0.0.1".into()],
        dns_overrides: vec![("staging.test".into(), loopback.clone()), ("elsewhere.test".into(), loopback)],
        robots_cache_ttl: std::time::Duration::from_secs(60),
        ..FetchConfig::default()
    })
    .unwrap();
    let start = url::Url::parse(&format!("http://staging.test:{}/", site.addr.port())).unwrap();
    let fetcher = plain.for_site(&start, staging_headers());
    assert!(fetcher.has_site_headers() && !fetcher.without_site().has_site_headers());
    let shown = format!("{fetcher:?}");
    assert!(SECRETS.iter().all(|s| !shown.contains(s)), "{shown}");

    // The site's page carries all three.
    fetcher.fetch_page(&start).await.unwrap();
    let first = site.requests().pop().unwrap();
    assert_eq!(first.header("x-staging-token"), Some(SECRETS[0]));
    assert_eq!(first.header("cookie"), Some(format!("preview={}", SECRETS[1]).as_str()));
    assert!(first.header("authorization").is_some_and(|a| a.starts_with("Basic ")), "{:?}", first.headers);

    // A redirect to another host drops them; so does robots.txt's.
    let landed = fetcher.fetch_page(&start.join("/away").unwrap()).await.unwrap();
    assert_eq!(landed.final_url.path(), "/landing");
    fetcher.fetch_robots_txt(&start).await.unwrap().unwrap();
    assert_eq!(site.requests().iter().filter(|r| carries_secrets(r)).count(), 3, "page, /away, robots.txt");
    // A link check never carries them, on the site or off it; a fetcher without them neither.
    fetcher.check_link(&start, std::time::Duration::from_secs(5)).await.unwrap();
    fetcher.without_site().fetch_page(&start).await.unwrap();
    assert_eq!(site.requests().iter().filter(|r| carries_secrets(r)).count(), 3);
    assert_eq!(site.requests().len(), 5);
    let got = elsewhere.requests();
    assert_eq!(got.len(), 2, "the landing page and the robots.txt");
    assert!(got.iter().all(|r| !carries_secrets(r)), "{:?}", got.iter().map(|r| &r.headers).collect::<Vec<_>>());

    // The robots.txt read with the headers is not cached for others: a plain fetcher asks
    // again, and what it caches is not used by the staging fetcher.
    plain.fetch_robots_txt(&start).await.unwrap().unwrap();
    fetcher.fetch_robots_txt(&start).await.unwrap().unwrap();
    let robots = site.requests().iter().filter(|r| r.path == "/robots.txt").count();
    assert_eq!(robots, 3, "each read of the staging fetcher, and the plain one's");
}

/// A fetcher made with another user agent sends it with pages, robots.txt and link checks;
/// a caller's own agent still wins.
#[tokio::test]
async fn a_chosen_user_agent_goes_with_every_request() {
    let site = RawServer::start("127.0.0.1", vec![("/", html("<title>x</title>"))]).await;
    let plain =
        Fetcher::new(FetchConfig { allow_targets: vec!["127.0.0.1".into()], ..FetchConfig::default() }).unwrap();
    let phone = plain.with_user_agent(Some(crawl_like_agent())).unwrap();
    let url = site.url("/");
    phone.fetch_page(&url).await.unwrap();
    phone.fetch_robots_txt(&url).await.unwrap();
    phone.check_link(&url, std::time::Duration::from_secs(5)).await.unwrap();
    phone.fetch_text_as(&url, 1024, Some("OtherBot/1.0"), None).await.unwrap();
    plain.fetch_page(&url).await.unwrap();
    let agents: Vec<String> =
        site.requests().iter().map(|r| r.header("user-agent").unwrap_or_default().to_string()).collect();
    assert_eq!(agents[..3], [crawl_like_agent(), crawl_like_agent(), crawl_like_agent()]);
    assert_eq!(agents[3], "OtherBot/1.0");
    assert!(agents[4].starts_with("SeoAuditBot/"), "{agents:?}");
    assert!(plain.with_user_agent(Some("bad\nagent")).is_err());
}

fn crawl_like_agent() -> &'static str {
    "Mozilla/5.0 (Linux; Android 6.0.1) Mobile (compatible; Googlebot/2.1)"
}
