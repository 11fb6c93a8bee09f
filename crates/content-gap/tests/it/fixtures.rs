//! Data-driven tests over the fixture pages in `fixtures/content-gap/`, one per page type,
//! plus German headings, body overrides and competitor comparison.

use std::path::PathBuf;

use audit_core::{HttpFacts, Page};
use content_gap::{analyze, Basis, ContentGapReport, Gap, GapInput, PageType, Priority};

fn fixture(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/content-gap").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The catalogue section a gap is, or (for a heading only competitors share) its heading.
fn section_of(g: &Gap) -> &str {
    g.section.as_deref().unwrap_or(&g.heading)
}

fn page(url: &str, html: &[u8]) -> Page {
    Page::parse(url, html, HttpFacts::default())
}

/// What one fixture must give.
struct Case {
    file: &'static str,
    url: &'static str,
    page_type: PageType,
    coverage: (u8, u8),
    gaps: &'static [&'static str],
    not_gaps: &'static [&'static str],
}

fn check(case: &Case) {
    let p = page(case.url, &fixture(case.file));
    let report = analyze(&GapInput { url: case.url.into(), page: Some(&p), ..GapInput::default() });
    let gaps: Vec<&str> = report.gaps.iter().map(section_of).collect();
    let ctx = format!(
        "{}: {:?} coverage {} gaps {gaps:?} signals {:?}",
        case.file, report.page_type, report.coverage, report.classification.signals
    );
    assert_eq!(report.page_type, case.page_type, "{ctx}");
    assert_eq!(report.basis, Basis::Model, "{ctx}");
    assert!((case.coverage.0..=case.coverage.1).contains(&report.coverage), "{ctx}");
    for g in case.gaps {
        assert!(gaps.contains(g), "{ctx}: expected gap {g}");
    }
    for g in case.not_gaps {
        assert!(!gaps.contains(g), "{ctx}: unexpected gap {g}");
    }
    assert!(report.classification.confidence > 0 && !report.classification.signals.is_empty(), "{ctx}");
    // Gaps are ordered high, medium, low.
    assert!(report.gaps.windows(2).all(|w| w[0].priority <= w[1].priority), "{ctx}");
    assert!(report.gaps.iter().all(|g| g.estimated_words > 0 && !g.reason.is_empty()), "{ctx}");
}

const CASES: &[Case] = &[
    Case {
        file: "article.html",
        url: "https://example.com/blog/start-composting",
        page_type: PageType::Article,
        coverage: (50, 65),
        gaps: &["Key takeaways", "Frequently asked questions", "Sources and author"],
        not_gaps: &["Introduction", "Main sections", "Conclusion"],
    },
    Case {
        file: "product.html",
        url: "https://shop.example/product/aeropress-clear",
        page_type: PageType::Product,
        coverage: (50, 62),
        gaps: &["Shipping and returns", "Pricing", "Frequently asked questions", "Comparison with alternatives"],
        not_gaps: &["Specifications", "Customer reviews", "Product description"],
    },
    Case {
        file: "category.html",
        url: "https://runshop.example/collections/running-shoes",
        page_type: PageType::Category,
        coverage: (50, 60),
        gaps: &["Buying guide", "Frequently asked questions"],
        not_gaps: &["Shop by category", "Bestsellers", "Top brands", "Introduction"],
    },
    Case {
        file: "service.html",
        url: "https://northwind.example/services/seo-consulting",
        page_type: PageType::Service,
        coverage: (40, 55),
        gaps: &["Pricing", "Case studies", "Customer reviews", "Frequently asked questions", "About us"],
        not_gaps: &["Services", "Benefits", "How it works", "Get a quote"],
    },
    Case {
        file: "local_business.html",
        url: "https://zahnarzt-weber.example/standort-muenchen",
        page_type: PageType::LocalBusiness,
        coverage: (72, 85),
        gaps: &["Frequently asked questions", "About us"],
        not_gaps: &["Address and opening hours", "Services", "Contact and directions", "Customer reviews"],
    },
    Case {
        file: "documentation.html",
        url: "https://tidyq.example/docs/getting-started",
        page_type: PageType::Documentation,
        coverage: (75, 88),
        gaps: &["Troubleshooting", "Frequently asked questions"],
        not_gaps: &["Overview", "Installation", "Quick start", "Examples", "API reference"],
    },
    Case {
        file: "recipe.html",
        url: "https://kochen.example/rezepte/apfelstrudel",
        page_type: PageType::Recipe,
        coverage: (62, 75),
        gaps: &["Prep and cook time", "Nutrition facts", "Frequently asked questions"],
        not_gaps: &["Ingredients", "Instructions", "Tips and variations", "Introduction"],
    },
    Case {
        file: "faq.html",
        url: "https://parcelly.example/faq",
        page_type: PageType::Faq,
        coverage: (60, 72),
        gaps: &["Contact and directions", "Account"],
        not_gaps: &["Questions and answers", "Ordering", "Payment", "Shipping and returns"],
    },
    Case {
        file: "comparison.html",
        url: "https://apps.example/notion-vs-obsidian",
        page_type: PageType::Comparison,
        coverage: (65, 78),
        gaps: &["How we tested", "Frequently asked questions"],
        not_gaps: &["Comparison table", "Pros and cons", "Pricing", "Verdict", "Introduction"],
    },
    Case {
        file: "home.html",
        url: "https://hollowoak.example/",
        page_type: PageType::Home,
        coverage: (45, 55),
        gaps: &["Benefits", "Get a quote", "Contact and directions"],
        not_gaps: &["Products and services", "About us", "Customer reviews"],
    },
    Case {
        // A legal notice is none of the types: no model, so no gaps without competitors.
        file: "other.html",
        url: "https://hollowoak.example/impressum",
        page_type: PageType::Other,
        coverage: (100, 100),
        gaps: &[],
        not_gaps: &["Introduction", "Main sections"],
    },
];

#[test]
fn every_page_type_has_a_fixture() {
    for t in PageType::ALL {
        assert!(CASES.iter().any(|c| c.page_type == t), "no fixture for {}", t.name());
    }
}

#[test]
fn fixtures() {
    for case in CASES {
        check(case);
    }
}

#[test]
fn report_serialises_per_decisions() {
    let p = page("https://shop.example/product/aeropress-clear", &fixture("product.html"));
    let report = analyze(&GapInput { url: p.url.clone(), page: Some(&p), ..GapInput::default() });
    let v = serde_json::to_value(&report).unwrap();
    assert_eq!(v["pageType"], "product");
    assert!(v["coverage"].is_u64());
    let gap = &v["gaps"][0];
    assert_eq!(gap["priority"], "medium", "pricing is the first gap of the product fixture");
    assert!(gap["heading"].is_string() && gap["estimatedWords"].is_u64() && gap["reason"].is_string(), "{gap}");
    assert_eq!(v["classification"]["pageType"], "product");
    assert!(v["classification"]["signals"][0]["source"].is_string());
    // Deterministic: the same input gives byte-identical output.
    let again = analyze(&GapInput { url: p.url.clone(), page: Some(&p), ..GapInput::default() });
    assert_eq!(serde_json::to_string(&report).unwrap(), serde_json::to_string(&again).unwrap());
}

fn body_only(url: &str, title: &str, headings: &[&str]) -> ContentGapReport {
    analyze(&GapInput {
        url: url.into(),
        title: Some(title.into()),
        word_count: Some(900),
        headings: Some(headings.iter().map(|h| h.to_string()).collect()),
        ..GapInput::default()
    })
}

#[test]
fn german_headings_match_their_sections() {
    let r = body_only(
        "https://laden.example/produkt/kaffeemuehle",
        "Kaffeemühle Comandante kaufen",
        &[
            "Produktbeschreibung",
            "Technische Daten",
            "Preise",
            "Versand und Rückgabe",
            "Kundenbewertungen",
            "Häufig gestellte Fragen",
            "Vergleich mit ähnlichen Mühlen",
        ],
    );
    assert_eq!(r.page_type, PageType::Product);
    assert_eq!(r.coverage, 100, "{:?}", r.gaps);
    assert!(r.gaps.is_empty());

    let r = body_only(
        "https://docs.example/handbuch/",
        "Dokumentation",
        &["Überblick", "Installation", "Erste Schritte", "Beispiele", "Konfiguration", "Fehlerbehebung"],
    );
    assert_eq!(r.page_type, PageType::Documentation);
    let gaps: Vec<&str> = r.gaps.iter().map(section_of).collect();
    assert_eq!(gaps, vec!["Frequently asked questions"]);

    // Umlauts written out and inflected forms find the same sections.
    let r = body_only(
        "https://kochen.example/rezept/zimtschnecken",
        "Zimtschnecken Rezept",
        &[
            "Die Zutaten",
            "So gehts: Zubereitung Schritt für Schritt",
            "Backzeit",
            "Naehrwerte",
            "Tipps zur Aufbewahrung",
            "Haeufige Fragen",
        ],
    );
    assert_eq!(r.page_type, PageType::Recipe);
    let gaps: Vec<&str> = r.gaps.iter().map(section_of).collect();
    assert!(
        !gaps.iter().any(|g| [
            "Ingredients",
            "Instructions",
            "Prep and cook time",
            "Nutrition facts",
            "Tips and variations",
            "Frequently asked questions"
        ]
        .contains(g)),
        "{gaps:?}"
    );
}

#[test]
fn english_wording_variants() {
    for (heading, expected_covered) in [
        ("Shipping & Delivery", "Shipping and returns"),
        ("Returns policy", "Shipping and returns"),
        ("What customers are saying: ratings", "Customer reviews"),
        ("Tech specs", "Specifications"),
        ("FAQs", "Frequently asked questions"),
        ("How much does it cost?", "Pricing"),
    ] {
        let r = body_only("https://shop.example/product/x", "Thing - buy online", &[heading]);
        assert!(r.covered.iter().any(|c| c == expected_covered), "{heading}: {:?}", r.covered);
    }
}

#[test]
fn body_fields_override_the_page() {
    let p = page("https://example.com/blog/start-composting", &fixture("article.html"));
    let r = analyze(&GapInput {
        url: p.url.clone(),
        headings: Some(vec!["Key takeaways".into(), "FAQ".into()]),
        page: Some(&p),
        ..GapInput::default()
    });
    let gaps: Vec<&str> = r.gaps.iter().map(section_of).collect();
    assert!(!gaps.contains(&"Key takeaways") && !gaps.contains(&"Frequently asked questions"), "{gaps:?}");
    assert!(gaps.contains(&"Conclusion"), "the body's headings replace the page's: {gaps:?}");
}

#[test]
fn empty_input_never_panics() {
    let r = analyze(&GapInput::default());
    assert!(r.coverage <= 100);
    let r = analyze(&GapInput {
        url: "not a url".into(),
        headings: Some(vec!["".into(), "  ".into(), "???".into()]),
        ..GapInput::default()
    });
    assert!(r.coverage <= 100);
    let p = page("https://example.com/", b"\xff\xfe<h2>\x00</h2>");
    let _ = analyze(&GapInput {
        url: p.url.clone(),
        page: Some(&p),
        competitors: std::slice::from_ref(&p),
        ..GapInput::default()
    });
}

fn words(n: usize) -> String {
    vec!["word"; n].join(" ")
}

fn competitor(i: usize, sections: &[(&str, usize)]) -> Page {
    let mut html = String::from("<title>Competitor</title><h1>Aeropress</h1><p>intro</p>");
    for (h, n) in sections {
        html.push_str(&format!("<h2>{h}</h2><p>{}</p>", words(*n)));
    }
    page(&format!("https://competitor{i}.example/product/aeropress"), html.as_bytes())
}

#[test]
fn competitors_two_of_three_make_a_gap_with_median_length() {
    let p = page("https://shop.example/product/aeropress-clear", &fixture("product.html"));
    let comps = [
        competitor(1, &[("Shipping", 100), ("Warranty information", 80), ("Specifications", 50)]),
        competitor(2, &[("Shipping & delivery", 200), ("Warranty information", 120), ("In the press", 40)]),
        competitor(3, &[("Customer reviews", 300), ("Our story", 90)]),
    ];
    let r = analyze(&GapInput { url: p.url.clone(), page: Some(&p), competitors: &comps, ..GapInput::default() });
    assert_eq!(r.basis, Basis::Competitors);
    let find = |h: &str| r.gaps.iter().find(|g| section_of(g) == h);
    let shipping = find("Shipping and returns").expect("shipping gap");
    assert_eq!(shipping.estimated_words, 150, "median of 100 and 200");
    assert!(shipping.reason.starts_with("2 of 3 competitors"), "{}", shipping.reason);
    assert_eq!(shipping.priority, Priority::Medium);
    let warranty = find("Warranty information").expect("heading cluster gap");
    assert_eq!(warranty.estimated_words, 100);
    // One competitor only: no gap. Covered by the page: no gap.
    assert!(find("In the press").is_none() && find("Our story").is_none());
    assert!(find("Specifications").is_none() && find("Customer reviews").is_none());
    // Coverage counts consensus sections only: shipping (2) and warranty (2) are missing.
    assert_eq!(r.coverage, 0);
}

#[test]
fn competitors_without_consensus_fall_back_to_the_model() {
    let p = page("https://shop.example/product/aeropress-clear", &fixture("product.html"));
    let comps = [competitor(1, &[("Shipping", 100)]), competitor(2, &[("Warranty", 50)])];
    let r = analyze(&GapInput { url: p.url.clone(), page: Some(&p), competitors: &comps, ..GapInput::default() });
    assert_eq!(r.basis, Basis::Model);
    let one = [competitor(1, &[("Shipping", 100)])];
    let r = analyze(&GapInput { url: p.url.clone(), page: Some(&p), competitors: &one, ..GapInput::default() });
    assert_eq!(r.basis, Basis::Model);
}

#[test]
fn competitor_sections_the_page_has_count_as_covered() {
    let p = page("https://shop.example/product/aeropress-clear", &fixture("product.html"));
    let comps = [
        competitor(1, &[("Reviews", 100), ("Tech specs", 60)]),
        competitor(2, &[("Kundenbewertungen", 200), ("Spezifikationen", 40)]),
        competitor(3, &[("Shipping", 10)]),
    ];
    let r = analyze(&GapInput { url: p.url.clone(), page: Some(&p), competitors: &comps, ..GapInput::default() });
    assert_eq!(r.basis, Basis::Competitors);
    assert_eq!(r.coverage, 100);
    assert!(r.gaps.is_empty(), "{:?}", r.gaps);
}
