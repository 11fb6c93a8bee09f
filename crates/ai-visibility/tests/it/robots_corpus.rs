//! robots.txt against the shared corpus: the reference parser's test suite
//! (`robots/cases*.jsonl`) and real files of large sites (`robots/real/`).
//! Skips with a message when `../shared/corpus` is absent, unless `SEO_AUDIT_REQUIRE_CORPUS=1`.

use std::fs;
use std::path::PathBuf;

use ai_visibility::{ai_crawlers, escape_pattern, get_path_params_query, is_valid_user_agent, Robots};
use base64::Engine as _;
use serde_json::Value;

fn corpus() -> Option<PathBuf> {
    crate::shared_corpus("robots")
}

fn rows(dir: &std::path::Path, file: &str) -> Vec<Value> {
    let text = fs::read_to_string(dir.join(file)).unwrap();
    text.lines().filter(|l| !l.trim().is_empty()).map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// The robots.txt body of a row: text, exact bytes, or a file of `real/`.
fn body(dir: &std::path::Path, row: &Value) -> Vec<u8> {
    if let Some(text) = row["robots_txt"].as_str() {
        return text.as_bytes().to_vec();
    }
    if let Some(b64) = row["robots_txt_base64"].as_str() {
        return base64::engine::general_purpose::STANDARD.decode(b64).unwrap();
    }
    let file = row["robots_file"].as_str().expect("row has a robots.txt body");
    fs::read(dir.join(file)).unwrap()
}

fn report(file: &str, failures: &[String], total: usize) {
    println!("{file}: {}/{total} pass", total - failures.len());
    assert!(failures.is_empty(), "{file}: {} failures:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn reference_allow_disallow_cases() {
    let Some(dir) = corpus() else { return };
    let rows = rows(&dir, "cases.jsonl");
    assert_eq!(rows.len(), 145);
    let mut failures = Vec::new();
    for row in &rows {
        let robots = Robots::parse(&body(&dir, row));
        let ua = row["user_agent"].as_str().unwrap();
        let url = row["url"].as_str().unwrap();
        let expected = row["allowed"].as_bool().unwrap();
        let verdict = robots.verdict(ua, url);
        if verdict.allowed != expected {
            failures.push(format!(
                "{} {}: ua {ua:?} url {url:?} expected {expected}, got {verdict:?}",
                row["source"], row["test"]
            ));
        }
    }
    report("cases.jsonl", &failures, rows.len());
}

#[test]
fn reference_parse_stats_cases() {
    let Some(dir) = corpus() else { return };
    let rows = rows(&dir, "cases_parse_stats.jsonl");
    let mut failures = Vec::new();
    for row in &rows {
        let robots = Robots::parse(&body(&dir, row));
        let stats = robots.stats();
        let mut check = |field: &str, got: usize| {
            if let Some(expected) = row[field].as_u64() {
                if got as u64 != expected {
                    failures.push(format!("{}: {field} expected {expected}, got {got}", row["source"]));
                }
            }
        };
        check("expect_valid_directives", stats.valid_directives);
        check("expect_unknown_directives", stats.unknown_directives);
        check("expect_last_line_seen", stats.last_line_seen);
        if let Some(sitemap) = row["expect_sitemap"].as_str() {
            if robots.sitemaps() != [sitemap.to_owned()] {
                failures.push(format!("{}: sitemaps {:?}", row["source"], robots.sitemaps()));
            }
        }
    }
    report("cases_parse_stats.jsonl", &failures, rows.len());
}

#[test]
fn reference_user_agent_validity_cases() {
    let Some(dir) = corpus() else { return };
    let rows = rows(&dir, "cases_user_agent_valid.jsonl");
    let mut failures = Vec::new();
    for row in &rows {
        // A null view in C++ is the empty string here.
        let ua = row["user_agent"].as_str().unwrap_or("");
        let expected = row["valid"].as_bool().unwrap();
        if is_valid_user_agent(ua) != expected {
            failures.push(format!("{}: {ua:?} expected {expected}", row["source"]));
        }
    }
    report("cases_user_agent_valid.jsonl", &failures, rows.len());
}

#[test]
fn reference_path_params_query_cases() {
    let Some(dir) = corpus() else { return };
    let rows = rows(&dir, "cases_path_params_query.jsonl");
    let mut failures = Vec::new();
    for row in &rows {
        let input = row["input"].as_str().unwrap();
        let expected = row["expected"].as_str().unwrap();
        let got = get_path_params_query(input);
        if got != expected {
            failures.push(format!("{}: {input:?} expected {expected:?}, got {got:?}", row["source"]));
        }
    }
    report("cases_path_params_query.jsonl", &failures, rows.len());
}

#[test]
fn reference_escape_pattern_cases() {
    let Some(dir) = corpus() else { return };
    let rows = rows(&dir, "cases_escape_pattern.jsonl");
    let mut failures = Vec::new();
    for row in &rows {
        let input = row["input"].as_str().unwrap();
        let expected = row["expected"].as_str().unwrap();
        let got = escape_pattern(input);
        if got != expected {
            failures.push(format!("{}: {input:?} expected {expected:?}, got {got:?}", row["source"]));
        }
    }
    report("cases_escape_pattern.jsonl", &failures, rows.len());
}

#[test]
fn real_site_cases() {
    let Some(dir) = corpus() else { return };
    let rows = rows(&dir, "real_cases.jsonl");
    let mut failures = Vec::new();
    for row in &rows {
        let robots = Robots::parse(&body(&dir, row));
        let ua = row["user_agent"].as_str().unwrap();
        let source = &row["source"];
        if let Some(expected) = row["allowed"].as_bool() {
            let url = row["url"].as_str().unwrap();
            let verdict = robots.verdict(ua, url);
            if verdict.allowed != expected {
                failures.push(format!("{source}: ua {ua:?} url {url:?} expected {expected}, got {verdict:?}"));
            }
        }
        if let Some(expected) = row.get("crawl_delay") {
            let got = robots.crawl_delay(ua);
            if got != expected.as_f64() {
                failures.push(format!("{source}: crawl delay for {ua:?} expected {expected}, got {got:?}"));
            }
        }
        if let Some(expected) = row.get("sitemaps") {
            let expected: Vec<String> = serde_json::from_value(expected.clone()).unwrap();
            if robots.sitemaps() != expected.as_slice() {
                failures.push(format!("{source}: sitemaps {:?}", robots.sitemaps()));
            }
        }
    }
    report("real_cases.jsonl", &failures, rows.len());
}

#[test]
fn every_real_file_parses() {
    let Some(dir) = corpus() else { return };
    let mut files: Vec<PathBuf> = fs::read_dir(dir.join("real"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 29);
    for path in &files {
        let bytes = fs::read(path).unwrap();
        let robots = Robots::parse(&bytes);
        let name = path.file_name().unwrap().to_string_lossy();
        let stats = robots.stats();
        // Exercise the matcher on every file, for a bot and the catch-all.
        for ua in ["GPTBot", "Googlebot", "SomeUnknownBot"] {
            let _ = robots.verdict(ua, "/");
            let _ = robots.verdict(ua, "/search?q=x");
        }
        println!("{name}: {} groups, {} sitemaps, {:?}", robots.groups().len(), robots.sitemaps().len(), stats);
        match name.as_ref() {
            // A BOM at the start is skipped: the first line is still a directive.
            "en.wikipedia.org.robots.txt" => {
                assert!(bytes.starts_with(&[0xEF, 0xBB, 0xBF]));
                assert!(!robots.groups().is_empty());
                assert!(!robots.is_allowed("MJ12bot", "/wiki/Main_Page"));
            }
            // An HTML page served as robots.txt yields no rule that blocks anything.
            "www.microsoft.com.robots.txt" => {
                assert!(robots.is_allowed("GPTBot", "/en-us/"));
            }
            _ => assert!(!robots.groups().is_empty(), "{name} has groups"),
        }
    }
}

/// The lines of a robots.txt body as the parser counts them: CR, LF and CRLF each end one
/// line, a leading BOM is no content, and the last line counts even without an ending.
fn numbered_lines(bytes: &[u8]) -> Vec<String> {
    let bytes = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF][..]).unwrap_or(bytes);
    let text = String::from_utf8_lossy(bytes).replace("\r\n", "\n").replace('\r', "\n");
    text.split('\n').map(str::to_owned).collect()
}

/// Over every real file: the group and line each AI crawler's verdict names are the lines
/// of the file that hold that user-agent and that rule, and a group comes before its rule.
#[test]
fn crawler_verdicts_point_at_real_lines() {
    let Some(dir) = corpus() else { return };
    let mut checked = 0;
    for entry in fs::read_dir(dir.join("real")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "txt") {
            continue;
        }
        let bytes = fs::read(&path).unwrap();
        let robots = Robots::parse(&bytes);
        let lines = numbered_lines(&bytes);
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        for url in ["/", "/search?q=x", "/wiki/Main_Page", "/admin/", "/api/v1/x", "/blog/post.html"] {
            for c in ai_crawlers(Some(&robots), url) {
                let at = |n: usize| lines.get(n - 1).map(|l| l.split('#').next().unwrap_or("").trim().to_owned());
                let verdict = robots.verdict(c.bot, url);
                let group = robots.deciding_group(&verdict);
                assert_eq!(c.group, group.map(|g| g.agent_lines()), "{name} {} {url}", c.bot);
                if let Some(group) = group {
                    for agent in &group.agents {
                        let text = at(agent.line).unwrap();
                        assert!(text.to_lowercase().starts_with("user"), "{name}:{} {text:?}", agent.line);
                        assert!(text.ends_with(&agent.value), "{name}:{} {text:?} for {}", agent.line, agent.value);
                    }
                }
                match c.line {
                    Some(n) => {
                        let text = at(n).unwrap();
                        let (kind, value) = c.rule.split_once(": ").unwrap();
                        let first = text.chars().next().unwrap().to_ascii_uppercase();
                        assert_eq!(Some(first), kind.chars().next(), "{name}:{n} {text:?} for {}", c.rule);
                        assert!(text.ends_with(value), "{name}:{n} {text:?} for {}", c.rule);
                        let group = group.unwrap();
                        assert!(group.line <= n && group.rules.iter().any(|r| r.line == n), "{name}:{n}");
                        checked += 1;
                    }
                    None => assert!(!c.rule.contains(": /"), "{name} {} {url}: {}", c.bot, c.rule),
                }
            }
        }
    }
    println!("{checked} deciding rules checked against their lines");
    assert!(checked > 500, "{checked}");
}
