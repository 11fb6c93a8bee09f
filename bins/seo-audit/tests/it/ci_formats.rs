//! `seo-audit audit --format sarif` and `--format junit` (docs/API.md, "Command line"): the
//! SARIF log validates against the SARIF 2.1.0 JSON schema and lists the failed rules of the
//! audit with the rule table's metadata; the JUnit report has one test case per rule with a
//! failure per failed rule; `--min-score` still decides the exit status.
//!
//! The schema comes from a registry package (npm `@microsoft/jest-sarif` ships it), installed
//! by `.ci/run` in tests/sarif (`npm ci` there). Without it the schema test skips with a
//! message, unless `SEO_AUDIT_REQUIRE_SARIF_SCHEMA=1` (CI sets it): then it fails.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

fn run(args: &[&str]) -> Output {
    let data = tempfile::tempdir().expect("tempdir");
    crate::common::command().args(args).env("SEO_AUDIT_DATA", data.path()).output().expect("run seo-audit")
}

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../crates/audit-core/tests/fixtures").join(rel)
}

/// The same page as JSON, the engine's own result, to compare the CI formats with.
fn full_result(file: &str) -> Value {
    let out = run(&["audit", file, "--url", "https://example.com/kettles"]);
    serde_json::from_slice(&out.stdout).expect("json")
}

fn failed_rule_ids(result: &Value) -> Vec<String> {
    let mut ids: Vec<String> = result["recommendations"]
        .as_array()
        .expect("recommendations")
        .iter()
        .map(|r| r["id"].as_str().expect("rule id").to_string())
        .collect();
    ids.sort();
    ids
}

pub fn sarif_schema() -> Option<Value> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/sarif/node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json");
    match std::fs::read(&path) {
        Ok(bytes) => Some(serde_json::from_slice(&bytes).expect("the schema is JSON")),
        Err(e) => {
            let required = std::env::var("SEO_AUDIT_REQUIRE_SARIF_SCHEMA").as_deref() == Ok("1");
            assert!(!required, "SEO_AUDIT_REQUIRE_SARIF_SCHEMA=1 but {} cannot be read: {e}", path.display());
            eprintln!(
                "skipped: no SARIF schema at {} (run `npm ci` in tests/sarif; SEO_AUDIT_REQUIRE_SARIF_SCHEMA=1 makes \
                 this fail)",
                path.display()
            );
            None
        }
    }
}

#[test]
fn sarif_lists_each_failed_rule_with_its_metadata_and_validates_against_the_schema() {
    let file = fixture("pages/broken.html");
    let file = file.to_str().expect("utf-8 path");
    let out = run(&["audit", file, "--url", "https://example.com/kettles", "--format", "sarif", "--min-score", "100"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "--min-score decides the exit status: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let log: Value = serde_json::from_slice(&out.stdout).expect("SARIF is JSON");
    assert_eq!(log["version"], "2.1.0");
    let run0 = &log["runs"][0];
    assert_eq!(run0["tool"]["driver"]["name"], "seo-audit");

    // Every rule of the table is described; one result per element of each failed rule's
    // finding (one at the file for a finding about the whole page).
    let rules = run0["tool"]["driver"]["rules"].as_array().expect("rules");
    assert_eq!(rules.len(), audit_core::RULES.len());
    let results = run0["results"].as_array().expect("results");
    let mut ids: Vec<String> = results.iter().map(|r| r["ruleId"].as_str().unwrap().to_string()).collect();
    ids.sort();
    ids.dedup();
    assert!(!ids.is_empty(), "the broken page fails rules");
    let full = full_result(file);
    assert_eq!(ids, failed_rule_ids(&full));
    let mut regions = 0;
    for rec in full["recommendations"].as_array().unwrap() {
        let of_rule: Vec<&Value> = results.iter().filter(|r| r["ruleId"] == rec["id"]).collect();
        let Some(locations) = rec["locations"].as_array() else {
            assert_eq!(of_rule.len(), 1, "{}", rec["id"]);
            assert!(of_rule[0]["locations"][0]["physicalLocation"].get("region").is_none());
            continue;
        };
        assert_eq!(of_rule.len(), locations.len(), "{}", rec["id"]);
        for (r, at) in of_rule.iter().zip(locations) {
            let physical = &r["locations"][0]["physicalLocation"];
            assert_eq!(physical["region"]["startLine"], at["line"]);
            assert_eq!(physical["region"]["startColumn"], at["column"]);
            assert_eq!(physical["region"]["snippet"]["text"], at["snippet"]);
            assert_eq!(r["locations"][0]["logicalLocations"][0]["fullyQualifiedName"], at["selector"]);
            regions += 1;
        }
    }
    assert!(regions > 0, "the broken page's findings point at elements");
    assert_eq!(run0["columnKind"], "unicodeCodePoints");
    for result in results {
        let index = result["ruleIndex"].as_u64().unwrap() as usize;
        let rule = &rules[index];
        assert_eq!(rule["id"], result["ruleId"]);
        let meta = audit_core::RULES.iter().map(|r| r.meta()).find(|m| m.id == rule["id"]).expect("a table rule");
        assert_eq!(rule["name"], meta.name);
        assert_eq!(rule["shortDescription"]["text"], meta.name);
        assert_eq!(rule["fullDescription"]["text"], meta.why);
        assert!(!rule["help"]["text"].as_str().unwrap().is_empty());
        let level = match meta.severity {
            audit_core::Severity::Critical => "error",
            audit_core::Severity::Warning => "warning",
            _ => "note",
        };
        assert_eq!(rule["defaultConfiguration"]["level"], level);
        assert_eq!(result["level"], level);
        assert!(!result["message"]["text"].as_str().unwrap().is_empty());
        assert_eq!(result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], file);
    }

    let Some(schema) = sarif_schema() else { return };
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    let errors: Vec<String> = validator.iter_errors(&log).map(|e| format!("{e} at {}", e.instance_path)).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    // The validator does reject what SARIF does not allow.
    let mut broken = log.clone();
    broken["runs"][0]["results"][0]["level"] = "critical".into();
    assert!(!validator.is_valid(&broken));
}

/// An audited file is named relative to the working directory (as code scanning names the
/// files of a repository), in SARIF, JUnit and the text report alike.
#[test]
fn file_findings_are_located_relative_to_the_working_directory() {
    let dir = fixture("");
    let file = fixture("pages/broken.html");
    let run_in = |format: &str| {
        let data = tempfile::tempdir().expect("tempdir");
        let args = ["audit", file.to_str().unwrap(), "--url", "https://example.com/kettles", "--format", format];
        let out = crate::common::command()
            .args(args)
            .current_dir(&dir)
            .env("SEO_AUDIT_DATA", data.path())
            .output()
            .expect("run seo-audit");
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).expect("utf-8")
    };
    let log: Value = serde_json::from_str(&run_in("sarif")).expect("SARIF is JSON");
    let results = log["runs"][0]["results"].as_array().expect("results");
    let alt = results.iter().find(|r| r["ruleId"] == "image-alt-missing").expect("image-alt-missing");
    let physical = &alt["locations"][0]["physicalLocation"];
    assert_eq!(physical["artifactLocation"]["uri"], "pages/broken.html");
    let (line, column) =
        (physical["region"]["startLine"].as_u64().unwrap(), physical["region"]["startColumn"].as_u64().unwrap());
    let selector = alt["locations"][0]["logicalLocations"][0]["fullyQualifiedName"].as_str().unwrap();
    // The line and column are those of the image's start tag in the file.
    let source = std::fs::read_to_string(&file).unwrap();
    let at: String = source.lines().nth(line as usize - 1).unwrap().chars().skip(column as usize - 1).take(4).collect();
    assert_eq!(at, "<img");
    let element = format!("pages/broken.html:{line}:{column} {selector}");
    assert!(run_in("text").contains(&element), "the text report lists {element}");
    assert!(run_in("junit").contains(&element.replace('>', "&gt;")), "the JUnit failure names {element}");
}

#[test]
fn sarif_of_a_live_page_is_located_at_its_url() {
    let site = test_support::ThreadServer::start(|_| {
        Some(test_support::html(
            "<!doctype html><html lang=en><head><title>Hi</title></head><body><h1>Hi</h1></body></html>",
        ))
    });
    let port = site.port();
    let url = format!("http://127.0.0.1:{port}/hi");
    let out = run(&["audit", &url, "--allow-target", "127.0.0.1", "--format", "sarif"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let log: Value = serde_json::from_slice(&out.stdout).expect("SARIF is JSON");
    let results = log["runs"][0]["results"].as_array().expect("results");
    assert!(!results.is_empty());
    for r in results {
        assert_eq!(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], url.as_str());
    }
    // The short title is pointed at in the page as served.
    let title = results.iter().find(|r| r["ruleId"] == "title-too-short").expect("title-too-short");
    let region = &title["locations"][0]["physicalLocation"]["region"];
    assert_eq!((region["startLine"].as_u64(), region["startColumn"].as_u64()), (Some(1), Some(36)));
    assert_eq!(region["snippet"]["text"], "<title>");
}

#[test]
fn junit_has_a_test_case_per_rule_and_a_failure_per_failed_rule() {
    let file = fixture("pages/broken.html");
    let file = file.to_str().expect("utf-8 path");
    let out = run(&["audit", file, "--url", "https://example.com/kettles", "--format", "junit", "--min-score", "0"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let xml = String::from_utf8(out.stdout).expect("utf-8");
    let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}: {xml}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    let suites: Vec<_> = root.children().filter(|n| n.has_tag_name("testsuite")).collect();
    assert_eq!(suites.len(), 1);
    let suite = suites[0];
    assert_eq!(suite.attribute("name"), Some(file));
    let cases: Vec<_> = suite.children().filter(|n| n.has_tag_name("testcase")).collect();
    assert_eq!(cases.len(), audit_core::RULES.len());
    assert_eq!(suite.attribute("tests"), Some(cases.len().to_string().as_str()));

    let result = full_result(file);
    let mut failed: Vec<String> = Vec::new();
    let mut skipped = 0;
    for case in &cases {
        let id = case.attribute("name").expect("name");
        let meta = audit_core::RULES.iter().map(|r| r.meta()).find(|m| m.id == id).expect("a table rule");
        let class = meta.category.as_str().to_lowercase().replace(' ', "-");
        assert_eq!(case.attribute("classname"), Some(format!("seo-audit.{class}").as_str()));
        let children: Vec<_> = case.children().filter(|n| n.is_element()).collect();
        match children.first().map(|n| n.tag_name().name()) {
            Some("failure") => {
                let f = children[0];
                assert_eq!(f.attribute("type"), Some(meta.severity.as_str()));
                let rec = result["recommendations"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|r| r["id"] == id)
                    .expect("the failure is a recommendation");
                assert_eq!(f.attribute("message"), rec["title"].as_str(), "{id}");
                assert!(f.text().unwrap_or_default().contains(meta.name), "{id}");
                failed.push(id.to_string());
            }
            Some("skipped") => skipped += 1,
            None => {}
            Some(other) => panic!("unexpected <{other}> in {id}"),
        }
    }
    failed.sort();
    assert_eq!(failed, failed_rule_ids(&result));
    assert_eq!(suite.attribute("failures"), Some(failed.len().to_string().as_str()));
    assert_eq!(suite.attribute("skipped"), Some(skipped.to_string().as_str()));
    let applicable = result["score"]["total"].as_u64().expect("total") as usize;
    assert_eq!(cases.len() - skipped, applicable, "skipped are exactly the rules that do not apply");
    assert!(skipped > 0, "a monolingual page skips hreflang");

    // Below the minimum: still the report, exit 1.
    let low = run(&["audit", file, "--url", "https://example.com/kettles", "--format", "junit", "--min-score", "100"]);
    assert_eq!(low.status.code(), Some(1));
    assert!(roxmltree::Document::parse(std::str::from_utf8(&low.stdout).unwrap()).is_ok());
}

/// `seo-audit crawl` of the fixture site `site-crawl-rest` (five pages, the home page links
/// to a missing `/gone.html`: a site-rule finding; and page rules that fail, plain http
/// among them) in `format`, with extra arguments.
fn crawl_fixture(url: &str, format: &str, extra: &[&str]) -> Output {
    let mut args = vec!["crawl", url, "--allow-target", "127.0.0.1", "--no-sitemaps", "--format", format];
    args.extend_from_slice(extra);
    run(&args)
}

/// What the JSON report of the same crawl says failed: `(rule id, URL, linking page)` for
/// each failed page rule of each audited page and each site-rule finding.
fn crawl_failures(report: &Value) -> Vec<(String, String, Option<String>)> {
    let mut expected = Vec::new();
    for page in report["crawl"]["pages"].as_array().expect("pages") {
        if page["score"].is_null() {
            continue;
        }
        for id in page["failed_rules"].as_array().expect("failed_rules") {
            expected.push((id.as_str().unwrap().to_string(), page["url"].as_str().unwrap().to_string(), None));
        }
    }
    for issue in report["crawl"]["issues"].as_array().expect("issues").iter().filter(|i| i["kind"] == "site") {
        for hit in issue["urls"].as_array().expect("urls") {
            let from = hit["linked_from"].as_str().map(str::to_string);
            expected.push((issue["id"].as_str().unwrap().to_string(), hit["url"].as_str().unwrap().to_string(), from));
        }
    }
    expected.sort();
    expected
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn crawl_sarif_has_a_result_per_failed_page_rule_and_site_finding_and_validates() {
    let site = test_support::fixture_site("site-crawl-rest").await;
    let (url, gone, home) = (site.url("/"), site.url("/gone.html"), site.url("/"));
    let (report, out) = tokio::task::spawn_blocking(move || {
        let json = crawl_fixture(&url, "json", &[]);
        (
            serde_json::from_slice::<Value>(&json.stdout).expect("json"),
            crawl_fixture(&url, "sarif", &["--min-score", "100"]),
        )
    })
    .await
    .expect("crawl");
    assert_eq!(out.status.code(), Some(1), "--min-score on the site score: {}", String::from_utf8_lossy(&out.stderr));
    let log: Value = serde_json::from_slice(&out.stdout).expect("SARIF is JSON");
    assert_eq!(log["version"], "2.1.0");
    let run0 = &log["runs"][0];
    assert_eq!(run0["properties"]["siteScore"], report["crawl"]["site_score"]);
    let rules = run0["tool"]["driver"]["rules"].as_array().expect("rules");
    assert_eq!(rules.len(), audit_core::RULES.len() + crawl::SITE_RULES.len(), "page rules, then site rules");

    let mut seen = Vec::new();
    for result in run0["results"].as_array().expect("results") {
        let rule = &rules[result["ruleIndex"].as_u64().expect("ruleIndex") as usize];
        assert_eq!(rule["id"], result["ruleId"]);
        assert_eq!(result["level"], rule["defaultConfiguration"]["level"]);
        assert!(!result["message"]["text"].as_str().unwrap().is_empty());
        let at = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].as_str().expect("uri");
        let from = result["relatedLocations"][0]["physicalLocation"]["artifactLocation"]["uri"].as_str();
        seen.push((result["ruleId"].as_str().unwrap().to_string(), at.to_string(), from.map(str::to_string)));
    }
    seen.sort();
    let expected = crawl_failures(&report);
    assert_eq!(seen, expected);
    // Both kinds are there: the broken link with its linking page, and page rules.
    let broken: Vec<_> = seen.iter().filter(|(id, _, _)| id == "broken-internal-link").collect();
    assert_eq!(broken, [&("broken-internal-link".to_string(), gone, Some(home))]);
    assert!(seen.iter().any(|(id, at, _)| id == "not-https" && *at == site.url("/about.html")), "{seen:?}");
    // Each result names the problem (the finding's title), never the passing condition.
    let about = site.url("/about.html");
    let texts: Vec<&str> = run0["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| {
            r["ruleId"] == "not-https" && r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == about
        })
        .map(|r| r["message"]["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts.len(), 1);
    assert!(texts[0].starts_with("Page is not served over HTTPS."), "{}", texts[0]);
    for result in run0["results"].as_array().unwrap() {
        let rule = &rules[result["ruleIndex"].as_u64().unwrap() as usize];
        let text = result["message"]["text"].as_str().unwrap();
        assert!(!text.starts_with(rule["name"].as_str().unwrap()), "worded as the passing condition: {text}");
    }

    let Some(schema) = sarif_schema() else { return };
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    let errors: Vec<String> = validator.iter_errors(&log).map(|e| format!("{e} at {}", e.instance_path)).collect();
    assert!(errors.is_empty(), "{errors:#?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn crawl_junit_has_a_site_rules_suite_and_a_suite_per_audited_page() {
    let site = test_support::fixture_site("site-crawl-rest").await;
    let url = site.url("/");
    let (report, out) = tokio::task::spawn_blocking(move || {
        let json = crawl_fixture(&url, "json", &[]);
        (
            serde_json::from_slice::<Value>(&json.stdout).expect("json"),
            crawl_fixture(&url, "junit", &["--min-score", "0"]),
        )
    })
    .await
    .expect("crawl");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let xml = String::from_utf8(out.stdout).expect("utf-8");
    let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}: {xml}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    let suites: Vec<_> = root.children().filter(|n| n.has_tag_name("testsuite")).collect();

    // What failed, read back from the XML, in the terms of the JSON report.
    let mut seen = Vec::new();
    let (mut tests, mut failures) = (0, 0);
    for suite in &suites {
        let cases: Vec<_> = suite.children().filter(|n| n.has_tag_name("testcase")).collect();
        assert_eq!(suite.attribute("tests"), Some(cases.len().to_string().as_str()));
        let failed: Vec<_> = cases.iter().filter(|c| c.children().any(|n| n.has_tag_name("failure"))).collect();
        assert_eq!(suite.attribute("failures"), Some(failed.len().to_string().as_str()));
        tests += cases.len();
        failures += failed.len();
        for case in failed {
            let id = case.attribute("name").expect("name").to_string();
            let failure = case.children().find(|n| n.has_tag_name("failure")).unwrap();
            let text = failure.text().unwrap_or_default();
            if suite.attribute("name") == Some("site rules") {
                assert_eq!(case.attribute("classname"), Some("seo-audit.site"));
                let meta = crawl::site_rule_by_id(&id).expect("a site rule");
                assert_eq!(failure.attribute("type"), Some(meta.severity.as_str()));
                // Each affected URL on a line of its own, with the linking page.
                for line in text.lines().filter(|l| l.starts_with("http")) {
                    let (at, rest) = line.split_once("  ").expect("URL  message");
                    let from = rest.split_once(" Linked from ").map(|(_, f)| f.trim_end_matches('.').to_string());
                    seen.push((id.clone(), at.to_string(), from));
                }
            } else {
                let page = suite.attribute("name").expect("the page URL").to_string();
                let meta = audit_core::RULES.iter().map(|r| r.meta()).find(|m| m.id == id).expect("a page rule");
                assert_eq!(failure.attribute("type"), Some(meta.severity.as_str()));
                // The failure names the problem (the finding's title), not the passing condition.
                assert!(!text.starts_with(meta.name), "{id}: {text}");
                assert!(!failure.attribute("message").unwrap().starts_with(meta.name), "{id}");
                if id == "not-https" {
                    assert_eq!(failure.attribute("message"), Some("Page is not served over HTTPS"));
                }
                seen.push((id, page, None));
            }
        }
    }
    assert_eq!(root.attribute("tests"), Some(tests.to_string().as_str()));
    assert_eq!(root.attribute("failures"), Some(failures.to_string().as_str()));
    seen.sort();
    assert_eq!(seen, crawl_failures(&report));

    // The site rules first, every one a case; then one suite per audited page, every page rule a case.
    assert_eq!(suites[0].attribute("name"), Some("site rules"));
    assert_eq!(suites[0].children().filter(|n| n.has_tag_name("testcase")).count(), crawl::SITE_RULES.len());
    let mut audited: Vec<&str> = report["crawl"]["pages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| !p["score"].is_null())
        .map(|p| p["url"].as_str().unwrap())
        .collect();
    let mut pages: Vec<&str> = suites[1..].iter().map(|s| s.attribute("name").unwrap()).collect();
    // Two crawls: the order of the pages may differ, not the set.
    audited.sort_unstable();
    pages.sort_unstable();
    assert_eq!(pages, audited);
    assert_eq!(audited.len(), 5, "the five HTML pages: {audited:?}");
    for s in &suites[1..] {
        assert_eq!(s.children().filter(|n| n.has_tag_name("testcase")).count(), audit_core::RULES.len());
    }
    assert!(failures > 2, "page rules and the broken link fail: {xml}");
}

/// A crawl's page-rule finding names its element in every format (fixture site
/// `located-findings`: one page, its image without alt is the start tag at line 12, column 1,
/// id `hero`): the JSON's page issue lists the location as an audit does, the SARIF result
/// has the element's region (and validates), JUnit's failure names `line:col selector`, the
/// text report `url:line:col`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn crawl_formats_locate_a_page_findings_elements() {
    let site = test_support::fixture_site("located-findings").await;
    let url = site.url("/");
    let home = url.clone();
    let (json, sarif, junit, text) = tokio::task::spawn_blocking(move || {
        (
            crawl_fixture(&url, "json", &[]),
            crawl_fixture(&url, "sarif", &[]),
            crawl_fixture(&url, "junit", &[]),
            crawl_fixture(&url, "text", &[]),
        )
    })
    .await
    .expect("crawl");

    let report: Value = serde_json::from_slice(&json.stdout).expect("json");
    let issue = report["crawl"]["issues"]
        .as_array()
        .expect("issues")
        .iter()
        .find(|i| i["id"] == "image-alt-missing")
        .unwrap_or_else(|| panic!("image-alt-missing fails: {report:#}"));
    let hit = &issue["urls"][0];
    assert_eq!(hit["url"], home.as_str());
    assert_eq!(hit["locations_total"], 1);
    let at = &hit["locations"][0];
    assert_eq!(
        (at["line"].as_u64(), at["column"].as_u64(), at["selector"].as_str()),
        (Some(12), Some(1), Some("#hero"))
    );
    assert!(at["snippet"].as_str().unwrap().starts_with("<img id=\"hero\""), "{at}");

    let log: Value = serde_json::from_slice(&sarif.stdout).expect("SARIF is JSON");
    let results: Vec<&Value> =
        log["runs"][0]["results"].as_array().unwrap().iter().filter(|r| r["ruleId"] == "image-alt-missing").collect();
    assert_eq!(results.len(), 1, "one result per element");
    let physical = &results[0]["locations"][0]["physicalLocation"];
    assert_eq!(physical["artifactLocation"]["uri"], home.as_str());
    assert_eq!(physical["region"]["startLine"], 12);
    assert_eq!(physical["region"]["startColumn"], 1);
    assert_eq!(physical["region"]["snippet"]["text"], at["snippet"]);
    assert_eq!(results[0]["locations"][0]["logicalLocations"][0]["fullyQualifiedName"], "#hero");

    let xml = String::from_utf8(junit.stdout).expect("utf-8");
    let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}: {xml}"));
    let failure = doc
        .descendants()
        .find(|n| n.has_tag_name("testcase") && n.attribute("name") == Some("image-alt-missing"))
        .and_then(|c| c.children().find(|n| n.has_tag_name("failure")))
        .expect("a failure for image-alt-missing");
    assert!(failure.text().unwrap_or_default().lines().any(|l| l == "12:1 #hero"), "{xml}");

    let text = String::from_utf8(text.stdout).expect("utf-8");
    assert!(text.lines().any(|l| l.trim() == format!("{home}:12:1")), "{text}");

    let Some(schema) = sarif_schema() else { return };
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    let errors: Vec<String> = validator.iter_errors(&log).map(|e| format!("{e} at {}", e.instance_path)).collect();
    assert!(errors.is_empty(), "{errors:#?}");
}
