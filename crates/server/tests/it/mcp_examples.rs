//! One hand-written `structuredContent` per tool (two where the shape has a second form):
//! documentation for integrators and the fixtures of the catalog tests. They are checked
//! against the output schemas, so a schema change that breaks the documented shape fails a
//! test.

use serde_json::{json, Value};

/// `(tool name, example structuredContent)`, in tool order.
pub fn example_outputs() -> Vec<(&'static str, Value)> {
    literal_outputs().into_iter().map(|(tool, value)| (tool, with_registry(tool, value))).collect()
}

/// The Oakwright robots.txt the AI examples read: a `*` group without rules and one group
/// allowing the three named crawlers, whose `Allow: /` is line 7.
const OAKWRIGHT_ROBOTS: &str =
    "User-agent: *\nDisallow:\n\nUser-agent: GPTBot\nUser-agent: ClaudeBot\nUser-agent: PerplexityBot\nAllow: /\n";

/// The AI examples' registry-sized parts (one entry per crawler of the registry) computed
/// from [`OAKWRIGHT_ROBOTS`], since they are too long to write by hand.
fn with_registry(tool: &str, mut value: Value) -> Value {
    let robots = ai_visibility::Robots::parse(OAKWRIGHT_ROBOTS.as_bytes());
    let crawlers = ai_visibility::ai_crawlers(Some(&robots), "https://oakwright.example/");
    let classes = serde_json::to_value(ai_visibility::class_summary(&crawlers)).unwrap();
    let signals = serde_json::to_value(ai_visibility::ContentSignalReport::new(Some(&robots))).unwrap();
    let all = serde_json::to_value(&crawlers).unwrap();
    match tool {
        "check_ai_readiness" => {
            value["crawlers"] = json!(all.as_array().unwrap()[..3]);
            value["ai_crawlers"] = all;
        }
        "scan_ai_visibility" => {
            value["crawlers"] = all;
            value["version"] = json!(ai_visibility::SCAN_VERSION);
        }
        _ => return value,
    }
    value["crawler_classes"] = classes;
    value["content_signals"] = signals;
    value
}

fn literal_outputs() -> Vec<(&'static str, Value)> {
    vec![
        (
            "get_site_info",
            json!({
                "url": "http://example.com/",
                "finalUrl": "https://www.example.com/",
                "title": "Handmade oak furniture | Acme",
                "statusCode": 200,
                "indexable": true,
                "noindex": false,
                "robotsTxt": { "present": true, "allowed": true, "rule": "Allow: /", "userAgent": "Googlebot" },
                "techStack": ["WordPress", "WooCommerce", "nginx"],
                "server": "nginx",
                "https": true,
                "redirects": 2,
                "lang": "en"
            }),
        ),
        (
            "get_audit_methodology",
            json!({
                "category": "performance",
                "ruleset": { "version": "1.2.0", "fingerprint": "56f0c7027550e784", "engineVersion": "0.1.0", "rules": 58 },
                "groups": [{
                    "group": "performance",
                    "weight": 6,
                    "categories": [{
                        "category": "Performance",
                        "weight": 6,
                        "rules": [{
                            "id": "slow-response", "name": "Server answers quickly", "severity": "warning", "weight": 1,
                            "threshold": "time to first byte > 800 ms", "impact": "medium", "effort": "medium",
                            "why": "A slow first byte delays everything else on the page."
                        }]
                    }]
                }],
                "scoring": "percentage = round(100 * passed weight / applicable weight)"
            }),
        ),
        (
            "get_seo_concept",
            json!({
                "concept": "canonical-url",
                "found": true,
                "title": "Canonical URL",
                "definition": "The preferred URL of a page that can be reached at several addresses.",
                "whyItMatters": "Ranking signals are combined instead of split across duplicates.",
                "howToFix": "Give every indexable page one absolute self-referencing canonical.",
                "relatedRules": ["canonical-missing", "canonical-relative"],
                "related": ["duplicate-content", "301-redirect"]
            }),
        ),
        ("get_seo_concept", json!({ "concept": "canonicle", "found": false, "suggestions": ["canonical-url"] })),
        (
            // The REST audit result itself (docs/API.md, "The audit result").
            "seo_audit",
            json!(
                {
                  "ok": true,
                  "api_version": "v1",
                  "scanned_at": "2026-11-21T10:15:02.123Z",
                  "target_type": "public",
                  "target": null,
                  "page": {
                    "url": "https://example.com/",
                    "final_url": "https://www.example.com/",
                    "title": "Example Domain for documentation",
                    "meta_description": null,
                    "h1": "Example Domain",
                    "word_count": 28,
                    "images": { "total": 0, "missing_alt": 0 },
                    "links": { "internal": 0, "external": 1 },
                    "og": { "title": "", "description": "", "image": "" },
                    "canonical": "",
                    "robots": "",
                    "schema_markup": false,
                    "load_time_ms": 183,
                    "status_code": 200,
                    "lang": "en",
                    "charset": "UTF-8",
                    "headings": [{ "level": 1, "text": "Example Domain" }],
                    "hreflang": [],
                    "schema_types": []
                  },
                  "score": {
                    "current": 71, "max": 100, "percentage": 71, "passed": 38, "total": 47,
                    "engine_version": "0.1.0", "ruleset_version": "1.0.0", "ruleset_fingerprint": "3f0c9a2d1e4b5c6a"
                  },
                  "recommendations": [
                    {
                      "id": "meta-description-missing",
                      "type": "warning",
                      "category": "Content",
                      "title": "Meta description missing",
                      "description": "The page has no meta description; write one of 70-160 characters that sums up the page.",
                      "impact": "high",
                      "effort": "low",
                      "confidence": 95,
                      "current_value": null,
                      "suggested_value": "This domain is for use in illustrative examples in documents. You may use this..."
                    }
                  ],
                  "checks": [{ "id": "title-missing", "category": "Content", "status": "pass" }],
                  "ai_insights": "Score 71/100: 38 of 47 applicable checks pass. Most serious: ...",
                  "meta": {
                    "engine_version": "0.1.0", "ruleset_version": "1.0.0",
                    "ruleset_fingerprint": "3f0c9a2d1e4b5c6a", "checks_executed": 62
                  },
                  "structured_data": {
                    "items": [], "invalid_blocks": [], "nodes_not_read": 0, "blocks_not_read": 0,
                    "problems_not_listed": 0, "stopped": false
                  }
                }
            ),
        ),
        (
            "get_opportunities",
            json!({
                "url": "https://example.com/",
                "finalUrl": "https://example.com/",
                "score": 78,
                "ranking": "priorityScore = impact points (high 3, medium 2, low 1) x rule weight / effort points (low 1, medium 2, high 3)",
                "opportunities": [
                    { "id": "meta-description-missing", "title": "Meta description is missing", "category": "Content", "severity": "warning", "impact": "medium", "effort": "low", "weight": 4, "priorityScore": 24.0, "rank": 1 },
                    { "id": "image-alt-missing", "title": "3 images have no alt text", "category": "Images", "severity": "warning", "impact": "medium", "effort": "low", "weight": 3, "priorityScore": 18.0, "rank": 2 }
                ]
            }),
        ),
        (
            "generate_fixes",
            json!({
                "url": "https://example.com/",
                "finalUrl": "https://example.com/",
                "topN": 5,
                "fixes": [{
                    "ruleId": "meta-description-missing",
                    "priorityScore": 24.0,
                    "issueTitle": "Meta description is missing",
                    "type": "html",
                    "difficulty": "easy",
                    "fix": "<meta name=\"description\" content=\"Handmade oak chairs and tables from Bavaria, built to order.\">",
                    "explanation": "Add this tag inside <head>; keep it between 70 and 160 characters.",
                    "placeholders": [],
                    "priorityScore": 24.0
                }]
            }),
        ),
        (
            "check_ai_readiness",
            // The REST answer itself (docs/API.md, one shape per fact).
            json!({
                "api_version": "v1",
                "ok": true,
                "url": "https://oakwright.example/",
                "score": 100,
                "llms_txt": {
                    "present": true,
                    "valid": true,
                    "url": "https://oakwright.example/llms.txt",
                    "title": "Oakwright",
                    "sections": 2,
                    "links": 3,
                    "issues": []
                },
                "robots_txt": {
                    "present": true,
                    "ai_bots": [
                        { "bot": "GPTBot", "operator": "OpenAI", "purpose": "training", "blocked": false, "rule": "Allow: /" },
                        { "bot": "ClaudeBot", "operator": "Anthropic", "purpose": "training", "blocked": false, "rule": "Allow: /" },
                        { "bot": "PerplexityBot", "operator": "Perplexity", "purpose": "search", "blocked": false, "rule": "Allow: /" }
                    ],
                    "blocked_count": 0
                },
                "semantic_html": {
                    "main": true,
                    "nav": true,
                    "article": true,
                    "header": true,
                    "footer": true,
                    "heading_hierarchy": {
                        "valid": true,
                        "issues": []
                    }
                },
                "recommendations": [],
                "crawlers": [
                    { "bot": "GPTBot", "operator": "OpenAI", "purpose": "training", "verdict": "allowed", "group": "User-agent: GPTBot\nUser-agent: ClaudeBot\nUser-agent: PerplexityBot", "line": 7, "rule": "Allow: /" },
                    { "bot": "ClaudeBot", "operator": "Anthropic", "purpose": "training", "verdict": "allowed", "group": "User-agent: GPTBot\nUser-agent: ClaudeBot\nUser-agent: PerplexityBot", "line": 7, "rule": "Allow: /" },
                    { "bot": "PerplexityBot", "operator": "Perplexity", "purpose": "search", "verdict": "allowed", "group": "User-agent: GPTBot\nUser-agent: ClaudeBot\nUser-agent: PerplexityBot", "line": 7, "rule": "Allow: /" }
                ]
            }),
        ),
        (
            "scan_ai_visibility",
            // The REST answer itself (docs/API.md, one shape per fact).
            json!({
                "api_version": "v1",
                "url": "https://oakwright.example/",
                "ok": true,
                "score": 100,
                "pillars": { "llmsTxt": 25, "aiBotAccess": 25, "answerStructure": 25, "entityClarity": 25 },
                "recommendations": [],
                "details": {
                    "llmsTxt": [
                        { "check": "llms-present", "points": 5, "max": 5, "passed": true },
                        { "check": "llms-title", "points": 4, "max": 4, "passed": true },
                        { "check": "llms-summary", "points": 4, "max": 4, "passed": true },
                        { "check": "llms-sections", "points": 5, "max": 5, "passed": true },
                        { "check": "llms-absolute-links", "points": 3, "max": 3, "passed": true },
                        { "check": "llms-valid", "points": 4, "max": 4, "passed": true }
                    ],
                    "aiBotAccess": [
                        { "check": "bots-search", "points": 8, "max": 8, "passed": true },
                        { "check": "bots-user-fetch", "points": 7, "max": 7, "passed": true },
                        { "check": "bots-training", "points": 4, "max": 4, "passed": true },
                        { "check": "bots-named", "points": 3, "max": 3, "passed": true },
                        { "check": "bots-no-blanket", "points": 2, "max": 2, "passed": true },
                        { "check": "content-signal-search", "points": 1, "max": 1, "passed": true }
                    ],
                    "answerStructure": [
                        { "check": "question-headings", "points": 6, "max": 6, "passed": true },
                        { "check": "lists", "points": 4, "max": 4, "passed": true },
                        { "check": "tables", "points": 3, "max": 3, "passed": true },
                        { "check": "faq-markup", "points": 4, "max": 4, "passed": true },
                        { "check": "summary-first", "points": 5, "max": 5, "passed": true },
                        { "check": "heading-density", "points": 3, "max": 3, "passed": true }
                    ],
                    "entityClarity": [
                        { "check": "entity-schema", "points": 7, "max": 7, "passed": true },
                        { "check": "brand-consistent", "points": 5, "max": 5, "passed": true },
                        { "check": "og-site-name", "points": 3, "max": 3, "passed": true },
                        { "check": "about-contact", "points": 4, "max": 4, "passed": true },
                        { "check": "same-as", "points": 3, "max": 3, "passed": true },
                        { "check": "html-lang", "points": 3, "max": 3, "passed": true }
                    ]
                },
                "crawlers": [
                    { "bot": "GPTBot", "operator": "OpenAI", "purpose": "training", "verdict": "allowed", "group": "User-agent: GPTBot\nUser-agent: ClaudeBot\nUser-agent: PerplexityBot", "line": 7, "rule": "Allow: /" },
                    { "bot": "ClaudeBot", "operator": "Anthropic", "purpose": "training", "verdict": "allowed", "group": "User-agent: GPTBot\nUser-agent: ClaudeBot\nUser-agent: PerplexityBot", "line": 7, "rule": "Allow: /" },
                    { "bot": "PerplexityBot", "operator": "Perplexity", "purpose": "search", "verdict": "allowed", "group": "User-agent: GPTBot\nUser-agent: ClaudeBot\nUser-agent: PerplexityBot", "line": 7, "rule": "Allow: /" },
                    { "bot": "OAI-SearchBot", "operator": "OpenAI", "purpose": "search", "verdict": "allowed", "group": "User-agent: *", "line": null, "rule": "no rule matched: allowed by default" },
                    { "bot": "ChatGPT-User", "operator": "OpenAI", "purpose": "user_fetch", "verdict": "allowed", "group": "User-agent: *", "line": null, "rule": "no rule matched: allowed by default" },
                    { "bot": "anthropic-ai", "operator": "Anthropic", "purpose": "training", "verdict": "allowed", "group": "User-agent: *", "line": null, "rule": "no rule matched: allowed by default" },
                    { "bot": "Claude-SearchBot", "operator": "Anthropic", "purpose": "search", "verdict": "allowed", "group": "User-agent: *", "line": null, "rule": "no rule matched: allowed by default" },
                    { "bot": "Claude-User", "operator": "Anthropic", "purpose": "user_fetch", "verdict": "allowed", "group": "User-agent: *", "line": null, "rule": "no rule matched: allowed by default" },
                    { "bot": "Claude-Web", "operator": "Anthropic", "purpose": "user_fetch", "verdict": "allowed", "group": "User-agent: *", "line": null, "rule": "no rule matched: allowed by default" },
                    { "bot": "Perplexity-User", "operator": "Perplexity", "purpose": "user_fetch", "verdict": "allowed", "group": "User-agent: *", "line": null, "rule": "no rule matched: allowed by default" },
                    { "bot": "Google-Extended", "operator": "Google", "purpose": "training", "verdict": "allowed", "group": "User-agent: *", "line": null, "rule": "no rule matched: allowed by default" },
                    { "bot": "GoogleOther", "operator": "Google", "purpose": "training", "verdict": "allowed", "group": "User-agent: *", "line": null, "rule": "no rule matched: allowed by default" },
                    { "bot": "Applebot-Extended", "operator": "Apple", "purpose": "training", "verdict": "allowed", "group": "User-agent: *", "line": null, "rule": "no rule matched: allowed by default" },
                    { "bot": "CCBot", "operator": "Common Crawl", "purpose": "training", "verdict": "allowed", "group": "User-agent: *", "line": null, "rule": "no rule matched: allowed by default" },
                    { "bot": "Bytespider", "operator": "ByteDance", "purpose": "training", "verdict": "allowed", "group": "User-agent: *", "line": null, "rule": "no rule matched: allowed by default" },
                    { "bot": "Meta-ExternalAgent", "operator": "Meta", "purpose": "training", "verdict": "allowed", "group": "User-agent: *", "line": null, "rule": "no rule matched: allowed by default" },
                    { "bot": "Meta-ExternalFetcher", "operator": "Meta", "purpose": "user_fetch", "verdict": "allowed", "group": "User-agent: *", "line": null, "rule": "no rule matched: allowed by default" },
                    { "bot": "FacebookBot", "operator": "Meta", "purpose": "training", "verdict": "allowed", "group": "User-agent: *", "line": null, "rule": "no rule matched: allowed by default" },
                    { "bot": "Amazonbot", "operator": "Amazon", "purpose": "search", "verdict": "allowed", "group": "User-agent: *", "line": null, "rule": "no rule matched: allowed by default" },
                    { "bot": "cohere-ai", "operator": "Cohere", "purpose": "user_fetch", "verdict": "allowed", "group": "User-agent: *", "line": null, "rule": "no rule matched: allowed by default" },
                    { "bot": "cohere-training-data-crawler", "operator": "Cohere", "purpose": "training", "verdict": "allowed", "group": "User-agent: *", "line": null, "rule": "no rule matched: allowed by default" },
                    { "bot": "DuckAssistBot", "operator": "DuckDuckGo", "purpose": "search", "verdict": "allowed", "group": "User-agent: *", "line": null, "rule": "no rule matched: allowed by default" },
                    { "bot": "MistralAI-User", "operator": "Mistral AI", "purpose": "user_fetch", "verdict": "allowed", "group": "User-agent: *", "line": null, "rule": "no rule matched: allowed by default" },
                    { "bot": "Diffbot", "operator": "Diffbot", "purpose": "training", "verdict": "allowed", "group": "User-agent: *", "line": null, "rule": "no rule matched: allowed by default" },
                    { "bot": "YouBot", "operator": "You.com", "purpose": "search", "verdict": "allowed", "group": "User-agent: *", "line": null, "rule": "no rule matched: allowed by default" },
                    { "bot": "Timpibot", "operator": "Timpi", "purpose": "training", "verdict": "allowed", "group": "User-agent: *", "line": null, "rule": "no rule matched: allowed by default" },
                    { "bot": "omgili", "operator": "Webz.io", "purpose": "training", "verdict": "allowed", "group": "User-agent: *", "line": null, "rule": "no rule matched: allowed by default" },
                    { "bot": "ImagesiftBot", "operator": "ImageSift", "purpose": "training", "verdict": "allowed", "group": "User-agent: *", "line": null, "rule": "no rule matched: allowed by default" },
                    { "bot": "PanguBot", "operator": "Huawei", "purpose": "training", "verdict": "allowed", "group": "User-agent: *", "line": null, "rule": "no rule matched: allowed by default" }
                ]
            }),
        ),
        (
            "analyze_content_gap",
            // The REST answer itself (docs/API.md, one shape per fact).
            json!({
                "ok": true,
                "api_version": "v1",
                "url": "https://oakwright.example/product.html",
                "pageType": "product",
                "coverage": 75,
                "gaps": [
                    { "heading": "Aeropress Clear coffee maker: shipping and returns", "section": "Shipping and returns", "priority": "high", "estimatedWords": 51, "reason": "2 of 2 competitors cover this (e.g. \"Shipping & returns\"), with a median of 51 words; the page has no such section. Such sections usually cover delivery times and costs, and how to send an item back." }
                ],
                "basis": "competitors",
                "covered": ["Product description", "Customer reviews", "Specifications"],
                "pageTypeReason": "The page declares schema.org @type Product in JSON-LD.",
                "classification": {
                    "pageType": "product",
                    "confidence": 95,
                    "signals": [
                        { "source": "json-ld", "value": "Product", "weight": 10 },
                        { "source": "headings", "value": "Product description", "weight": 6 },
                        { "source": "headings", "value": "Technical details", "weight": 6 }
                    ],
                    "decidedBy": "declared",
                    "reason": "The page declares schema.org @type Product in JSON-LD."
                },
                "competitorsCompared": 2,
                "skippedCompetitors": []
            }),
        ),
        (
            "auto_fix_batch",
            // The REST answer itself (docs/API.md, one shape per fact).
            json!({
                "ok": true,
                "api_version": "v1",
                "count": 2,
                "fixes": [
                    {
                        "issueTitle": "meta-description-missing",
                        "fix": "<meta name=\"description\" content=\"TODO: describe what this page offers in one or two sentences of 70 to 160 characters\">",
                        "type": "html",
                        "difficulty": "easy",
                        "ruleId": "meta-description-missing",
                        "explanation": "Place one such tag in <head>. No page text was available to write it from. Before using it, replace the text marked TODO (listed in placeholders): the page did not give that value.",
                        "placeholders": [
                            { "text": "TODO: describe what this page offers in one or two sentences of 70 to 160 characters", "line": 1 }
                        ]
                    },
                    {
                        "issueTitle": "canonical-missing",
                        "fix": "<link rel=\"canonical\" href=\"https://oak.example/tables\">",
                        "type": "html",
                        "difficulty": "easy",
                        "ruleId": "canonical-missing",
                        "explanation": "Add this tag to <head>: it names the preferred URL of the page.",
                        "placeholders": []
                    }
                ]
            }),
        ),
        (
            "workflow_execute",
            json!({
                "runId": "run_6f1c0e8a",
                "state": "queued",
                "intent": "fix",
                "url": "https://example.com/",
                "steps": ["audit", "fix_plan", "approval", "finalize"]
            }),
        ),
        (
            "workflow_status",
            json!({
                "runId": "run_6f1c0e8a",
                "intent": "fix",
                "url": "https://example.com/",
                "competitorUrl": null,
                "state": "awaiting_approval",
                "steps": [
                    { "name": "audit", "status": "completed", "startedAt": "2026-05-01T10:00:00.000Z", "finishedAt": "2026-05-01T10:00:06.120Z" },
                    { "name": "fix_plan", "status": "completed", "startedAt": "2026-05-01T10:00:06.130Z", "finishedAt": "2026-05-01T10:00:06.150Z" },
                    { "name": "approval", "status": "running", "startedAt": "2026-05-01T10:00:06.160Z", "finishedAt": null },
                    { "name": "finalize", "status": "pending", "startedAt": null, "finishedAt": null }
                ],
                "results": { "audit": { "score": 78, "issues": 6 } },
                "pendingApprovals": [{ "approvalId": "appr_1", "summary": "Apply 5 fixes (meta description, alt text, ...)" }],
                "approvals": [{ "approvalId": "appr_1", "state": "pending", "decision": null, "decidedAt": null }],
                "error": null,
                "resumes": 0,
                "createdAt": "2026-05-01T09:59:59.900Z",
                "updatedAt": "2026-05-01T10:00:06.160Z"
            }),
        ),
        (
            "workflow_status",
            json!({
                "runId": "run_0a9b",
                "intent": "audit",
                "url": "https://unreachable.example/",
                "competitorUrl": null,
                "state": "failed",
                "steps": [{ "name": "audit", "status": "failed", "startedAt": "2026-05-01T10:00:00.000Z", "finishedAt": "2026-05-01T10:00:15.000Z" }],
                "results": {},
                "pendingApprovals": [],
                "approvals": [],
                "error": { "step": "audit", "reason": "target_timeout" },
                "resumes": 0,
                "createdAt": "2026-05-01T09:59:59.900Z",
                "updatedAt": "2026-05-01T10:00:15.000Z"
            }),
        ),
        (
            "approve_fixes",
            json!({ "runId": "run_6f1c0e8a", "approvalId": "appr_1", "decision": "approved", "state": "running" }),
        ),
        (
            "detect_regressions",
            json!({
                "baselineUrl": "https://example.com/",
                "currentUrl": "https://staging.example.com/",
                "baselineScore": 86,
                "currentScore": 71,
                "scoreDelta": -15,
                "regressed": true,
                "counts": { "new": 2, "unchanged": 1, "resolved": 1 },
                "findings": [
                    { "id": "page-noindex", "state": "new", "title": "Page is set to noindex" },
                    { "id": "canonical-missing", "state": "new", "title": "No canonical URL" },
                    { "id": "og-image-missing", "state": "unchanged", "title": "No og:image" },
                    { "id": "image-alt-missing", "state": "resolved", "title": "1 image without alt text" }
                ],
                "newlyFailing": ["page-noindex", "canonical-missing"],
                "newlyPassing": ["image-alt-missing"],
                "changedFacts": [
                    { "field": "robots", "baseline": "", "current": "noindex, nofollow" },
                    { "field": "word_count", "baseline": 812, "current": 790 },
                    { "field": "meta_description", "baseline": "Oak furniture.", "current": null }
                ]
            }),
        ),
        (
            "compare_competitors",
            json!({
                "url": "https://example.com/",
                "competitorUrl": "https://competitor.example/",
                "score": { "site": 78, "competitor": 84 },
                "winner": "competitor",
                "categories": [
                    { "category": "Content", "site": 90, "competitor": 80, "winner": "site" },
                    { "category": "Structured Data", "site": 0, "competitor": 100, "winner": "competitor" },
                    { "category": "Mobile", "site": 100, "competitor": 100, "winner": "tie" }
                ],
                "siteWins": ["meta-description-too-long"],
                "competitorWins": ["structured-data-missing", "og-image-missing"]
            }),
        ),
        (
            "monitor_site",
            json!({
                "monitorId": "mon_42",
                "url": "https://example.com/",
                "intervalSeconds": 86400,
                "created": false,
                "nextRunAt": "2026-05-03T06:00:00.000Z",
                "rules": [
                    { "rule": "score_drop", "description": "score falls by 5 points or more" },
                    { "rule": "new_critical", "description": "a critical issue appears" },
                    { "rule": "status_not_2xx", "description": "the page answers a status outside 200-299" },
                    { "rule": "unreachable", "description": "the page cannot be fetched" }
                ],
                "recentAlerts": [{ "alertId": "alert_7", "rule": "score_drop", "severity": "warning", "message": "Score fell from 86 to 78", "createdAt": "2026-05-02T06:00:03.000Z" }],
                "severityBreakdown": { "critical": 0, "warning": 1, "notice": 0 },
                "latestAuditIssues": { "critical": 0, "warning": 3, "notice": 4 },
                "lastScore": 78,
                "lastAuditAt": "2026-05-02T06:00:02.000Z"
            }),
        ),
        (
            "track_keywords",
            json!({
                "action": "list",
                "keywords": [
                    {
                        "keyword": "oak chairs",
                        "targetUrl": "https://example.com/chairs",
                        "trackedSince": "2026-05-01T09:59:00.000Z",
                        "latest": { "inTitle": true, "inH1": true, "inDescription": false, "inUrl": false, "bodyCount": 7, "forms": ["oak chairs", "oak chair"] },
                        "history": [
                            { "auditedAt": "2026-05-01T10:00:00.000Z", "bodyCount": 4, "inTitle": false, "inH1": true },
                            { "auditedAt": "2026-05-02T10:00:00.000Z", "bodyCount": 7, "inTitle": true, "inH1": true }
                        ]
                    },
                    {
                        "keyword": "walnut desk",
                        "targetUrl": "https://example.com/desks",
                        "trackedSince": "2026-05-03T08:00:00.000Z",
                        "latest": null,
                        "history": []
                    }
                ],
                "note": "On-page keyword tracking; not search-engine rank positions."
            }),
        ),
        (
            "run_experiment",
            json!({
                "action": "list",
                "experiments": [
                    {
                        "id": "exp_7",
                        "title": "Shorter home title",
                        "hypothesis": "A title under 60 characters fixes truncation and raises the score.",
                        "url": "https://example.com/",
                        "experimentType": "title-rewrite",
                        "metricTarget": "score",
                        "baseline": { "value": 78, "auditedAt": "2026-05-01T10:00:00.000Z" },
                        "current": { "value": 82, "auditedAt": "2026-05-03T10:00:00.000Z" },
                        "delta": 4,
                        "createdAt": "2026-05-01T10:00:00.000Z"
                    },
                    {
                        "id": "exp_8",
                        "title": "Add FAQ schema",
                        "hypothesis": "FAQPage markup passes the structured data rules.",
                        "url": "https://example.com/faq",
                        "experimentType": "schema-added",
                        "metricTarget": "structured-data-missing",
                        "baseline": { "value": 0, "auditedAt": "2026-05-03T10:00:00.000Z" },
                        "current": null,
                        "delta": null,
                        "createdAt": "2026-05-03T10:00:00.000Z"
                    }
                ]
            }),
        ),
        (
            "crawl_site",
            json!({
                "crawl_id": "cr_4mJ2xQ9sLk0PzR7vNc3aB1",
                "url": "https://example.com/",
                "state": "queued",
                "max_pages": 100,
                "max_pages_cut": { "asked": 1000, "limit": 100 },
                "status_url": "/api/v1/crawls/cr_4mJ2xQ9sLk0PzR7vNc3aB1",
                "report_url": "/crawls/cr_4mJ2xQ9sLk0PzR7vNc3aB1"
            }),
        ),
        (
            "crawl_status",
            json!({
                "crawl_id": "cr_4mJ2xQ9sLk0PzR7vNc3aB1",
                "url": "https://example.com/",
                "state": "completed",
                "progress": { "pages_done": 42, "pages_queued": 0, "pages_failed": 1, "pages_skipped": 3 },
                "started_at": "2026-05-01T10:00:00.000Z",
                "finished_at": "2026-05-01T10:00:09.000Z",
                "site_score": 71,
                "error": null,
                "error_pauses": 0,
                "paused": null,
                "top_issues": [
                    { "id": "broken-internal-link", "kind": "site", "severity": "critical", "count": 2 },
                    { "id": "duplicate-title", "kind": "site", "severity": "warning", "count": 4 },
                    { "id": "image-alt-missing", "kind": "page", "severity": "warning", "count": 11 }
                ],
                "report_url": "/crawls/cr_4mJ2xQ9sLk0PzR7vNc3aB1",
                "pages_url": "/api/v1/crawls/cr_4mJ2xQ9sLk0PzR7vNc3aB1/pages"
            }),
        ),
        (
            "list_crawls",
            json!({
                "crawls": [{
                    "id": "cr_4mJ2xQ9sLk0PzR7vNc3aB1",
                    "url": "https://example.com/",
                    "site": "example.com",
                    "state": "completed",
                    "max_pages": 100,
                    "pages_done": 42,
                    "pages_failed": 1,
                    "site_score": 71,
                    "created_at": "2026-05-01T09:59:58.000Z",
                    "finished_at": "2026-05-01T10:00:09.000Z",
                    "status_url": "/api/v1/crawls/cr_4mJ2xQ9sLk0PzR7vNc3aB1",
                    "report_url": "/crawls/cr_4mJ2xQ9sLk0PzR7vNc3aB1"
                }],
                "next_cursor": null
            }),
        ),
        (
            "compare_crawls",
            json!({
                "crawl": { "id": "cr_4zYb7QmN2kLp9xRt5vWc8d", "finished_at": "2026-05-08T10:00:07.000Z", "site_score": 59, "pages": 4 },
                "against": { "id": "cr_4mJ2xQ9sLk0PzR7vNc3aB1", "finished_at": "2026-05-01T10:00:09.000Z", "site_score": 67, "pages": 4 },
                "site_score_change": -8,
                "rules": [{
                    "id": "broken-internal-link",
                    "kind": "site",
                    "severity": "critical",
                    "new": { "total": 1, "urls": ["https://example.com/a"] },
                    "fixed": { "total": 0, "urls": [] },
                    "still_failing": { "total": 0, "urls": [] }
                }],
                "new_findings": 1,
                "fixed_findings": 0,
                "pages_added": { "total": 1, "urls": ["https://example.com/new"] },
                "pages_gone": { "total": 1, "urls": ["https://example.com/old"] },
                "status_changes_total": 1,
                "status_changes": [{ "url": "https://example.com/a", "before": 200, "after": 404 }],
                "indexability_changes_total": 1,
                "indexability_changes": [{ "url": "https://example.com/a", "before": true, "after": false }]
            }),
        ),
        (
            "schedule_crawl",
            json!({
                "schedule": {
                    "id": "cs_5f0c2a7e9b3d4c1a8e6f0b2d4c6a8e1f",
                    "url": "https://example.com/",
                    "frequency": "weekly",
                    "weekday": "monday",
                    "time": "03:00",
                    "alert_score_drop": 5,
                    "state": "active",
                    "next_run_at": "2026-05-11T03:00:00.000Z",
                    "created_at": "2026-05-01T09:00:00.000Z",
                    "runs": 2,
                    "last_run_at": "2026-05-04T03:00:00.000Z",
                    "last_crawl_id": "cr_4zYb7QmN2kLp9xRt5vWc8d",
                    "last_error": null,
                    "last_change": {
                        "crawl_id": "cr_4zYb7QmN2kLp9xRt5vWc8d",
                        "against_crawl_id": "cr_4mJ2xQ9sLk0PzR7vNc3aB1",
                        "site_score_change": -8,
                        "new_findings": 1,
                        "new_critical_findings": 1,
                        "fixed_findings": 0,
                        "pages_added": 1,
                        "pages_gone": 1
                    },
                    "last_alerts": [{
                        "rule": "new_critical",
                        "severity": "critical",
                        "message": "New critical findings since the previous run: broken-internal-link (1 URL).",
                        "crawl_id": "cr_4zYb7QmN2kLp9xRt5vWc8d",
                        "against_crawl_id": "cr_4mJ2xQ9sLk0PzR7vNc3aB1",
                        "created_at": "2026-05-04T03:00:09.000Z"
                    }]
                }
            }),
        ),
        (
            "share_crawl_report",
            json!({
                "id": "sh_8Hk2LmQ4zN6pR1tV3xW5yA",
                "crawl_id": "cr_4mJ2xQ9sLk0PzR7vNc3aB1",
                "state": "active",
                "url": "https://seo-audit.example/crawls/cr_4mJ2xQ9sLk0PzR7vNc3aB1?share=sh_8Hk2LmQ4zN6pR1tV3xW5yA.1778234409.q3Vn0b7cXk2rA9sLmT4wYp1eZ6uHj8gKd5fQo0iBxRc",
                "created_at": "2026-05-01T10:00:09.000Z",
                "expires_at": "2026-05-08T10:00:09.000Z",
                "revoked_at": null
            }),
        ),
    ]
}
