//! A site rule is one unit, as a page rule is: a rule written here, in this module alone, runs
//! over a crawled site beside the built-in rules, costs the site score its severity's
//! penalty, offers its fix and has its section of the rule reference, with nothing to add
//! anywhere else.

use std::collections::BTreeSet;

use audit_core::fix::{Difficulty, FixCtx, FixKind, FixTemplate, Given};
use audit_core::Severity;
use crawl::{
    check_site_with, site_rule_markdown, site_score, CrawledPage, CrawledSite, Findings, SiteFinding, SiteIndex,
    SiteResult, SiteRule, SiteRuleMeta, SITE_RULES,
};

/// Every page's URL ends with a slash (a house style).
struct TrailingSlash;

static META: SiteRuleMeta = SiteRuleMeta {
    id: "x-trailing-slash",
    name: "Page URLs end with a slash",
    severity: Severity::Warning,
    threshold: "an HTML page's path does not end with `/`",
    why: "Our URL style guide says so.",
    fail_example: "/about",
    pass_example: "/about/",
    reference: "https://example.com/url-style",
    phrases: &["trailing slash"],
    excluded: &[],
    glossary: &["url-structure"],
};

impl SiteRule for TrailingSlash {
    fn meta(&self) -> &'static SiteRuleMeta {
        &META
    }

    fn check(&self, site: &dyn CrawledSite, out: &mut Findings) -> SiteResult<()> {
        site.pages(&mut |p| {
            if p.html && !p.url.ends_with('/') {
                out.push(SiteFinding { url: p.url.clone(), linked_from: None, detail: "no trailing slash".into() });
            }
            Ok(())
        })
    }

    fn fix(&self, _: &FixCtx) -> Option<FixTemplate> {
        FixTemplate::some(
            FixKind::ServerConfig,
            Difficulty::Easy,
            "rewrite ^(.*[^/])$ $1/ permanent;".to_string(),
            "Redirect each URL without a trailing slash to the one with it.",
        )
    }
}

fn page(url: &str) -> CrawledPage {
    CrawledPage {
        url: url.into(),
        status: Some(200),
        html: true,
        depth: Some(0),
        score: Some(90),
        ..Default::default()
    }
}

#[test]
fn a_site_rule_of_one_file_runs_scores_fixes_and_is_documented() {
    let pages = [page("https://site.test/"), page("https://site.test/about"), page("https://site.test/team/")];
    let sitemap = BTreeSet::new();
    let site = SiteIndex::new(&pages, &sitemap, false);

    // Runs beside the built-in table, as the crawl runs it.
    let mut rules: Vec<&dyn SiteRule> = SITE_RULES.to_vec();
    rules.push(&TrailingSlash);
    let results = check_site_with(&site, &rules).expect("in memory");
    let ours = results.iter().find(|r| r.id == "x-trailing-slash").expect("its result");
    let urls: Vec<&str> = ours.findings.iter().map(|f| f.url.as_str()).collect();
    assert_eq!(urls, ["https://site.test/about"]);
    assert_eq!((ours.severity, ours.total_urls), (Severity::Warning, 1));

    // Scored: the site score counts its penalty as any built-in rule's.
    let without = check_site_with(&site, SITE_RULES).expect("in memory");
    let scores = pages.iter().filter_map(|p| p.score);
    let with_it = site_score(scores.clone(), pages.len(), &results).expect("audited pages");
    let built_in = site_score(scores, pages.len(), &without).expect("audited pages");
    assert!(with_it.penalties.iter().any(|(id, p)| *id == "x-trailing-slash" && *p > 0.0), "{:?}", with_it.penalties);
    assert!(with_it.penalty > built_in.penalty, "{} against {}", with_it.penalty, built_in.penalty);

    // Fixed: through the same context the built-in rules' fixes read.
    let fix = TrailingSlash.fix(&FixCtx::new(None, Given::new())).expect("a fix");
    assert_eq!(fix.kind, FixKind::ServerConfig);

    // Documented: its section of the rule reference comes from its META alone.
    let doc = site_rule_markdown(TrailingSlash.meta());
    assert!(doc.starts_with("\n### x-trailing-slash\n\nPage URLs end with a slash.\n"), "{doc}");
    assert!(doc.contains("- **Why it matters:** Our URL style guide says so.\n"), "{doc}");
}
