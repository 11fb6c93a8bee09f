//! Placeholders: every value a fix could not take from the page is a `TODO:` text inside the
//! snippet and listed in `placeholders`, so that it cannot be pasted unnoticed; a value the
//! page gives (title, h1, first paragraph, site name) is used instead (docs/API.md,
//! "POST /api/auto-fix-batch").

use std::path::{Path, PathBuf};

use audit_core::{HttpFacts, Page};
use autofix::{fix_for_rule, placeholders, template_ids, Fix, FixContext, TODO_MARK};

/// Values templates used to write where they knew nothing: none may stand in a snippet
/// unless a `TODO:` text names it.
const STAND_INS: &[&str] = &[
    "example.com",
    "/new-address",
    "/old-address",
    "/images/photo.jpg",
    "/js/app.js",
    "0.00",
    "Second topic",
    "shown on the page",
    "og-image.jpg",
    "what the page offers",
    "\": \"\"",
    "/page\"",
    ">Topic<",
    ">Section<",
    "width=\"800\"",
    "height=\"600\"",
    "the page it leads to",
];

fn html_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            html_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "html") {
            out.push(path);
        }
    }
}

/// Every HTML page under `fixtures/`, parsed at an address of its own.
fn fixture_pages() -> Vec<(String, Vec<u8>, Page)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
    let mut files = Vec::new();
    html_files(&root, &mut files);
    files.sort();
    assert!(files.len() >= 20, "fixture pages: {}", files.len());
    files
        .into_iter()
        .map(|f| {
            let rel = f.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/");
            let bytes = std::fs::read(&f).unwrap();
            let page = Page::parse(&format!("https://fixture.test/{rel}"), &bytes, HttpFacts::default());
            (rel, bytes, page)
        })
        .collect()
}

/// The placeholders of a fix are its `TODO:` texts, each standing in the snippet, and no
/// stand-in value is in the snippet without a `TODO:` naming it.
fn check_marked(what: &str, source: &str, fix: &Fix) {
    let ctx = format!("{what} {:?}:\n{}\n{:?}", fix.rule_id, fix.fix, fix.placeholders);
    assert_eq!(fix.placeholders, placeholders(&fix.fix), "{ctx}");
    assert_eq!(fix.placeholders.len(), fix.fix.matches(TODO_MARK).count(), "{ctx}");
    let lines: Vec<&str> = fix.fix.lines().collect();
    for p in &fix.placeholders {
        assert!(p.text.starts_with(TODO_MARK) && p.text.len() > TODO_MARK.len() + 5, "{ctx}");
        assert!(lines[p.line - 1].contains(&p.text), "{ctx}: {p:?}");
    }
    for token in STAND_INS.iter().filter(|t| !source.contains(*t)) {
        if fix.fix.contains(token) {
            assert!(fix.placeholders.iter().any(|p| p.text.contains(token)), "{ctx}: {token:?} stands unmarked");
        }
    }
    if !fix.placeholders.is_empty() {
        assert!(fix.explanation.contains("marked TODO"), "{ctx}");
    }
}

#[test]
fn no_fix_over_the_fixture_pages_hides_a_placeholder() {
    let pages = fixture_pages();
    let mut checked = 0;
    let mut with_placeholders = 0;
    for (rel, bytes, page) in &pages {
        let source = String::from_utf8_lossy(bytes);
        let ctx = FixContext { page: Some(page), ..FixContext::default() };
        for id in template_ids() {
            let fix = fix_for_rule(id, Some(&ctx)).unwrap();
            check_marked(rel, &source, &fix);
            checked += 1;
            with_placeholders += usize::from(!fix.placeholders.is_empty());
        }
    }
    for (name, ctx) in [
        ("no context", None),
        ("url only", Some(FixContext { url: Some("https://shop.test/blog/post-one".into()), ..FixContext::default() })),
        ("title only", Some(FixContext { title: Some("Copper kettles".into()), ..FixContext::default() })),
    ] {
        for id in template_ids() {
            let fix = fix_for_rule(id, ctx.as_ref()).unwrap();
            check_marked(name, "", &fix);
            checked += 1;
            with_placeholders += usize::from(!fix.placeholders.is_empty());
        }
    }
    println!("{checked} fixes checked, {with_placeholders} with placeholders");
    // The check would notice: some fixes do carry placeholders.
    assert!(with_placeholders > 0);
}

const KETTLE: &str = r#"<!doctype html><html lang="en"><head><title>Copper kettles, hammered by hand | Kessel & Co</title>
<meta property="og:site_name" content="Kessel &amp; Co"></head><body>
<h1>Hand-hammered copper kettles</h1>
<p>Every kettle is hammered by hand in our workshop from one sheet of copper, tinned inside and finished with a brass handle that stays cool.</p>
</body></html>"#;

#[test]
fn a_fix_with_page_context_uses_the_page_and_without_it_asks() {
    let page = Page::parse("https://kessel.test/kettles", KETTLE.as_bytes(), HttpFacts::default());
    let with = FixContext { page: Some(&page), ..FixContext::default() };
    // (rule id, what the fix says with the page, the TODO it carries without)
    let cases = [
        (
            "meta-description-missing",
            "content=\"Every kettle is hammered by hand in our workshop",
            "content=\"TODO: describe what this page offers in one or two sentences of 70 to 160 characters\"",
        ),
        (
            "title-missing",
            "<title>Copper kettles, hammered by hand | Kessel &amp; Co</title>",
            "<title>TODO: name the page",
        ),
        ("h1-missing", "<h1>Hand-hammered copper kettles</h1>", "<h1>TODO: name the topic of the page</h1>"),
        (
            "og-title-missing",
            "content=\"Copper kettles, hammered by hand | Kessel &amp; Co\"",
            "content=\"TODO: title of the page",
        ),
        ("canonical-missing", "href=\"https://kessel.test/kettles\"", "href=\"TODO: full URL of this page\""),
        ("llms-txt-missing", "# Kessel & Co", "# TODO: name of the site or organisation"),
        (
            "structured-data-missing",
            "\"headline\": \"Hand-hammered copper kettles\"",
            "\"name\": \"TODO: name of the site or organisation\"",
        ),
    ];
    for (id, from_page, todo) in cases {
        let fix = fix_for_rule(id, Some(&with)).unwrap();
        assert!(fix.fix.contains(from_page), "{id}: {from_page:?} not in\n{}", fix.fix);
        assert!(fix.placeholders.is_empty(), "{id}: {:?}", fix.placeholders);
        assert!(!fix.fix.contains(TODO_MARK), "{id}: {}", fix.fix);
        let bare = fix_for_rule(id, None).unwrap();
        assert!(bare.fix.contains(todo), "{id}: {todo:?} not in\n{}", bare.fix);
        assert!(!bare.placeholders.is_empty(), "{id}");
        check_marked(id, "", &bare);
    }
    // A title and no page: the title names the topic, nothing else is invented.
    let title = FixContext { title: Some("Copper kettles".into()), ..FixContext::default() };
    let h1 = fix_for_rule("h1-missing", Some(&title)).unwrap();
    assert_eq!((h1.fix.as_str(), h1.placeholders.len()), ("<h1>Copper kettles</h1>", 0));
}

#[test]
fn placeholders_are_found_where_they_stand() {
    let code = "<meta name=\"description\" content=\"TODO: say it\">\nlocation = TODO: a path {\n    return 301 TODO: full URL;\n}\n- [TODO: name](TODO: url): TODO: a note";
    let got: Vec<(String, usize)> = placeholders(code).into_iter().map(|p| (p.text, p.line)).collect();
    let want = [
        ("TODO: say it", 1),
        ("TODO: a path", 2),
        ("TODO: full URL", 3),
        ("TODO: name", 5),
        ("TODO: url", 5),
        ("TODO: a note", 5),
    ];
    assert_eq!(got, want.map(|(t, l)| (t.to_string(), l)));
    let v = serde_json::to_value(fix_for_rule("canonical-missing", None).unwrap()).unwrap();
    assert_eq!(v["placeholders"], serde_json::json!([{"text": "TODO: full URL of this page", "line": 1}]), "{v}");
}
