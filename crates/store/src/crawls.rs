//! Site crawls (docs/API.md, "Site crawl"): the crawl rows, the frontier of each crawl (one
//! row per URL, [`CrawlFrontier`] is its [`crawl::FrontierStore`]), what the crawl keeps of
//! each fetched page (its record, links included), the inlinks of each linked URL, the URLs
//! its sitemaps list and its issues. A crawl's runner writes them in batches, one
//! transaction each ([`CrawlFrontier`], [`CrawlWriter`]).
//!
//! A crawl is queued ([`Store::queue_crawl`]) and started in order within the caps on
//! running crawls ([`Store::start_queued_crawls`]); it is then driven by one replica at a
//! time, the holder of its lease (taken when it starts, renewed while it runs, adopted by
//! another replica once it runs out: [`Store::adopt_crawls`]), like a workflow run (docs/ARCHITECTURE.md, "Replicas"). Pages
//! are claimed in the database ([`crawl::FrontierStore::claim`]: one statement, `FOR UPDATE
//! SKIP LOCKED` on PostgreSQL), each claim naming its worker; a page being fetched goes back
//! to the queue only when its worker no longer holds the crawl's lease, so each page is
//! fetched once however many replicas look at the crawl.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};

use crawl::{Counts, CrawledPage, Entry, FrontierStore, Source, State};
use rand::distributions::Alphanumeric;
use rand::rngs::OsRng;
use rand::Rng;
use serde::Serialize;
use time::OffsetDateTime;

use crate::clock::{self, format_rfc3339};
use crate::db::{OpenTx, Store};
use crate::error::{Error, Result};
use crate::sql::{args, Db, Row, Value};
use vocab::{CrawlId, Timestamp, UserId};

/// The tag of crawl ids and the random base62 characters after it: the vocabulary's.
pub use vocab::{CRAWL_ID_RANDOM_LEN, CRAWL_ID_TAG};
/// Times a crawl cut short (a restart, a replica gone) is resumed before it is failed with
/// reason [`crate::INTERRUPTED`]: a page that kills the process must not restart it forever.
pub const CRAWL_MAX_RESUMES: u32 = 5;

/// A new unguessable crawl id: [`CRAWL_ID_TAG`] and [`CRAWL_ID_RANDOM_LEN`] base62
/// characters from the operating system's CSPRNG.
pub fn generate_crawl_id() -> String {
    let mut id = String::with_capacity(CRAWL_ID_TAG.len() + CRAWL_ID_RANDOM_LEN);
    id.push_str(CRAWL_ID_TAG);
    id.extend(OsRng.sample_iter(&Alphanumeric).take(CRAWL_ID_RANDOM_LEN).map(char::from));
    id
}

/// Where a crawl is in its life: `queued -> running -> completed | cancelled | failed`.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    schemars::JsonSchema,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::Display,
    strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum CrawlState {
    /// Created, not started.
    Queued,
    /// Pages are being fetched.
    Running,
    /// Ended: every page in scope fetched, or a limit reached.
    Completed,
    /// Ended by `DELETE`: the pages done are kept.
    Cancelled,
    /// Ended without a result (`error` says why).
    Failed,
}

impl CrawlState {
    /// The stored and shown name.
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// No further transition leaves this state.
    pub fn is_terminal(self) -> bool {
        matches!(self, CrawlState::Completed | CrawlState::Cancelled | CrawlState::Failed)
    }
}

/// A crawl to create (state `queued`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewCrawl {
    /// Owner (`None`: anonymous).
    pub user_id: Option<UserId>,
    /// The start URL.
    pub url: String,
    /// The crawl's options as JSON text (the application's own format).
    pub options_json: String,
    /// Pages fetched at most.
    pub max_pages: u32,
}

/// Which of an owner's crawls to list ([`Store::list_user_crawls`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CrawlFilter {
    /// Only crawls in this state.
    pub state: Option<CrawlState>,
    /// Only crawls whose start URL is on this site: a lower-case host, with `:port` when the
    /// port is not the scheme's default. The caller checks that it holds only letters,
    /// digits, `.`, `-` and one `:` before digits (no `LIKE` wildcard).
    pub site: Option<String>,
    /// Only crawls listed after this one (its `created_at` and id): the paging cursor.
    pub before: Option<(Timestamp, CrawlId)>,
}

/// How many crawls may run at once ([`Store::start_queued_crawls`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CrawlCaps {
    /// Crawls `running` at once in all (every replica of one database together).
    pub running: usize,
    /// Crawls `running` at once of one requester (a key's owner, an anonymous network).
    pub per_requester: usize,
}

/// How far a crawl got, counted from its frontier (or, once its pages were pruned, as it
/// was counted then).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct CrawlProgress {
    /// URLs fetched that answered (any status).
    pub pages_done: u64,
    /// URLs waiting or being fetched.
    pub pages_queued: u64,
    /// URLs whose fetch failed (no answer).
    pub pages_failed: u64,
    /// URLs never fetched (robots.txt, scope).
    pub pages_skipped: u64,
}

/// A stored crawl.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Crawl {
    /// `cr_` + 22 base62 characters.
    pub id: CrawlId,
    /// Owner.
    pub user_id: Option<UserId>,
    /// The start URL.
    pub url: String,
    /// Where it is.
    pub state: CrawlState,
    /// Its options, as given to [`Store::create_crawl`].
    pub options_json: String,
    /// Pages fetched at most.
    pub max_pages: u32,
    /// The site score, once ended with pages audited.
    pub site_score: Option<u32>,
    /// The application's summary of the end (JSON text).
    pub summary_json: Option<String>,
    /// Why it failed.
    pub error: Option<String>,
    /// Times it was resumed after a restart or a replica's end.
    pub resumes: u32,
    /// When it was created.
    pub created_at: Timestamp,
    /// When it started running.
    pub started_at: Option<Timestamp>,
    /// When it ended.
    pub finished_at: Option<Timestamp>,
    /// Its frontier's counts.
    pub progress: CrawlProgress,
    /// When the retention sweep deleted its page rows (pages, inlinks, sitemap URLs), the
    /// crawl, its summary and its issues kept; `None` while they are kept.
    pub pages_pruned_at: Option<Timestamp>,
    /// The pause for errors under way ([`CrawlWriter::pause`]); `None` while the crawl goes
    /// on, and once it ended.
    pub pause: Option<CrawlPause>,
    /// The pauses for errors it took so far, every run of it together.
    pub error_pauses: u32,
}

/// A crawl's pause because its site's recent answers were mostly errors, as its row keeps it
/// while the pause lasts (docs/API.md, "Site crawl", "Politeness").
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CrawlPause {
    /// Why, in words: what share of which recent answers were errors (at most
    /// [`MAX_PAUSE_REASON_BYTES`]).
    pub reason: String,
    /// When the pause started.
    pub paused_at: Timestamp,
    /// When the crawl goes on.
    pub resumes_at: Timestamp,
}

/// The longest reason of a pause a crawl's row keeps: the runner's is one short sentence;
/// a longer one is cut at a character boundary, so the row stays small whatever it is given.
pub const MAX_PAUSE_REASON_BYTES: usize = 500;

/// `text` cut to at most `max` bytes at a character boundary.
fn cut(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// One URL of a crawl as listed (`GET /api/v1/crawls/{id}/pages`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CrawlPage {
    /// The paging cursor of this row (its insertion order).
    pub seq: i64,
    /// The normalised URL.
    pub url: String,
    /// The frontier state (`done`, `failed`, `skipped`, `queued`, `fetching`).
    pub state: String,
    /// The HTTP status.
    pub status_code: Option<u16>,
    /// Click depth (`None`: found in a sitemap only).
    pub depth: Option<u32>,
    /// Crawled pages linking to it, counted from the links recorded so far (a running crawl
    /// shows them as its pages are fetched).
    pub inlinks: u32,
    /// The page score (HTML pages).
    pub score: Option<u32>,
    /// The page title.
    pub title: Option<String>,
    /// The page rules it failed.
    pub failed_rules: Vec<String>,
    /// Why it failed or was skipped.
    pub reason: Option<String>,
    /// The page that linked to it first (or redirected to it).
    pub found_from: Option<String>,
    /// The `Location` of a redirect, normalised.
    pub redirect_to: Option<String>,
    /// How many times the crawl recorded this URL's fetch result (with its audit, for an
    /// HTML page): 1 for a URL fetched once, 0 for one never fetched (skipped).
    pub records: u32,
    /// The values of the crawl's extractors on this page, from its record
    /// (`crawl::CrawledPage::extracted`): empty for a page with none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub extracted: Vec<(String, Option<String>)>,
}

/// A fetched URL of a crawl as a comparison reads it ([`Store::crawl_page_facts`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageFact {
    /// The normalised URL.
    pub url: String,
    /// The HTTP status (`None`: no answer).
    pub status: Option<u16>,
    /// Answered 2xx with HTML and without `noindex`.
    pub indexable: bool,
}

/// Whether an issue comes from a page rule or a site rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, strum::EnumString, strum::IntoStaticStr)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum IssueKind {
    /// A page rule failed on the URL.
    Page,
    /// A site rule's finding.
    Site,
}

/// One affected URL of a rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CrawlIssue {
    /// Page or site rule.
    pub kind: IssueKind,
    /// The rule id.
    pub rule_id: String,
    /// `critical`, `warning` or `notice`.
    pub severity: String,
    /// The affected URL.
    pub url: String,
    /// The page that links to it (or names it), where there is one.
    pub linked_from: Option<String>,
    /// What is wrong, in a few words.
    pub detail: String,
    /// The elements a page rule's finding points at on the page, when it points at any.
    pub locations: Option<IssueLocations>,
}

/// The elements a page rule's finding points at, as a crawl keeps them: the first ones, each
/// a location as an audit lists it (docs/API.md, "The audit result"), and how many there are
/// in all. The store does not read the items; it keeps them within
/// [`MAX_ISSUE_LOCATIONS_BYTES`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct IssueLocations {
    /// How many elements the finding is about (at least as many as `items`).
    pub total: u32,
    /// The first of them.
    pub items: Vec<serde_json::Value>,
}

/// A page rule a recorded page failed, as [`Store::record_crawl_page`] writes it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FailedRule {
    /// The rule id.
    pub rule_id: String,
    /// `critical`, `warning` or `notice`.
    pub severity: String,
    /// The finding's title on the page.
    pub detail: String,
    /// The elements it points at, when it points at any.
    pub locations: Option<IssueLocations>,
}

/// A rule and how many URLs it affects in a crawl.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct IssueCount {
    /// The rule id.
    pub rule_id: String,
    /// Page or site rule.
    pub kind: IssueKind,
    /// `critical`, `warning` or `notice`.
    pub severity: String,
    /// Distinct affected URLs.
    pub count: u64,
}

/// What ends a crawl ([`Store::finish_crawl`]).
#[derive(Debug, Clone, PartialEq)]
pub struct CrawlEnd {
    /// `completed` or `failed` (a crawl cancelled meanwhile stays `cancelled`).
    pub state: CrawlState,
    /// The site score.
    pub site_score: Option<u32>,
    /// The application's summary (JSON text).
    pub summary_json: Option<String>,
    /// Why it failed.
    pub error: Option<String>,
    /// The site rules' findings (kind [`IssueKind::Site`]).
    pub site_issues: Vec<CrawlIssue>,
    /// The owner's webhook event to write in the same transaction, with its data.
    pub event: Option<(String, serde_json::Value)>,
}

const CRAWL_COLUMNS: &str = "id, user_id, url, state, options_json, max_pages, site_score, summary_json, error, \
                             resumes, created_at, started_at, finished_at, pages_pruned_at, pruned_progress, \
                             pause_reason, paused_at, resumes_at, error_pauses";

fn crawl_from_row(row: &Row<'_>) -> Result<Crawl> {
    let state: String = row.get(3)?;
    Ok(Crawl {
        id: row.get(0)?,
        user_id: row.get(1)?,
        url: row.get(2)?,
        state: state.parse().map_err(|_| Error::corrupt("crawls", format!("bad state {state:?}")))?,
        options_json: row.get(4)?,
        max_pages: row.get(5)?,
        site_score: row.get(6)?,
        summary_json: row.get(7)?,
        error: row.get(8)?,
        resumes: row.get(9)?,
        created_at: row.get(10)?,
        started_at: row.get(11)?,
        finished_at: row.get(12)?,
        pages_pruned_at: row.get(13)?,
        progress: match row.get::<Option<String>>(14)? {
            Some(json) => serde_json::from_str(&json)
                .map_err(|e| Error::corrupt("crawls", format!("bad pruned_progress: {e}")))?,
            None => CrawlProgress::default(),
        },
        pause: match (
            row.get::<Option<String>>(15)?,
            row.get::<Option<Timestamp>>(16)?,
            row.get::<Option<Timestamp>>(17)?,
        ) {
            (Some(reason), Some(paused_at), Some(resumes_at)) => Some(CrawlPause { reason, paused_at, resumes_at }),
            _ => None,
        },
        error_pauses: row.get(18)?,
    })
}

/// A crawl's URLs counted by state (`?1`: the crawl). Grouped by the queue index's first
/// column after crawl_id, whose depth it also holds: read from the index alone, in its
/// order, with no sort.
pub(crate) const COUNT_ENTRIES: &str =
    "SELECT state, COUNT(*), COUNT(depth) FROM crawl_pages WHERE crawl_id = ?1 GROUP BY state";

/// The deepest depth among crawl `?1`'s queued URLs that have one: the last entry of the
/// queue index's part for (crawl, `queued`) with a depth, one look-up.
pub(crate) const DEEPEST_QUEUED: &str =
    "SELECT MAX(depth) FROM crawl_pages WHERE crawl_id = ?1 AND state = 'queued' AND depth IS NOT NULL";

fn counts_of(db: &Db<'_>, crawl_id: &str) -> Result<Counts> {
    let rows = db.query_map(COUNT_ENTRIES, args![crawl_id], |row| {
        Ok((row.get::<String>(0)?, row.get::<u64>(1)?, row.get::<u64>(2)?))
    })?;
    let mut c = Counts::default();
    for (state, n, linked) in rows {
        let state: State = state.parse().map_err(|_| Error::corrupt("crawl_pages", format!("bad state {state:?}")))?;
        let unlinked = n.saturating_sub(linked);
        match state {
            State::Queued => {
                c.queued += n;
                c.queued_unlinked += unlinked;
            }
            State::Fetching => {
                c.fetching += n;
                c.fetching_unlinked += unlinked;
            }
            State::Done => c.done += n,
            State::Failed => c.failed += n,
            State::Skipped => c.skipped += n,
        }
    }
    Ok(c)
}

pub(crate) fn load_crawl(db: &Db<'_>, id: &str) -> Result<Crawl> {
    let mut crawl = db
        .query_opt(&format!("SELECT {CRAWL_COLUMNS} FROM crawls WHERE id = ?1"), args![id], crawl_from_row)?
        .ok_or_else(|| Error::not_found("crawl", id))?;
    if crawl.pages_pruned_at.is_some() {
        // Its pages are gone: the counts are those kept when they were pruned.
        return Ok(crawl);
    }
    let c = counts_of(db, id)?;
    crawl.progress = CrawlProgress {
        pages_done: c.done,
        pages_queued: c.queued + c.fetching,
        pages_failed: c.failed,
        pages_skipped: c.skipped,
    };
    Ok(crawl)
}

/// Crawl `id` with its progress when it has ended (`None`: gone or not ended), for the
/// retention sweep, which keeps its counts before deleting its pages.
pub(crate) fn load_ended(db: &Db<'_>, id: &str) -> Result<Option<Crawl>> {
    match load_crawl(db, id) {
        Ok(crawl) if crawl.finished_at.is_some() && crawl.pages_pruned_at.is_none() => Ok(Some(crawl)),
        Ok(_) | Err(Error::NotFound { .. }) => Ok(None),
        Err(e) => Err(e),
    }
}

/// The columns [`entry_from_row`] reads, in its order (a macro, for `concat!`).
macro_rules! entry_columns {
    () => {
        "url, depth, found_from, source, state, status, reason"
    };
}
const ENTRY_COLUMNS: &str = entry_columns!();

// The frontier's statements besides its claims ([`claim_sql`]) and counts ([`COUNT_ENTRIES`]):
// each reads one row by the crawl's primary key (crawl, URL), or the few being fetched by the
// queue index, never a scan however many URLs the crawl has queued (their plans are tested
// on both databases in `frontier_plans`).

/// One entry (`?1` the crawl, `?2` the URL).
pub(crate) const GET_ENTRY: &str =
    concat!("SELECT ", entry_columns!(), " FROM crawl_pages WHERE crawl_id = ?1 AND url = ?2");

/// Queues (or records) a URL unless the crawl knows it: the conflict is found on the
/// primary key.
pub(crate) const INSERT_ENTRY: &str = "INSERT INTO crawl_pages (crawl_id, url, depth, found_from, source, state, \
                                       status, reason, claimed_by) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) \
                                       ON CONFLICT (crawl_id, url) DO NOTHING";

/// An entry's new state.
pub(crate) const UPDATE_ENTRY: &str = "UPDATE crawl_pages SET depth = ?3, found_from = ?4, source = ?5, state = ?6, \
                                       status = ?7, reason = ?8, claimed_by = ?9 WHERE crawl_id = ?1 AND url = ?2";

/// A queued sitemap URL a link reaches: it gets the link's depth.
pub(crate) const PROMOTE_UNLINKED: &str = "UPDATE crawl_pages SET depth = ?3, found_from = ?4, source = ?5 \
                                           WHERE crawl_id = ?1 AND url = ?2 AND state = 'queued' AND depth IS NULL";

/// A queued URL reached by a shorter path, or linked on its own level from a page whose URL
/// sorts before its parent's (the least URL of a level names the parent; `found_from` is
/// compared byte by byte: SQLite's BINARY, PostgreSQL's `COLLATE "C"` column).
pub(crate) const PROMOTE_SHALLOWER: &str = "UPDATE crawl_pages SET depth = ?3, found_from = ?4, source = ?5 \
                                            WHERE crawl_id = ?1 AND url = ?2 AND state = 'queued' \
                                            AND (depth > ?3 OR (depth = ?3 AND found_from > ?4 AND ?5 = 'link'))";

/// Puts back to the queue the entries of crawl `?1` being fetched under a claim that no
/// longer counts (`?2` the worker asking, `?3` now): on the queue index, by state.
pub(crate) const REQUEUE_FETCHING: &str = "UPDATE crawl_pages SET state = 'queued', claimed_by = NULL \
                                           WHERE crawl_id = ?1 AND state = 'fetching' AND (claimed_by IS NULL \
                                           OR (claimed_by <> ?2 AND NOT EXISTS (SELECT 1 FROM crawls c \
                                           WHERE c.id = ?1 AND c.claimed_by = crawl_pages.claimed_by \
                                           AND c.claimed_until > ?3)))";

fn entry_from_row(row: &Row<'_>) -> Result<Entry> {
    let (source, state): (String, String) = (row.get(3)?, row.get(4)?);
    let bad = |what: &str, v: &str| Error::corrupt("crawl_pages", format!("bad {what} {v:?}"));
    Ok(Entry {
        url: row.get(0)?,
        depth: row.get(1)?,
        found_from: row.get(2)?,
        source: source.parse().map_err(|_| bad("source", &source))?,
        state: state.parse().map_err(|_| bad("state", &state))?,
        status: row.get(5)?,
        reason: row.get(6)?,
    })
}

impl Store {
    /// Creates a crawl in state `queued` with its lease taken by `worker` until
    /// `lease_until`, outside the queue (tests that set up a crawl as a replica left it; the
    /// service queues crawls with [`Store::queue_crawl`]).
    pub fn create_crawl(&self, new: NewCrawl, worker: &str, lease_until: OffsetDateTime) -> Result<Crawl> {
        let id = generate_crawl_id();
        let (now, until) = (clock::now_rfc3339(), format_rfc3339(lease_until));
        self.write(|tx| {
            tx.execute(
                "INSERT INTO crawls (id, user_id, url, state, options_json, max_pages, created_at, claimed_by, \
                 claimed_until) VALUES (?1, ?2, ?3, 'queued', ?4, ?5, ?6, ?7, ?8)",
                args![id, new.user_id, new.url, new.options_json, new.max_pages, now, worker, until],
            )?;
            load_crawl(tx, &id)
        })
    }

    /// Creates a crawl in state `queued` with no lease: it waits for
    /// [`Store::start_queued_crawls`] to start it, in the order crawls were created, once
    /// fewer crawls run than the caps allow.
    pub fn queue_crawl(&self, new: NewCrawl) -> Result<Crawl> {
        let id = generate_crawl_id();
        let now = clock::now_rfc3339();
        self.write(|tx| {
            tx.execute(
                "INSERT INTO crawls (id, user_id, url, state, options_json, max_pages, created_at) \
                 VALUES (?1, ?2, ?3, 'queued', ?4, ?5, ?6)",
                args![id, new.user_id, new.url, new.options_json, new.max_pages, now],
            )?;
            load_crawl(tx, &id)
        })
    }

    /// Starts `queued` crawls, oldest first, while fewer than `caps.running` crawls are
    /// `running` in all and fewer than `caps.per_requester` of the same requester (as
    /// `requester` names it from a crawl's owner and options): each goes to `worker` until
    /// `lease_until`, `running`, and is returned to be driven. A crawl whose requester is at
    /// its cap is passed over (it waits), so one caller's queue never holds up another's;
    /// once the total is reached nothing more starts. One transaction (serializable on
    /// PostgreSQL), so replicas starting crawls at once never go over the caps together.
    pub fn start_queued_crawls(
        &self,
        worker: &str,
        lease_until: OffsetDateTime,
        caps: CrawlCaps,
        requester: &dyn Fn(Option<&str>, &str) -> String,
    ) -> Result<Vec<String>> {
        let until = format_rfc3339(lease_until);
        self.write(|tx| {
            let live = tx.query_map(
                "SELECT id, user_id, options_json, state FROM crawls WHERE state IN ('queued', 'running') \
                 ORDER BY rowid",
                args![],
                |row| {
                    Ok((
                        row.get::<String>(0)?,
                        row.get::<Option<String>>(1)?,
                        row.get::<String>(2)?,
                        row.get::<String>(3)? == "running",
                    ))
                },
            )?;
            let mut per: HashMap<String, usize> = HashMap::new();
            let mut running = 0usize;
            for (_, user, options, is_running) in &live {
                if *is_running {
                    running += 1;
                    *per.entry(requester(user.as_deref(), options)).or_default() += 1;
                }
            }
            let now = clock::now_rfc3339();
            let mut started = Vec::new();
            for (id, user, options, is_running) in live {
                if running >= caps.running {
                    break;
                }
                let n = per.entry(requester(user.as_deref(), &options)).or_default();
                if is_running || *n >= caps.per_requester {
                    continue;
                }
                tx.execute(
                    "UPDATE crawls SET state = 'running', started_at = COALESCE(started_at, ?2), \
                     claimed_by = ?3, claimed_until = ?4 WHERE id = ?1 AND state = 'queued'",
                    args![id, now, worker, until],
                )?;
                *n += 1;
                running += 1;
                started.push(id);
            }
            Ok(started)
        })
    }

    /// The crawl with its progress, or [`Error::NotFound`].
    pub fn get_crawl(&self, id: &str) -> Result<Crawl> {
        self.read(|db| load_crawl(db, id))
    }

    /// The crawls of `user_id`, newest first, at most `limit`.
    pub fn list_crawls(&self, user_id: &str, limit: usize) -> Result<Vec<Crawl>> {
        self.read(|db| {
            let ids = db.query_map(
                "SELECT id FROM crawls WHERE user_id = ?1 ORDER BY created_at DESC, id LIMIT ?2",
                args![user_id, limit],
                |row| row.get::<String>(0),
            )?;
            ids.iter().map(|id| load_crawl(db, id)).collect()
        })
    }

    /// Up to `limit` crawls of `user_id` that pass `filter`, newest first (by creation, then
    /// id, both descending): a page of `GET /api/v1/crawls`.
    pub fn list_user_crawls(&self, user_id: &str, filter: &CrawlFilter, limit: usize) -> Result<Vec<Crawl>> {
        let mut clauses = vec!["user_id = ?".to_owned()];
        let mut values: Vec<Value<'_>> = vec![Value::Text(user_id.into())];
        if let Some(state) = filter.state {
            clauses.push("state = ?".to_owned());
            values.push(Value::Text(state.as_str().into()));
        }
        if let Some(site) = &filter.site {
            // The start URL is stored normalised (lower-case host, no default port), so a
            // site is a prefix of it; the caller's `site` holds no `%`, `_` or `\`
            // ([`CrawlFilter::site`]), so the patterns match literally up to their last `%`.
            let mut patterns = vec![format!("http://{site}/%"), format!("https://{site}/%")];
            if !site.contains(':') {
                patterns.push(format!("http://{site}:%"));
                patterns.push(format!("https://{site}:%"));
            }
            clauses.push(format!("({})", vec!["url LIKE ?"; patterns.len()].join(" OR ")));
            values.extend(patterns.into_iter().map(|p| Value::Text(p.into())));
        }
        if let Some((created_at, id)) = &filter.before {
            clauses.push("(created_at, id) < (?, ?)".to_owned());
            values.push(Value::Text(created_at.to_string().into()));
            values.push(Value::Text(id.to_string().into()));
        }
        values.push(Value::Int(i64::try_from(limit).unwrap_or(i64::MAX)));
        let sql =
            format!("SELECT id FROM crawls WHERE {} ORDER BY created_at DESC, id DESC LIMIT ?", clauses.join(" AND "));
        self.read(|db| {
            let ids = db.query_map(&sql, &values, |row| row.get::<String>(0))?;
            ids.iter().map(|id| load_crawl(db, id)).collect()
        })
    }

    /// The newest completed crawl made without a key (a public one, as audits made without a
    /// key are) whose start URL is on one of `hosts` (lower case, e.g. a domain and its
    /// `www.` form), for the domain's report page. Crawls made with a key are never returned,
    /// nor crawls whose start URL has a query string or fragment: the report is public, and
    /// such a URL often carries a private value of whoever started the crawl (a session id,
    /// a token), which the crawl's pages would show.
    pub fn newest_public_crawl(&self, hosts: &[String]) -> Result<Option<Crawl>> {
        /// Candidates looked at: the newest public completed crawls whose URL starts like a
        /// host's (`LIKE` is only a first sieve: `_` matches any character, the host is then
        /// compared exactly).
        const CANDIDATES: usize = 50;
        self.read(|db| {
            let mut newest: Option<Crawl> = None;
            for host in hosts {
                let candidates = db.query_map(
                    "SELECT id, url FROM crawls WHERE user_id IS NULL AND state = 'completed' \
                     AND (url LIKE ?1 OR url LIKE ?2) ORDER BY finished_at DESC, id LIMIT ?3",
                    args![format!("http://{host}%"), format!("https://{host}%"), CANDIDATES],
                    |row| Ok((row.get::<String>(0)?, row.get::<String>(1)?)),
                )?;
                let on_host = candidates.into_iter().find(|(_, url)| {
                    url::Url::parse(url).ok().is_some_and(|u| {
                        u.query().is_none()
                            && u.fragment().is_none()
                            && u.host_str().map(str::to_ascii_lowercase).as_deref() == Some(host.as_str())
                    })
                });
                if let Some((id, _)) = on_host {
                    let crawl = load_crawl(db, &id)?;
                    if newest.as_ref().is_none_or(|n| crawl.finished_at > n.finished_at) {
                        newest = Some(crawl);
                    }
                }
            }
            Ok(newest)
        })
    }

    /// Moves a `queued` crawl to `running` (its start time set once); `false` when it was not
    /// `queued` or `running` (cancelled meanwhile).
    pub fn start_crawl(&self, id: &str) -> Result<bool> {
        let n = self.write_each(|db| {
            db.execute(
                "UPDATE crawls SET state = 'running', started_at = COALESCE(started_at, ?2) \
                 WHERE id = ?1 AND state IN ('queued', 'running')",
                args![id, clock::now_rfc3339()],
            )
        })?;
        Ok(n > 0)
    }

    /// Extends `worker`'s lease on crawl `id` (the driver's heartbeat); `false` when the
    /// worker no longer holds it or the crawl ended: the worker must stop driving it.
    pub fn renew_crawl_lease(&self, id: &str, worker: &str, lease_until: OffsetDateTime) -> Result<bool> {
        self.write_each(|db| crate::lease::CRAWLS.renew(db, id, worker, lease_until))
    }

    /// Gives up `worker`'s lease on crawl `id`.
    pub fn release_crawl(&self, id: &str, worker: &str) -> Result<()> {
        self.write_each(|db| crate::lease::CRAWLS.release(db, id, worker))
    }

    /// Who holds crawl `id`'s lease and until when (`None`: nobody).
    pub fn crawl_lease(&self, id: &str) -> Result<Option<(String, OffsetDateTime)>> {
        self.read(|db| crate::lease::CRAWLS.holder(db, id))
    }

    /// Takes over the `running` crawls whose lease ran out before `expired_at`
    /// (or that nobody holds; `expired_at: None`: every such crawl, for a process alone on
    /// its database at start-up): each goes to `worker` until `lease_until`, `running`, its
    /// count of resumes raised, and is returned to be driven; one resumed
    /// [`CRAWL_MAX_RESUMES`] times already is `failed` with reason [`crate::INTERRUPTED`]
    /// instead. On PostgreSQL the crawls are taken with `FOR UPDATE SKIP LOCKED`, so
    /// replicas sweeping at once take disjoint crawls.
    pub fn adopt_crawls(
        &self,
        worker: &str,
        expired_at: Option<OffsetDateTime>,
        lease_until: OffsetDateTime,
    ) -> Result<Vec<String>> {
        let until = format_rfc3339(lease_until);
        // "9999" sorts after every RFC 3339 timestamp: every lease counts as run out.
        let expired = expired_at.map_or_else(|| "9999".to_string(), format_rfc3339);
        self.write(|tx| {
            let mut sql = String::from(
                // Queued crawls are not taken here: they start in order, within the caps
                // ([`Store::start_queued_crawls`]).
                "SELECT id, resumes FROM crawls WHERE state = 'running' \
                 AND (claimed_until IS NULL OR claimed_until <= ?1) ORDER BY rowid",
            );
            if tx.is_postgres() {
                sql.push_str(" FOR UPDATE SKIP LOCKED");
            }
            let crawls = tx.query_map(&sql, args![expired], |row| Ok((row.get::<String>(0)?, row.get::<u32>(1)?)))?;
            let now = clock::now_rfc3339();
            let mut adopted = Vec::new();
            for (id, resumes) in crawls {
                if resumes >= CRAWL_MAX_RESUMES {
                    tx.execute(
                        "UPDATE crawls SET state = 'failed', error = ?2, finished_at = ?3, claimed_by = NULL, \
                         claimed_until = NULL WHERE id = ?1",
                        args![id, crate::INTERRUPTED, now],
                    )?;
                    continue;
                }
                tx.execute(
                    // A pause of the run that stopped is over: the new run judges the
                    // site's answers afresh.
                    "UPDATE crawls SET state = 'running', started_at = COALESCE(started_at, ?2), \
                     resumes = resumes + 1, claimed_by = ?3, claimed_until = ?4, \
                     pause_reason = NULL, paused_at = NULL, resumes_at = NULL WHERE id = ?1",
                    args![id, now, worker, until],
                )?;
                adopted.push(id);
            }
            Ok(adopted)
        })
    }

    /// Cancels crawl `id` when it is `queued` or `running` (its pages are kept); returns the
    /// crawl as it is now (unchanged when it had ended already).
    pub fn cancel_crawl(&self, id: &str) -> Result<Crawl> {
        self.write(|tx| {
            tx.execute(
                "UPDATE crawls SET state = 'cancelled', finished_at = ?2, pause_reason = NULL, paused_at = NULL, \
                 resumes_at = NULL WHERE id = ?1 AND state IN ('queued', 'running')",
                args![id, clock::now_rfc3339()],
            )?;
            load_crawl(tx, id)
        })
    }

    /// Ends crawl `id` held by `worker`, in one transaction: its site issues replaced by `end.site_issues`, its state, score, summary and
    /// error written (a crawl cancelled meanwhile stays `cancelled`, with the score of what
    /// it has), its lease given up, and `end.event` written to the owner's webhook outbox.
    /// `false` (nothing written) when `worker` no longer holds the crawl's lease.
    pub fn finish_crawl(&self, id: &str, worker: &str, end: &CrawlEnd) -> Result<bool> {
        self.write(|tx| {
            let now = clock::now_rfc3339();
            let n = tx.execute(
                "UPDATE crawls SET state = CASE WHEN state = 'cancelled' THEN state ELSE ?3 END, \
                 site_score = ?4, summary_json = ?5, error = ?6, finished_at = COALESCE(finished_at, ?7), \
                 claimed_by = NULL, claimed_until = NULL, pause_reason = NULL, paused_at = NULL, resumes_at = NULL \
                 WHERE id = ?1 AND claimed_by = ?2",
                args![id, worker, end.state.as_str(), end.site_score, end.summary_json, end.error, now],
            )?;
            if n == 0 {
                return Ok(false);
            }
            // The pages' inlinks are not copied into `crawl_pages.inlinks` here: every read
            // counts them from `crawl_inlinks` (running and finished crawls alike), and the copy
            // rewrote every row of the crawl with its record, the whole store again in one
            // transaction (a log of 9 GB and more than ten minutes after a million pages,
            // docs/PERFORMANCE.md, "A million pages"). The column stays, unread: dropping it
            // would rewrite every crawl's pages in a migration.
            tx.execute("DELETE FROM crawl_issues WHERE crawl_id = ?1 AND kind = 'site'", args![id])?;
            for issue in &end.site_issues {
                insert_issue(tx, id, IssueKind::Site, issue)?;
            }
            if let Some((event, data)) = &end.event {
                if let Some(owner) = crate::webhooks::owner_of(tx, "crawls", id)? {
                    crate::webhooks::enqueue_event(tx, &owner, event, data, OffsetDateTime::now_utc())?;
                }
            }
            Ok(true)
        })
    }

    /// Writes what the crawl keeps of a fetched URL (its record, with its links), and the
    /// page rules it failed (each with its message and the elements it points at), in one transaction; writing a
    /// URL again (a page fetched again after a restart) replaces its facts and counts one
    /// more record ([`CrawlPage::records`]). A crawl's runner writes through its frontier's
    /// [`CrawlWriter`] instead, in the frontier's batch.
    pub fn record_crawl_page(&self, crawl_id: &str, record: &CrawledPage, failed_rules: &[FailedRule]) -> Result<()> {
        PageRow::of(record, failed_rules)?.write_alone(self, crawl_id)
    }

    /// Records URLs a sitemap of crawl `crawl_id` lists (each once).
    pub fn add_crawl_sitemap_urls(&self, crawl_id: &str, urls: &[String]) -> Result<()> {
        if urls.is_empty() {
            return Ok(());
        }
        self.write(|tx| insert_sitemap_urls(tx, crawl_id, urls))
    }

    /// Up to `limit` URLs of crawl `crawl_id` that were fetched or skipped, in crawl order,
    /// after the row of cursor `after`; the cursor of the next page when there is more. The
    /// inlinks are counted from the links recorded so far, so a running crawl has them.
    pub fn crawl_pages(
        &self,
        crawl_id: &str,
        after: Option<i64>,
        limit: usize,
    ) -> Result<(Vec<CrawlPage>, Option<i64>)> {
        let mut rows: Vec<(CrawlPage, Option<String>)> = self.read(|db| {
            db.query_map(
                "SELECT p.rowid, p.url, p.state, p.status, p.depth, COALESCE((SELECT i.n FROM crawl_inlinks i \
                 WHERE i.crawl_id = p.crawl_id AND i.url = p.url), 0), p.score, p.title, \
                 p.failed_rules, p.reason, p.found_from, p.record_json, p.records FROM crawl_pages p \
                 WHERE p.crawl_id = ?1 AND p.state IN ('done', 'failed', 'skipped') AND p.rowid > ?2 \
                 ORDER BY p.rowid LIMIT ?3",
                args![crawl_id, after.unwrap_or(-1), limit + 1],
                |row| {
                    let failed: String = row.get(8)?;
                    Ok((
                        CrawlPage {
                            seq: row.get(0)?,
                            url: row.get(1)?,
                            state: row.get(2)?,
                            status_code: row.get(3)?,
                            depth: row.get(4)?,
                            inlinks: row.get(5)?,
                            score: row.get(6)?,
                            title: row.get(7)?,
                            failed_rules: serde_json::from_str(&failed)
                                .map_err(|e| Error::corrupt("crawl_pages", e.to_string()))?,
                            reason: row.get(9)?,
                            found_from: row.get(10)?,
                            redirect_to: None,
                            records: row.get(12)?,
                            extracted: Vec::new(),
                        },
                        row.get(11)?,
                    ))
                },
            )
        })?;
        let next = (rows.len() > limit).then(|| rows[limit - 1].0.seq);
        rows.truncate(limit);
        Ok((
            rows.into_iter()
                .map(|(mut page, record)| {
                    if let Some(record) = record.and_then(|r| serde_json::from_str::<ListedFacts>(&r).ok()) {
                        page.redirect_to = record.redirect_to;
                        page.extracted = record.extracted;
                    }
                    page
                })
                .collect(),
            next.filter(|_| limit > 0),
        ))
    }

    /// What a comparison of crawl `crawl_id` with another reads of its pages: every URL
    /// fetched (answered or failed), in URL order, with its status and whether it is
    /// indexable (answered 2xx with HTML and no `noindex`).
    pub fn crawl_page_facts(&self, crawl_id: &str) -> Result<Vec<PageFact>> {
        self.read(|db| {
            db.query_map(
                "SELECT url, status, html, record_json FROM crawl_pages \
                 WHERE crawl_id = ?1 AND state IN ('done', 'failed') ORDER BY url",
                args![crawl_id],
                |row| {
                    let (url, status, html): (String, Option<u16>, bool) = (row.get(0)?, row.get(1)?, row.get(2)?);
                    let record: Option<String> = row.get(3)?;
                    let noindex =
                        record.and_then(|r| serde_json::from_str::<ListedFacts>(&r).ok()).is_some_and(|r| r.noindex);
                    let indexable = html && status.is_some_and(|s| (200..300).contains(&s)) && !noindex;
                    Ok(PageFact { url, status, indexable })
                },
            )
        })
    }

    /// Every distinct (rule, kind, severity, URL) finding of crawl `crawl_id`, page and site
    /// rules alike, in rule and URL order: what a comparison reads of its issues.
    pub fn crawl_finding_urls(&self, crawl_id: &str) -> Result<Vec<(String, IssueKind, String, String)>> {
        self.read(|db| {
            db.query_map(
                "SELECT DISTINCT rule_id, kind, severity, url FROM crawl_issues WHERE crawl_id = ?1 \
                 ORDER BY rule_id, url",
                args![crawl_id],
                |row| {
                    let kind: String = row.get(1)?;
                    Ok((
                        row.get(0)?,
                        kind.parse().map_err(|_| Error::corrupt("crawl_issues", format!("bad kind {kind:?}")))?,
                        row.get(2)?,
                        row.get(3)?,
                    ))
                },
            )
        })
    }

    /// The rules with findings in crawl `crawl_id`, with the distinct URLs each affects:
    /// site rules first, then by severity (critical first) and count.
    pub fn crawl_issue_counts(&self, crawl_id: &str) -> Result<Vec<IssueCount>> {
        let mut counts = self.read(|db| {
            db.query_map(
                "SELECT rule_id, kind, severity, COUNT(DISTINCT url) FROM crawl_issues WHERE crawl_id = ?1 \
                 GROUP BY rule_id, kind, severity",
                args![crawl_id],
                |row| {
                    let kind: String = row.get(1)?;
                    Ok(IssueCount {
                        rule_id: row.get(0)?,
                        kind: kind.parse().map_err(|_| Error::corrupt("crawl_issues", format!("bad kind {kind:?}")))?,
                        severity: row.get(2)?,
                        count: row.get(3)?,
                    })
                },
            )
        })?;
        let rank = |s: &str| match s {
            "critical" => 0,
            "warning" => 1,
            _ => 2,
        };
        counts.sort_by(|a, b| {
            (a.kind != IssueKind::Site, rank(&a.severity), std::cmp::Reverse(a.count), &a.rule_id).cmp(&(
                b.kind != IssueKind::Site,
                rank(&b.severity),
                std::cmp::Reverse(b.count),
                &b.rule_id,
            ))
        });
        Ok(counts)
    }

    /// Up to `limit` findings of rule `rule_id` in crawl `crawl_id` after cursor `after`
    /// (in the order they were written); the cursor of the next page when there is more.
    pub fn crawl_issues(
        &self,
        crawl_id: &str,
        rule_id: &str,
        after: Option<i64>,
        limit: usize,
    ) -> Result<(Vec<CrawlIssue>, Option<i64>)> {
        let mut rows: Vec<(i64, CrawlIssue)> = self.read(|db| {
            db.query_map(
                "SELECT rowid, kind, rule_id, severity, url, linked_from, detail, locations FROM crawl_issues \
                 WHERE crawl_id = ?1 AND rule_id = ?2 AND rowid > ?3 ORDER BY rowid LIMIT ?4",
                args![crawl_id, rule_id, after.unwrap_or(-1), limit + 1],
                |row| {
                    let kind: String = row.get(1)?;
                    Ok((
                        row.get(0)?,
                        CrawlIssue {
                            kind: kind
                                .parse()
                                .map_err(|_| Error::corrupt("crawl_issues", format!("bad kind {kind:?}")))?,
                            rule_id: row.get(2)?,
                            severity: row.get(3)?,
                            url: row.get(4)?,
                            linked_from: row.get(5)?,
                            detail: row.get(6)?,
                            locations: row
                                .get::<Option<String>>(7)?
                                .map(|text| {
                                    serde_json::from_str(&text)
                                        .map_err(|e| Error::corrupt("crawl_issues", format!("bad locations: {e}")))
                                })
                                .transpose()?,
                        },
                    ))
                },
            )
        })?;
        let next = (rows.len() > limit && limit > 0).then(|| rows[limit - 1].0);
        rows.truncate(limit);
        Ok((rows.into_iter().map(|(_, i)| i).collect(), next))
    }
}

/// Bytes of a finding's `detail` a `crawl_issues` row keeps. A detail is a few words and the
/// URLs or texts a rule names, each already bounded in the page's record (URLs at
/// `crawl::MAX_RECORDED_URL_BYTES`, titles at `crawl::MAX_RECORDED_TEXT_BYTES`; a duplicate
/// rule names three other pages at most); this bound makes the row's size a guarantee rather
/// than a consequence of every rule's wording (docs/SECURITY.md). A longer detail is cut at a
/// character boundary and ends with `…`, so that the cut shows.
pub const MAX_ISSUE_DETAIL_BYTES: usize = 8 * 1024;

/// `detail` within [`MAX_ISSUE_DETAIL_BYTES`] (the `…` that marks a cut included).
fn bounded_detail(detail: &str) -> std::borrow::Cow<'_, str> {
    if detail.len() <= MAX_ISSUE_DETAIL_BYTES {
        return detail.into();
    }
    crawl::cut_marked(detail, MAX_ISSUE_DETAIL_BYTES).into()
}

/// Bytes of JSON of a finding's locations a `crawl_issues` row keeps. An audit lists at most
/// 50 elements, each a snippet of at most 200 characters and a selector; this bound makes
/// the row's size a guarantee (docs/SECURITY.md). Past it, the last items are left out, and
/// `total` still says how many there are, so that the cut shows.
pub const MAX_ISSUE_LOCATIONS_BYTES: usize = 16 * 1024;

/// `locations` as the JSON a row keeps, within [`MAX_ISSUE_LOCATIONS_BYTES`]; `None` when
/// there are none.
fn bounded_locations(locations: Option<&IssueLocations>) -> Result<Option<String>> {
    let Some(locations) = locations.filter(|l| l.total > 0 || !l.items.is_empty()) else {
        return Ok(None);
    };
    let encode = |l: &IssueLocations| serde_json::to_string(l).map_err(|e| Error::invalid("locations", e.to_string()));
    let total = locations.total.max(u32::try_from(locations.items.len()).unwrap_or(u32::MAX));
    let mut kept = IssueLocations { total, items: locations.items.clone() };
    let mut text = encode(&kept)?;
    while text.len() > MAX_ISSUE_LOCATIONS_BYTES && !kept.items.is_empty() {
        // Items are about the same size: drop as many as the excess suggests, one at least.
        let excess = text.len() - MAX_ISSUE_LOCATIONS_BYTES;
        let each = text.len() / kept.items.len().max(1);
        let drop = (excess / each.max(1)).max(1).min(kept.items.len());
        kept.items.truncate(kept.items.len() - drop);
        text = encode(&kept)?;
    }
    Ok(Some(text))
}

fn insert_issue(tx: &Db<'_>, crawl_id: &str, kind: IssueKind, issue: &CrawlIssue) -> Result<()> {
    let kind: &'static str = kind.into();
    let detail = bounded_detail(&issue.detail);
    let locations = bounded_locations(issue.locations.as_ref())?;
    tx.execute(
        "INSERT INTO crawl_issues (crawl_id, kind, rule_id, severity, url, linked_from, detail, locations) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        args![crawl_id, kind, issue.rule_id, issue.severity, issue.url, issue.linked_from, detail.as_ref(), locations],
    )?;
    Ok(())
}

/// Inserts `urls` of a sitemap of crawl `crawl_id` (each once).
fn insert_sitemap_urls(db: &Db<'_>, crawl_id: &str, urls: &[String]) -> Result<()> {
    for url in urls {
        db.execute(
            "INSERT INTO crawl_sitemap_urls (crawl_id, url) VALUES (?1, ?2) ON CONFLICT (crawl_id, url) DO NOTHING",
            args![crawl_id, url],
        )?;
    }
    Ok(())
}

/// The rows of one recorded page, encoded before any transaction opens.
struct PageRow<'a> {
    record: &'a CrawledPage,
    failed_rules: &'a [FailedRule],
    record_json: String,
    failed_json: String,
}

/// Values one statement lists at most: a list of more is split in lists of 64, and a
/// shorter one padded to the next power of two (repeating its last value), so that a
/// statement has one of seven texts, each prepared once per connection.
pub(crate) const IN_ROWS: usize = 64;

/// `head`, then `values` (at most [`IN_ROWS`], padded: see there) as placeholders from
/// `?{args.len() + 1}` on, separated by commas, then `tail`; with the arguments.
pub(crate) fn in_list<'v>(head: &str, tail: &str, args: &[Value<'v>], values: &[&'v str]) -> (String, Vec<Value<'v>>) {
    debug_assert!(!values.is_empty() && values.len() <= IN_ROWS);
    let n = values.len().next_power_of_two();
    let mut sql = String::from(head);
    let mut all = args.to_vec();
    for i in 0..n {
        let value = values[i.min(values.len() - 1)];
        sql.push_str(&format!("{}?{}", if i == 0 { "" } else { ", " }, args.len() + i + 1));
        all.push(Value::Text(value.into()));
    }
    sql.push_str(tail);
    (sql, all)
}

/// The URLs `page` links to, other than itself, each once: its inlinks' targets, each with
/// whether the crawl follows it there.
fn linked_urls(page: &CrawledPage) -> Vec<(&str, bool)> {
    // A record lists each target once; one written otherwise counts each target once too,
    // followed when any of its links is.
    let mut seen: foldhash::HashMap<&str, usize> = foldhash::HashMap::default();
    let mut out: Vec<(&str, bool)> = Vec::new();
    for link in page.outlinks.iter().filter(|l| l.url != page.url) {
        match seen.get(link.url.as_str()) {
            Some(&at) => out[at].1 |= link.follow,
            None => {
                seen.insert(&link.url, out.len());
                out.push((&link.url, link.follow));
            }
        }
    }
    out
}

/// The inlinks the pages recorded in a batch add (and, for a page recorded again, take
/// away), by linked URL, written when the batch commits: one upsert per linked URL of the
/// batch rather than one per link (pages of a site link to the same menus). For each URL:
/// the change of its count, and the linking page named first (`first_from`): the one
/// nearest the start, then the least URL in byte order, with its click depth (`first_seq`,
/// `i64::MAX` for a page without one). Until session 25 it was the page first in crawl order
/// (`first_seq` its crawl_pages rowid), which changed from crawl to crawl with the order
/// answers came in; a crawl resumed across that change names its nearest pages from then
/// on (a depth is below any rowid but a start page's). A page recorded again that no longer
/// links to a URL whose first inlink it was stays named there: rare (a restart), and still
/// a page that linked to it.
///
/// A hashbrown map (keyed with foldhash, seeded per process as the standard hasher is, and
/// several times faster on URLs): every link of every page passes through it, and
/// `entry_ref` copies a URL only the first time the batch meets it.
#[derive(Debug, Default)]
struct Inlinks(hashbrown::HashMap<String, Inlink>);

/// A linked URL's change of count, of followed count, and its first linking page with that
/// page's click depth.
type Inlink = (i64, i64, Option<(i64, String)>);

impl Inlinks {
    /// Counts the links of `page` (whose click depth is `depth`, `i64::MAX` without one):
    /// each URL it links to, other than itself, once. The page becomes a URL's first linking
    /// page when it is nearer the start than the one named, or as near and its URL sorts
    /// first (byte order).
    fn link(&mut self, page: &CrawledPage, depth: i64) {
        for (url, follow) in linked_urls(page) {
            let (n, followed, first) = self.counts(url);
            *n += 1;
            *followed += i64::from(follow);
            if first.as_ref().is_none_or(|(d, from)| (depth, page.url.as_str()) < (*d, from.as_str())) {
                *first = Some((depth, page.url.clone()));
            }
        }
    }

    /// The counts of `url` in the batch, added when it has none yet.
    fn counts(&mut self, url: &str) -> &mut Inlink {
        self.0.entry_ref(url).or_default()
    }

    /// Takes back the links of `page` as recorded before.
    fn unlink(&mut self, page: &CrawledPage) {
        for (url, follow) in linked_urls(page) {
            let (n, followed, _) = self.counts(url);
            *n -= 1;
            *followed -= i64::from(follow);
        }
    }

    /// Writes the changes to the URLs the crawl recorded (a row of `crawl_pages`: fetched,
    /// queued, skipped or from a sitemap), and forgets them all. Returns the links to other
    /// URLs, which are counted there and get no row: a page's links are bounded
    /// (`crawl::MAX_RECORDED_LINKS`), but a crawl's pages could otherwise add a row for every
    /// distinct URL they link to, on other sites or past the frontier's bound, which no site
    /// rule reads (they ask for the inlinks of URLs the crawl recorded).
    ///
    /// Only the URLs `known` does not hold are looked up (those it holds have a row); the
    /// ones found are added to it.
    fn write(&mut self, tx: &Db<'_>, crawl_id: &str, known: &mut KnownUrls) -> Result<u64> {
        let mut all: Vec<(String, Inlink)> = self.0.drain().collect();
        let mut recorded = std::collections::HashSet::new();
        let unknown: Vec<&str> = all.iter().map(|(url, _)| url.as_str()).filter(|url| !known.has(url)).collect();
        for urls in unknown.chunks(IN_ROWS) {
            let (sql, values) =
                in_list("SELECT url FROM crawl_pages WHERE crawl_id = ?1 AND url IN (", ")", args![crawl_id], urls);
            recorded.extend(tx.query_map(&sql, &values, |row| row.get::<String>(0))?);
        }
        let mut not_kept = 0;
        all.retain(|(url, (n, _, _))| {
            let keep = recorded.contains(url) || known.has(url);
            if !keep {
                not_kept += (*n).max(0) as u64;
            }
            keep
        });
        for url in &recorded {
            known.add(url);
        }
        // In key order: the rows of one statement then sit side by side in the table's
        // b-tree, so a statement changes a few of its pages rather than one page a row (and
        // SQLite's statement journal, which copies each page a statement changes, stays small
        // enough to be kept in memory instead of spilling to a file).
        all.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let mut rest = all.as_slice();
        while !rest.is_empty() {
            // Upsert lists are not padded (a row may not be changed twice by one statement):
            // pieces of 64, 32, ... 1 rows, seven statement texts.
            let n = if rest.len() >= IN_ROWS { IN_ROWS } else { 1 << rest.len().ilog2() };
            let (chunk, more) = rest.split_at(n);
            rest = more;
            let mut sql =
                String::from("INSERT INTO crawl_inlinks (crawl_id, url, n, followed, first_seq, first_from) VALUES ");
            let mut values: Vec<Value<'_>> = args![crawl_id].to_vec();
            for (i, (url, (count, followed, first))) in chunk.iter().enumerate() {
                let p = 2 + 5 * i;
                sql.push_str(&format!(
                    "{}(?1, ?{p}, ?{}, ?{}, ?{}, ?{})",
                    if i == 0 { "" } else { ", " },
                    p + 1,
                    p + 2,
                    p + 3,
                    p + 4
                ));
                values.push(Value::Text(url.as_str().into()));
                values.push(Value::Int(*count));
                values.push(Value::Int(*followed));
                match first {
                    Some((seq, from)) => values.extend([Value::Int(*seq), Value::Text(from.as_str().into())]),
                    None => values.extend([Value::Null, Value::Null]),
                }
            }
            sql.push_str(
                " ON CONFLICT (crawl_id, url) DO UPDATE SET n = crawl_inlinks.n + excluded.n, \
                 followed = crawl_inlinks.followed + excluded.followed, \
                 first_from = CASE WHEN crawl_inlinks.first_seq IS NULL OR excluded.first_seq < crawl_inlinks.first_seq \
                 OR (excluded.first_seq = crawl_inlinks.first_seq AND excluded.first_from < crawl_inlinks.first_from) \
                 THEN excluded.first_from ELSE crawl_inlinks.first_from END, \
                 first_seq = CASE WHEN crawl_inlinks.first_seq IS NULL OR excluded.first_seq < crawl_inlinks.first_seq \
                 THEN excluded.first_seq ELSE crawl_inlinks.first_seq END",
            );
            tx.execute(&sql, &values)?;
        }
        Ok(not_kept)
    }
}

/// URLs of the crawl known to have a row in `crawl_pages` (inserted, claimed, read or
/// recorded through this frontier), kept as 64-bit hashes: a batch's inlinks then look up
/// only the URLs not known (links to other sites, mostly), where every linked URL cost a
/// look-up by key before. Rows of a running crawl are never deleted, so a URL once known
/// stays so; a batch that fails empties the set (its inserts are gone with it). Bounded: at
/// [`KnownUrls::MAX`] hashes it starts again empty, and the look-ups answer for the URLs
/// forgotten. Two URLs with the same hash (one chance in 2^64 for a pair) would give one
/// unrecorded URL an inlinks row: the cost of keeping 8 bytes a URL rather than the URL.
#[derive(Debug, Default)]
struct KnownUrls {
    hasher: foldhash::quality::RandomState,
    hashes: foldhash::HashSet<u64>,
}

impl KnownUrls {
    /// Hashes kept at most (about 1 MiB).
    const MAX: usize = 1 << 16;

    fn key(&self, url: &str) -> u64 {
        use std::hash::BuildHasher;
        self.hasher.hash_one(url)
    }

    fn add(&mut self, url: &str) {
        if self.hashes.len() >= KnownUrls::MAX {
            self.hashes.clear();
        }
        let key = self.key(url);
        self.hashes.insert(key);
    }

    fn has(&self, url: &str) -> bool {
        self.hashes.contains(&self.key(url))
    }
}

impl<'a> PageRow<'a> {
    fn of(record: &'a CrawledPage, failed_rules: &'a [FailedRule]) -> Result<PageRow<'a>> {
        let record_json = serde_json::to_string(record).map_err(|e| Error::invalid("record", e.to_string()))?;
        let ids: Vec<&str> = failed_rules.iter().map(|f| f.rule_id.as_str()).collect();
        let failed_json = serde_json::to_string(&ids).map_err(|e| Error::invalid("failed_rules", e.to_string()))?;
        Ok(PageRow { record, failed_rules, record_json, failed_json })
    }

    /// [`PageRow::write`] and its inlinks in a transaction of its own.
    fn write_alone(&self, store: &Store, crawl_id: &str) -> Result<()> {
        store.write(|tx| {
            let mut inlinks = Inlinks::default();
            self.write(tx, crawl_id, &mut inlinks)?;
            inlinks.write(tx, crawl_id, &mut KnownUrls::default()).map(|_| ())
        })
    }

    /// The page's row (with the facts the site rules query) and its page issues; its
    /// inlinks are counted into `inlinks`, for the caller to write.
    fn write(&self, tx: &Db<'_>, crawl_id: &str, inlinks: &mut Inlinks) -> Result<()> {
        let record = self.record;
        // The page's row, queued when its URL was found: its rowid, and its record when it
        // was recorded before (a page fetched again).
        let existing = tx.query_opt(
            "SELECT record_json FROM crawl_pages WHERE crawl_id = ?1 AND url = ?2",
            args![crawl_id, record.url],
            |row| row.get::<Option<String>>(0),
        )?;
        let before = existing
            .as_ref()
            .and_then(|raw| raw.as_deref())
            .map(|raw| {
                serde_json::from_str::<CrawledPage>(raw).map_err(|e| Error::corrupt("crawl_pages", e.to_string()))
            })
            .transpose()?;
        let [t, d, x] = crawl::DuplicateKey::ALL.map(|k| k.stored(record));
        if existing.is_none() {
            // A page recorded without a queued row (a caller that records pages directly):
            // the row first, then the same update as a queued page's.
            tx.execute(
                "INSERT INTO crawl_pages (crawl_id, url, depth, source, state) VALUES (?1, ?2, ?3, 'link', ?4) \
                 ON CONFLICT (crawl_id, url) DO UPDATE SET depth = crawl_pages.depth",
                args![crawl_id, record.url, record.depth, if record.error.is_some() { "failed" } else { "done" }],
            )?;
        }
        // A plain update of the one row by its key. On SQLite an `INSERT ... ON CONFLICT DO
        // UPDATE ... RETURNING`, which this was, is a statement that may write several rows,
        // so SQLite keeps a journal of every page it changes to undo it alone; the dozen
        // indexes and the record's 20 KB it changes made that journal spill to a temporary
        // file at every page (2.2% of a crawl's CPU in writes to it, docs/PERFORMANCE.md).
        tx.execute(
            "UPDATE crawl_pages SET status = COALESCE(?3, status), html = ?4, title = ?5, score = ?6, \
             failed_rules = ?7, record_json = ?8, records = records + 1, facts = 1, redirect_to = ?9, \
             fetch_error = ?10, noindex = ?11, dup_title = ?12, dup_description = ?13, dup_text = ?14 \
             WHERE crawl_id = ?1 AND url = ?2",
            args![
                crawl_id,
                record.url,
                record.status,
                record.html,
                record.title,
                record.score,
                self.failed_json,
                self.record_json,
                record.redirect_to,
                record.error,
                record.noindex,
                t,
                d,
                x
            ],
        )?;
        // The URLs it links to count one inlink more each (its links before no longer count
        // when it was recorded before).
        if let Some(before) = &before {
            inlinks.unlink(before);
        }
        // The linking page named first is the one nearest the start, then the least URL: the
        // same in every crawl of the site, where the order pages were recorded is not.
        inlinks.link(record, record.depth.map_or(i64::MAX, i64::from));
        tx.execute(
            "DELETE FROM crawl_issues WHERE crawl_id = ?1 AND kind = 'page' AND url = ?2",
            args![crawl_id, record.url],
        )?;
        for failed in self.failed_rules {
            let issue = CrawlIssue {
                kind: IssueKind::Page,
                rule_id: failed.rule_id.clone(),
                severity: failed.severity.clone(),
                url: record.url.clone(),
                linked_from: None,
                detail: failed.detail.clone(),
                locations: failed.locations.clone(),
            };
            insert_issue(tx, crawl_id, IssueKind::Page, &issue)?;
        }
        Ok(())
    }
}

/// The batch a [`CrawlFrontier`] has open, shared with its [`CrawlWriter`]s.
#[derive(Debug, Default)]
struct Batch {
    /// The transaction (`None`: no batch open).
    open: Option<OpenTx>,
    /// The inlinks of the pages recorded in it.
    inlinks: Inlinks,
    /// The URLs known to have a row (kept across batches).
    known: KnownUrls,
}

type SharedTx = Arc<Mutex<Batch>>;

/// Runs `f` in the open batch, or else as `solo` does (a transaction or a statement of its
/// own).
fn in_batch<T>(
    tx: &SharedTx,
    f: impl FnMut(&Db<'_>) -> Result<T>,
    solo: impl FnOnce(Box<dyn FnMut(&Db<'_>) -> Result<T> + '_>) -> Result<T>,
) -> Result<T> {
    let mut batch = tx.lock().unwrap_or_else(|p| p.into_inner());
    match batch.open.as_mut() {
        Some(open) => open.run(f),
        None => solo(Box::new(f)),
    }
}

/// Writes a crawl's pages and sitemap URLs, in its [`CrawlFrontier`]'s open batch when there
/// is one ([`FrontierStore::begin`]): a page's record is then committed together with its
/// frontier entry's change to `done`, so that a restart finds both or neither (a page
/// neither recorded nor done is fetched again). The crawl's sink writes through it
/// ([`CrawlFrontier::writer`]).
///
/// It holds no transaction of its own: once its frontier is dropped (with its batch, rolled
/// back), it writes each page in a transaction of its own.
#[derive(Clone)]
pub struct CrawlWriter {
    store: Store,
    crawl_id: CrawlId,
    tx: Weak<Mutex<Batch>>,
}

impl std::fmt::Debug for CrawlWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CrawlWriter").field("crawl_id", &self.crawl_id.as_str()).finish_non_exhaustive()
    }
}

impl CrawlWriter {
    /// The crawl's id.
    pub fn crawl_id(&self) -> &str {
        &self.crawl_id
    }

    /// The store.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// [`Store::record_crawl_page`] in the batch.
    pub fn record_page(&self, record: &CrawledPage, failed_rules: &[FailedRule]) -> Result<()> {
        let page = PageRow::of(record, failed_rules)?;
        if let Some(shared) = self.tx.upgrade() {
            let mut batch = shared.lock().unwrap_or_else(|p| p.into_inner());
            let Batch { open, inlinks, known } = &mut *batch;
            if let Some(open) = open.as_mut() {
                known.add(&record.url);
                return open.run(|db| page.write(db, &self.crawl_id, inlinks));
            }
        }
        page.write_alone(&self.store, &self.crawl_id)
    }

    /// Whether the crawl is still `running` and its lease, when it has one, is `worker`'s:
    /// its runner goes on only then. Read in the open batch when there is one, on the batch's
    /// own connection: a runner that held a batch and waited for a second pooled connection
    /// would hold the write lock while it waited, and make every other writer wait past its
    /// busy timeout when the pool ran short.
    pub fn still_driving(&self, worker: &str) -> Result<bool> {
        let ask = |db: &Db<'_>| {
            db.query_opt(
                "SELECT 1 FROM crawls WHERE id = ?1 AND state = 'running' \
                 AND (claimed_by IS NULL OR claimed_by = ?2)",
                args![self.crawl_id, worker],
                |row| row.get::<i64>(0),
            )
            .map(|found| found.is_some())
        };
        match self.tx.upgrade() {
            Some(tx) => in_batch(&tx, ask, |mut f| self.store.read(|db| f(db))),
            None => self.store.read(ask),
        }
    }

    /// Marks the crawl paused for errors until `resumes_at`, for `reason`, and
    /// counts the pause, in the batch: the crawl object shows it while it lasts, on every
    /// replica. Only a `running` crawl is marked.
    pub fn pause(&self, reason: &str, paused_at: Timestamp, resumes_at: Timestamp) -> Result<()> {
        let reason = cut(reason, MAX_PAUSE_REASON_BYTES);
        self.in_tx(|db| {
            db.execute(
                "UPDATE crawls SET pause_reason = ?2, paused_at = ?3, resumes_at = ?4, error_pauses = error_pauses + 1 \
                 WHERE id = ?1 AND state = 'running'",
                args![self.crawl_id, reason, paused_at, resumes_at],
            )
            .map(drop)
        })
    }

    /// Clears the crawl's pause for errors (it goes on), in the batch.
    pub fn resume(&self) -> Result<()> {
        self.in_tx(|db| {
            db.execute(
                "UPDATE crawls SET pause_reason = NULL, paused_at = NULL, resumes_at = NULL \
                 WHERE id = ?1 AND pause_reason IS NOT NULL",
                args![self.crawl_id],
            )
            .map(drop)
        })
    }

    /// [`Store::add_crawl_sitemap_urls`] in the batch.
    pub fn add_sitemap_urls(&self, urls: &[String]) -> Result<()> {
        self.in_tx(|db| insert_sitemap_urls(db, &self.crawl_id, urls))
    }

    fn in_tx<T>(&self, f: impl FnMut(&Db<'_>) -> Result<T>) -> Result<T> {
        match self.tx.upgrade() {
            Some(tx) => in_batch(&tx, f, |f| self.store.write(f)),
            None => self.store.write(f),
        }
    }
}

/// The frontier of one crawl in the database, as one worker works it (see the module
/// documentation). Each method is one statement (a claim: one transaction), or, between
/// [`FrontierStore::begin`] and [`FrontierStore::commit`], part of one batch written at
/// once; every method blocks: async code calls it on the blocking pool.
///
/// A frontier made by [`Store::driving_crawl`] keeps the crawl's counts in memory (read
/// once, then changed with each of its own writes), for the worker that holds the crawl's
/// lease: no other worker changes the crawl's frontier then, and the counts, asked for after
/// every page, would otherwise be a query over all of the crawl's URLs each time.
#[derive(Debug)]
pub struct CrawlFrontier {
    writer: CrawlWriter,
    /// The open batch ([`CrawlWriter`]s hold it weakly: it goes with the frontier).
    tx: SharedTx,
    worker: String,
    /// `Some` when the counts are kept ([`Store::driving_crawl`]): `None` inside when they
    /// are to be read again.
    counts: Option<Option<Counts>>,
    /// The URLs this frontier claimed and has not updated since, with whether each has no
    /// depth: how a change of state is counted.
    fetching: HashMap<String, bool>,
    /// [`CrawlFrontier::links_not_counted`].
    links_not_counted: u64,
}

impl CrawlFrontier {
    /// The crawl's id.
    pub fn crawl_id(&self) -> &str {
        &self.writer.crawl_id
    }

    /// The worker named on this frontier's claims.
    pub fn worker(&self) -> &str {
        &self.worker
    }

    /// The store.
    pub fn store(&self) -> &Store {
        &self.writer.store
    }

    /// Links from the pages this frontier's batches recorded to URLs the crawl did not
    /// record (on other sites, out of its scope or past its bound of URLs): counted here as
    /// they are committed, given no `crawl_inlinks` row.
    pub fn links_not_counted(&self) -> u64 {
        self.links_not_counted
    }

    /// Writes the crawl's pages in this frontier's batch.
    pub fn writer(&self) -> CrawlWriter {
        self.writer.clone()
    }

    /// Runs one statement that writes (or a few that need no transaction) in the batch, or
    /// alone in the writer's turn.
    fn db<T>(&self, f: impl FnMut(&Db<'_>) -> Result<T>) -> Result<T> {
        in_batch(&self.tx, f, |mut f| self.writer.store.write_each(|db| f(db)))
    }

    /// Runs a read in the batch (which sees the batch's own writes), or alone on a pooled
    /// connection.
    fn look<T>(&self, f: impl FnMut(&Db<'_>) -> Result<T>) -> Result<T> {
        in_batch(&self.tx, f, |mut f| self.writer.store.read(|db| f(db)))
    }

    /// Runs `f` in the batch, or in a transaction of its own.
    fn tx<T>(&self, f: impl FnMut(&Db<'_>) -> Result<T>) -> Result<T> {
        in_batch(&self.tx, f, |f| self.writer.store.write(f))
    }

    /// Counts an entry more (or fewer) in `state`, when the counts are kept.
    fn count(&mut self, state: State, unlinked: bool, add: bool) {
        if let Some(Some(c)) = self.counts.as_mut() {
            c.change(state, unlinked, add);
        }
    }

    /// Notes that `url` has a row ([`KnownUrls`]).
    fn known(&self, url: &str) {
        self.tx.lock().unwrap_or_else(|p| p.into_inner()).known.add(url);
    }

    /// The counts are to be read again (a change this frontier cannot count).
    fn recount(&mut self) {
        if let Some(c) = self.counts.as_mut() {
            *c = None;
        }
    }
}

impl Store {
    /// The frontier of crawl `crawl_id` as `worker` (the holder of the crawl's lease)
    /// works it: a [`crawl::FrontierStore`] over this database.
    pub fn crawl_frontier(&self, crawl_id: &str, worker: &str) -> CrawlFrontier {
        let tx: SharedTx = Arc::new(Mutex::new(Batch::default()));
        CrawlFrontier {
            writer: CrawlWriter { store: self.clone(), crawl_id: crawl_id.into(), tx: Arc::downgrade(&tx) },
            tx,
            worker: worker.to_string(),
            counts: None,
            fetching: HashMap::new(),
            links_not_counted: 0,
        }
    }

    /// [`Store::crawl_frontier`] for the crawl's runner, the one worker that changes the
    /// crawl's frontier while it holds the lease: its counts are kept in memory (see
    /// [`CrawlFrontier`]).
    pub fn driving_crawl(&self, crawl_id: &str, worker: &str) -> CrawlFrontier {
        CrawlFrontier { counts: Some(None), ..self.crawl_frontier(crawl_id, worker) }
    }
}

impl FrontierStore for CrawlFrontier {
    type Error = Error;

    fn get(&mut self, url: &str) -> Result<Option<Entry>> {
        let crawl_id = self.crawl_id().to_string();
        let entry = self.look(|db| db.query_opt(GET_ENTRY, args![crawl_id, url], entry_from_row))?;
        if entry.is_some() {
            self.known(url);
        }
        Ok(entry)
    }

    fn insert(&mut self, entry: Entry) -> Result<bool> {
        let claimed = (entry.state == State::Fetching).then_some(self.worker.as_str());
        let n = self.db(|db| {
            db.execute(
                INSERT_ENTRY,
                args![
                    self.writer.crawl_id,
                    entry.url,
                    entry.depth,
                    entry.found_from,
                    entry.source.as_str(),
                    entry.state.as_str(),
                    entry.status,
                    entry.reason,
                    claimed
                ],
            )
        })?;
        // Inserted or there already: either way the URL has a row now.
        self.known(&entry.url);
        if n > 0 {
            self.count(entry.state, entry.depth.is_none(), true);
            if entry.state == State::Fetching {
                self.fetching.insert(entry.url, entry.depth.is_none());
            }
        }
        Ok(n > 0)
    }

    fn update(&mut self, entry: &Entry) -> Result<()> {
        let claimed = (entry.state == State::Fetching).then_some(self.worker.as_str());
        self.db(|db| {
            db.execute(
                UPDATE_ENTRY,
                args![
                    self.writer.crawl_id,
                    entry.url,
                    entry.depth,
                    entry.found_from,
                    entry.source.as_str(),
                    entry.state.as_str(),
                    entry.status,
                    entry.reason,
                    claimed
                ],
            )
        })?;
        match self.fetching.remove(&entry.url) {
            Some(unlinked) => {
                self.count(State::Fetching, unlinked, false);
                self.count(entry.state, entry.depth.is_none(), true);
            }
            // Not a claim of this frontier: its state before is unknown here.
            None => self.recount(),
        }
        if entry.state == State::Fetching {
            self.fetching.insert(entry.url.clone(), entry.depth.is_none());
        }
        Ok(())
    }

    fn promote(&mut self, url: &str, depth: u32, found_from: Option<&str>, source: Source) -> Result<()> {
        let n = self.db(|db| {
            db.execute(PROMOTE_UNLINKED, args![self.writer.crawl_id, url, depth, found_from, source.as_str()])
        })?;
        if n > 0 {
            self.count(State::Queued, true, false);
            self.count(State::Queued, false, true);
            return Ok(());
        }
        // A queued URL reached by a shorter path, or named by a page of its level that sorts
        // first (see crawl's `FrontierStore::promote`); its counts do not change.
        self.db(|db| {
            db.execute(PROMOTE_SHALLOWER, args![self.writer.crawl_id, url, depth, found_from, source.as_str()])
        })?;
        Ok(())
    }

    fn claim(&mut self, limit: usize, unlinked: bool) -> Result<Vec<Entry>> {
        self.claim_within(limit, unlinked, None)
    }

    fn claim_within(&mut self, limit: usize, unlinked: bool, max_depth: Option<u32>) -> Result<Vec<Entry>> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let (crawl_id, worker) = (self.writer.crawl_id.clone(), self.worker.clone());
        let linked = claim_filter(true, max_depth);
        let mut claimed = self.tx(|tx| {
            // Linked entries first, shallowest first, in the order they came: the order of
            // the queue index (crawl_id, state, depth, rowid), read without a sort. Unlinked
            // entries (no depth) only when asked, after them.
            let mut picked = claim_where(tx, &crawl_id, &worker, limit, &linked)?;
            if unlinked && picked.len() < limit {
                picked.extend(claim_where(tx, &crawl_id, &worker, limit - picked.len(), &claim_filter(false, None))?);
            }
            Ok(picked)
        })?;
        claimed.sort_by_key(|(e, seq)| (e.depth.map_or(u64::MAX, u64::from), *seq));
        for (entry, _) in &claimed {
            self.known(&entry.url);
            self.count(State::Queued, entry.depth.is_none(), false);
            self.count(State::Fetching, entry.depth.is_none(), true);
            self.fetching.insert(entry.url.clone(), entry.depth.is_none());
        }
        Ok(claimed.into_iter().map(|(e, _)| e).collect())
    }

    fn deepest_queued(&mut self) -> Result<Option<u32>> {
        let crawl_id = self.crawl_id().to_string();
        let deepest = self.look(|db| db.query_one(DEEPEST_QUEUED, args![crawl_id], |row| row.get::<Option<i64>>(0)))?;
        Ok(Some(deepest.map_or(0, |d| u32::try_from(d).unwrap_or(u32::MAX))))
    }

    fn counts(&mut self) -> Result<Counts> {
        if let Some(Some(c)) = self.counts {
            return Ok(c);
        }
        let crawl_id = self.crawl_id().to_string();
        let c = self.look(|db| counts_of(db, &crawl_id))?;
        if let Some(kept) = self.counts.as_mut() {
            *kept = Some(c);
        }
        Ok(c)
    }

    /// Puts back to the queue the pages being fetched by a worker that no longer holds the
    /// crawl's lease (its claim expired with it); this worker's own claims, and those of a
    /// live lease holder, stay.
    fn requeue_fetching(&mut self) -> Result<u64> {
        let n =
            self.db(|db| db.execute(REQUEUE_FETCHING, args![self.writer.crawl_id, self.worker, clock::now_rfc3339()]))?;
        self.recount();
        Ok(n as u64)
    }

    fn begin(&mut self) -> Result<()> {
        let mut batch = self.tx.lock().unwrap_or_else(|p| p.into_inner());
        if batch.open.is_none() {
            batch.open = Some(self.writer.store.begin()?);
        }
        Ok(())
    }

    fn commit(&mut self) -> Result<()> {
        let written = {
            let mut batch = self.tx.lock().unwrap_or_else(|p| p.into_inner());
            let Batch { open, inlinks, known } = &mut *batch;
            match open.take() {
                Some(mut open) => open
                    .run(|db| inlinks.write(db, &self.writer.crawl_id, known))
                    .and_then(|n| open.commit().map(|()| n)),
                None => Ok(0),
            }
        };
        if let Ok(n) = written {
            self.links_not_counted += n;
        }
        if written.is_err() {
            // What was counted in the batch is gone with it, and so are the rows it inserted.
            let mut batch = self.tx.lock().unwrap_or_else(|p| p.into_inner());
            batch.inlinks = Inlinks::default();
            batch.known = KnownUrls::default();
            drop(batch);
            self.recount();
        }
        written.map(|_| ())
    }

    /// On SQLite, while a batch is open and no other writer of the process waits for the
    /// write turn: the batch then costs nobody anything, and keeping it open across waits
    /// writes the pages touched by many results (the inlinks' rows above all, which every
    /// page's links spread over the table) once per commit instead of once per result.
    /// Never on PostgreSQL (`Store::writers_waiting` says why).
    fn may_hold_batch(&mut self) -> bool {
        let open = self.tx.lock().unwrap_or_else(|p| p.into_inner()).open.is_some();
        open && self.writer.store.writers_waiting() == Some(false)
    }
}

/// What a claim asks of a crawl's queued entries besides their crawl and state, with their
/// order: linked entries (`linked`: a depth, at most `max_depth` when given) or unlinked
/// ones (no depth). The depth barrier is a number, not user input, so it is written into
/// the query. Both orders are `depth, rowid`, the queue index's own order after its crawl
/// and state (migration 0022), so that a claim reads its few entries off the index and
/// sorts nothing: for the unlinked entries `ORDER BY rowid` would give the same rows, but
/// PostgreSQL does not take `depth IS NULL` as fixing the index's depth column, and would
/// sort every unlinked entry of the crawl (or walk all its pages in rowid order) instead.
pub(crate) fn claim_filter(linked: bool, max_depth: Option<u32>) -> String {
    match (linked, max_depth) {
        (true, Some(max)) => format!("depth IS NOT NULL AND depth <= {max} ORDER BY depth, rowid"),
        (true, None) => "depth IS NOT NULL ORDER BY depth, rowid".to_string(),
        (false, _) => "depth IS NULL ORDER BY depth, rowid".to_string(),
    }
}

/// The claim of up to `limit` queued entries of crawl `?1` that pass `filter`
/// ([`claim_filter`]): SQLite takes the limit as `?2` and the worker as `?3`; PostgreSQL
/// takes the worker as `?2` and the limit written into the text, a number the frontier
/// chooses (its free places in flight), not input. There, a prepared
/// statement may be planned once for all its arguments after five runs, and with the limit
/// unknown that plan expects a tenth of the crawl's queue and joins every one of the
/// crawl's rows by hash to update a few (seen on a queue of 200,000 URLs). SQLite keeps
/// fewer statements cached, so there the limit stays a parameter, but behind a `CAST`: a
/// bare `LIMIT ?2` lets SQLite plan with the bound value, and then a new value expires the
/// statement and it is prepared again on its next step (`sqlite3ExprIsInteger` marks the
/// parameter), which the frontier's free places change from one claim to the next: 3% of
/// a crawl's CPU went to preparing this statement again. The plan does not depend on it
/// (the queue index, no sort, `frontier_plans`).
pub(crate) fn claim_sql(postgres: bool, filter: &str, limit: usize) -> String {
    if postgres {
        // A materialised CTE: as `IN (subquery)`, PostgreSQL may rescan the locking subquery
        // and take more than `limit` rows.
        format!(
            "WITH picked AS MATERIALIZED (SELECT url FROM crawl_pages WHERE crawl_id = ?1 \
             AND state = 'queued' AND {filter} LIMIT {limit} FOR UPDATE SKIP LOCKED) \
             UPDATE crawl_pages p SET state = 'fetching', claimed_by = ?2 FROM picked \
             WHERE p.crawl_id = ?1 AND p.url = picked.url \
             RETURNING p.url, p.depth, p.found_from, p.source, p.state, p.status, p.reason, p.rowid"
        )
    } else {
        format!(
            "UPDATE crawl_pages SET state = 'fetching', claimed_by = ?3 WHERE crawl_id = ?1 AND url IN \
             (SELECT url FROM crawl_pages WHERE crawl_id = ?1 AND state = 'queued' AND {filter} \
             LIMIT CAST(?2 AS INTEGER)) \
             RETURNING {ENTRY_COLUMNS}, rowid"
        )
    }
}

/// Claims up to `limit` queued entries of crawl `crawl_id` for `worker` that pass `filter`
/// ([`claim_filter`]); returns them with their rowid.
fn claim_where(tx: &Db<'_>, crawl_id: &str, worker: &str, limit: usize, filter: &str) -> Result<Vec<(Entry, i64)>> {
    let sql = claim_sql(tx.is_postgres(), filter, limit);
    let claimed = |row: &Row<'_>| Ok((entry_from_row(row)?, row.get::<i64>(7)?));
    if tx.is_postgres() {
        tx.query_map(&sql, args![crawl_id, worker], claimed)
    } else {
        tx.query_map(&sql, args![crawl_id, limit, worker], claimed)
    }
}

/// The fields of a page's record (a [`CrawledPage`]) that the list of a crawl's pages and a
/// comparison of crawls read besides the row's columns: read alone, the record's other fields
/// (its links are most of it) are skipped, not decoded (docs/PERFORMANCE.md, "The site rules
/// at the end").
#[derive(serde::Deserialize)]
struct ListedFacts {
    #[serde(default)]
    noindex: bool,
    #[serde(default)]
    redirect_to: Option<String>,
    #[serde(default)]
    extracted: Vec<(String, Option<String>)>,
}
