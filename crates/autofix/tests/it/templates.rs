//! Every template, checked by what it is: HTML parses without errors, JSON-LD is valid with
//! `@context` and `@type`, robots.txt lines really let the crawler in.

use ai_visibility::Robots;
use audit_core::{HttpFacts, Page, RobotsTxtFact, RULES};
use autofix::{fix_batch, fix_for_rule, fix_issue, template_ids, Fix, FixContext, FixKind, Issue, EXTRA_TEMPLATES};
use html5ever::tendril::TendrilSink;
use html5ever::{parse_document, ParseOpts};
use markup5ever_rcdom::RcDom;

const MESSY_URL: &str = "https://shop.example/Products/Red_Oak-Chair?utm_source=x&a=1&b=2&c=3";

/// A page with many problems and awkward values (quotes, ampersands, a closing script tag).
const MESSY_HTML: &str = r##"<!doctype html><html lang="en_us"><head>
<title>Oak "Classic" chair &amp; table <set> | Möbel & Co</title>
<script src="http://cdn.example/jquery.js"></script>
<link rel="alternate" hreflang="en-UK" href="/en/chair">
<link rel="alternate" hreflang="de" href="https://shop.example/de/stuhl">
<meta property="og:image" content="/img/chair.jpg">
<script type="application/ld+json">{"@type":"Product","name":"Oak chair <\/script>"}</script>
</head><body>
<h1>Oak chair</h1><h1>Second h1</h1><h3>Skipped level</h3>
<p>The classic oak chair is made by hand in our workshop from sustainably grown Bavarian oak, finished with natural oil, and built to be used every day for decades without wobbling or creaking.</p>
<img src="/img/red_oak-chair_02.jpg"><img src="https://cdn.example/photos/side-view.png" alt="Side view">
<a href="/care-instructions">click here</a><a href="/cart"><svg></svg></a><a onclick="go()">Go</a>
<a href="/about-us" rel="nofollow">About</a>
<h2>Is it solid wood?</h2><p>Yes.</p><h2>Can I order it in walnut?</h2><p>Yes.</p><h2>How long is delivery?</h2><p>Two weeks.</p>
</body></html>"##;

fn messy_page() -> Page {
    let http = HttpFacts::new()
        .with_status(200)
        .with_robots_txt(RobotsTxtFact::new(false, Some("Disallow: /Products/".into())))
        .with_redirects(["http://shop.example/products/red-oak"]);
    Page::parse(MESSY_URL, MESSY_HTML.as_bytes(), http)
}

fn parse_errors(doc: &str) -> Vec<String> {
    let dom = parse_document(RcDom::default(), ParseOpts::default()).one(doc);
    let errors = dom.errors.borrow().iter().map(|e| e.to_string()).collect();
    errors
}

fn is_head_only(fix: &str) -> bool {
    fix.split('<')
        .skip(1)
        .filter(|tag| !tag.starts_with('/') && !tag.starts_with('!'))
        .all(|tag| ["meta", "link", "title", "script", "base", "style"].iter().any(|n| tag.starts_with(n)))
}

/// Places HTML where it belongs and parses the document.
fn check_html(id: &str, fix: &str) {
    let doc = if fix.starts_with("<html") {
        format!("<!DOCTYPE html>{fix}<head><title>t</title></head><body></body></html>")
    } else if is_head_only(fix) {
        format!("<!DOCTYPE html><html><head>{fix}</head><body></body></html>")
    } else {
        format!("<!DOCTYPE html><html><head><title>t</title></head><body>{fix}</body></html>")
    };
    let errors = parse_errors(&doc);
    assert!(errors.is_empty(), "{id}: {errors:?}\n{doc}");
}

fn json_ld_blocks(fix: &str) -> Vec<&str> {
    let open = "<script type=\"application/ld+json\">";
    fix.split(open).skip(1).filter_map(|rest| rest.split("</script>").next()).collect()
}

fn check_json_ld(id: &str, fix: &str) {
    check_html(id, fix);
    let blocks = json_ld_blocks(fix);
    assert!(!blocks.is_empty(), "{id}: no JSON-LD block in {fix}");
    for b in blocks {
        let v: serde_json::Value = serde_json::from_str(b).unwrap_or_else(|e| panic!("{id}: {e}\n{b}"));
        assert_eq!(v["@context"], "https://schema.org", "{id}: {v}");
        assert!(v["@type"].is_string(), "{id}: {v}");
    }
}

fn check_robots(id: &str, fix: &str, url: &str) {
    let robots = Robots::parse(fix.as_bytes());
    if id == "robots-txt-invalid" {
        // Corrected lines, not a whole file: each must be read as written.
        assert!(robots.stats().valid_directives >= 1, "{id}: {fix}");
        assert_eq!(robots.problems(), &[], "{id}: the corrected lines have problems of their own\n{fix}");
        return;
    }
    let stats = robots.stats();
    assert!(stats.valid_directives >= 2, "{id}: {stats:?}");
    assert_eq!(
        (stats.unknown_directives, stats.rules_outside_groups),
        (0, 0),
        "{id}: every line is a directive in a group"
    );
    let bot = match id {
        "robots-txt-blocked" => "Googlebot".to_string(),
        _ => fix.lines().find_map(|l| l.strip_prefix("User-agent: ")).unwrap_or("GPTBot").to_string(),
    };
    assert!(robots.is_allowed(&bot, url), "{id}: {bot} not allowed by\n{fix}");
    // Appended to a file that blocks everything, the lines still let the crawler in.
    let combined = format!("User-agent: *\nDisallow: /\n\nUser-agent: {bot}\nDisallow: /\n\n{fix}");
    assert!(Robots::parse(combined.as_bytes()).is_allowed(&bot, url), "{id}: {bot} blocked by\n{combined}");
}

fn check_fix(id: &str, fix: &Fix, url: &str) {
    assert!(!fix.fix.trim().is_empty() && !fix.explanation.trim().is_empty(), "{id}");
    assert_eq!(fix.rule_id.as_deref(), Some(id));
    match fix.kind {
        FixKind::Html => check_html(id, &fix.fix),
        FixKind::JsonLd => check_json_ld(id, &fix.fix),
        FixKind::Robots => check_robots(id, &fix.fix, url),
        FixKind::Text | FixKind::HttpHeader | FixKind::ServerConfig => {}
    }
}

fn contexts(page: &Page) -> Vec<(String, Option<FixContext<'_>>)> {
    let product = Page::parse(
        "https://shop.example/p/walnut-table",
        br#"<html><head><meta property="og:type" content="product"><title>Walnut table</title></head><body><h1>Walnut table</h1></body></html>"#,
        HttpFacts::default(),
    );
    let product: &'static Page = Box::leak(Box::new(product));
    let garbage = Page::parse(
        "https://g.example/%FF/x_",
        b"\xff\xfe<img src=''><a href=''></a><h3></h3><html lang=''>",
        HttpFacts::default(),
    );
    let garbage: &'static Page = Box::leak(Box::new(garbage));
    vec![
        ("no context".into(), None),
        ("empty context".into(), Some(FixContext::default())),
        (
            "url only".into(),
            Some(FixContext { url: Some("https://example.org/blog/post-one".into()), ..FixContext::default() }),
        ),
        (
            "bad url".into(),
            Some(FixContext {
                url: Some("javascript:alert(1)".into()),
                title: Some("\"><script>".into()),
                ..FixContext::default()
            }),
        ),
        ("messy page".into(), Some(FixContext { page: Some(page), ..FixContext::default() })),
        ("product page".into(), Some(FixContext { page: Some(product), ..FixContext::default() })),
        ("garbage page".into(), Some(FixContext { page: Some(garbage), ..FixContext::default() })),
        (
            // A current value with markup, as a caller might send: never raw in the fix.
            "hostile current value".into(),
            Some(FixContext {
                current_value: Some("\"><script>alert(1)</script> 404 | <h1>".into()),
                ..FixContext::default()
            }),
        ),
        (
            "scheme as current value".into(),
            Some(FixContext { current_value: Some("javascript:alert(1)".into()), ..FixContext::default() }),
        ),
        (
            "home".into(),
            Some(FixContext {
                url: Some("https://example.org/".into()),
                title: Some("Example & Sons".into()),
                ..FixContext::default()
            }),
        ),
    ]
}

#[test]
fn every_rule_has_a_template() {
    let ids = template_ids();
    for r in RULES {
        let id = r.meta().id;
        assert!(ids.contains(&id), "{id} missing from template_ids");
        assert!(fix_for_rule(id, None).is_some(), "rule {id} has no auto-fix template");
    }
    for unit in EXTRA_TEMPLATES {
        let id = unit.id;
        assert!(fix_for_rule(id, None).is_some(), "{id}");
        assert!(!RULES.iter().any(|r| r.meta().id == id), "{id} shadows a rule");
    }
    assert!(fix_for_rule("no-such-rule", None).is_none());
}

#[test]
fn every_template_is_valid_in_every_context() {
    let page = messy_page();
    for (name, ctx) in contexts(&page) {
        let url = ctx
            .as_ref()
            .and_then(|c| c.url.clone().filter(|u| u.starts_with("http")).or(c.page.map(|p| p.final_url.clone())))
            .unwrap_or_else(|| autofix::EXAMPLE_URL.to_string());
        for id in template_ids() {
            let fix = fix_for_rule(id, ctx.as_ref()).unwrap_or_else(|| panic!("{id} [{name}]"));
            println!("checking {id} [{name}]");
            check_fix(id, &fix, &url);
        }
    }
}

fn messy_fix(id: &str) -> Fix {
    let page = messy_page();
    fix_for_rule(id, Some(&FixContext { page: Some(&page), ..FixContext::default() })).unwrap()
}

#[test]
fn templates_fill_in_the_page() {
    // (rule id, text the fix must contain)
    let cases: &[(&str, &str)] = &[
        ("meta-description-missing", "content=\"The classic oak chair is made by hand"),
        (
            "canonical-missing",
            "href=\"https://shop.example/Products/Red_Oak-Chair?utm_source=x&amp;a=1&amp;b=2&amp;c=3\"",
        ),
        ("title-too-long", "<title>Oak &quot;Classic&quot; chair &amp; table &lt;set&gt; | Möbel &amp; Co</title>"),
        ("image-alt-missing", "<img src=\"/img/red_oak-chair_02.jpg\" alt=\"Red oak chair\">"),
        ("link-text-not-descriptive", "<a href=\"https://shop.example/care-instructions\">Care instructions</a>"),
        ("internal-link-nofollow", "<a href=\"https://shop.example/about-us\">About</a>"),
        ("render-blocking-scripts", "<script src=\"http://cdn.example/jquery.js\" defer></script>"),
        ("html-lang-invalid", "<html lang=\"en-US\">"),
        ("og-image-relative", "content=\"https://shop.example/img/chair.jpg\""),
        ("hreflang-invalid-code", "hreflang=\"en-GB\" href=\"https://shop.example/en/chair\""),
        ("hreflang-no-x-default", "hreflang=\"x-default\""),
        ("url-uppercase", "https://shop.example/products/red_oak-chair"),
        ("url-underscores", "https://shop.example/Products/Red-Oak-Chair"),
        ("robots-txt-blocked", "Allow: /Products/Red_Oak-Chair"),
        ("h1-multiple", "<h1>Oak chair</h1>\n<h2>Second h1</h2>"),
        ("heading-levels-skipped", "<h2>Skipped level</h2>"),
        ("structured-data-no-context", "\"@context\": \"https://schema.org\""),
        ("structured-data-no-context", "Oak chair <\\/script>"),
        ("structured-data-missing", "\"@type\": \"Product\""),
        ("structured-data-missing", "\"name\": \"Oak chair\""),
        ("structured-data-missing", "\"@type\": \"BreadcrumbList\""),
        ("redirect-chain", "return 301 https://shop.example/Products/Red_Oak-Chair"),
    ];
    for (id, needle) in cases {
        let fix = messy_fix(id);
        assert!(fix.fix.contains(needle), "{id}: {needle:?} not in\n{}", fix.fix);
    }
    let d = messy_fix("meta-description-missing");
    let content = d.fix.split("content=\"").nth(1).unwrap().trim_end_matches("\">");
    assert!(content.chars().count() <= 160, "{content}");
    let t = messy_fix("title-too-long");
    let title = t.fix.trim_start_matches("<title>").trim_end_matches("</title>");
    assert!(
        title.replace("&quot;", "\"").replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">").chars().count()
            <= 60
    );
}

#[test]
fn json_ld_types_follow_the_page() {
    for (url, og, expected, name) in [
        ("https://shop.example/p/walnut-table", "product", "Product", "Walnut table"),
        ("https://blog.example/2024/05/walnut-care", "article", "Article", "Walnut table"),
        ("https://walnut.example/", "website", "Organization", "walnut.example"),
    ] {
        let html = format!(
            r#"<html><head><meta property="og:type" content="{og}"><title>Walnut table</title></head><body><h1>Walnut table</h1></body></html>"#
        );
        let page = Page::parse(url, html.as_bytes(), HttpFacts::default());
        let fix =
            fix_for_rule("structured-data-missing", Some(&FixContext { page: Some(&page), ..FixContext::default() }))
                .unwrap();
        let first: serde_json::Value = serde_json::from_str(json_ld_blocks(&fix.fix)[0]).unwrap();
        assert_eq!(first["@type"], expected, "{url}");
        let n = first.get("name").or(first.get("headline")).unwrap();
        assert_eq!(n, name, "{url}");
    }
}

#[test]
fn question_headings_give_faq_markup() {
    let html = "<title>Help</title><h1>Help</h1><h2>Is it solid wood?</h2><p>Yes.</p><h2>Can I order walnut?</h2><h2>How long is delivery?</h2>";
    let page = Page::parse("https://help.example/help/chairs", html.as_bytes(), HttpFacts::default());
    let fix = fix_for_rule("structured-data-missing", Some(&FixContext { page: Some(&page), ..FixContext::default() }))
        .unwrap();
    let first: serde_json::Value = serde_json::from_str(json_ld_blocks(&fix.fix)[0]).unwrap();
    assert_eq!(first["@type"], "FAQPage");
    assert_eq!(first["mainEntity"][0]["name"], "Is it solid wood?");
    assert_eq!(first["mainEntity"].as_array().map(Vec::len), Some(3));
}

#[test]
fn robots_fix_names_the_crawler_of_the_issue() {
    for (title, bot) in [
        ("GPTBot is blocked by robots.txt", "GPTBot"),
        ("ClaudeBot cannot crawl the site", "ClaudeBot"),
        ("AI crawler PerplexityBot disallowed", "PerplexityBot"),
    ] {
        let fix = fix_issue(&Issue { title: Some(title.into()), ..Issue::default() });
        assert_eq!(fix.rule_id.as_deref(), Some("ai-crawler-blocked"), "{title}");
        assert_eq!(fix.kind, FixKind::Robots);
        assert!(fix.fix.starts_with(&format!("User-agent: {bot}\n")), "{title}: {}", fix.fix);
        check_robots("ai-crawler-blocked", &fix.fix, "https://example.com/any/page");
    }
}

/// (issue title, description, expected template id)
const MATCHES: &[(&str, &str, Option<&str>)] = &[
    ("Missing meta description", "", Some("meta-description-missing")),
    ("Meta description too long", "The description has 210 characters", Some("meta-description-too-long")),
    ("Images without alt text", "", Some("image-alt-missing")),
    ("3 images are missing alt attributes", "", Some("image-alt-missing")),
    ("Page is blocked by robots.txt", "", Some("robots-txt-blocked")),
    ("Title tag is too long", "", Some("title-too-long")),
    ("Title too short", "", Some("title-too-short")),
    ("Missing title tag", "", Some("title-missing")),
    ("No canonical tag", "", Some("canonical-missing")),
    ("Missing H1 heading", "", Some("h1-missing")),
    ("Multiple H1 tags", "", Some("h1-multiple")),
    ("Missing viewport meta tag", "Page is not mobile friendly", Some("viewport-missing")),
    ("Site not served over HTTPS", "", Some("not-https")),
    ("Missing Open Graph image", "", Some("og-image-missing")),
    ("No structured data found", "Add schema.org JSON-LD", Some("structured-data-missing")),
    ("Missing lang attribute on html element", "", Some("html-lang-missing")),
    ("Page has noindex", "meta robots noindex prevents indexing", Some("page-noindex")),
    ("Render-blocking JavaScript", "", Some("render-blocking-scripts")),
    ("Slow server response time", "TTFB 1.9 s", Some("slow-response")),
    ("Thin content", "Only 120 words", Some("thin-content")),
    ("Twitter card missing", "", Some("twitter-card-missing")),
    ("Missing llms.txt", "", Some("llms-txt-missing")),
    ("Zoom is disabled", "", Some("viewport-not-scalable")),
    ("Favorite colour of the CEO is not purple", "", None),
    // One chance word in common with a rule ("off") is no match.
    ("The vibe of the page is off", "Nobody has a rule for this.", None),
    ("", "", None),
];

#[test]
fn issues_without_id_match_by_text() {
    for (title, description, expected) in MATCHES {
        let issue =
            Issue { title: Some(title.to_string()), description: Some(description.to_string()), ..Issue::default() };
        let got = autofix::match_rule(&issue).map(|m| m.rule_id);
        assert_eq!(got, *expected, "{title:?}");
        let fix = fix_issue(&issue);
        assert_eq!(fix.rule_id.as_deref(), *expected, "{title:?}");
    }
}

#[test]
fn unknown_issues_get_an_honest_text_fix() {
    let fix = fix_issue(&Issue {
        title: Some("Brand voice is inconsistent".into()),
        recommendation: Some("Align the tone with the style guide".into()),
        ..Issue::default()
    });
    assert_eq!(fix.kind, FixKind::Text);
    assert_eq!(fix.rule_id, None);
    assert!(fix.fix.starts_with("No template matches this issue;"), "{}", fix.fix);
    assert!(fix.fix.contains("Align the tone with the style guide"));
    assert_eq!(fix.issue_title, "Brand voice is inconsistent");
    // An unknown id falls back to text matching, not to an error.
    let fix = fix_issue(&Issue {
        id: Some("no-such-rule".into()),
        title: Some("Missing meta description".into()),
        ..Issue::default()
    });
    assert_eq!(fix.rule_id.as_deref(), Some("meta-description-missing"));
}

#[test]
fn batch_keeps_order_and_deserialises_from_the_wire() {
    let body = r#"[
        {"title": "Images without alt text", "description": "2 images", "recommendation": "Add alt", "category": "Images"},
        {"id": "canonical-missing", "context": {"url": "https://example.com/a", "title": "A page", "text": "Some words."}},
        {"title": "Unclear issue"},
        {}
    ]"#;
    let issues: Vec<Issue> = serde_json::from_str(body).unwrap();
    let fixes = fix_batch(&issues);
    assert_eq!(fixes.len(), 4);
    assert_eq!(fixes[0].rule_id.as_deref(), Some("image-alt-missing"));
    assert_eq!(fixes[1].fix, "<link rel=\"canonical\" href=\"https://example.com/a\">");
    assert_eq!(fixes[2].kind, FixKind::Text);
    assert_eq!(fixes[3].issue_title, "Untitled issue");
    let v = serde_json::to_value(&fixes[1]).unwrap();
    for key in ["issueTitle", "fix", "type", "difficulty", "ruleId", "explanation"] {
        assert!(v.get(key).is_some(), "{key} in {v}");
    }
    assert_eq!(v["type"], "html");
    assert_eq!(v["difficulty"], "easy");
    assert_eq!(serde_json::to_value(FixKind::JsonLd).unwrap(), "json-ld");
    assert_eq!(serde_json::to_value(FixKind::ServerConfig).unwrap(), "server-config");
}

/// `location = FROM { return 301 TO; }` pairs of a server-config fix.
fn redirects(fix: &str) -> Vec<(String, String)> {
    fix.split("location = ")
        .skip(1)
        .filter_map(|rest| {
            let (from, tail) = rest.split_once(" {")?;
            let to = tail.split("return 301 ").nth(1)?.split(';').next()?;
            Some((from.to_string(), to.to_string()))
        })
        .collect()
}

#[test]
fn templates_without_a_page_invent_no_facts() {
    let contexts = [
        None,
        Some(FixContext::default()),
        Some(FixContext { url: Some("https://example.org/blog/post-one".into()), ..FixContext::default() }),
        Some(FixContext { url: Some("https://example.org/".into()), ..FixContext::default() }),
        // A current value that is no number, status or address states nothing either.
        Some(FixContext { current_value: Some("unknown".into()), ..FixContext::default() }),
    ];
    for ctx in &contexts {
        for id in template_ids() {
            let fix = fix_for_rule(id, ctx.as_ref()).unwrap();
            let all = format!("{}\n{}", fix.fix, fix.explanation);
            for invented in ["(now 0)", "now 0", "status an error", "status 0", "0 redirects", "goes h"] {
                assert!(!all.contains(invented), "{id} {ctx:?}: {invented:?} in\n{all}");
            }
            for (from, to) in redirects(&fix.fix) {
                let to = url::Url::parse(&to).unwrap_or_else(|e| panic!("{id}: {to}: {e}"));
                let to_path = format!("{}{}", to.path(), to.query().map_or(String::new(), |q| format!("?{q}")));
                assert_ne!(from, to_path, "{id} {ctx:?}: redirects to itself\n{}", fix.fix);
            }
        }
    }
}

/// (rule id, the issue's current value, text the fix or explanation must contain)
const CURRENT_VALUES: &[(&str, &str, &str)] = &[
    ("thin-content", "120", "at least 300 words of its own text (now 120)"),
    ("thin-content", "1,250 words", "(now 1250)"),
    ("http-status-error", "404", "The page answers with status 404."),
    ("http-status-error", "HTTP 410 Gone", "status 410"),
    ("http-status-error", "503", "status 503, a server error"),
    ("redirect-chain", "3 redirects", "goes through 3 redirects now"),
    ("robots-txt-blocked", "Disallow: /private/", "The rule that blocks it now is `Disallow: /private/`"),
    (
        "title-too-long",
        "Oak chairs made by hand in Bavaria from local wood | Möbel Schmidt",
        "<title>Oak chairs made by hand",
    ),
    ("image-alt-missing", "/img/red_oak-chair_02.jpg", "<img src=\"/img/red_oak-chair_02.jpg\" alt=\"Red oak chair\">"),
    ("image-dimensions-missing", "/img/side.png", "<img src=\"/img/side.png\""),
    ("internal-link-nofollow", "https://example.org/about-us", "<a href=\"https://example.org/about-us\">About us</a>"),
    ("link-empty-text", "https://example.org/cart", "href=\"https://example.org/cart\" aria-label=\"Cart\""),
    ("render-blocking-scripts", "/js/jquery.js", "<script src=\"/js/jquery.js\" defer>"),
    ("html-lang-invalid", "en_us", "<html lang=\"en-US\">"),
    ("h1-multiple", "Oak chair | Our workshop", "<h1>Oak chair</h1>\n<h2>Our workshop</h2>"),
    ("heading-levels-skipped", "h2 -> h4", "The page goes h2 to h4 now."),
    ("url-uppercase", "/Shop/Oak", "return 301 https://example.com/shop/oak"),
    ("mixed-content", "http://cdn.example/a.js", "Change these to https: http://cdn.example/a.js."),
];

#[test]
fn templates_state_the_issues_current_value() {
    for (id, current, needle) in CURRENT_VALUES {
        let ctx = FixContext { current_value: Some(current.to_string()), ..FixContext::default() };
        let fix = fix_for_rule(id, Some(&ctx)).unwrap();
        let all = format!("{}\n{}", fix.fix, fix.explanation);
        assert!(all.contains(needle), "{id} {current:?}: {needle:?} not in\n{all}");
    }
}

#[test]
fn the_current_value_arrives_from_the_wire() {
    let body = r#"[
        {"title": "Thin content", "current_value": "120"},
        {"id": "http-status-error", "currentValue": "404"},
        {"id": "thin-content", "context": {"currentValue": "95"}},
        {"id": "thin-content", "currentValue": "80", "context": {"current_value": "95"}},
        {"title": "Thin content"}
    ]"#;
    let issues: Vec<Issue> = serde_json::from_str(body).unwrap();
    let fixes = fix_batch(&issues);
    assert!(fixes[0].fix.contains("(now 120)"), "{}", fixes[0].fix);
    assert!(fixes[1].explanation.starts_with("The page answers with status 404."), "{}", fixes[1].explanation);
    assert!(fixes[2].fix.contains("(now 95)"), "{}", fixes[2].fix);
    // The issue's own value wins over the context's.
    assert!(fixes[3].fix.contains("(now 80)"), "{}", fixes[3].fix);
    assert!(!fixes[4].fix.contains("(now"), "{}", fixes[4].fix);
}
