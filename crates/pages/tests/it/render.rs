//! Tests of the pages (badge, widget script, report and landing pages).

use std::collections::HashMap;
use std::time::Duration;

use audit_core::{audit, rule_by_id, Category, HttpFacts, Page};
use pages::badge::{self, parse_color, render_iframe_page, render_svg, validate_domain, BadgeSize, Color};
use pages::report::{render_landing, Enqueued};
use proptest::strategy::Strategy;
use serde_json::{json, Value};

/// The report of an audit result given as JSON, read back typed as the server reads a
/// stored one: a value that does not parse is an empty result.
fn render_report(base: &str, domain: &str, result: &Value, fixes: &[(String, String)]) -> String {
    let typed: audit_core::AuditResult = serde_json::from_value(result.clone()).unwrap_or_default();
    pages::report::render_report(base, domain, &typed, fixes)
}

/// How long a domain rests between two background audits in the server (ten minutes).
const COOLDOWN: Duration = Duration::from_secs(600);

fn render_not_audited(base: &str, domain: &str, queued: Enqueued, url: Option<&str>) -> String {
    pages::report::render_not_audited(base, domain, queued, url, COOLDOWN)
}

// ---------------------------------------------------------------------------------------
// A minimal markup checker: balanced tags, quoted attributes, no duplicate attributes,
// well-formed entities. In HTML mode void elements need no end tag and <style> is raw text.

#[derive(Debug)]
struct Element {
    name: String,
    attrs: HashMap<String, String>,
}

fn well_formed(doc: &str, html: bool) -> Result<Vec<Element>, String> {
    const VOID: &[&str] = &["meta", "link", "img", "input", "br", "hr", "source", "wbr"];
    let b = doc.as_bytes();
    let mut i = 0;
    let mut stack: Vec<String> = Vec::new();
    let mut elements = Vec::new();
    let entity_ok = |at: usize| -> Result<usize, String> {
        let end = doc[at..].find(';').ok_or_else(|| format!("bare & at {at}"))?;
        let name = &doc[at + 1..at + end];
        let ok = matches!(name, "amp" | "lt" | "gt" | "quot" | "apos")
            || name.strip_prefix("#x").is_some_and(|h| !h.is_empty() && h.chars().all(|c| c.is_ascii_hexdigit()))
            || name.strip_prefix('#').is_some_and(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()));
        if ok {
            Ok(at + end + 1)
        } else {
            Err(format!("bad entity &{name}; at {at}"))
        }
    };
    while i < b.len() {
        match b[i] {
            b'&' => i = entity_ok(i)?,
            b'<' if doc[i..].starts_with("<!--") => {
                i += doc[i..].find("-->").ok_or("unclosed comment")? + 3;
            }
            b'<' if doc[i..].starts_with("<!") || doc[i..].starts_with("<?") => {
                i += doc[i..].find('>').ok_or("unclosed declaration")? + 1;
            }
            b'<' if doc[i..].starts_with("</") => {
                let end = doc[i..].find('>').ok_or("unclosed end tag")? + i;
                let name = doc[i + 2..end].trim();
                match stack.pop() {
                    Some(open) if open == name => {}
                    other => return Err(format!("end tag </{name}> closes {other:?} at {i}")),
                }
                i = end + 1;
            }
            b'<' => {
                i += 1;
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'-' || b[i] == b':') {
                    i += 1;
                }
                let name = doc[start..i].to_string();
                if name.is_empty() {
                    return Err(format!("raw < at {}", start - 1));
                }
                let mut attrs = HashMap::new();
                let self_closing;
                loop {
                    while i < b.len() && b[i].is_ascii_whitespace() {
                        i += 1;
                    }
                    if doc[i..].starts_with("/>") {
                        self_closing = true;
                        i += 2;
                        break;
                    }
                    if doc[i..].starts_with('>') {
                        self_closing = false;
                        i += 1;
                        break;
                    }
                    let a = i;
                    while i < b.len() && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'-' | b':' | b'_')) {
                        i += 1;
                    }
                    let attr = doc[a..i].to_string();
                    if attr.is_empty() {
                        return Err(format!("bad attribute in <{name}> at {i}"));
                    }
                    let value = if doc[i..].starts_with('=') {
                        let q = *b.get(i + 1).ok_or("eof")?;
                        if q != b'"' && q != b'\'' {
                            return Err(format!("unquoted attribute {attr} in <{name}>"));
                        }
                        let vstart = i + 2;
                        let vend = doc[vstart..].find(q as char).ok_or("unclosed attribute")? + vstart;
                        let value = &doc[vstart..vend];
                        if value.contains('<') {
                            return Err(format!("< in attribute {attr} of <{name}>"));
                        }
                        let mut j = 0;
                        while let Some(amp) = value[j..].find('&') {
                            j = entity_ok(vstart + j + amp)? - vstart;
                        }
                        i = vend + 1;
                        value.to_string()
                    } else if html {
                        String::new()
                    } else {
                        return Err(format!("attribute {attr} without value in <{name}>"));
                    };
                    if attrs.insert(attr.clone(), value).is_some() {
                        return Err(format!("duplicate attribute {attr} in <{name}>"));
                    }
                }
                let raw_text = html && (name == "style" || name == "script");
                elements.push(Element { name: name.clone(), attrs });
                if raw_text {
                    let close = format!("</{name}>");
                    i += doc[i..].find(&close).ok_or("unclosed raw text element")? + close.len();
                } else if !(self_closing || html && VOID.contains(&name.as_str())) {
                    stack.push(name);
                }
            }
            _ => i += doc[i..].chars().next().map_or(1, char::len_utf8),
        }
    }
    if stack.is_empty() {
        Ok(elements)
    } else {
        Err(format!("unclosed elements {stack:?}"))
    }
}

fn xml(doc: &str) -> Vec<Element> {
    well_formed(doc, false).unwrap_or_else(|e| panic!("not well-formed XML: {e}\n{doc}"))
}

fn html(doc: &str) -> Vec<Element> {
    well_formed(doc, true).unwrap_or_else(|e| panic!("not well-formed HTML: {e}\n{doc}"))
}

#[test]
fn checker_rejects_broken_markup() {
    for bad in ["<a><b></a></b>", "<a x=1></a>", "<a>&bogus;</a>", "<a>", "<a x='1' x='2'/>", "a < b"] {
        assert!(well_formed(bad, false).is_err(), "{bad}");
    }
    assert!(well_formed(r#"<a x="1 &amp; 2">&lt;&#39;&#x2026;</a>"#, false).is_ok());
}

// ---------------------------------------------------------------------------------------
// Badge parameters.

fn check_color(input: &str, expected: Option<(u8, u8, u8)>) {
    assert_eq!(parse_color(input).map(|c| (c.r, c.g, c.b)), expected, "{input:?}");
}

#[test]
fn colors() {
    check_color("10b981", Some((0x10, 0xb9, 0x81)));
    check_color("FFFFFF", Some((255, 255, 255)));
    check_color("000000", Some((0, 0, 0)));
    check_color("aBcDeF", Some((0xab, 0xcd, 0xef)));
    check_color("#10b981", None);
    check_color("10b98", None);
    check_color("10b9811", None);
    check_color("ggggggg", None);
    check_color("gggggg", None);
    check_color("", None);
    check_color("+1+1+1", None);
    check_color("１０b981", None);
    check_color("é0b98", None);
}

#[test]
fn text_color_follows_luminance() {
    let dark = Color { r: 0x11, g: 0x18, b: 0x27 };
    let white = Color { r: 255, g: 255, b: 255 };
    for (bg, ink) in
        [("ffff00", dark), ("ffffff", dark), ("9ca3af", dark), ("1d4ed8", white), ("000000", white), ("7c3aed", white)]
    {
        let bg = parse_color(bg).unwrap();
        assert_eq!(bg.text_color(), ink, "{bg:?}");
        assert!(bg.contrast(&ink) >= 4.5 || bg.contrast(&ink) >= bg.contrast(&if ink == white { dark } else { white }));
    }
}

fn check_size(input: &str, expected: Option<(u32, u32)>) {
    assert_eq!(BadgeSize::parse(input).map(|s| (s.width(), s.height())), expected, "{input:?}");
}

#[test]
fn sizes() {
    check_size("small", Some((140, 40)));
    check_size("medium", Some((200, 56)));
    check_size("large", Some((300, 80)));
    check_size("Large", None);
    check_size("", None);
    check_size("xl", None);
    assert_eq!(BadgeSize::default(), BadgeSize::Medium);
    for &s in BadgeSize::ALL {
        assert_eq!(BadgeSize::parse(s.name()), Some(s));
    }
}

fn check_domain(input: &str, expected: Option<&str>) {
    assert_eq!(validate_domain(input).as_deref(), expected, "{input:?}");
}

#[test]
fn domains() {
    check_domain("example.com", Some("example.com"));
    check_domain("Example.COM", Some("example.com"));
    check_domain(" www.example.com ", Some("www.example.com"));
    check_domain("\twww.example.com\r\n", Some("www.example.com"));
    check_domain("\u{a0}example.com", None);
    check_domain("example.com\u{b}", None);
    check_domain("example.1a", None);
    check_domain("example.a1", Some("example.a1"));
    check_domain("example.com+", None);
    check_domain("example.com.", Some("example.com"));
    check_domain("xn--bcher-kva.example", Some("xn--bcher-kva.example"));
    check_domain("a-b.c-d.example", Some("a-b.c-d.example"));
    check_domain("localhost", Some("localhost"));
    check_domain("LOCALHOST", Some("localhost"));
    check_domain(&format!("{}.com", "a".repeat(63)), Some(&format!("{}.com", "a".repeat(63))));
    check_domain(&format!("{}.com", "a".repeat(64)), None);
    let long = format!("{}.com", vec!["a".repeat(60); 5].join("."));
    assert!(long.len() > 253);
    check_domain(&long, None);
    check_domain("", None);
    check_domain(".", None);
    check_domain("com", None);
    check_domain("example..com", None);
    check_domain(".example.com", None);
    check_domain("-example.com", None);
    check_domain("example-.com", None);
    check_domain("exa_mple.com", None);
    check_domain("example.com/path", None);
    check_domain("example.com:8080", None);
    check_domain("user@example.com", None);
    check_domain("https://example.com", None);
    check_domain("bücher.example", None);
    // The Kelvin sign lower-cases to `k` under Unicode rules; it must not pass as one.
    check_domain("\u{212a}ey.example", None);
    check_domain("127.0.0.1", None);
    check_domain("10.0.0.1.", None);
    check_domain("\"><script>.com", None);
}

// ---------------------------------------------------------------------------------------
// SVG badge.

fn root(doc: &str) -> Element {
    xml(doc).into_iter().next().expect("root element")
}

#[test]
fn svg_has_exact_size_and_accessible_name() {
    let color = parse_color("10b981").unwrap();
    for &size in BadgeSize::ALL {
        for score in [Some(0), Some(7), Some(87), Some(100)] {
            let svg = render_svg("example.com", score, &color, size);
            let r = root(&svg);
            assert_eq!(r.name, "svg");
            assert_eq!(r.attrs["xmlns"], "http://www.w3.org/2000/svg");
            assert_eq!(r.attrs["width"], size.width().to_string());
            assert_eq!(r.attrs["height"], size.height().to_string());
            assert_eq!(r.attrs["viewBox"], format!("0 0 {} {}", size.width(), size.height()));
            assert_eq!(r.attrs["role"], "img");
            let label = format!("SEO score for example.com: {} out of 100", score.unwrap());
            assert_eq!(r.attrs["aria-label"], label);
            assert!(svg.contains(&format!("<title>{label}</title>")), "{svg}");
            assert!(svg.contains(r##"fill="#10b981""##));
            assert!(svg.contains(&format!(">{}</tspan>", score.unwrap())));
            assert!(svg.contains(">/100</tspan>"));
            assert!(svg.contains(">example.com</text>"));
            assert!(svg.contains(">SEO score</text>"));
            assert!(!svg.contains("http://") || !svg.replace("http://www.w3.org/2000/svg", "").contains("http"));
        }
    }
}

#[test]
fn svg_not_audited_is_grey() {
    let color = parse_color("ff0000").unwrap();
    for &size in BadgeSize::ALL {
        let svg = render_svg("example.com", None, &color, size);
        let r = root(&svg);
        assert_eq!(r.attrs["aria-label"], "SEO score for example.com: not audited");
        assert!(svg.contains("<title>SEO score for example.com: not audited</title>"));
        assert!(svg.contains(r##"fill="#9ca3af""##));
        assert!(!svg.contains("#ff0000"), "brand colour without a score");
        // One line where it fits, "not" over "audited" where it does not.
        assert!(svg.contains(">not audited</text>") || svg.contains(">not</tspan><tspan"), "{svg}");
        // Dark text on the grey panel for contrast.
        assert!(svg.contains(r##"fill="#111827""##));
    }
}

#[test]
fn svg_text_colour_contrasts_with_brand() {
    let svg = render_svg("example.com", Some(50), &parse_color("fde047").unwrap(), BadgeSize::Medium);
    assert!(svg.contains(r##"font-weight="700" fill="#111827""##), "{svg}");
    let svg = render_svg("example.com", Some(50), &parse_color("1e3a8a").unwrap(), BadgeSize::Medium);
    assert!(svg.contains(r##"font-weight="700" fill="#ffffff""##), "{svg}");
}

#[test]
fn svg_score_is_clamped() {
    let svg = render_svg("example.com", Some(250), &badge::DEFAULT_COLOR, BadgeSize::Small);
    assert!(svg.contains(">100</tspan>") && svg.contains("100 out of 100"));
}

/// The text of the domain's `<text>` element.
fn domain_text(svg: &str) -> String {
    let marker = r##"font-weight="600" fill="#ffffff">"##;
    let start = svg.find(marker).expect("domain text") + marker.len();
    let end = svg[start..].find("</text>").unwrap() + start;
    svg[start..end].to_string()
}

#[test]
fn long_domains_are_cut_with_an_ellipsis() {
    let long = "a-very-long-subdomain-for-testing.the-example-company-with-a-long-name.co.uk";
    for &size in BadgeSize::ALL {
        let svg = render_svg(long, Some(87), &badge::DEFAULT_COLOR, size);
        xml(&svg);
        let shown = domain_text(&svg);
        assert!(shown.ends_with('…'), "{size:?}: {shown}");
        assert!(long.starts_with(shown.trim_end_matches('…')));
        // Bigger badges show more of the name.
        assert!(shown.chars().count() >= 8, "{shown}");
        // The accessible name keeps the whole domain.
        assert!(svg.contains(&format!("SEO score for {long}: 87 out of 100")));
    }
    let small = domain_text(&render_svg(long, Some(1), &badge::DEFAULT_COLOR, BadgeSize::Small));
    let large = domain_text(&render_svg(long, Some(1), &badge::DEFAULT_COLOR, BadgeSize::Large));
    assert!(large.chars().count() > small.chars().count());
    // Short names are never cut, at any size.
    for &size in BadgeSize::ALL {
        assert_eq!(domain_text(&render_svg("example.com", Some(1), &badge::DEFAULT_COLOR, size)), "example.com");
    }
    // Wide letters are cut sooner than narrow ones.
    let wide =
        domain_text(&render_svg(&format!("{}.com", "w".repeat(40)), Some(1), &badge::DEFAULT_COLOR, BadgeSize::Medium));
    let narrow =
        domain_text(&render_svg(&format!("{}.com", "i".repeat(40)), Some(1), &badge::DEFAULT_COLOR, BadgeSize::Medium));
    assert!(narrow.chars().count() > wide.chars().count());
}

#[test]
fn svg_escapes_a_hostile_domain() {
    let hostile = r#""><script>alert(1)</script><x y='&amp;"#;
    for &size in BadgeSize::ALL {
        for score in [Some(50), None] {
            let svg = render_svg(hostile, score, &badge::DEFAULT_COLOR, size);
            let elements = xml(&svg);
            assert!(!svg.contains("<script"), "{svg}");
            assert!(elements.iter().all(|e| e.name != "script" && e.name != "x"));
            assert!(svg.contains("&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;x y=&#39;&amp;amp;"));
        }
    }
    // Control characters are not allowed in XML at all.
    let svg = render_svg("a\u{1}b.example", Some(1), &badge::DEFAULT_COLOR, BadgeSize::Large);
    assert!(!svg.contains('\u{1}'));
    // A domain far beyond any valid length still gives a bounded badge.
    let huge = "x".repeat(100_000);
    assert!(render_svg(&huge, Some(1), &badge::DEFAULT_COLOR, BadgeSize::Large).len() < 4_000);
}

#[test]
fn iframe_page_links_to_the_report() {
    let color = parse_color("2563eb").unwrap();
    let page = render_iframe_page("https://svc.example/", "example.com", Some(87), &color, BadgeSize::Large);
    let elements = html(&page);
    assert!(page.starts_with("<!doctype html>"));
    let a = elements.iter().find(|e| e.name == "a").expect("link");
    assert_eq!(a.attrs["href"], "https://svc.example/report/example.com");
    assert_eq!(a.attrs["target"], "_blank");
    assert_eq!(a.attrs["rel"], "noopener");
    let svg = elements.iter().find(|e| e.name == "svg").expect("inline svg");
    assert_eq!((svg.attrs["width"].as_str(), svg.attrs["height"].as_str()), ("300", "80"));
    assert!(page.contains("margin:0") && page.contains("background:transparent"));
    assert!(page.contains("#2563eb"));
    assert!(!elements.iter().any(|e| e.name == "script" || e.name == "link"), "no scripts or external assets");
    assert!(!page.contains("src="));

    let hostile = render_iframe_page("https://svc.example", "\"><script>x</script>", None, &color, BadgeSize::Small);
    let elements = html(&hostile);
    assert!(!hostile.contains("<script"));
    let a = elements.iter().find(|e| e.name == "a").unwrap();
    assert_eq!(a.attrs["href"], "https://svc.example/report/%22%3E%3Cscript%3Ex%3C%2Fscript%3E");
    assert!(hostile.contains("not audited"));
}

// ---------------------------------------------------------------------------------------
// Report and landing pages.

const HOSTILE_TITLE: &str = r#"<script>alert(1)</script> "><svg onload=alert(2)> &amp; done"#;

fn hostile_result() -> Value {
    // The title is RCDATA, so the markup inside it is the page's title text verbatim; the
    // `&amp;amp;` decodes to the literal text `&amp;`.
    let page_html = r#"<!doctype html><html lang="en"><head>
        <title><script>alert(1)</script> "><svg onload=alert(2)> &amp;amp; done</title>
        <meta name="description" content="&quot;&gt;&lt;img src=x onerror=alert(3)&gt;">
        </head><body><h1>&lt;iframe src=javascript:alert(4)&gt;</h1>
        <img src="a.jpg"><img src="b.jpg" alt="b"><a href="/x">x</a><a href="https://other.example/">o</a>
        <p>Some words here.</p></body></html>"#;
    let http = HttpFacts::new().with_status(200).with_load_time_ms(1234);
    let page = Page::parse("https://example.com/", page_html.as_bytes(), http);
    assert_eq!(page.title, HOSTILE_TITLE);
    serde_json::to_value(audit(page).to_result("2026-03-04T05:06:07.890Z")).unwrap()
}

fn fixes_for(result: &Value) -> Vec<(String, String)> {
    result["recommendations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let id = r["id"].as_str().unwrap().to_string();
            (id.clone(), format!("<!-- fix for {id} --><script>alert('fix')</script>"))
        })
        .collect()
}

#[test]
fn report_escapes_everything_from_the_page() {
    let result = hostile_result();
    let fixes = fixes_for(&result);
    let page = render_report("https://svc.example", "example.com", &result, &fixes);
    let elements = html(&page);
    for raw in ["<script", "<svg onload", "<img src=x", "<iframe", "javascript:alert(4)\"", "<!-- fix"] {
        assert!(!page.contains(raw), "raw {raw:?} in report");
    }
    assert!(!elements.iter().any(|e| matches!(e.name.as_str(), "script" | "iframe" | "svg")));
    assert!(elements.iter().all(|e| !e.attrs.keys().any(|k| k.starts_with("on"))));
    assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt; &quot;&gt;&lt;svg onload=alert(2)&gt; &amp;amp; done"));
    assert!(page.contains("&quot;&gt;&lt;img src=x onerror=alert(3)&gt;"));
    assert!(page.contains("&lt;iframe src=javascript:alert(4)&gt;"));
    // The only images are the badge preview, served from this origin.
    let imgs: Vec<_> = elements.iter().filter(|e| e.name == "img").collect();
    assert_eq!(imgs.len(), 1);
    assert_eq!(imgs[0].attrs["src"], "/api/widget?domain=example.com&amp;size=medium");
}

#[test]
fn report_shows_summary_and_facts() {
    let result = hostile_result();
    let page = render_report("https://svc.example", "example.com", &result, &[]);
    let score = result["score"]["percentage"].as_u64().unwrap();
    assert!(page.contains(&format!(r#"<span class="score-value">{score}</span>"#)));
    assert!(page.contains(&format!("<title>SEO report for example.com: {score}/100</title>")));
    assert!(page.contains("<h1>SEO report for <span class=\"domain\">example.com</span></h1>"));
    assert!(
        page.contains(r#"<a href="https://example.com/" rel="nofollow noopener noreferrer">https://example.com/</a>"#)
    );
    assert!(page.contains(r#"<time datetime="2026-03-04T05:06:07.890Z">2026-03-04 05:06 UTC</time>"#));
    assert!(page.contains("<dt>Images</dt><dd>2 (1 without alt text)</dd>"), "{page}");
    assert!(page.contains("<dt>Links</dt><dd>1 internal, 1 external</dd>"));
    assert!(page.contains("<dt>Load time</dt><dd>1,234 ms</dd>"));
    assert!(page.contains("<dt>HTTP status</dt><dd>200</dd>"));
    assert!(page.contains("<dt>Language</dt><dd>en</dd>"));
    assert!(page.contains("<dt>Canonical URL</dt><dd>"));
    assert!(page.contains(&format!("Ruleset {}", audit_core::RULESET_VERSION)));
    assert!(page.contains(audit_core::ruleset_fingerprint()));
    // Landmarks, one h1, no script.
    let elements = html(&page);
    for landmark in ["header", "main", "footer"] {
        assert!(elements.iter().any(|e| e.name == landmark), "{landmark}");
    }
    assert_eq!(elements.iter().filter(|e| e.name == "h1").count(), 1);
    assert!(page.contains("@media print"));
    assert!(page.contains(r#"<meta name="viewport""#));
}

#[test]
fn report_groups_checks_by_category_in_order() {
    let result = hostile_result();
    let page = render_report("https://svc.example", "example.com", &result, &[]);
    let checks = result["checks"].as_array().unwrap();
    let mut last = 0;
    for cat in Category::ALL {
        if !checks.iter().any(|c| c["category"] == cat.as_str()) {
            continue;
        }
        let at = page.find(&format!("<h3>{} <span", pages::escape(cat.as_str()))).unwrap_or_else(|| panic!("{cat:?}"));
        assert!(at > last, "{cat:?} out of order");
        last = at;
    }
    // Every check appears with its rule's human name and its status in words.
    for c in checks {
        let id = c["id"].as_str().unwrap();
        let name = rule_by_id(id).unwrap().name;
        let status = match c["status"].as_str().unwrap() {
            "pass" => "Passed",
            "fail" => "Failed",
            _ => "Not applicable",
        };
        let item = format!(
            r#"<span class="status">{status}</span> <span class="name">{}</span> <code class="rule-id">{id}</code>"#,
            pages::escape(name)
        );
        assert!(page.contains(&item), "{item}");
    }
}

#[test]
fn report_lists_recommendations_worst_first_with_fixes() {
    let result = hostile_result();
    let fixes = fixes_for(&result);
    let page = render_report("https://svc.example", "example.com", &result, &fixes);
    let recs = result["recommendations"].as_array().unwrap();
    assert!(!recs.is_empty());
    for (id, code) in &fixes {
        assert!(page.contains(&format!("<h4>How to fix</h4><pre><code>{}</code></pre>", pages::escape(code))), "{id}");
    }
    let rank = |t: &str| ["critical", "warning", "notice"].iter().position(|x| *x == t).unwrap();
    let mut positions: Vec<(usize, usize)> = recs
        .iter()
        .map(|r| {
            let title = format!("<h3>{}</h3>", pages::escape(r["title"].as_str().unwrap()));
            (page.find(&title).expect("recommendation title"), rank(r["type"].as_str().unwrap()))
        })
        .collect();
    positions.sort();
    assert!(positions.windows(2).all(|w| w[0].1 <= w[1].1), "worst first");
    // The image without alt text is among them, with its description.
    let alt = recs.iter().find(|r| r["id"] == "image-alt-missing").expect("image-alt-missing");
    assert!(page.contains(&pages::escape(alt["description"].as_str().unwrap())));
    // And where the image is: its line and column, its selector and its start tag.
    assert_eq!(alt["locations_total"], 1);
    assert!(page.contains("Where: 1 element"), "{page}");
    assert!(page.contains(
        "line 5, column 9 <code>html &gt; body &gt; img:nth-of-type(1)</code> <code class=\"snippet\">&lt;img src=&quot;a.jpg&quot;&gt;</code>"
    ));

    // Out-of-order input is put worst first too.
    let shuffled = json!({"recommendations": [
        {"type": "notice", "title": "N1"}, {"type": "critical", "title": "C1"},
        {"type": "warning", "title": "W1"}, {"type": "critical", "title": "C2"}
    ]});
    let page = render_report("https://svc.example", "example.com", &shuffled, &[]);
    let at = |t: &str| page.find(&format!("<h3>{t}</h3>")).unwrap();
    assert!(at("C1") < at("C2") && at("C2") < at("W1") && at("W1") < at("N1"));
    assert!(page.contains(">2 critical<") && page.contains(">1 warning<") && page.contains(">1 notice<"));
}

/// The 404 page of a domain without a recent audit, for one answer of the queue: it must
/// contain `says`, show `url` as the URL audited, and reload itself exactly when `reloads`.
fn check_not_audited(queued: Enqueued, url: Option<&str>, says: &str, reloads: bool) {
    let page = render_not_audited("https://svc.example", "example.com", queued, url);
    let elements = html(&page);
    assert!(page.contains("<h1><span class=\"domain\">example.com</span> has not been audited yet</h1>"));
    assert!(page.contains("There is no audit of example.com from the last 24 hours"), "{queued:?}: {page}");
    assert!(page.contains(says), "{queued:?}: {says:?} not in {page}");
    // Only a queued audit is said to be queued.
    assert_eq!(page.contains("has been queued"), queued == Enqueued::Queued && url.is_some(), "{queued:?}");
    assert_eq!(page.contains(r#"<meta http-equiv="refresh" content="30">"#), reloads, "{queued:?}");
    match url {
        Some(u) => assert!(page.contains(&format!("<code>{u}</code>")), "{queued:?}: {u} not in {page}"),
        None => assert!(!page.contains("<code>"), "{queued:?}: no URL is audited"),
    }
    let form = elements.iter().find(|e| e.name == "form").expect("form");
    assert_eq!((form.attrs["method"].as_str(), form.attrs["action"].as_str()), ("get", "/report"));
    let input = elements.iter().find(|e| e.name == "input").expect("input");
    assert_eq!(input.attrs["value"], url.unwrap_or("https://example.com/"));
    assert!(elements.iter().any(|e| e.name == "a" && e.attrs.get("href").map(String::as_str) == Some("/")));
}

#[test]
fn report_without_an_audit_says_what_the_queue_did() {
    let url = Some("http://example.com:8081/");
    check_not_audited(
        Enqueued::Queued,
        url,
        "so an audit of <code>http://example.com:8081/</code> has been queued",
        true,
    );
    check_not_audited(Enqueued::Pending, url, "is already queued or running", true);
    check_not_audited(Enqueued::CoolingDown, url, "ended less than 10 minutes ago without giving a report", false);
    check_not_audited(Enqueued::RateLimited, url, "busy with other background audits", true);
    check_not_audited(Enqueued::QueueFull, url, "busy with other background audits", true);
    check_not_audited(Enqueued::Disabled, None, "this service does not audit domains in the background", false);
    // An answer that does not fit the missing URL still tells the truth: nothing queued.
    check_not_audited(Enqueued::Queued, None, "this service does not audit domains in the background", false);

    let hostile =
        render_not_audited("https://svc.example", "<b>x</b>\"", Enqueued::Queued, Some("https://<b>x</b>/\""));
    html(&hostile);
    assert!(!hostile.contains("<b>x"));
}

/// The copy-paste image badge is the image in a link to the report of its domain.
fn check_image_snippet(page: &str, base: &str, domain: &str) {
    let snippet = pages::escape(&format!(
        r#"<a href="{base}/report/{domain}"><img src="{base}/api/widget?domain={domain}" alt="SEO score for {domain}" width="200" height="56"></a>"#
    ));
    assert!(page.contains(&format!("<pre><code>{snippet}</code></pre>")), "{snippet} not in {page}");
    // The snippet itself is well-formed markup whose link goes to the report.
    let elements = html(&format!("<p>{}</p>", pages::report::image_snippet(base, domain)));
    assert_eq!(elements[1].name, "a");
    assert_eq!(elements[1].attrs["href"], format!("{base}/report/{domain}"));
    assert_eq!(elements[2].name, "img");
}

#[test]
fn image_snippets_link_to_the_report() {
    check_image_snippet(&render_landing("https://svc.example/"), "https://svc.example", "example.com");
    let report = render_report("https://svc.example", "shop.example", &json!({"score": {"percentage": 80}}), &[]);
    check_image_snippet(&report, "https://svc.example", "shop.example");
    // A report of an address has no badge to offer.
    let report = render_report("https://svc.example", "93.184.216.34", &json!({}), &[]);
    assert!(!report.contains("Show this score on your site") && !report.contains("/api/widget"));
}

fn check_defensive(result: Value) {
    let page = render_report("https://svc.example", "example.com", &result, &[]);
    html(&page);
    assert!(page.contains("—"), "missing values shown as a dash: {result}");
}

#[test]
fn report_survives_any_json() {
    check_defensive(json!({}));
    check_defensive(json!(null));
    check_defensive(json!([1, 2, 3]));
    check_defensive(json!("text"));
    check_defensive(json!({"page": "x", "score": [], "checks": "nope", "recommendations": {"a": 1}}));
    check_defensive(json!({
        "page": {"title": 5, "images": {"total": "many"}, "links": null, "word_count": -3.7e300, "load_time_ms": 1.5},
        "score": {"percentage": "x", "current": 1e300},
        "recommendations": [null, 3, {"title": 7, "type": 8}, {}],
        "checks": [null, {"id": 5}, {"id": "no-such-rule", "category": "Nonsense", "status": "weird"}],
        "scanned_at": "yesterday"
    }));
    // An unknown rule still shows, escaped, under its category. (Categories are typed: a
    // result with an unknown one does not read, and shows as the empty result above.)
    let page = render_report(
        "https://svc.example",
        "example.com",
        &json!({"checks": [{"id": "<no-such-rule>", "category": "Performance", "status": "fail"}]}),
        &[],
    );
    assert!(page.contains("<h3>Performance <span"));
    assert!(page.contains("&lt;no-such-rule&gt;"));
    // Scores outside 0..=100 are clamped.
    let page = render_report("https://svc.example", "example.com", &json!({"score": {"percentage": 900}}), &[]);
    assert!(page.contains(r#"<span class="score-value">100</span>"#));
    // An audited URL that is not http(s) is not a link.
    let page =
        render_report("https://svc.example", "example.com", &json!({"page": {"url": "javascript:alert(1)"}}), &[]);
    assert!(!page.contains("href=\"javascript:"));
    assert!(page.contains("<dd>javascript:alert(1)</dd>"));
    // Huge values are cut.
    let big = "x".repeat(50_000);
    let page = render_report("https://svc.example", "example.com", &json!({"page": {"title": big}}), &[]);
    assert!(page.len() < 40_000);
}

#[test]
fn landing_page_has_the_audit_form_and_snippets() {
    let page = render_landing("https://svc.example/");
    let elements = html(&page);
    let form = elements.iter().find(|e| e.name == "form").expect("form");
    assert_eq!((form.attrs["method"].as_str(), form.attrs["action"].as_str()), ("get", "/report"));
    let input = elements.iter().find(|e| e.name == "input").expect("input");
    assert_eq!(input.attrs["type"], "url");
    assert_eq!(input.attrs["name"], "url");
    assert!(input.attrs.contains_key("required"));
    assert!(elements.iter().any(|e| e.name == "label" && e.attrs.get("for") == input.attrs.get("id")));
    assert!(elements.iter().any(|e| e.name == "a" && e.attrs.get("href").map(String::as_str) == Some("/openapi.json")));
    assert!(page.contains("&lt;script async src=&quot;https://svc.example/widget.js&quot; data-domain=&quot;example.com&quot;&gt;&lt;/script&gt;"));
    assert!(page.contains("data-position=&quot;inline&quot;"));
    assert!(page.contains("format=iframe"));
    assert!(!elements.iter().any(|e| e.name == "script"));
    for cat in Category::ALL {
        assert!(page.contains(&pages::escape(cat.as_str())), "{cat:?}");
    }
    let hostile = render_landing("https://svc.example/\"><script>x</script>");
    html(&hostile);
    // The image snippet itself stays well-formed markup whatever the base URL holds.
    html(&pages::report::image_snippet("https://svc.example/\"><script>x</script>", "example.com"));
    assert!(!hostile.contains("<script>x"));
}

#[test]
fn escape_xml_cases() {
    for (input, expected) in [
        ("plain", "plain"),
        ("<>&\"'", "&lt;&gt;&amp;&quot;&#39;"),
        ("&amp;", "&amp;amp;"),
        ("tab\tnl\n", "tab\tnl\n"),
        ("nul\u{0}", "nul\u{fffd}"),
        ("ünï ✓", "ünï ✓"),
    ] {
        assert_eq!(badge::escape_xml(input), expected, "{input:?}");
    }
    assert_eq!(pages::encode_component("a b/é"), "a%20b%2F%C3%A9");
}

#[test]
fn security_headers() {
    let get =
        |headers: &[(&str, &str)], name: &str| headers.iter().find(|(k, _)| *k == name).map(|(_, v)| v.to_string());
    for headers in [pages::HTML_SECURITY_HEADERS, pages::IFRAME_SECURITY_HEADERS, pages::SVG_SECURITY_HEADERS] {
        assert_eq!(get(headers, "x-content-type-options").as_deref(), Some("nosniff"));
        assert!(headers.iter().all(|(k, _)| *k == k.to_ascii_lowercase()));
    }
    let page = get(pages::HTML_SECURITY_HEADERS, "content-security-policy").unwrap();
    assert!(
        page.contains("default-src 'none'")
            && page.contains("frame-ancestors 'none'")
            && page.contains("form-action 'self'")
    );
    let iframe = get(pages::IFRAME_SECURITY_HEADERS, "content-security-policy").unwrap();
    assert!(iframe.contains("default-src 'none'") && iframe.contains("frame-ancestors *"));
    assert!(get(pages::IFRAME_SECURITY_HEADERS, "x-frame-options").is_none());
    assert_eq!(pages::SVG_CACHE_CONTROL, "public, max-age=300");
}

// ---------------------------------------------------------------------------------------
// widget.js

/// The script with comments and string, template and regex literals blanked out, so that
/// what remains is code structure.
fn js_code_only(src: &str) -> String {
    let b: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    let mut last_sig = '(';
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i + 1 < b.len() && !(b[i] == '*' && b[i + 1] == '/') {
                i += 1;
            }
            i += 2;
            out.push(' ');
        } else if c == '"' || c == '\'' || c == '`' || (c == '/' && "(,=:[!&|?{};".contains(last_sig)) {
            let mut in_class = false;
            i += 1;
            while i < b.len() {
                match b[i] {
                    '\\' => i += 1,
                    '[' if c == '/' => in_class = true,
                    ']' if c == '/' => in_class = false,
                    x if x == c && !in_class => break,
                    _ => {}
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
            last_sig = '"';
        } else {
            out.push(c);
            if !c.is_whitespace() {
                last_sig = c;
            }
            i += 1;
        }
    }
    out
}

#[test]
fn widget_is_one_strict_iife() {
    let src = pages::WIDGET_JS;
    let code = js_code_only(src);
    let compact: String = code.chars().filter(|c| !c.is_whitespace()).collect();
    assert!(compact.starts_with("(function(){\"\";"), "starts with the IIFE and its directive: {}", &compact[..40]);
    assert!(src.trim_start().starts_with("(function () {\n  \"use strict\";"));
    assert!(compact.ends_with("})();"));
    // The parenthesis opened first closes only right before the final call: one expression.
    let mut depth = 0i32;
    let chars: Vec<char> = compact.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        match c {
            '(' | '{' | '[' => depth += 1,
            ')' | '}' | ']' => depth -= 1,
            _ => {}
        }
        assert!(depth >= 0, "unbalanced at {i}");
        if depth == 0 {
            assert_eq!(i, chars.len() - 4, "top level closes early at {i}: {}", &compact[i.saturating_sub(30)..=i]);
            break;
        }
    }
    assert_eq!(&compact[compact.len() - 3..], "();");
}

#[test]
fn widget_builds_dom_without_markup_apis() {
    let code = js_code_only(pages::WIDGET_JS);
    for banned in [
        "innerHTML",
        "outerHTML",
        "insertAdjacentHTML",
        "document.write",
        "eval(",
        "Function(",
        "setTimeout(",
        "setInterval(",
    ] {
        assert!(!code.contains(banned), "{banned}");
    }
    for needed in [
        "data-svc-processed",
        "document.currentScript",
        "createElement",
        "textContent",
        "DOMContentLoaded",
        "svc-widget",
        "data-svc-domain",
        "position:fixed",
        "rel",
        "noopener",
    ] {
        assert!(pages::WIDGET_JS.contains(needed), "{needed}");
    }
}

/// A fake DOM just large enough for the widget, in which the script runs in its own global
/// context; the scenarios assert what it inserts.
const WIDGET_HARNESS: &str = r##"
"use strict";
const fs = require("fs");
const vm = require("vm");
const assert = require("assert");
const src = fs.readFileSync(process.argv[2], "utf8");

class El {
  constructor(doc, tag) { this.doc = doc; this.tagName = tag.toUpperCase(); this.attrs = new Map(); this.children = []; this.parent = null; this.text = ""; }
  setAttribute(k, v) { this.attrs.set(k, String(v)); }
  getAttribute(k) { return this.attrs.has(k) ? this.attrs.get(k) : null; }
  hasAttribute(k) { return this.attrs.has(k); }
  appendChild(c) { c.parent = this; this.children.push(c); return c; }
  set textContent(t) { this.text = String(t); this.children = []; }
  get textContent() { return this.text + this.children.map(c => c.textContent).join(""); }
  set innerHTML(v) { throw new Error("innerHTML used"); }
  get src() { const s = this.getAttribute("src"); return s === null ? "" : new URL(s, this.doc.baseURI).href; }
  all() { const out = []; const walk = e => { for (const c of e.children) { out.push(c); walk(c); } }; walk(this); return out; }
  querySelectorAll(sel) {
    let test;
    if (sel === 'script[src*="widget.js"]') test = e => e.tagName === "SCRIPT" && (e.getAttribute("src") || "").includes("widget.js");
    else if (sel === "a.svc-widget-link") test = e => e.tagName === "A" && (e.getAttribute("class") || "").split(" ").includes("svc-widget-link");
    else throw new Error("unsupported selector " + sel);
    return this.all().filter(test);
  }
}

function page(opts) {
  const listeners = {};
  const doc = {
    baseURI: opts.base || "https://shop.example/products/",
    readyState: opts.readyState || "interactive",
    currentScript: null,
    createElement(tag) { return new El(doc, tag); },
    getElementById(id) { return [doc.root, ...doc.root.all()].find(e => e.getAttribute("id") === id) || null; },
    querySelectorAll(sel) { return doc.root.querySelectorAll(sel); },
    addEventListener(name, fn) { (listeners[name] = listeners[name] || []).push(fn); },
    write() { throw new Error("document.write used"); },
    fire(name) { const l = listeners[name] || []; listeners[name] = []; l.forEach(f => f()); },
    listeners,
  };
  doc.root = new El(doc, "html");
  doc.body = doc.root.appendChild(new El(doc, "body"));
  const win = { addEventListener: doc.addEventListener };
  const warnings = [];
  const ctx = { document: doc, location: { hostname: opts.hostname || "www.shop.example" }, window: win, URL,
                console: { warn: m => warnings.push(m) } };
  vm.createContext(ctx);
  const before = Object.keys(ctx).sort().join(",");
  const run = (script) => { doc.currentScript = script; vm.runInContext(src, ctx); doc.currentScript = null;
    assert.strictEqual(Object.keys(ctx).sort().join(","), before, "no global leaked"); };
  const script = (attrs) => { const s = new El(doc, "script"); for (const k in attrs) s.setAttribute(k, attrs[k]); (doc.body || doc.root).appendChild(s); return s; };
  const links = () => doc.root.querySelectorAll("a.svc-widget-link");
  return { doc, run, script, links, warnings, win };
}

const scenarios = {
  fixed_default() {
    const p = page({});
    const s = p.script({ src: "https://svc.example/widget.js" });
    p.run(s);
    assert.ok(s.hasAttribute("data-svc-processed"));
    const box = p.doc.getElementById("svc-widget-fixed");
    assert.ok(box, "fixed container");
    assert.match(box.getAttribute("style"), /position:fixed;right:16px;bottom:16px;z-index:\d+/);
    const [a] = p.links();
    assert.strictEqual(a.parent.parent, box);
    assert.strictEqual(a.getAttribute("href"), "https://svc.example/report/shop.example");
    assert.strictEqual(a.getAttribute("target"), "_blank");
    assert.strictEqual(a.getAttribute("rel"), "noopener");
    assert.strictEqual(a.getAttribute("data-svc-domain"), "shop.example");
    const img = a.children[0];
    assert.strictEqual(img.tagName, "IMG");
    assert.strictEqual(img.getAttribute("src"), "https://svc.example/api/widget?domain=shop.example&color=10b981&size=medium");
    assert.strictEqual(img.getAttribute("alt"), "SEO score for shop.example");
    assert.strictEqual(img.getAttribute("width"), "200");
    assert.strictEqual(img.getAttribute("height"), "56");
    assert.deepStrictEqual(p.warnings, []);
  },
  loaded_twice() {
    const p = page({});
    const s = p.script({ src: "https://svc.example/widget.js", "data-domain": "example.com" });
    p.run(s);
    p.run(s);
    const s2 = p.script({ src: "https://svc.example/widget.js", "data-domain": "example.com" });
    p.run(s2);
    assert.strictEqual(p.links().length, 1);
    assert.ok(s2.hasAttribute("data-svc-processed"));
    const s3 = p.script({ src: "https://svc.example/widget.js", "data-domain": "other.example" });
    p.run(s3);
    assert.strictEqual(p.links().length, 2, "another domain is another badge");
  },
  inline_present() {
    const p = page({});
    const target = p.doc.body.appendChild(p.doc.createElement("div"));
    target.setAttribute("id", "svc-widget");
    const s = p.script({ src: "https://svc.example/widget.js", "data-position": "inline", "data-color": "FF0000",
                         "data-size": "small", "data-domain": "Example.COM" });
    p.run(s);
    const [a] = p.links();
    assert.strictEqual(a.parent.parent, target);
    const img = a.children[0];
    assert.strictEqual(img.getAttribute("src"), "https://svc.example/api/widget?domain=example.com&color=ff0000&size=small");
    assert.strictEqual(img.getAttribute("width"), "140");
    assert.strictEqual(p.doc.getElementById("svc-widget-fixed"), null);
  },
  inline_later() {
    const p = page({ readyState: "loading" });
    const s = p.script({ src: "https://svc.example/widget.js", "data-position": "inline", "data-domain": "example.com" });
    p.run(s);
    assert.strictEqual(p.links().length, 0);
    const target = p.doc.body.appendChild(p.doc.createElement("div"));
    target.setAttribute("id", "svc-widget");
    p.doc.readyState = "interactive";
    p.doc.fire("DOMContentLoaded");
    assert.strictEqual(p.links().length, 1);
    assert.strictEqual(p.links()[0].parent.parent, target);
  },
  inline_never() {
    const p = page({ readyState: "loading" });
    p.run(p.script({ src: "https://svc.example/widget.js", "data-position": "inline", "data-domain": "example.com" }));
    p.doc.fire("DOMContentLoaded");
    assert.strictEqual(p.links().length, 0);
    assert.ok(p.warnings.some(w => w.includes("svc-widget")), "warns");
  },
  hostile_attributes() {
    const p = page({});
    const s = p.script({ src: "https://svc.example/widget.js", "data-domain": "example.com",
                         "data-brand": "<img src=x onerror=alert(1)>", "data-link": "javascript:alert(1)",
                         "data-color": "red;background:url(x)", "data-size": "__proto__" });
    p.run(s);
    const [a] = p.links();
    assert.strictEqual(a.getAttribute("href"), "https://svc.example/report/example.com");
    assert.ok(a.children[0].getAttribute("src").endsWith("&color=10b981&size=medium"));
    const brand = a.parent.children[1];
    assert.strictEqual(brand.tagName, "SPAN");
    assert.strictEqual(brand.textContent, "<img src=x onerror=alert(1)>");
    assert.strictEqual(brand.children.length, 0);
    assert.strictEqual(p.doc.root.all().filter(e => e.tagName === "IMG").length, 1);
    assert.ok(p.warnings.some(w => w.includes("data-color")), "colour warning: " + p.warnings);
    assert.ok(p.warnings.some(w => w.includes("data-size")), "size warning: " + p.warnings);
    assert.ok(p.warnings.some(w => w.includes("data-link")), "link warning: " + p.warnings);
  },
  invalid_values_fall_back_with_a_warning() {
    const cases = [
      [{ "data-color": "#2563eb" }, "color=10b981&size=medium", "data-color"],
      [{ "data-color": "" }, "color=10b981&size=medium", "data-color"],
      [{ "data-color": "fff" }, "color=10b981&size=medium", "data-color"],
      [{ "data-size": "huge" }, "color=10b981&size=medium", "data-size"],
      [{ "data-size": "Small" }, "color=10b981&size=medium", "data-size"],
      [{ "data-size": "" }, "color=10b981&size=medium", "data-size"],
      [{ "data-position": "top" }, "color=10b981&size=medium", "data-position"],
      [{ "data-color": "2563EB", "data-size": "large", "data-position": "fixed" }, "color=2563eb&size=large", null],
    ];
    for (const [attrs, query, warned] of cases) {
      const p = page({});
      p.run(p.script(Object.assign({ src: "https://svc.example/widget.js", "data-domain": "example.com" }, attrs)));
      const [a] = p.links();
      assert.ok(a, "a badge despite " + JSON.stringify(attrs));
      assert.strictEqual(a.children[0].getAttribute("src"), "https://svc.example/api/widget?domain=example.com&" + query);
      assert.ok(p.doc.getElementById("svc-widget-fixed"), "fixed position");
      if (warned) {
        assert.strictEqual(p.warnings.length, 1, JSON.stringify(attrs) + ": " + p.warnings);
        assert.ok(p.warnings[0].startsWith("seo-audit widget: " + warned), p.warnings[0]);
      } else {
        assert.deepStrictEqual(p.warnings, [], JSON.stringify(attrs));
      }
    }
  },
  ip_address_domain() {
    for (const given of ["1.2.3.4", "10.0.0.1.", "[::1]", "example.1a"]) {
      const p = page({});
      p.run(p.script({ src: "https://svc.example/widget.js", "data-domain": given }));
      assert.strictEqual(p.links().length, 0, given);
      assert.ok(p.warnings.length === 1 && p.warnings[0].includes("data-domain"), given + ": " + p.warnings);
    }
    const p = page({ hostname: "192.168.1.10" });
    p.run(p.script({ src: "https://svc.example/widget.js" }));
    assert.strictEqual(p.links().length, 0);
    assert.ok(p.warnings.some(w => w.includes("set data-domain")), "" + p.warnings);
  },
  domains_as_the_server_takes_them() {
    // [data-domain, what badge::validate_domain makes of it (null: refused)], from the test.
    const cases = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));
    assert.ok(cases.length > 100);
    for (const [given, expected] of cases) {
      const p = page({});
      p.run(p.script({ src: "https://svc.example/widget.js", "data-domain": given }));
      const got = p.links().map(a => a.getAttribute("data-svc-domain"));
      assert.deepStrictEqual(got, expected === null ? [] : [expected], JSON.stringify(given));
      assert.strictEqual(p.warnings.length, expected === null ? 1 : 0, JSON.stringify(given) + ": " + p.warnings);
    }
  },
  white_label_link() {
    const p = page({});
    p.run(p.script({ src: "https://svc.example/widget.js", "data-domain": "example.com", "data-link": "https://agency.example/seo?x=1", "data-brand": "Agency" }));
    const [a] = p.links();
    assert.strictEqual(a.getAttribute("href"), "https://agency.example/seo?x=1");
    assert.strictEqual(a.parent.textContent, "Agency");
  },
  invalid_domain() {
    const p = page({});
    p.run(p.script({ src: "https://svc.example/widget.js", "data-domain": "\"><script>x</script>" }));
    assert.strictEqual(p.links().length, 0);
    assert.ok(p.warnings.length > 0);
  },
  path_prefix() {
    const p = page({});
    p.run(p.script({ src: "https://svc.example/seo/widget.js?v=2", "data-domain": "example.com" }));
    const [a] = p.links();
    assert.strictEqual(a.getAttribute("href"), "https://svc.example/seo/report/example.com");
    assert.ok(a.children[0].getAttribute("src").startsWith("https://svc.example/seo/api/widget?domain=example.com"));
  },
  relative_src() {
    const p = page({ base: "https://svc.example/docs/" });
    p.run(p.script({ src: "/widget.js", "data-domain": "example.com" }));
    assert.strictEqual(p.links()[0].getAttribute("href"), "https://svc.example/report/example.com");
  },
  no_current_script() {
    const p = page({});
    p.script({ src: "https://svc.example/widget.js", "data-domain": "a.example" });
    p.script({ src: "https://svc.example/widget.js", "data-domain": "b.example" });
    p.script({ src: "https://cdn.example/not-our-widget.js", "data-domain": "c.example" });
    p.run(null);
    p.run(null);
    const domains = p.links().map(a => a.getAttribute("data-svc-domain")).sort();
    assert.deepStrictEqual(domains, ["a.example", "b.example"]);
  },
  injected_inline_code() {
    const p = page({});
    const tag = p.script({ src: "https://svc.example/widget.js", "data-domain": "a.example" });
    const inline = p.script({});
    p.run(inline);
    assert.strictEqual(p.links().length, 1);
    assert.ok(tag.hasAttribute("data-svc-processed"));
    assert.ok(!inline.hasAttribute("data-svc-processed"));
  },
  head_script_without_body() {
    const p = page({ readyState: "loading" });
    const body = p.doc.body;
    p.doc.body = null;
    p.run(p.script({ src: "https://svc.example/widget.js", "data-domain": "example.com" }));
    assert.strictEqual(p.links().length, 0);
    p.doc.body = body;
    p.doc.fire("DOMContentLoaded");
    assert.strictEqual(p.links().length, 1);
  },
  auto_domain_without_www() {
    const p = page({ hostname: "WWW.Shop.Example" });
    p.run(p.script({ src: "https://svc.example/widget.js" }));
    assert.strictEqual(p.links()[0].getAttribute("data-svc-domain"), "shop.example");
  },
};

for (const [name, fn] of Object.entries(scenarios)) {
  fn();
  console.log("ok " + name);
}
console.log("ALL OK");
"##;

/// `data-domain` values for the widget to judge as the server does: the hand-written cases
/// of [`domains`] and host-like strings from the generator of the pattern test (empty
/// values excluded: they mean "this page's own host").
fn domain_inputs() -> Vec<String> {
    use proptest::strategy::ValueTree;
    let long = format!("{}.com", vec!["a".repeat(63); 4].join("."));
    let mut out: Vec<String> = [
        "example.com",
        "Example.COM",
        " www.example.com ",
        "\twww.example.com\r\n",
        "\u{a0}example.com",
        "example.com\u{b}",
        "example.1a",
        "example.a1",
        "example.com+",
        "example.com.",
        "example.com..",
        "xn--bcher-kva.example",
        "a-b.c-d.example",
        "localhost",
        "LOCALHOST",
        "localhost.",
        "www.localhost",
        ".",
        "com",
        "example..com",
        ".example.com",
        "-example.com",
        "example-.com",
        "exa_mple.com",
        "example.com/path",
        "example.com:8080",
        "user@example.com",
        "https://example.com",
        "bücher.example",
        "\u{212a}ey.example",
        "127.0.0.1",
        "1.2.3.4",
        "10.0.0.1.",
        "[::1]",
        "::1",
        "\"><script>.com",
        " ",
        "\u{c}a.example\u{c}",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    out.extend([long.clone(), long[1..].to_string(), long[2..].to_string(), format!(" {}", &long[1..])]);
    out.push(format!("{}.com", "a".repeat(64)));
    let label = proptest::string::string_regex("[aZ0-9\\-_\u{212a}]{0,4}|a{60,65}").unwrap();
    let pad = || proptest::string::string_regex("[ \t\n\u{b}\u{a0}]{0,2}").unwrap();
    let dot = proptest::string::string_regex("[.]{0,2}").unwrap();
    let host = (pad(), proptest::collection::vec(label, 1..6), dot, pad()).prop_map(
        |(a, labels, dot, b): (String, Vec<String>, String, String)| format!("{a}{}{dot}{b}", labels.join(".")),
    );
    // And names that are mostly valid: the cases where a rule is one character away.
    let near_label = proptest::string::string_regex("[a-zA-Z0-9][a-zA-Z0-9-]{0,5}|1").unwrap();
    let near_pad = || proptest::string::string_regex("[ \t\r\n\u{c}]{0,1}").unwrap();
    let near = (near_pad(), proptest::collection::vec(near_label, 1..4), "[.]?", near_pad()).prop_map(
        |(a, labels, dot, b): (String, Vec<String>, String, String)| format!("{a}{}{dot}{b}", labels.join(".")),
    );
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    for _ in 0..300 {
        out.push(host.new_tree(&mut runner).unwrap().current());
        out.push(near.new_tree(&mut runner).unwrap().current());
    }
    out.retain(|s| !s.is_empty());
    out
}

/// Whether node runs. Missing, the widget test skips with a message, unless
/// `SEO_AUDIT_REQUIRE_NODE=1` (`.ci/run` sets it, as it sets `SEO_AUDIT_REQUIRE_BROWSER` for
/// the browser tests): then its absence fails the test.
fn node_runs() -> bool {
    let runs = std::process::Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success());
    if !runs {
        assert!(
            std::env::var("SEO_AUDIT_REQUIRE_NODE").as_deref() != Ok("1"),
            "SEO_AUDIT_REQUIRE_NODE=1 but `node --version` does not run (install Node.js)"
        );
        eprintln!("skipped: node is not installed or does not run (SEO_AUDIT_REQUIRE_NODE=1 makes this fail)");
    }
    runs
}

#[test]
fn widget_behaves_in_a_fake_dom() {
    if !node_runs() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("web-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let harness = dir.join("harness.js");
    let widget = dir.join("widget.js");
    let domains = dir.join("domains.json");
    std::fs::write(&harness, WIDGET_HARNESS).unwrap();
    std::fs::write(&widget, pages::WIDGET_JS).unwrap();
    let cases: Vec<(String, Option<String>)> =
        domain_inputs().into_iter().map(|d| (d.clone(), validate_domain(&d))).collect();
    let accepted = cases.iter().filter(|(_, d)| d.is_some()).count();
    assert!(accepted > 50 && cases.len() - accepted > 50, "{accepted} of {} accepted", cases.len());
    std::fs::write(&domains, serde_json::to_string(&cases).unwrap()).unwrap();
    let out = std::process::Command::new("node").arg(&harness).arg(&widget).arg(&domains).output().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && stdout.contains("ALL OK"), "stdout:\n{stdout}\nstderr:\n{stderr}");
}

#[test]
fn report_links_the_newest_site_crawl_when_there_is_one() {
    let typed: audit_core::AuditResult =
        serde_json::from_value(json!({"score": {"percentage": 80}, "scanned_at": "2026-11-20T10:00:00Z"})).unwrap();
    let crawl = pages::report::CrawlLink {
        id: "cr_0123456789abcdefABCDEF".into(),
        site_score: Some(72),
        pages: 41,
        finished_at: "2026-11-21T09:30:00.000Z".into(),
    };
    let page =
        pages::report::render_report_with_crawl("https://svc.example", "shop.example", &typed, &[], &[], Some(&crawl));
    assert!(page.contains(r#"href="https://svc.example/crawls/cr_0123456789abcdefABCDEF""#), "{page}");
    assert!(page.contains("41 pages fetched") && page.contains("72/100"), "{page}");
    assert!(page.contains("2026-11-21"), "{page}");
    let without = pages::report::render_report_with_history("https://svc.example", "shop.example", &typed, &[], &[]);
    assert!(!without.contains("Site crawl") && !without.contains("/crawls/"), "{without}");
}

/// A stored readiness record as the report page reads it back, with text from a hostile
/// site in every place the site controls.
fn hostile_readiness() -> pages::report::ReadinessShown {
    use ai_visibility::{ClassRecord, DocRecord, EdgeBotRecord, EdgeRecord, LlmsIssueRecord, ReadinessRecord};
    let payload = "<script>alert(1)</script>";
    let mut record: ReadinessRecord = serde_json::from_value(json!({
        "url": "https://shop.example/?token=secret#frag",
        "score": 47,
        "crawlers": 130,
        "crawlers_blocked": 17,
        "content_signals": {
            "present": true, "search": "yes", "ai_train": "no",
            "lines": [{"group": "User-agent: *", "line": 3, "value": format!("search=yes, ai-train=no {payload}")}],
            "lines_total": 25,
            "explanation": ["Search engines may index and cite the site."]
        },
        "discovery_total": 7,
        "llms": {"url": "https://shop.example/llms.txt", "present": true, "valid": false, "title": payload,
                 "sections": 2, "links": 9, "issues_total": 3}
    }))
    .unwrap();
    record.classes = vec![ClassRecord {
        class: "training".into(),
        title: "model training".into(),
        crawlers: 41,
        blocked: 12,
        disallow_ignored: 4,
    }];
    record.edge = Some(EdgeRecord {
        comparable: true,
        browser_status: Some(200),
        browser_text_bytes: 5120,
        bots: vec![
            EdgeBotRecord {
                bot: "GPTBot".into(),
                status: Some(403),
                text_bytes: 9,
                blocked: true,
                evidence: Some("status 403 Forbidden where the browser got 200".into()),
            },
            EdgeBotRecord {
                bot: "ChatGPT-User".into(),
                status: Some(200),
                text_bytes: 5120,
                ..EdgeBotRecord::default()
            },
        ],
        blocked: 1,
        not_checked: 0,
    });
    record.discovery = vec![DocRecord {
        kind: "AI catalog".into(),
        url: "https://shop.example/.well-known/ai-catalog.json?k=v".into(),
        status: Some(200),
        present: true,
        valid: false,
        errors: 2,
        first_error: Some(format!("entries[0].identifier: {payload}")),
    }];
    record.llms.issues = vec![LlmsIssueRecord { severity: "error".into(), line: Some(4), message: payload.into() }];
    pages::readiness::strip_query_strings(&mut record);
    pages::report::ReadinessShown { record, checked_at: "2026-11-28T10:00:00.000Z".into() }
}

#[test]
fn the_ai_readiness_section_shows_the_stored_answer_escaped_and_without_query_strings() {
    let result: audit_core::AuditResult =
        serde_json::from_value(json!({"page": {"url": "https://shop.example/", "final_url": "https://shop.example/"}}))
            .unwrap();
    let shown = hostile_readiness();
    let page = pages::report::render_report_with_readiness(
        "https://svc.example",
        "shop.example",
        &result,
        &[],
        &[],
        None,
        Some(&shown),
    );
    html(&page);
    assert!(page.contains("<h2 id=\"ai-h\">AI readiness</h2>"), "{page}");
    assert!(page.contains("<strong class=\"ai-score\">47/100</strong>"));
    assert!(page.contains("<strong class=\"ai-blocked\">17</strong> of the 130 AI crawlers"));
    assert!(page.contains("<tr data-class=\"training\"><td>model training</td><td>41</td><td>12</td><td>4</td></tr>"));
    assert!(page.contains("Showing the first 1 of 25."), "a cut list says so");
    assert!(page.contains("Showing the first 1 of 7."));
    assert!(page.contains("<strong class=\"ai-edge-blocked\">1</strong> of the 2 crawlers fetched"));
    assert!(page.contains("status 403 Forbidden where the browser got 200"));
    assert!(page.contains("<span class=\"ai-llms-findings\">3 findings</span>"));
    assert!(page.contains("on 2026-11-28"));
    // The site's text is text, and no query string or fragment is shown.
    assert!(!page.contains("<script"), "{page}");
    assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    for secret in ["token=secret", "#frag", "k=v"] {
        assert!(!page.contains(secret), "{secret} shown");
    }

    // Without a readiness answer there is no section.
    let none = pages::report::render_report_with_readiness(
        "https://svc.example",
        "shop.example",
        &result,
        &[],
        &[],
        None,
        None,
    );
    assert!(!none.contains("ai-h"));
}
