//! Every rule of [`RULES`] against its own fixture cases in
//! `crates/audit-core/tests/fixtures/rules/<id>/` (inside the crate, so the tests run from the
//! packaged crate): every `fail*.html` must fail it and every `pass*.html` pass it. A rule
//! without a fixture directory holding at least one failing and one passing case fails the
//! test, so a new rule cannot land without its pages. The layout and the sidecar fields are
//! in `tests/support/rule_fixture.rs` and docs/RULES.md, "Rule fixtures".

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use audit_core::{HttpFacts, Outcome, Page, Rule, RULES};

use crate::rule_fixture::{cases, load, rules_dir, Others};

fn fixtures_dir() -> PathBuf {
    rules_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
}

/// The ids of the rules a page fails.
fn failing(page: &Page) -> BTreeSet<String> {
    RULES.iter().filter(|r| matches!(r.check(page), Outcome::Fail(_))).map(|r| r.meta().id.to_string()).collect()
}

#[test]
fn every_rule_fails_its_fail_page_and_passes_its_pass_page() {
    let mut problems = Vec::new();
    for rule in RULES {
        let id = rule.meta().id;
        let dir = fixtures_dir().join(id);
        if !dir.is_dir() {
            problems.push(format!("{id}: no fixture directory {} (add fail.html and pass.html)", dir.display()));
            continue;
        }
        let names = cases(&dir);
        for (prefix, what) in [("fail", "failing"), ("pass", "passing")] {
            if !names.iter().any(|n| n.starts_with(prefix) && dir.join(format!("{n}.html")).is_file()) {
                problems.push(format!("{id}: no {what} case in {} (add {prefix}.html)", dir.display()));
            }
        }
        for name in names {
            let expect_fail = name.starts_with("fail");
            match (load(&dir, &name), expect_fail) {
                (Err(e), _) => problems.push(format!("{id}: {e}")),
                (Ok(f), true) => match rule.check(&f.page) {
                    Outcome::Fail(finding) => {
                        if finding.title.trim().is_empty() || finding.description.trim().is_empty() {
                            problems.push(format!("{id}/{name}: finding without title or description: {finding:?}"));
                        }
                    }
                    other => problems.push(format!("{id}: {name}.html gives {other:?}, expected Fail")),
                },
                (Ok(f), false) => match rule.check(&f.page) {
                    Outcome::Pass => {}
                    other => problems.push(format!("{id}: {name}.html gives {other:?}, expected Pass")),
                },
            }
        }
    }
    assert!(problems.is_empty(), "{} problem(s):\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn every_fixture_directory_names_a_rule() {
    let ids: BTreeSet<&str> = RULES.iter().map(|r| r.meta().id).collect();
    let entries = std::fs::read_dir(fixtures_dir()).expect("tests/fixtures/rules exists");
    let stale: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| !ids.contains(name.as_str()))
        .collect();
    assert!(stale.is_empty(), "fixture directories without a rule (renamed or removed?): {stale:?}");
}

/// Each fixture page fails exactly its own rule (for `fail`) or nothing (for `pass`), plus
/// what its sidecar lists in `also_fails`: the pages are otherwise clean, so a rule that
/// starts to misfire on ordinary markup shows up here.
#[test]
fn fixtures_fail_only_what_they_declare() {
    let mut problems = Vec::new();
    for rule in RULES {
        let id = rule.meta().id;
        let dir = fixtures_dir().join(id);
        for name in cases(&dir) {
            let Ok(f) = load(&dir, &name) else { continue };
            let Others::Exactly(mut expected) = f.others else { continue };
            if name.starts_with("fail") {
                expected.insert(id.to_string());
            }
            let got = failing(&f.page);
            if got != expected {
                let extra: Vec<_> = got.difference(&expected).collect();
                let missing: Vec<_> = expected.difference(&got).collect();
                problems.push(format!("{id}/{name}: also fails {extra:?}; declared but passing {missing:?}"));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} fixture(s) fail other rules than declared (fix the page or list the rule in the sidecar's also_fails):\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// Rules whose findings are about the page as a whole and have no element to point at (its
/// status, address, size or text as a whole): every other rule's finding lists the elements
/// it is about, or `<head>` where a missing element goes (docs/API.md, "The audit result").
const PAGE_AS_A_WHOLE: &[&str] = &[
    "http-status-error",
    "redirect-chain",
    "not-https",
    "robots-txt-blocked",
    "robots-txt-invalid",
    "url-too-long",
    "url-uppercase",
    "url-underscores",
    "url-many-parameters",
    "url-multiple-slashes",
    "h1-missing",
    "thin-content",
    "low-text-ratio",
    "links-too-many",
    "html-too-large",
    "slow-response",
    "dom-too-large",
    "html-too-complex",
];

#[test]
fn every_finding_about_elements_points_at_them() {
    let mut problems = Vec::new();
    for rule in RULES {
        let id = rule.meta().id;
        let dir = fixtures_dir().join(id);
        for name in cases(&dir).into_iter().filter(|n| n.starts_with("fail")) {
            let Ok(f) = load(&dir, &name) else { continue };
            let Outcome::Fail(finding) = rule.check(&f.page) else { continue };
            let listed = finding.locations.len() as u32;
            if listed > 50 || listed > finding.locations_total || (listed < 50 && listed != finding.locations_total) {
                problems.push(format!("{id}/{name}: {listed} locations listed of {}", finding.locations_total));
            }
            // A robots directive may come from the `X-Robots-Tag` header alone: no element then.
            let spots = &f.page.spots;
            let from_header = match id {
                "page-noindex" | "page-nofollow" => spots.meta_robots.is_empty(),
                "page-nosnippet" => spots.nosnippet.is_empty(),
                "page-noimageindex" => spots.noimageindex.is_empty(),
                // A canonical given by the `Link` header alone.
                "canonical-header-conflict" | "canonical-points-elsewhere" | "canonical-fragment" => {
                    spots.head_canonicals.is_empty()
                }
                // A refresh given by the `Refresh` header, which wins over any `<meta>` one.
                "meta-refresh" => f.page.refresh().is_some_and(|r| r.header),
                _ => false,
            };
            match (PAGE_AS_A_WHOLE.contains(&id) || from_header, finding.locations.is_empty()) {
                (false, true) => problems.push(format!("{id}/{name}: the finding points at no element")),
                (true, false) if !from_header => {
                    problems.push(format!("{id}/{name}: a finding about the whole page has locations"))
                }
                _ => {}
            }
            for at in &finding.locations {
                if at.line == 0 || at.column == 0 || at.selector.is_empty() || !at.snippet.starts_with('<') {
                    problems.push(format!("{id}/{name}: incomplete location {at:?}"));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{} problem(s):\n{}", problems.len(), problems.join("\n"));
}

/// The pages a rule does not concern leave the score's denominator (`NotApplicable`): for each,
/// the page that is left out and the same page with the one fact that brings it in, which the
/// rule then judges.
#[test]
fn rules_leave_out_the_pages_they_do_not_concern() {
    use audit_core::rules::{i18n, images, links, technical};
    let page = |url: &str, html: &str, headers: &[(&str, &str)]| {
        let mut http = HttpFacts::new().with_status(200);
        for (name, value) in headers {
            http = http.with_header(*name, *value);
        }
        Page::parse(url, html.as_bytes(), http)
    };
    let img = r#"<img src="/a.png" alt="A red shoe">"#;
    let cases: Vec<(&dyn Rule, Page, Page)> = vec![
        // A dialog's form sends nothing; a page without forms has none to judge.
        (
            &technical::FormInsecure,
            page(
                "https://example.com/",
                r#"<form method="dialog" action="http://example.com/x"><button>Close</button></form>"#,
                &[],
            ),
            page(
                "https://example.com/",
                r#"<form method="post" action="http://example.com/x"><button>Send</button></form>"#,
                &[],
            ),
        ),
        // A robots.txt that could not be read is robots-txt-blocked's (a complete disallow).
        (
            &technical::RobotsTxtInvalid,
            {
                let problem =
                    audit_core::RobotsTxtProblem::new(1, "<html>".into(), "Not a `key: value` line.".into(), None);
                let fact = audit_core::RobotsTxtFact::new(false, None).with_problems(vec![problem], 1).unread();
                Page::parse(
                    "https://example.com/",
                    b"<p>Text</p>",
                    HttpFacts::new().with_status(200).with_robots_txt(fact),
                )
            },
            {
                let problem =
                    audit_core::RobotsTxtProblem::new(1, "<html>".into(), "Not a `key: value` line.".into(), None);
                let fact = audit_core::RobotsTxtFact::new(true, None).with_problems(vec![problem], 1);
                Page::parse(
                    "https://example.com/",
                    b"<p>Text</p>",
                    HttpFacts::new().with_status(200).with_robots_txt(fact),
                )
            },
        ),
        // No image and no picture.
        (
            &images::PictureWithoutImg,
            page("https://example.com/", r#"<p>Text</p>"#, &[]),
            page("https://example.com/", r#"<picture><source srcset="/a.webp"></picture>"#, &[]),
        ),
        // No canonical, in the head or the header.
        (
            &technical::CanonicalFragment,
            page(
                "https://example.com/",
                r#"<a href="https://example.com/#top">Top</a>"#,
                &[("link", "</c#top>; rel=alternate")],
            ),
            page(
                "https://example.com/",
                r#"<a href="https://example.com/#top">Top</a>"#,
                &[("link", "</c#top>; rel=canonical")],
            ),
        ),
        // A page kept out of the index shows no snippet anyway.
        (
            &technical::PageNosnippet,
            page("https://example.com/", r#"<meta name="robots" content="noindex, nosnippet">"#, &[]),
            page("https://example.com/", r#"<meta name="robots" content="nosnippet">"#, &[]),
        ),
        // Without images, noimageindex changes nothing.
        (
            &technical::PageNoimageindex,
            page("https://example.com/", r#"<meta name="robots" content="noimageindex"><p>Text</p>"#, &[]),
            page("https://example.com/", &format!(r#"<meta name="robots" content="noimageindex">{img}"#), &[]),
        ),
        // No canonical Link header: nothing to compare.
        (
            &technical::CanonicalHeaderConflict,
            page("https://example.com/", r#"<link rel="canonical" href="/b">"#, &[("link", "</c>; rel=alternate")]),
            page("https://example.com/", r#"<link rel="canonical" href="/b">"#, &[("link", "</c>; rel=canonical")]),
        ),
        // No alt text to measure (decorative and missing alts are image-alt-missing's).
        (
            &images::ImageAltTooLong,
            page("https://example.com/", r#"<img src="/a.png" alt=""><img src="/b.png">"#, &[]),
            page("https://example.com/", &format!(r#"<img src="/a.png" alt="{}">"#, "a".repeat(101)), &[]),
        ),
        // A page served over http is not-https's.
        (
            &links::LinkToHttp,
            page("http://example.com/", r#"<a href="http://example.org/">x</a>"#, &[]),
            page("https://example.com/", r#"<a href="http://example.org/">x</a>"#, &[]),
        ),
        // No hreflang names the page itself (x-default aside).
        (
            &i18n::HreflangLangMismatch,
            page(
                "https://example.com/",
                r#"<html lang="de"><link rel="alternate" hreflang="x-default" href="https://example.com/"><link rel="alternate" hreflang="fr" href="https://example.com/fr/">"#,
                &[],
            ),
            page(
                "https://example.com/",
                r#"<html lang="de"><link rel="alternate" hreflang="en" href="https://example.com/"><link rel="alternate" hreflang="fr" href="https://example.com/fr/">"#,
                &[],
            ),
        ),
    ];
    for (rule, out, judged) in cases {
        let id = rule.meta().id;
        assert!(matches!(rule.check(&out), Outcome::NotApplicable), "{id}: {:?}", rule.check(&out));
        assert!(matches!(rule.check(&judged), Outcome::Fail(_)), "{id}: {:?}", rule.check(&judged));
    }
}
