//! Rendering through the guarded proxy: what a script builds is in the DOM, what the guard
//! refuses never reaches the inner server and is listed, and the pool stays bounded.

use std::path::PathBuf;
use std::time::Duration;

use render::{RenderConfig, RenderError, Renderer};
use test_support::{html, redirect, RawServer, Reply};
use url::Url;

/// A client-rendered page: the served HTML is an empty shell.
const SPA: &str = r#"<!DOCTYPE html><html><head><script>
document.addEventListener('DOMContentLoaded', () => {
  document.title = 'Built by script';
  const h1 = document.createElement('h1');
  h1.textContent = 'Rendered heading';
  document.body.appendChild(h1);
  const p = document.createElement('p');
  p.textContent = 'Words that exist only after JavaScript ran.';
  document.body.appendChild(p);
  const a = document.createElement('a');
  a.href = '/from-script';
  a.textContent = 'a link made by script';
  document.body.appendChild(a);
});
</script></head><body><div id="app"></div></body></html>"#;

/// The inner server the pages try to reach, and the site (allowed) that serves them.
struct Sites {
    inner: RawServer,
    site: RawServer,
}

async fn sites() -> Sites {
    let inner = RawServer::start("127.0.0.1", vec![("/secret", html("<p>inner secret</p>"))]).await;
    let secret = inner.url("/secret").to_string();
    let fetch_inner = format!(
        r#"<!DOCTYPE html><html><head><title>fetches inside</title></head><body><p id="out">waiting</p><script>
fetch('{secret}').then(r => r.text()).then(t => {{ document.getElementById('out').textContent = 'got ' + t; }})
  .catch(e => {{ document.getElementById('out').textContent = 'failed'; }});
</script></body></html>"#
    );
    let frame = r#"<!DOCTYPE html><html><head><title>framed</title></head><body><iframe src="/to-inner"></iframe></body></html>"#;
    let never = r#"<!DOCTYPE html><html><head><title>never settles</title></head><body><p>busy</p><script>
setInterval(() => { fetch('/tick?' + Date.now()).catch(() => {}); }, 100);
</script></body></html>"#;
    let routes: Vec<(&str, Reply)> = vec![
        ("/spa", html(SPA)),
        ("/fetch-inner", html(&fetch_inner)),
        ("/frame", html(frame)),
        ("/to-inner", redirect(302, &secret)),
        ("/never", html(never)),
    ];
    let site = RawServer::start("127.0.0.1", routes).await;
    Sites { inner, site }
}

/// Leaked so the routes of `RawServer::start` (borrowed `&str` paths) need no care.
fn fetcher_for(site: &RawServer) -> fetch::Fetcher {
    let config = fetch::FetchConfig { allow_targets: vec![site.addr.to_string()], ..fetch::FetchConfig::default() };
    fetch::Fetcher::new(config).unwrap()
}

fn renderer(chromium: PathBuf, fetcher: fetch::Fetcher, tabs: usize, queue: usize) -> Renderer {
    let config = RenderConfig { chromium: Some(chromium), tabs, queue, ..RenderConfig::default() };
    Renderer::new(config, fetcher).unwrap()
}

#[tokio::test]
async fn client_rendered_page_is_rendered_through_the_proxy() {
    let Some(chromium) = test_support::chromium_or_skip() else { return };
    let sites = sites().await;
    let renderer = renderer(chromium, fetcher_for(&sites.site), 2, 8);
    let url = sites.site.url("/spa");
    let page = renderer.render(&url).await.unwrap();
    assert!(page.html.starts_with("<!DOCTYPE html>"), "{}", &page.html[..page.html.len().min(200)]);
    assert!(page.html.contains("<title>Built by script</title>"), "{}", page.html);
    assert!(page.html.contains("<h1>Rendered heading</h1>"), "{}", page.html);
    assert!(page.html.contains("Words that exist only after JavaScript ran."));
    assert!(page.html.contains(r#"<a href="/from-script">"#));
    assert_eq!(page.final_url, url.to_string());
    assert_eq!(page.status, Some(200));
    assert!(!page.timed_out);
    assert!(page.blocked.is_empty(), "{:?}", page.blocked);
    // The document went through the proxy: the site saw the browser's request, and the
    // proxy counted it.
    assert!(page.requests >= 1);
    assert!(sites.site.requests().iter().any(|r| r.path == "/spa"));
}
