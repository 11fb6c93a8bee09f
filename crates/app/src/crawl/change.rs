//! How a crawl differs from another of the same site (docs/API.md, "Comparing two crawls"):
//! one comparison, [`compare`], which `GET /api/v1/crawls/{id}/compare` answers whole
//! (`Crawls::compare`) and whose counts the crawl's `crawl.completed` event carries when the
//! same owner has an earlier completed crawl of the site ([`change_summary`]). It reads the
//! store and nothing else of the crawl use cases, so that the runner's end can use it.

use std::collections::{BTreeMap, BTreeSet};

use api::crawls::{
    ComparedCrawl, CrawlChange, IndexabilityChange, RuleChange, StatusChange, UrlList, MAX_COMPARED_URLS,
};
use serde_json::{json, Value};

/// What a comparison reads of one crawl.
#[derive(Debug, Clone)]
pub struct CrawlFacts {
    /// The crawl.
    pub crawl: store::Crawl,
    /// Its fetched URLs (answered or failed).
    pub pages: Vec<store::PageFact>,
    /// Its distinct findings: rule, kind, severity, URL.
    pub findings: Vec<(String, store::IssueKind, String, String)>,
}

impl CrawlFacts {
    /// Reads crawl `crawl`'s pages and findings from `store`.
    ///
    /// # Errors
    /// The store failed.
    pub fn read(store: &store::Store, crawl: store::Crawl) -> store::Result<CrawlFacts> {
        let pages = store.crawl_page_facts(&crawl.id)?;
        let findings = store.crawl_finding_urls(&crawl.id)?;
        Ok(CrawlFacts { crawl, pages, findings })
    }
}

/// The site of a start URL: its host, with `:port` when the port is not the scheme's
/// default (`url` normalises the default away). Two crawls of one site are compared; the
/// listing filters on it.
pub fn site_of(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(u) => match (u.host_str(), u.port()) {
            (Some(host), Some(port)) => format!("{host}:{port}"),
            (Some(host), None) => host.to_string(),
            (None, _) => String::new(),
        },
        Err(_) => String::new(),
    }
}

/// A list of URLs cut to its first [`MAX_COMPARED_URLS`] (they come in URL order), with
/// its total.
fn url_list<'a>(urls: impl Iterator<Item = &'a String>) -> UrlList {
    let mut list = UrlList::default();
    for url in urls {
        if list.urls.len() < MAX_COMPARED_URLS {
            list.urls.push(url.clone());
        }
        list.total += 1;
    }
    list
}

fn side(facts: &CrawlFacts) -> ComparedCrawl {
    ComparedCrawl {
        id: facts.crawl.id.clone(),
        finished_at: facts.crawl.finished_at,
        site_score: facts.crawl.site_score,
        pages: facts.pages.len() as u64,
    }
}

/// How `current` differs from `against`: per rule the URLs new, fixed and still failing,
/// the URLs added and gone, the status and indexability changes of URLs both fetched, the
/// site score change.
pub fn compare(current: &CrawlFacts, against: &CrawlFacts) -> CrawlChange {
    let (now, before) = (group(current), group(against));
    let ids: BTreeSet<&str> = now.keys().chain(before.keys()).copied().collect();
    let empty = BTreeSet::new();
    let mut rules = Vec::with_capacity(ids.len());
    let (mut new_findings, mut fixed_findings) = (0, 0);
    for id in ids {
        let (kind, severity, urls_now) = now.get(id).map_or_else(
            || {
                let (k, s, _) = &before[id];
                (*k, *s, &empty)
            },
            |(k, s, u)| (*k, *s, u),
        );
        let urls_before = before.get(id).map_or(&empty, |(_, _, u)| u);
        let new = url_list(urls_now.difference(urls_before).copied());
        let fixed = url_list(urls_before.difference(urls_now).copied());
        let still_failing = url_list(urls_now.intersection(urls_before).copied());
        new_findings += new.total;
        fixed_findings += fixed.total;
        rules.push(RuleChange {
            id: id.to_string(),
            kind: <&'static str>::from(kind).to_string(),
            severity: severity.to_string(),
            new,
            fixed,
            still_failing,
        });
    }

    let pages_now: BTreeMap<&String, &store::PageFact> = current.pages.iter().map(|p| (&p.url, p)).collect();
    let pages_before: BTreeMap<&String, &store::PageFact> = against.pages.iter().map(|p| (&p.url, p)).collect();
    let pages_added = url_list(pages_now.keys().filter(|u| !pages_before.contains_key(*u)).copied());
    let pages_gone = url_list(pages_before.keys().filter(|u| !pages_now.contains_key(*u)).copied());
    let (mut status_changes, mut indexability_changes) = (Vec::new(), Vec::new());
    let (mut status_total, mut indexability_total) = (0, 0);
    for (url, now) in &pages_now {
        let Some(before) = pages_before.get(url) else { continue };
        if now.status != before.status {
            status_total += 1;
            if status_changes.len() < MAX_COMPARED_URLS {
                status_changes.push(StatusChange { url: (*url).clone(), before: before.status, after: now.status });
            }
        }
        if now.indexable != before.indexable {
            indexability_total += 1;
            if indexability_changes.len() < MAX_COMPARED_URLS {
                indexability_changes.push(IndexabilityChange {
                    url: (*url).clone(),
                    before: before.indexable,
                    after: now.indexable,
                });
            }
        }
    }
    let site_score_change = match (current.crawl.site_score, against.crawl.site_score) {
        (Some(now), Some(before)) => Some(i64::from(now) - i64::from(before)),
        _ => None,
    };
    CrawlChange {
        crawl: side(current),
        against: side(against),
        site_score_change,
        rules,
        new_findings,
        fixed_findings,
        pages_added,
        pages_gone,
        status_changes_total: status_total,
        status_changes,
        indexability_changes_total: indexability_total,
        indexability_changes,
    }
}

/// A crawl's findings by rule: its kind, severity and URLs.
type ByRule<'a> = BTreeMap<&'a str, (store::IssueKind, &'a str, BTreeSet<&'a String>)>;

fn group(facts: &CrawlFacts) -> ByRule<'_> {
    let mut rules: ByRule<'_> = BTreeMap::new();
    for (rule, kind, severity, url) in &facts.findings {
        rules.entry(rule.as_str()).or_insert_with(|| (*kind, severity.as_str(), BTreeSet::new())).2.insert(url);
    }
    rules
}

/// The counts of a change, as the `crawl.completed` event carries them (camelCase, as every
/// event's data; docs/API.md, "Webhooks").
pub fn change_summary(change: &CrawlChange) -> Value {
    json!({
        "againstCrawlId": change.against.id,
        "siteScoreChange": change.site_score_change,
        "newFindings": change.new_findings,
        "fixedFindings": change.fixed_findings,
        "pagesAdded": change.pages_added.total,
        "pagesGone": change.pages_gone.total,
        "statusChanges": change.status_changes_total,
        "indexabilityChanges": change.indexability_changes_total,
    })
}

/// The newest completed crawl of `crawl`'s owner and site created before it, for the change
/// its `crawl.completed` event carries; `None` for a crawl without an owner, or without
/// such a crawl.
///
/// # Errors
/// The store failed.
pub fn previous_completed(store: &store::Store, crawl: &store::Crawl) -> store::Result<Option<store::Crawl>> {
    let Some(owner) = crawl.user_id.as_deref() else { return Ok(None) };
    let site = site_of(&crawl.url);
    let filter = store::CrawlFilter {
        state: Some(store::CrawlState::Completed),
        site: Some(site.clone()),
        before: Some((crawl.created_at, crawl.id.clone())),
    };
    // The store matches the site as a prefix of the start URL; the exact site is checked
    // here, a few candidates deep.
    let candidates = store.list_user_crawls(owner, &filter, 5)?;
    Ok(candidates.into_iter().find(|c| site_of(&c.url) == site && c.pages_pruned_at.is_none()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(id: &str, score: u32, pages: &[(&str, u16, bool)], findings: &[(&str, &str)]) -> CrawlFacts {
        CrawlFacts {
            crawl: store::Crawl {
                id: id.into(),
                user_id: None,
                url: "https://a.test/".into(),
                state: store::CrawlState::Completed,
                options_json: "{}".into(),
                max_pages: 10,
                site_score: Some(score),
                summary_json: None,
                error: None,
                resumes: 0,
                created_at: vocab::Timestamp::from(time::OffsetDateTime::UNIX_EPOCH),
                started_at: None,
                finished_at: None,
                progress: store::CrawlProgress::default(),
                pages_pruned_at: None,
                pause: None,
                error_pauses: 0,
            },
            pages: pages
                .iter()
                .map(|(u, s, i)| store::PageFact { url: format!("https://a.test{u}"), status: Some(*s), indexable: *i })
                .collect(),
            findings: findings
                .iter()
                .map(|(r, u)| (r.to_string(), store::IssueKind::Page, "warning".into(), format!("https://a.test{u}")))
                .collect(),
        }
    }

    #[test]
    fn a_change_is_counted_per_rule_page_status_and_indexability() {
        let before = facts(
            "b",
            80,
            &[("/", 200, true), ("/old", 200, true), ("/x", 200, true)],
            &[("title", "/"), ("title", "/x"), ("h1", "/old")],
        );
        let now = facts(
            "n",
            70,
            &[("/", 200, true), ("/new", 200, true), ("/x", 404, false)],
            &[("title", "/"), ("title", "/new"), ("alt", "/")],
        );
        let c = compare(&now, &before);
        assert_eq!(c.site_score_change, Some(-10));
        let rule = |id: &str| c.rules.iter().find(|r| r.id == id).unwrap();
        assert_eq!(rule("title").new.urls, ["https://a.test/new"]);
        assert_eq!(rule("title").fixed.urls, ["https://a.test/x"]);
        assert_eq!(rule("title").still_failing.urls, ["https://a.test/"]);
        assert_eq!((rule("h1").fixed.total, rule("alt").new.total), (1, 1));
        assert_eq!((c.new_findings, c.fixed_findings), (2, 2));
        assert_eq!(c.pages_added.urls, ["https://a.test/new"]);
        assert_eq!(c.pages_gone.urls, ["https://a.test/old"]);
        assert_eq!((c.status_changes_total, c.status_changes[0].after), (1, Some(404)));
        assert_eq!((c.indexability_changes_total, c.indexability_changes[0].before), (1, true));
        assert_eq!(change_summary(&c)["pagesAdded"], 1);
    }

    #[test]
    fn long_lists_are_cut_and_keep_their_total() {
        let many: Vec<String> = (0..250).map(|i| format!("/p{i:03}")).collect();
        let pages: Vec<(&str, u16, bool)> = many.iter().map(|u| (u.as_str(), 200, true)).collect();
        let c = compare(&facts("n", 1, &pages, &[]), &facts("b", 1, &[], &[]));
        assert_eq!((c.pages_added.total, c.pages_added.urls.len()), (250, MAX_COMPARED_URLS));
        assert_eq!(c.pages_added.urls[0], "https://a.test/p000");
    }
}
