//! Helpers of the web-surface tests: a site of in-memory pages on loopback that counts the
//! requests of each path, the hostile fixture page, and OpenAPI checks for non-JSON answers.

/// Pages served on 127.0.0.1 that count their requests; reach them as
/// `http://localhost:PORT/...` so their host is a domain name (the report and badge routes
/// take domains, not addresses).
pub use test_support::Pages as Site;

/// A plain, decent home page.
pub fn home_page() -> String {
    r#"<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Localhost Bakery: sourdough and rye</title>
<meta name="description" content="Fresh sourdough, rye and pastries baked every morning in the old town; order online or visit the shop.">
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><header><nav><a href="/menu">Menu</a></nav></header><main><h1>Localhost Bakery</h1>
<p>We bake sourdough and rye bread every morning with flour from local mills, and pastries on weekends.</p>
<img src="/bread.jpg"></main></body></html>"#
        .to_string()
}

/// Would set the document title when run.
pub const TITLE_PAYLOAD: &str = "<script>document.title='PWNED'</script>";
/// Would mark the body when run, as an attribute breakout.
pub const ATTR_PAYLOAD: &str = r#""><svg onload="document.body.setAttribute('data-pwned','1')">"#;
/// Would mark the body when run, as an element.
pub const IMG_PAYLOAD: &str = r#"<img src=x onerror="document.body.setAttribute('data-pwned','2')">"#;

/// A page whose title, description, headings and image text carry markup payloads, written
/// as character references so the audited page's own DOM holds them as text (what a page
/// with such text in its title really has).
pub fn hostile_page() -> String {
    let enc = |s: &str| s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;");
    format!(
        r#"<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Hostile {t} title</title>
<meta name="description" content="Desc {a} {i}">
<meta property="og:title" content="{a}">
<link rel="canonical" href="http://localhost/{a}"></head>
<body><h1>Heading {t} {a}</h1><h2>{i}</h2><p>Short text.</p><img src="/x.png" alt="{a}"></body></html>"#,
        t = enc(TITLE_PAYLOAD),
        a = enc(ATTR_PAYLOAD),
        i = enc(IMG_PAYLOAD),
    )
}

/// The OpenAPI document describes this (method, path, status) with this media type.
pub fn assert_documented_media(method: &str, path: &str, status: u16, media: &str) {
    let doc = server::openapi_document();
    let op = &doc["paths"][path][method.to_ascii_lowercase()];
    assert!(op.is_object(), "{method} {path} is not documented");
    let resp = &op["responses"][status.to_string()];
    assert!(resp.is_object(), "status {status} of {method} {path} is not documented");
    assert!(resp["content"][media].is_object(), "{media} of {status} of {method} {path} is not documented: {resp}");
}

/// The value of `name="..."` in the first tag of `markup` that starts with `tag_start`.
pub fn attr_of<'a>(markup: &'a str, tag_start: &str, name: &str) -> Option<&'a str> {
    let at = markup.find(tag_start)?;
    let tag = &markup[at..at + markup[at..].find('>')?];
    let key = format!(" {name}=\"");
    let start = tag.find(&key)? + key.len();
    let len = tag[start..].find('"')?;
    Some(&tag[start..start + len])
}
