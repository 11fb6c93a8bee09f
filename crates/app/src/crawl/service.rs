//! Site crawls of the service (docs/API.md, "Site crawl"): start one, read its status, pages
//! and issues, export it, cancel it; crawls run in the background under a lease, so that a
//! crawl is run by one replica, and a restart (or another replica, once the lease ran out)
//! resumes it from its frontier in the database (docs/ARCHITECTURE.md, "Replicas").
//!
//! [`Crawls`] is the engine, cheap to clone, like the workflow engine: [`Crawls::start`]
//! checks the start URL as an audit does, creates the crawl with its lease and drives it
//! in a background task; [`Crawls::recover`] at start-up and [`Crawls::spawn_sweeper`] take
//! over crawls whose driver is gone.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crawl::{Limits, Scope, ScopeConfig};
use serde::Serialize;
use serde_json::{json, Value};

use super::request::CrawlRequest;
use super::runner::{self, CrawlEnd, CrawlOptions, CrawlSink, Progress};
use super::start_page::StartPages;
use vocab::{CrawlId, UserId};

use crate::{App, AppError};

/// Pages per crawl of an anonymous caller.
pub const ANONYMOUS_MAX_PAGES: u32 = 30;
/// Pages per crawl of a `free` key.
pub const FREE_MAX_PAGES: u32 = 100;
/// Pages per crawl of a `pro` key.
pub const PRO_MAX_PAGES: u32 = 500;
/// Crawls running at once by default, in all (every replica of one database together);
/// more wait `queued` (docs/API.md, "Site crawl", "Queue").
pub const DEFAULT_MAX_RUNNING: usize = 4;
/// Crawls of one caller (a key's owner, an anonymous network) running at once by default.
pub const DEFAULT_MAX_RUNNING_PER_CALLER: usize = 2;
/// Rows of a page of `GET .../pages` and `GET .../issues/{rule_id}` by default.
pub const DEFAULT_PAGE_LIMIT: usize = 100;
/// Rows of such a page at most.
pub const MAX_PAGE_LIMIT: usize = 500;

/// The `limit` query parameter of a crawl's pages or issue URLs: absent is
/// [`DEFAULT_PAGE_LIMIT`], otherwise an integer from 1 to [`MAX_PAGE_LIMIT`].
pub fn parse_limit(raw: Option<&str>) -> Result<usize, AppError> {
    match raw {
        None => Ok(DEFAULT_PAGE_LIMIT),
        Some(raw) => {
            raw.parse::<usize>().ok().filter(|n| (1..=MAX_PAGE_LIMIT).contains(n)).ok_or_else(|| {
                AppError::invalid_parameter("limit", format!("a whole number from 1 to {MAX_PAGE_LIMIT}"))
            })
        }
    }
}

/// How often the runner asks the database whether its crawl was cancelled or its lease
/// taken, at most.
const CANCEL_CHECK_EVERY: Duration = Duration::from_millis(500);

/// The default pages per crawl of a tier (`None`: anonymous); an operator may set others
/// ([`MaxPages`]).
pub fn tier_max_pages(tier: Option<store::Tier>) -> u32 {
    MaxPages::default().for_tier(tier)
}

/// Pages per crawl of each kind of identity (the `[max_pages]` section of the service's
/// settings, docs/API.md, "Running the service"): the defaults are the public service's
/// ([`ANONYMOUS_MAX_PAGES`], [`FREE_MAX_PAGES`], [`PRO_MAX_PAGES`]); an operator crawling
/// their own sites raises them. What a crawl stores grows with its `max_pages` (sitemap
/// URLs and queued URLs are kept in proportion to it), so a raised cap raises those bounds
/// too (docs/SECURITY.md, "What a crawl keeps").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MaxPages {
    /// Per crawl without a key.
    pub anonymous: u32,
    /// Per crawl of a key of tier `free`.
    pub free: u32,
    /// Per crawl of a key of tier `pro`.
    pub pro: u32,
}

impl Default for MaxPages {
    fn default() -> Self {
        MaxPages { anonymous: ANONYMOUS_MAX_PAGES, free: FREE_MAX_PAGES, pro: PRO_MAX_PAGES }
    }
}

impl MaxPages {
    /// The pages per crawl of a tier (`None`: anonymous), at least 1: a cap of 0 would
    /// make every crawl end before its start page.
    pub fn for_tier(&self, tier: Option<store::Tier>) -> u32 {
        let cap = match tier {
            None => self.anonymous,
            Some(store::Tier::Free) => self.free,
            Some(store::Tier::Pro) => self.pro,
        };
        cap.max(1)
    }

    /// The pages per crawl of a caller: its key's own cap when the operator set one
    /// (`seo-audit keys set ID --max-pages N`), else its tier's; anonymous without a key.
    pub fn for_key(&self, key: Option<&store::KeyRecord>) -> u32 {
        match key {
            Some(key) => key.max_pages.unwrap_or_else(|| self.for_tier(Some(key.tier))).max(1),
            None => self.for_tier(None),
        }
    }
}

/// A crawl just created.
#[derive(Debug, Clone)]
pub struct Started {
    /// The crawl (state `queued`).
    pub crawl: store::Crawl,
    /// `max_pages` asked for when it was cut to the caller's limit.
    pub cut_from: Option<u32>,
    /// The caller's pages per crawl ([`MaxPages::for_key`]: its key's own, else its tier's).
    pub tier_limit: u32,
}

/// A crawl checked and ready to queue ([`Crawls::prepare`]).
pub(super) struct Prepared {
    /// The crawl to queue.
    pub(super) new: store::NewCrawl,
    /// `max_pages` asked for when it was cut to the tier's limit.
    cut_from: Option<u32>,
    /// The tier's pages per crawl.
    tier_limit: u32,
    /// A staging site's headers, held in memory for the crawl's run once it is queued
    /// (never stored; a scheduled run has none).
    site_headers: Option<fetch::SiteHeaders>,
    /// The start page the start check fetched, handed to the crawl's run.
    start_page: super::start_page::StartPage,
}

/// What a crawl keeps of its start as options (its `options_json`).
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
struct StoredOptions {
    request: CrawlRequest,
    max_pages: u32,
    /// Who started it, for the per-caller cap of running crawls: the identity label of an
    /// anonymous caller (its network); a key's crawl counts as its owner's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    requester: Option<String>,
    /// Whether the crawl was started with a staging site's headers, cookies or basic auth:
    /// they are never stored, only held in the memory of the process that accepted the
    /// crawl ([`Crawls`]), so a process without them fails the crawl instead of crawling
    /// without them.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    site_headers: bool,
}

/// Whom crawl with owner `user` and options `options_json` counts against, for the
/// per-caller cap of running crawls.
fn requester_of(user: Option<&str>, options_json: &str) -> String {
    if let Some(user) = user {
        return format!("user:{user}");
    }
    serde_json::from_str::<StoredOptions>(options_json)
        .ok()
        .and_then(|o| o.requester)
        .unwrap_or_else(|| "anonymous".to_string())
}

/// An export of a crawl ([`Crawls::export`]): the crawl's id, the format and the bytes.
#[derive(Debug, Clone)]
pub struct Export {
    /// The crawl exported (what the file is named after).
    pub crawl_id: vocab::CrawlId,
    /// CSV, JSON or XLSX.
    pub format: super::export::Format,
    /// The file.
    pub body: Vec<u8>,
}

/// A page of findings of one rule.
#[derive(Debug, Clone)]
pub struct IssuePage {
    /// The rule id.
    pub rule_id: String,
    /// `site` or `page`.
    pub kind: &'static str,
    /// Its severity.
    pub severity: String,
    /// Its name, as documented.
    pub name: String,
    /// The findings.
    pub findings: Vec<store::CrawlIssue>,
    /// The cursor of the next page.
    pub next_cursor: Option<String>,
    /// The rule's findings in all, stored or left out.
    pub total_findings: u64,
    /// The distinct URLs of all of them.
    pub total_urls: u64,
    /// Whether fewer findings were stored than found.
    pub truncated: bool,
}

/// The site crawl engine (see the module documentation).
#[derive(Debug, Clone)]
pub struct Crawls {
    pub(super) app: App,
    /// This engine's name on the leases of the crawls it drives, unique per process.
    worker: Arc<str>,
    /// How long a crawl runs at most.
    time_limit: Duration,
    /// How many crawls run at once.
    caps: store::CrawlCaps,
    /// Pages per crawl of each tier.
    max_pages: MaxPages,
    /// External URLs a crawl checks at most ([`external_budget`]).
    external_budget: u64,
    /// The pacing of hosts every crawl of this engine shares, and on PostgreSQL every
    /// replica's (docs/API.md, "Site crawl", "Politeness").
    pacer: super::HostPacer,
    /// The staging site headers of the crawls this process accepted, by crawl id, until
    /// each crawl ends (docs/API.md, "Staging sites"): in memory only, never stored.
    site_headers: Arc<std::sync::Mutex<std::collections::HashMap<vocab::CrawlId, fetch::SiteHeaders>>>,
    /// The start pages fetched by [`Crawls::start`], held for their crawls.
    start_pages: Arc<StartPages>,
}

fn not_found(id: &str) -> AppError {
    AppError::refused(crate::ErrorCode::NotFound, format!("No crawl {id:?} of this caller."))
}

/// Reads a paging cursor (`invalid_request` naming `cursor` when it is not one this API gave).
fn cursor(raw: Option<&str>) -> Result<Option<i64>, AppError> {
    raw.map(|c| {
        c.parse::<i64>()
            .ok()
            .filter(|n| *n >= 0)
            .ok_or_else(|| AppError::invalid_parameter("cursor", crate::CURSOR_EXPECTED))
    })
    .transpose()
}

impl Crawls {
    /// The engine over `app`.
    pub fn new(app: App) -> Crawls {
        let worker = format!("{}-{}", std::process::id(), uuid::Uuid::new_v4());
        let caps = store::CrawlCaps { running: DEFAULT_MAX_RUNNING, per_requester: DEFAULT_MAX_RUNNING_PER_CALLER };
        let config = app.fetcher.config();
        let request_limit = config.total_timeout.max(config.text_timeout);
        let pacer = super::HostPacer::for_store(&app.store, &worker, request_limit);
        Crawls {
            app,
            pacer,
            worker: worker.into(),
            time_limit: runner::DEFAULT_TIME_LIMIT,
            caps,
            max_pages: MaxPages::default(),
            external_budget: DEFAULT_EXTERNAL_BUDGET,
            site_headers: Arc::default(),
            start_pages: Arc::default(),
        }
    }

    /// The staging site headers held for crawl `id`, if any.
    fn held_headers(&self, id: &str) -> Option<fetch::SiteHeaders> {
        self.site_headers.lock().unwrap_or_else(|p| p.into_inner()).get(id).cloned()
    }

    /// The staging site headers of crawl `id`, waited for a moment: the process that
    /// accepted the crawl holds them right after it queued it, and a crawl that ended
    /// meanwhile may have let it start at once.
    async fn wait_for_headers(&self, id: &str) -> Option<fetch::SiteHeaders> {
        for _ in 0..40 {
            if let Some(headers) = self.held_headers(id) {
                return Some(headers);
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        None
    }

    /// Forgets the staging site headers of crawl `id` (its end, or its cancelling).
    fn forget_headers(&self, id: &str) {
        self.site_headers.lock().unwrap_or_else(|p| p.into_inner()).remove(id);
    }

    /// The same engine with the operator's pages per crawl of each tier.
    pub fn with_max_pages(mut self, max_pages: MaxPages) -> Crawls {
        self.max_pages = max_pages;
        self
    }

    /// The same engine with other caps on the crawls running at once (each at least 1).
    pub fn with_caps(mut self, running: usize, per_caller: usize) -> Crawls {
        self.caps = store::CrawlCaps { running: running.max(1), per_requester: per_caller.max(1) };
        self
    }

    /// The same engine with another time limit per crawl.
    pub fn with_time_limit(mut self, limit: Duration) -> Crawls {
        self.time_limit = limit;
        self
    }

    /// The same, checking at most `cap` external URLs per crawl ([`external_budget`]; 0: no
    /// external link is checked).
    pub fn with_external_budget(mut self, cap: u64) -> Crawls {
        self.external_budget = cap;
        self
    }

    fn lease_until(&self) -> time::OffsetDateTime {
        time::OffsetDateTime::now_utc() + self.app.lease
    }

    /// Starts a crawl for the caller `payer` pays for: the one start of the REST route and
    /// the agent tool. `request.url` was checked as an audit checks its URL by whoever built
    /// the request ([`super::parse_start`], the tool's argument), which words that refusal
    /// in its own protocol. Rendering without a browser is refused before anything is
    /// charged; then one charge for the whole crawl ([`crate::AuditOptions::units`]); then
    /// the start page is checked and the crawl queued as [`Crawls::start`] says. A key's
    /// crawl is its owner's, cut to the key's own pages per crawl when the operator set
    /// them, else to its tier's ([`MaxPages::for_key`]); an anonymous one counts against its
    /// network's cap of running crawls.
    ///
    /// # Errors
    /// `not_configured`, `rate_limited`, then as [`Crawls::start`].
    pub async fn start_for(&self, payer: &crate::quota::Payer, request: CrawlRequest) -> Result<Started, AppError> {
        self.app.check_render(request.render)?;
        self.app.charge(payer, crate::AuditOptions { render: request.render }.units()).await?;
        let identity = payer.identity();
        let owner = identity.user_id().cloned();
        let limit = self.max_pages.for_key(identity.key());
        self.start_at(request, owner, limit, &identity.label()).await
    }

    /// Starts a crawl for `owner` (`None`: anonymous, then counted as `caller`, the
    /// caller's identity label, against the per-caller cap) of `tier`: the start page is
    /// fetched as an audit fetches its page (refused by the address guard, not HTML: the
    /// audit's errors) before anything is created; `max_pages` is cut to the tier's limit
    /// (the engine's [`MaxPages`]); the crawl is queued and runs in the background as soon
    /// as the caps on running crawls allow, in the order crawls were started, and is handed
    /// the start page fetched here ([`StartPages`]). Nothing is charged here
    /// ([`Crawls::start_for`] charges).
    ///
    /// # Errors
    /// The audit's fetch errors, `invalid_request` for bad patterns or sitemaps, or the store.
    pub async fn start(
        &self,
        request: CrawlRequest,
        owner: Option<UserId>,
        tier: Option<store::Tier>,
        caller: &str,
    ) -> Result<Started, AppError> {
        let limit = self.max_pages.for_tier(tier);
        self.start_at(request, owner, limit, caller).await
    }

    /// [`Crawls::start`] with the caller's pages per crawl (`tier_limit`).
    async fn start_at(
        &self,
        request: CrawlRequest,
        owner: Option<UserId>,
        tier_limit: u32,
        caller: &str,
    ) -> Result<Started, AppError> {
        let Prepared { new, cut_from, tier_limit, site_headers, start_page } =
            self.prepare(request, owner, tier_limit, caller).await?;
        let crawl = self.app.db(move |s| s.queue_crawl(new)).await?;
        // Held before the crawl can be dispatched, for its run to find.
        if let Some(headers) = site_headers {
            self.site_headers.lock().unwrap_or_else(|p| p.into_inner()).insert(crawl.id.clone(), headers);
        }
        // Handed over before the crawl may start: a crawl another dispatch starts in between
        // finds nothing and fetches its start page itself, as a resumed crawl does.
        self.start_pages.keep(&crawl.id, start_page);
        self.dispatch().await;
        Ok(Started { crawl, cut_from, tier_limit })
    }

    /// The pages per crawl of a caller with `key` (none: anonymous): the key's own cap when
    /// the operator set one, else its tier's ([`MaxPages::for_key`]).
    pub(super) fn pages_limit(&self, key: Option<&store::KeyRecord>) -> u32 {
        self.max_pages.for_key(key)
    }

    /// What [`Crawls::start_at`] checks before a crawl is queued, and the crawl to queue: the
    /// one start of a crawl asked for now and of a scheduled run (`super::schedules`, which
    /// queues it with the schedule's move to its next run).
    pub(super) async fn prepare(
        &self,
        request: CrawlRequest,
        owner: Option<UserId>,
        tier_limit: u32,
        caller: &str,
    ) -> Result<Prepared, AppError> {
        self.app.renderer_for(crate::AuditOptions { render: request.render })?;
        let mut request = request;
        let url = request.url.clone();
        let site_headers = request.site_headers.take();
        let fetcher = match &site_headers {
            Some(headers) => self.app.fetcher.for_site(&url, headers.clone()),
            None => self.app.fetcher.clone(),
        };
        // The start page is asked for as the crawl will ask for it.
        let fetcher = fetcher.with_user_agent(request.profile().user_agent())?;
        let start_page = {
            // The start page's request is one of the host's like the crawl's own.
            let _place = self.pacer.acquire(&url, None).await;
            runner::check_start_page(&fetcher, &url).await?
        };
        let asked = request.max_pages.unwrap_or(tier_limit);
        let max_pages = asked.min(tier_limit);
        let cut_from = (asked > tier_limit).then_some(asked);
        let request = CrawlRequest { max_pages: Some(max_pages), ..request };
        let scope = scope_of(&request, max_pages)?;
        // Named sitemaps off the site are refused now, before a crawl exists, and kept
        // normalised.
        let named_sitemaps = super::request::check_named_sitemaps(&request, &scope)?;
        // A list-mode crawl's list likewise: on the site, within `max_pages`, normalised.
        let urls = super::request::check_list(&request, &scope, max_pages)?;
        let request = CrawlRequest { named_sitemaps, urls, ..request };
        let requester = owner.is_none().then(|| caller.to_string());
        let stored =
            StoredOptions { request: request.clone(), max_pages, requester, site_headers: site_headers.is_some() };
        let options_json = serde_json::to_string(&stored).map_err(AppError::internal)?;
        let new = store::NewCrawl { user_id: owner, url: request.url.to_string(), options_json, max_pages };
        Ok(Prepared { new, cut_from, tier_limit, site_headers, start_page })
    }

    /// Crawl `id` when `owner` may see it: a key's crawl by that key's owner, an anonymous
    /// crawl by anonymous callers (its id is unguessable); anything else is refused exactly
    /// as an unknown id (`not_found`).
    ///
    /// # Errors
    /// `not_found`, or the store.
    pub async fn owned(&self, owner: Option<&crate::UserId>, id: &CrawlId) -> Result<store::Crawl, AppError> {
        let key = id.to_string();
        let found = self.app.db(move |s| Ok(s.get_crawl(&key))).await?;
        match found {
            Ok(crawl) if crawl.user_id.as_ref() == owner => Ok(crawl),
            Ok(_) => Err(not_found(id)),
            Err(e) if e.is_not_found() => Err(not_found(id)),
            Err(e) => Err(e.into()),
        }
    }

    /// The newest completed public crawl (made without a key) of a domain, given its forms
    /// (`example.com`, `www.example.com`), as the domain's report page links to it.
    ///
    /// # Errors
    /// The store.
    pub async fn newest_public(&self, hosts: Vec<String>) -> Result<Option<pages::report::CrawlLink>, AppError> {
        let crawl = self.app.db(move |s| s.newest_public_crawl(&hosts)).await?;
        Ok(crawl.map(|c| pages::report::CrawlLink {
            pages: c.progress.pages_done + c.progress.pages_failed,
            finished_at: c.finished_at.map(|t| t.to_string()).unwrap_or_default(),
            site_score: c.site_score,
            id: c.id.into_string(),
        }))
    }

    /// The rules with findings in crawl `id` (site rules first).
    ///
    /// # Errors
    /// The store.
    pub async fn issue_counts(&self, id: &CrawlId) -> Result<Vec<store::IssueCount>, AppError> {
        let id = id.to_string();
        let (crawl, mut counts) = self.app.db(move |s| Ok((s.get_crawl(&id)?, s.crawl_issue_counts(&id)?))).await?;
        // The store keeps a site rule's first findings only; the summary has its totals.
        if let Some(summary) = super::summary::StoredSummary::of(&crawl) {
            for c in counts.iter_mut().filter(|c| c.kind == store::IssueKind::Site) {
                if let Some(totals) = summary.site_rules.get(&c.rule_id) {
                    c.count = c.count.max(totals.urls);
                }
            }
        }
        Ok(counts)
    }

    /// A page of the URLs of `owner`'s crawl `id`, after `cursor`.
    ///
    /// # Errors
    /// `not_found`, `invalid_request` (the cursor), or the store.
    pub async fn pages(
        &self,
        owner: Option<&crate::UserId>,
        id: &CrawlId,
        after: Option<&str>,
        limit: usize,
    ) -> Result<(store::Crawl, Vec<store::CrawlPage>, Option<String>), AppError> {
        let crawl = self.owned(owner, id).await?;
        let after = cursor(after)?;
        let key = crawl.id.clone();
        let limit = limit.clamp(1, MAX_PAGE_LIMIT);
        let (pages, next) = self.app.db(move |s| s.crawl_pages(&key, after, limit)).await?;
        Ok((crawl, pages, next.map(|n| n.to_string())))
    }

    /// A page of the URLs rule `rule_id` (a site rule or a page rule) finds in `owner`'s
    /// crawl `id`, with the linking page where there is one.
    ///
    /// # Errors
    /// `not_found` (the crawl, or no such rule), `invalid_request` (the cursor), or the
    /// store.
    pub async fn issue(
        &self,
        owner: Option<&crate::UserId>,
        id: &CrawlId,
        rule_id: &str,
        after: Option<&str>,
        limit: usize,
    ) -> Result<IssuePage, AppError> {
        let crawl = self.owned(owner, id).await?;
        let (kind, severity, name) = if let Some(meta) = crawl::site_rule_by_id(rule_id) {
            ("site", meta.severity.as_str().to_string(), meta.name.to_string())
        } else if let Some(meta) = audit_core::rule_by_id(rule_id) {
            ("page", meta.severity.as_str().to_string(), meta.name.to_string())
        } else {
            return Err(AppError::refused(crate::ErrorCode::NotFound, format!("No rule {rule_id:?}.")));
        };
        let after = cursor(after)?;
        let (key, rule) = (crawl.id.clone(), rule_id.to_string());
        let limit = limit.clamp(1, MAX_PAGE_LIMIT);
        let (findings, next, stored) = self
            .app
            .db(move |s| {
                let (findings, next) = s.crawl_issues(&key, &rule, after, limit)?;
                let stored = s.crawl_issue_counts(&key)?.into_iter().find(|c| c.rule_id == rule).map_or(0, |c| c.count);
                Ok((findings, next, stored))
            })
            .await?;
        // The store keeps a site rule's first findings only; the summary has the totals of
        // every site rule with findings. A page rule's findings are all stored, one per URL.
        let totals = (kind == "site")
            .then(|| super::summary::StoredSummary::of(&crawl))
            .flatten()
            .and_then(|s| s.site_rules.get(rule_id).copied());
        let (total_findings, total_urls, truncated) = match totals {
            Some(t) => (t.findings, t.urls.max(stored), t.truncated),
            None => (stored, stored, false),
        };
        Ok(IssuePage {
            rule_id: rule_id.to_string(),
            kind,
            severity,
            name,
            findings,
            next_cursor: next.map(|n| n.to_string()),
            total_findings,
            total_urls,
            truncated,
        })
    }

    /// The export of `owner`'s crawl `id` (docs/API.md, "Exports"): its `table` as CSV or
    /// JSON (the crawl and the rows), or both tables as an XLSX workbook. It grows with the
    /// crawl, so it is written as the application's work is ([`App::compute`]: in an audit
    /// slot, off the async workers, within the analysis budget), reading the store a batch
    /// at a time, and it stops when the caller goes away.
    ///
    /// # Errors
    /// `not_found`, `overloaded`, the store, or `invalid_request` when the export does not
    /// fit within the analysis time limit.
    pub async fn export(
        &self,
        owner: Option<&crate::UserId>,
        id: &CrawlId,
        format: super::export::Format,
        table: super::export::Table,
    ) -> Result<Export, AppError> {
        use super::export::{self, Format};
        let crawl = self.owned(owner, id).await?;
        let issues = if format == Format::Json { self.issue_counts(&crawl.id).await? } else { Vec::new() };
        let app = self.app.clone();
        let crawl_id = crawl.id.clone();
        let body = self
            .app
            .compute(move |budget| -> Result<Vec<u8>, AppError> {
                app.check_db_file()?;
                let stop = || budget.exhausted();
                match format {
                    Format::Csv => {
                        let mut out = Vec::new();
                        export::write_csv(&app.store, &crawl.id, table, &stop, &mut out)?;
                        Ok(out)
                    }
                    Format::Xlsx => Ok(export::xlsx(&app.store, &crawl.id, &stop)?),
                    Format::Json => {
                        let rows = export::json_rows(&app.store, &crawl.id, table, &stop)?;
                        let wire = serde_json::to_value(super::wire::wire_crawl(&crawl, &issues))
                            .map_err(AppError::internal)?;
                        let mut answer = serde_json::Map::new();
                        answer.insert("ok".into(), Value::Bool(true));
                        answer.insert("api_version".into(), Value::from(audit_core::API_VERSION));
                        answer.insert("crawl".into(), wire);
                        answer.insert(table.name().into(), Value::Array(rows));
                        serde_json::to_vec(&Value::Object(answer)).map_err(AppError::internal)
                    }
                }
            })
            .await??;
        Ok(Export { crawl_id, format, body })
    }

    /// Cancels `owner`'s crawl `id` (the pages done are kept; a crawl that has ended is
    /// left as it is).
    ///
    /// # Errors
    /// `not_found`, or the store.
    pub async fn cancel(&self, owner: Option<&crate::UserId>, id: &CrawlId) -> Result<store::Crawl, AppError> {
        let crawl = self.owned(owner, id).await?;
        let key = crawl.id.clone();
        // A queued crawl cancelled is never run; a running one's run holds its own copy.
        self.forget_headers(&crawl.id);
        self.app.db(move |s| s.cancel_crawl(&key)).await
    }

    /// At start-up: crawls a previous process left `queued` or `running` are resumed from
    /// their frontier. On SQLite this process is alone on its database, so every such crawl
    /// is taken at once; on PostgreSQL only those whose lease ran out (the sweep takes the
    /// others when theirs do).
    pub async fn recover(&self) {
        let alone = !self.app.store.is_postgres();
        self.adopt(alone).await;
        self.dispatch().await;
    }

    /// Starts the sweep of this replica: every half lease, crawls whose lease ran out are
    /// adopted and resumed. Stops when `stop` turns true.
    pub fn spawn_sweeper(&self, stop: tokio::sync::watch::Receiver<bool>) {
        let engine = self.clone();
        crate::lease::spawn_sweeper(self.app.lease / 2, stop, move || {
            let engine = engine.clone();
            async move {
                engine.adopt(false).await;
                // Queued crawls a replica that died would have started.
                engine.dispatch().await;
            }
        });
    }

    async fn adopt(&self, all: bool) {
        let (worker, until) = (self.worker.clone(), self.lease_until());
        let expired_at = (!all).then(time::OffsetDateTime::now_utc);
        match self.app.db(move |s| s.adopt_crawls(&worker, expired_at, until)).await {
            Ok(ids) => {
                for id in ids {
                    tracing::info!(crawl = %id, "crawl interrupted (a restart, or a replica gone): resumed");
                    self.spawn_drive(id.into());
                }
            }
            Err(e) => tracing::error!(error = %e, "interrupted crawls not recovered"),
        }
    }

    /// Starts the queued crawls the caps let run now, oldest first (a crawl that cannot start
    /// yet stays `queued`; it is started when a running crawl ends, or by the next sweep).
    pub(super) async fn dispatch(&self) {
        let (worker, until, caps) = (self.worker.clone(), self.lease_until(), self.caps);
        match self.app.db(move |s| s.start_queued_crawls(&worker, until, caps, &requester_of)).await {
            Ok(ids) => ids.into_iter().for_each(|id| self.spawn_drive(id.into())),
            // The sweep tries again.
            Err(e) => tracing::warn!(error = %e, "queued crawls not started"),
        }
    }

    /// Drives crawl `id` in a task of its own; once it has ended, the crawls queued behind
    /// it are started.
    fn spawn_drive(&self, id: CrawlId) {
        let engine = self.clone();
        // Boxed as a plain `dyn Future`: the task starts others through `dispatch`, and the
        // type of a future that contains itself could not be named.
        let task: std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>> = Box::pin(async move {
            engine.drive_leased(&id).await;
            engine.dispatch().await;
        });
        tokio::spawn(task);
    }

    /// Runs crawl `id` under this engine's lease (renewed while it runs) to its end.
    async fn drive_leased(&self, id: &str) {
        let (app, key, worker, lease) = (self.app.clone(), id.to_string(), self.worker.clone(), self.app.lease);
        let heartbeat = crate::lease::Heartbeat::start(lease, move || {
            let (app, id, worker) = (app.clone(), key.clone(), worker.clone());
            async move {
                let until = time::OffsetDateTime::now_utc() + lease;
                app.db(move |s| s.renew_crawl_lease(&id, &worker, until)).await.ok()
            }
        });
        self.app.observer.crawl_running(1);
        let driven = self.drive(id).await;
        self.app.observer.crawl_running(-1);
        match driven {
            // The database went away under the crawl (or could not be written for a
            // while): the crawl is not at fault, so it is not ended. Its lease is given up
            // below (or, while the database is still away, runs out), and the sweep of this
            // replica or another resumes it from its frontier once the database answers;
            // the resumed run puts back in the queue the pages this run left `fetching`
            // (docs/ARCHITECTURE.md, "Replicas").
            Err(e) if e.is_store_unavailable() => {
                tracing::warn!(crawl = %id, error = %e, "crawl interrupted: the database is away; it resumes when it is back");
            }
            Err(e) => {
                self.forget_headers(id);
                self.record_failure(id, &e).await;
            }
            Ok(()) => self.forget_headers(id),
        }
        heartbeat.stop().await;
        let (key, worker) = (id.to_string(), self.worker.clone());
        if let Err(e) = self.app.db(move |s| s.release_crawl(&key, &worker)).await {
            tracing::warn!(crawl = %id, error = %e, "crawl lease not given up (it runs out)");
        }
    }

    /// Ends crawl `id` as `failed` with the error that stopped it.
    async fn record_failure(&self, id: &str, e: &AppError) {
        tracing::error!(crawl = %id, error = %e, "crawl stopped");
        let end = store::CrawlEnd {
            state: store::CrawlState::Failed,
            site_score: None,
            summary_json: None,
            error: Some(e.to_string()),
            site_issues: Vec::new(),
            event: None,
        };
        let (key, worker) = (id.to_string(), self.worker.clone());
        let _ = self.app.db(move |s| s.finish_crawl(&key, &worker, &end)).await;
    }

    async fn drive(&self, id: &str) -> Result<(), AppError> {
        let key = id.to_string();
        self.app.db(move |s| s.start_crawl(&key)).await?;
        let key = id.to_string();
        let crawl = self.app.db(move |s| s.get_crawl(&key)).await?;
        let stored: StoredOptions = serde_json::from_str(&crawl.options_json).map_err(AppError::internal)?;
        let scope = scope_of(&stored.request, stored.max_pages)?;
        // A staging site's headers are only ever in the memory of the process that accepted
        // the crawl: without them (that process stopped, or another replica took the crawl
        // from the queue) it fails, rather than crawl the site as it looks without them.
        let held = if stored.site_headers { self.wait_for_headers(id).await } else { None };
        let fetcher = match (stored.site_headers, held) {
            (false, _) => self.app.fetcher.clone(),
            (true, Some(headers)) => self.app.fetcher.for_site(scope.start(), headers),
            (true, None) => {
                return Err(AppError::refused(
                    crate::ErrorCode::Conflict,
                    "The crawl's request headers, cookies or basic auth were held in the memory of the process \
                     that accepted it, which no longer runs it; they are never stored. Start the crawl again.",
                ))
            }
        };
        // This replica holds the crawl's lease: no other changes its frontier while it runs.
        // Its page claims carry a name of this run alone: a run of this same engine that
        // stopped (the database went away under it) left pages `fetching` under its claims,
        // and the resumed run must put them back in the queue; under the engine's own name
        // they would look like claims of the live lease holder, stay `fetching` forever, and
        // the crawl would wait on them without end.
        let claimer = format!("{}/{}", self.worker, uuid::Uuid::new_v4());
        let frontier = self.app.store.driving_crawl(id, &claimer);
        let sink = StoreSink {
            writer: frontier.writer(),
            observer: self.app.observer.clone(),
            worker: self.worker.to_string(),
            checked: Instant::now(),
            stop: false,
        };
        let options = CrawlOptions {
            limits: self.app.limits,
            time_limit: time_left(self.time_limit, crawl.started_at, time::OffsetDateTime::now_utc()),
            sitemaps: stored.request.sitemaps,
            named_sitemaps: super::request::check_named_sitemaps(&stored.request, &scope)?,
            list: (!stored.request.urls.is_empty()).then(|| stored.request.urls.clone()),
            extractors: if stored.request.extract.is_empty() {
                None
            } else {
                Some(Arc::new(super::request::check_extractors(&stored.request.extract)?))
            },
            near_duplicate_threshold: stored
                .request
                .near_duplicate_threshold
                .unwrap_or(crawl::NEAR_DUPLICATE_SIMILARITY),
            sitemap_limits: sitemap_limits(stored.max_pages),
            slots: Some(self.app.slots.clone()),
            renderer: self.app.renderer_for(crate::AuditOptions { render: stored.request.render })?.cloned(),
            external_links: stored
                .request
                .external_links
                .then(|| external_budget(stored.max_pages, self.external_budget))
                .filter(|budget| *budget > 0)
                .map(super::ExternalChecks::with_budget),
            pacer: Some(self.pacer.clone()),
            start_page: self.start_pages.take(id),
            ..CrawlOptions::default()
        };
        let profile = stored.request.profile();
        let fetcher = fetcher.with_user_agent(profile.user_agent())?;
        let limits = Limits { max_known_urls: known_urls(stored.max_pages), profile, ..Limits::default() };
        let crawled = runner::run(&fetcher, frontier, scope, limits, sink, options).await?;
        let summary = crawled.summary;
        let links_to_unrecorded_urls = crawled.store.links_not_counted();
        let (key, worker) = (id.to_string(), self.worker.clone());
        let url = crawl.url.clone();
        self.app
            .db(move |s| {
                // The rules read the crawl from the store, a batch of rows at a time, all of
                // them in one read a pass: what this holds is a few bytes a page at most
                // (docs/ARCHITECTURE.md, "Site crawl: the site rules over the store").
                let judged = super::judge(s, &key, &summary)?;
                let (score, site_issues) = (judged.score.clone(), judged.site_issues());
                // A run resumed after a restart judges only its own fetches: pages that
                // answered before the restart still make the crawl a success.
                let answered = judged.totals.answered;
                let (state, error) = match &summary.end {
                    CrawlEnd::Completed => (store::CrawlState::Completed, None),
                    CrawlEnd::Cancelled => (store::CrawlState::Cancelled, None),
                    CrawlEnd::Failed { .. } if answered => (store::CrawlState::Completed, None),
                    CrawlEnd::Failed { reason } => (store::CrawlState::Failed, Some(reason.clone())),
                };
                let site_score = score.as_ref().map(|s| s.score);
                let stored_summary = super::summary::StoredSummary {
                    time_limited: summary.time_limited,
                    error_pauses: summary.error_pauses,
                    stopped_for_errors: summary.stopped_for_errors.clone(),
                    sitemaps_read: summary.sitemaps_read,
                    pages_audited: summary.pages_audited,
                    links_not_queued: summary.links_not_queued,
                    links_to_unrecorded_urls,
                    external_links: summary.external_links.clone(),
                    mean_page_score: score.as_ref().map(|s| s.mean_page_score),
                    penalty: score.as_ref().map(|s| s.penalty),
                    site_rules: super::summary::SiteRuleTotals::of(&judged.results),
                    site_rules_skipped: super::summary::skipped_rules(&judged.results),
                };
                // Serialising plain numbers and flags cannot fail.
                let summary_json = serde_json::to_string(&stored_summary).ok();
                // camelCase like every other event's data (docs/API.md, "Webhooks"); the
                // snake_case names this event was first sent with stay beside them for one
                // version, for receivers written against them.
                let mut event = json!({
                    "crawlId": key,
                    "url": url,
                    "state": state.as_str(),
                    "siteScore": site_score,
                    "pagesDone": summary.progress.done,
                    "pagesFailed": summary.progress.failed,
                    "crawl_id": key,
                    "site_score": site_score,
                    "pages_done": summary.progress.done,
                    "pages_failed": summary.progress.failed,
                });
                // The change since the owner's previous completed crawl of the site, when
                // there is one: the comparison `GET /api/v1/crawls/{id}/compare` answers,
                // over this crawl's pages and page findings as stored and its site findings
                // about to be (docs/API.md, "Comparing two crawls").
                if state == store::CrawlState::Completed {
                    if let Some(change) = change_since_previous(s, &key, site_score, &site_issues)? {
                        event["change"] = change;
                    }
                }
                let end = store::CrawlEnd {
                    state,
                    site_score,
                    summary_json,
                    error,
                    site_issues,
                    event: Some(("crawl.completed".to_string(), event)),
                };
                s.finish_crawl(&key, &worker, &end)
            })
            .await?;
        Ok(())
    }
}

/// The counts of how crawl `id`, about to end with `site_score` and `site_issues`, differs from its owner's
/// previous completed crawl of the site; `None` without one.
fn change_since_previous(
    s: &store::Store,
    id: &str,
    site_score: Option<u32>,
    site_issues: &[store::CrawlIssue],
) -> store::Result<Option<Value>> {
    let crawl = s.get_crawl(id)?;
    let Some(previous) = super::change::previous_completed(s, &crawl)? else { return Ok(None) };
    let mut current = super::change::CrawlFacts::read(s, crawl)?;
    // Site findings are written with the end; a resumed crawl's earlier ones are replaced.
    current.findings.retain(|f| f.1 != store::IssueKind::Site);
    current.findings.extend(
        site_issues.iter().map(|i| (i.rule_id.clone(), store::IssueKind::Site, i.severity.clone(), i.url.clone())),
    );
    // Its site score is written with the end too.
    current.crawl.site_score = site_score;
    let against = super::change::CrawlFacts::read(s, previous)?;
    Ok(Some(super::change::change_summary(&super::change::compare(&current, &against))))
}

/// What is left of a crawl's time limit `limit` at `now`: the limit counts in wall-clock time
/// from the crawl's `started_at` (stored once, when it first ran), so a crawl resumed after a
/// restart or by another replica gets what is left of it, not a new one; the time the crawl
/// was down counts (docs/API.md, "Site crawl", "Ends"). Zero when it has run out: the runner
/// then starts no fetch and the crawl ends with what it has, `time_limited`. A crawl without
/// a start time (or with one this code cannot read) gets the whole limit.
fn time_left(limit: Duration, started_at: Option<vocab::Timestamp>, now: time::OffsetDateTime) -> Duration {
    let Some(started) = started_at else {
        return limit;
    };
    let ran = Duration::try_from(now - started.instant()).unwrap_or(Duration::ZERO);
    limit.saturating_sub(ran)
}

/// External URLs a crawl of the service checks at most by default (setting
/// `crawl_external_budget`; 0 turns the checks off).
pub const DEFAULT_EXTERNAL_BUDGET: u64 = crawl::DEFAULT_EXTERNAL_BUDGET;

/// External URLs a crawl of at most `max_pages` pages checks: one per page of its
/// `max_pages` (so per tier: 30 anonymous, 100 free, 500 pro by default), at most `cap` (the
/// setting `crawl_external_budget`). The checks cost the crawl's one quota unit nothing
/// more; the budget bounds what one crawl sends to other sites (docs/API.md, "Site crawl").
pub fn external_budget(max_pages: u32, cap: u64) -> u64 {
    u64::from(max_pages).min(cap)
}

/// The sitemap page URLs a crawl keeps, per page it may fetch: its sitemap URLs are
/// written to the database (the site rules compare them with the pages crawled), so what
/// one crawl stores is bounded by its `max_pages`, not by the site's sitemaps (docs/API.md,
/// "Site crawl"; docs/SECURITY.md).
pub const SITEMAP_URLS_PER_PAGE: usize = 20;

/// URLs a crawl of the service records at most per page of its `max_pages` (queued,
/// fetched, skipped, sitemap URLs included): a page's links to further URLs are counted in
/// the summary's `links_not_queued`, not recorded. Without it a crawl kept a row for every
/// distinct link it found, `max_pages` times the links of a page (docs/SECURITY.md, "What
/// one caller can start and store").
pub const QUEUED_URLS_PER_PAGE: u64 = 50;

/// The URLs a crawl of `max_pages` pages records at most: [`QUEUED_URLS_PER_PAGE`] per page,
/// and never more than the engine's own bound.
pub fn known_urls(max_pages: u32) -> u64 {
    (u64::from(max_pages) * QUEUED_URLS_PER_PAGE).min(crawl::DEFAULT_MAX_KNOWN_URLS)
}

/// The sitemap limits of a crawl of at most `max_pages` pages: the engine's defaults, with
/// at most [`SITEMAP_URLS_PER_PAGE`] URLs per page in all (and so per file).
fn sitemap_limits(max_pages: u32) -> crawl::SitemapLimits {
    let defaults = crawl::SitemapLimits::default();
    let total = (max_pages as usize).saturating_mul(SITEMAP_URLS_PER_PAGE).max(1).min(defaults.max_total_urls);
    crawl::SitemapLimits { max_total_urls: total, max_urls: defaults.max_urls.min(total), ..defaults }
}

/// The scope of a crawl request.
fn scope_of(request: &CrawlRequest, max_pages: u32) -> Result<Scope, AppError> {
    let config = ScopeConfig {
        max_pages,
        max_depth: request.max_depth,
        include: request.include.clone(),
        exclude: request.exclude.clone(),
        strip_params: request.strip_params.clone(),
    };
    Scope::new(request.url.as_str(), config).map_err(|e| match e {
        crawl::UrlError::Pattern(e) => super::request::pattern_refusal(&e),
        e => AppError::refused(crate::ErrorCode::InvalidUrl, e.to_string()),
    })
}

/// The service's [`CrawlSink`]: every page, its links and failed page rules written to the
/// database as they come; asks the database now and then whether the crawl was cancelled
/// or its lease taken by another replica (then it stops).
struct StoreSink {
    writer: store::CrawlWriter,
    observer: Arc<dyn crate::Observer>,
    worker: String,
    checked: Instant,
    stop: bool,
}

impl CrawlSink for StoreSink {
    fn page(&mut self, page: &crawl::CrawledPage, audit: Option<&audit_core::Audit>) -> Result<(), AppError> {
        let failed = super::failed_rule_rows(audit);
        self.writer.record_page(page, &failed)?;
        self.observer.crawl_page(crate::observe::crawl_page_outcome(page, audit.is_some()));
        Ok(())
    }

    fn sitemap_url(&mut self, url: &str) -> Result<(), AppError> {
        Ok(self.writer.add_sitemap_urls(&[url.to_string()])?)
    }

    fn progress(&mut self, _progress: &Progress) {}

    fn paused(&mut self, why: &str, pause: Duration) {
        super::stored_crawl::write_pause(&self.writer, why, pause);
    }

    fn resumed(&mut self) {
        super::stored_crawl::write_resume(&self.writer);
    }

    fn cancelled(&mut self) -> bool {
        if self.stop || self.checked.elapsed() < CANCEL_CHECK_EVERY {
            return self.stop;
        }
        self.checked = Instant::now();
        // Asked on the connection of the runner's open batch (see `still_driving`); when the
        // database did not answer, the crawl goes on and asks again later.
        let ours = self.writer.still_driving(&self.worker).unwrap_or(true);
        self.stop = !ours;
        self.stop
    }
}

/// The issue summary of a crawl as shown: `id`, `kind`, `severity`, `count`.
pub fn issue_summary(counts: &[store::IssueCount]) -> Vec<Value> {
    counts
        .iter()
        .map(|c| {
            let kind: &'static str = match c.kind {
                store::IssueKind::Site => "site",
                store::IssueKind::Page => "page",
            };
            json!({ "id": c.rule_id, "kind": kind, "severity": c.severity, "count": c.count })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crawl::{CrawledPage, Entry, FrontierStore, Outlink, Source, State};
    use std::collections::HashMap;
    use std::sync::Mutex;

    #[test]
    fn the_time_limit_counts_from_the_stored_start() {
        // The store keeps milliseconds.
        let now = vocab::Timestamp::now().instant();
        let at = |ago: time::Duration| vocab::Timestamp::from(now - ago);
        let limit = Duration::from_secs(30 * 60);
        assert_eq!(time_left(limit, Some(at(time::Duration::minutes(10))), now), Duration::from_secs(20 * 60));
        assert_eq!(time_left(limit, Some(at(time::Duration::hours(2))), now), Duration::ZERO, "down an hour or more");
        assert_eq!(time_left(limit, None, now), limit, "never started");
        assert_eq!(time_left(limit, Some(at(-time::Duration::minutes(1))), now), limit, "a clock behind");
    }

    /// `/` links to `/a` and `/b`; every request's path is counted.
    async fn site() -> (std::net::SocketAddr, Arc<Mutex<HashMap<String, usize>>>) {
        let hits: Arc<Mutex<HashMap<String, usize>>> = Arc::default();
        let log = hits.clone();
        let site = test_support::Pages::serve(move |request: &test_support::wiremock::Request| {
            let path = request.url.path();
            *log.lock().expect("lock").entry(path.to_string()).or_default() += 1;
            let body = format!("<title>The page {path} of the shop</title><a href='/'>Home</a>");
            test_support::ResponseTemplate::new(200).set_body_raw(body, "text/html")
        })
        .await;
        let addr = site.leak();
        (addr, hits)
    }

    /// An app on a SQLite file in `dir` that may fetch loopback, with a short lease.
    fn open_app(dir: &std::path::Path) -> (App, Arc<crate::webhooks::Dispatcher>) {
        let setup = crate::Setup {
            database: store::Database::Sqlite(dir.join("seo-audit.db")),
            fetch: fetch::FetchConfig { allow_targets: vec!["127.0.0.1".into()], ..fetch::FetchConfig::default() },
            max_concurrent_audits: 2,
            audit_queue: 4,
            analysis_cpu_ms: 0,
            webhook_retry_base: Duration::from_secs(1),
            lease: Duration::from_millis(100),
            observer: None,
            render: render::RenderConfig::default(),
        };
        App::open(setup).expect("app")
    }

    fn entry(url: String, depth: u32, state: State) -> Entry {
        let status = (state == State::Done).then_some(200);
        let source = if depth == 0 { Source::Start } else { Source::Link };
        Entry { url, depth: Some(depth), found_from: None, source, state, status, reason: None }
    }

    /// A crawl interrupted (its runner gone, its lease run out) with its home page done and
    /// two pages queued, resumed once its time limit has run out since its start: it ends at
    /// once, `completed` and `time_limited`, with what it had; nothing more is fetched.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_crawl_resumed_after_its_time_limit_ends_with_what_it_has() {
        let (addr, hits) = site().await;
        let dir = std::env::temp_dir().join(format!("seo-audit-crawl-limit-{}", uuid::Uuid::new_v4()));
        let (app, _webhooks) = open_app(&dir);
        let home = format!("http://{addr}/");
        let url = crate::validate_url(&home).expect("url");
        let request = crate::crawl::CrawlRequest { sitemaps: false, ..crate::crawl::CrawlRequest::of(url) };
        let options_json =
            serde_json::to_string(&StoredOptions { request, max_pages: 30, requester: None, site_headers: false })
                .expect("options");
        let new = store::NewCrawl { user_id: None, url: home.clone(), options_json, max_pages: 30 };
        let gone = time::OffsetDateTime::now_utc() - time::Duration::minutes(1);
        let crawl = app.store.create_crawl(new, "gone-runner", gone).expect("crawl");
        assert!(app.store.start_crawl(&crawl.id).expect("start"));
        let mut frontier = app.store.crawl_frontier(&crawl.id, "gone-runner");
        frontier.insert(entry(home.clone(), 0, State::Done)).expect("home");
        for path in ["a", "b"] {
            frontier.insert(entry(format!("{home}{path}"), 1, State::Queued)).expect("queued");
        }
        let outlinks = ["a", "b"]
            .iter()
            .map(|p| Outlink {
                url: format!("{home}{p}"),
                anchor: p.to_string(),
                internal: true,
                nofollow: false,
                follow: true,
            })
            .collect();
        let record = CrawledPage {
            url: home.clone(),
            status: Some(200),
            html: true,
            depth: Some(0),
            title: Some("Home".into()),
            outlinks,
            score: Some(90),
            ..CrawledPage::default()
        };
        app.store.record_crawl_page(&crawl.id, &record, &[]).expect("record");

        // The limit has run out since the crawl's start (waited for, then the state is read).
        let limit = Duration::from_secs(1);
        loop {
            let started = app.store.get_crawl(&crawl.id).expect("get").started_at;
            if time_left(limit, started, time::OffsetDateTime::now_utc()).is_zero() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        // A new runner (a restart) resumes it with the same limit.
        Crawls::new(app.clone()).with_time_limit(limit).recover().await;
        let mut done = None;
        for _ in 0..600 {
            let c = app.store.get_crawl(&crawl.id).expect("get");
            if c.state.is_terminal() && app.store.crawl_lease(&crawl.id).expect("lease").is_none() {
                done = Some(c);
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let done = done.expect("the crawl ended");
        assert_eq!(done.state, store::CrawlState::Completed, "{done:?}");
        assert_eq!(done.resumes, 1);
        let summary = crate::crawl::summary::StoredSummary::of(&done).expect("summary");
        assert!(summary.time_limited, "{summary:?}");
        assert!(crate::crawl::views::wire_crawl(&done, &[]).time_limited, "shown on the crawl object");
        assert_eq!((done.progress.pages_done, done.progress.pages_queued), (1, 2), "{done:?}");
        assert_eq!(done.site_score, Some(90), "scored on what it has");
        assert!(hits.lock().expect("lock").is_empty(), "nothing fetched after the limit: {:?}", hits.lock());
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A crawl started with a staging site's headers, taken over by a process that does not
    /// hold them (a restart, another replica): it ends `failed` saying why, and nothing is
    /// fetched without them.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_crawl_whose_headers_this_process_does_not_hold_fails_without_fetching() {
        let (addr, hits) = site().await;
        let dir = std::env::temp_dir().join(format!("seo-audit-crawl-headers-{}", uuid::Uuid::new_v4()));
        let (app, _webhooks) = open_app(&dir);
        let home = format!("http://{addr}/");
        let body = json!({ "url": home, "sitemaps": false, "cookies": ["sid=kept-in-memory-only"] });
        let wire = api::body::parse::<api::crawls::CrawlRequest>(body.to_string().as_bytes()).expect("body");
        let request = crate::crawl::parse_start(wire).expect("request");
        assert!(request.site_headers.is_some());
        let stored = StoredOptions { request, max_pages: 30, requester: None, site_headers: true };
        let options_json = serde_json::to_string(&stored).expect("options");
        assert!(!options_json.contains("kept-in-memory-only"), "{options_json}");
        let new = store::NewCrawl { user_id: None, url: home.clone(), options_json, max_pages: 30 };
        let crawl = app.store.queue_crawl(new).expect("crawl");
        // Another process: it never held the crawl's headers.
        Crawls::new(app.clone()).dispatch().await;
        let mut done = None;
        for _ in 0..600 {
            let c = app.store.get_crawl(&crawl.id).expect("get");
            if c.state.is_terminal() {
                done = Some(c);
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let done = done.expect("the crawl ended");
        assert_eq!(done.state, store::CrawlState::Failed, "{done:?}");
        assert!(done.error.as_deref().is_some_and(|e| e.contains("never stored")), "{done:?}");
        assert!(hits.lock().expect("lock").is_empty(), "nothing fetched without them: {:?}", hits.lock());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
