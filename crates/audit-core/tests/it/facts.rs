//! Page facts as docs/API.md ("The audit result") defines them, one small page per case. Every case
//! goes through [`check`]: the expected value is a JSON object whose keys are compared with the
//! serialised [`Page`] (plus a few derived figures, see [`facts`]); keys not named are not
//! compared.

use audit_core::{HttpFacts, Page};
use serde_json::{json, Value};

const URL: &str = "https://example.com/dir/page";

/// The serialised page plus the derived figures the audit result reports.
fn facts(page: &Page) -> Value {
    let mut v = serde_json::to_value(page).expect("Page serialises");
    let (internal, external) = page.link_counts();
    if let Some(obj) = v.as_object_mut() {
        obj.insert("link_counts".into(), json!([internal, external]));
        obj.insert("images_total".into(), json!(page.images.len()));
        obj.insert("images_missing_alt".into(), json!(page.images_missing_alt()));
        obj.insert("canonical_resolved".into(), json!(page.canonical()));
        obj.insert("noindex".into(), json!(page.is_noindex()));
        obj.insert("nofollow".into(), json!(page.is_nofollow()));
        obj.insert("json_ld_types".into(), json!(page.json_ld_types()));
    }
    v
}

fn check_page(url: &str, bytes: &[u8], http: HttpFacts, expected: Value) {
    let page = Page::parse(url, bytes, http);
    let got = facts(&page);
    let Some(expected) = expected.as_object() else { panic!("expected must be an object") };
    for (key, want) in expected {
        assert_eq!(&got[key], want, "fact {key:?} of {:?}", String::from_utf8_lossy(bytes));
    }
}

fn check(html: &str, expected: Value) {
    check_page(URL, html.as_bytes(), HttpFacts::default(), expected);
}

/// Bytes with an optional `Content-Type` header.
fn check_bytes(bytes: &[u8], content_type: Option<&str>, expected: Value) {
    let headers = content_type.map(|ct| vec![("content-type".to_string(), ct.to_string())]).unwrap_or_default();
    let mut http = HttpFacts::new();
    http.headers = headers;
    check_page(URL, bytes, http, expected);
}

#[test]
fn title() {
    check("<title>  Oak \n\t chairs  </title>", json!({"title": "Oak chairs", "titles_in_head": 1}));
    check(
        "<head><title>Head</title></head><body><svg><title>Icon</title></svg><title>Body</title>",
        json!({"title": "Head", "titles_in_head": 1}),
    );
    check("<body><svg><title>Icon only</title></svg><p>text</p>", json!({"title": "", "titles_in_head": 0}));
    check("<head><title>One</title><title>Two</title></head>", json!({"title": "One", "titles_in_head": 2}));
    check("<p>no title</p>", json!({"title": ""}));
    check("<title>Caf&eacute; &amp; bar</title>", json!({"title": "Café & bar"}));
}

#[test]
fn meta_description() {
    check(
        r#"<meta NAME="Description" content="Fresh bread daily.">"#,
        json!({"meta_descriptions": ["Fresh bread daily."]}),
    );
    check(
        r#"<meta name="description" content="one"><meta name=" description " content="two">"#,
        json!({"meta_descriptions": ["one", "two"]}),
    );
    check(r#"<meta property="description" content="x">"#, json!({"meta_descriptions": []}));
    check(r#"<meta name="description">"#, json!({"meta_descriptions": [], "head_meta_description": ""}));
    // Only the head is read for metadata: after content the head cannot hold, the parser is in
    // the body, and so is a later <meta>.
    check(
        r#"<head><title>T</title></head><body><p>x</p><meta name="description" content="late"></body>"#,
        json!({"meta_descriptions": ["late"], "head_meta_description": null}),
    );
    check(
        r#"<title>T</title><div>content</div><meta name="description" content="late">"#,
        json!({"meta_descriptions": ["late"], "head_meta_description": null}),
    );
    check(
        r#"<meta name="description" content=""><meta name="description" content="second">"#,
        json!({"head_meta_description": ""}),
    );
}

#[test]
fn h1() {
    check("<h1>  Hello <span>big</span>\n world </h1>", json!({"h1s": ["Hello big world"]}));
    check("<h1>A\u{a0}B</h1><h1></h1>", json!({"h1s": ["A B", ""]}));
    check("<h2>Only h2</h2>", json!({"h1s": []}));
    check(r#"<h1><img src="logo.png" alt="Logo"></h1>"#, json!({"h1s": [""]}));
}

#[test]
fn canonical() {
    check(
        r#"<head><base href="/b/"><link rel="Canonical" href="c"></head>"#,
        json!({"canonicals": ["c"], "canonical_resolved": "https://example.com/b/c"}),
    );
    check(
        r#"<link rel="alternate canonical" href="https://example.com/x"><link rel="canonical" href="/y">"#,
        json!({"canonicals": ["https://example.com/x", "/y"], "canonical_resolved": "https://example.com/x"}),
    );
    check(r#"<link rel="canonical" href="../up">"#, json!({"canonical_resolved": "https://example.com/up"}));
    // Search engines read the head only: a canonical after body content is not the head's.
    check(
        r#"<head><link rel="canonical" href="/a"></head><body><p>x</p><link rel="canonical" href="/b"></body>"#,
        json!({"canonicals": ["/a", "/b"], "head_canonicals": ["/a"]}),
    );
    check(r#"<link rel="alternate" href="/feed.xml">"#, json!({"canonicals": [], "canonical_resolved": ""}));
}

#[test]
fn images() {
    check(
        r#"<img src="a.jpg" alt=""><img src="b.jpg"><img src="c.jpg" alt="Chair"><img src="d.jpg" alt>"#,
        json!({"images_total": 4, "images_missing_alt": 1}),
    );
    check(
        r#"<img src="a.jpg" width="10" height="20" loading="lazy">"#,
        json!({"images": [{"src": "a.jpg", "alt": null, "width": "10", "height": "20", "loading": "lazy",
            "role": null, "labelled": false, "hidden": false, "in_noscript": false}]}),
    );
    // What leaves an image out of `image-alt-missing`: a role, another name, hidden markup.
    check(
        r#"<img src="p" role=" Presentation "><img src="l" aria-label="Logo"><img src="t" title=" ">
           <div aria-hidden="true"><img src="h"></div><img src="s" style="DISPLAY : none !important">"#,
        json!({"images": [
            {"src": "p", "alt": null, "width": null, "height": null, "loading": null, "role": "presentation",
             "labelled": false, "hidden": false, "in_noscript": false},
            {"src": "l", "alt": null, "width": null, "height": null, "loading": null, "role": null,
             "labelled": true, "hidden": false, "in_noscript": false},
            {"src": "t", "alt": null, "width": null, "height": null, "loading": null, "role": null,
             "labelled": false, "hidden": false, "in_noscript": false},
            {"src": "h", "alt": null, "width": null, "height": null, "loading": null, "role": null,
             "labelled": false, "hidden": true, "in_noscript": false},
            {"src": "s", "alt": null, "width": null, "height": null, "loading": null, "role": null,
             "labelled": false, "hidden": true, "in_noscript": false}]}),
    );
    check("<p>none</p>", json!({"images_total": 0, "images_missing_alt": 0}));
}

#[test]
fn links_follow_decisions_12() {
    // Counted: relative, absolute, protocol-relative, query-only, with a fragment after a path.
    check(
        r#"<a href="x">1</a><a href="/y">2</a><a href="//example.com/z">3</a><a href="?p=2">4</a>
           <a href="/q#frag">5</a><a href="https://other.org/">6</a>"#,
        json!({"link_counts": [5, 1]}),
    );
    // Not counted: empty, white space, bare fragment, javascript:, mailto:, tel:, data:, no href.
    check(
        r##"<a href="">1</a><a href="  ">2</a><a href="#top">3</a><a href=" #x ">4</a>
           <a href="JavaScript:void(0)">5</a><a href="mailto:a@example.com">6</a><a href="tel:+491">7</a>
           <a href="data:text/plain,x">8</a><a>9</a>"##,
        json!({"link_counts": [0, 0]}),
    );
    // Host compared case-insensitively; www is another host.
    check(
        r#"<a href="https://EXAMPLE.com/a">1</a><a href="https://Example.Com:443/b">2</a><a href="https://www.example.com/">3</a>"#,
        json!({"link_counts": [2, 1]}),
    );
    check(
        r#"<html><head><base href="https://cdn.example.net/"></head><a href="x">1</a></html>"#,
        json!({"link_counts": [0, 1]}),
    );
    check(
        r#"<a href="/a" rel="NoFollow Sponsored">x</a>"#,
        json!({"links": [{"href": "/a", "url": "https://example.com/a", "kind": "web", "rel": ["nofollow", "sponsored"],
            "text": "x", "label": null, "internal": true, "lang": null, "role": null, "name": null, "id": null,
            "href_attributes": true, "event_handlers": false, "in_noscript": false}]}),
    );
    check(
        r#"<a href="/h" aria-label="Home"><svg></svg></a><a href="/i"><img src="i.png" alt=" Logo "></a>"#,
        json!({"links": [
            {"href": "/h", "url": "https://example.com/h", "kind": "web", "rel": [], "text": "", "label": "Home", "internal": true,
             "lang": null, "role": null, "name": null, "id": null, "href_attributes": false, "event_handlers": false,
             "in_noscript": false},
            {"href": "/i", "url": "https://example.com/i", "kind": "web", "rel": [], "text": "", "label": "Logo", "internal": true,
             "lang": null, "role": null, "name": null, "id": null, "href_attributes": false, "event_handlers": false,
             "in_noscript": false}]}),
    );
}

/// The attributes `link-uncrawlable` and `link-text-not-descriptive` read, and the text as
/// `innerText` gives it (a no-break space inside stays).
#[test]
fn anchor_attributes() {
    check(
        r#"<html lang="de"><body><p lang="en-GB"><a name=" top " id="t" role=" button " target="_blank"
           onClick="go()">  Read&nbsp;more  </a></p><a>Mehr</a></body></html>"#,
        json!({"links": [
            {"href": null, "url": null, "kind": "no_href", "rel": [], "text": "Read\u{a0}more", "label": null,
             "internal": false, "lang": "en-GB", "role": "button", "name": "top", "id": "t", "href_attributes": true,
             "event_handlers": true, "in_noscript": false},
            {"href": null, "url": null, "kind": "no_href", "rel": [], "text": "Mehr", "label": null,
             "internal": false, "lang": "de", "role": null, "name": null, "id": null, "href_attributes": false,
             "event_handlers": false, "in_noscript": false}]}),
    );
}

/// A browser running scripts reads `<noscript>` as text: what it holds is marked, and in the
/// head (where the parser with scripting off would end the head at the first `<img>`) the head
/// elements after it still count as the head's.
#[test]
fn noscript_content() {
    check(
        r#"<head><title>T</title><noscript><img src="px.gif"></noscript>
           <meta name="description" content="After the pixel."></head><body><noscript><a href="/n">n</a></noscript></body>"#,
        json!({"head_meta_description": "After the pixel.", "images_total": 1,
               "images": [{"src": "px.gif", "alt": null, "width": null, "height": null, "loading": null, "role": null,
                           "labelled": false, "hidden": false, "in_noscript": true}],
               "links": [{"href": "/n", "url": "https://example.com/n", "kind": "web", "rel": [], "text": "n",
                          "label": null, "internal": true, "lang": null, "role": null, "name": null, "id": null,
                          "href_attributes": false, "event_handlers": false, "in_noscript": true}]}),
    );
}

#[test]
fn lang() {
    check(r#"<html lang="de-AT"><p>x</p></html>"#, json!({"lang": "de-AT"}));
    check("<html><p>x</p></html>", json!({"lang": null}));
    check(r#"<html lang=""><p>x</p></html>"#, json!({"lang": ""}));
}

#[test]
fn hreflang() {
    check(
        r#"<link rel="alternate" hreflang=" de " href="/de/"><link rel="alternate" hreflang="x-default" href="https://example.com/">
           <link rel="alternate" type="application/rss+xml" href="/feed"><link rel="stylesheet" hreflang="fr" href="/fr.css">"#,
        json!({"hreflang": [
            {"lang": "de", "href": "/de/", "url": "https://example.com/de/", "in_head": true},
            {"lang": "x-default", "href": "https://example.com/", "url": "https://example.com/", "in_head": true}]}),
    );
    check(
        r#"<title>T</title><p>body</p><link rel="alternate" hreflang="fr" href="https://example.com/fr/">"#,
        json!({"hreflang": [{"lang": "fr", "href": "https://example.com/fr/", "url": "https://example.com/fr/", "in_head": false}]}),
    );
}

#[test]
fn open_graph_and_twitter() {
    check(
        r#"<meta property="og:title" content="First"><meta property="og:title" content="Second">
           <meta property="OG:Image" content="/i.png"><meta name="og:description" content="by name">
           <meta name="twitter:card" content="summary"><meta property="twitter:site" content="@acme">"#,
        json!({"og": {"og:title": "First", "og:image": "/i.png"},
               "twitter": {"twitter:card": "summary", "twitter:site": "@acme"}}),
    );
}

#[test]
fn json_ld() {
    check(
        r#"<script type="application/ld+json">//<![CDATA[
           {"@context":"https://schema.org","@graph":[{"@type":"Organization"},{"@type":["Article","NewsArticle"]}]}
           //]]></script>"#,
        json!({"json_ld_types": ["Organization", "Article", "NewsArticle"]}),
    );
    check(
        r#"<script type="application/ld+json"><!-- {"@type":"Thing"} --></script>"#,
        json!({"json_ld": [{"value": {"@type": "Thing"}, "error": null, "types": ["Thing"], "has_context": false, "line": 1}]}),
    );
    let page = Page::parse(
        URL,
        br#"<script type="Application/LD+JSON">{"@context":"https://schema.org","@type":"Product",}</script>"#,
        HttpFacts::default(),
    );
    assert_eq!(page.json_ld.len(), 1, "an invalid block is kept");
    assert!(page.json_ld[0].value.is_none());
    assert!(page.json_ld[0].error.as_deref().is_some_and(|e| !e.is_empty()));
    // The line of the error in the page, counted from the block's own line.
    let page = Page::parse(
        URL,
        b"<p>a</p>\n<script type=\"application/ld+json\">\n{\"@type\":\n \"Product\",}\n</script>",
        HttpFacts::default(),
    );
    assert_eq!((page.json_ld[0].line, page.json_ld[0].error_line), (2, Some(4)));
    assert_eq!(page.structured_data.invalid_blocks[0].line, 4);
    check(
        r#"<script type="application/ld+json">[{"@context":"https://schema.org","@type":"A"},{"@type":"B"}]</script>"#,
        json!({"json_ld_types": ["A", "B"], "json_ld": [{"value": [{"@context":"https://schema.org","@type":"A"},{"@type":"B"}],
            "error": null, "types": ["A", "B"], "has_context": false, "line": 1}]}),
    );
    check(r#"<script type="text/javascript">{"@type":"X"}</script>"#, json!({"json_ld": []}));
}

#[test]
fn microdata() {
    check(
        r#"<div itemscope itemtype="https://schema.org/Product"><span itemprop="name">x</span>
           <div itemprop="offers" itemscope itemtype="https://schema.org/Offer"></div></div>
           <div itemtype="https://schema.org/Ignored"></div>"#,
        json!({"microdata_types": ["https://schema.org/Product", "https://schema.org/Offer"]}),
    );
}

#[test]
fn favicon() {
    check(r#"<link rel="shortcut icon" href="/f.ico">"#, json!({"favicon": "/f.ico"}));
    check(
        r#"<link rel="apple-touch-icon" href="/t.png"><link rel="icon" href="/i.png">"#,
        json!({"favicon": "/t.png"}),
    );
    check(r#"<link rel="ICON" href="/u.svg">"#, json!({"favicon": "/u.svg"}));
    check(r#"<link rel="stylesheet" href="/s.css">"#, json!({"favicon": null}));
}

#[test]
fn word_count_excludes_hidden_text() {
    check(
        "<head><title>t t t</title><style>a b c</style></head><body><p>one two</p><script>x y</script>\
         <noscript><p>enable scripts</p></noscript><template><p>t t</p></template><div>three<b>four</b></div>\
         <p>five</p><p>six</p></body>",
        json!({"word_count": 5}),
    );
    check("<p>Preis: 5 € – günstig!</p>", json!({"word_count": 3}));
    check("<ul><li>a</li><li>b</li></ul><td>c</td>", json!({"word_count": 3}));
}

#[test]
fn mixed_content() {
    check(
        r#"<head><script src="http://cdn.example.net/a.js"></script><link rel="stylesheet" href="http://cdn.example.net/s.css">
           </head><body><img src="https://ok.example.net/i.png"><img src="/rel.png"><iframe src="http://v.example.net/e"></iframe>
           <a href="http://other.example.net/">a link is not a subresource</a></body>"#,
        json!({"mixed_content": ["http://cdn.example.net/a.js", "http://cdn.example.net/s.css", "http://v.example.net/e"]}),
    );
    check_page(
        "http://example.com/",
        br#"<img src="http://cdn.example.net/i.png">"#,
        HttpFacts::default(),
        json!({"mixed_content": []}),
    );
    check(
        r#"<head><base href="http://example.com/"></head><img src="i.png">"#,
        json!({"mixed_content": ["http://example.com/i.png"]}),
    );
}

#[test]
fn render_blocking_scripts() {
    check(
        r#"<head><script src="/block.js"></script><script src="/a.js" async></script><script src="/d.js" defer></script>
           <script type="module" src="/m.js"></script><script>inline()</script></head>
           <body><script src="/body.js"></script></body>"#,
        json!({"render_blocking_scripts": ["/block.js"], "script_srcs": ["/block.js", "/a.js", "/d.js", "/m.js", "/body.js"]}),
    );
}

#[test]
fn robots_directives() {
    check(r#"<meta name="ROBOTS" content="NoIndex, follow">"#, json!({"noindex": true, "nofollow": false}));
    check(r#"<meta name="googlebot" content="none">"#, json!({"noindex": true, "nofollow": true}));
    check(r#"<meta name="robots" content="max-snippet:-1">"#, json!({"noindex": false, "nofollow": false}));
    let mut http = HttpFacts::new();
    http.headers = vec![("X-Robots-Tag".into(), "noindex".into())];
    check_page(URL, b"<p>x</p>", http, json!({"noindex": true, "nofollow": false}));
}

#[test]
fn charset_decoding() {
    // ISO-8859-1 declared by the header (decoded as windows-1252, as browsers do).
    check_bytes(
        b"<title>Caf\xe9</title>",
        Some("text/html; charset=ISO-8859-1"),
        json!({"title": "Café", "charset": {"used": "windows-1252", "source": "header", "header": "ISO-8859-1", "meta": null}}),
    );
    // Real Shift_JIS bytes for 日本語 declared by the header.
    check_bytes(
        b"<title>\x93\xfa\x96\x7b\x8c\xea</title>",
        Some("text/html; charset=Shift_JIS"),
        json!({"title": "日本語", "charset": {"used": "Shift_JIS", "source": "header", "header": "Shift_JIS", "meta": null}}),
    );
    // A UTF-8 byte-order mark wins over a header that says otherwise.
    check_bytes(
        b"\xef\xbb\xbf<title>Caf\xc3\xa9</title>",
        Some("text/html; charset=iso-8859-1"),
        json!({"title": "Café", "charset": {"used": "UTF-8", "source": "bom", "header": "iso-8859-1", "meta": null}}),
    );
    // Declared only by the document.
    check_bytes(
        b"<meta charset=\"iso-8859-1\"><title>Caf\xe9</title>",
        None,
        json!({"title": "Café", "meta_charset": "iso-8859-1", "charset": {"used": "windows-1252", "source": "meta", "header": null, "meta": "iso-8859-1"}}),
    );
    check_bytes(
        b"<meta http-equiv=\"Content-Type\" content=\"text/html; charset=Shift_JIS\"><title>\x93\xfa\x96\x7b</title>",
        None,
        // The byte prescan reports the label lower-cased; the DOM fact keeps it as written.
        json!({"title": "日本", "meta_charset": "Shift_JIS", "charset": {"used": "Shift_JIS", "source": "meta", "header": null, "meta": "shift_jis"}}),
    );
    // UTF-8 bytes that declare Shift_JIS must not be garbled.
    check_bytes(
        "<meta charset=\"Shift_JIS\"><title>日本語のページ</title>".as_bytes(),
        None,
        json!({"title": "日本語のページ", "charset": {"used": "UTF-8", "source": "utf8_override", "header": null, "meta": "shift_jis"}}),
    );
    check_bytes(
        "<title>日本語</title>".as_bytes(),
        Some("text/html; charset=Shift_JIS"),
        json!({"title": "日本語", "charset": {"used": "UTF-8", "source": "utf8_override", "header": "Shift_JIS", "meta": null}}),
    );
    // Nothing declared, not UTF-8: windows-1252.
    check_bytes(
        b"<title>na\xefve</title>",
        None,
        json!({"title": "naïve", "charset": {"used": "windows-1252", "source": "default", "header": null, "meta": null}}),
    );
}

#[test]
fn bad_input_never_panics() {
    for bytes in [&b""[..], b"\xff\xfe\x00", b"<", b"<a href=\"http://[::1\">x</a>", b"\x00\x00\x00<html"] {
        let page = Page::parse("not a url", bytes, HttpFacts::default());
        assert_eq!(page.link_counts(), (0, 0));
    }
}

/// The audit result lists at most 500 headings and 500 hreflang links, with the page's totals
/// beside them only when it lists fewer than the page has: what is sent and stored stays
/// bounded however many the page holds, and the rules still see every one.
#[test]
fn the_result_lists_headings_and_hreflang_up_to_a_bound_with_their_totals() {
    let many: String = (0..1200).map(|i| format!("<h2>Section {i}</h2>")).collect();
    let alternates: String =
        (0..600).map(|i| format!("<link rel=alternate hreflang=x{i} href='https://example.com/{i}'>")).collect();
    let types: String = (0..=audit_core::MAX_LISTED_SCHEMA_TYPES)
        .map(|i| format!(r#"<script type="application/ld+json">{{"@type": ["T{i}", "Thing"]}}</script>"#))
        .collect();
    let html = format!(
        "<html lang=en><head><title>Many</title>{alternates}{types}</head><body><h1>Top</h1>{many}</body></html>"
    );
    let page = Page::parse(URL, html.as_bytes(), HttpFacts::default());
    assert_eq!(page.headings.len(), 1201, "the page itself keeps every heading");
    let result = audit_core::audit(page).to_result("2026-01-01T00:00:00Z");
    assert_eq!(result.page.headings.len(), audit_core::MAX_LISTED_HEADINGS);
    assert_eq!(result.page.headings_total, Some(1201));
    assert_eq!(result.page.headings[0].text, "Top", "the first ones, in document order");
    assert_eq!(result.page.hreflang.len(), audit_core::MAX_LISTED_HREFLANG);
    assert_eq!(result.page.hreflang_total, Some(600));
    // One type past the bound: the first ones listed, in document order, and the total.
    assert_eq!(result.page.schema_types.len(), audit_core::MAX_LISTED_SCHEMA_TYPES);
    assert_eq!(result.page.schema_types[..3], ["T0", "Thing", "T1"]);
    assert_eq!(result.page.schema_types_total, Some(audit_core::MAX_LISTED_SCHEMA_TYPES + 2));
    let json = serde_json::to_value(&result).unwrap();
    assert_eq!(json["page"]["headings_total"], 1201);

    // A page under the bounds lists everything, and the totals are absent.
    // At the bound of types, every one is listed and no total given.
    let at: String = (0..audit_core::MAX_LISTED_SCHEMA_TYPES)
        .map(|i| format!(r#"<script type="application/ld+json">{{"@type": "T{i}"}}</script>"#))
        .collect();
    let small = format!("<html><title>One</title>{at}<h1>One</h1></html>");
    let small = Page::parse(URL, small.as_bytes(), HttpFacts::default());
    let json = serde_json::to_value(audit_core::audit(small).to_result("2026-01-01T00:00:00Z")).unwrap();
    assert_eq!(json["page"]["headings"].as_array().unwrap().len(), 1);
    assert_eq!(json["page"]["schema_types"].as_array().unwrap().len(), audit_core::MAX_LISTED_SCHEMA_TYPES);
    for total in ["headings_total", "hreflang_total", "schema_types_total"] {
        assert!(json["page"].get(total).is_none(), "{total}: {json}");
    }
}

/// A page of 5 MiB built to reach every bound of the result (`audit_core::bound`,
/// docs/SECURITY.md): texts of control characters (six bytes each as JSON), headings and
/// hreflang links past their byte budgets, long type names, elements with long ids that
/// findings locate, structured-data items with problems, and invalid JSON-LD blocks. Its
/// result, as stored, is within `MAX_RESULT_BYTES`; every cut list says its total.
#[test]
fn a_hostile_pages_result_is_within_its_bound() {
    use audit_core::bound::{json_len, MAX_LISTED_INVALID_BLOCKS, MAX_RESULT_BYTES, MAX_RESULT_TEXT_BYTES};
    let ctl = |n: usize| "\u{1}".repeat(n);
    let long = |n: usize| "x".repeat(n);
    let mut html = format!(
        "<html lang='{l}'><head><title>{t}</title><meta name=description content='{t}'>\
         <meta property='og:title' content='{t}'><meta property='og:description' content='{t}'>\
         <meta property='og:image' content='https://example.com/{u}'><meta name=robots content='{t}'>\
         <link rel=canonical href='https://example.com/{u}'>",
        l = long(10_000),
        t = ctl(100_000),
        u = long(100_000),
    );
    for i in 0..600 {
        html.push_str(&format!(
            "<link rel=alternate hreflang='{}' href='https://example.com/{i}{}'>",
            ctl(100),
            long(1_000)
        ));
    }
    for i in 0..60 {
        html.push_str(&format!(r#"<script type="application/ld+json">{{"@type": "T{i}{}"}}</script>"#, long(1_000)));
    }
    for _ in 0..2_000 {
        html.push_str(r#"<script type="application/ld+json">{</script>"#);
    }
    for i in 0..1_200 {
        html.push_str(&format!(
            r#"<script type="application/ld+json">{{"@type": "Product", "name": "p{i}", "offers": {{"@type": "Offer", "{}": 1}}}}</script>"#,
            long(400)
        ));
    }
    html.push_str("</head><body>");
    for _ in 0..600 {
        html.push_str(&format!("<h2>{}</h2>", ctl(1_000)));
    }
    for _ in 0..200 {
        html.push_str(&format!("<img id='{}' src=a.jpg><a id='{}' href='#'></a>", long(3_000), long(3_000)));
    }
    html.push_str("</body></html>");
    assert!(html.len() <= 5 * 1024 * 1024, "{} bytes", html.len());

    let page = Page::parse(URL, html.as_bytes(), HttpFacts::default());
    let (result, cuts) = audit_core::audit(page).to_result_with_cuts("2026-01-01T00:00:00Z");
    let len = json_len(&result);
    eprintln!("hostile page of {} bytes: result of {len} bytes, {cuts:?}", html.len());
    assert!(len <= MAX_RESULT_BYTES, "{len} bytes");
    assert!(cuts.texts > 0 && cuts.entries > 0, "{cuts:?}");
    let p = &result.page;
    assert!(p.title.ends_with('…') && json_len(&p.title) <= MAX_RESULT_TEXT_BYTES, "{}", p.title.len());
    assert!(p.headings.len() < 600 && p.headings_total == Some(600), "{} {:?}", p.headings.len(), p.headings_total);
    assert!(p.hreflang.len() < 600 && p.hreflang_total == Some(600));
    let sd = &result.structured_data;
    assert_eq!(sd.invalid_blocks.len(), MAX_LISTED_INVALID_BLOCKS);
    assert_eq!(sd.invalid_blocks_total, Some(2_000));
    assert!(sd.items_total.is_some_and(|total| total > sd.items.len()), "{} {:?}", sd.items.len(), sd.items_total);
    for r in &result.recommendations {
        assert!(r.locations_total as usize >= r.locations.len(), "{}", r.id);
    }
}
