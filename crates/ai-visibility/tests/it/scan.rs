//! The four-pillar scan: the check table, fixture sites, and one check at a time.

use std::collections::HashSet;
use std::path::PathBuf;

use ai_visibility::{
    ai_visibility_scan, is_question, AiVisibilityScan, CrawlerAccess, CrawlerVerdict, Pillar, Purpose, Robots, AI_BOTS,
    PILLAR_MAX, SCAN_CHECKS,
};
use audit_core::{HttpFacts, Page};

fn fixture(site: &str, file: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/ai").join(site).join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn scan(url: &str, html: &str, llms: Option<&str>, robots: Option<&str>) -> AiVisibilityScan {
    let page = Page::parse(url, html.as_bytes(), HttpFacts::default());
    let robots = robots.map(|r| Robots::parse(r.as_bytes()));
    let result = ai_visibility_scan(&page, llms, robots.as_ref());
    let p = result.pillars;
    for v in [p.llms_txt, p.ai_bot_access, p.answer_structure, p.entity_clarity] {
        assert!(v <= PILLAR_MAX);
    }
    assert_eq!(result.score, p.llms_txt + p.ai_bot_access + p.answer_structure + p.entity_clarity);
    let details: Vec<_> = [
        &result.details.llms_txt,
        &result.details.ai_bot_access,
        &result.details.answer_structure,
        &result.details.entity_clarity,
    ]
    .into_iter()
    .flatten()
    .collect();
    assert_eq!(details.len(), SCAN_CHECKS.len());
    let shortfalls = details.iter().filter(|d| !d.passed).count();
    assert_eq!(result.recommendations.len(), shortfalls, "one recommendation per check short of its maximum");
    result
}

/// Scans `body` (wrapped in a minimal document) and compares the points of the named checks.
fn check(html: &str, llms: Option<&str>, robots: Option<&str>, expected: &[(&str, u8)]) {
    let result = scan("https://acme.example/page", html, llms, robots);
    let details: Vec<_> = [
        &result.details.llms_txt,
        &result.details.ai_bot_access,
        &result.details.answer_structure,
        &result.details.entity_clarity,
    ]
    .into_iter()
    .flatten()
    .collect();
    for (id, points) in expected {
        let d = details.iter().find(|d| d.check == *id).unwrap_or_else(|| panic!("no check {id}"));
        assert_eq!(d.points, *points, "{id} for html={html:?} llms={llms:?} robots={robots:?}");
        assert_eq!(d.passed, d.points == d.max);
    }
}

#[test]
fn table_is_well_formed() {
    let mut ids = HashSet::new();
    for c in SCAN_CHECKS {
        assert!(ids.insert(c.id), "{} is unique", c.id);
        assert!(c.id.chars().all(|ch| ch.is_ascii_lowercase() || ch == '-'), "{} is kebab-case", c.id);
        assert!(c.max > 0 && !c.earns.is_empty() && !c.recommendation.is_empty(), "{} is documented", c.id);
    }
    for pillar in Pillar::ALL {
        let sum: u32 = SCAN_CHECKS.iter().filter(|c| c.pillar == pillar).map(|c| u32::from(c.max)).sum();
        assert_eq!(sum, u32::from(PILLAR_MAX), "{} sums to {PILLAR_MAX}", pillar.key());
    }
}

#[test]
fn full_marks_site_scores_100() {
    let result = scan(
        "https://acme.example/",
        &fixture("full-marks", "index.html"),
        Some(&fixture("full-marks", "llms.txt")),
        Some(&fixture("full-marks", "robots.txt")),
    );
    assert_eq!(result.recommendations, Vec::<String>::new());
    assert_eq!(result.score, 100);
}

#[test]
fn bare_site_scores_little() {
    let result = scan(
        "https://bare.example/",
        &fixture("bare", "index.html"),
        Some(&fixture("bare", "llms.txt")),
        Some(&fixture("bare", "robots.txt")),
    );
    // An HTML page at /llms.txt is no llms.txt; `Disallow: /` for `*` blocks every bot;
    // no structure, no entity. Only the point of `content-signal-search` earns: the file
    // says nothing against search.
    assert_eq!(
        (
            result.pillars.llms_txt,
            result.pillars.ai_bot_access,
            result.pillars.answer_structure,
            result.pillars.entity_clarity
        ),
        (0, 1, 0, 0)
    );
    assert_eq!(result.score, 1);
    // The biggest loss comes first.
    assert!(result.recommendations[0].contains("search crawlers"), "{:?}", result.recommendations);
}

#[test]
fn serialises_as_the_wire_shape() {
    let result = scan("https://acme.example/", "<h1>x</h1>", None, None);
    let json = serde_json::to_value(&result).unwrap();
    let keys: Vec<&str> = json.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "ok",
            "score",
            "version",
            "pillars",
            "recommendations",
            "details",
            "crawlers",
            "crawler_classes",
            "content_signals"
        ]
    );
    assert_eq!(json["version"], ai_visibility::SCAN_VERSION);
    assert_eq!(json["content_signals"]["present"], false);
    let pillars: Vec<&str> = json["pillars"].as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(pillars, ["llmsTxt", "aiBotAccess", "answerStructure", "entityClarity"]);
    assert_eq!(
        json["details"]["llmsTxt"][0],
        serde_json::json!({"check": "llms-present", "points": 0, "max": 5, "passed": false})
    );
    // No robots.txt: every crawler may fetch.
    assert_eq!(json["pillars"]["aiBotAccess"], 25);
    assert_eq!(json["crawlers"].as_array().map(Vec::len), Some(AI_BOTS.len()));
    assert_eq!(
        json["crawlers"][0],
        serde_json::json!({"bot": "GPTBot", "operator": "OpenAI", "purpose": "training", "verdict": "allowed",
            "group": null, "line": null, "rule": "no robots.txt: allowed by default", "respects_robots_txt": "yes",
            "disallow_ignored": false})
    );
    assert_eq!(
        json["crawler_classes"][0],
        serde_json::json!({"purpose": "search", "crawlers": AI_BOTS.iter().filter(|b| b.purpose == Purpose::Search).count(),
            "blocked": 0, "disallow_ignored": 0, "scan_check": "bots-search"})
    );
}

/// The point a check lost can be traced to the crawler and the robots.txt line that cost it.
#[test]
fn crawlers_name_the_bot_and_line_behind_a_lost_point() {
    let robots = "# AI search\nUser-agent: *\nAllow: /\n\nUser-agent: OAI-SearchBot\nUser-agent: Claude-SearchBot\n# not yet\nDisallow: /page\n";
    let result = scan("https://acme.example/page", "<h1>x</h1>", None, Some(robots));
    let search = result.details.ai_bot_access.iter().find(|d| d.check == "bots-search").unwrap();
    let search_total = AI_BOTS.iter().filter(|b| b.purpose == Purpose::Search).count();
    assert!(search_total < 24, "two blocked search crawlers cost a point");
    assert_eq!((search.points, search.max), (7, 8));
    let blocked: Vec<&CrawlerVerdict> =
        result.crawlers.iter().filter(|c| c.verdict == CrawlerAccess::Blocked).collect();
    assert_eq!(blocked.len(), 2, "{:?}", result.crawlers);
    for (c, bot) in blocked.iter().zip(["OAI-SearchBot", "Claude-SearchBot"]) {
        assert_eq!(
            (c.bot, c.purpose, c.group.as_deref(), c.line, c.rule.as_str()),
            (
                bot,
                Purpose::Search,
                Some("User-agent: OAI-SearchBot\nUser-agent: Claude-SearchBot"),
                Some(8),
                "Disallow: /page"
            )
        );
    }
    // Every other crawler is allowed by the `*` group's `Allow: /`, on line 3.
    let bots: Vec<&str> = result.crawlers.iter().map(|c| c.bot).collect();
    assert_eq!(bots, AI_BOTS.iter().map(|b| b.name).collect::<Vec<_>>());
    for c in result.crawlers.iter().filter(|c| !["OAI-SearchBot", "Claude-SearchBot"].contains(&c.bot)) {
        assert_eq!(
            (c.group.as_deref(), c.line, c.rule.as_str()),
            (Some("User-agent: *"), Some(3), "Allow: /"),
            "{}",
            c.bot
        );
    }
}

#[test]
fn llms_txt_checks() {
    let good = "# Acme\n\n> Widgets.\n\n## Docs\n\n- [Guide](https://acme.example/guide.md): start\n";
    check(
        "",
        Some(good),
        None,
        &[
            ("llms-present", 5),
            ("llms-title", 4),
            ("llms-summary", 4),
            ("llms-sections", 5),
            ("llms-absolute-links", 3),
            ("llms-valid", 4),
        ],
    );
    check("", None, None, &[("llms-present", 0), ("llms-title", 0), ("llms-valid", 0)]);
    check("", Some("  \n"), None, &[("llms-present", 0), ("llms-valid", 0)]);
    check("", Some("<!DOCTYPE html><html><body>nope</body></html>"), None, &[("llms-present", 0)]);
    // No summary, a relative link.
    check(
        "",
        Some("# Acme\n\n## Docs\n\n- [Guide](/guide.md)\n"),
        None,
        &[("llms-present", 5), ("llms-summary", 0), ("llms-absolute-links", 0), ("llms-valid", 4)],
    );
    // Two titles, a section without links: errors.
    check(
        "",
        Some("# A\n# B\n\n## Empty\n\nnothing\n\n## Docs\n- [x](https://a.example/x)\n"),
        None,
        &[("llms-title", 0), ("llms-sections", 0), ("llms-valid", 0)],
    );
    // No title at all.
    check(
        "",
        Some("> Summary only\n\n## Docs\n- [x](https://a.example/x)\n"),
        None,
        &[("llms-present", 5), ("llms-title", 0), ("llms-valid", 0)],
    );
}

#[test]
fn bot_access_checks() {
    // Blocking only training crawlers keeps search and user-fetch points.
    // Every crawler of class `training` in the registry, as a site that blocks them writes it.
    let mut training: String = AI_BOTS
        .iter()
        .filter(|b| b.purpose == Purpose::Training)
        .map(|b| format!("User-agent: {}\n", b.name))
        .collect();
    training.push_str("Disallow: /\n");
    check(
        "",
        None,
        Some(&training),
        &[("bots-search", 8), ("bots-user-fetch", 7), ("bots-training", 0), ("bots-named", 1), ("bots-no-blanket", 2)],
    );
    // A blanket block with the search crawlers let back in.
    let blanket = "User-agent: *\nDisallow: /\n\nUser-agent: PerplexityBot\nUser-agent: OAI-SearchBot\nAllow: /\n";
    check(
        "",
        None,
        Some(blanket),
        &[("bots-no-blanket", 0), ("bots-named", 1), ("bots-training", 0), ("bots-user-fetch", 0)],
    );
    // Two of the search crawlers blocked: a share of the points.
    let some_search = "User-agent: PerplexityBot\nUser-agent: OAI-SearchBot\nDisallow: /\n";
    let search_total = AI_BOTS.iter().filter(|b| b.purpose == Purpose::Search).count();
    let expected = ((8 * (search_total - 2)) as f64 / search_total as f64).round() as u8;
    check("", None, Some(some_search), &[("bots-search", expected), ("bots-named", 2), ("bots-no-blanket", 2)]);
    // A block elsewhere on the site does not touch the page.
    check(
        "",
        None,
        Some("User-agent: *\nDisallow: /private\n"),
        &[("bots-search", 8), ("bots-user-fetch", 7), ("bots-training", 4), ("bots-named", 3), ("bots-no-blanket", 2)],
    );
    // Content signals: `ai-train=no` is a choice, `search=no` costs the point.
    let signals = |v: &str| format!("User-agent: *\nContent-Signal: {v}\nAllow: /\n");
    check("", None, Some(&signals("search=yes, ai-train=no")), &[("content-signal-search", 1), ("bots-training", 4)]);
    check("", None, Some(&signals("search=no, ai-train=no")), &[("content-signal-search", 0), ("bots-search", 8)]);
    let result = scan("https://acme.example/page", "", None, Some(&signals("search=no")));
    assert!(result.recommendations.iter().any(|r| r.contains("search=no")), "{:?}", result.recommendations);
    assert_eq!(result.content_signals.search.as_deref(), Some("no"));
    // A blanket block of the page's own directory.
    check("", None, Some("User-agent: *\nDisallow: /page\n"), &[("bots-no-blanket", 0), ("bots-named", 0)]);
}

#[test]
fn answer_structure_checks() {
    let para = "<p>This paragraph answers the question in plain words right at the top.</p>";
    check(
        &format!("<h1>Widgets</h1>{para}<h2>What is a widget?</h2><h2>Sizes</h2>"),
        None,
        None,
        &[("question-headings", 3), ("summary-first", 5), ("heading-density", 3), ("lists", 0), ("tables", 0)],
    );
    check(
        "<h2>Wie funktioniert das</h2><h2>Warum Widgets</h2><ol><li>a</li></ol><table><tr><td>1</td></tr></table>",
        None,
        None,
        &[("question-headings", 6), ("lists", 4), ("tables", 3), ("summary-first", 0), ("heading-density", 3)],
    );
    // A summary after 150 words of preamble is not near the top.
    let preamble = "word ".repeat(150);
    check(&format!("<div>{preamble}</div>{para}"), None, None, &[("summary-first", 0)]);
    check(&format!("<div>{}</div>{para}", "word ".repeat(80)), None, None, &[("summary-first", 5)]);
    // One subheading over a wall of text.
    check(&format!("<h1>A</h1><h2>B</h2><p>{}</p>", "word ".repeat(900)), None, None, &[("heading-density", 0)]);
    check(
        &format!("<h1>A</h1><h2>B</h2><p>{}</p><h2>C</h2><p>{}</p>", "word ".repeat(700), "word ".repeat(10)),
        None,
        None,
        &[("heading-density", 0)],
    );
    // FAQ markup by JSON-LD or microdata.
    check(
        r#"<script type="application/ld+json">{"@context":"https://schema.org","@type":"FAQPage","mainEntity":[]}</script>"#,
        None,
        None,
        &[("faq-markup", 4)],
    );
    check(
        r#"<div itemscope itemtype="https://schema.org/FAQPage"><h2>Q?</h2></div>"#,
        None,
        None,
        &[("faq-markup", 4), ("question-headings", 3)],
    );
    check(r#"<script type="application/ld+json">{"@type":"Article"}</script>"#, None, None, &[("faq-markup", 0)]);
}

#[test]
fn question_words() {
    for (text, q) in [
        ("What is a widget", true),
        ("how to fit one", true),
        ("Sizes?", true),
        ("¿Qué es", true),
        ("Was kostet ein Widget", true),
        ("Warum Stahl", true),
        ("Sizes and prices", false),
        ("Whatever you need", false),
        ("", false),
    ] {
        assert_eq!(is_question(text), q, "{text:?}");
    }
}

#[test]
fn entity_clarity_checks() {
    let head = |extra: &str| {
        format!(
            r#"<html lang="en"><head><title>Widgets | Acme</title><meta property="og:site_name" content="Acme">{extra}</head><body>
            <a href="/ueber-uns">Über uns</a><a href="https://acme.example/kontakt">Kontakt</a></body></html>"#
        )
    };
    let org = r#"<script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"Acme","sameAs":"https://github.com/acme"}</script>"#;
    check(
        &head(org),
        None,
        None,
        &[
            ("entity-schema", 7),
            ("brand-consistent", 5),
            ("og-site-name", 3),
            ("about-contact", 4),
            ("same-as", 3),
            ("html-lang", 3),
        ],
    );
    // JSON-LD names another brand than og:site_name.
    let other = r#"<script type="application/ld+json">{"@type":"LocalBusiness","name":"Bolt Supplies"}</script>"#;
    check(&head(other), None, None, &[("entity-schema", 7), ("brand-consistent", 0), ("same-as", 0)]);
    check(&head(""), None, None, &[("entity-schema", 0), ("brand-consistent", 5)]);
    // Person in microdata; brand missing from the title.
    check(
        r#"<html lang="english"><head><title>Home</title></head><body><div itemscope itemtype="http://schema.org/Person"></div><a href="https://other.example/about">About</a></body></html>"#,
        None,
        None,
        &[("entity-schema", 7), ("brand-consistent", 0), ("og-site-name", 0), ("about-contact", 0), ("html-lang", 0)],
    );
    // Only a contact page.
    check(
        r#"<title>x</title><a href="/contact-us">Write to us</a>"#,
        None,
        None,
        &[("about-contact", 2), ("html-lang", 0)],
    );
}
