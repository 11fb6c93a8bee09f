//! `/api/ai-readiness`: the body, its score and its recommendations.

use std::path::PathBuf;

use ai_visibility::{ai_readiness, AiReadiness, Robots, READINESS_POINTS};
use audit_core::{HttpFacts, Page};
use serde_json::json;

fn fixture(site: &str, file: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/ai").join(site).join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn readiness(html: &str, llms: Option<(&str, Option<&str>)>, robots: Option<&str>) -> AiReadiness {
    let page = Page::parse("https://acme.example/blog/post", html.as_bytes(), HttpFacts::default());
    let robots = robots.map(|r| Robots::parse(r.as_bytes()));
    let r = ai_readiness("https://acme.example/blog/post", &page, llms, robots.as_ref());
    assert!(r.score <= 100);
    let bots: Vec<&str> = r.robots_txt.ai_bots.iter().map(|a| a.bot).collect();
    assert_eq!(bots, ["GPTBot", "ClaudeBot", "PerplexityBot"]);
    assert_eq!(r.robots_txt.blocked_count, r.robots_txt.ai_bots.iter().filter(|a| a.blocked).count());
    r
}

/// Compares score, blocked crawlers and the number of recommendations.
fn check(
    html: &str,
    llms: Option<(&str, Option<&str>)>,
    robots: Option<&str>,
    score: u8,
    blocked: &[&str],
    recommendations: usize,
) {
    let r = readiness(html, llms, robots);
    let got: Vec<&str> = r.robots_txt.ai_bots.iter().filter(|a| a.blocked).map(|a| a.bot).collect();
    assert_eq!(
        (r.score, got.as_slice(), r.recommendations.len()),
        (score, blocked, recommendations),
        "{html} {llms:?} {robots:?}: {:?}",
        r.recommendations
    );
}

const GOOD_LLMS: &str = "# Acme\n\n> Widgets.\n\n## Docs\n\n- [Guide](https://acme.example/guide.md)\n";
const FULL_HTML: &str =
    "<header><nav>n</nav></header><main><article><h1>T</h1><h2>S</h2></article></main><footer>f</footer>";

#[test]
fn points_sum_to_100() {
    assert_eq!(READINESS_POINTS.iter().map(|i| u32::from(i.points)).sum::<u32>(), 100);
    let mut ids: Vec<&str> = READINESS_POINTS.iter().map(|i| i.id).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), READINESS_POINTS.len());
}

#[test]
fn scores() {
    let at = "https://acme.example/llms.txt";
    check(FULL_HTML, Some((at, Some(GOOD_LLMS))), None, 100, &[], 0);
    // Absent llms.txt: 30 points lost, one recommendation for both items.
    check(FULL_HTML, Some((at, None)), None, 70, &[], 1);
    check(FULL_HTML, None, None, 70, &[], 1);
    // Present but invalid (no H1): valid item lost.
    check(FULL_HTML, Some((at, Some("## Docs\n- [x](https://a.example/x)\n"))), None, 85, &[], 1);
    // GPTBot blocked everywhere, PerplexityBot blocked only where the page is.
    let robots = "User-agent: GPTBot\nDisallow: /\n\nUser-agent: PerplexityBot\nDisallow: /blog/\n";
    check(FULL_HTML, Some((at, Some(GOOD_LLMS))), Some(robots), 80, &["GPTBot", "PerplexityBot"], 2);
    check(
        FULL_HTML,
        Some((at, Some(GOOD_LLMS))),
        Some("User-agent: *\nDisallow: /\n"),
        70,
        &["GPTBot", "ClaudeBot", "PerplexityBot"],
        3,
    );
    // Other crawlers do not count toward the three named ones.
    check(FULL_HTML, Some((at, Some(GOOD_LLMS))), Some("User-agent: CCBot\nDisallow: /\n"), 100, &[], 0);
    // No landmarks, skipped heading level.
    check("<h1>T</h1><h3>S</h3>", Some((at, Some(GOOD_LLMS))), None, 60, &[], 6);
    check("", None, Some("User-agent: *\nDisallow: /\n"), 0, &["GPTBot", "ClaudeBot", "PerplexityBot"], 10);
}

#[test]
fn recommendations_are_concrete_and_ordered() {
    let r = readiness("<div>no landmarks</div>", None, Some("User-agent: GPTBot\nDisallow: /\n"));
    assert!(r.recommendations[0].contains("llms.txt"), "{:?}", r.recommendations);
    assert!(r.recommendations.iter().any(|s| s.contains("GPTBot")));
    assert!(r.recommendations.iter().any(|s| s.contains("<main>")));
    assert!(r.recommendations.iter().any(|s| s.contains("heading")));
}

#[test]
fn signals_and_ignored_blocks_are_explained() {
    let robots = "User-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n\nUser-agent: Bytespider\nUser-agent: GPTBot\nDisallow: /\n";
    let r = readiness("<main><h1>T</h1></main>", None, Some(robots));
    assert_eq!(r.content_signals.ai_train.as_deref(), Some("no"));
    // `ai-train=no` is a choice: no recommendation says to change it.
    assert!(r.recommendations.iter().all(|s| !s.contains("Content-Signal")), "{:?}", r.recommendations);
    // Bytespider ignores robots.txt: its block is flagged, GPTBot's is not.
    let ignored: Vec<&str> = r.ai_crawlers.iter().filter(|c| c.disallow_ignored).map(|c| c.bot).collect();
    assert_eq!(ignored, ["Bytespider"]);
    assert!(r
        .recommendations
        .iter()
        .any(|s| s.contains("robots.txt blocks Bytespider,") || s.contains("robots.txt blocks Bytespider")));
    let search_no = readiness("<main><h1>T</h1></main>", None, Some("User-agent: *\nContent-Signal: search=no\n"));
    assert!(search_no.recommendations.iter().any(|s| s.contains("search=no")), "{:?}", search_no.recommendations);
}

#[test]
fn serialises_as_decisions_7() {
    let r = readiness(
        &fixture("full-marks", "index.html"),
        Some(("https://acme.example/llms.txt", Some(&fixture("full-marks", "llms.txt")))),
        Some("User-agent: GPTBot\nDisallow: /\n"),
    );
    let v = serde_json::to_value(&r).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "ok",
            "url",
            "score",
            "llms_txt",
            "robots_txt",
            "semantic_html",
            "recommendations",
            "crawlers",
            "ai_crawlers",
            "crawler_classes",
            "content_signals"
        ]
    );
    assert_eq!(v["ai_crawlers"].as_array().map(Vec::len), Some(ai_visibility::AI_BOTS.len()));
    // The whole registry is judged: GPTBot blocked, and every other crawler allowed.
    let blocked: Vec<&str> = v["ai_crawlers"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["verdict"] == "blocked")
        .map(|c| c["bot"].as_str().unwrap())
        .collect();
    assert_eq!(blocked, ["GPTBot"]);
    assert_eq!(v["ok"], true);
    assert_eq!(v["score"], 90);
    assert_eq!(
        v["llms_txt"],
        json!({"present": true, "valid": true, "url": "https://acme.example/llms.txt", "title": "Acme", "sections": 2, "links": 3, "issues": []})
    );
    assert_eq!(v["robots_txt"]["present"], true);
    assert_eq!(v["robots_txt"]["blocked_count"], 1);
    assert_eq!(v["robots_txt"]["ai_bots"][0]["bot"], "GPTBot");
    assert_eq!(v["robots_txt"]["ai_bots"][0]["blocked"], true);
    assert_eq!(v["robots_txt"]["ai_bots"][0]["rule"], "Disallow: /");
    assert_eq!(v["robots_txt"]["ai_bots"][1]["rule"], serde_json::Value::Null);
    // The same reading, crawler by crawler, with the group and line that decided.
    assert_eq!(
        v["crawlers"],
        json!([
            {"bot": "GPTBot", "operator": "OpenAI", "purpose": "training", "verdict": "blocked",
                "group": "User-agent: GPTBot", "line": 2, "rule": "Disallow: /", "respects_robots_txt": "yes",
                "disallow_ignored": false},
            {"bot": "ClaudeBot", "operator": "Anthropic", "purpose": "training", "verdict": "allowed",
                "group": null, "line": null, "rule": ai_visibility::NO_GROUP_APPLIES, "respects_robots_txt": "yes",
                "disallow_ignored": false},
            {"bot": "PerplexityBot", "operator": "Perplexity", "purpose": "search", "verdict": "allowed",
                "group": null, "line": null, "rule": ai_visibility::NO_GROUP_APPLIES, "respects_robots_txt": "yes",
                "disallow_ignored": false},
        ])
    );
    assert_eq!(
        v["semantic_html"],
        json!({"main": true, "nav": true, "article": true, "header": true, "footer": true, "heading_hierarchy": {"valid": true, "issues": []}})
    );
    assert_eq!(v["recommendations"].as_array().map(Vec::len), Some(1));
}

#[test]
fn default_llms_location() {
    let r = readiness("", None, None);
    assert_eq!((r.llms_txt.present, r.llms_txt.url.as_str()), (false, "https://acme.example/llms.txt"));
    assert!(!r.robots_txt.present);
    let html_page = readiness(
        "",
        Some(("https://acme.example/llms.txt", Some("<!doctype html><html><body>404</body></html>"))),
        None,
    );
    assert!(html_page.llms_txt.present && !html_page.llms_txt.valid);
}

/// RFC 9309 §2.3.1.4: a robots.txt that answers 5xx (or not at all) means complete disallow;
/// the report says so instead of calling the site open.
#[test]
fn an_unreachable_robots_txt_blocks_every_crawler() {
    let page = Page::parse("https://acme.example/blog/post", FULL_HTML.as_bytes(), HttpFacts::default());
    let robots = Robots::unreachable("HTTP 503");
    let at = "https://acme.example/llms.txt";
    let r = ai_readiness("https://acme.example/blog/post", &page, Some((at, Some(GOOD_LLMS))), Some(&robots));
    assert!(!r.robots_txt.present);
    assert_eq!(r.robots_txt.unreachable.as_deref(), Some("HTTP 503"));
    assert_eq!(r.robots_txt.blocked_count, 3);
    let rule = r.robots_txt.ai_bots[0].rule.as_deref().unwrap();
    assert!(rule.contains("HTTP 503") && rule.contains("complete disallow"), "{rule}");
    // One recommendation says to make the file answer; none says to allow each crawler.
    assert!(
        r.recommendations[0].starts_with("Make /robots.txt answer (it fails: HTTP 503)"),
        "{:?}",
        r.recommendations
    );
    assert!(!r.recommendations.iter().any(|x| x.starts_with("Allow ")), "{:?}", r.recommendations);
    let body = serde_json::to_value(&r).unwrap();
    assert_eq!(body["robots_txt"]["unreachable"], "HTTP 503");
    // A readable file leaves the field out of the body.
    let open = ai_readiness("https://acme.example/blog/post", &page, None, None);
    assert!(serde_json::to_value(&open).unwrap()["robots_txt"].get("unreachable").is_none());
    // robots.txt itself stays fetchable; every other path is refused to every agent.
    assert!(robots.is_allowed("GPTBot", "https://acme.example/robots.txt"));
    for agent in ["Googlebot", "GPTBot", "*", "SeoAuditBot"] {
        assert!(!robots.is_allowed(agent, "https://acme.example/"), "{agent}");
    }
}

/// The stored form of an answer keeps every count and cuts every list and text to its bound.
#[test]
fn the_stored_record_is_bounded_and_keeps_its_totals() {
    use ai_visibility::{ReadinessRecord, MAX_RECORD_ITEMS, MAX_RECORD_TEXT_CHARS};
    let mut robots = String::from("User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n");
    for i in 0..30 {
        robots.push_str(&format!("Content-Signal: search=yes, ai-train=no, note={}\n", "é".repeat(400 + i)));
    }
    // Forty sections without a link: one finding each.
    let mut llms = String::from("# Acme\n\n> Widgets.\n");
    for i in 0..40 {
        llms.push_str(&format!("\n## Empty {i}\n\nNothing here.\n"));
    }
    let r = readiness("<main><h1>x</h1></main>", Some(("https://acme.example/llms.txt", Some(&llms))), Some(&robots));
    let record = ReadinessRecord::of(&r);
    assert_eq!(record.score, r.score);
    assert_eq!(record.crawlers, r.ai_crawlers.len());
    assert!(record.crawlers_blocked >= 1 && record.crawlers_blocked < record.crawlers, "{}", record.crawlers_blocked);
    assert_eq!(record.classes.len(), 7);
    assert_eq!(record.classes.iter().map(|c| c.crawlers).sum::<usize>(), record.crawlers);
    assert_eq!(record.classes.iter().map(|c| c.blocked).sum::<usize>(), record.crawlers_blocked);

    let signals = &record.content_signals;
    assert!(signals.present);
    assert_eq!((signals.lines.len(), signals.lines_total), (MAX_RECORD_ITEMS, 30));
    assert_eq!(signals.lines[0].line, 6);
    let value = &signals.lines[0].value;
    assert_eq!(value.chars().count(), MAX_RECORD_TEXT_CHARS + 1, "cut with a visible …");
    assert!(value.ends_with('…'));

    assert!(r.llms_txt.issues.len() > MAX_RECORD_ITEMS, "{}", r.llms_txt.issues.len());
    assert_eq!((record.llms.issues.len(), record.llms.issues_total), (MAX_RECORD_ITEMS, r.llms_txt.issues.len()));
    assert_eq!(record.llms.issues[0].severity, r.llms_txt.issues[0].severity.key());
    // Without probes there is nothing of the edge or the discovery documents.
    assert_eq!((record.edge.as_ref(), record.discovery_total, record.llms.full_present), (None, 0, None));

    // It reads back as it was written, and a record of an older build with fewer fields too.
    let text = serde_json::to_string(&record).unwrap();
    assert_eq!(serde_json::from_str::<ReadinessRecord>(&text).unwrap(), record);
    let old: ReadinessRecord = serde_json::from_str(r#"{"url": "https://a.example/", "score": 12}"#).unwrap();
    assert_eq!((old.score, old.classes.len()), (12, 0));
}
