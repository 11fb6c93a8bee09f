//! A crawl's pages as the site rules read them: [`CrawlSite`] is the store's
//! [`crawl::CrawledSite`] (docs/ARCHITECTURE.md, "Site crawl"). Every stream reads its rows
//! in batches of [`BATCH`] by key (keyset paging on an index: rowid order for pages, URL
//! order for sitemap URLs), each batch on its own pooled connection, so that nothing holds
//! more than a batch, no connection is held across a rule's other queries, and both
//! databases run the same SQL; lookups are queries on an index (the internal links' targets,
//! [`IN_ROWS`] URLs at a time); inlinks come from `crawl_inlinks`.

use std::collections::HashMap;

use crawl::{
    Answer, CrawledPage, CrawledSite, DuplicateGroup, DuplicateKey, LinkCache, SiteResult, SiteTotals, SitemapProblem,
    ROBOTS_REASON_PREFIX,
};

use crate::crawls::{in_list, IN_ROWS};
use crate::db::Store;
use crate::error::{Error, Result};
use crate::sql::{args, Db, Row};

/// Rows a stream reads at a time.
pub const BATCH: usize = 256;

/// Answers of link targets [`CrawledSite::internal_links`] keeps between pages at most.
const ANSWERS_KEPT: usize = 16_384;

/// Gives `f` each member URL of a duplicate group, in the order read: `first` (its first
/// batch, read already), then the batches `members` reads after the last rowid of the one
/// before, while a batch comes full.
fn each_member(
    first: &[(i64, String)],
    members: impl Fn(i64) -> SiteResult<Vec<(i64, String)>>,
    mut f: impl FnMut(&str) -> SiteResult<()>,
) -> SiteResult<()> {
    let mut next;
    let mut batch = first;
    loop {
        for (_, url) in batch {
            f(url)?;
        }
        match batch.last() {
            Some(&(seq, _)) if batch.len() == BATCH => {
                next = members(seq)?;
                batch = &next;
            }
            _ => return Ok(()),
        }
    }
}

/// The `crawl_pages` column of each [`DuplicateKey`] ([`DuplicateKey::stored`]).
pub(crate) fn dup_column(key: DuplicateKey) -> &'static str {
    match key {
        DuplicateKey::Title => "dup_title",
        DuplicateKey::MetaDescription => "dup_description",
        DuplicateKey::TextHash => "dup_text",
    }
}

fn decode(raw: &str) -> Result<CrawledPage> {
    serde_json::from_str(raw).map_err(|e| Error::corrupt("crawl_pages", e.to_string()))
}

/// Writes the columns the site rules query ([`DuplicateKey::stored`] and the answer's
/// facts) of `record`'s row, marking it `facts = 1`.
pub(crate) fn write_facts(db: &Db<'_>, crawl_id: &str, record: &CrawledPage) -> Result<()> {
    let [t, d, x] = DuplicateKey::ALL.map(|k| k.stored(record));
    db.execute(
        "UPDATE crawl_pages SET facts = 1, redirect_to = ?3, fetch_error = ?4, noindex = ?5, dup_title = ?6, \
         dup_description = ?7, dup_text = ?8 WHERE crawl_id = ?1 AND url = ?2",
        args![crawl_id, record.url, record.redirect_to, record.error, record.noindex, t, d, x],
    )?;
    Ok(())
}

fn answer_from_row(row: &Row<'_>, at: usize) -> Result<Answer> {
    Ok(Answer {
        url: row.get(at)?,
        status: row.get(at + 1)?,
        error: row.get(at + 2)?,
        redirect_to: row.get(at + 3)?,
        html: row.get(at + 4)?,
        noindex: row.get(at + 5)?,
    })
}

const ANSWER_COLUMNS: &str = "url, status, fetch_error, redirect_to, html, noindex";

impl Error {
    /// The store's error back from what a [`CrawlSite`] read failed with (a site rule adds
    /// none of its own; anything else is reported as a corrupt crawl).
    pub fn from_site(e: crawl::SiteError) -> Error {
        match e.downcast::<Error>() {
            Ok(e) => *e,
            Err(e) => Error::corrupt("crawl_pages", e.to_string()),
        }
    }
}

/// The store's [`CrawledSite`] of one crawl ([`Store::crawl_site`]).
#[derive(Debug, Clone)]
pub struct CrawlSite {
    store: Store,
    crawl_id: vocab::CrawlId,
    sitemaps_read: bool,
    sitemap_problems: Vec<SitemapProblem>,
    near_duplicate_threshold: u32,
    not_found_probe: Option<crawl::NotFoundProbe>,
    external_links: Option<crawl::ExternalLinks>,
    edge_probes: Vec<crawl::EdgeProbe>,
    list_mode: bool,
}

impl Store {
    /// The pages of crawl `crawl_id` as the site rules read them; `sitemaps_read`: whether
    /// the crawl read a sitemap. Rows recorded before their facts were kept in columns (a
    /// crawl begun before this version) get them first, a batch at a time.
    pub fn crawl_site(&self, crawl_id: &str, sitemaps_read: bool) -> Result<CrawlSite> {
        loop {
            let rows = self.read(|db| {
                db.query_map(
                    "SELECT record_json FROM crawl_pages WHERE crawl_id = ?1 AND facts = 0 \
                     AND record_json IS NOT NULL LIMIT ?2",
                    args![crawl_id, BATCH],
                    |row| row.get::<String>(0),
                )
            })?;
            if rows.is_empty() {
                break;
            }
            self.write(|tx| rows.iter().try_for_each(|raw| write_facts(tx, crawl_id, &decode(raw)?)))?;
        }
        Ok(CrawlSite {
            store: self.clone(),
            crawl_id: crawl_id.into(),
            sitemaps_read,
            sitemap_problems: Vec::new(),
            near_duplicate_threshold: crawl::NEAR_DUPLICATE_SIMILARITY,
            not_found_probe: None,
            external_links: None,
            edge_probes: Vec::new(),
            list_mode: false,
        })
    }
}

impl CrawlSite {
    /// The same, of a list-mode crawl when `list_mode` is true (the crawl's option; kept with
    /// the crawl's request, not in a table): the rules that need the whole site are skipped.
    pub fn with_list_mode(mut self, list_mode: bool) -> CrawlSite {
        self.list_mode = list_mode;
        self
    }

    /// The same, with the problems the crawl found reading the site's sitemaps. They are
    /// few (a crawl reads a bounded number of sitemaps, see `crawl::SitemapLimits`) and
    /// found again when a crawl resumes, which reads the sitemaps again: the runner keeps
    /// them in memory and hands them here instead of to a table.
    pub fn with_sitemap_problems(mut self, problems: Vec<SitemapProblem>) -> CrawlSite {
        self.sitemap_problems = problems;
        self
    }

    /// The same, with `near-duplicate-content` reporting from `threshold` percent (the
    /// crawl's option; kept with the crawl's request, not in a table).
    pub fn with_near_duplicate_threshold(mut self, threshold: u32) -> CrawlSite {
        self.near_duplicate_threshold = threshold;
        self
    }

    /// The same, with how the site answered the never-existing URL the crawl fetched at its
    /// start (`soft-404`). One fetch, made again when a crawl resumes: the runner keeps it in
    /// memory and hands it here, as the sitemaps' problems.
    pub fn with_not_found_probe(mut self, probe: Option<crawl::NotFoundProbe>) -> CrawlSite {
        self.not_found_probe = probe;
        self
    }

    /// The same, with the crawl's external links as checked (`broken-external-link`): the
    /// runner checks them as it crawls and keeps their answers in memory, bounded by the
    /// crawl's budget of external URLs, and hands them here.
    pub fn with_external_links(mut self, external_links: Option<crawl::ExternalLinks>) -> CrawlSite {
        self.external_links = external_links;
        self
    }

    /// The same, with what the AI crawlers got of the crawl's sample of pages (kept by the
    /// run, as the never-existing URL's answer is).
    pub fn with_edge_probes(mut self, edge_probes: Vec<crawl::EdgeProbe>) -> CrawlSite {
        self.edge_probes = edge_probes;
        self
    }

    /// How the fetched ones of `urls` (at most [`IN_ROWS`]) answered, from the answer
    /// index alone.
    fn answers(&self, urls: &[&str]) -> Result<Vec<Answer>> {
        let (sql, values) = in_list(
            &format!("SELECT {ANSWER_COLUMNS} FROM crawl_pages WHERE crawl_id = ?1 AND facts = 1 AND url IN ("),
            ")",
            args![self.crawl_id],
            urls,
        );
        // `IN` is a set: the padding (the last URL again) adds no row.
        self.store.read(|db| db.query_map(&sql, &values, |row| answer_from_row(row, 0)))
    }

    /// The crawl's id.
    pub fn crawl_id(&self) -> &str {
        &self.crawl_id
    }

    /// Every record, in crawl order, in batches (see the module documentation).
    pub fn each_page(&self, mut f: impl FnMut(&CrawledPage) -> SiteResult<()>) -> SiteResult<()> {
        let mut after = -1i64;
        loop {
            let batch: Vec<(i64, String)> = self.store.read(|db| {
                db.query_map(
                    "SELECT rowid, record_json FROM crawl_pages WHERE crawl_id = ?1 AND record_json IS NOT NULL \
                     AND rowid > ?2 ORDER BY rowid LIMIT ?3",
                    args![self.crawl_id, after, BATCH],
                    |row| Ok((row.get(0)?, row.get(1)?)),
                )
            })?;
            for (seq, raw) in &batch {
                after = *seq;
                f(&decode(raw)?)?;
            }
            if batch.len() < BATCH {
                return Ok(());
            }
        }
    }
}

impl CrawledSite for CrawlSite {
    fn pages(&self, f: &mut dyn FnMut(&CrawledPage) -> SiteResult<()>) -> SiteResult<()> {
        self.each_page(f)
    }

    fn page(&self, url: &str) -> SiteResult<Option<CrawledPage>> {
        let raw: Option<String> = self.store.read(|db| {
            db.query_opt(
                "SELECT record_json FROM crawl_pages WHERE crawl_id = ?1 AND url = ?2 AND record_json IS NOT NULL",
                args![self.crawl_id, url],
                |row| row.get(0),
            )
        })?;
        Ok(raw.map(|r| decode(&r)).transpose()?)
    }

    fn answer(&self, url: &str) -> SiteResult<Option<Answer>> {
        Ok(self.answers(&[url])?.pop())
    }

    fn link_answers(
        &self,
        page: &CrawledPage,
        cache: &mut LinkCache,
        f: &mut dyn FnMut(&Answer) -> SiteResult<()>,
    ) -> SiteResult<()> {
        // How each target answered is looked up a list at a time and kept for the next
        // pages (most pages link to the same menus), up to ANSWERS_KEPT answers.
        let known = &mut cache.0;
        let targets = page.internal_targets();
        let missing: Vec<&str> = targets.iter().copied().filter(|u| !known.contains_key(*u)).collect();
        if known.len() + missing.len() > ANSWERS_KEPT {
            known.clear();
        }
        for chunk in missing.chunks(IN_ROWS) {
            let mut found: HashMap<String, Answer> =
                self.answers(chunk)?.into_iter().map(|a| (a.url.clone(), a)).collect();
            for url in chunk {
                known.insert((*url).to_string(), found.remove(*url));
            }
        }
        for url in targets {
            if let Some(Some(target)) = known.get(url) {
                f(target)?;
            }
        }
        Ok(())
    }

    fn first_inlink(&self, url: &str) -> SiteResult<Option<String>> {
        Ok(self
            .store
            .read(|db| {
                db.query_opt(
                    "SELECT first_from FROM crawl_inlinks WHERE crawl_id = ?1 AND url = ?2 AND n > 0",
                    args![self.crawl_id, url],
                    |row| row.get::<Option<String>>(0),
                )
            })?
            .flatten())
    }

    fn inlink_count(&self, url: &str) -> SiteResult<u64> {
        Ok(self
            .store
            .read(|db| {
                db.query_opt(
                    "SELECT n FROM crawl_inlinks WHERE crawl_id = ?1 AND url = ?2",
                    args![self.crawl_id, url],
                    |row| row.get::<u64>(0),
                )
            })?
            .unwrap_or(0))
    }

    fn followed_inlink_count(&self, url: &str) -> SiteResult<u64> {
        Ok(self
            .store
            .read(|db| {
                db.query_opt(
                    "SELECT followed FROM crawl_inlinks WHERE crawl_id = ?1 AND url = ?2",
                    args![self.crawl_id, url],
                    |row| row.get::<u64>(0),
                )
            })?
            .unwrap_or(0))
    }

    fn redirected_to(&self, url: &str) -> SiteResult<bool> {
        Ok(self
            .store
            .read(|db| {
                db.query_opt(
                    "SELECT 1 FROM crawl_pages WHERE crawl_id = ?1 AND redirect_to = ?2 AND record_json IS NOT NULL \
                 LIMIT 1",
                    args![self.crawl_id, url],
                    |row| row.get::<i64>(0),
                )
            })?
            .is_some())
    }

    fn sitemap_urls(&self, f: &mut dyn FnMut(&str) -> SiteResult<()>) -> SiteResult<()> {
        let mut after = String::new();
        loop {
            let batch: Vec<String> = self.store.read(|db| {
                db.query_map(
                    "SELECT url FROM crawl_sitemap_urls WHERE crawl_id = ?1 AND url > ?2 ORDER BY url LIMIT ?3",
                    args![self.crawl_id, after, BATCH],
                    |row| row.get(0),
                )
            })?;
            for url in &batch {
                f(url)?;
            }
            match batch.into_iter().last() {
                Some(last) => after = last,
                None => return Ok(()),
            }
        }
    }

    fn in_sitemap(&self, url: &str) -> SiteResult<bool> {
        Ok(self
            .store
            .read(|db| {
                db.query_opt(
                    "SELECT 1 FROM crawl_sitemap_urls WHERE crawl_id = ?1 AND url = ?2",
                    args![self.crawl_id, url],
                    |row| row.get::<i64>(0),
                )
            })?
            .is_some())
    }

    fn sitemaps_read(&self) -> bool {
        self.sitemaps_read
    }

    fn near_duplicate_threshold(&self) -> u32 {
        self.near_duplicate_threshold
    }

    fn list_mode(&self) -> bool {
        self.list_mode
    }

    fn not_found_probe(&self) -> Option<&crawl::NotFoundProbe> {
        self.not_found_probe.as_ref()
    }

    fn external_links(&self) -> Option<&crawl::ExternalLinks> {
        self.external_links.as_ref()
    }

    fn edge_probes(&self) -> &[crawl::EdgeProbe] {
        &self.edge_probes
    }

    fn sitemap_problems(&self, f: &mut dyn FnMut(&SitemapProblem) -> SiteResult<()>) -> SiteResult<()> {
        self.sitemap_problems.iter().try_for_each(f)
    }

    fn duplicates(
        &self,
        key: DuplicateKey,
        f: &mut dyn FnMut(&str, &DuplicateGroup) -> SiteResult<()>,
    ) -> SiteResult<()> {
        let column = dup_column(key);
        let groups_sql = format!(
            "SELECT {column}, COUNT(*) FROM crawl_pages WHERE crawl_id = ?1 AND {column} > ?2 \
             GROUP BY {column} HAVING COUNT(*) > 1 ORDER BY {column} LIMIT ?3"
        );
        let members_sql = format!(
            "SELECT rowid, url FROM crawl_pages WHERE crawl_id = ?1 AND {column} = ?2 AND rowid > ?3 \
             ORDER BY rowid LIMIT ?4"
        );
        let mut after = String::new();
        loop {
            let groups: Vec<(String, u64)> = self.store.read(|db| {
                db.query_map(&groups_sql, args![self.crawl_id, after, BATCH], |row| Ok((row.get(0)?, row.get(1)?)))
            })?;
            for (value, count) in &groups {
                // The group's members are read twice, in batches: first for the URLs its
                // findings name (the first in URL order, `DuplicateGroup::offer`; ordered in
                // Rust, as the databases' collations of text differ), then for its findings.
                let mut group = DuplicateGroup { count: *count as usize, head: Vec::new() };
                let members = |seq: i64| -> SiteResult<Vec<(i64, String)>> {
                    Ok(self.store.read(|db| {
                        db.query_map(&members_sql, args![self.crawl_id, value, seq, BATCH], |row| {
                            Ok((row.get(0)?, row.get(1)?))
                        })
                    })?)
                };
                // The first batch is read once: a group within it (most are) is not read again.
                let first = members(-1)?;
                each_member(&first, members, |url| {
                    group.offer(url);
                    Ok(())
                })?;
                each_member(&first, members, |url| f(url, &group))?;
            }
            match groups.into_iter().last() {
                Some((last, _)) => after = last,
                None => return Ok(()),
            }
        }
    }

    fn totals(&self) -> SiteResult<SiteTotals> {
        Ok(self.store.read(|db| {
            db.query_one(
                "SELECT COUNT(*), COUNT(score), COALESCE(SUM(CASE WHEN score > 100 THEN 100 ELSE score END), 0), \
                 COALESCE(MAX(CASE WHEN status BETWEEN 200 AND 299 THEN 1 ELSE 0 END), 0) FROM crawl_pages \
                 WHERE crawl_id = ?1 AND record_json IS NOT NULL",
                args![self.crawl_id],
                |row| {
                    Ok(SiteTotals {
                        crawled: row.get(0)?,
                        scored: row.get(1)?,
                        score_sum: row.get(2)?,
                        answered: row.get::<i64>(3)? == 1,
                    })
                },
            )
        })?)
    }

    fn robots_blocked(&self, f: &mut dyn FnMut(&str, &str) -> SiteResult<()>) -> SiteResult<()> {
        // Skipped rows have no record: the stream reads the frontier's columns, in rowid
        // order on the crawl's index, a batch at a time.
        let pattern = format!("{ROBOTS_REASON_PREFIX}%");
        let mut after = -1i64;
        loop {
            let batch: Vec<(i64, String, String)> = self.store.read(|db| {
                db.query_map(
                    "SELECT rowid, url, reason FROM crawl_pages WHERE crawl_id = ?1 AND state = 'skipped' \
                     AND reason LIKE ?2 AND rowid > ?3 ORDER BY rowid LIMIT ?4",
                    args![self.crawl_id, pattern, after, BATCH],
                    |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
                )
            })?;
            for (seq, url, reason) in &batch {
                after = *seq;
                f(url, reason)?;
            }
            if batch.len() < BATCH {
                return Ok(());
            }
        }
    }
}
