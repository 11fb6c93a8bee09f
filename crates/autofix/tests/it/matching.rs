//! Issues given only as text: a template is chosen only when the issue names its problem;
//! everything else gets the generic text fix.

use autofix::{fix_issue, match_text, template_ids, FixKind, Issue};

/// Sends `title` as the only field of an issue, as a caller of the batch endpoint may.
fn check(title: &str, expected: Option<&str>) {
    let issue = Issue { title: Some(title.to_string()), ..Issue::default() };
    let fix = fix_issue(&issue);
    assert_eq!(fix.rule_id.as_deref(), expected, "{title:?} -> {}", fix.fix);
    if expected.is_none() {
        assert_eq!(fix.kind, FixKind::Text, "{title:?}");
        assert!(fix.fix.starts_with("No template matches this issue;"), "{title:?}: {}", fix.fix);
    }
    assert_eq!(match_text(title).map(|m| m.rule_id), expected, "match_text({title:?})");
}

/// Titles a reviewer sent to `POST /api/auto-fix-batch`: each had been given an unrelated
/// template.
const REVIEWER_EXAMPLES: &[(&str, Option<&str>)] = &[
    // There is no template for a missing robots.txt (robots-txt-blocked is about a rule that
    // blocks the page, llms-txt-missing about another file).
    ("No robots.txt file", None),
    ("Missing Google Analytics", None),
    ("Duplicate content", None),
    // not-https's fix is the HTTP -> HTTPS redirect (plus HSTS): the template for this problem.
    ("No HTTPS redirect", Some("not-https")),
    ("Broken links found", None),
    ("3 links return 404", None),
    ("Add more internal links", None),
    ("x", None),
];

#[test]
fn reviewer_examples_get_the_right_fix_or_the_generic_one() {
    for (title, expected) in REVIEWER_EXAMPLES {
        check(title, *expected);
    }
}

/// Words that are generic on their own, and short tokens: never a match alone.
#[test]
fn generic_words_alone_never_match() {
    for title in [
        "Missing",
        "No",
        "Add",
        "Links",
        "Content",
        "File",
        "Page",
        "Error",
        "Title",
        "Image",
        "Meta",
        "og",
        "h1",
        "ai",
        "x-",
        "404",
        "Fix this",
        "SEO issue found",
        "Add more content",
        "Missing file",
        "Improve the page",
    ] {
        check(title, None);
    }
}

#[test]
fn every_template_id_matches_itself() {
    for id in template_ids() {
        check(id, Some(id));
        check(&format!("Rule {id} failed"), Some(id));
        check(&id.to_uppercase(), Some(id));
    }
}

/// The titles audit-core's rules give their findings: an audit's recommendations sent as they
/// are must find their own template.
const AUDIT_TITLES: &[(&str, &str)] = &[
    ("Page returns HTTP 404", "http-status-error"),
    ("Page returns HTTP 503", "http-status-error"),
    ("Redirect chain", "redirect-chain"),
    ("Page is not served over HTTPS", "not-https"),
    ("Mixed content", "mixed-content"),
    ("Page is blocked from indexing", "page-noindex"),
    ("Links on the page are not followed", "page-nofollow"),
    ("Page is blocked by robots.txt", "robots-txt-blocked"),
    ("Canonical tag missing", "canonical-missing"),
    ("Canonical URL is relative", "canonical-relative"),
    ("Several canonical tags", "canonical-multiple"),
    ("Canonical points to another URL", "canonical-points-elsewhere"),
    ("Canonical combined with noindex", "canonical-with-noindex"),
    ("Character encoding not declared", "charset-missing"),
    ("Favicon missing", "favicon-missing"),
    ("URL is too long", "url-too-long"),
    ("URL contains upper-case letters", "url-uppercase"),
    ("URL contains underscores", "url-underscores"),
    ("URL has many parameters", "url-many-parameters"),
    ("Title tag missing", "title-missing"),
    ("Title is too short", "title-too-short"),
    ("Title is too long", "title-too-long"),
    ("Title is too wide", "title-too-wide"),
    ("Several title tags", "title-multiple"),
    ("Meta description missing", "meta-description-missing"),
    ("Meta description is too short", "meta-description-too-short"),
    ("Meta description is too long", "meta-description-too-long"),
    ("Meta description is too wide", "meta-description-too-wide"),
    ("Several meta descriptions", "meta-description-multiple"),
    ("H1 heading missing", "h1-missing"),
    ("Several H1 headings", "h1-multiple"),
    ("H1 heading is empty", "h1-empty"),
    ("Heading levels skipped", "heading-levels-skipped"),
    ("Thin content", "thin-content"),
    ("Low text to HTML ratio", "low-text-ratio"),
    ("Images without alt text", "image-alt-missing"),
    ("Images without dimensions", "image-dimensions-missing"),
    ("Links without descriptive text", "link-text-not-descriptive"),
    ("Uncrawlable links", "link-uncrawlable"),
    ("Links without text", "link-empty-text"),
    ("Too many links", "links-too-many"),
    ("Internal links marked nofollow", "internal-link-nofollow"),
    ("Open Graph title missing", "og-title-missing"),
    ("Open Graph description missing", "og-description-missing"),
    ("Open Graph image missing", "og-image-missing"),
    ("og:image is a relative URL", "og-image-relative"),
    ("Twitter card missing", "twitter-card-missing"),
    ("No structured data", "structured-data-missing"),
    ("Invalid JSON-LD", "structured-data-invalid-json"),
    ("JSON-LD without @context", "structured-data-no-context"),
    ("Structured data lacks required properties", "structured-data-required-properties"),
    ("Structured data lacks recommended properties", "structured-data-recommended-properties"),
    ("Structured data for a retired rich result", "structured-data-retired-rich-result"),
    ("HTML is too large", "html-too-large"),
    ("Slow server response", "slow-response"),
    ("Render-blocking scripts", "render-blocking-scripts"),
    ("DOM is too large", "dom-too-large"),
    ("Elements nested deeper than 512 levels", "html-too-complex"),
    ("Analysis stopped before the end of the page", "html-too-complex"),
    ("Viewport meta tag missing", "viewport-missing"),
    ("Viewport not set to device width", "viewport-not-device-width"),
    ("Zoom is disabled", "viewport-not-scalable"),
    ("Language not declared", "html-lang-missing"),
    ("Invalid language tag", "html-lang-invalid"),
    ("Invalid hreflang codes", "hreflang-invalid-code"),
    ("hreflang without self-reference", "hreflang-no-self-reference"),
    ("hreflang without x-default", "hreflang-no-x-default"),
    ("Relative hreflang URL", "hreflang-relative-url"),
    ("Snippets are forbidden", "page-nosnippet"),
    ("Images kept out of the index", "page-noimageindex"),
    ("HTTP and HTML canonicals differ", "canonical-header-conflict"),
    ("Alt text too long", "image-alt-too-long"),
    ("hreflang and lang disagree", "hreflang-lang-mismatch"),
    ("Links to http:// URLs", "link-to-http"),
    ("Conflicting hreflang entries", "hreflang-conflicting-entries"),
    ("Head ended early", "head-ended-early"),
    ("Form sends its data over http", "form-insecure"),
    ("<picture> without <img>", "picture-without-img"),
    ("Canonical URL contains a fragment", "canonical-fragment"),
    ("URL has repeated slashes", "url-multiple-slashes"),
    ("robots.txt has lines search engines do not read as written", "robots-txt-invalid"),
    ("Page redirects with a meta refresh", "meta-refresh"),
    ("Page reloads itself with a meta refresh", "meta-refresh"),
    ("Page redirects with a Refresh header", "meta-refresh"),
    ("Page reloads itself with a Refresh header", "meta-refresh"),
    // The site rules that offer a fix, as crawl reports name their findings.
    ("Broken internal links", "broken-internal-link"),
    ("Orphan pages", "orphan-page"),
    // The extra templates, as the AI-readiness check and header checks phrase them.
    ("GPTBot is blocked by robots.txt", "ai-crawler-blocked"),
    ("llms.txt missing", "llms-txt-missing"),
    ("HSTS header missing", "hsts-missing"),
    ("X-Robots-Tag header missing for PDF files", "x-robots-tag-missing"),
    ("Semantic HTML landmarks missing", "semantic-html-missing"),
];

#[test]
fn audit_finding_titles_match_their_rule() {
    for (title, id) in AUDIT_TITLES {
        check(title, Some(id));
    }
    // The table covers every template.
    for id in template_ids() {
        assert!(AUDIT_TITLES.iter().any(|(_, t)| *t == id), "{id} has no title in the table");
    }
}

/// How people and other tools phrase the problems.
const NATURAL_TITLES: &[(&str, &str)] = &[
    ("Missing meta description", "meta-description-missing"),
    ("No meta description", "meta-description-missing"),
    ("Meta description too long (210 characters)", "meta-description-too-long"),
    // Screaming Frog's names of the pixel-width issues.
    ("Page Titles: Over 561 Pixels", "title-too-wide"),
    ("Meta Description: Over 985 Pixels", "meta-description-too-wide"),
    ("Images without alt text", "image-alt-missing"),
    ("3 images are missing alt attributes", "image-alt-missing"),
    ("Page has no H1", "h1-missing"),
    ("Multiple H1 tags", "h1-multiple"),
    ("Missing title tag", "title-missing"),
    ("Empty title", "title-missing"),
    ("Title too short", "title-too-short"),
    ("No canonical tag", "canonical-missing"),
    ("Missing og:title", "og-title-missing"),
    ("Missing og:image", "og-image-missing"),
    ("Site not secure", "not-https"),
    ("Too many redirects", "redirect-chain"),
    ("Page not found (404)", "http-status-error"),
    ("Low word count", "thin-content"),
    ("High TTFB", "slow-response"),
    ("Render-blocking JavaScript", "render-blocking-scripts"),
    ("Page has noindex", "page-noindex"),
    ("Not mobile friendly", "viewport-missing"),
    ("Missing x-default hreflang", "hreflang-no-x-default"),
    ("No llms.txt file", "llms-txt-missing"),
    ("ClaudeBot cannot crawl the site", "ai-crawler-blocked"),
    ("Google-Extended disallowed", "ai-crawler-blocked"),
    ("Missing schema markup", "structured-data-missing"),
    ("Schema missing required fields", "structured-data-required-properties"),
    ("Generic anchor text like click here", "link-text-not-descriptive"),
];

#[test]
fn natural_titles_still_match() {
    for (title, id) in NATURAL_TITLES {
        check(title, Some(id));
    }
}

#[test]
fn the_title_decides_not_the_recommendation() {
    // A recommendation that mentions another rule's words does not pull the issue there.
    let issue = Issue {
        title: Some("Newsletter signup converts poorly".into()),
        recommendation: Some("Add a meta description and fix missing alt text".into()),
        category: Some("Images".into()),
        ..Issue::default()
    };
    assert_eq!(fix_issue(&issue).rule_id, None);
    // Without a title, the description is read as one.
    let issue = Issue { description: Some("The page has no canonical tag".into()), ..Issue::default() };
    assert_eq!(fix_issue(&issue).rule_id.as_deref(), Some("canonical-missing"));
    // A rule id in the description is an exact match.
    let issue = Issue {
        title: Some("Issue 7".into()),
        description: Some("Reported by rule hreflang-relative-url".into()),
        ..Issue::default()
    };
    assert_eq!(fix_issue(&issue).rule_id.as_deref(), Some("hreflang-relative-url"));
}
