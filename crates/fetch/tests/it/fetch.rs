//! The fetcher against a loopback test server: allow-list, guard at every hop and in the
//! resolver, redirects, limits, content types and error classification.

use std::io::Write;
use std::net::IpAddr;
use std::time::Duration;

use fetch::{Error, FetchConfig, Fetcher};
use test_support::{html, redirect, typed, RawServer, Reply};

/// A fetcher that may reach 127.0.0.1 (and nothing else that is not public).
fn loopback_fetcher(tweak: impl FnOnce(&mut FetchConfig)) -> Fetcher {
    let mut config = FetchConfig {
        allow_targets: vec!["127.0.0.1".into()],
        base_url: "https://audit.test".into(),
        ..FetchConfig::default()
    };
    tweak(&mut config);
    Fetcher::new(config).unwrap()
}

fn check_error(result: Result<fetch::FetchedPage, Error>, code: &str, status: u16) -> Error {
    let err = result.map(|p| p.final_url).unwrap_err();
    assert_eq!((err.code(), err.http_status()), (code, status), "{err}");
    err
}

fn blocked(result: Result<fetch::FetchedPage, Error>) -> Error {
    let err = check_error(result, "blocked_target", 422);
    assert!(err.is_blocked());
    err
}

#[tokio::test]
async fn fetches_an_allowed_loopback_page() {
    let server = RawServer::start(
        "127.0.0.1",
        vec![(
            "/",
            Reply::Full {
                status: 200,
                headers: vec![
                    ("Content-Type".into(), "text/html; charset=utf-8".into()),
                    ("Link".into(), "</a.css>; rel=preload".into()),
                    ("Link".into(), "</b.js>; rel=preload".into()),
                    ("X-Robots-Tag".into(), "noarchive".into()),
                ],
                body: b"<!doctype html><title>hi</title>".to_vec(),
            },
        )],
    )
    .await;
    let fetcher = loopback_fetcher(|_| {});
    let url = server.url("/");
    let page = fetcher.clone().fetch_page(&url).await.unwrap();
    assert_eq!(page.status, 200);
    assert_eq!(page.requested_url, url);
    assert_eq!(page.final_url, url);
    assert!(page.redirect_chain.is_empty());
    assert_eq!(page.body.as_ref(), b"<!doctype html><title>hi</title>");
    assert_eq!(page.content_type.as_deref(), Some("text/html; charset=utf-8"));
    assert_eq!(page.header("x-robots-tag"), Some("noarchive"));
    assert_eq!(page.header("X-Robots-Tag"), Some("noarchive"));
    assert_eq!(page.header_all("link"), ["</a.css>; rel=preload", "</b.js>; rel=preload"]);
    assert!(page.headers.iter().all(|(n, _)| *n == n.to_lowercase()));
    assert!(page.ttfb_ms <= page.total_ms);

    let request = &server.requests()[0];
    let agent = format!("SeoAuditBot/{} (+https://audit.test/bot)", env!("CARGO_PKG_VERSION"));
    assert_eq!(request.header("user-agent"), Some(agent.as_str()));
    assert!(request.header("accept").unwrap_or_default().starts_with("text/html"));
    assert!(request.header("accept-encoding").unwrap_or_default().contains("gzip"));
}

/// The AI-readiness check asks as a crawler and for markdown: the caller's `User-Agent` and
/// `Accept` replace the service's, on every hop, and the guard still applies.
#[tokio::test]
async fn fetch_text_as_sends_the_callers_agent_and_accept_on_every_hop() {
    let server = RawServer::start(
        "127.0.0.1",
        vec![("/old", redirect(301, "/page")), ("/page", typed("text/markdown", b"# Page"))],
    )
    .await;
    let fetcher = loopback_fetcher(|_| {});
    let page =
        fetcher.fetch_text_as(&server.url("/old"), 1024, Some("GPTBot/1.2"), Some("text/markdown")).await.unwrap();
    assert_eq!((page.status, page.body.as_ref()), (200, &b"# Page"[..]));
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    for request in &requests {
        assert_eq!(request.header("user-agent"), Some("GPTBot/1.2"));
        assert_eq!(request.header("accept"), Some("text/markdown"));
    }
    // Without overrides it is the service's own request.
    fetcher.fetch_text_as(&server.url("/page"), 1024, None, None).await.unwrap();
    let last = server.requests().pop().unwrap();
    assert!(last.header("user-agent").unwrap_or_default().starts_with("SeoAuditBot/"));
    // A value that is no header value is the caller's error, not a request.
    let err = fetcher.fetch_text_as(&server.url("/page"), 1024, Some("bad\nagent"), None).await.unwrap_err();
    assert_eq!(err.code(), "internal", "{err}");
    let strict = Fetcher::new(FetchConfig::default()).unwrap();
    blocked(strict.fetch_text_as(&server.url("/page"), 1024, Some("GPTBot/1.2"), None).await);
}

#[tokio::test]
async fn loopback_is_refused_without_the_allow_list() {
    let server = RawServer::start("127.0.0.1", vec![("/", html("x"))]).await;
    let strict = Fetcher::new(FetchConfig::default()).unwrap();
    let err = blocked(strict.fetch_page(&server.url("/")).await);
    assert_eq!(
        err,
        Error::Blocked { host: "127.0.0.1".into(), addr: Some(IpAddr::from([127, 0, 0, 1])), reason: "loopback" }
    );
    assert!(server.requests().is_empty(), "nothing may reach the server");
}

#[tokio::test]
async fn allow_list_opens_only_the_named_address() {
    // A real server on 127.0.0.2, so a refusal cannot be mistaken for a failed connection.
    let other = RawServer::start("127.0.0.2", vec![("/", html("x"))]).await;
    let fetcher = loopback_fetcher(|_| {});
    blocked(fetcher.fetch_page(&other.url("/")).await);
    assert!(other.requests().is_empty());

    let port = other.addr.port();
    for target in [
        format!("http://localhost:{port}/"),
        format!("http://[::1]:{port}/"),
        "http://10.0.0.1/".to_string(),
        "http://169.254.169.254/latest/meta-data".to_string(),
    ] {
        let url = url::Url::parse(&target).unwrap();
        blocked(fetcher.fetch_page(&url).await);
    }
}

#[tokio::test]
async fn redirect_to_an_inner_address_is_blocked() {
    let server = RawServer::start(
        "127.0.0.1",
        vec![
            ("/to-private", redirect(302, "http://10.0.0.1/")),
            ("/to-metadata", redirect(301, "http://169.254.169.254/latest/meta-data")),
            ("/to-localhost", redirect(307, "http://localhost/")),
            ("/to-decimal", redirect(308, "http://2130706434/")),
            ("/to-mapped", redirect(302, "http://[::ffff:a9fe:a9fe]/")),
            ("/via", redirect(302, "/to-private")),
        ],
    )
    .await;
    let fetcher = loopback_fetcher(|_| {});
    for path in ["/to-private", "/to-metadata", "/to-localhost", "/to-decimal", "/to-mapped", "/via"] {
        blocked(fetcher.fetch_page(&server.url(path)).await);
    }
}

#[tokio::test]
async fn names_are_judged_by_the_addresses_they_resolve_to() {
    let server = RawServer::start(
        "127.0.0.1",
        vec![("/", html("resolved")), ("/to-inner-name", redirect(302, "http://inner.test/"))],
    )
    .await;
    let ip = |s: &str| s.parse::<IpAddr>().unwrap();
    let fetcher = loopback_fetcher(|config| {
        config.dns_overrides = vec![
            ("inner.test".into(), vec![ip("10.0.0.1")]),
            ("other-loopback.test".into(), vec![ip("127.0.0.2"), ip("::1")]),
            ("metadata.test".into(), vec![ip("169.254.169.254")]),
            ("mixed.test".into(), vec![ip("10.0.0.1"), ip("127.0.0.1")]),
        ]
    });
    let port = server.addr.port();
    let at = |host: &str| url::Url::parse(&format!("http://{host}:{port}/")).unwrap();

    let err = blocked(fetcher.fetch_page(&at("inner.test")).await);
    assert_eq!(
        err,
        Error::Blocked { host: "inner.test".into(), addr: Some(ip("10.0.0.1")), reason: "private (rfc 1918)" }
    );
    blocked(fetcher.fetch_page(&at("other-loopback.test")).await);
    blocked(fetcher.fetch_page(&at("metadata.test")).await);
    // A redirect to a name that resolves inwards is refused at its connection.
    blocked(fetcher.fetch_page(&server.url("/to-inner-name")).await);

    // The refused address is dropped and the allowed one is used.
    let page = fetcher.fetch_page(&at("mixed.test")).await.unwrap();
    assert_eq!(page.body.as_ref(), b"resolved");

    // Without the allow-list the same name is refused at connection time.
    let strict = Fetcher::new(FetchConfig {
        dns_overrides: vec![("mixed.test".into(), vec![ip("10.0.0.1"), ip("127.0.0.1")])],
        ..FetchConfig::default()
    })
    .unwrap();
    blocked(strict.fetch_page(&at("mixed.test")).await);
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn redirect_chain_is_recorded() {
    let server = RawServer::start(
        "127.0.0.1",
        vec![
            ("/r1", redirect(301, "/r2")),
            ("/r2", redirect(302, "r3?x=1")),
            ("/r3?x=1", redirect(307, "/final#top")),
            ("/final", html("done")),
        ],
    )
    .await;
    let fetcher = loopback_fetcher(|_| {});
    let page = fetcher.fetch_page(&server.url("/r1")).await.unwrap();
    let chain: Vec<(String, u16)> =
        page.redirect_chain.iter().map(|hop| (hop.url.path().to_string(), hop.status)).collect();
    assert_eq!(chain, [("/r1".into(), 301), ("/r2".into(), 302), ("/r3".into(), 307)]);
    assert_eq!(page.redirect_chain[2].url, server.url("/r3?x=1"));
    assert_eq!(page.requested_url, server.url("/r1"));
    assert_eq!(page.final_url, server.url("/final#top"));
    assert_eq!(page.body.as_ref(), b"done");
}

#[tokio::test]
async fn redirect_loops_and_long_chains_fail() {
    let mut routes = vec![
        ("/a", redirect(302, "/b")),
        ("/b", redirect(302, "/a#again")),
        ("/self", redirect(301, "/self")),
        ("/bad-scheme", redirect(302, "ftp://example.com/")),
        ("/credentials", redirect(302, "http://user:pw@127.0.0.1/")),
    ];
    // /c0 -> /c1 -> ... -> /c6 (a page): six redirects from /c0, five from /c1.
    let chain: Vec<(String, String)> = (0..6).map(|i| (format!("/c{i}"), format!("/c{}", i + 1))).collect();
    for (from, to) in &chain {
        routes.push((from.as_str(), redirect(302, to)));
    }
    routes.push(("/c6", html("end")));
    let server = RawServer::start("127.0.0.1", routes).await;
    let fetcher = loopback_fetcher(|_| {});

    let err = check_error(fetcher.fetch_page(&server.url("/a")).await, "target_unreachable", 502);
    assert!(matches!(err, Error::RedirectLoop { .. }), "{err}");
    let err = check_error(fetcher.fetch_page(&server.url("/self")).await, "target_unreachable", 502);
    assert!(matches!(err, Error::RedirectLoop { .. }), "{err}");

    let err = check_error(fetcher.fetch_page(&server.url("/c0")).await, "target_unreachable", 502);
    assert_eq!(err, Error::TooManyRedirects { limit: 5 });
    let page = fetcher.fetch_page(&server.url("/c1")).await.unwrap();
    assert_eq!(page.redirect_chain.len(), 5);

    for path in ["/bad-scheme", "/credentials"] {
        let err = check_error(fetcher.fetch_page(&server.url(path)).await, "target_unreachable", 502);
        assert!(matches!(err, Error::InvalidRedirect { .. }), "{path}: {err}");
    }
}

#[tokio::test]
async fn slow_targets_time_out() {
    let server = RawServer::start("127.0.0.1", vec![("/slow", Reply::Stall)]).await;
    let fetcher = loopback_fetcher(|config| {
        config.total_timeout = Duration::from_millis(300);
        config.text_timeout = Duration::from_millis(300);
    });
    let err = check_error(fetcher.fetch_page(&server.url("/slow")).await, "target_timeout", 504);
    assert!(err.is_timeout());
    let err = fetcher.fetch_text(&server.url("/slow"), 1024).await.unwrap_err();
    assert!(err.is_timeout(), "{err}");
    let err = fetcher
        .post_json(&server.url("/slow"), &[], &serde_json::json!({}), Duration::from_millis(300))
        .await
        .unwrap_err();
    assert!(err.is_timeout(), "{err}");
}

#[tokio::test]
async fn endless_and_oversized_bodies_are_cut() {
    let server = RawServer::start(
        "127.0.0.1",
        vec![
            ("/endless", Reply::Endless { headers: vec![("Content-Type".into(), "text/html".into())] }),
            ("/big", typed("text/html", &vec![b'x'; 70_000])),
            ("/fits", typed("text/html", &vec![b'x'; 65_536])),
        ],
    )
    .await;
    let fetcher = loopback_fetcher(|config| config.max_body_bytes = 65_536);
    for path in ["/endless", "/big"] {
        let err = check_error(fetcher.fetch_page(&server.url(path)).await, "target_too_large", 422);
        assert_eq!(err, Error::TooLarge { limit: 65_536 });
    }
    let page = fetcher.fetch_page(&server.url("/fits")).await.unwrap();
    assert_eq!(page.body.len(), 65_536);
    let err = fetcher.fetch_text(&server.url("/fits"), 1000).await.unwrap_err();
    assert_eq!(err, Error::TooLarge { limit: 1000 });
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(data).unwrap();
    encoder.finish().unwrap()
}

fn gzipped_html(body: Vec<u8>) -> Reply {
    Reply::Full {
        status: 200,
        headers: vec![("Content-Type".into(), "text/html".into()), ("Content-Encoding".into(), "gzip".into())],
        body,
    }
}

#[tokio::test]
async fn limit_applies_after_decompression() {
    let bomb = gzip(&vec![0u8; 20 * 1024 * 1024]);
    assert!(bomb.len() < 64 * 1024, "the bomb is small on the wire");
    let page_html = "<!doctype html><p>compressed</p>".repeat(100);
    let server = RawServer::start(
        "127.0.0.1",
        vec![("/bomb", gzipped_html(bomb)), ("/gz", gzipped_html(gzip(page_html.as_bytes())))],
    )
    .await;
    let fetcher = loopback_fetcher(|config| config.max_body_bytes = 1024 * 1024);
    let err = check_error(fetcher.fetch_page(&server.url("/bomb")).await, "target_too_large", 422);
    assert_eq!(err, Error::TooLarge { limit: 1024 * 1024 });

    let page = fetcher.fetch_page(&server.url("/gz")).await.unwrap();
    assert_eq!(page.body.as_ref(), page_html.as_bytes());
}

fn encoded_html(encoding: &str, body: Vec<u8>) -> Reply {
    Reply::Full {
        status: 200,
        headers: vec![("Content-Type".into(), "text/html".into()), ("Content-Encoding".into(), encoding.into())],
        body,
    }
}

fn zstd(data: &[u8]) -> Vec<u8> {
    ruzstd::encoding::compress_to_vec(data, ruzstd::encoding::CompressionLevel::Fastest)
}

/// A `zstd` answer, sent though not asked for, is decoded within the same limit as the
/// others; an encoding this service does not know is refused, never audited as the garbage
/// its bytes would parse to.
#[tokio::test]
async fn zstd_is_decoded_within_the_limit_and_unknown_encodings_refused() {
    let page_html = "<!doctype html><title>zstd</title><p>compressed</p>".repeat(100);
    let bomb = zstd(&vec![0u8; 20 * 1024 * 1024]);
    assert!(bomb.len() < 64 * 1024, "the bomb is small on the wire ({} bytes)", bomb.len());
    let server = RawServer::start(
        "127.0.0.1",
        vec![
            ("/zstd", encoded_html("zstd", zstd(page_html.as_bytes()))),
            ("/bomb", encoded_html("zstd", bomb)),
            ("/broken", encoded_html("zstd", b"<p>not zstd at all".to_vec())),
            ("/compress", encoded_html("compress", b"\x1f\x9d\x90<p>".to_vec())),
        ],
    )
    .await;
    let fetcher = loopback_fetcher(|config| config.max_body_bytes = 1024 * 1024);
    let page = fetcher.fetch_page(&server.url("/zstd")).await.unwrap();
    assert_eq!(page.body.as_ref(), page_html.as_bytes());

    let err = check_error(fetcher.fetch_page(&server.url("/bomb")).await, "target_too_large", 422);
    assert_eq!(err, Error::TooLarge { limit: 1024 * 1024 });

    check_error(fetcher.fetch_page(&server.url("/broken")).await, "target_unreachable", 502);

    let err = check_error(fetcher.fetch_page(&server.url("/compress")).await, "not_html", 422);
    assert_eq!(err, Error::Encoding { encoding: "compress".into() });
    assert!(err.to_string().contains("content encoding \"compress\""), "{err}");
}

#[tokio::test]
async fn content_type_is_checked_for_pages_only() {
    let png = b"\x89PNG\r\n\x1a\n";
    let server = RawServer::start(
        "127.0.0.1",
        vec![
            ("/image", typed("image/png", png)),
            ("/json", typed("application/json", b"{}")),
            ("/xhtml", typed("application/xhtml+xml; charset=utf-8", b"<html/>")),
            ("/upper", typed("TEXT/HTML", b"<p>")),
            ("/untyped", Reply::Full { status: 200, headers: vec![], body: b"<p>no type".to_vec() }),
            (
                "/gone",
                Reply::Full {
                    status: 410,
                    headers: vec![("Content-Type".into(), "text/plain".into())],
                    body: b"gone".to_vec(),
                },
            ),
        ],
    )
    .await;
    let fetcher = loopback_fetcher(|_| {});
    let err = check_error(fetcher.fetch_page(&server.url("/image")).await, "not_html", 422);
    assert_eq!(err, Error::NotHtml { content_type: "image/png".into() });
    assert!(err.is_not_html());
    check_error(fetcher.fetch_page(&server.url("/json")).await, "not_html", 422);

    for path in ["/xhtml", "/upper", "/untyped"] {
        let page = fetcher.fetch_page(&server.url(path)).await.unwrap();
        assert_eq!(page.status, 200, "{path}");
    }
    let untyped = fetcher.fetch_page(&server.url("/untyped")).await.unwrap();
    assert_eq!(untyped.content_type, None);

    // A failing status is reported, whatever the type: the audit says the page is gone.
    let gone = fetcher.fetch_page(&server.url("/gone")).await.unwrap();
    assert_eq!((gone.status, gone.body.as_ref()), (410, b"gone".as_slice()));

    let text = fetcher.fetch_text(&server.url("/image"), 1024).await.unwrap();
    assert_eq!(text.body.as_ref(), png);
}

#[tokio::test]
async fn body_bytes_are_kept_exactly_with_their_declared_charset() {
    let cases: Vec<(&str, Option<&str>, Vec<u8>)> = vec![
        ("/latin1", Some("text/html; charset=ISO-8859-1"), b"<p>caf\xe9 cr\xe8me \xbd</p>".to_vec()),
        ("/sjis", Some("text/html; charset=Shift_JIS"), b"<p>\x93\xfa\x96\x7b\x8c\xea</p>".to_vec()),
        ("/bom", Some("text/html"), b"\xef\xbb\xbf<p>\xc3\xa9t\xc3\xa9</p>".to_vec()),
        ("/bom16", None, b"\xff\xfe<\x00p\x00>\x00".to_vec()),
        ("/meta-only", Some("text/html"), b"<meta charset=\"windows-1252\"><p>\x93quoted\x94</p>".to_vec()),
    ];
    let routes: Vec<(&str, Reply)> = cases
        .iter()
        .map(|(path, ct, body)| {
            let headers = ct.map(|ct| vec![("Content-Type".to_string(), ct.to_string())]).unwrap_or_default();
            (*path, Reply::Full { status: 200, headers, body: body.clone() })
        })
        .collect();
    let server = RawServer::start("127.0.0.1", routes).await;
    let fetcher = loopback_fetcher(|_| {});
    for (path, ct, body) in &cases {
        let page = fetcher.fetch_page(&server.url(path)).await.unwrap();
        assert_eq!(page.body.as_ref(), body.as_slice(), "{path}");
        assert_eq!(page.content_type.as_deref(), *ct, "{path}");
        assert_eq!(page.header("content-type"), *ct, "{path}");
    }
}

#[tokio::test]
async fn unreachable_targets() {
    // A port that was free a moment ago: nothing listens there.
    let port = test_support::closed_port();
    let fetcher = loopback_fetcher(|config| config.total_timeout = Duration::from_secs(5));
    let url = url::Url::parse(&format!("http://127.0.0.1:{port}/")).unwrap();
    let err = check_error(fetcher.fetch_page(&url).await, "target_unreachable", 502);
    assert!(err.is_unreachable());
    assert!(matches!(err, Error::Connect { failure: fetch::ConnectFailure::Refused, .. }), "{err:?}");
    assert_eq!(
        err.to_string(),
        format!(
            "The connection to 127.0.0.1:{port} was refused: nothing accepts connections at that address and port. \
             Check the address and port."
        )
    );

    // `.invalid` never resolves, and is answered without asking the network.
    let url = url::Url::parse("http://does-not-exist.invalid/").unwrap();
    let err = check_error(fetcher.fetch_page(&url).await, "target_unreachable", 502);
    assert!(matches!(err, Error::Dns { failure: fetch::DnsFailure::Reserved, .. }), "{err:?}");
}

#[tokio::test]
async fn robots_txt_comes_from_the_origin() {
    let with =
        RawServer::start("127.0.0.1", vec![("/robots.txt", typed("text/plain", b"User-agent: *\nDisallow: /x\n"))])
            .await;
    let without = RawServer::start("127.0.0.1", vec![]).await;
    let fetcher = loopback_fetcher(|_| {});

    let page_url = with.url("/deep/page?q=1#f");
    let robots = fetcher.fetch_robots_txt(&page_url).await.unwrap().unwrap();
    assert_eq!(robots.final_url, with.url("/robots.txt"));
    assert_eq!(robots.body.as_ref(), b"User-agent: *\nDisallow: /x\n");

    let missing = fetcher.fetch_robots_txt(&without.url("/a")).await.unwrap().unwrap();
    assert_eq!(missing.status, 404);

    let mailto = url::Url::parse("mailto:x@example.com").unwrap();
    assert!(fetcher.fetch_robots_txt(&mailto).await.unwrap().is_none());

    let strict = Fetcher::new(FetchConfig::default()).unwrap();
    blocked(strict.fetch_robots_txt(&page_url).await.map(|p| p.unwrap()));
}

#[tokio::test]
async fn robots_txt_is_cached_per_origin_when_asked() {
    let site =
        RawServer::start("127.0.0.1", vec![("/robots.txt", typed("text/plain", b"User-agent: *\nDisallow: /x\n"))])
            .await;
    let other = RawServer::start("127.0.0.1", vec![]).await;
    let robots_hits = |s: &RawServer| s.requests().iter().filter(|r| r.path == "/robots.txt").count();

    let uncached = loopback_fetcher(|_| {});
    for _ in 0..2 {
        uncached.fetch_robots_txt(&site.url("/a")).await.unwrap();
    }
    assert_eq!(robots_hits(&site), 2, "no cache by default");

    let cached = loopback_fetcher(|c| c.robots_cache_ttl = std::time::Duration::from_secs(60));
    for path in ["/a", "/b?q=1", "/c"] {
        let page = cached.fetch_robots_txt(&site.url(path)).await.unwrap().unwrap();
        assert_eq!(page.body.as_ref(), b"User-agent: *\nDisallow: /x\n");
    }
    assert_eq!(robots_hits(&site), 3, "one more fetch for three pages of one origin");
    let missing = cached.fetch_robots_txt(&other.url("/a")).await.unwrap().unwrap();
    assert_eq!(missing.status, 404, "another origin is fetched on its own");

    let short = loopback_fetcher(|c| c.robots_cache_ttl = std::time::Duration::from_millis(20));
    short.fetch_robots_txt(&site.url("/a")).await.unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(40)).await;
    short.fetch_robots_txt(&site.url("/a")).await.unwrap();
    assert_eq!(robots_hits(&site), 5, "an expired entry is fetched again");
}

#[tokio::test]
async fn post_json_is_guarded_and_bounded() {
    let server = RawServer::start(
        "127.0.0.1",
        vec![
            (
                "/hook",
                Reply::Full {
                    status: 201,
                    headers: vec![("Content-Type".into(), "application/json".into())],
                    body: br#"{"ok":true}"#.to_vec(),
                },
            ),
            ("/big", typed("application/json", &vec![b' '; 2048])),
            ("/moved", redirect(302, "http://10.0.0.1/")),
        ],
    )
    .await;
    let fetcher = loopback_fetcher(|config| config.post_max_bytes = 1024);
    let headers = vec![("X-Signature".to_string(), "sha256=abc".to_string())];
    let body = serde_json::json!({"event": "audit.completed", "score": 91});
    let timeout = Duration::from_secs(5);

    let (status, answer_headers, answer) =
        fetcher.post_json(&server.url("/hook"), &headers, &body, timeout).await.unwrap();
    assert_eq!(status, 201);
    assert!(answer_headers.iter().any(|(n, v)| n == "content-type" && v == "application/json"));
    assert_eq!(answer.as_ref(), br#"{"ok":true}"#);
    let request = &server.requests()[0];
    assert_eq!(request.method, "POST");
    assert_eq!(request.header("content-type"), Some("application/json"));
    assert_eq!(request.header("x-signature"), Some("sha256=abc"));
    let sent: serde_json::Value = serde_json::from_slice(&request.body).unwrap();
    assert_eq!(sent, body);

    let err = fetcher.post_json(&server.url("/big"), &[], &body, timeout).await.unwrap_err();
    assert_eq!(err, Error::TooLarge { limit: 1024 });

    // Redirects are returned, not followed.
    let (status, _, _) = fetcher.post_json(&server.url("/moved"), &[], &body, timeout).await.unwrap();
    assert_eq!(status, 302);

    let inner = url::Url::parse("http://169.254.169.254/latest/api/token").unwrap();
    let err = fetcher.post_json(&inner, &[], &body, timeout).await.unwrap_err();
    assert!(err.is_blocked(), "{err}");

    let bad_header = vec![("bad header".to_string(), "x".to_string())];
    let err = fetcher.post_json(&server.url("/hook"), &bad_header, &body, timeout).await.unwrap_err();
    assert!(matches!(err, Error::Config(_)), "{err}");
}

#[tokio::test]
async fn urls_not_meeting_the_rules_are_refused_before_any_request() {
    let fetcher = loopback_fetcher(|_| {});
    for input in ["ftp://127.0.0.1/", "http://user:pw@127.0.0.1/"] {
        let url = url::Url::parse(input).unwrap();
        let err = check_error(fetcher.fetch_page(&url).await, "invalid_url", 400);
        assert!(err.is_invalid_url());
    }
}

#[tokio::test]
async fn tls_failures_are_unreachable() {
    // Something that answers a TLS ClientHello with plain text.
    let plain = b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n";
    let server = RawServer::speaking_first("127.0.0.1", plain, Duration::ZERO).await;
    let port = server.addr.port();
    let fetcher = loopback_fetcher(|_| {});
    let url = url::Url::parse(&format!("https://127.0.0.1:{port}/")).unwrap();
    let err = check_error(fetcher.fetch_page(&url).await, "target_unreachable", 502);
    assert!(matches!(err, Error::Tls { failure: fetch::TlsFailure::PlainHttp, .. }), "{err:?}");
    assert!(err.to_string().ends_with(&format!("try http://127.0.0.1:{port}/.")), "{err}");
}

#[tokio::test]
async fn a_host_name_on_the_allow_list_is_reachable_at_its_port_only() {
    let server = RawServer::start("127.0.0.1", vec![("/", html("named"))]).await;
    let port = server.addr.port();
    let fetcher = loopback_fetcher(|config| {
        config.allow_targets = vec![format!("localhost:{port}")];
    });
    let url = url::Url::parse(&format!("http://localhost:{port}/")).unwrap();
    let page = fetcher.fetch_page(&url).await.unwrap();
    assert_eq!(page.body.as_ref(), b"named");

    let other_port = url::Url::parse(&format!("http://localhost:{}/", port ^ 1)).unwrap();
    blocked(fetcher.fetch_page(&other_port).await);
    // The entry names the host, not its addresses.
    blocked(fetcher.fetch_page(&server.url("/")).await);
}

#[tokio::test]
async fn refusals_never_say_what_a_name_resolves_to() {
    let server = RawServer::start("127.0.0.1", vec![("/", html("never"))]).await;
    let ip = |s: &str| s.parse::<IpAddr>().unwrap();
    let strict = Fetcher::new(FetchConfig {
        dns_overrides: vec![
            ("rebind.test".into(), vec![ip("127.0.0.1")]),
            ("inner.test".into(), vec![ip("10.1.2.3")]),
            ("metadata.test".into(), vec![ip("169.254.169.254")]),
            ("six.test".into(), vec![ip("fd12:3456::1")]),
        ],
        ..FetchConfig::default()
    })
    .unwrap();
    let port = server.addr.port();
    for (name, addr) in
        [("rebind.test", "127.0.0.1"), ("inner.test", "10.1.2.3"), ("metadata.test", "169.254"), ("six.test", "fd12")]
    {
        let url = url::Url::parse(&format!("http://{name}:{port}/")).unwrap();
        let err = blocked(strict.fetch_page(&url).await);
        let message = err.to_string();
        assert!(
            message.starts_with(&format!(
                "The address guard refused {name}: the name does not resolve to a public address."
            )),
            "{message}"
        );
        assert!(!message.contains(addr), "{message}");
        // The error itself still knows, for the server's log.
        assert!(matches!(&err, Error::Blocked { addr: Some(a), .. } if a.to_string().starts_with(addr)), "{err:?}");
    }
    // An address given as such is named, with why it is refused.
    let literal = url::Url::parse(&format!("http://127.0.0.1:{port}/")).unwrap();
    assert_eq!(
        blocked(strict.fetch_page(&literal).await).to_string(),
        "The address guard refused 127.0.0.1, which is not a public address: loopback. The operator of this service \
         can allow it with --allow-target 127.0.0.1 (SEO_AUDIT_ALLOW_TARGETS)."
    );
    assert!(server.requests().is_empty());
}

#[tokio::test]
async fn a_huge_location_is_cut_in_the_message() {
    let huge = format!("ftp://{}/", "é".repeat(150_000));
    let loop_url = format!("/loop?{}", "q".repeat(1_500));
    let server = RawServer::start(
        "127.0.0.1",
        vec![
            ("/huge", redirect(302, &huge)),
            ("/typed", typed(&format!("image/{}", "p".repeat(10_000)), b"x")),
            (loop_url.as_str(), redirect(302, &loop_url)),
        ],
    )
    .await;
    let fetcher = loopback_fetcher(|_| {});
    let err = check_error(fetcher.fetch_page(&server.url("/huge")).await, "target_unreachable", 502);
    assert!(matches!(&err, Error::InvalidRedirect { .. }), "{err}");
    let message = err.to_string();
    assert!(message.starts_with("The target redirected to \"ftp://éé"), "{message}");
    assert!(message.contains("é…\""), "the cut is marked: {message}");
    assert!(message.chars().count() < fetch::MAX_ECHO_CHARS + 120, "{} chars", message.chars().count());

    let err = check_error(fetcher.fetch_page(&server.url("/typed")).await, "not_html", 422);
    assert!(err.to_string().chars().count() < fetch::MAX_ECHO_CHARS + 120, "{err}");
    let err = check_error(fetcher.fetch_page(&server.url(&loop_url)).await, "target_unreachable", 502);
    assert!(matches!(&err, Error::RedirectLoop { .. }), "{err}");
    assert!(err.to_string().contains("q…;"), "{err}");
}

#[tokio::test]
async fn a_crawl_hop_returns_redirects_unfollowed_and_skips_bodies_that_are_not_html() {
    let server = RawServer::start(
        "127.0.0.1",
        vec![
            ("/moved", redirect(301, "/page")),
            ("/to-private", redirect(302, "http://10.0.0.1/")),
            ("/page", html("<title>page</title>")),
            ("/file.pdf", typed("application/pdf", b"%PDF-1.7 not read")),
        ],
    )
    .await;
    let fetcher = loopback_fetcher(|_| {});
    let moved = fetcher.fetch_hop(&server.url("/moved")).await.unwrap();
    assert_eq!((moved.status, moved.header("location")), (301, Some("/page")));
    assert_eq!(moved.final_url, server.url("/moved"));
    assert!(moved.body.is_empty() && moved.redirect_chain.is_empty());
    // The hop to an inner address is the caller's next fetch, and the guard refuses it.
    let to_private = fetcher.fetch_hop(&server.url("/to-private")).await.unwrap();
    assert_eq!(to_private.header("location"), Some("http://10.0.0.1/"));
    blocked(fetcher.fetch_hop(&url::Url::parse("http://10.0.0.1/").unwrap()).await);
    let requested: Vec<String> = server.requests().into_iter().map(|r| r.path).collect();
    assert_eq!(requested, ["/moved", "/to-private"], "no redirect was followed");

    let pdf = fetcher.fetch_hop(&server.url("/file.pdf")).await.unwrap();
    assert_eq!((pdf.status, pdf.content_type.as_deref()), (200, Some("application/pdf")));
    assert!(pdf.body.is_empty(), "the body of a non-HTML answer is not read");
    let page = fetcher.fetch_hop(&server.url("/page")).await.unwrap();
    assert_eq!(page.body.as_ref(), b"<title>page</title>");
}

/// `check_link` asks HEAD, and GET where HEAD is refused: answered 405 or 501, or the
/// connection reset; redirects are followed hop by hop, each guarded, and a hop to an inner
/// address is refused before anything is sent to it.
#[tokio::test]
async fn check_link_asks_head_then_get_where_head_is_refused() {
    let server = test_support::ThreadServer::start(|r| {
        let head = r.method == "HEAD";
        Some(match r.path.as_str() {
            "/no-head" if head => test_support::status(405),
            "/no-head-501" if head => test_support::status(501),
            "/reset-head" if head => Reply::Reset,
            "/moved" => redirect(301, "/gone"),
            "/inward" => redirect(302, "http://10.0.0.1/admin"),
            "/gone" => test_support::status(404),
            _ => html("<p>fine</p>"),
        })
    });
    let fetcher = loopback_fetcher(|_| {});
    let at = |p: &str| url::Url::parse(&server.url(p)).unwrap();
    let limit = Duration::from_secs(5);
    for (path, status, by_get) in
        [("/ok", 200, false), ("/no-head", 200, true), ("/no-head-501", 200, true), ("/reset-head", 200, true)]
    {
        let answer = fetcher.check_link(&at(path), limit).await.unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!((answer.status, answer.by_get), (status, by_get), "{path}");
    }
    let methods = |path: &str| -> Vec<String> {
        server.requests().into_iter().filter(|r| r.path == path).map(|r| r.method).collect()
    };
    assert_eq!(methods("/ok"), ["HEAD"]);
    assert_eq!(methods("/no-head"), ["HEAD", "GET"]);
    assert_eq!(methods("/reset-head"), ["HEAD", "GET"]);

    let moved = fetcher.check_link(&at("/moved"), limit).await.unwrap();
    assert_eq!((moved.status, moved.redirect_chain.len()), (404, 1));
    assert_eq!((moved.redirect_chain[0].status, moved.final_url.path()), (301, "/gone"));
    let err = fetcher.check_link(&at("/inward"), limit).await.unwrap_err();
    assert!(err.is_blocked(), "{err}");
    let err = fetcher.check_link(&url::Url::parse("http://10.0.0.1/admin").unwrap(), limit).await.unwrap_err();
    assert!(err.is_blocked(), "{err}");
}
