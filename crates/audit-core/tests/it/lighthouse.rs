//! The page rules against a second reference: Lighthouse 13.5's SEO verdicts on the real pages
//! of `../shared/corpus` (`lighthouse.jsonl`, one row per page of `pages/`). For the checks both
//! make, the rules that answer the same question (table [`SHARED`]) must agree with Lighthouse
//! on at least [`MIN_AGREEMENT`] percent of (page, check) verdicts; every disagreement is
//! printed, and each must be explained in the "Agreement with Lighthouse" section of
//! `docs/RULES.md` (a row naming the page and the check), where a row that no longer matches a
//! disagreement fails the test too. Skips with a message when the corpus is absent, fails then
//! under `SEO_AUDIT_REQUIRE_CORPUS=1`.
//!
//! A verdict is whether the check flags the page: Lighthouse's 0 against its 1 or `null` (not
//! applicable), and for us whether any of the check's rules fails.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use audit_core::{audit, HttpFacts, Outcome, Page};
use serde_json::Value;

use crate::corpus::shared_corpus;

/// Lighthouse's audit id and the rules that answer the same question.
const SHARED: &[(&str, &[&str])] = &[
    ("document-title", &["title-missing"]),
    ("meta-description", &["meta-description-missing"]),
    ("link-text", &["link-text-not-descriptive"]),
    ("crawlable-anchors", &["link-uncrawlable"]),
    ("image-alt", &["image-alt-missing"]),
    ("hreflang", &["hreflang-invalid-code", "hreflang-relative-url"]),
    ("canonical", &["canonical-relative", "canonical-multiple"]),
];

/// Share of (page, check) verdicts that must agree, in percent.
const MIN_AGREEMENT: f64 = 97.0;

/// The section of docs/RULES.md that explains each remaining disagreement.
const SECTION: &str = "## Agreement with Lighthouse";

/// `file` → `original_url` from `pages/INDEX.tsv`.
fn original_urls(corpus: &Path) -> BTreeMap<String, String> {
    let index = std::fs::read_to_string(corpus.join("pages/INDEX.tsv")).expect("read INDEX.tsv");
    let mut lines = index.lines();
    let header: Vec<&str> = lines.next().expect("INDEX.tsv header").split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap_or_else(|| panic!("INDEX.tsv has no {name}"));
    let (file, url) = (col("file"), col("original_url"));
    lines
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|cells| cells.len() > file.max(url))
        .map(|cells| (cells[file].to_string(), cells[url].to_string()))
        .collect()
}

/// The (page, check) pairs docs/RULES.md explains: rows of the section's table whose first
/// two cells are a page file and a check id, both in backticks.
fn explained() -> BTreeSet<(String, String)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/RULES.md");
    let doc = std::fs::read_to_string(&path).expect("read docs/RULES.md");
    let Some(start) = doc.find(SECTION) else { return BTreeSet::new() };
    let section = &doc[start + SECTION.len()..];
    let section = &section[..section.find("\n## ").unwrap_or(section.len())];
    section
        .lines()
        .filter_map(|l| {
            let cells: Vec<&str> = l.trim().strip_prefix('|')?.split('|').map(str::trim).collect();
            let page = cells.first()?.strip_prefix('`')?.strip_suffix('`')?;
            let check = cells.get(1)?.strip_prefix('`')?.strip_suffix('`')?;
            page.ends_with(".html").then(|| (page.to_string(), check.to_string()))
        })
        .collect()
}

/// What Lighthouse listed for a failed audit, shortened for the report.
fn items(row: &Value, check: &str) -> String {
    let Some(items) = row[format!("{check}:items")].as_array() else { return String::new() };
    let shown: Vec<String> = items
        .iter()
        .take(3)
        .map(|i| {
            let s = ["node", "text", "source", "href"]
                .iter()
                .find_map(|k| i[*k].as_str().map(|v| format!("{k}={v}")))
                .unwrap_or_else(|| i.to_string());
            s.chars().take(120).collect()
        })
        .collect();
    format!(" [{} item(s): {}]", items.len(), shown.join(" | "))
}

#[test]
fn shared_checks_agree_with_lighthouse() {
    let Some(corpus) = shared_corpus("lighthouse.jsonl") else { return };
    let urls = original_urls(&corpus);
    let rows = std::fs::read_to_string(corpus.join("lighthouse.jsonl")).expect("read lighthouse.jsonl");
    let explained = explained();
    let mut per_check: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let (mut compared, mut agreed) = (0usize, 0usize);
    let mut found = BTreeSet::new();
    let mut report = Vec::new();
    for line in rows.lines().filter(|l| !l.trim().is_empty()) {
        let row: Value = serde_json::from_str(line).expect("valid jsonl row");
        let file = row["file"].as_str().expect("file");
        // Pages of unknown origin get the stand-in address the browser-facts reference uses.
        let url =
            urls.get(file).filter(|u| !u.is_empty()).cloned().unwrap_or_else(|| format!("https://example.test/{file}"));
        let bytes = std::fs::read(corpus.join("pages").join(file)).expect("read page");
        let page = Page::parse(&url, &bytes, HttpFacts::new().with_status(200));
        let result = audit(page);
        for (check, rules) in SHARED {
            let theirs = row[*check].as_i64() == Some(0);
            let failing: Vec<_> = result
                .checks
                .iter()
                .filter(|c| rules.contains(&c.rule.id))
                .filter_map(|c| match &c.outcome {
                    Outcome::Fail(f) => Some(format!("{}: {}", c.rule.id, f.current_value.as_deref().unwrap_or(""))),
                    _ => None,
                })
                .collect();
            let ours = !failing.is_empty();
            compared += 1;
            let tally = per_check.entry(check).or_default();
            tally.1 += 1;
            if ours == theirs {
                agreed += 1;
                tally.0 += 1;
                continue;
            }
            found.insert((file.to_string(), check.to_string()));
            let known = explained.contains(&(file.to_string(), check.to_string()));
            report.push(format!(
                "{} {file} {check}: Lighthouse {}{}, ours {}",
                if known { "explained" } else { "DIFF     " },
                if theirs { "fails" } else { "passes" },
                items(&row, check),
                if ours { format!("fails ({})", failing.join("; ")) } else { "passes".to_string() },
            ));
        }
    }
    for line in &report {
        eprintln!("{line}");
    }
    for (check, (ok, n)) in &per_check {
        eprintln!("{check}: {ok}/{n} agree ({:.1}%)", 100.0 * *ok as f64 / *n as f64);
    }
    let share = 100.0 * agreed as f64 / compared as f64;
    eprintln!("lighthouse agreement: {agreed}/{compared} verdicts ({share:.2}%)");
    assert!(share >= MIN_AGREEMENT, "only {share:.2}% of verdicts agree with Lighthouse (at least {MIN_AGREEMENT}%)");
    let unexplained: Vec<_> = found.difference(&explained).collect();
    assert!(
        unexplained.is_empty(),
        "disagreements with Lighthouse not explained in docs/RULES.md ({SECTION}): {unexplained:?}"
    );
    let stale: Vec<_> = explained.difference(&found).collect();
    assert!(stale.is_empty(), "docs/RULES.md ({SECTION}) explains disagreements that no longer occur: {stale:?}");
}
