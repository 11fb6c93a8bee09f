//! Every site rule against its two fixture sites (`fixtures/sites/crawl-<rule>-fail` and
//! `-pass`), crawled end to end without a network: a file-system "fetcher" maps
//! `http://site.test/PATH` (and the `www.` twin) to the fixture's files and answers 404 for
//! the rest. The pages are parsed and audited with audit-core, the frontier decides what is
//! fetched, and the site rules run over the records.
//!
//! A fixture directory holds HTML files (`/` is `index.html`, `/a/b` is `a/b.html`),
//! optional `robots.txt` and sitemaps (served as they are), `_redirects` (`/from STATUS
//! /to` lines) and, for a failing site, `_expect`: the findings the rule must give, one
//! `path [linking-path]` line each.

use std::cell::Cell;
use std::collections::BTreeSet;

use crawl::{
    check_site, site_score, Answer, CrawledPage, CrawledSite, DuplicateGroup, DuplicateKey, EdgeProbe, Findings,
    LinkCache, NotFoundProbe, SiteIndex, SiteResult, SiteRuleResult, SiteTotals, SitemapProblem, State, SITE_RULES,
};

use crate::fixture_sites::{crawl, crawl_with, fixtures, Crawl, ORIGIN};

fn run(c: &mut Crawl) -> Vec<SiteRuleResult> {
    let blocked = c.robots_blocked();
    check_site(&index(c, &blocked)).unwrap()
}

fn index<'a>(c: &'a Crawl, blocked: &'a [(String, String)]) -> SiteIndex<'a> {
    SiteIndex::new(&c.pages, &c.sitemap_urls, c.sitemaps_read)
        .with_sitemap_problems(&c.sitemap_problems)
        .with_robots_blocked(blocked)
        .with_not_found_probe(Some(c.not_found_probe.clone()))
        .with_external_links(Some(c.external_links.clone()))
        .with_edge_probes(c.edge_probes.clone())
}

/// A site that counts how many times the pages are read (the internal links are read with
/// them).
struct Counting<'a> {
    site: SiteIndex<'a>,
    reads: Cell<usize>,
}

impl CrawledSite for Counting<'_> {
    fn pages(&self, f: &mut dyn FnMut(&CrawledPage) -> SiteResult<()>) -> SiteResult<()> {
        self.reads.set(self.reads.get() + 1);
        self.site.pages(f)
    }
    fn page(&self, url: &str) -> SiteResult<Option<CrawledPage>> {
        self.site.page(url)
    }
    fn answer(&self, url: &str) -> SiteResult<Option<Answer>> {
        self.site.answer(url)
    }
    fn link_answers(
        &self,
        page: &CrawledPage,
        cache: &mut LinkCache,
        f: &mut dyn FnMut(&Answer) -> SiteResult<()>,
    ) -> SiteResult<()> {
        self.site.link_answers(page, cache, f)
    }
    fn first_inlink(&self, url: &str) -> SiteResult<Option<String>> {
        self.site.first_inlink(url)
    }
    fn inlink_count(&self, url: &str) -> SiteResult<u64> {
        self.site.inlink_count(url)
    }
    fn followed_inlink_count(&self, url: &str) -> SiteResult<u64> {
        self.site.followed_inlink_count(url)
    }
    fn redirected_to(&self, url: &str) -> SiteResult<bool> {
        self.site.redirected_to(url)
    }
    fn sitemap_urls(&self, f: &mut dyn FnMut(&str) -> SiteResult<()>) -> SiteResult<()> {
        self.site.sitemap_urls(f)
    }
    fn in_sitemap(&self, url: &str) -> SiteResult<bool> {
        self.site.in_sitemap(url)
    }
    fn sitemaps_read(&self) -> bool {
        self.site.sitemaps_read()
    }
    fn list_mode(&self) -> bool {
        self.site.list_mode()
    }
    fn near_duplicate_threshold(&self) -> u32 {
        self.site.near_duplicate_threshold()
    }
    fn not_found_probe(&self) -> Option<&NotFoundProbe> {
        self.site.not_found_probe()
    }
    fn external_links(&self) -> Option<&crawl::ExternalLinks> {
        self.site.external_links()
    }
    fn edge_probes(&self) -> &[EdgeProbe] {
        self.site.edge_probes()
    }
    fn sitemap_problems(&self, f: &mut dyn FnMut(&SitemapProblem) -> SiteResult<()>) -> SiteResult<()> {
        self.site.sitemap_problems(f)
    }
    fn duplicates(
        &self,
        key: DuplicateKey,
        f: &mut dyn FnMut(&str, &DuplicateGroup) -> SiteResult<()>,
    ) -> SiteResult<()> {
        self.site.duplicates(key, f)
    }
    fn totals(&self) -> SiteResult<SiteTotals> {
        self.site.totals()
    }
    fn robots_blocked(&self, f: &mut dyn FnMut(&str, &str) -> SiteResult<()>) -> SiteResult<()> {
        self.site.robots_blocked(f)
    }
}

/// The rules' scans run together (`check_site`): each read of the pages (the internal links
/// are read with them) serves every rule that reads them in that pass, and each rule finds
/// there what it finds run alone, on every rule's two fixture sites: the same findings, the
/// same totals. Without it, the table reads the pages once per rule and pass.
#[test]
fn the_rules_scans_read_the_site_together_and_find_what_each_finds_alone() {
    let mut scanning = 0;
    for rule in SITE_RULES {
        for side in ["fail", "pass"] {
            let mut c = crawl(&format!("crawl-{}-{side}", rule.meta().id));
            let blocked = c.robots_blocked();
            let counting = Counting { site: index(&c, &blocked), reads: Cell::new(0) };
            let together = check_site(&counting).unwrap();
            let reads_together = counting.reads.replace(0);
            let (mut most_passes, mut others, mut scans) = (0, 0, 0);
            for (rule, result) in SITE_RULES.iter().zip(&together) {
                let mut alone = Findings::default();
                rule.check(&counting, &mut alone).unwrap();
                let alone = alone.into_result(rule.meta());
                assert_eq!(*result, alone, "{} on crawl-{}-{side}", rule.meta().id, rule.meta().id);
                let reads = counting.reads.replace(0);
                if rule.scan(&counting, &mut Findings::default()).unwrap().is_none() {
                    others += reads;
                } else {
                    most_passes = most_passes.max(reads);
                    scans += 1;
                }
            }
            let what = format!("crawl-{}-{side}: {scans} rules' scans", rule.meta().id);
            assert!(most_passes >= 1, "{what}");
            assert_eq!(reads_together, most_passes + others, "{what}: reads of the pages");
            scanning = scans;
        }
    }
    assert!(scanning >= 25, "{scanning} rules read the site by scans");
}

fn findings_of<'a>(results: &'a [SiteRuleResult], id: &str) -> &'a SiteRuleResult {
    results.iter().find(|r| r.id == id).unwrap()
}

#[test]
fn every_site_rule_fails_on_its_fail_site_and_passes_on_its_pass_site() {
    let strip = |u: &str| u.strip_prefix(ORIGIN).unwrap_or(u).to_string();
    for rule in SITE_RULES {
        let id = rule.meta().id;
        let mut fail = crawl(&format!("crawl-{id}-fail"));
        let results = run(&mut fail);
        let found = findings_of(&results, id);
        assert!(!found.findings.is_empty(), "{id} passes on its fail site");
        let got: BTreeSet<String> = found
            .findings
            .iter()
            .map(|f| match &f.linked_from {
                Some(from) => format!("{} {}", strip(&f.url), strip(from)),
                None => strip(&f.url),
            })
            .collect();
        let expect_path = fixtures().join(format!("crawl-{id}-fail/_expect"));
        let expected: BTreeSet<String> =
            std::fs::read_to_string(&expect_path).unwrap().lines().map(str::to_string).collect();
        assert_eq!(got, expected, "{id}: findings on its fail site");
        assert!(found.findings.iter().all(|f| !f.detail.is_empty()), "{id}: a finding without detail");

        let mut pass = crawl(&format!("crawl-{id}-pass"));
        let results = run(&mut pass);
        assert_eq!(findings_of(&results, id).findings, vec![], "{id} fails on its pass site");

        for c in [&mut fail, &mut pass] {
            let results = run(c);
            let scores = c.pages.iter().filter_map(|p| p.score);
            let score = site_score(scores, c.pages.len(), &results).expect("pages were audited");
            assert!(score.score <= 100);
        }
    }
}

#[test]
fn every_fixture_site_belongs_to_a_rule() {
    let ids: BTreeSet<String> = SITE_RULES.iter().map(|r| r.meta().id.to_string()).collect();
    for entry in std::fs::read_dir(fixtures()).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let Some(rest) = name.strip_prefix("crawl-") else { continue };
        let id = rest.strip_suffix("-fail").or_else(|| rest.strip_suffix("-pass")).unwrap_or(rest);
        assert!(ids.contains(id), "fixtures/sites/{name} names no site rule");
    }
}

/// Where a meta refresh a browser acts on sends it, the crawl goes too, as it fetches a
/// canonical's target: one click deeper, no inlink (`fixtures/sites/refresh-target`). A timed
/// refresh counts; one inside `<noscript>`, a second pragma after the first, and a reload of
/// the page itself name nothing to fetch.
#[test]
fn a_meta_refresh_is_followed_one_click_deeper_without_an_inlink() {
    let c = crawl("refresh-target");
    let fetched: BTreeSet<&str> = c.fetched.iter().filter_map(|u| u.strip_prefix(ORIGIN)).collect();
    for path in ["/new", "/after-five"] {
        assert!(fetched.contains(path), "{path} not fetched: {fetched:?}");
    }
    for path in ["/no-script", "/ignored"] {
        assert!(!fetched.contains(path), "{path} fetched: {fetched:?}");
    }
    let record = |path: &str| c.pages.iter().find(|p| p.url == format!("{ORIGIN}{path}")).unwrap();
    assert_eq!(record("/old").refresh.as_deref(), Some("http://site.test/new"));
    assert_eq!(record("/later").refresh.as_deref(), Some("http://site.test/after-five"));
    assert_eq!((record("/self").refresh.as_deref(), record("/fallback").refresh.as_deref()), (None, None));
    // A refresh is no link: the old page links home only, and nothing links the new one.
    let links: Vec<&str> = record("/old").outlinks.iter().map(|l| l.url.as_str()).collect();
    assert_eq!(links, ["http://site.test/"]);
    assert!(c.pages.iter().all(|p| p.outlinks.iter().all(|l| l.url != "http://site.test/new")));
    let entries = c.frontier.into_store().entries();
    let new = entries.iter().find(|e| e.url == "http://site.test/new").unwrap();
    assert_eq!((new.depth, new.found_from.as_deref()), (Some(2), Some("http://site.test/old")));
}

#[test]
fn robots_disallowed_pages_are_skipped_and_never_fetched() {
    let c = crawl("crawl-broken-internal-link-pass");
    assert!(!c.fetched.iter().any(|u| u.contains("/private")), "{:?}", c.fetched);
    let entries = c.frontier.into_store().entries();
    let private = entries.iter().find(|e| e.url == "http://site.test/private/area").unwrap();
    assert_eq!(private.state, State::Skipped);
    assert_eq!(private.reason.as_deref(), Some("robots.txt: Disallow: /private"));
}

#[test]
fn sitemaps_named_by_robots_through_an_index_and_gzip() {
    let c = crawl("crawl-not-in-sitemap-pass");
    assert!(c.sitemaps_read);
    let urls: Vec<_> = c.sitemap_urls.iter().map(String::as_str).collect();
    assert_eq!(urls, ["http://site.test/", "http://site.test/chains", "http://site.test/new-brakes"]);
}

#[test]
fn a_sitemap_only_page_is_crawled_without_a_depth_and_each_url_is_fetched_once() {
    let c = crawl("crawl-orphan-page-fail");
    let lonely = c.pages.iter().find(|p| p.url == "http://site.test/lonely").unwrap();
    assert_eq!((lonely.status, lonely.depth), (Some(200), None));
    let spades = c.pages.iter().find(|p| p.url == "http://site.test/spades").unwrap();
    assert_eq!(spades.depth, Some(1), "a sitemap URL a link reaches takes the link's depth");
    let mut fetched = c.fetched.clone();
    fetched.sort();
    let before = fetched.len();
    fetched.dedup();
    assert_eq!(before, fetched.len(), "a URL fetched twice: {:?}", c.fetched);
}

#[test]
fn redirect_records_and_loops() {
    let mut c = crawl("crawl-redirect-loop-fail");
    let a = c.pages.iter().find(|p| p.url == "http://site.test/a").unwrap();
    assert_eq!((a.status, a.redirect_to.as_deref()), (Some(301), Some("http://site.test/b")));
    let results = run(&mut c);
    let loop_ = findings_of(&results, "redirect-loop");
    assert_eq!(loop_.findings[0].detail, "http://site.test/a to http://site.test/b to http://site.test/a");
    // A URL that redirects into the loop reaches no page either, and says so.
    let into = loop_.findings.iter().find(|f| f.url == "http://site.test/into").expect("the URL into the loop");
    assert_eq!(
        into.detail,
        "leads into a loop: http://site.test/into to http://site.test/a to http://site.test/b to http://site.test/a"
    );
    assert_eq!(into.linked_from.as_deref(), Some("http://site.test/"));
}

#[test]
fn click_depth_is_the_shortest_path_whatever_the_requests_in_flight() {
    // The depths of fixtures/sites/depth-race (its README says which path is the short one).
    let expected: Vec<(&str, Option<u32>)> = vec![
        ("/", Some(0)),
        ("/a", Some(1)),
        ("/b", Some(1)),
        ("/old", Some(1)),
        ("/y", Some(1)),
        ("/a1", Some(2)),
        ("/a3", Some(2)),
        ("/y1", Some(2)),
        ("/a2", Some(3)),
        ("/y2", Some(3)),
        ("/y3", Some(4)),
    ];
    let depths = |c: &Crawl| {
        let mut d: Vec<(String, Option<u32>)> =
            c.pages.iter().map(|p| (p.url.strip_prefix(ORIGIN).unwrap().to_string(), p.depth)).collect();
        d.sort();
        d
    };
    let mut want: Vec<(String, Option<u32>)> = expected.iter().map(|(u, d)| (u.to_string(), *d)).collect();
    want.sort();
    // What the findings say, with the linking page a rule names: among the pages of one
    // level that link a URL, the least URL, whichever answered first (the crawl order of a
    // level depends on which answer came first).
    let findings = |c: &mut Crawl| -> Vec<(&'static str, String, Option<String>, String)> {
        run(c)
            .into_iter()
            .flat_map(|r| r.findings.into_iter().map(move |f| (r.id, f.url, f.linked_from, f.detail)))
            .collect()
    };
    // The page each URL was found from.
    let parents = |c: &mut Crawl| -> Vec<(String, Option<String>)> {
        let mut p: Vec<_> = c
            .frontier
            .store()
            .entries()
            .into_iter()
            .map(|e| (e.url.strip_prefix(ORIGIN).unwrap().to_string(), e.found_from))
            .collect();
        p.sort();
        p
    };
    let mut reference = crawl_with("depth-race", 1, None);
    assert_eq!(depths(&reference), want);
    let reference_findings = findings(&mut reference);
    let deep: Vec<_> = reference_findings.iter().filter(|(id, ..)| *id == "deep-page").collect();
    assert_eq!(deep.len(), 1, "{deep:?}");
    assert_eq!(deep[0].1, format!("{ORIGIN}/y3"));
    assert_eq!(deep[0].3, "click depth 4");
    let reference_parents = parents(&mut reference);
    let parent = |url: &str| reference_parents.iter().find(|(u, _)| u == url).and_then(|(_, p)| p.clone());
    // Two pages of one level link each of these (the fixture's README).
    assert_eq!(parent("/y1"), Some(format!("{ORIGIN}/b")));
    assert_eq!(parent("/y2"), Some(format!("{ORIGIN}/a1")));
    assert_eq!(parent("/y"), Some(format!("{ORIGIN}/old")), "the redirect, one level above /a's link");
    for in_flight in [1, 4, 16] {
        for seed in 0..40 {
            let mut c = crawl_with("depth-race", in_flight, Some(seed));
            assert_eq!(depths(&c), want, "{in_flight} in flight, seed {seed}");
            assert_eq!(parents(&mut c), reference_parents, "{in_flight} in flight, seed {seed}");
            assert_eq!(findings(&mut c), reference_findings, "{in_flight} in flight, seed {seed}");
        }
    }
}

/// A duplicate group that is one page at two URLs (fixtures/sites/one-page-two-urls) says so
/// in each duplicate rule's finding; two pages that only share their texts do not.
#[test]
fn duplicates_of_one_page_at_two_urls_name_the_cause() {
    let mut c = crawl("one-page-two-urls");
    let results = run(&mut c);
    let note = ": one page at two URLs, which url-variant-duplicate reports";
    for id in ["duplicate-title", "duplicate-meta-description", "duplicate-h1", "duplicate-content"] {
        let details: Vec<(String, String)> =
            findings_of(&results, id).findings.iter().map(|f| (f.url.clone(), f.detail.clone())).collect();
        for url in ["/", "/index.html"] {
            let d = details.iter().find(|(u, _)| *u == format!("{ORIGIN}{url}"));
            assert!(d.is_some_and(|(_, d)| d.ends_with(note)), "{id} {url}: {details:?}");
        }
        for url in ["/rain", "/snow"] {
            let d = details.iter().find(|(u, _)| *u == format!("{ORIGIN}{url}"));
            assert!(
                id == "duplicate-content" || d.is_some_and(|(_, d)| !d.contains("two URLs")),
                "{id} {url}: {details:?}"
            );
        }
    }
    let variant: Vec<_> =
        findings_of(&results, "url-variant-duplicate").findings.iter().map(|f| f.url.clone()).collect();
    assert_eq!(variant, [format!("{ORIGIN}/index.html")]);
}

#[test]
fn a_relative_sitemap_loc_is_read_and_reported_with_its_line() {
    let mut c = crawl("crawl-sitemap-error-fail");
    let urls: Vec<_> = c.sitemap_urls.iter().map(String::as_str).collect();
    assert_eq!(urls, ["http://site.test/", "http://site.test/spades"], "the index's relative <loc> was read");
    let results = run(&mut c);
    let details: Vec<String> =
        findings_of(&results, "sitemap-error").findings.iter().map(|f| format!("{} {}", f.url, f.detail)).collect();
    assert_eq!(
        details,
        [
            "http://site.test/broken.xml bad XML: line 4: ill-formed document: expected `</url>`, but `</urlset>` was found",
            "http://site.test/pages.xml robots.txt names it by the relative URL \"/pages.xml\", which search engines ignore; write the full URL",
            "http://site.test/sitemap-index.xml line 3: relative <loc> \"pages.xml\", read as http://site.test/pages.xml",
            // robots.txt names the /sitemap.xml a crawl reads by default, and it is missing.
            "http://site.test/sitemap.xml sitemap answered HTTP 404",
        ]
    );
}

/// `near_duplicate_threshold` chooses the similarity from which near duplicates are reported:
/// each finding names a similarity of at least it, a lower threshold reports every page a
/// higher one does, and the default is 90%.
#[test]
fn the_near_duplicate_threshold_chooses_what_is_reported() {
    let mut fail = crawl("crawl-near-duplicate-content-fail");
    let blocked = fail.robots_blocked();
    let at = |threshold: u32| -> Vec<(String, u32)> {
        let site = SiteIndex::new(&fail.pages, &fail.sitemap_urls, fail.sitemaps_read)
            .with_robots_blocked(&blocked)
            .with_near_duplicate_threshold(threshold);
        let results = check_site(&site).unwrap();
        findings_of(&results, "near-duplicate-content")
            .findings
            .iter()
            .map(|f| {
                let similarity = f.detail.split('%').next().and_then(|n| n.parse().ok()).expect("N% similar");
                (f.url.clone(), similarity)
            })
            .collect()
    };
    let default = run(&mut crawl("crawl-near-duplicate-content-fail"));
    let default: Vec<String> =
        findings_of(&default, "near-duplicate-content").findings.iter().map(|f| f.url.clone()).collect();
    assert_eq!(at(crawl::NEAR_DUPLICATE_SIMILARITY).into_iter().map(|f| f.0).collect::<Vec<_>>(), default);
    let mut higher: BTreeSet<String> = BTreeSet::new();
    for threshold in crawl::NEAR_DUPLICATE_THRESHOLDS.rev() {
        let found = at(threshold);
        assert!(found.iter().all(|(_, s)| *s >= threshold), "{threshold}: {found:?}");
        let urls: BTreeSet<String> = found.into_iter().map(|f| f.0).collect();
        assert!(urls.is_superset(&higher), "{threshold}: {urls:?} misses some of {higher:?}");
        higher = urls;
    }
    assert!(higher.len() >= default.len());
}

#[test]
fn a_rich_result_lost_on_several_pages_names_its_error_and_the_other_pages() {
    let mut c = crawl("crawl-structured-data-errors-across-pages-fail");
    let oak = c.pages.iter().find(|p| p.url == "http://site.test/oak-chair").unwrap();
    assert!(!oak.rich_result_errors.is_empty(), "the record keeps the rich results lost");
    assert!(c.pages.iter().find(|p| p.url == "http://site.test/beech-chair").unwrap().rich_result_errors.is_empty());
    let results = run(&mut c);
    let found = findings_of(&results, "structured-data-errors-across-pages");
    let oak = found.findings.iter().find(|f| f.url == "http://site.test/oak-chair").unwrap();
    println!("{}", oak.detail);
    assert!(oak.detail.contains("not eligible (error at Product.offers.price)"), "{}", oak.detail);
    assert!(oak.detail.ends_with("as on http://site.test/pine-chair"), "{}", oak.detail);
}

#[test]
fn pages_of_one_shape_without_the_type_most_of_them_carry_are_named_with_the_share() {
    let mut c = crawl("crawl-structured-data-missing-in-template-fail");
    let spring = c.pages.iter().find(|p| p.url == "http://site.test/blog/spring").unwrap();
    assert_eq!(spring.structured_data_types, vec!["BlogPosting".to_string()], "the record keeps the top-level types");
    assert!(c.pages.iter().find(|p| p.url == "http://site.test/blog/rain").unwrap().structured_data_types.is_empty());
    let results = run(&mut c);
    let found = findings_of(&results, "structured-data-missing-in-template");
    let rain = found.findings.iter().find(|f| f.url == "http://site.test/blog/rain").unwrap();
    assert_eq!(rain.detail, "no BlogPosting markup, which 3 of the 5 pages of http://site.test/blog/* carry");
}

/// `soft-404` finds a page by its likeness to the site's own "not found" page, and reports a
/// site without real 404s once; a site whose unknown URLs answer 404 with the same page has
/// its short real page left alone.
#[test]
fn soft_404_compares_pages_with_the_sites_own_not_found_page() {
    let mut fail = crawl("crawl-soft-404-fail");
    assert_eq!(fail.not_found_probe.status, Some(200));
    assert!(fail.not_found_probe.content_signature.is_some());
    let results = run(&mut fail);
    let details: Vec<(&str, &str)> = findings_of(&results, "soft-404")
        .findings
        .iter()
        .map(|f| (f.url.strip_prefix(ORIGIN).unwrap(), f.detail.as_str()))
        .collect();
    let probe = "/seo-audit-404-0000000000005eed";
    assert!(details.contains(&(
        "/retired",
        "HTTP 200, 100% similar to the site's own \"not found\" page (http://site.test/seo-audit-404-0000000000005eed)"
    )));
    assert!(details.contains(&("/old-offer", "HTTP 200, title \"Page not found\"")));
    assert_eq!(details.iter().filter(|(u, _)| *u == probe).count(), 1);

    let pass = crawl("crawl-soft-404-pass");
    assert_eq!(pass.not_found_probe.status, Some(404));
    assert!(pass.not_found_probe.content_signature.is_some(), "the pass site's 404 page is compared");
    let old = pass.pages.iter().find(|p| p.url.ends_with("/old-offer")).unwrap();
    assert_eq!(old.status, Some(404));
}

/// `broken-external-link` reports each linking page of a broken external URL with its answer
/// (the redirect chain included); what was not checked (refused by the guard, out of time,
/// past the budget) is counted and never reported.
#[test]
fn external_links_not_checked_are_counted_and_not_reported() {
    let mut c = crawl("crawl-broken-external-link-fail");
    let e = &c.external_links;
    assert_eq!(e.budget, crate::fixture_sites::FIXTURE_EXTERNAL_BUDGET);
    // 11 distinct external URLs: 8 within the budget, of them 1 refused and 1 timed out.
    assert_eq!((e.checked, e.broken_count), (6, 4));
    assert_eq!((e.not_checked_refused, e.not_checked_timed_out, e.not_checked_budget), (1, 1, 2));
    let results = run(&mut c);
    let found = findings_of(&results, "broken-external-link");
    let detail = |url: &str| found.findings.iter().find(|f| f.url == url).map(|f| f.detail.as_str());
    assert_eq!(detail("http://moved.test/old"), Some("HTTP 301 to http://moved.test/new, HTTP 410"));
    assert_eq!(detail("https://nowhere.test/"), Some("no answer: the name nowhere.test does not resolve"));
    assert_eq!(detail("http://10.0.0.1/admin"), None);
    assert_eq!(detail("http://slow.test/"), None);
    assert_eq!((found.total_findings, found.total_urls), (5, 4));
    // Without the checks (`--no-external`) the rule finds nothing.
    let blocked = c.robots_blocked();
    let site = SiteIndex::new(&c.pages, &c.sitemap_urls, c.sitemaps_read).with_robots_blocked(&blocked);
    let results = check_site(&site).unwrap();
    assert!(findings_of(&results, "broken-external-link").findings.is_empty());
}

/// `ai-crawlers-blocked-at-edge` names each crawler turned away with its evidence; a crawler
/// robots.txt keeps out of a directory is never sent there, so the edge's answer to it is no
/// finding (PerplexityBot on the fail site, GPTBot on the pass site).
#[test]
fn edge_blocking_names_each_crawler_robots_txt_lets_in() {
    let mut fail = crawl("crawl-ai-crawlers-blocked-at-edge-fail");
    let sampled: Vec<&str> = fail.edge_probes.iter().map(|p| p.url.strip_prefix(ORIGIN).unwrap()).collect();
    assert_eq!(sampled, ["/", "/blog/launch", "/blog/spring", "/about"], "the start page first");
    let results = run(&mut fail);
    let details: Vec<(&str, &str)> = findings_of(&results, "ai-crawlers-blocked-at-edge")
        .findings
        .iter()
        .map(|f| (f.url.strip_prefix(ORIGIN).unwrap(), f.detail.as_str()))
        .collect();
    assert_eq!(
        details,
        [
            (
                "/blog/launch",
                "AI crawlers turned away at the edge: GPTBot: status 403 Forbidden where the browser got 200"
            ),
            (
                "/blog/spring",
                "AI crawlers turned away at the edge: GPTBot: status 403 Forbidden where the browser got 200; \
                 ClaudeBot: status 402 Payment Required (pay per crawl) where the browser got 200"
            ),
        ]
    );
    let pass = crawl("crawl-ai-crawlers-blocked-at-edge-pass");
    let launch = pass.edge_probes.iter().find(|p| p.url.ends_with("/blog/launch")).unwrap();
    assert!(launch.blocked.is_empty(), "{launch:?}");
}

/// A redirect that only adds the final slash says so: on a real site (Docusaurus naming
/// `/docs/a` for `/docs/a/`) hundreds of findings of several rules come from that one setting.
#[test]
fn a_redirect_that_only_adds_the_final_slash_says_so() {
    let mut c = crawl("crawl-internal-redirect-fail");
    let results = run(&mut c);
    let found = findings_of(&results, "internal-redirect");
    let detail = |url: &str| found.findings.iter().find(|f| f.url == url).map(|f| f.detail.as_str());
    assert_eq!(
        detail("http://site.test/guide"),
        Some("HTTP 301 to http://site.test/guide/ (only adds the final slash)")
    );
    assert_eq!(detail("http://site.test/old"), Some("HTTP 301 to http://site.test/new"));
}
