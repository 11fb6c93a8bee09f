//! The site rules over a crawl in the store (`Store::crawl_site`, docs/ARCHITECTURE.md,
//! "Site crawl") find exactly what they find over the same records in memory: on every
//! fixture site of the site rules, and on crawls larger than a batch of rows.

use std::collections::BTreeSet;

use crawl::{
    check_site, run_site_rules, CrawledPage, CrawledSite, EdgeProbe, Entry, ExternalLinks, FrontierStore,
    NotFoundProbe, Outlink, SiteIndex, SitemapProblem, Source, State, SITE_RULES,
};
use store::{NewCrawl, Store, CRAWL_SITE_BATCH};
use time::OffsetDateTime;

use crate::backend::{both, fresh};
use crate::fixture_sites::crawl;

/// A crawl in `store` holding `pages` (recorded in that order) and `sitemap`.
fn stored(store: &Store, pages: &[CrawledPage], sitemap: &BTreeSet<String>) -> String {
    stored_with_skips(store, pages, sitemap, &[])
}

/// [`stored`], with the frontier's `skipped` entries too.
fn stored_with_skips(store: &Store, pages: &[CrawledPage], sitemap: &BTreeSet<String>, skipped: &[Entry]) -> String {
    let new = NewCrawl { user_id: None, url: "http://site.test/".into(), options_json: "{}".into(), max_pages: 100 };
    let crawl = store.create_crawl(new, "w", OffsetDateTime::now_utc() + time::Duration::minutes(1)).unwrap();
    // As in a crawl, every URL the pages link to that the crawl keeps is in its frontier
    // before the linking page's record is committed (a followed link queues its target in
    // the same batch): inlinks are kept only for URLs the frontier holds.
    let mut frontier = store.crawl_frontier(&crawl.id, "w");
    frontier.begin().unwrap();
    for entry in skipped {
        assert!(frontier.insert(entry.clone()).unwrap(), "{} recorded twice", entry.url);
    }
    for page in pages {
        let queued = Entry {
            url: page.url.clone(),
            depth: page.depth,
            found_from: None,
            source: Source::Link,
            state: State::Queued,
            status: None,
            reason: None,
        };
        frontier.insert(queued).unwrap();
    }
    frontier.commit().unwrap();
    for page in pages {
        store.record_crawl_page(&crawl.id, page, &[]).unwrap();
    }
    store.add_crawl_sitemap_urls(&crawl.id, &sitemap.iter().cloned().collect::<Vec<_>>()).unwrap();
    crawl.id.into_string()
}

/// The store's results equal the in-memory ones, rule by rule, and so do the totals.
fn assert_same(store: &Store, pages: &[CrawledPage], sitemap: &BTreeSet<String>, sitemaps_read: bool, what: &str) {
    assert_same_with(store, pages, sitemap, sitemaps_read, &[], &[], None, None, &[], what);
}

/// [`assert_same`] with the problems of the sitemaps' reading, the URLs the crawl skipped
/// (entries of its frontier) and how the site answered the never-existing URL.
#[allow(clippy::too_many_arguments)]
fn assert_same_with(
    store: &Store,
    pages: &[CrawledPage],
    sitemap: &BTreeSet<String>,
    sitemaps_read: bool,
    problems: &[SitemapProblem],
    skipped: &[Entry],
    probe: Option<NotFoundProbe>,
    external: Option<ExternalLinks>,
    edge: &[EdgeProbe],
    what: &str,
) {
    let id = stored_with_skips(store, pages, sitemap, skipped);
    let site = store
        .crawl_site(&id, sitemaps_read)
        .unwrap()
        .with_sitemap_problems(problems.to_vec())
        .with_not_found_probe(probe.clone())
        .with_external_links(external.clone())
        .with_edge_probes(edge.to_vec());
    let blocked: Vec<(String, String)> =
        skipped.iter().map(|e| (e.url.clone(), e.reason.clone().unwrap_or_default())).collect();
    let memory = SiteIndex::new(pages, sitemap, sitemaps_read)
        .with_sitemap_problems(problems)
        .with_robots_blocked(&blocked)
        .with_not_found_probe(probe.clone())
        .with_external_links(external.clone())
        .with_edge_probes(edge.to_vec());
    assert_eq!(check_site(&site).unwrap(), check_site(&memory).unwrap(), "{what}");
    if problems.is_empty() && skipped.is_empty() && probe.is_none() && external.is_none() && edge.is_empty() {
        assert_eq!(check_site(&memory).unwrap(), run_site_rules(pages, sitemap, sitemaps_read), "{what}");
    }
    assert_eq!(site.totals().unwrap(), memory.totals().unwrap(), "{what}: totals");
}

both! {
    fn every_fixture_site_gives_the_same_findings_from_the_store(backend) {
        let Some(f) = fresh(backend) else { return };
        for rule in SITE_RULES {
            for side in ["fail", "pass"] {
                let name = format!("crawl-{}-{side}", rule.meta().id);
                let mut c = crawl(&name);
                let skipped = c.robots_skipped();
                assert_same_with(
                    &f.store,
                    &c.pages,
                    &c.sitemap_urls,
                    c.sitemaps_read,
                    &c.sitemap_problems,
                    &skipped,
                    Some(c.not_found_probe.clone()),
                    Some(c.external_links.clone()),
                    &c.edge_probes,
                    &name,
                );
            }
        }
        // The fail sites do fail in the store (not two empty results).
        let c = crawl("crawl-broken-internal-link-fail");
        let id = stored(&f.store, &c.pages, &c.sitemap_urls);
        let results = check_site(&f.store.crawl_site(&id, c.sitemaps_read).unwrap()).unwrap();
        assert!(!results.iter().find(|r| r.id == "broken-internal-link").unwrap().findings.is_empty());
    }
}

fn page(i: usize, title: &str, links: &[String]) -> CrawledPage {
    let url = format!("http://site.test/p{i}");
    CrawledPage {
        depth: Some(if i == 0 { 0 } else { 1 + (i % 6) as u32 }),
        status: Some(if i % 97 == 5 { 404 } else { 200 }),
        html: i % 97 != 5,
        title: Some(title.to_string()),
        meta_description: Some(format!("description {}", i % 300)),
        text_hash: Some(format!("{:032x}", i)),
        outlinks: links
            .iter()
            .map(|l| Outlink { url: l.clone(), anchor: "a".into(), internal: true, nofollow: false, follow: true })
            .collect(),
        score: Some((i % 100) as u32),
        url,
        ..CrawledPage::default()
    }
}

both! {
    fn streams_and_groups_larger_than_a_batch_give_the_same_findings(backend) {
        let Some(f) = fresh(backend) else { return };
        let n = 2 * CRAWL_SITE_BATCH + 90;
        // One title shared by more pages than a batch, descriptions shared by pairs (more
        // groups than a batch), a 404 linked from many pages, links past a batch.
        let pages: Vec<CrawledPage> = (0..n)
            .map(|i| {
                let title = if i % 2 == 0 { "Shared".to_string() } else { format!("Own {i}") };
                let links = vec![format!("http://site.test/p{}", (i + 1) % n), "http://site.test/p5".to_string()];
                page(i, &title, &links)
            })
            .collect();
        let sitemap: BTreeSet<String> = (0..n).step_by(3).map(|i| format!("http://site.test/p{i}")).collect();
        assert_same(&f.store, &pages, &sitemap, true, "large crawl");
        let results = run_site_rules(&pages, &sitemap, true);
        for id in ["duplicate-title", "duplicate-meta-description", "broken-internal-link", "not-in-sitemap", "deep-page"] {
            assert!(!results.iter().find(|r| r.id == id).unwrap().findings.is_empty(), "{id} finds nothing");
        }
    }
}
