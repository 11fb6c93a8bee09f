//! What the crawl use cases answer the REST routes (the wire types of `api::crawls`), the
//! agent tools (crawl_site, crawl_status) and the human report page with (docs/API.md,
//! "Site crawl"): views of the stored records.

use schemars::JsonSchema;
use serde::Serialize;

use super::table::TableQuery;
pub use super::wire::{kind_name, time_limited, wire_crawl};
use super::{Crawls, IssuePage, Started};
use crate::AppError;
use vocab::CrawlId;

/// Issues crawl_status lists at most.
const TOP_ISSUES: usize = 10;
/// Issues whose affected URLs the report page lists (the others are listed with their count).
const REPORT_ISSUES: usize = 40;

/// The path of crawl `id`'s status.
pub fn crawl_path(id: &str) -> String {
    format!("/api/v1/crawls/{id}")
}

/// A crawl just started on the wire: with `max_pages_cut` when `max_pages` was cut to the tier.
pub fn wire_started(started: &Started) -> api::crawls::Crawl {
    let mut crawl = wire_crawl(&started.crawl, &[]);
    crawl.max_pages_cut = started.cut_from.map(|asked| api::crawls::MaxPagesCut {
        asked,
        limit: started.tier_limit,
        message: format!(
            "max_pages {asked} is above this caller's limit of {} pages per crawl: cut to {}.",
            started.tier_limit, started.tier_limit
        ),
    });
    crawl
}

/// A crawled URL on the wire.
pub fn wire_page(p: &store::CrawlPage) -> api::crawls::CrawlPage {
    api::crawls::CrawlPage {
        url: p.url.clone(),
        state: p.state.clone(),
        status_code: p.status_code,
        depth: p.depth,
        inlinks: p.inlinks,
        score: p.score,
        title: p.title.clone(),
        failed_rules: p.failed_rules.clone(),
        reason: p.reason.clone(),
        found_from: p.found_from.clone(),
        redirect_to: p.redirect_to.clone(),
        extracted: p
            .extracted
            .iter()
            .map(|(name, value)| (format!("{}{name}", super::wire::EXTRACT_COLUMN_PREFIX), value.clone()))
            .collect(),
    }
}

/// A page of a rule's affected URLs in crawl `crawl_id` on the wire: the answer of
/// `GET /api/v1/crawls/{id}/issues/{rule_id}`.
pub fn wire_issue(crawl_id: vocab::CrawlId, page: IssuePage) -> api::crawls::CrawlIssue {
    api::crawls::CrawlIssue {
        ok: true,
        api_version: audit_core::API_VERSION,
        crawl_id,
        rule: api::crawls::CrawlRule {
            id: page.rule_id,
            kind: page.kind.to_string(),
            severity: page.severity,
            name: page.name,
        },
        urls: page
            .findings
            .into_iter()
            .map(|f| api::crawls::CrawlFinding { url: f.url, linked_from: f.linked_from, detail: f.detail })
            .collect(),
        next_cursor: page.next_cursor,
        total_findings: page.total_findings,
        total_urls: page.total_urls,
        truncated: page.truncated,
    }
}

/// `max_pages` cut to the tier.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Cut {
    /// What was asked for.
    pub asked: u32,
    /// The tier's pages per crawl.
    pub limit: u32,
}

/// Result: the crawl just created.
#[derive(Debug, Serialize, JsonSchema)]
pub struct StartedView {
    /// Pass it to crawl_status.
    #[schemars(with = "String")]
    pub crawl_id: vocab::CrawlId,
    /// The start URL, normalised.
    pub url: String,
    /// `queued`.
    pub state: String,
    /// Pages fetched at most.
    pub max_pages: u32,
    /// Present when max_pages was cut to the tier.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_pages_cut: Option<Cut>,
    /// The crawl's REST status route.
    pub status_url: String,
    /// The human report page.
    pub report_url: String,
}

impl StartedView {
    /// The view of a crawl just started.
    pub fn of(started: Started) -> StartedView {
        let crawl = started.crawl;
        StartedView {
            status_url: crawl_path(&crawl.id),
            report_url: format!("/crawls/{}", crawl.id),
            crawl_id: crawl.id,
            url: crawl.url,
            state: crawl.state.as_str().to_string(),
            max_pages: crawl.max_pages,
            max_pages_cut: started.cut_from.map(|asked| Cut { asked, limit: started.tier_limit }),
        }
    }
}

/// How far the crawl got.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ProgressView {
    /// URLs fetched that answered.
    pub pages_done: u64,
    /// URLs waiting or being fetched.
    pub pages_queued: u64,
    /// URLs whose fetch failed.
    pub pages_failed: u64,
    /// URLs never fetched (robots.txt, scope).
    pub pages_skipped: u64,
}

/// A rule with findings.
#[derive(Debug, Serialize, JsonSchema)]
pub struct IssueView {
    /// The rule id.
    pub id: String,
    /// `site` or `page`.
    pub kind: String,
    /// `critical`, `warning` or `notice`.
    pub severity: String,
    /// Distinct URLs affected.
    pub count: u64,
}

/// Result: the crawl.
#[derive(Debug, Serialize, JsonSchema)]
pub struct StatusView {
    /// The crawl id.
    #[schemars(with = "String")]
    pub crawl_id: vocab::CrawlId,
    /// The start URL.
    pub url: String,
    /// `queued`, `running`, `completed`, `cancelled` or `failed`.
    pub state: String,
    /// Its counts.
    pub progress: ProgressView,
    /// When it started.
    #[schemars(with = "Option<String>")]
    pub started_at: Option<vocab::Timestamp>,
    /// When it ended.
    #[schemars(with = "Option<String>")]
    pub finished_at: Option<vocab::Timestamp>,
    /// 0-100 once it ended with pages audited.
    pub site_score: Option<u32>,
    /// Why it failed.
    pub error: Option<String>,
    /// Times it paused because the site's recent answers were mostly errors.
    pub error_pauses: u32,
    /// The pause under way because the site's recent answers were mostly errors (`state`
    /// stays `running`); `null` otherwise: as the REST crawl object's.
    pub paused: Option<api::crawls::CrawlPause>,
    /// The top issues: site rules first, then by severity and count.
    pub top_issues: Vec<IssueView>,
    /// The human report page.
    pub report_url: String,
    /// Every URL of the crawl (REST, cursor paging).
    pub pages_url: String,
}

impl StatusView {
    /// The view of a stored crawl with its issue counts (the first [`TOP_ISSUES`] kept).
    pub fn of(crawl: store::Crawl, issues: Vec<store::IssueCount>) -> StatusView {
        let p = crawl.progress;
        let (error_pauses, paused) = (super::wire::error_pauses(&crawl), super::wire::paused(&crawl));
        StatusView {
            error_pauses,
            paused,
            report_url: format!("/crawls/{}", crawl.id),
            pages_url: format!("/api/v1/crawls/{}/pages", crawl.id),
            crawl_id: crawl.id,
            url: crawl.url,
            state: crawl.state.as_str().to_string(),
            progress: ProgressView {
                pages_done: p.pages_done,
                pages_queued: p.pages_queued,
                pages_failed: p.pages_failed,
                pages_skipped: p.pages_skipped,
            },
            started_at: crawl.started_at,
            finished_at: crawl.finished_at,
            site_score: crawl.site_score,
            error: crawl.error,
            top_issues: issues
                .into_iter()
                .take(TOP_ISSUES)
                .map(|c| IssueView {
                    id: c.rule_id,
                    kind: kind_name(c.kind).to_string(),
                    severity: c.severity,
                    count: c.count,
                })
                .collect(),
        }
    }
}

impl Crawls {
    /// The report page's view of crawl `id` of `owner` (`GET /crawls/{id}`): its first
    /// [`REPORT_ISSUES`] issues with their URLs, the others with their count, and the page of
    /// its pages table that `table` asks for ([`super::table`]).
    ///
    /// # Errors
    /// `not_found` (no such crawl of `owner`), `overloaded`, or the store.
    pub async fn report_view(
        &self,
        owner: Option<&crate::UserId>,
        id: &CrawlId,
        table: TableQuery,
    ) -> Result<pages::crawl::CrawlView, AppError> {
        let crawl = self.owned(owner, id).await?;
        let counts = self.issue_counts(&crawl.id).await?;
        let mut issues = Vec::with_capacity(counts.len());
        for (i, c) in counts.iter().enumerate() {
            let urls = if i < REPORT_ISSUES {
                let page = self.issue(owner, &crawl.id, &c.rule_id, None, pages::crawl::URLS_PER_ISSUE).await?;
                page.findings.into_iter().map(|f| (f.url, f.linked_from, f.detail)).collect()
            } else {
                Vec::new()
            };
            issues.push(pages::crawl::CrawlIssueView {
                id: c.rule_id.clone(),
                kind: kind_name(c.kind).to_string(),
                severity: c.severity.clone(),
                count: c.count,
                urls,
            });
        }
        let found = self.page_table(&crawl.id, &table).await?;
        let extractors = super::wire::extractor_names(&crawl.options_json);
        let p = crawl.progress;
        Ok(pages::crawl::CrawlView {
            id: crawl.id.to_string(),
            url: crawl.url.clone(),
            state: crawl.state.as_str().to_string(),
            site_score: crawl.site_score,
            counts: [p.pages_done, p.pages_queued, p.pages_failed, p.pages_skipped],
            error: crawl.error.clone(),
            issues,
            pages: found
                .rows
                .into_iter()
                .map(|r| pages::crawl::CrawlPageView {
                    url: r.url,
                    status: r.status_code,
                    depth: r.depth,
                    inlinks: r.inlinks,
                    score: r.score,
                    failed: r.failed_rules.len(),
                    title: r.title,
                    reason: r.reason,
                    extracted: extractors
                        .iter()
                        .map(|name| r.extracted.iter().find(|(n, _)| n == name).and_then(|(_, v)| v.clone()))
                        .collect(),
                })
                .collect(),
            extractors,
            table: pages::crawl::TableView {
                sort: <&'static str>::from(table.sort).to_string(),
                descending: table.order == store::SortOrder::Desc,
                status: table.status.map(super::table::status_text).unwrap_or_default(),
                rule: table.rule.unwrap_or_default(),
                q: table.q.unwrap_or_default(),
                page: table.page,
                total: found.total,
                rows_per_page: super::table::TABLE_ROWS,
                rules: counts.iter().map(|c| c.rule_id.clone()).collect(),
            },
            share: None,
            charts: self.report_charts(owner, &crawl, &counts).await?,
        })
    }

    /// The page of crawl `crawl_id`'s pages table that `table` asks for, read by one bounded
    /// query of the store ([`store::Store::crawl_page_table`]: one crawl's rows, a page at a
    /// time, over indexes) in an audit slot as an analysis is, so that report pages cannot
    /// tie up more of the machine than audits can; one whose caller left is not run.
    ///
    /// # Errors
    /// `overloaded`, or the store.
    async fn page_table(&self, crawl_id: &str, table: &TableQuery) -> Result<store::PageTable, AppError> {
        let app = self.app.clone();
        let key = crawl_id.to_string();
        let query = table.store_query();
        self.app
            .compute(move |budget| -> Result<store::PageTable, AppError> {
                if budget.exhausted() {
                    return Err(AppError::internal("the pages table was stopped before it was read"));
                }
                app.check_db_file()?;
                Ok(app.store.crawl_page_table(&key, &query)?)
            })
            .await?
    }

    /// The report's charts: URLs by status, click depth and score band over every URL of the
    /// crawl (read from the store a batch at a time), affected URLs by severity and category
    /// from the issue counts, and the change since the owner's previous completed crawl of
    /// the site ([`Crawls::compare`], the route's and the agent tool's use case).
    ///
    /// # Errors
    /// The store.
    async fn report_charts(
        &self,
        owner: Option<&crate::UserId>,
        crawl: &store::Crawl,
        counts: &[store::IssueCount],
    ) -> Result<pages::crawl::CrawlCharts, AppError> {
        use pages::charts::Bar;
        use std::collections::BTreeMap;
        let key = crawl.id.clone();
        let (status, depth, scores) = self
            .app
            .db(move |s| {
                let (mut status, mut depth, mut scores) =
                    (BTreeMap::<(u16, String), u64>::new(), BTreeMap::<u32, u64>::new(), [0u64; 5]);
                let mut sitemap_only = 0;
                let mut after = None;
                loop {
                    let (rows, next) = s.crawl_pages(&key, after, store::CRAWL_SITE_BATCH)?;
                    for p in &rows {
                        let label = match (p.status_code, p.state.as_str()) {
                            (Some(code), _) => (code, code.to_string()),
                            (None, "skipped") => (u16::MAX, "skipped".to_string()),
                            (None, _) => (u16::MAX - 1, "no answer".to_string()),
                        };
                        *status.entry(label).or_default() += 1;
                        if p.state != "skipped" {
                            match p.depth {
                                Some(d) => *depth.entry(d).or_default() += 1,
                                None => sitemap_only += 1,
                            }
                        }
                        if let Some(score) = p.score {
                            let band = match score {
                                90.. => 0,
                                75..=89 => 1,
                                50..=74 => 2,
                                25..=49 => 3,
                                _ => 4,
                            };
                            scores[band] += 1;
                        }
                    }
                    match next {
                        Some(n) => after = Some(n),
                        None => return Ok((status, (depth, sitemap_only), scores)),
                    }
                }
            })
            .await?;
        let status = status
            .into_iter()
            .map(|((code, label), n)| Bar {
                label,
                value: n,
                class: match code {
                    200..=299 => "bar-good",
                    300..=399 => "bar-fair",
                    400..=599 => "bar-poor",
                    _ => "bar-plain",
                },
            })
            .collect();
        let (depths, sitemap_only) = depth;
        let mut depth: Vec<Bar> = depths.into_iter().map(|(d, n)| Bar::plain(format!("depth {d}"), n)).collect();
        if sitemap_only > 0 {
            depth.push(Bar::plain("sitemap only", sitemap_only));
        }
        let scores = ["90–100", "75–89", "50–74", "25–49", "0–24"]
            .into_iter()
            .zip(scores)
            .zip(["bar-good", "bar-fair", "bar-fair", "bar-poor", "bar-poor"])
            .map(|((label, value), class)| Bar { label: label.to_string(), value, class })
            .collect();
        let mut severity = [0u64; 3];
        let mut category = BTreeMap::<String, u64>::new();
        for c in counts {
            let i = match c.severity.as_str() {
                "critical" => 0,
                "warning" => 1,
                _ => 2,
            };
            severity[i] += c.count;
            // A page rule's category is its rule's; site rules judge the site as a whole.
            let name = match c.kind {
                store::IssueKind::Site => "Site-wide".to_string(),
                store::IssueKind::Page => audit_core::rule_by_id(&c.rule_id)
                    .and_then(|m| serde_json::to_value(m.category).ok())
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_else(|| "Other".to_string()),
            };
            *category.entry(name).or_default() += c.count;
        }
        let severity = ["critical", "warning", "notice"]
            .into_iter()
            .zip(severity)
            .zip(["bar-poor", "bar-fair", "bar-plain"])
            .map(|((label, value), class)| Bar { label: label.to_string(), value, class })
            .collect();
        let category = category.into_iter().map(|(name, n)| Bar::plain(name, n)).collect();
        let change = self.report_change(owner, crawl).await?;
        Ok(pages::crawl::CrawlCharts { status, depth, severity, category, scores, change })
    }

    /// The change since the owner's previous completed crawl of the site, for an ended crawl
    /// that has one.
    ///
    /// # Errors
    /// The store.
    async fn report_change(
        &self,
        owner: Option<&crate::UserId>,
        crawl: &store::Crawl,
    ) -> Result<Option<pages::crawl::CrawlChangeView>, AppError> {
        if crawl.state != store::CrawlState::Completed {
            return Ok(None);
        }
        let current = crawl.clone();
        let Some(previous) = self.app.db(move |s| super::change::previous_completed(s, &current)).await? else {
            return Ok(None);
        };
        let c = self.compare(owner, &crawl.id, &previous.id).await?;
        Ok(Some(pages::crawl::CrawlChangeView {
            against: previous.id.into_string(),
            site_scores: (c.against.site_score, c.crawl.site_score),
            counts: [
                c.new_findings,
                c.fixed_findings,
                c.pages_added.total,
                c.pages_gone.total,
                c.status_changes_total,
                c.indexability_changes_total,
            ],
        }))
    }
}
