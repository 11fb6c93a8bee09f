//! The crawl's external links as checked (docs/RULES.md, `broken-external-link`): which
//! external URLs a crawl checks ([`ExternalBudget`]: each once, at most a budget of them) and
//! what the checks gave ([`ExternalLinks`]: the broken ones with their answer, every URL not
//! checked counted by why). The application fetches; this is the bookkeeping, no I/O.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::hash::{Hash, Hasher};

use serde::{Deserialize, Serialize};

/// External URLs the command line checks at most per crawl by default (`--external-budget`).
pub const DEFAULT_EXTERNAL_BUDGET: u64 = 500;

/// How long one external URL's check may take by default, redirects and the GET after a
/// refused HEAD included; a check that takes longer is counted as not checked, not broken.
pub const DEFAULT_EXTERNAL_TIMEOUT_SECS: u64 = 10;

/// Checks in flight at most on one host (another site's politeness: a crawl never sends it
/// more than two requests at once).
pub const EXTERNAL_PER_HOST: usize = 2;

/// Checks in flight at most in all, over every host.
pub const EXTERNAL_IN_FLIGHT: usize = 8;

/// Hosts that must all have failed, with no other site answering at all, for a crawl's
/// checks to count as unreachable rather than broken ([`ExternalLinks::settle`]).
pub const UNREACHABLE_HOSTS: usize = 3;

/// Why an external URL was not checked; each is counted in [`ExternalLinks`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotChecked {
    /// The crawl's budget of external URLs was spent.
    Budget,
    /// The address guard refused it (an inner address, or a name that leads to one): it is
    /// never fetched.
    Refused,
    /// Its check took longer than the time limit of a check.
    TimedOut,
    /// The crawl stopped (cancelled, or its time limit ran out) before it was checked.
    Stopped,
}

/// How the check of one external URL ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExternalOutcome {
    /// It answered `status` at the end of `redirects` (each hop's status and the URL it
    /// led to, in order).
    Answered {
        /// The last answer's status.
        status: u16,
        /// The redirects on the way.
        redirects: Vec<(u16, String)>,
    },
    /// No answer: the name does not resolve, the connection or TLS failed, a redirect is
    /// invalid or loops. Broken, as a visitor sees it.
    Failed {
        /// Why, in a sentence.
        error: String,
    },
    /// Not checked.
    NotChecked(NotChecked),
}

/// The external links of a crawl as checked: what `broken-external-link` reads, and the
/// counts a crawl's summary shows (docs/API.md, "Site crawl"). Every external URL found is
/// either checked or counted in one of the `not_checked_*` fields: nothing is left out
/// silently.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ExternalLinks {
    /// Whether the crawl checked external links at all (off: `--no-external`, the REST
    /// body's `external_links: false`).
    pub enabled: bool,
    /// The most external URLs the crawl checks.
    pub budget: u64,
    /// External URLs checked (answered, or failed with no answer).
    pub checked: u64,
    /// Of them, those found broken (4xx, 5xx, no answer; after redirects).
    pub broken_count: u64,
    /// External URLs not checked because the budget was spent.
    pub not_checked_budget: u64,
    /// External URLs the address guard refused (never fetched).
    pub not_checked_refused: u64,
    /// External URLs whose check ran out of time.
    pub not_checked_timed_out: u64,
    /// External URLs not checked because the crawl stopped first.
    pub not_checked_stopped: u64,
    /// External URLs whose check got no answer while no other site answered either: the
    /// crawling machine reached no other site (no network, no name resolution), so they are
    /// not known to be broken ([`ExternalLinks::settle`]).
    pub not_checked_unreachable: u64,
    /// Checks that got an HTTP answer, of any status.
    #[serde(skip)]
    answered: u64,
    /// The first [`UNREACHABLE_HOSTS`] hosts whose checks got no answer.
    #[serde(skip)]
    failed_hosts: BTreeSet<String>,
    /// The broken URLs and how each answered (`HTTP 404`, `HTTP 301 to https://…, HTTP 410`,
    /// `no answer: …`), at most the budget of them.
    #[serde(skip)]
    pub broken: BTreeMap<String, String>,
    /// The URLs that redirected to a page that answered (any status under 400), with their
    /// chain (`HTTP 301 to https://…, HTTP 200`), at most the budget of them: what
    /// `external-link-redirect` reports.
    #[serde(skip)]
    pub redirected: BTreeMap<String, String>,
}

impl ExternalLinks {
    /// Nothing checked yet, with `budget` URLs to check at most.
    pub fn new(budget: u64) -> ExternalLinks {
        ExternalLinks { enabled: true, budget, ..ExternalLinks::default() }
    }

    /// Records how the check of `url` ended.
    pub fn record(&mut self, url: &str, outcome: ExternalOutcome) {
        match outcome {
            ExternalOutcome::Answered { status, redirects } => {
                self.checked += 1;
                self.answered += 1;
                if status < 400 && redirects.is_empty() {
                    return;
                }
                let mut steps: Vec<String> =
                    redirects.iter().map(|(status, to)| format!("HTTP {status} to {to}")).collect();
                steps.push(format!("HTTP {status}"));
                if status >= 400 {
                    self.broken.insert(url.to_string(), steps.join(", "));
                    self.broken_count += 1;
                } else {
                    self.redirected.insert(url.to_string(), steps.join(", "));
                }
            }
            ExternalOutcome::Failed { error } => {
                self.checked += 1;
                if self.failed_hosts.len() < UNREACHABLE_HOSTS {
                    let host = url::Url::parse(url).ok().and_then(|u| u.host_str().map(str::to_ascii_lowercase));
                    self.failed_hosts.insert(host.unwrap_or_default());
                }
                self.broken.insert(url.to_string(), format!("no answer: {error}"));
                self.broken_count += 1;
            }
            ExternalOutcome::NotChecked(why) => self.count_not_checked(why, 1),
        }
    }

    /// Once every check ended: when no check got an answer and those of at least
    /// [`UNREACHABLE_HOSTS`] hosts failed, the machine reached no other site (a sandbox or a
    /// CI runner without a network, a resolver that is down), and its failures say nothing
    /// of the links. They are then counted as not checked (`not_checked_unreachable`), never
    /// reported as broken; a link to one dead site among answering ones is still broken.
    pub fn settle(&mut self) {
        if self.answered > 0 || self.failed_hosts.len() < UNREACHABLE_HOSTS {
            return;
        }
        self.not_checked_unreachable += self.broken_count;
        self.checked -= self.broken_count;
        self.broken_count = 0;
        self.broken.clear();
    }

    /// Counts `n` URLs not checked for `why`.
    pub fn count_not_checked(&mut self, why: NotChecked, n: u64) {
        let count = match why {
            NotChecked::Budget => &mut self.not_checked_budget,
            NotChecked::Refused => &mut self.not_checked_refused,
            NotChecked::TimedOut => &mut self.not_checked_timed_out,
            NotChecked::Stopped => &mut self.not_checked_stopped,
        };
        *count += n;
    }

    /// External URLs found but not checked, for any reason.
    pub fn not_checked(&self) -> u64 {
        self.not_checked_budget
            + self.not_checked_refused
            + self.not_checked_timed_out
            + self.not_checked_stopped
            + self.not_checked_unreachable
    }

    /// How `url` answered when it is broken.
    pub fn broken(&self, url: &str) -> Option<&str> {
        self.broken.get(url).map(String::as_str)
    }

    /// How `url` answered when it redirected to a page that is not an error.
    pub fn redirected(&self, url: &str) -> Option<&str> {
        self.redirected.get(url).map(String::as_str)
    }
}

/// Which external URLs a crawl checks: each distinct URL once, the first `budget` found in
/// crawl order; the distinct URLs past the budget are counted (a fixed 8-byte hash each, so
/// counting them costs little whatever their length).
#[derive(Debug, Default)]
pub struct ExternalBudget {
    budget: u64,
    taken: HashSet<String>,
    over: HashSet<u64>,
}

impl ExternalBudget {
    /// A budget of `budget` URLs.
    pub fn new(budget: u64) -> ExternalBudget {
        ExternalBudget { budget, ..ExternalBudget::default() }
    }

    /// Whether `url`, found in a link, is to be checked now: `true` the first time a URL
    /// is offered while the budget lasts; `false` for a URL offered before, and for a new
    /// one past the budget (then counted in [`ExternalBudget::over_budget`]).
    pub fn offer(&mut self, url: &str) -> bool {
        if self.taken.contains(url) {
            return false;
        }
        if (self.taken.len() as u64) < self.budget {
            self.taken.insert(url.to_string());
            return true;
        }
        let mut hasher = std::hash::DefaultHasher::new();
        url.hash(&mut hasher);
        self.over.insert(hasher.finish());
        false
    }

    /// The distinct URLs offered past the budget.
    pub fn over_budget(&self) -> u64 {
        self.over.len() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_url_is_taken_once_and_those_past_the_budget_are_counted_once() {
        let mut b = ExternalBudget::new(2);
        assert!(b.offer("https://a.test/"));
        assert!(!b.offer("https://a.test/"), "the same URL is checked once");
        assert!(b.offer("https://b.test/"));
        assert!(!b.offer("https://c.test/"));
        assert!(!b.offer("https://c.test/"));
        assert!(!b.offer("https://d.test/"));
        assert!(!b.offer("https://a.test/"), "a URL taken is not counted past the budget");
        assert_eq!(b.over_budget(), 2);
        assert!(!ExternalBudget::new(0).offer("https://a.test/"));
    }

    #[test]
    fn broken_answers_keep_their_chain_and_the_rest_is_counted() {
        let mut l = ExternalLinks::new(10);
        l.record("https://a.test/", ExternalOutcome::Answered { status: 200, redirects: Vec::new() });
        l.record(
            "https://b.test/",
            ExternalOutcome::Answered { status: 404, redirects: vec![(301, "https://b.test/x".into())] },
        );
        l.record("https://c.test/", ExternalOutcome::Failed { error: "the name does not resolve".into() });
        l.record("https://d.test/", ExternalOutcome::Answered { status: 399, redirects: Vec::new() });
        l.record("http://10.0.0.1/", ExternalOutcome::NotChecked(NotChecked::Refused));
        l.count_not_checked(NotChecked::Budget, 3);
        assert_eq!((l.checked, l.broken_count, l.not_checked()), (4, 2, 4));
        assert_eq!(l.broken("https://b.test/"), Some("HTTP 301 to https://b.test/x, HTTP 404"));
        assert_eq!(l.broken("https://c.test/"), Some("no answer: the name does not resolve"));
        assert_eq!(l.broken("https://a.test/"), None);
        assert_eq!(l.broken("http://10.0.0.1/"), None, "refused is not checked, not broken");
        assert!(l.redirected.is_empty(), "a chain that ends in an error is broken only");
        l.settle();
        assert_eq!((l.checked, l.broken_count, l.not_checked()), (4, 2, 4), "other sites answered");
    }

    #[test]
    fn redirects_to_a_page_keep_their_chain_and_straight_answers_nothing() {
        let mut l = ExternalLinks::new(10);
        l.record("https://a.test/", ExternalOutcome::Answered { status: 200, redirects: Vec::new() });
        l.record(
            "http://b.test/x",
            ExternalOutcome::Answered {
                status: 200,
                redirects: vec![(301, "https://b.test/x".into()), (302, "https://b.test/x/".into())],
            },
        );
        l.record(
            "https://c.test/",
            ExternalOutcome::Answered { status: 399, redirects: vec![(308, "https://c.test/home".into())] },
        );
        l.record(
            "https://d.test/",
            ExternalOutcome::Answered { status: 400, redirects: vec![(301, "https://d.test/e".into())] },
        );
        assert_eq!(
            l.redirected("http://b.test/x"),
            Some("HTTP 301 to https://b.test/x, HTTP 302 to https://b.test/x/, HTTP 200")
        );
        assert_eq!(l.redirected("https://c.test/"), Some("HTTP 308 to https://c.test/home, HTTP 399"));
        assert_eq!(l.redirected("https://a.test/"), None, "no redirect");
        assert_eq!(l.redirected("https://d.test/"), None, "an error at the end is broken, not redirected");
        assert_eq!(l.broken("https://d.test/"), Some("HTTP 301 to https://d.test/e, HTTP 400"));
        assert_eq!((l.checked, l.broken_count), (4, 1));
    }

    /// Each of `hosts` failing with no answer.
    fn failing(hosts: &[&str]) -> ExternalLinks {
        let mut l = ExternalLinks::new(10);
        for (i, host) in hosts.iter().enumerate() {
            let error = format!("Name lookup failed: {host} does not exist in DNS");
            l.record(&format!("https://{host}/p{i}"), ExternalOutcome::Failed { error });
        }
        l
    }

    #[test]
    fn no_answer_from_any_of_three_hosts_is_an_unreachable_network_not_broken_links() {
        let mut l = failing(&["github.com", "docs.rs", "github.com", "example.org"]);
        l.record("http://slow.test/", ExternalOutcome::NotChecked(NotChecked::TimedOut));
        l.settle();
        assert_eq!((l.checked, l.broken_count, l.not_checked_unreachable), (0, 0, 4));
        assert_eq!(l.not_checked(), 5);
        assert_eq!(l.broken("https://github.com/p0"), None);
        // Two hosts only: two dead sites are broken links, whatever the rest.
        let mut l = failing(&["a.test", "b.test", "a.test"]);
        l.settle();
        assert_eq!((l.checked, l.broken_count, l.not_checked_unreachable), (3, 3, 0));
        // One answer, even an error page, shows the network works.
        let mut l = failing(&["a.test", "b.test", "c.test", "d.test"]);
        l.record("https://e.test/", ExternalOutcome::Answered { status: 404, redirects: Vec::new() });
        l.settle();
        assert_eq!((l.checked, l.broken_count, l.not_checked_unreachable), (5, 5, 0));
    }
}
