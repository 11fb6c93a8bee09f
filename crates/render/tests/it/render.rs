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
    let ws_inner = format!(
        r#"<!DOCTYPE html><html><head><title>socket</title></head><body><p id="ws">waiting</p><script>
const ws = new WebSocket('ws://{}/');
ws.onopen = () => {{ document.getElementById('ws').textContent = 'open'; }};
ws.onerror = () => {{ document.getElementById('ws').textContent = 'refused'; }};
</script></body></html>"#,
        inner.addr
    );
    let hop = r#"<!DOCTYPE html><html><head><script>location.replace('/spa');</script></head><body></body></html>"#;
    let routes: Vec<(&str, Reply)> = vec![
        ("/spa", html(SPA)),
        ("/ws-inner", html(&ws_inner)),
        ("/hop", html(hop)),
        ("/stall", Reply::Stall),
        ("/fetch-inner", html(&fetch_inner)),
        ("/frame", html(frame)),
        ("/to-inner", redirect(302, &secret)),
        ("/never", html(never)),
    ];
    let site = RawServer::start("127.0.0.1", routes).await;
    Sites { inner, site }
}

/// The bytes of the file the download pages offer, and its name.
const DOWNLOAD_MARKER: &str = "seo-audit-download-marker-7f3a9c";
const DOWNLOAD_NAME: &str = "seo-audit-download-7f3a9c.bin";

/// The pages of the safety tests: downloads, storage, `file:` URLs.
async fn safety_site() -> RawServer {
    let attachment = || Reply::Full {
        status: 200,
        headers: vec![
            ("Content-Type".into(), "application/octet-stream".into()),
            ("Content-Disposition".into(), format!("attachment; filename=\"{DOWNLOAD_NAME}\"")),
        ],
        body: DOWNLOAD_MARKER.repeat(100).into_bytes(),
    };
    let click = format!(
        r#"<!DOCTYPE html><html><head><title>downloads</title></head><body>
<a id="a" href="/file.bin" download="{DOWNLOAD_NAME}">file</a>
<a id="b" href="data:application/octet-stream,{DOWNLOAD_MARKER}" download="{DOWNLOAD_NAME}">data</a>
<script>document.getElementById('a').click(); document.getElementById('b').click();
const blob = new Blob(['{DOWNLOAD_MARKER}'], {{type: 'application/octet-stream'}});
const c = document.createElement('a'); c.href = URL.createObjectURL(blob); c.download = '{DOWNLOAD_NAME}';
document.body.appendChild(c); c.click();
setTimeout(() => {{ location.href = '/file.bin'; }}, 50);</script></body></html>"#
    );
    // Reads what an earlier render could have left, then leaves a cookie and storage.
    let storage = r#"<!DOCTYPE html><html><head><title>storage</title></head><body><p id="seen">?</p><script>
let stored = null; try { stored = localStorage.getItem('k'); } catch (e) { stored = 'error'; }
let session = null; try { session = sessionStorage.getItem('k'); } catch (e) { session = 'error'; }
document.getElementById('seen').textContent = 'cookie=[' + document.cookie + '] local=[' + stored + '] session=[' + session + ']';
document.cookie = 'script=1; max-age=3600; path=/';
try { localStorage.setItem('k', 'left'); sessionStorage.setItem('k', 'left'); } catch (e) {}
</script></body></html>"#;
    let storage_reply = Reply::Full {
        status: 200,
        headers: vec![
            ("Content-Type".into(), "text/html; charset=utf-8".into()),
            ("Set-Cookie".into(), "server=1; Max-Age=3600; Path=/".into()),
        ],
        body: storage.as_bytes().to_vec(),
    };
    let file_frame = r#"<!DOCTYPE html><html><head><title>file frame</title></head><body>
<iframe id="f" src="file:///etc/passwd"></iframe></body></html>"#;
    let file_fetch = r#"<!DOCTYPE html><html><head><title>file fetch</title></head><body>
<p id="out">waiting</p><script>
fetch('file:///etc/passwd').then(r => r.text()).then(t => { document.getElementById('out').textContent = t; })
  .catch(() => { document.getElementById('out').textContent = 'refused'; });
</script></body></html>"#;
    let file_nav = r#"<!DOCTYPE html><html><head><title>file navigation</title><script>
location.href = 'file:///etc/passwd';</script></head><body><p>leaving</p></body></html>"#;
    let routes: Vec<(&str, Reply)> = vec![
        ("/click", html(&click)),
        ("/file.bin", attachment()),
        ("/attachment", attachment()),
        ("/storage", storage_reply),
        ("/file-frame", html(file_frame)),
        ("/file-fetch", html(file_fetch)),
        ("/file-nav", html(file_nav)),
    ];
    RawServer::start("127.0.0.1", routes).await
}

/// Every file under `dir`, recursively.
fn files_under(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            match entry.file_type() {
                Ok(t) if t.is_dir() => todo.push(path),
                Ok(t) if t.is_file() => out.push(path),
                _ => {}
            }
        }
    }
    out
}

/// Files under `dirs` named like the download, or holding its bytes.
fn downloaded(dirs: &[PathBuf]) -> Vec<PathBuf> {
    dirs.iter()
        .flat_map(|d| files_under(d))
        .filter(|path| {
            let named = path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.contains("seo-audit-download"));
            let holds = std::fs::read(path)
                .is_ok_and(|bytes| bytes.windows(DOWNLOAD_MARKER.len()).any(|w| w == DOWNLOAD_MARKER.as_bytes()));
            named || holds
        })
        .collect()
}

/// A fetcher that may reach the site's port on loopback and nothing else there.
fn fetcher_for(site: &RawServer) -> fetch::Fetcher {
    let config = fetch::FetchConfig { allow_targets: vec![site.addr.to_string()], ..fetch::FetchConfig::default() };
    fetch::Fetcher::new(config).unwrap()
}

fn renderer(chromium: PathBuf, fetcher: fetch::Fetcher, tabs: usize, queue: usize) -> Renderer {
    let config = RenderConfig { chromium: Some(chromium), tabs, queue, ..RenderConfig::default() };
    Renderer::new(config, fetcher).unwrap()
}

/// The guard's refusal of a loopback address, as the fetcher words it.
fn assert_guard_reason(reason: &str) {
    assert!(reason.contains("address guard refused 127.0.0.1"), "{reason}");
    assert!(reason.contains("loopback"), "{reason}");
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

#[tokio::test]
async fn a_script_fetching_an_inner_address_is_blocked_and_listed() {
    let Some(chromium) = test_support::chromium_or_skip() else { return };
    let sites = sites().await;
    let renderer = renderer(chromium, fetcher_for(&sites.site), 2, 8);
    let page = renderer.render(&sites.site.url("/fetch-inner")).await.unwrap();
    let secret = sites.inner.url("/secret").to_string();
    let listed: Vec<&str> = page.blocked.iter().map(|b| b.url.as_str()).collect();
    assert_eq!(listed, vec![secret.as_str()], "{:?}", page.blocked);
    assert_guard_reason(&page.blocked[0].reason);
    // The script saw a failure, never the inner answer, and the inner server saw nothing.
    assert!(!page.html.contains("inner secret"), "{}", page.html);
    assert!(page.html.contains(r#"<p id="out">failed</p>"#), "{}", page.html);
    assert!(sites.inner.requests().is_empty(), "{:?}", sites.inner.requests());
    assert!(page.requests >= 2);
}

#[tokio::test]
async fn a_frame_redirected_to_an_inner_address_is_blocked_and_listed() {
    let Some(chromium) = test_support::chromium_or_skip() else { return };
    let sites = sites().await;
    let renderer = renderer(chromium, fetcher_for(&sites.site), 2, 8);
    let page = renderer.render(&sites.site.url("/frame")).await.unwrap();
    let secret = sites.inner.url("/secret").to_string();
    let blocked = page.blocked.iter().find(|b| b.url == secret);
    assert!(blocked.is_some(), "{:?}", page.blocked);
    assert_guard_reason(&blocked.unwrap().reason);
    // The frame's own URL was fetched from the site; its redirect target never was.
    assert!(sites.site.requests().iter().any(|r| r.path == "/to-inner"));
    assert!(sites.inner.requests().is_empty(), "{:?}", sites.inner.requests());
    assert!(page.html.contains("<title>framed</title>"));
}

#[tokio::test]
async fn a_document_redirected_to_an_inner_address_is_a_fetch_error() {
    let Some(chromium) = test_support::chromium_or_skip() else { return };
    let sites = sites().await;
    let renderer = renderer(chromium, fetcher_for(&sites.site), 2, 8);
    let err = renderer.render(&sites.site.url("/to-inner")).await.unwrap_err();
    match err {
        RenderError::Fetch(err) => {
            assert!(err.is_blocked(), "{err:?}");
            assert_guard_reason(&err.to_string());
        }
        other => panic!("expected a blocked fetch, got {other:?}"),
    }
    assert!(sites.inner.requests().is_empty(), "{:?}", sites.inner.requests());
    // The renderer is still usable.
    assert!(renderer.render(&sites.site.url("/spa")).await.is_ok());
}

#[tokio::test]
async fn an_inner_document_is_refused_before_the_browser_is_asked() {
    let Some(chromium) = test_support::chromium_or_skip() else { return };
    let sites = sites().await;
    let renderer = renderer(chromium, fetcher_for(&sites.site), 2, 8);
    let err = renderer.render(&sites.inner.url("/secret")).await.unwrap_err();
    assert!(matches!(&err, RenderError::Fetch(e) if e.is_blocked()), "{err:?}");
    assert!(sites.inner.requests().is_empty());
    // No browser was started for it.
    assert_eq!(renderer.browser_pid().await, None);
}

#[tokio::test]
async fn file_and_data_urls_are_refused() {
    let Some(chromium) = test_support::chromium_or_skip() else { return };
    let sites = sites().await;
    let renderer = renderer(chromium, fetcher_for(&sites.site), 2, 8);
    for raw in ["file:///etc/passwd", "data:text/html,<h1>hi</h1>", "javascript:alert(1)"] {
        let err = renderer.render(&Url::parse(raw).unwrap()).await.unwrap_err();
        assert!(matches!(&err, RenderError::Fetch(e) if e.is_invalid_url()), "{raw}: {err:?}");
    }
    assert_eq!(renderer.browser_pid().await, None);
}

#[tokio::test]
async fn a_page_that_never_settles_ends_at_the_time_limit() {
    let Some(chromium) = test_support::chromium_or_skip() else { return };
    let sites = sites().await;
    let config = RenderConfig { chromium: Some(chromium), timeout: Duration::from_secs(3), ..RenderConfig::default() };
    let renderer = Renderer::new(config, fetcher_for(&sites.site)).unwrap();
    let page = renderer.render(&sites.site.url("/never")).await.unwrap();
    assert!(page.timed_out);
    assert!(page.html.contains("<title>never settles</title>"), "{}", page.html);
    assert!(page.html.contains("<p>busy</p>"));
    // The loop kept asking.
    assert!(sites.site.requests().iter().filter(|r| r.path.starts_with("/tick")).count() >= 2);
}

#[tokio::test]
async fn one_render_more_than_tabs_and_queue_is_overloaded() {
    let Some(chromium) = test_support::chromium_or_skip() else { return };
    let sites = sites().await;
    let config = RenderConfig {
        chromium: Some(chromium),
        tabs: 1,
        queue: 0,
        timeout: Duration::from_secs(3),
        ..RenderConfig::default()
    };
    let renderer = Renderer::new(config, fetcher_for(&sites.site)).unwrap();
    let busy = renderer.clone();
    let never = sites.site.url("/never");
    let first = tokio::spawn(async move { busy.render(&never).await });
    while renderer.in_flight() == 0 {
        tokio::task::yield_now().await;
    }
    let second = renderer.render(&sites.site.url("/spa")).await;
    assert!(matches!(second, Err(RenderError::Overloaded)), "{second:?}");
    assert!(first.await.unwrap().unwrap().timed_out);
    // The place is free again.
    assert_eq!(renderer.in_flight(), 0);
    assert!(renderer.render(&sites.site.url("/spa")).await.is_ok());
}

#[tokio::test]
async fn a_killed_browser_is_restarted_for_the_next_render() {
    let Some(chromium) = test_support::chromium_or_skip() else { return };
    let sites = sites().await;
    let renderer = renderer(chromium, fetcher_for(&sites.site), 2, 8);
    renderer.render(&sites.site.url("/spa")).await.unwrap();
    let pid = renderer.browser_pid().await.expect("a browser runs");
    let target = rustix::process::Pid::from_raw(i32::try_from(pid).unwrap()).unwrap();
    rustix::process::kill_process(target, rustix::process::Signal::KILL).unwrap();
    let page = renderer.render(&sites.site.url("/spa")).await.unwrap();
    assert!(page.html.contains("<h1>Rendered heading</h1>"));
    let new_pid = renderer.browser_pid().await.expect("a browser runs again");
    assert_ne!(new_pid, pid);
}

#[tokio::test]
async fn a_browser_over_its_memory_limit_is_restarted() {
    let Some(chromium) = test_support::chromium_or_skip() else { return };
    let sites = sites().await;
    let config = RenderConfig { chromium: Some(chromium), memory_limit_bytes: 1, ..RenderConfig::default() };
    let renderer = Renderer::new(config, fetcher_for(&sites.site)).unwrap();
    // Any browser uses more than one byte: the watchdog ends the render while the page runs
    // (not only after it) and lets the browser go.
    for _ in 0..2 {
        let err = renderer.render(&sites.site.url("/spa")).await.unwrap_err();
        assert!(err.to_string().contains("over its limit"), "{err}");
        assert_eq!(renderer.browser_pid().await, None, "the browser over its limit is let go");
    }
}

#[test]
fn no_chromium_is_not_configured() {
    let fetcher = fetch::Fetcher::new(fetch::FetchConfig::default()).unwrap();
    let config = RenderConfig { chromium: Some("/nonexistent/chromium".into()), ..RenderConfig::default() };
    let err = Renderer::new(config, fetcher).unwrap_err();
    match err {
        RenderError::NotConfigured(message) => {
            assert!(message.contains("install Debian's `chromium` package"), "{message}");
            assert!(message.contains("`chromium` setting"), "{message}");
        }
        other => panic!("expected NotConfigured, got {other:?}"),
    }
}

#[tokio::test]
async fn a_websocket_to_an_inner_address_is_blocked_and_listed() {
    let Some(chromium) = test_support::chromium_or_skip() else { return };
    let sites = sites().await;
    let renderer = renderer(chromium, fetcher_for(&sites.site), 2, 8);
    let page = renderer.render(&sites.site.url("/ws-inner")).await.unwrap();
    // Chromium tunnels websockets (CONNECT); the proxy lists a tunnel as https://host:port.
    let tunnel = format!("https://{}", sites.inner.addr);
    let blocked = page.blocked.iter().find(|b| b.url == tunnel);
    assert!(blocked.is_some(), "{:?}", page.blocked);
    assert_guard_reason(&blocked.unwrap().reason);
    assert!(page.html.contains(r#"<p id="ws">refused</p>"#), "{}", page.html);
    assert!(sites.inner.requests().is_empty(), "{:?}", sites.inner.requests());
}

#[tokio::test]
async fn the_final_url_follows_a_client_side_navigation() {
    let Some(chromium) = test_support::chromium_or_skip() else { return };
    let sites = sites().await;
    let renderer = renderer(chromium, fetcher_for(&sites.site), 2, 8);
    let page = renderer.render(&sites.site.url("/hop")).await.unwrap();
    assert_eq!(page.final_url, sites.site.url("/spa").to_string());
    assert!(page.html.contains("<h1>Rendered heading</h1>"), "{}", page.html);
    assert!(!page.timed_out);
}

#[tokio::test]
async fn a_document_that_never_arrives_is_a_timeout() {
    let Some(chromium) = test_support::chromium_or_skip() else { return };
    let sites = sites().await;
    let config = RenderConfig { chromium: Some(chromium), timeout: Duration::from_secs(2), ..RenderConfig::default() };
    let renderer = Renderer::new(config, fetcher_for(&sites.site)).unwrap();
    let err = renderer.render(&sites.site.url("/stall")).await.unwrap_err();
    assert!(matches!(err, RenderError::Timeout(limit) if limit == Duration::from_secs(2)), "{err:?}");
    // The pool is free and the browser still serves.
    assert_eq!(renderer.in_flight(), 0);
    assert!(renderer.render(&sites.site.url("/spa")).await.is_ok());
}

#[test]
fn places_are_reserved_all_or_none_and_given_back_when_dropped() {
    // Reserving starts no browser: a binary that exists is enough.
    let fetcher = fetch::Fetcher::new(fetch::FetchConfig::default()).unwrap();
    let config = RenderConfig { chromium: Some("/bin/sh".into()), tabs: 1, queue: 2, ..RenderConfig::default() };
    let renderer = Renderer::new(config, fetcher).unwrap();
    assert_eq!(renderer.free_places(), 3);

    let two = renderer.try_reserve(2).unwrap();
    assert_eq!((two.len(), renderer.in_flight(), renderer.free_places()), (2, 2, 1));
    // Two more do not fit: none is taken.
    assert!(matches!(renderer.try_reserve(2), Err(RenderError::Overloaded)));
    assert_eq!(renderer.in_flight(), 2);
    let last = renderer.reserve().unwrap();
    assert!(matches!(renderer.reserve(), Err(RenderError::Overloaded)));
    assert!(matches!(renderer.try_reserve(usize::MAX), Err(RenderError::Overloaded)));

    drop(two);
    assert_eq!(renderer.in_flight(), 1);
    assert_eq!(renderer.try_reserve(2).unwrap().len(), 2);
    // Those two went with the statement; `last` still holds its place.
    assert_eq!(renderer.in_flight(), 1);
    drop(last);
    assert_eq!((renderer.in_flight(), renderer.free_places()), (0, 3));
    assert!(renderer.try_reserve(0).unwrap().is_empty());
}

#[tokio::test]
async fn a_reserved_place_renders_and_is_given_back() {
    let Some(chromium) = test_support::chromium_or_skip() else { return };
    let sites = sites().await;
    let renderer = renderer(chromium, fetcher_for(&sites.site), 1, 0);
    let place = renderer.reserve().unwrap();
    // The pool's only place is taken: a render without one is refused at once.
    let refused = renderer.render(&sites.site.url("/spa")).await;
    assert!(matches!(refused, Err(RenderError::Overloaded)), "{refused:?}");
    let page = place.render(&sites.site.url("/spa")).await.unwrap();
    assert!(page.html.contains("<h1>Rendered heading</h1>"), "{}", page.html);
    assert_eq!(renderer.in_flight(), 0);
}

#[tokio::test]
async fn a_page_that_downloads_leaves_no_file() {
    let Some(chromium) = test_support::chromium_or_skip() else { return };
    let site = safety_site().await;
    let renderer = renderer(chromium, fetcher_for(&site), 1, 0);
    // A script that clicks download links (a URL, a data: URL, a blob) and then navigates to
    // an attachment.
    let page = renderer.render(&site.url("/click")).await;
    let profile = renderer.profile_dir().await.expect("the browser runs");
    // A document that is itself an attachment.
    let attachment = renderer.render(&site.url("/attachment")).await;
    // The attachment's bytes are never a DOM (the page's own source names the marker, so only
    // the attachment is looked at).
    assert!(attachment.is_err() || !attachment.as_ref().unwrap().html.contains(DOWNLOAD_MARKER), "{attachment:?}");
    drop(page);
    // Give a download that would have started time to be written.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let mut dirs = vec![profile.clone()];
    if let Some(home) = std::env::var_os("HOME") {
        dirs.push(PathBuf::from(home).join("Downloads"));
    }
    assert!(!files_under(&profile).is_empty(), "the profile is where the browser writes: {}", profile.display());
    let found = downloaded(&dirs);
    assert!(found.is_empty(), "downloaded files: {found:?}");
    // The attachment was asked for (so a download was attempted) and denied.
    assert!(site.requests().iter().any(|r| r.path == "/attachment"));
}

#[tokio::test]
async fn cookies_and_storage_do_not_outlive_their_render() {
    let Some(chromium) = test_support::chromium_or_skip() else { return };
    let site = safety_site().await;
    let renderer = renderer(chromium, fetcher_for(&site), 1, 0);
    let first = renderer.render(&site.url("/storage")).await.unwrap();
    assert!(first.html.contains("cookie=[server=1] local=[null] session=[null]"), "{}", first.html);
    let pid = renderer.browser_pid().await;
    let second = renderer.render(&site.url("/storage")).await.unwrap();
    // The same browser, a fresh context: nothing the first render left is there.
    assert_eq!(renderer.browser_pid().await, pid);
    assert!(second.html.contains("cookie=[server=1] local=[null] session=[null]"), "{}", second.html);
    let asked: Vec<Option<String>> = site
        .requests()
        .iter()
        .filter(|r| r.path == "/storage")
        .map(|r| r.header("cookie").map(str::to_string))
        .collect();
    assert_eq!(asked, [None, None], "no cookie was sent back");
}

#[tokio::test]
async fn file_urls_in_a_page_get_nothing() {
    let Some(chromium) = test_support::chromium_or_skip() else { return };
    let passwd = std::fs::read_to_string("/etc/passwd").unwrap_or_default();
    let Some(first_line) = passwd.lines().next().filter(|l| !l.is_empty()) else {
        eprintln!("skipped: no /etc/passwd to look for");
        return;
    };
    let site = safety_site().await;
    let renderer = renderer(chromium, fetcher_for(&site), 1, 0);
    // A script that fetches it: refused.
    let fetched = renderer.render(&site.url("/file-fetch")).await.unwrap();
    assert!(!fetched.html.contains(first_line), "{}", fetched.html);
    assert!(fetched.html.contains(r#"<p id="out">refused</p>"#), "{}", fetched.html);
    // A frame of it: Chromium refuses to load it, and the navigation of such a page does not
    // finish within the time limit, so the render is a timeout (504 `target_timeout` for an
    // audit); either way nothing of the file is shown.
    match renderer.render(&site.url("/file-frame")).await {
        Ok(framed) => assert!(!framed.html.contains(first_line), "{}", framed.html),
        Err(err) => assert!(matches!(err, RenderError::Timeout(_)), "{err:?}"),
    }
    // A script that navigates the document there.
    match renderer.render(&site.url("/file-nav")).await {
        Ok(page) => {
            assert!(!page.html.contains(first_line), "{}", page.html);
            assert!(!page.final_url.starts_with("file:"), "{}", page.final_url);
        }
        Err(err) => assert!(!err.to_string().contains(first_line), "{err}"),
    }
}
