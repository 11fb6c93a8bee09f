//! The frontier: which URL is fetched next, as pure logic over a store of small records
//! (docs/RULES.md, "Site rules").
//!
//! A [`Frontier`] owns no I/O. It hands out [`Work`] ([`Frontier::next_work`]): fetch this URL,
//! or first read this host's robots.txt; the runner does the work and reports what happened
//! ([`Frontier::record`], [`Frontier::set_robots`]). Every decision lands in a
//! [`FrontierStore`] as an [`Entry`] (url, depth, found from, state), row by row, so a crawl
//! resumes from its store after a restart ([`Frontier::resume`]) and memory does not grow
//! with the pages crawled. [`MemoryStore`] is the in-memory store of tests and tools.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use ai_visibility::Robots;
use serde::{Deserialize, Serialize};
use url::Url;

use crate::page::{CrawledPage, MAX_RECORDED_URL_BYTES};
use crate::profile::CrawlerProfile;
use crate::urls::{normalize, normalize_relative, OutOfScope, Scope};

pub use crate::profile::USER_AGENT_TOKEN;

/// Requests in flight per host at most, by default.
pub const DEFAULT_MAX_IN_FLIGHT: usize = 4;

/// The longest `Crawl-delay` honoured; a longer one is cut to it (a site asking for an hour
/// between requests would never finish within a crawl's time limit).
pub const MAX_CRAWL_DELAY: Duration = Duration::from_secs(30);

/// URLs a frontier records at most (every state); links to further URLs are dropped. It
/// bounds the store of a site with endless generated URLs (calendars, facets).
pub const DEFAULT_MAX_KNOWN_URLS: u64 = 100_000;

/// URLs a frontier remembers having handled a link to, so that the links every page repeats
/// (navigation, footer) cost no parsing and no store call; the set is emptied when full. An
/// entry is a 128-bit fingerprint of the URL, its depth and a shared reference to the page
/// that links it first in URL order: 40 bytes and a control byte in a table of 2^18 slots
/// (229,376 is 7/8 of them, the table's load before it doubles), 10.7 MB, the parents' bytes
/// apart ([`SEEN_PARENT_BYTES`]). A site of up to that many URLs is crawled
/// without emptying it; past it, each emptying costs a store look-up for every link until
/// the URLs are seen again (the 100,000-page generated site took 106 s with 50,000 entries,
/// 79 s with all of them: docs/PERFORMANCE.md, "A million pages").
pub const SEEN_CACHE: usize = 229_376;

/// The bytes of a parent's URL the cache of URLs seen keeps at most: a longer one is cut, and
/// a link from a page whose URL begins with the kept bytes goes to the store, which compares
/// whole URLs. The cache's parents then hold 33 MB at most (229,376 of 128 bytes and their
/// 16-byte counts), however long a site makes its URLs; the links of one page share one.
pub const SEEN_PARENT_BYTES: usize = 128;

/// Where an entry is in its life.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::Display,
    strum::VariantArray,
)]
#[strum(serialize_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum State {
    /// Waiting to be fetched.
    Queued,
    /// Handed out by [`Frontier::next_work`]; the runner is fetching it.
    Fetching,
    /// Fetched: it answered (any status, see [`Entry::status`]).
    Done,
    /// The fetch failed: no answer (see [`Entry::reason`]).
    Failed,
    /// Never fetched: robots.txt disallows it or it is outside the scope (see
    /// [`Entry::reason`]).
    Skipped,
}

impl State {
    /// The name stored and shown.
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// How the crawl found a URL.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::Display,
    strum::VariantArray,
)]
#[strum(serialize_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// The start URL.
    Start,
    /// A link on a crawled page ([`Entry::found_from`]).
    Link,
    /// The `Location` of a redirect ([`Entry::found_from`] redirected to it).
    Redirect,
    /// A sitemap, before any crawled page linked to it.
    Sitemap,
    /// The list of a list-mode crawl ([`Frontier::add_listed_url`]): a URL the caller named,
    /// with no click depth.
    List,
}

impl Source {
    /// The name stored and shown.
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// One URL of the frontier: the record a store keeps, one row per URL.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// The normalised URL (the row's key).
    pub url: String,
    /// Click depth from the start URL; `None` for a URL reached from sitemaps only.
    pub depth: Option<u32>,
    /// The page that linked to it first, or that redirected to it.
    pub found_from: Option<String>,
    /// How it was found.
    pub source: Source,
    /// Where it is.
    pub state: State,
    /// The HTTP status, once [`State::Done`].
    pub status: Option<u16>,
    /// Why it failed or was skipped.
    pub reason: Option<String>,
}

/// Bytes of an entry's [`Entry::reason`] kept: a reason can quote a robots.txt rule, a
/// file of up to 500 KiB written by the crawled site, so a stored row must not grow with it.
/// A longer reason is cut at a character boundary and ends with `…`, so that the cut shows.
pub const MAX_REASON_BYTES: usize = 512;

/// `reason` within [`MAX_REASON_BYTES`] (the `…` that marks a cut included).
fn bounded_reason(mut reason: String) -> String {
    if reason.len() > MAX_REASON_BYTES {
        reason = cut_marked(&reason, MAX_REASON_BYTES);
    }
    reason
}

/// The start of `s` within `max` bytes, cut at a character boundary and ended with `…` so
/// that the cut shows (the `…` counted in `max`); `s` itself when it fits. What the crawl and
/// its store keep of a text they do not bound otherwise (a reason, a finding's detail).
pub fn cut_marked(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut end = max.saturating_sub('…'.len_utf8());
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &s[..end])
}

impl Entry {
    fn new(url: String, depth: Option<u32>, found_from: Option<String>, source: Source) -> Entry {
        Entry { url, depth, found_from, source, state: State::Queued, status: None, reason: None }
    }
}

/// How many entries are in each state. `*_unlinked` count those of them whose depth is
/// `None` (found in sitemaps only).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// [`State::Queued`] entries.
    pub queued: u64,
    /// Queued entries without a depth.
    pub queued_unlinked: u64,
    /// [`State::Fetching`] entries (with several replicas: all of them, everywhere).
    pub fetching: u64,
    /// Fetching entries without a depth.
    pub fetching_unlinked: u64,
    /// [`State::Done`] entries.
    pub done: u64,
    /// [`State::Failed`] entries.
    pub failed: u64,
    /// [`State::Skipped`] entries.
    pub skipped: u64,
}

impl Counts {
    /// Entries handed out for fetching so far (fetching, done, failed): what `max_pages`
    /// bounds.
    pub fn handed_out(&self) -> u64 {
        self.fetching + self.done + self.failed
    }

    /// Every entry.
    pub fn total(&self) -> u64 {
        self.queued + self.handed_out() + self.skipped
    }

    /// Counts one entry more (`add`) or fewer in `state`; `unlinked`: it has no depth.
    pub fn change(&mut self, state: State, unlinked: bool, add: bool) {
        let change = |n: &mut u64, by: u64| *n = if add { *n + by } else { n.saturating_sub(by) };
        let unlinked = u64::from(unlinked);
        match state {
            State::Queued => {
                change(&mut self.queued, 1);
                change(&mut self.queued_unlinked, unlinked);
            }
            State::Fetching => {
                change(&mut self.fetching, 1);
                change(&mut self.fetching_unlinked, unlinked);
            }
            State::Done => change(&mut self.done, 1),
            State::Failed => change(&mut self.failed, 1),
            State::Skipped => change(&mut self.skipped, 1),
        }
    }
}

/// Where a frontier keeps its entries: one row per URL. The application stores them in its
/// database; [`MemoryStore`] keeps them in memory.
pub trait FrontierStore {
    /// The store's failure.
    type Error;

    /// The entry of `url`, if known.
    fn get(&mut self, url: &str) -> Result<Option<Entry>, Self::Error>;

    /// Adds `entry` unless its URL is known; `true` when it was added.
    fn insert(&mut self, entry: Entry) -> Result<bool, Self::Error>;

    /// Replaces the entry with the same URL.
    fn update(&mut self, entry: &Entry) -> Result<(), Self::Error>;

    /// Gives the entry of `url` `depth`, `found_from` and `source` when it is
    /// [`State::Queued`] without a depth (found in a sitemap only, now reached by a link),
    /// with a greater one (linked from a page one level down, now the target of a redirect
    /// on the level above: a shorter path), or, for a [`Source::Link`], with the same depth
    /// and a `found_from` that sorts after this one (byte order): among the pages of one
    /// level that link a URL, the least URL names its parent, whichever answered first, so
    /// that two crawls of a site name the same page (all of a level's pages answer before a
    /// URL of the next is handed out). Leaves any other entry alone. A database does it in
    /// one `UPDATE … WHERE state = 'queued' AND (depth IS NULL OR depth > ? OR (depth = ? AND
    /// found_from > ? AND source = 'link'))`.
    fn promote(&mut self, url: &str, depth: u32, found_from: Option<&str>, source: Source) -> Result<(), Self::Error> {
        if let Some(mut known) = self.get(url)? {
            let first_parent = known.depth == Some(depth)
                && source == Source::Link
                && matches!((found_from, known.found_from.as_deref()), (Some(new), Some(old)) if new < old);
            if known.state == State::Queued && (known.depth.is_none_or(|d| d > depth) || first_parent) {
                known.depth = Some(depth);
                known.found_from = found_from.map(str::to_string);
                known.source = source;
                self.update(&known)?;
            }
        }
        Ok(())
    }

    /// Moves up to `limit` queued entries to [`State::Fetching`] and returns them: the
    /// shallowest first, then in the order they were inserted (breadth first). Entries
    /// without a depth come last, and only when `unlinked` is true. With several workers on
    /// one store this must be atomic, so that each entry is handed out once.
    fn claim(&mut self, limit: usize, unlinked: bool) -> Result<Vec<Entry>, Self::Error>;

    /// [`FrontierStore::claim`], taking only entries no deeper than `max_depth` when it is
    /// given (the frontier's level barrier, see [`Frontier::next_work`]). By default it claims
    /// and puts the deeper entries back; a store does better with the bound in its query.
    fn claim_within(
        &mut self,
        limit: usize,
        unlinked: bool,
        max_depth: Option<u32>,
    ) -> Result<Vec<Entry>, Self::Error> {
        let mut claimed = self.claim(limit, unlinked)?;
        let Some(max) = max_depth else {
            return Ok(claimed);
        };
        for entry in claimed.iter_mut().filter(|e| e.depth.is_none_or(|d| d > max)) {
            entry.state = State::Queued;
            self.update(entry)?;
        }
        claimed.retain(|e| e.depth.is_some_and(|d| d <= max));
        Ok(claimed)
    }

    /// How many entries are in each state.
    fn counts(&mut self) -> Result<Counts, Self::Error>;

    /// A depth no queued entry with a depth is deeper than (`Some(0)` when none is queued),
    /// or `None` when the store cannot tell, the default. The frontier reads it once, when
    /// it starts or resumes, and keeps it up to date itself: while no sitemap URL waits
    /// without a depth, a known URL linked at this depth or deeper cannot be promoted, and
    /// the frontier does not ask the store to try ([`Frontier::links_promoted_skipped`]).
    fn deepest_queued(&mut self) -> Result<Option<u32>, Self::Error> {
        Ok(None)
    }

    /// Puts every [`State::Fetching`] entry back to [`State::Queued`] (a restart: what was
    /// being fetched when the process stopped is fetched again); returns how many. With
    /// several workers on one store, only the entries of workers that are gone (an expired
    /// claim) should be put back, or a page would be fetched twice.
    fn requeue_fetching(&mut self) -> Result<u64, Self::Error>;

    /// Starts a batch: the calls until [`FrontierStore::commit`] may be written together
    /// (one transaction of a database: a crash keeps all of them or none). The runner
    /// opens one for the results it records at a time and the work it hands out after
    /// them. Does nothing by default.
    fn begin(&mut self) -> Result<(), Self::Error> {
        Ok(())
    }

    /// Writes the batch [`FrontierStore::begin`] started (nothing when none is open).
    fn commit(&mut self) -> Result<(), Self::Error> {
        Ok(())
    }

    /// Whether the open batch may stay open while the runner waits for the next result,
    /// so that the results of several waits share one commit: only when holding it costs
    /// nobody else anything (no other writer of the database waits for it). Asked again
    /// during the wait, at short intervals. `false` by default: the batch is committed
    /// before every wait.
    fn may_hold_batch(&mut self) -> bool {
        false
    }
}

/// The frontier's bounds and politeness.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Requests in flight per host at most (the crawl's hosts, the site and its `www.` twin,
    /// share it). A robots.txt `Crawl-delay` lowers it to 1.
    pub max_in_flight: usize,
    /// URLs recorded at most ([`DEFAULT_MAX_KNOWN_URLS`]).
    pub max_known_urls: u64,
    /// Who the crawl says it is: robots.txt is obeyed for its token
    /// ([`CrawlerProfile::robots_token`]), `Disallow` and `Crawl-delay` alike.
    pub profile: CrawlerProfile,
    /// Whether robots.txt's `Disallow` rules (and a robots.txt that cannot be read) are
    /// ignored: only for the command line's `--ignore-robots`, for the site its operator
    /// names. `Crawl-delay` is honoured all the same.
    pub ignore_robots: bool,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_in_flight: DEFAULT_MAX_IN_FLIGHT,
            max_known_urls: DEFAULT_MAX_KNOWN_URLS,
            profile: CrawlerProfile::default(),
            ignore_robots: false,
        }
    }
}

/// What the runner should do next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Work {
    /// Fetch the robots.txt at `url` (the host's, before any of its pages), then call
    /// [`Frontier::set_robots`] with [`robots_from_answer`].
    Robots {
        /// `scheme://host[:port]/robots.txt`.
        url: String,
    },
    /// Fetch this entry (now [`State::Fetching`]), then call [`Frontier::record`]. Wait
    /// [`Frontier::crawl_delay`] between the starts of two fetches when there is one.
    Fetch(Entry),
}

/// What fetching an entry gave.
#[derive(Debug, Clone, Copy)]
pub enum Outcome<'a> {
    /// An answer that is no redirect (any status): the page's record, whose status is
    /// [`CrawledPage::status`] ([`CrawledPage::from_page`] for HTML,
    /// [`CrawledPage::answered`] for anything else). Its links to follow, its canonical,
    /// its hreflang alternates and its pagination links on the site are queued one click
    /// deeper when the status is 2xx.
    Answered(&'a CrawledPage),
    /// A 3xx answer; `location` as sent (resolved here against the entry's URL).
    Redirected {
        /// The HTTP status.
        status: u16,
        /// The `Location` header, when there was one.
        location: Option<&'a str>,
    },
    /// No answer: connection refused, timeout, address guard, too large...
    Failed {
        /// Why, as shown to the user.
        reason: &'a str,
    },
}

/// The robots.txt to use after fetching `/robots.txt`: `status` `None` when it could not be
/// fetched. RFC 9309: a 4xx file allows everything, a 5xx or unreachable one disallows
/// everything, a 2xx one is parsed (the fetch follows redirects).
pub fn robots_from_answer(status: Option<u16>, body: &[u8]) -> Robots {
    match status {
        Some(200..=299) => Robots::parse(body),
        Some(s @ 500..=599) => Robots::unreachable(format!("HTTP {s}")),
        Some(_) => Robots::parse(b""),
        None => Robots::unreachable("no answer"),
    }
}

enum HostRobots {
    Pending,
    Known(Robots),
}

/// The frontier of one crawl over its store (see the module documentation).
pub struct Frontier<S> {
    store: S,
    scope: Scope,
    limits: Limits,
    robots: HashMap<String, HostRobots>,
    known: u64,
    /// Links to URLs left out because the frontier had recorded [`Limits::max_known_urls`]
    /// already, or because they are longer than [`MAX_RECORDED_URL_BYTES`] (see
    /// [`Frontier::links_not_queued`]).
    not_queued: u64,
    /// The URLs handled lately (by [`fingerprint`]), with the depth they were handled at and
    /// the page whose link named them first in URL order at that depth (an upper bound of
    /// the entry's `found_from`: the store keeps the least), of which at most
    /// [`SEEN_PARENT_BYTES`] are kept (`true` when cut). Every link of every page is looked
    /// up here ([`SEEN_CACHE`]).
    seen: foldhash::HashMap<[u64; 2], (u32, KeptUrl)>,
    /// The page whose links are being queued (its whole URL), and what `seen` keeps of it,
    /// shared by the entries that name it.
    parent: Option<(String, KeptUrl)>,
    /// A depth no queued linked entry is deeper than, when the store could tell
    /// ([`FrontierStore::deepest_queued`]); raised by each linked entry this frontier
    /// queues. Links at that depth or deeper to known URLs need no promotion while no
    /// unlinked URL is queued: under the level barrier every link found is one level under
    /// the pages being fetched, so on most pages of a large site every known link is. A link
    /// at the bound itself still goes to the store when it may name the entry's parent
    /// ([`FrontierStore::promote`]: the least URL among the pages of one level).
    queued_depth_bound: Option<u32>,
    /// Promotions not asked of the store because they could change nothing.
    promotions_skipped: u64,
    in_flight: BTreeMap<u32, usize>,
    /// A list-mode crawl ([`Frontier::add_listed_url`]): nothing is queued but the list.
    list_mode: bool,
}

impl<S> fmt::Debug for Frontier<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Frontier").field("scope", &self.scope).field("known", &self.known).finish_non_exhaustive()
    }
}

impl<S: FrontierStore> Frontier<S> {
    /// The frontier of a new crawl, or of one resumed from its store after a restart: what
    /// was being fetched is queued again, and the start URL is added when the store does
    /// not hold it yet. Robots.txt files are read again ([`Work::Robots`]).
    pub fn resume(mut store: S, scope: Scope, limits: Limits) -> Result<Frontier<S>, S::Error> {
        store.requeue_fetching()?;
        let start = Entry::new(scope.start().to_string(), Some(0), None, Source::Start);
        store.insert(start)?;
        let known = store.counts()?.total();
        let queued_depth_bound = store.deepest_queued()?;
        Ok(Frontier {
            store,
            scope,
            limits,
            robots: HashMap::new(),
            known,
            not_queued: 0,
            seen: foldhash::HashMap::default(),
            parent: None,
            queued_depth_bound,
            promotions_skipped: 0,
            in_flight: BTreeMap::new(),
            list_mode: false,
        })
    }

    /// Makes this a list-mode crawl, if it is not one already, and queues `url`, one of the
    /// caller's list (docs/RULES.md, "List mode"): without a click depth, after the start
    /// URL, as [`Source::List`]. From then on the frontier queues nothing else: a fetched
    /// page's links are recorded with its record (for the link graph and the link rules) but
    /// not followed, a redirect's target is recorded but not fetched, and sitemap URLs are
    /// not queued. The scope still applies (`include`, `exclude`, `max_pages`), and so does
    /// robots.txt. Called again for each URL of the list when a crawl resumes: a URL known
    /// already is left alone.
    pub fn add_listed_url(&mut self, url: &str) -> Result<(), S::Error> {
        self.list_mode = true;
        self.enqueue_new(url, None, "", Source::List)
    }

    /// Whether this is a list-mode crawl ([`Frontier::add_listed_url`]).
    pub fn is_list_mode(&self) -> bool {
        self.list_mode
    }

    /// Links this run found to URLs it did not record because the frontier holds
    /// [`Limits::max_known_urls`] URLs already, or because the URL (from a sitemap or a
    /// redirect; a page's links are cut at the record) is longer than
    /// [`MAX_RECORDED_URL_BYTES`]: the URLs a crawl leaves out, counted rather than cut
    /// silently. A URL is counted once while the frontier remembers handling a
    /// link to it ([`SEEN_CACHE`]), so once in most crawls, again when a shallower link
    /// reaches it or after the cache was emptied.
    pub fn links_not_queued(&self) -> u64 {
        self.not_queued
    }

    /// The store.
    pub fn store(&mut self) -> &mut S {
        &mut self.store
    }

    /// Gives the store back.
    pub fn into_store(self) -> S {
        self.store
    }

    /// The crawl's scope.
    pub fn scope(&self) -> &Scope {
        &self.scope
    }

    /// The delay between the starts of two fetches that robots.txt asks for
    /// (`Crawl-delay` for the profile's token, [`Limits::profile`], at most [`MAX_CRAWL_DELAY`]; the longest of
    /// the crawl's hosts).
    pub fn crawl_delay(&self) -> Option<Duration> {
        self.robots
            .values()
            .filter_map(|r| match r {
                HostRobots::Known(r) => r.crawl_delay(self.limits.profile.robots_token()),
                HostRobots::Pending => None,
            })
            .filter(|d| d.is_finite() && *d > 0.0)
            .map(|d| Duration::from_secs_f64(d).min(MAX_CRAWL_DELAY))
            .max()
    }

    /// Requests in flight at most now: [`Limits::max_in_flight`], or 1 under a
    /// `Crawl-delay`.
    pub fn max_in_flight(&self) -> usize {
        if self.crawl_delay().is_some() {
            1
        } else {
            self.limits.max_in_flight.max(1)
        }
    }

    /// The counts of the store.
    pub fn counts(&mut self) -> Result<Counts, S::Error> {
        self.store.counts()
    }

    /// Whether the crawl is over: nothing queued or `max_pages` handed out, and nothing in
    /// flight.
    pub fn is_finished(&mut self) -> Result<bool, S::Error> {
        let c = self.store.counts()?;
        Ok(c.fetching == 0 && (c.queued == 0 || c.handed_out() >= u64::from(self.scope.config().max_pages)))
    }

    /// The work to start now, within the in-flight limit and `max_pages`: robots.txt files
    /// not read yet, then fetches, breadth first. URLs robots.txt disallows are recorded as
    /// [`State::Skipped`] here, with the deciding rule, and never handed out. Empty when
    /// nothing can start until some work finishes.
    pub fn next_work(&mut self) -> Result<Vec<Work>, S::Error> {
        self.next_work_beside(0)
    }

    /// [`Frontier::next_work`] while `other` requests of the crawl that are not page fetches
    /// (robots.txt files, sitemaps) are in flight: they count against the in-flight limit.
    pub fn next_work_beside(&mut self, other: usize) -> Result<Vec<Work>, S::Error> {
        let mut work = Vec::new();
        loop {
            let c = self.store.counts()?;
            let max_pages = u64::from(self.scope.config().max_pages);
            // Entries handed out in this call are `Fetching` in the store already.
            let free = self.max_in_flight().saturating_sub(c.fetching as usize + other);
            let pages_left = max_pages.saturating_sub(c.handed_out()) as usize;
            let limit = free.min(pages_left);
            if limit == 0 {
                return Ok(work);
            }
            // URLs found in sitemaps only wait until no linked URL is queued or in flight,
            // so that a URL the links reach gets its click depth.
            let unlinked = c.queued == c.queued_unlinked && c.fetching == c.fetching_unlinked;
            // The level barrier: nothing deeper than the shallowest page in flight is handed
            // out. A page in flight at depth d may still link to a queued URL (depth d + 1,
            // no change) or redirect to one (depth d: shorter than the d + 1 it may have been
            // queued at, and lowered while it waits). Were a deeper URL fetched meanwhile, it
            // would keep a depth one too high, and its links with it, depending on which
            // answer came first; with the barrier every URL is fetched at its shortest click
            // depth whatever the number of requests in flight.
            let max_depth = self.in_flight.keys().next().copied();
            let claimed = self.store.claim_within(limit, unlinked, max_depth)?;
            if claimed.is_empty() {
                return Ok(work);
            }
            let mut waiting = false;
            for mut entry in claimed {
                let Ok(url) = Url::parse(&entry.url) else {
                    entry.state = State::Failed;
                    entry.reason = Some("not a URL".to_string());
                    self.store.update(&entry)?;
                    continue;
                };
                let host = host_key(&url);
                match self.robots.get(&host) {
                    None => {
                        self.robots.insert(host.clone(), HostRobots::Pending);
                        work.push(Work::Robots { url: format!("{host}/robots.txt") });
                        entry.state = State::Queued;
                        self.store.update(&entry)?;
                        waiting = true;
                    }
                    Some(HostRobots::Pending) => {
                        entry.state = State::Queued;
                        self.store.update(&entry)?;
                        waiting = true;
                    }
                    Some(HostRobots::Known(robots)) => {
                        let verdict = robots.verdict(self.limits.profile.robots_token(), url.as_str());
                        if verdict.allowed || self.limits.ignore_robots {
                            if let Some(depth) = entry.depth {
                                *self.in_flight.entry(depth).or_default() += 1;
                            }
                            work.push(Work::Fetch(entry));
                        } else {
                            let why = robots
                                .unreachable_reason()
                                .map(|r| format!("robots.txt unreachable ({r})"))
                                .or_else(|| verdict.matched_rule.map(|r| format!("robots.txt: {r}")))
                                .unwrap_or_else(|| "robots.txt".to_string());
                            entry.state = State::Skipped;
                            entry.reason = Some(bounded_reason(why));
                            self.store.update(&entry)?;
                        }
                    }
                }
            }
            // Entries put back while their host's robots.txt is read would be claimed again:
            // stop here; `set_robots` unblocks them.
            if waiting {
                return Ok(work);
            }
        }
    }

    /// The robots.txt of the host of `robots_url` (a [`Work::Robots`] URL), read
    /// ([`robots_from_answer`]). Returns its `Sitemap:` lines, for
    /// [`Sitemaps::add_source`](crate::Sitemaps::add_source).
    pub fn set_robots(&mut self, robots_url: &str, robots: Robots) -> Vec<String> {
        let host = Url::parse(robots_url).map(|u| host_key(&u)).unwrap_or_default();
        let sitemaps = robots.sitemaps().to_vec();
        self.robots.insert(host, HostRobots::Known(robots));
        sitemaps
    }

    /// Records what fetching `entry` (handed out by [`Frontier::next_work`]) gave, and queues the
    /// links to follow (one level deeper) or the redirect's target (same depth; a redirect
    /// to another site is recorded, not followed). Returns the redirect's target,
    /// normalised, for the page's record.
    pub fn record(&mut self, mut entry: Entry, outcome: Outcome<'_>) -> Result<Option<String>, S::Error> {
        if let Some(depth) = entry.depth {
            if let Some(n) = self.in_flight.get_mut(&depth) {
                *n -= 1;
                if *n == 0 {
                    self.in_flight.remove(&depth);
                }
            }
        }
        let mut target = None;
        match outcome {
            Outcome::Answered(page) => {
                entry.state = State::Done;
                entry.status = page.status;
                self.store.update(&entry)?;
                // The links of an error page are not followed (its body is the server's
                // error page, not the site's content).
                if !matches!(page.status, Some(200..=299)) {
                    return Ok(None);
                }
                // A list-mode crawl fetches its list only: the links stay in the page's record.
                if self.list_mode {
                    return Ok(None);
                }
                let depth = entry.depth.map(|d| d.saturating_add(1));
                for link in page.outlinks.iter().filter(|l| l.follow) {
                    self.enqueue(&link.url, depth, &entry.url, Source::Link)?;
                }
                // Canonical, hreflang and pagination targets are fetched too, so that their
                // rules can judge them, and a meta refresh's, where a browser goes next; they
                // are no links (they give no inlinks).
                let named = page
                    .canonical
                    .iter()
                    .chain(page.hreflang.iter().map(|(_, u)| u))
                    .chain(page.next.iter())
                    .chain(page.prev.iter())
                    .chain(page.refresh.iter());
                for url in named.filter(|u| **u != entry.url) {
                    self.enqueue(url, depth, &entry.url, Source::Link)?;
                }
            }
            Outcome::Redirected { status, location } => {
                entry.state = State::Done;
                entry.status = Some(status);
                self.store.update(&entry)?;
                let base = normalize(&entry.url).ok();
                let to = location.zip(base).and_then(|(l, b)| normalize_relative(&b, l).ok());
                if let Some(to) = to {
                    if self.scope.same_site(&to) && !self.list_mode {
                        self.enqueue(to.as_str(), entry.depth, &entry.url, Source::Redirect)?;
                    }
                    // Recorded as queued: without the parameters the crawl strips.
                    target = Some(self.scope.strip_params(to.as_str()).into_owned());
                }
            }
            Outcome::Failed { reason } => {
                entry.state = State::Failed;
                entry.reason = Some(bounded_reason(reason.to_string()));
                self.store.update(&entry)?;
            }
        }
        Ok(target)
    }

    /// Lists `url`, the target of a redirect from `from` that the crawl does not follow (on
    /// another site, see [`Frontier::record`]), as refused: [`State::Skipped`] (never
    /// fetched, so it does not count against `max_pages`) with `reason`, the redirect's depth
    /// and [`Source::Redirect`]. The runner calls it when the address guard refuses the
    /// target (an inner address), so that the refusal is listed with the crawl's URLs
    /// instead of hiding in the redirect's `Location`. A URL known already is left alone.
    pub fn record_refused(
        &mut self,
        url: &str,
        depth: Option<u32>,
        from: &str,
        reason: &str,
    ) -> Result<bool, S::Error> {
        let Ok(url) = normalize(url) else {
            return Ok(false);
        };
        if url.as_str().len() > MAX_RECORDED_URL_BYTES {
            // As for a queued URL (see `enqueue_new`): counted, not recorded.
            self.not_queued += 1;
            return Ok(false);
        }
        if self.known >= self.limits.max_known_urls {
            return Ok(false);
        }
        let mut entry =
            Entry::new(url.to_string(), depth, Some(from.to_string()).filter(|f| !f.is_empty()), Source::Redirect);
        entry.state = State::Skipped;
        entry.reason = Some(bounded_reason(reason.to_string()));
        let added = self.store.insert(entry)?;
        self.known += u64::from(added);
        Ok(added)
    }

    /// Queues a URL listed in a sitemap (without a depth unless a link reaches it first).
    /// A list-mode crawl queues none.
    pub fn add_sitemap_url(&mut self, url: &str) -> Result<(), S::Error> {
        if self.list_mode {
            return Ok(());
        }
        self.enqueue(url, None, "", Source::Sitemap)
    }

    fn enqueue(&mut self, url: &str, depth: Option<u32>, from: &str, source: Source) -> Result<(), S::Error> {
        // A URL handled before at a shallower depth was queued (or skipped) then, and one
        // handled at this depth from a page whose URL sorts first names that page already:
        // nothing to do. A shallower one (a redirect's target is at the redirect's depth,
        // one above the links beside it) goes to the store, which lowers it, and a link at
        // the same depth from a page that sorts first goes there to name that page instead.
        // A redirect at the same depth does not: it is on the level being fetched, whose
        // URLs may be claimed already, so whether it could rename one would be timing.
        let key = fingerprint(url);
        if let Some(depth) = depth {
            let tie_break = source == Source::Link;
            if self.seen.get(&key).is_some_and(|(seen, first)| {
                *seen < depth || (*seen == depth && (!tie_break || first.at_or_before(from) == Some(true)))
            }) {
                return Ok(());
            }
        }
        let result = self.enqueue_new(url, depth, from, source);
        if let (Some(depth), true) = (depth, result.is_ok()) {
            if self.seen.len() >= SEEN_CACHE {
                self.seen.clear();
            }
            match self.seen.entry(key) {
                std::collections::hash_map::Entry::Occupied(mut known) => {
                    let (seen, first) = known.get();
                    // Where the kept bytes cannot tell, the parent kept stays: it is still no
                    // less than the store's, which compared the whole URLs.
                    if depth < *seen
                        || (depth == *seen && source == Source::Link && first.at_or_before(from) == Some(false))
                    {
                        *known.get_mut() = (depth, shared_parent(&mut self.parent, from));
                    }
                }
                std::collections::hash_map::Entry::Vacant(new) => {
                    new.insert((depth, shared_parent(&mut self.parent, from)));
                }
            }
        }
        result
    }

    fn enqueue_new(&mut self, url: &str, depth: Option<u32>, from: &str, source: Source) -> Result<(), S::Error> {
        let Ok(url) = normalize(url) else {
            return Ok(());
        };
        // The query parameters the crawl strips go before the URL is compared with those
        // known: `/p?id=1&utm_source=a` is `/p?id=1`.
        let url = match self.scope.strip_params(url.as_str()) {
            std::borrow::Cow::Borrowed(_) => url,
            std::borrow::Cow::Owned(stripped) => match normalize(&stripped) {
                Ok(url) => url,
                Err(_) => return Ok(()),
            },
        };
        if url.as_str().len() > MAX_RECORDED_URL_BYTES {
            // A page's links are kept within this length already, but a sitemap or a
            // redirect's `Location` can name any URL: one longer is not recorded (no server
            // is bound to answer it, and a row must not grow with a hostile site's input),
            // and is counted with the URLs left out.
            self.not_queued += 1;
            return Ok(());
        }
        let from = Some(from.to_string()).filter(|f| !f.is_empty());
        let mut entry = Entry::new(url.to_string(), depth, from, source);
        match self.scope.check(&url, depth) {
            Ok(()) => {}
            Err(OutOfScope::OtherSite) => return Ok(()),
            Err(out) => {
                entry.state = State::Skipped;
                entry.reason = Some(bounded_reason(out.reason()));
            }
        }
        let in_scope = entry.state == State::Queued;
        let (url, found_from) = (entry.url.clone(), entry.found_from.clone());
        if self.known < self.limits.max_known_urls {
            if self.store.insert(entry)? {
                self.known += 1;
                if let (true, Some(depth), Some(bound)) = (in_scope, depth, self.queued_depth_bound.as_mut()) {
                    *bound = (*bound).max(depth);
                }
                return Ok(());
            }
        } else if self.store.get(&url)?.is_none() {
            // Past the bound: a URL the store does not hold is left out, and counted. The
            // look-up is by the store's key (crawl, URL), never a scan.
            self.not_queued += 1;
            return Ok(());
        }
        // Known already: a sitemap URL a link reaches before it is fetched gets the link's
        // depth, and a queued URL reached by a shorter path gets the shorter depth.
        if let (true, Some(depth)) = (in_scope, depth) {
            // No queued entry is deeper than the bound and none waits without a depth: the
            // store's promotion would find nothing to lower (each is an index look-up: 40
            // links a page to known URLs cost the million-page run a sixth of its writer's
            // time, docs/PERFORMANCE.md, "A million pages").
            if self.queued_depth_bound.is_some_and(|bound| depth > bound) && self.store.counts()?.queued_unlinked == 0 {
                self.promotions_skipped += 1;
                return Ok(());
            }
            self.store.promote(&url, depth, found_from.as_deref(), source)?;
        }
        Ok(())
    }

    /// Links to known URLs whose promotion the frontier did not ask of the store, because
    /// it could change nothing (see [`FrontierStore::deepest_queued`]).
    pub fn links_promoted_skipped(&self) -> u64 {
        self.promotions_skipped
    }
}

/// A URL's key in the frontier's cache of URLs seen: 128 bits of XXH3, so that two of a
/// crawl's URLs share one with a probability of about n²/2^129 (under 10^-26 for a million
/// URLs); a shared key would make the frontier take a new URL for one it has handled.
fn fingerprint(url: &str) -> [u64; 2] {
    let h = xxhash_rust::xxh3::xxh3_128(url.as_bytes());
    [h as u64, (h >> 64) as u64]
}

/// What the cache of URLs seen keeps of a parent's URL: its first [`SEEN_PARENT_BYTES`] at
/// most (cut on a character's boundary), shared by the entries that name the same page.
#[derive(Debug, Clone)]
struct KeptUrl {
    head: Arc<str>,
    /// The URL was longer than `head`.
    cut: bool,
}

impl KeptUrl {
    fn of(url: &str) -> KeptUrl {
        let mut end = url.len().min(SEEN_PARENT_BYTES);
        while !url.is_char_boundary(end) {
            end -= 1;
        }
        KeptUrl { head: Arc::from(&url[..end]), cut: end < url.len() }
    }

    /// Whether the URL kept sorts at or before `from` (byte order): `None` when the kept
    /// bytes cannot tell (`from` begins with them and the URL was longer).
    fn at_or_before(&self, from: &str) -> Option<bool> {
        if from.as_bytes().starts_with(self.head.as_bytes()) {
            return (!self.cut).then_some(true);
        }
        // They differ within `head`, or `from` is shorter and a beginning of it: the URL
        // begins with `head`, so it sorts as `head` does against `from`.
        Some(from > &*self.head)
    }
}

/// What the cache of URLs seen keeps of `from`: the one `parent` holds when it is the same
/// page (the links of one page are queued one after another), else a new one, kept in
/// `parent`.
fn shared_parent(parent: &mut Option<(String, KeptUrl)>, from: &str) -> KeptUrl {
    match parent {
        Some((url, kept)) if url == from => kept.clone(),
        _ => {
            let kept = KeptUrl::of(from);
            *parent = Some((from.to_string(), kept.clone()));
            kept
        }
    }
}

/// `scheme://host[:port]` of a URL: the unit robots.txt applies to.
fn host_key(url: &Url) -> String {
    url.origin().ascii_serialization()
}

/// The in-memory [`FrontierStore`]: tests, tools and the command line's dry runs.
#[derive(Debug, Default, Clone)]
pub struct MemoryStore {
    entries: HashMap<String, (u64, Entry)>,
    queue: BTreeMap<(u64, u64), String>,
    next_seq: u64,
    counts: Counts,
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> MemoryStore {
        MemoryStore::default()
    }

    /// Every entry, in insertion order.
    pub fn entries(&self) -> Vec<Entry> {
        let mut all: Vec<_> = self.entries.values().collect();
        all.sort_by_key(|(seq, _)| *seq);
        all.into_iter().map(|(_, e)| e.clone()).collect()
    }

    fn queue_key(seq: u64, entry: &Entry) -> (u64, u64) {
        (entry.depth.map_or(u64::MAX, u64::from), seq)
    }
}

impl FrontierStore for MemoryStore {
    type Error = std::convert::Infallible;

    fn get(&mut self, url: &str) -> Result<Option<Entry>, Self::Error> {
        Ok(self.entries.get(url).map(|(_, e)| e.clone()))
    }

    fn insert(&mut self, entry: Entry) -> Result<bool, Self::Error> {
        if self.entries.contains_key(&entry.url) {
            return Ok(false);
        }
        let seq = self.next_seq;
        self.next_seq += 1;
        if entry.state == State::Queued {
            self.queue.insert(MemoryStore::queue_key(seq, &entry), entry.url.clone());
        }
        self.counts.change(entry.state, entry.depth.is_none(), true);
        self.entries.insert(entry.url.clone(), (seq, entry));
        Ok(true)
    }

    fn update(&mut self, entry: &Entry) -> Result<(), Self::Error> {
        if let Some((seq, old)) = self.entries.get_mut(&entry.url) {
            if old.state == State::Queued {
                self.queue.remove(&MemoryStore::queue_key(*seq, old));
            }
            if entry.state == State::Queued {
                self.queue.insert(MemoryStore::queue_key(*seq, entry), entry.url.clone());
            }
            self.counts.change(old.state, old.depth.is_none(), false);
            self.counts.change(entry.state, entry.depth.is_none(), true);
            *old = entry.clone();
        }
        Ok(())
    }

    fn claim(&mut self, limit: usize, unlinked: bool) -> Result<Vec<Entry>, Self::Error> {
        self.claim_within(limit, unlinked, None)
    }

    fn claim_within(
        &mut self,
        limit: usize,
        unlinked: bool,
        max_depth: Option<u32>,
    ) -> Result<Vec<Entry>, Self::Error> {
        let max = max_depth.map_or(u64::MAX, u64::from);
        // The queue is in depth order: the first key past the bound ends the claim.
        let keys: Vec<_> = self
            .queue
            .keys()
            .take_while(|(depth, _)| *depth <= max)
            .filter(|(depth, _)| unlinked || *depth != u64::MAX)
            .take(limit)
            .copied()
            .collect();
        let mut out = Vec::with_capacity(keys.len());
        for key in keys {
            if let Some(url) = self.queue.remove(&key) {
                if let Some((_, entry)) = self.entries.get_mut(&url) {
                    self.counts.change(entry.state, entry.depth.is_none(), false);
                    entry.state = State::Fetching;
                    self.counts.change(entry.state, entry.depth.is_none(), true);
                    out.push(entry.clone());
                }
            }
        }
        Ok(out)
    }

    fn deepest_queued(&mut self) -> Result<Option<u32>, Self::Error> {
        // The queue's keys are (depth, order), unlinked entries last at `u64::MAX`.
        let deepest = self.queue.keys().rev().find(|(depth, _)| *depth != u64::MAX).map(|(depth, _)| *depth);
        Ok(Some(deepest.map_or(0, |d| u32::try_from(d).unwrap_or(u32::MAX))))
    }

    fn counts(&mut self) -> Result<Counts, Self::Error> {
        Ok(self.counts)
    }

    fn requeue_fetching(&mut self) -> Result<u64, Self::Error> {
        let fetching: Vec<Entry> =
            self.entries.values().filter(|(_, e)| e.state == State::Fetching).map(|(_, e)| e.clone()).collect();
        for mut e in fetching.iter().cloned() {
            e.state = State::Queued;
            self.update(&e)?;
        }
        Ok(fetching.len() as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::Outlink;
    use crate::urls::ScopeConfig;

    fn frontier(config: ScopeConfig) -> Frontier<MemoryStore> {
        let scope = Scope::new("https://site.test/", config).unwrap();
        Frontier::resume(MemoryStore::new(), scope, Limits::default()).unwrap()
    }

    fn page(url: &str, links: &[&str]) -> CrawledPage {
        let outlinks = links
            .iter()
            .map(|l| Outlink {
                url: l.to_string(),
                anchor: String::new(),
                internal: true,
                nofollow: false,
                follow: true,
            })
            .collect();
        CrawledPage { url: url.to_string(), status: Some(200), html: true, outlinks, ..CrawledPage::default() }
    }

    fn fetches(work: Vec<Work>) -> Vec<Entry> {
        work.into_iter()
            .map(|w| match w {
                Work::Fetch(e) => e,
                Work::Robots { url } => panic!("unexpected robots work {url}"),
            })
            .collect()
    }

    /// Answers the robots.txt work with `body` and returns the fetches handed out next.
    fn allow(f: &mut Frontier<MemoryStore>, body: &[u8]) -> Vec<Entry> {
        let work = f.next_work().unwrap();
        assert_eq!(work, vec![Work::Robots { url: "https://site.test/robots.txt".into() }]);
        assert!(f.next_work().unwrap().is_empty(), "nothing is fetched before robots.txt is read");
        f.set_robots("https://site.test/robots.txt", robots_from_answer(Some(200), body));
        fetches(f.next_work().unwrap())
    }

    #[test]
    fn a_list_mode_crawl_fetches_its_list_and_follows_nothing() {
        let config = ScopeConfig { exclude: vec!["/private".into()], ..ScopeConfig::default() };
        let mut f = frontier(config);
        for url in ["https://site.test/a", "https://site.test/b#x", "https://site.test/", "https://site.test/private/c"]
        {
            f.add_listed_url(url).unwrap();
        }
        assert!(f.is_list_mode());
        f.add_sitemap_url("https://site.test/from-sitemap").unwrap();
        assert!(f.store().get("https://site.test/from-sitemap").unwrap().is_none(), "no sitemap URL is queued");
        let excluded = f.store().get("https://site.test/private/c").unwrap().unwrap();
        assert_eq!((excluded.state, excluded.source), (State::Skipped, Source::List), "the scope still applies");
        // The start URL first (it is listed once), then the list, none with a click depth.
        let start = allow(&mut f, b"");
        assert_eq!(start.iter().map(|e| e.url.as_str()).collect::<Vec<_>>(), ["https://site.test/"]);
        let p = page("https://site.test/", &["https://site.test/linked", "https://site.test/a"]);
        f.record(start[0].clone(), Outcome::Answered(&p)).unwrap();
        let listed = fetches(f.next_work().unwrap());
        assert_eq!(
            listed.iter().map(|e| e.url.as_str()).collect::<Vec<_>>(),
            ["https://site.test/a", "https://site.test/b"]
        );
        assert!(listed.iter().all(|e| e.depth.is_none() && e.source == Source::List));
        assert!(f.store().get("https://site.test/linked").unwrap().is_none(), "links are not followed");
        let to = f.record(listed[0].clone(), Outcome::Redirected { status: 301, location: Some("/moved") }).unwrap();
        assert_eq!(to.as_deref(), Some("https://site.test/moved"), "a redirect's target is recorded");
        assert!(f.store().get("https://site.test/moved").unwrap().is_none(), "and not fetched");
        f.record(listed[1].clone(), Outcome::Answered(&page("https://site.test/b", &["https://site.test/c"]))).unwrap();
        assert!(f.next_work().unwrap().is_empty());
        assert!(f.is_finished().unwrap());
        let c = f.counts().unwrap();
        assert_eq!((c.done, c.skipped, c.queued), (3, 1, 0));
    }

    #[test]
    fn what_the_cache_of_urls_seen_keeps_of_a_parent_tells_its_order_or_says_it_cannot() {
        let long = format!("https://site.test/{}", "x".repeat(300));
        let mut parent = None;
        let kept = shared_parent(&mut parent, &long);
        assert!(kept.cut);
        assert_eq!(kept.head.len(), SEEN_PARENT_BYTES);
        assert!(Arc::ptr_eq(&kept.head, &shared_parent(&mut parent, &long).head), "a page's links share one");
        // A character of two bytes across the cut: kept whole or not at all.
        let wide = format!("https://site.test/{}é", "y".repeat(SEEN_PARENT_BYTES - 19));
        let kept = shared_parent(&mut parent, &wide);
        assert!(kept.cut && kept.head.len() == SEEN_PARENT_BYTES - 1 && wide.starts_with(&*kept.head));
        let kept = shared_parent(&mut parent, "https://site.test/b");
        assert!(!kept.cut && &*kept.head == "https://site.test/b");
        // Whole: exact.
        let b = KeptUrl::of("https://site.test/b");
        assert_eq!(b.at_or_before("https://site.test/b"), Some(true));
        assert_eq!(b.at_or_before("https://site.test/c"), Some(true));
        assert_eq!(b.at_or_before("https://site.test/a"), Some(false));
        assert_eq!(b.at_or_before("https://site.test/"), Some(false));
        assert_eq!(b.at_or_before("https://site.test/bb"), Some(true));
        // Cut: told where they differ within the kept bytes, not past them.
        let cut = KeptUrl::of(&long);
        assert_eq!(cut.at_or_before("https://site.test/z"), Some(true));
        assert_eq!(cut.at_or_before("https://site.test/a"), Some(false));
        assert_eq!(cut.at_or_before(&long[..50]), Some(false));
        assert_eq!(cut.at_or_before(&long), None);
        assert_eq!(cut.at_or_before(&format!("{}a", &long[..SEEN_PARENT_BYTES])), None);
    }

    /// Pages of one level whose URLs are longer than the cache keeps of a parent and begin
    /// alike: the store, comparing whole URLs, still names the least, in any order.
    #[test]
    fn the_least_parent_is_named_when_parents_urls_are_longer_than_the_cache_keeps() {
        let long = |end: &str| format!("https://site.test/long-{}{end}", "x".repeat(200));
        let level: Vec<String> = vec![long("b"), "https://site.test/z".into(), long("a"), "https://site.test/m".into()];
        let least = long("a");
        for order in [[0, 1, 2, 3], [3, 2, 1, 0], [2, 0, 3, 1], [1, 3, 0, 2]] {
            let mut f = frontier(ScopeConfig::default());
            let start = allow(&mut f, b"");
            let refs: Vec<&str> = level.iter().map(String::as_str).collect();
            f.record(start[0].clone(), Outcome::Answered(&page("https://site.test/", &refs))).unwrap();
            let fetched = fetches(f.next_work().unwrap());
            assert_eq!(fetched.len(), 4);
            for i in order {
                let entry = fetched.iter().find(|e| e.url == level[i]).unwrap().clone();
                let p = page(&level[i], &["https://site.test/t"]);
                f.record(entry, Outcome::Answered(&p)).unwrap();
            }
            let t = f.store().get("https://site.test/t").unwrap().unwrap();
            assert_eq!((t.depth, t.found_from.as_deref()), (Some(2), Some(least.as_str())), "{order:?}");
        }
    }

    #[test]
    fn other_requests_in_flight_count_against_the_limit() {
        let mut f = frontier(ScopeConfig::default());
        let start = allow(&mut f, b"");
        let links: Vec<String> = (0..8).map(|i| format!("https://site.test/{i}")).collect();
        let refs: Vec<&str> = links.iter().map(String::as_str).collect();
        f.record(start[0].clone(), Outcome::Answered(&page("https://site.test/", &refs))).unwrap();
        // A sitemap in flight: three of the four places are left for pages.
        let batch = fetches(f.next_work_beside(1).unwrap());
        assert_eq!(batch.len(), 3);
        assert!(f.next_work_beside(1).unwrap().is_empty());
        // It ended: its place goes to a page.
        assert_eq!(fetches(f.next_work_beside(0).unwrap()).len(), 1);
        assert!(f.next_work_beside(4).unwrap().is_empty());
    }

    #[test]
    fn breadth_first_with_depth_dedup_and_in_flight_limit() {
        let mut f = frontier(ScopeConfig::default());
        let start = allow(&mut f, b"");
        assert_eq!(start.len(), 1);
        assert_eq!(
            (start[0].url.as_str(), start[0].depth, start[0].source),
            ("https://site.test/", Some(0), Source::Start)
        );
        let links = ["/a", "/b", "/c", "/d", "/e", "/a#x", "https://WWW.site.test/f", "https://site.test/"];
        let links: Vec<String> = links
            .iter()
            .map(|l| format!("https://site.test{l}").replace("https://site.testhttps://", "https://"))
            .collect();
        let refs: Vec<&str> = links.iter().map(String::as_str).collect();
        f.record(start[0].clone(), Outcome::Answered(&page("https://site.test/", &refs))).unwrap();
        let batch = fetches(f.next_work().unwrap());
        // Four in flight at most; breadth first in link order; /a once; the start not again.
        let urls: Vec<_> = batch.iter().map(|e| e.url.as_str()).collect();
        assert_eq!(urls, ["https://site.test/a", "https://site.test/b", "https://site.test/c", "https://site.test/d"]);
        assert!(batch.iter().all(|e| e.depth == Some(1) && e.found_from.as_deref() == Some("https://site.test/")));
        assert!(f.next_work().unwrap().is_empty());
        // /a links deeper; /e and the www twin are still served before depth 2.
        f.record(batch[0].clone(), Outcome::Answered(&page("https://site.test/a", &["https://site.test/deep"])))
            .unwrap();
        let next = fetches(f.next_work().unwrap());
        assert_eq!(next.iter().map(|e| e.url.as_str()).collect::<Vec<_>>(), ["https://site.test/e"]);
        for e in batch.into_iter().skip(1).chain(next) {
            f.record(e, Outcome::Failed { reason: "timeout" }).unwrap();
        }
        // The www twin is another host: its robots.txt is read before its first page.
        let work = f.next_work().unwrap();
        assert_eq!(work.len(), 2);
        assert_eq!(work[0], Work::Robots { url: "https://www.site.test/robots.txt".into() });
        assert!(matches!(&work[1], Work::Fetch(e) if e.url == "https://site.test/deep" && e.depth == Some(2)));
        f.set_robots("https://www.site.test/robots.txt", robots_from_answer(Some(404), b""));
        let twin = fetches(f.next_work().unwrap());
        assert_eq!((twin[0].url.as_str(), twin[0].depth), ("https://www.site.test/f", Some(1)));
        let c = f.counts().unwrap();
        assert_eq!((c.done, c.failed, c.fetching, c.queued), (2, 4, 2, 0));
        assert!(!f.is_finished().unwrap());
    }

    #[test]
    fn robots_disallowed_urls_are_skipped_never_handed_out() {
        let mut f = frontier(ScopeConfig::default());
        let start = allow(
            &mut f,
            b"User-agent: *\nDisallow: /\n\nUser-agent: SeoAuditBot\nDisallow: /private\nAllow: /\nCrawl-delay: 2\n",
        );
        assert_eq!(f.crawl_delay(), Some(Duration::from_secs(2)));
        assert_eq!(f.max_in_flight(), 1);
        let p = page("https://site.test/", &["https://site.test/private/x", "https://site.test/public"]);
        f.record(start[0].clone(), Outcome::Answered(&p)).unwrap();
        let next = fetches(f.next_work().unwrap());
        assert_eq!(next.iter().map(|e| e.url.as_str()).collect::<Vec<_>>(), ["https://site.test/public"]);
        let skipped = f.store().get("https://site.test/private/x").unwrap().unwrap();
        assert_eq!(skipped.state, State::Skipped);
        assert_eq!(skipped.reason.as_deref(), Some("robots.txt: Disallow: /private"));
    }

    #[test]
    fn robots_txt_is_obeyed_for_the_profiles_token_and_ignored_only_when_asked() {
        let robots = b"User-agent: Googlebot\nDisallow: /mobile-only\n\nUser-agent: *\nDisallow: /private\n";
        let outcome = |limits: Limits| {
            let scope = Scope::new("https://site.test/", ScopeConfig::default()).unwrap();
            let mut f = Frontier::resume(MemoryStore::new(), scope, limits).unwrap();
            let home = allow(&mut f, robots).remove(0);
            let links = page("https://site.test/", &["https://site.test/mobile-only", "https://site.test/private"]);
            f.record(home, Outcome::Answered(&links)).unwrap();
            let fetched: Vec<String> = fetches(f.next_work().unwrap()).into_iter().map(|e| e.url).collect();
            let skipped: Vec<String> =
                f.store().entries().into_iter().filter(|e| e.state == State::Skipped).map(|e| e.url).collect();
            (fetched, skipped)
        };
        let default = outcome(Limits::default());
        assert_eq!(
            default,
            (vec!["https://site.test/mobile-only".to_string()], vec!["https://site.test/private".to_string()])
        );
        let phone = outcome(Limits { profile: CrawlerProfile::Smartphone, ..Limits::default() });
        assert_eq!(
            phone,
            (vec!["https://site.test/private".to_string()], vec!["https://site.test/mobile-only".to_string()])
        );
        let (mut fetched, skipped) = outcome(Limits { ignore_robots: true, ..Limits::default() });
        fetched.sort();
        assert_eq!(fetched, ["https://site.test/mobile-only", "https://site.test/private"]);
        assert!(skipped.is_empty());
    }

    #[test]
    fn a_long_robots_txt_rule_is_cut_in_the_reason_kept() {
        let mut f = frontier(ScopeConfig::default());
        // A rule of 10,000 bytes (wildcards match any path) in a robots.txt of the site's own.
        let rule = format!("/private{}", "*".repeat(10_000));
        let start = allow(&mut f, format!("User-agent: *\nDisallow: {rule}\n").as_bytes());
        let p = page("https://site.test/", &["https://site.test/private/x"]);
        f.record(start[0].clone(), Outcome::Answered(&p)).unwrap();
        assert!(f.next_work().unwrap().is_empty());
        let skipped = f.store().get("https://site.test/private/x").unwrap().unwrap();
        assert_eq!(skipped.state, State::Skipped);
        let reason = skipped.reason.unwrap();
        assert_eq!(reason.len(), MAX_REASON_BYTES, "{reason}");
        assert!(reason.starts_with("robots.txt: Disallow: /private**"), "{reason}");
        assert!(reason.ends_with('…'), "the cut shows: {reason}");
        // A reason within the bound is kept whole, and a cut never splits a character.
        assert_eq!(bounded_reason("robots.txt: Disallow: /a".into()), "robots.txt: Disallow: /a");
        let wide = bounded_reason("é".repeat(MAX_REASON_BYTES));
        assert!(wide.len() <= MAX_REASON_BYTES && wide.ends_with('…'), "{}", wide.len());
    }

    #[test]
    fn an_unreachable_robots_txt_disallows_everything() {
        let mut f = frontier(ScopeConfig::default());
        assert!(matches!(f.next_work().unwrap()[..], [Work::Robots { .. }]));
        f.set_robots("https://site.test/robots.txt", robots_from_answer(Some(503), b""));
        assert!(f.next_work().unwrap().is_empty());
        let start = f.store().get("https://site.test/").unwrap().unwrap();
        assert_eq!(start.state, State::Skipped);
        assert!(start.reason.unwrap().contains("HTTP 503"));
        assert!(f.is_finished().unwrap());
        // A 404 robots.txt allows everything.
        assert!(robots_from_answer(Some(404), b"").is_allowed(USER_AGENT_TOKEN, "/x"));
        assert!(!robots_from_answer(None, b"").is_allowed(USER_AGENT_TOKEN, "/x"));
    }

    #[test]
    fn caps_and_scope() {
        let config =
            ScopeConfig { max_pages: 3, max_depth: Some(1), exclude: vec!["/skip".into()], ..ScopeConfig::default() };
        let mut f = frontier(config);
        let start = allow(&mut f, b"");
        let p = page(
            "https://site.test/",
            &[
                "https://site.test/1",
                "https://site.test/skip/x",
                "https://other.test/",
                "https://site.test/2",
                "https://site.test/3",
            ],
        );
        f.record(start[0].clone(), Outcome::Answered(&p)).unwrap();
        let batch = fetches(f.next_work().unwrap());
        assert_eq!(batch.len(), 2, "max_pages counts the start URL");
        assert!(f.store().get("https://other.test/").unwrap().is_none(), "other sites are not frontier entries");
        let excluded = f.store().get("https://site.test/skip/x").unwrap().unwrap();
        assert_eq!((excluded.state, excluded.reason.as_deref()), (State::Skipped, Some("excluded by /skip")));
        f.record(batch[0].clone(), Outcome::Answered(&page("https://site.test/1", &["https://site.test/deeper"])))
            .unwrap();
        let too_deep = f.store().get("https://site.test/deeper").unwrap().unwrap();
        assert_eq!(too_deep.state, State::Skipped);
        f.record(batch[1].clone(), Outcome::Failed { reason: "x" }).unwrap();
        assert!(f.next_work().unwrap().is_empty());
        assert!(f.is_finished().unwrap(), "max_pages reached with /3 still queued");
    }

    #[test]
    fn redirects_queue_their_target_at_the_same_depth_other_sites_are_recorded_only() {
        let mut f = frontier(ScopeConfig::default());
        let start = allow(&mut f, b"");
        let to = f.record(start[0].clone(), Outcome::Redirected { status: 301, location: Some("/home#top") }).unwrap();
        assert_eq!(to.as_deref(), Some("https://site.test/home"));
        let next = fetches(f.next_work().unwrap());
        assert_eq!(
            (next[0].url.as_str(), next[0].depth, next[0].source),
            ("https://site.test/home", Some(0), Source::Redirect)
        );
        let to = f
            .record(next[0].clone(), Outcome::Redirected { status: 302, location: Some("https://elsewhere.test/") })
            .unwrap();
        assert_eq!(to.as_deref(), Some("https://elsewhere.test/"));
        assert!(f.next_work().unwrap().is_empty());
        assert!(f.is_finished().unwrap());
        assert_eq!(f.store().get("https://site.test/").unwrap().unwrap().status, Some(301));
    }

    #[test]
    fn a_refused_redirect_target_is_listed_as_skipped_and_costs_no_page() {
        let mut f = frontier(ScopeConfig { max_pages: 1, ..ScopeConfig::default() });
        let start = allow(&mut f, b"");
        let to = f
            .record(start[0].clone(), Outcome::Redirected { status: 302, location: Some("http://10.0.0.1/admin#x") })
            .unwrap()
            .unwrap();
        assert!(f.record_refused(&to, Some(0), "https://site.test/", "blocked_target: inner").unwrap());
        assert!(!f.record_refused(&to, Some(0), "https://site.test/", "again").unwrap(), "listed once");
        let refused = f.store().get("http://10.0.0.1/admin").unwrap().unwrap();
        assert_eq!(
            (refused.state, refused.reason.as_deref(), refused.source, refused.found_from.as_deref(), refused.depth),
            (State::Skipped, Some("blocked_target: inner"), Source::Redirect, Some("https://site.test/"), Some(0))
        );
        let c = f.counts().unwrap();
        assert_eq!((c.done, c.skipped, c.handed_out()), (1, 1, 1), "not fetched: max_pages is not used by it");
        assert!(f.next_work().unwrap().is_empty());
        assert!(f.is_finished().unwrap());
    }

    #[test]
    fn urls_longer_than_a_record_keeps_are_counted_not_recorded() {
        let mut f = frontier(ScopeConfig::default());
        let start = allow(&mut f, b"");
        // The longest URL kept, and one byte more, from a sitemap.
        let at = |len: usize| {
            let base = "https://site.test/";
            format!("{base}{}", "a".repeat(len - base.len()))
        };
        f.add_sitemap_url(&at(MAX_RECORDED_URL_BYTES)).unwrap();
        f.add_sitemap_url(&at(MAX_RECORDED_URL_BYTES + 1)).unwrap();
        assert!(f.store().get(&at(MAX_RECORDED_URL_BYTES)).unwrap().is_some(), "a URL at the bound is kept");
        assert!(f.store().get(&at(MAX_RECORDED_URL_BYTES + 1)).unwrap().is_none());
        assert_eq!(f.links_not_queued(), 1);
        // A redirect's target past the bound: not queued, counted.
        let long = at(MAX_RECORDED_URL_BYTES + 100);
        f.record(start[0].clone(), Outcome::Redirected { status: 301, location: Some(&long) }).unwrap();
        assert!(f.store().get(&long).unwrap().is_none());
        assert_eq!(f.links_not_queued(), 2);
        // Nor is it listed as refused.
        assert!(!f.record_refused(&long, Some(0), "https://site.test/", "blocked_target: inner").unwrap());
        assert!(f.store().get(&long).unwrap().is_none());
        assert_eq!(f.links_not_queued(), 3);
    }

    #[test]
    fn sitemap_urls_wait_for_linked_ones_and_take_a_links_depth() {
        let mut f = frontier(ScopeConfig::default());
        f.add_sitemap_url("https://site.test/in-sitemap").unwrap();
        f.add_sitemap_url("https://site.test/orphan").unwrap();
        let start = allow(&mut f, b"");
        assert_eq!(start.len(), 1, "sitemap URLs wait while a linked URL is in flight");
        f.record(start[0].clone(), Outcome::Answered(&page("https://site.test/", &["https://site.test/in-sitemap"])))
            .unwrap();
        let next = fetches(f.next_work().unwrap());
        assert_eq!(next.len(), 1);
        assert_eq!(
            (next[0].url.as_str(), next[0].depth, next[0].source),
            ("https://site.test/in-sitemap", Some(1), Source::Link)
        );
        f.record(next[0].clone(), Outcome::Answered(&page("https://site.test/in-sitemap", &[]))).unwrap();
        let last = fetches(f.next_work().unwrap());
        assert_eq!(
            (last[0].url.as_str(), last[0].depth, last[0].source),
            ("https://site.test/orphan", None, Source::Sitemap)
        );
    }

    #[test]
    fn known_links_no_shallower_than_the_queue_skip_the_promotion_and_a_shallower_one_does_not() {
        let mut f = frontier(ScopeConfig::default());
        let start = allow(&mut f, b"");
        let home = page("https://site.test/", &["https://site.test/a", "https://site.test/b"]);
        f.record(start[0].clone(), Outcome::Answered(&home)).unwrap();
        // A restart: the frontier's cache of URLs seen is empty, and the depth bound is read
        // from the store (a and b queued at depth 1).
        let scope = Scope::new("https://site.test/", ScopeConfig::default()).unwrap();
        let mut f = Frontier::resume(f.store().clone(), scope, Limits::default()).unwrap();
        let level = allow(&mut f, b"");
        let got: Vec<_> = level.iter().map(|e| (e.url.as_str(), e.depth)).collect();
        assert_eq!(got, [("https://site.test/a", Some(1)), ("https://site.test/b", Some(1))]);
        // a links at depth 2 to two known URLs (done, in flight: nothing to lower) and a new one.
        let a = page("https://site.test/a", &["https://site.test/", "https://site.test/b", "https://site.test/c"]);
        f.record(level[0].clone(), Outcome::Answered(&a)).unwrap();
        assert_eq!(f.links_promoted_skipped(), 2);
        assert_eq!(f.store().get("https://site.test/c").unwrap().unwrap().depth, Some(2));
        // b redirects to c: depth 1, shallower than the queue's deepest (2): c is lowered.
        let to = f.record(level[1].clone(), Outcome::Redirected { status: 301, location: Some("/c") }).unwrap();
        assert_eq!(to.as_deref(), Some("https://site.test/c"));
        assert_eq!(f.links_promoted_skipped(), 2);
        let c = f.store().get("https://site.test/c").unwrap().unwrap();
        assert_eq!((c.depth, c.source), (Some(1), Source::Redirect));
    }

    #[test]
    fn a_restart_requeues_what_was_in_flight() {
        let mut f = frontier(ScopeConfig::default());
        let start = allow(&mut f, b"");
        f.record(
            start[0].clone(),
            Outcome::Answered(&page("https://site.test/", &["https://site.test/a", "https://site.test/b"])),
        )
        .unwrap();
        let batch = fetches(f.next_work().unwrap());
        f.record(batch[0].clone(), Outcome::Answered(&page("https://site.test/a", &[]))).unwrap();
        // The process dies with /b in flight; a new frontier resumes from the same store.
        let store = f.into_store();
        let scope = Scope::new("https://site.test/", ScopeConfig::default()).unwrap();
        let mut f = Frontier::resume(store, scope, Limits::default()).unwrap();
        let again = allow(&mut f, b"");
        assert_eq!(again.iter().map(|e| e.url.as_str()).collect::<Vec<_>>(), ["https://site.test/b"]);
        let c = f.counts().unwrap();
        assert_eq!((c.done, c.fetching, c.queued), (2, 1, 0));
    }

    #[test]
    fn the_links_of_an_error_page_are_not_followed() {
        let mut f = frontier(ScopeConfig::default());
        let start = allow(&mut f, b"");
        let mut error_page = page("https://site.test/", &["https://site.test/a"]);
        error_page.status = Some(500);
        f.record(start[0].clone(), Outcome::Answered(&error_page)).unwrap();
        assert_eq!(f.store().get("https://site.test/").unwrap().unwrap().status, Some(500));
        assert!(f.store().get("https://site.test/a").unwrap().is_none());
        assert!(f.is_finished().unwrap());
    }

    #[test]
    fn the_known_urls_bound_drops_further_links() {
        let scope = Scope::new("https://site.test/", ScopeConfig::default()).unwrap();
        let limits = Limits { max_known_urls: 3, ..Limits::default() };
        let mut f = Frontier::resume(MemoryStore::new(), scope, limits).unwrap();
        let start = allow(&mut f, b"");
        let links: Vec<String> = (0..10).map(|i| format!("https://site.test/{i}")).collect();
        let refs: Vec<&str> = links.iter().map(String::as_str).collect();
        f.record(start[0].clone(), Outcome::Answered(&page("https://site.test/", &refs))).unwrap();
        assert_eq!(f.counts().unwrap().total(), 3);
        // The start and two links are recorded; the other eight are counted.
        assert_eq!(f.links_not_queued(), 8);
    }

    #[test]
    fn names_round_trip() {
        use strum::VariantArray as _;
        for &s in State::VARIANTS {
            assert_eq!(s.as_str().parse::<State>(), Ok(s));
        }
        for &s in Source::VARIANTS {
            assert_eq!(s.as_str().parse::<Source>(), Ok(s));
        }
        let names: Vec<&str> = State::VARIANTS.iter().map(|s| s.as_str()).collect();
        assert_eq!(names, ["queued", "fetching", "done", "failed", "skipped"]);
        let names: Vec<&str> = Source::VARIANTS.iter().map(|s| s.as_str()).collect();
        assert_eq!(names, ["start", "link", "redirect", "sitemap", "list"]);
        assert!("nope".parse::<State>().is_err());
    }
}
