//! The service over HTTPS (`tls_cert`, `tls_key`; docs/DEPLOYMENT.md): audits over HTTP/2
//! and HTTP/1.1 as ALPN settles, with a client that trusts only the test's root, and the
//! links of the web pages in `https://` when no base URL is configured.

use std::sync::Arc;

use crate::common::*;
use test_support::tls::TestCerts;

/// The test server over HTTPS; its client trusts the test root alone.
async fn start_tls(tweak: impl FnOnce(&mut server::Config)) -> (TestServer, TestCerts) {
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let certs = TestCerts::generate(dir.path());
    let (chain, key) = (certs.chain.clone(), certs.key.clone());
    let mut t = TestServer::start_in(dir, |c| {
        c.tls_cert = Some(chain);
        c.tls_key = Some(key);
        tweak(c);
    })
    .await;
    t.client = certs.client().build().unwrap();
    (t, certs)
}

#[tokio::test]
async fn audits_over_https_with_http2_and_http1() {
    let site = fixture_site("server-basic").await;
    let (t, certs) = start_tls(|_| {}).await;
    assert_eq!(t.server.scheme(), "https");
    assert!(t.base.starts_with("https://127.0.0.1:"), "{}", t.base);
    for (client, version) in [
        (certs.client().build().unwrap(), reqwest::Version::HTTP_2),
        (certs.client().http1_only().build().unwrap(), reqwest::Version::HTTP_11),
    ] {
        let resp = client.get(t.audit_url(&site.url("/"), "")).send().await.unwrap();
        assert_eq!(resp.version(), version);
        let audit = Answer::from(resp).await;
        assert_eq!(audit.status, 200, "{}", audit.raw);
        audit.assert_common();
        assert_eq!(audit.body["page"]["final_url"], site.url("/"), "{}", audit.raw);
        assert_eq!(audit.body["page"]["status_code"], 200, "{}", audit.raw);
        assert!(audit.body["score"]["current"].as_u64().is_some_and(|s| s > 0), "{}", audit.raw);
    }
    // The audit is stored and read back over the same TLS port.
    let status = t.get("/api/status").await;
    assert_eq!((status.status, status.body["db"].as_str()), (200, Some("up")));
    // Plain HTTP on the HTTPS port gets no answer, and the service goes on.
    let plain = reqwest::Client::builder().no_proxy().build().unwrap();
    assert!(plain.get(format!("http://{}/api/status", t.server.local_addr())).send().await.is_err());
    assert_eq!(t.get("/api/status").await.status, 200);
}

#[tokio::test]
async fn without_a_base_url_the_pages_link_in_https() {
    // The base URL becomes the bound address with the scheme served.
    let (t, _certs) = start_tls(|_| {}).await;
    assert_eq!(t.server.state().config.base_url, t.base);
    let home = t.get("/").await;
    assert_eq!(home.status, 200);
    assert!(home.raw.contains(&format!("{}/widget.js", t.base)), "{}", home.raw);
    let iframe = t.get("/api/widget?domain=example.com&format=iframe").await;
    let href = format!(r#"href="{}/report/example.com""#, t.base);
    assert!(iframe.raw.contains(&href), "{href} not in {}", iframe.raw);

    // A state whose base URL is still the default: the links follow the host the request
    // names on loopback (`Host` over HTTP/1.1, `:authority` over HTTP/2), in https.
    let dir = tempfile::tempdir().unwrap();
    let certs = TestCerts::generate(dir.path());
    let mut config = test_config(dir.path());
    config.tls_cert = Some(certs.chain.clone());
    config.tls_key = Some(certs.key.clone());
    assert_eq!(config.base_url, server::Config::default().base_url);
    let state = server::AppState::new(config).unwrap();
    let served = server::serve_state(state, "127.0.0.1:0".parse().unwrap()).await.unwrap();
    let base = format!("https://localhost:{}", served.local_addr().port());
    for client in [certs.client().build().unwrap(), certs.client().http1_only().build().unwrap()] {
        let home = client.get(format!("{base}/")).send().await.unwrap().text().await.unwrap();
        assert!(home.contains(&format!("{base}/widget.js")), "{home}");
        assert!(!home.contains("http://127.0.0.1:8080"), "{home}");
    }
    served.shutdown().await;
}
