//! What a user reads when an audit cannot be done (docs/API.md, "Errors"): every kind of
//! fetch failure, met for real on loopback (a closed port, the raw misbehaving server, a
//! plain-HTTP server spoken to with `https://`, a name under `.invalid`, the address
//! guard), answered through the REST API with its status, code and a sentence of ours.

use crate::common;

use common::*;
use test_support::{redirect, typed, Pages, RawServer, Reply};

/// One failure: what is asked, and the status, code and message of the answer.
struct Case {
    what: &'static str,
    target: String,
    status: u16,
    code: &'static str,
    message: String,
}

#[tokio::test]
async fn every_fetch_failure_is_a_sentence_for_people() {
    let raw = RawServer::start(
        "127.0.0.1",
        vec![
            ("/reset", Reply::Reset),
            ("/stall", Reply::Stall),
            ("/big", Reply::Endless { headers: vec![("Content-Type".into(), "text/html".into())] }),
            ("/png", typed("image/png", b"\x89PNG\r\n")),
            ("/loop-a", redirect(302, "/loop-b")),
            ("/loop-b", redirect(302, "/loop-a")),
        ],
    )
    .await;
    let plain = Pages::start(vec![("/", "<title>plain</title>".to_string())]).await;
    let t = TestServer::start(|_| {}).await;
    let p = raw.addr.port();
    let closed = closed_port();
    let plain_port = plain.addr().port();
    let tls = format!(
        "The TLS handshake with 127.0.0.1:{plain_port} failed: it answered in plain HTTP, not HTTPS. If the site has \
         no working HTTPS, try http://127.0.0.1:{plain_port}/."
    );
    let cases = [
        Case {
            what: "refused",
            target: format!("http://127.0.0.1:{closed}/"),
            status: 502,
            code: "target_unreachable",
            message: format!(
                "The connection to 127.0.0.1:{closed} was refused: nothing accepts connections at that address and \
                 port. Check the address and port."
            ),
        },
        Case {
            what: "reset",
            target: raw.url("/reset").to_string(),
            status: 502,
            code: "target_unreachable",
            message: format!("The connection to 127.0.0.1:{p} was reset before the answer was complete."),
        },
        Case {
            what: "dns",
            target: "http://no-such-shop.invalid/".into(),
            status: 502,
            code: "target_unreachable",
            message: "Name lookup failed: no-such-shop.invalid is under .invalid, a domain that never resolves.".into(),
        },
        Case {
            what: "tls",
            target: format!("https://127.0.0.1:{plain_port}/"),
            status: 502,
            code: "target_unreachable",
            message: tls.clone(),
        },
        Case {
            // No scheme: https:// is tried first, and the answer says to try http://.
            what: "tls, scheme-less",
            target: format!("127.0.0.1:{plain_port}"),
            status: 502,
            code: "target_unreachable",
            message: tls,
        },
        Case {
            what: "timeout",
            target: raw.url("/stall").to_string(),
            status: 504,
            code: "target_timeout",
            message: format!("The answer from 127.0.0.1:{p} did not arrive within 0.8 seconds, the time limit."),
        },
        Case {
            what: "too large",
            target: raw.url("/big").to_string(),
            status: 422,
            code: "target_too_large",
            message: "The answer is larger than 16 KiB, the most this service reads (after decompression).".into(),
        },
        Case {
            what: "not html",
            target: raw.url("/png").to_string(),
            status: 422,
            code: "not_html",
            message: "The target answered with content type \"image/png\", not an HTML page; only HTML pages can be \
                      audited."
                .into(),
        },
        Case {
            what: "redirect loop",
            target: raw.url("/loop-a").to_string(),
            status: 502,
            code: "target_unreachable",
            message: format!(
                "The target's redirects lead in a loop, back to http://127.0.0.1:{p}/loop-a; the page cannot be reached."
            ),
        },
        Case {
            what: "blocked address",
            target: format!("http://127.0.0.2:{p}/"),
            status: 422,
            code: "blocked_target",
            message: "The address guard refused 127.0.0.2, which is not a public address: loopback. The operator of \
                      this service can allow it with --allow-target 127.0.0.2 (SEO_AUDIT_ALLOW_TARGETS)."
                .into(),
        },
        Case {
            // 127.0.0.1 is allowed, the name localhost is not: the answer names the setting.
            what: "blocked localhost",
            target: format!("http://localhost:{p}/"),
            status: 422,
            code: "blocked_target",
            message: "The address guard refused localhost: localhost names are not fetched, and an allowed 127.0.0.1 \
                      or ::1 does not cover them. The operator of this service can allow it with --allow-target \
                      localhost (SEO_AUDIT_ALLOW_TARGETS)."
                .into(),
        },
    ];
    for case in &cases {
        let a = Answer::from(t.client.get(t.audit_url(&case.target, "")).send().await.unwrap()).await;
        assert_eq!(
            (a.status, a.body["error"]["code"].as_str(), a.body["error"]["message"].as_str()),
            (case.status, Some(case.code), Some(case.message.as_str())),
            "{}: {}",
            case.what,
            a.raw
        );
        a.assert_error(case.status, case.code);
        validate_documented("GET", "/api/v1/audit", &a);
        for leak in ["os error", "client error", "error trying to connect", "InvalidContentType", "hyper", "reqwest"] {
            assert!(!a.raw.contains(leak), "{}: {}", case.what, a.raw);
        }
    }
    // The batch reports each item with the same code and sentence.
    let targets: Vec<&str> = cases.iter().map(|c| c.target.as_str()).take(3).collect();
    let batch = Answer::from(
        t.client.post(t.url("/api/v1/audit/batch")).json(&serde_json::json!({ "urls": targets })).send().await.unwrap(),
    )
    .await;
    assert_eq!(batch.status, 200, "{}", batch.raw);
    for (item, case) in batch.body["results"].as_array().unwrap().iter().zip(&cases) {
        assert_eq!(item["error"]["code"], case.code, "{}", batch.raw);
        assert_eq!(item["error"]["message"], case.message.as_str(), "{}", batch.raw);
    }
}

/// A batch that needs more units than the key's whole per-minute limit can never pass: 400
/// `invalid_request` without `Retry-After`, saying so and naming the limit; nothing is
/// charged, and a batch within the limit still passes.
#[tokio::test]
async fn a_batch_larger_than_the_whole_limit_is_refused_for_good() {
    away_from_minute_boundary().await;
    let site = fixture_site("server-basic").await;
    let t = TestServer::start(|c| c.rate_limits.anonymous = 2).await;
    let (key, _) = t.key(|k| k.rate_limit = Some(3));
    let urls: Vec<String> = (0..4).map(|i| site.url(&format!("/index.html?v={i}"))).collect();
    let batch = |urls: &[String], key: Option<&str>| {
        let mut request = t.client.post(t.url("/api/v1/audit/batch")).json(&serde_json::json!({ "urls": urls }));
        if let Some(key) = key {
            request = request.header("x-api-key", key);
        }
        async move { Answer::from(request.send().await.unwrap()).await }
    };

    let a = batch(&urls, Some(&key)).await;
    a.assert_error(400, "invalid_request");
    validate_documented("POST", "/api/v1/audit/batch", &a);
    assert_eq!(a.header("retry-after"), None, "waiting cannot help: {:?}", a.headers);
    assert_eq!(
        a.body["error"]["message"],
        "This batch is larger than the rate limit: its 4 distinct URLs need 4 requests of quota, more than this \
         key's whole limit of 3 per minute, so it can never pass as sent. Send at most 3 distinct URLs per batch."
    );
    assert_eq!(a.body["error"]["details"], serde_json::json!({ "parameter": "urls", "limit": 3, "requested": 4 }));
    assert_eq!((a.header("x-ratelimit-limit"), a.header("x-ratelimit-remaining")), (Some("3"), Some("3")));

    // Duplicates count once: four URLs, three distinct, pass and use the whole minute.
    let mut within = urls[..3].to_vec();
    within.push(urls[0].clone());
    let ok = batch(&within, Some(&key)).await;
    assert_eq!((ok.status, ok.body["succeeded"].as_u64()), (200, Some(4)), "{}", ok.raw);
    assert_eq!(ok.header("x-ratelimit-remaining"), Some("0"));

    // Anonymous callers are told the same, and that a key raises the limit.
    let anonymous = batch(&urls[..3], None).await;
    anonymous.assert_error(400, "invalid_request");
    assert_eq!(anonymous.header("retry-after"), None);
    let message = anonymous.body["error"]["message"].as_str().unwrap();
    assert!(message.contains("more than the whole anonymous limit of 2 per minute"), "{message}");
    assert!(message.ends_with("An API key raises the limit."), "{message}");
}
