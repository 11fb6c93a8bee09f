//! The classifier held by labelled pages (`fixtures/content-gap/labelled/`, `LABELS.tsv`):
//! at least five per page type and five that are none of them, each with the step that must
//! decide (declared, structure, words).

use std::collections::BTreeMap;
use std::path::PathBuf;

use audit_core::{HttpFacts, Page};
use content_gap::{analyze, classify_page, DecidedBy, GapInput, PageType, SECTIONS};

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/content-gap/labelled")
}

struct Label {
    file: String,
    url: String,
    page_type: PageType,
    decided_by: DecidedBy,
}

fn labels() -> Vec<Label> {
    let tsv = std::fs::read_to_string(dir().join("LABELS.tsv")).unwrap();
    tsv.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let decided_by = match f[3] {
                "declared" => DecidedBy::Declared,
                "structure" => DecidedBy::Structure,
                "words" => DecidedBy::Words,
                other => panic!("{l}: decided_by {other}"),
            };
            Label {
                file: f[0].into(),
                url: f[1].into(),
                page_type: PageType::from_name(f[2]).unwrap_or_else(|| panic!("{l}")),
                decided_by,
            }
        })
        .collect()
}

fn parse(label: &Label) -> Page {
    let bytes = std::fs::read(dir().join(&label.file)).unwrap();
    Page::parse(&label.url, &bytes, HttpFacts::default())
}

#[test]
fn labelled_pages_are_classified_by_the_step_that_should_decide() {
    let labels = labels();
    let mut per_type: BTreeMap<&str, usize> = BTreeMap::new();
    let mut wrong = Vec::new();
    for label in &labels {
        *per_type.entry(label.page_type.name()).or_default() += 1;
        let c = classify_page(&parse(label));
        if (c.page_type, c.decided_by) != (label.page_type, label.decided_by) {
            wrong.push(format!(
                "{}: {:?} by {:?}, expected {:?} by {:?} ({})",
                label.file, c.page_type, c.decided_by, label.page_type, label.decided_by, c.reason
            ));
        }
        assert!(!c.reason.is_empty() && !c.signals.is_empty(), "{}", label.file);
    }
    assert!(wrong.is_empty(), "{} of {} wrong:\n{}", wrong.len(), labels.len(), wrong.join("\n"));
    for t in PageType::ALL {
        assert!(per_type.get(t.name()).copied().unwrap_or(0) >= 5, "fewer than 5 labelled {}: {per_type:?}", t.name());
    }
}

#[test]
fn declared_types_and_structure_win_over_words() {
    // A product page whose address and title speak of a recipe: the declaration decides.
    let html = r#"<html><head><title>Recipe box, oak | Shop</title>
      <script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Recipe box"}</script>
      </head><body><h1>Recipe box</h1><h2>Ingredients</h2><p>200 g of oak, 2 tbsp of oil, 1 tsp of wax.</p></body></html>"#;
    let c =
        classify_page(&Page::parse("https://shop.example/recipes/recipe-box", html.as_bytes(), HttpFacts::default()));
    assert_eq!((c.page_type, c.decided_by), (PageType::Product, DecidedBy::Declared), "{}", c.reason);
    assert_eq!(c.reason, "The page declares schema.org @type Product in JSON-LD.");
    assert_eq!((c.signals[0].source, c.signals[0].value.as_str()), ("json-ld", "Product"));
    // Without the declaration, its ingredient list makes it a recipe by structure.
    let bare = html.replace("\"Product\"", "\"Thing\"");
    let c =
        classify_page(&Page::parse("https://shop.example/recipes/recipe-box", bare.as_bytes(), HttpFacts::default()));
    assert_eq!((c.page_type, c.decided_by), (PageType::Recipe, DecidedBy::Structure), "{}", c.reason);
    assert!(c.reason.contains("200 g") && c.reason.contains("Ingredients"), "{}", c.reason);
}

#[test]
fn the_copper_kettle_workshop_is_no_recipe() {
    let label = labels().into_iter().find(|l| l.file.ends_with("copper-kettle-workshop.html")).unwrap();
    let bytes = std::fs::read(dir().join(&label.file)).unwrap();
    for url in ["https://kessel.example/", "https://kessel.example/en/", "https://kessel.example/about/kettles"] {
        let page = Page::parse(url, &bytes, HttpFacts::default());
        let report = analyze(&GapInput { url: url.into(), page: Some(&page), ..GapInput::default() });
        assert_ne!(report.page_type, PageType::Recipe, "{url}: {}", report.page_type_reason);
        let sections: Vec<&str> = report.gaps.iter().filter_map(|g| g.section.as_deref()).collect();
        for recipe_only in ["Ingredients", "Prep and cook time", "Instructions"] {
            assert!(!sections.contains(&recipe_only), "{url}: {sections:?}");
        }
    }
    let page = Page::parse("https://kessel.example/", &bytes, HttpFacts::default());
    let report = analyze(&GapInput { url: page.url.clone(), page: Some(&page), ..GapInput::default() });
    assert_eq!(report.page_type, PageType::Home);
    assert_eq!(report.page_type_reason, "The page is the root of its site (/).");
    // Its links to products show it covers what it offers.
    assert!(report.covered.iter().any(|c| c == "Products and services"), "{:?}", report.covered);
    // A language's root or an index file is the site's root too.
    for url in ["https://kessel.example/en/", "https://kessel.example/de-at", "https://kessel.example/index.html"] {
        let page = Page::parse(url, &bytes, HttpFacts::default());
        let c = classify_page(&page);
        assert_eq!((c.page_type, c.decided_by), (PageType::Home, DecidedBy::Structure), "{url}: {}", c.reason);
    }
}

/// A gap heading is a bare template label when it is a catalogue heading as it stands.
pub(crate) fn is_bare_label(heading: &str) -> bool {
    SECTIONS.iter().any(|s| s.heading.eq_ignore_ascii_case(heading.trim()))
}

#[test]
fn gap_headings_name_the_page_and_reasons_say_what_the_section_covers() {
    for label in labels() {
        let page = parse(&label);
        let report = analyze(&GapInput { url: label.url.clone(), page: Some(&page), ..GapInput::default() });
        for g in &report.gaps {
            assert!(!is_bare_label(&g.heading), "{}: {g:?}", label.file);
            assert!(g.reason.starts_with("Top-ranking "), "{}: {g:?}", label.file);
            let section = g.section.as_deref().unwrap_or_default();
            assert!(g.reason.contains(&format!("usually have a \"{section}\" section")), "{}: {g:?}", label.file);
            assert!(g.reason.contains(") covering "), "{}: {g:?}", label.file);
        }
    }
    // The example of docs/API.md: a how-to article lacking sections gets them named.
    let html = "<html><head><title>How to clean a copper kettle | Kessel & Co</title></head><body>\
        <h1>How to clean a copper kettle</h1><p>By Anna Holz, March 3, 2024</p></body></html>";
    let page = Page::parse("https://kessel.example/blog/clean-copper-kettle", html.as_bytes(), HttpFacts::default());
    let report = analyze(&GapInput { url: page.url.clone(), page: Some(&page), ..GapInput::default() });
    assert_eq!(report.page_type, PageType::Article, "{}", report.page_type_reason);
    let main = report.gaps.iter().find(|g| g.section.as_deref() == Some("Main sections")).expect("main sections gap");
    assert_eq!(main.heading, "How to clean a copper kettle: step by step");
    assert!(main.reason.contains("one subheading per step or question"), "{}", main.reason);
}
