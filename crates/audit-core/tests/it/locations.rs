//! Locations of findings (docs/API.md, "The audit result"): every located element's selector
//! matches exactly that element when a real selector engine (scraper, on html5ever) runs it
//! over the same document, and its line and column point at its start tag in the text.

use std::path::{Path, PathBuf};

use audit_core::{HttpFacts, Location, Page, Spot};
use html5ever::tendril::TendrilSink;

/// The document as a selector engine sees it, parsed with scripting off as the audit parses.
fn scraper_document(html: &str) -> scraper::Html {
    let opts = html5ever::ParseOpts {
        tree_builder: html5ever::tree_builder::TreeBuilderOpts { scripting_enabled: false, ..Default::default() },
        ..Default::default()
    };
    html5ever::parse_document(scraper::HtmlTreeSink::new(scraper::Html::new_document()), opts).one(html)
}

/// Every element spot of a page with the element name it must have.
fn spots(page: &Page) -> Vec<(String, Spot)> {
    let mut out: Vec<(String, Spot)> = Vec::new();
    out.extend(page.images.iter().map(|i| ("img".to_string(), i.spot)));
    out.extend(page.links.iter().map(|l| ("a".to_string(), l.spot)));
    out.extend(page.headings.iter().map(|h| (format!("h{}", h.level), h.spot)));
    out.extend(page.hreflang.iter().map(|h| ("link".to_string(), h.spot)));
    out.extend(page.json_ld.iter().map(|b| ("script".to_string(), b.spot)));
    let s = &page.spots;
    out.extend(
        [("html", s.html), ("head", s.head), ("title", s.title), ("meta", s.viewport)].map(|(n, s)| (n.into(), s)),
    );
    out.extend(s.head_titles.iter().map(|&s| ("title".to_string(), s)));
    out.extend(s.meta_descriptions.iter().chain(&s.meta_robots).map(|&s| ("meta".to_string(), s)));
    out.extend(s.canonicals.iter().map(|&s| ("link".to_string(), s)));
    out.extend(s.social.values().map(|&s| ("meta".to_string(), s)));
    out.extend(s.render_blocking_scripts.iter().map(|&s| ("script".to_string(), s)));
    out.retain(|(_, s)| s.is_some());
    out
}

/// The line and column of a location, found in the text by the rules of [`Location::line`].
fn text_at(html: &str, at: &Location) -> String {
    let normalised = html.replace("\r\n", "\n").replace('\r', "\n");
    let line = normalised.split('\n').nth(at.line as usize - 1).unwrap_or_default();
    line.chars().skip(at.column as usize - 1).take(40).collect()
}

/// Problems of the locations of one page, described.
fn check_page(name: &str, html: &str) -> Vec<String> {
    let page = Page::parse("https://example.com/dir/page.html", html.as_bytes(), HttpFacts::new());
    if page.analysis.flattened_elements > 0 || !page.analysis.is_complete() {
        return Vec::new();
    }
    let document = scraper_document(html);
    let mut problems = Vec::new();
    // Each selector is run over the whole document: a sample of a large page's elements,
    // spread over it, keeps the test quick.
    let all = spots(&page);
    let step = all.len().div_ceil(20).max(1);
    for (element, spot) in all.into_iter().step_by(step) {
        let Some(at) = page.locate(spot) else {
            problems.push(format!("{name}: a {element} spot gives no location"));
            continue;
        };
        let selector = match scraper::Selector::parse(&at.selector) {
            Ok(s) => s,
            Err(e) => {
                problems.push(format!("{name}: {} does not parse: {e:?}", at.selector));
                continue;
            }
        };
        let matched: Vec<_> = document.select(&selector).collect();
        if matched.len() != 1 || !matched[0].value().name().eq_ignore_ascii_case(&element) {
            problems.push(format!(
                "{name}: {} matches {} element(s) ({:?}), expected one <{element}> ({at:?})",
                at.selector,
                matched.len(),
                matched.iter().map(|m| m.value().name().to_string()).collect::<Vec<_>>()
            ));
            continue;
        }
        let written = text_at(html, &at).to_ascii_lowercase();
        if !written.starts_with(&format!("<{element}")) {
            problems.push(format!("{name}: line {} column {} reads {written:?}, not <{element}", at.line, at.column));
        }
        let head: String = at.snippet.chars().take(20).collect::<String>().to_ascii_lowercase();
        if !at.snippet.to_ascii_lowercase().starts_with(&format!("<{element}")) || !at.snippet.ends_with('>') {
            problems.push(format!("{name}: snippet {:?} is not the start tag of <{element}>", at.snippet));
        }
        if at.snippet.chars().count() > 200 || head.is_empty() {
            problems.push(format!("{name}: snippet {:?} is too long", at.snippet));
        }
        // The matched element is this one: its source attributes agree.
        let m = matched[0].value();
        let ours = (element.as_str(), m.attr("src"), m.attr("href"));
        if let ("img", Some(src), _) = ours {
            if !page.images.iter().any(|i| i.spot == spot && i.src == src) {
                problems.push(format!("{name}: {} matches an <img> with src {src:?}, not this one", at.selector));
            }
        }
        if let ("a", _, href) = ours {
            if !page.links.iter().any(|l| l.spot == spot && l.href.as_deref() == href) {
                problems.push(format!("{name}: {} matches an <a> with href {href:?}, not this one", at.selector));
            }
        }
    }
    problems
}

fn html_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            stack.extend(std::fs::read_dir(&path).into_iter().flatten().flatten().map(|e| e.path()));
        } else if path.extension().is_some_and(|e| e == "html") {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// Every fixture page of the crate and, in the repository, the fixture sites and the corpus
/// pages when `../shared` is beside it.
#[test]
fn selectors_match_exactly_their_element_and_lines_point_at_the_start_tag() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = Vec::new();
    for dir in ["tests/fixtures", "../../fixtures/sites", "../../../shared/corpus/pages"] {
        pages.extend(html_files(&root.join(dir)));
    }
    assert!(pages.len() > 100, "fixture pages not found under {}", root.display());
    let mut problems = Vec::new();
    for path in &pages {
        let bytes = std::fs::read(path).expect("readable");
        let (html, _) = audit_core::decode(&bytes, None);
        problems.extend(check_page(&path.display().to_string(), &html));
    }
    assert!(problems.is_empty(), "{} problem(s):\n{}", problems.len(), problems[..problems.len().min(40)].join("\n"));
}

/// Pages written to be hard: ids shared or odd, siblings of one name, tags over lines,
/// attributes holding `<img`, CR line ends, and a minified page on one line.
#[test]
fn hard_markup_is_located_exactly() {
    let cases = [
        "<!DOCTYPE html>\n<html lang=en>\n<head>\n<title>T</title>\n</head>\n<body>\n<div id=x><img src=a.png></div>\n<div id=x><img src=b.png><img\n   src=c.png\n   alt=\"<img src=d.png>\"></div>\n</body></html>",
        "<html><body><div id=\"1a b\"><a href=/one>1</a></div><div id=\"main.c\"><p><a href=/two>2</a><a href=/three>3</a></p></div></body></html>",
        "<html>\r<head>\r\n<meta name=description content=x>\r<link rel=canonical href=/c>\r\n</head>\r<body><h1>A</h1>\r\n<h2>B</h2><h2>C</h2></body></html>",
        "<p>no head or body tags<img src=x.png><a href=#a>a</a></p><table><tr><td><img src=t.png></td></tr></table>",
        "<html><head><script type=\"application/ld+json\">{\"@type\":\"Thing\",\"x\":\"<img src=q>\"}</script></head><body><svg><a href=/svg-link>s</a></svg><a href=/html-link>h</a></body></html>",
        "<html><body><b><a href=/x>one<p>two</a></b><img src=z.png></body></html>",
    ];
    let mut problems = Vec::new();
    for (i, html) in cases.iter().enumerate() {
        problems.extend(check_page(&format!("case {i}"), html));
    }
    let minified: String = (0..300).map(|i| format!("<div><a href=/p{i}>é{i}</a><img src=/i{i}.png></div>")).collect();
    problems.extend(check_page("minified", &format!("<html><body>{minified}</body></html>")));
    assert!(problems.is_empty(), "{} problem(s):\n{}", problems.len(), problems.join("\n"));

    let page = Page::parse("https://e.com/", cases[0].as_bytes(), HttpFacts::new());
    let at: Vec<Location> = page.images.iter().filter_map(|i| page.locate(i.spot)).collect();
    let got: Vec<(u32, u32, &str)> = at.iter().map(|l| (l.line, l.column, l.selector.as_str())).collect();
    assert_eq!(
        got,
        [
            (7, 11, "html > body > div:nth-of-type(1) > img"),
            (8, 11, "html > body > div:nth-of-type(2) > img:nth-of-type(1)"),
            (8, 26, "html > body > div:nth-of-type(2) > img:nth-of-type(2)"),
        ]
    );
    assert_eq!(at[2].snippet, "<img src=c.png alt=\"<img src=d.png>\">");
    let page = Page::parse("https://e.com/", cases[1].as_bytes(), HttpFacts::new());
    let selectors: Vec<String> = page.links.iter().filter_map(|l| page.locate(l.spot)).map(|l| l.selector).collect();
    assert_eq!(selectors, ["#\\31 a\\ b > a", "#main\\.c > p > a:nth-of-type(1)", "#main\\.c > p > a:nth-of-type(2)"]);
}

/// The engine's bounds (docs/API.md, "Analysis limits") cut pages short or flatten them; what
/// was read still points at the lines it came from.
#[test]
fn locations_survive_the_analysis_limits() {
    use audit_core::{audit, Outcome};
    let alt_missing = |page: Page| {
        let audit = audit(page);
        let check = audit.checks.iter().find(|c| c.rule.id == "image-alt-missing").expect("rule runs");
        match &check.outcome {
            Outcome::Fail(f) => f.clone(),
            other => panic!("image-alt-missing gives {other:?}"),
        }
    };

    // Cut by the budget: 20,000 lines, one image each; the budget runs out early.
    let mut html = String::from("<!DOCTYPE html>\n<html><body>\n");
    for k in 0..20_000 {
        html.push_str(&format!("<p>word {k}</p><img src=\"i{k}.png\">\n"));
    }
    let asked = std::cell::Cell::new(0u32);
    let budget = || {
        asked.set(asked.get() + 1);
        asked.get() > 4
    };
    let page = Page::parse_within("https://e.com/", html.as_bytes(), HttpFacts::new(), &budget);
    assert!(!page.analysis.is_complete(), "the budget stopped the parse");
    let read = page.images.len();
    assert!(read > 50 && read < 20_000, "{read} images read");
    let f = alt_missing(page);
    assert_eq!(f.locations_total as usize, read);
    assert_eq!(f.locations.len(), 50);
    for (k, at) in f.locations.iter().enumerate() {
        let expected_column = format!("<p>word {k}</p>").chars().count() as u32 + 1;
        assert_eq!((at.line, at.column), (k as u32 + 3, expected_column), "{at:?}");
        assert_eq!(at.snippet, format!("<img src=\"i{k}.png\">"));
    }

    // Flattened past the depth limit: 1,000 nested elements, one per line, then images.
    let mut html = String::from("<html><body>\n");
    for _ in 0..1000 {
        html.push_str("<div>\n");
    }
    html.push_str("  <img src=deep.png>\n<img src=deeper.png>\n");
    let page = Page::parse("https://e.com/", html.as_bytes(), HttpFacts::new());
    assert!(page.analysis.flattened_elements > 0);
    let f = alt_missing(page);
    let got: Vec<(u32, u32, &str)> = f.locations.iter().map(|l| (l.line, l.column, l.snippet.as_str())).collect();
    assert_eq!(got, [(1002, 3, "<img src=deep.png>"), (1003, 1, "<img src=deeper.png>")]);
    assert!(f.locations.iter().all(|l| l.selector.starts_with("html > body > div > div")));
}
