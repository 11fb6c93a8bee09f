//! The site rules: what only a crawl can see, one file each. Their table [`SITE_RULES`] is
//! the second static rule table beside the page rules of audit-core; `docs/RULES.md`'s
//! "Site rules" section is generated from it.

mod broken_external_link;
/// Internal links to URLs that answer with an error; public so that the crate's example names
/// the rule through its unit rather than by its id.
pub mod broken_internal_link;
mod canonical_chain;
mod canonical_to_bad_url;
mod canonical_to_noindex;
mod canonical_to_redirect;
pub(crate) mod deep_page;
mod duplicate_content;
pub use duplicate_content::DuplicateContent;
mod duplicate_h1;
mod duplicate_meta_description;
pub(crate) mod duplicate_title;
mod external_link_redirect;
mod few_inlinks;
mod hreflang_conflicting_targets;
mod hreflang_inconsistent_return;
mod hreflang_no_return_link;
mod hreflang_to_bad_url;
mod internal_redirect;
mod internal_redirect_chain;
mod linked_page_blocked_by_robots;
mod near_duplicate_content;
pub(crate) use near_duplicate_content::chance_found;
pub use near_duplicate_content::{NEAR_DUPLICATE_SIMILARITY, NEAR_DUPLICATE_THRESHOLDS};
mod ai_crawlers_blocked_at_edge;
mod nofollow_only_inlinks;
mod not_in_sitemap;
pub(crate) mod orphan_page;
mod pagination_broken;
pub(crate) mod prelude;
mod redirect_loop;
mod sitemap_error;
mod sitemap_non_indexable_url;
mod soft_404;
mod structured_data_errors_across_pages;
mod structured_data_missing_in_template;
mod url_variant_duplicate;

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::hash::{Hash, Hasher};

use audit_core::fix::{FixCtx, FixTemplate};
use audit_core::Severity;
use serde::Serialize;
use sha2::Digest;

use crate::external::ExternalLinks;
use crate::page::{CrawledPage, Outlink};
use crate::sitemap::SitemapProblem;

/// What a site rule is, for the table, the documentation and the reports.
#[derive(Debug, PartialEq, Eq)]
pub struct SiteRuleMeta {
    /// The stable id (`broken-internal-link`).
    pub id: &'static str,
    /// What passing means, as a short title.
    pub name: &'static str,
    /// How serious a finding is (the page rules' scale).
    pub severity: Severity,
    /// When it fails.
    pub threshold: &'static str,
    /// Why it matters.
    pub why: &'static str,
    /// A site that fails it.
    pub fail_example: &'static str,
    /// A site that passes it.
    pub pass_example: &'static str,
    /// Further reading.
    pub reference: &'static str,
    /// How issue titles of other tools name the problem (as `audit_core::RuleMeta::phrases`);
    /// empty while the rule has no fix.
    pub phrases: &'static [&'static str],
    /// Words that, in such a title, mean another problem.
    pub excluded: &'static [&'static str],
    /// Slugs of the glossary entries (`svc://seo-concepts`) that explain the rule, the first
    /// being the rule's concept (as `audit_core::RuleMeta::glossary`).
    pub glossary: &'static [&'static str],
}

/// One problem a site rule found.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct SiteFinding {
    /// The affected URL.
    pub url: String,
    /// The page that links to it (or names it), where there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub linked_from: Option<String>,
    /// What is wrong, in a few words (`HTTP 404`, `→ https://…`).
    pub detail: String,
}

/// A rule over the whole crawled site.
pub trait SiteRule: Sync {
    /// The rule's description.
    fn meta(&self) -> &'static SiteRuleMeta;
    /// Reads the site and hands each finding to `out` (none: it passes). The default runs the
    /// rule's [`SiteRule::scan`] alone; a rule that reads the site another way writes its own.
    ///
    /// # Errors
    /// What the [`CrawledSite`] could not read.
    fn check(&self, site: &dyn CrawledSite, out: &mut Findings) -> SiteResult<()> {
        let Some(scan) = self.scan(site, out)? else { return Ok(()) };
        run_scans(site, vec![(0, scan)], std::slice::from_mut(out))
    }
    /// The rule's reading of the site as a [`Scan`]: passes over the pages, or over the
    /// internal links, in crawl order. [`check_site`] runs the scans of all rules together, one
    /// read of the pages serving every rule of a pass (the links are read with their pages),
    /// where each rule reading the pages itself would read and decode every record once per
    /// rule and pass (docs/PERFORMANCE.md, "The site rules at the end"). What the scan needs
    /// before its first pass is read here, and a finding that needs no page can be handed to
    /// `out` here. `None` (the default): the rule reads the site in its [`SiteRule::check`].
    ///
    /// # Errors
    /// What the [`CrawledSite`] could not read.
    fn scan<'s>(&'s self, site: &'s dyn CrawledSite, out: &mut Findings) -> ScanResult<'s> {
        let _ = (site, out);
        Ok(None)
    }
    /// The code that repairs a finding on one of the site's pages, as a page rule's
    /// [`Rule::fix`](audit_core::Rule::fix); `None` (the default) when the rule offers none.
    fn fix(&self, ctx: &FixCtx) -> Option<FixTemplate> {
        let _ = ctx;
        None
    }
    /// Why the rule is not checked in a list-mode crawl ([`CrawledSite::list_mode`]), which
    /// fetches only the caller's URLs and follows no link: a rule that needs the whole site
    /// (every link to a page, click depths, the sitemaps) would report what the list leaves
    /// out as the site's fault. `None` (the default): the rule is checked over the list's
    /// pages. Its result then says it was skipped ([`SiteRuleResult::skipped`]).
    fn skipped_in_list_mode(&self) -> Option<&'static str> {
        None
    }
}

/// How a site rule reads the site ([`SiteRule::scan`]): one pass after another, each over
/// every page ([`Scan::page`]) or every internal link ([`Scan::link`], page after page), in
/// crawl order. A rule that reads each page once is [`each_page`] of a closure ([`each_link`]
/// for the links); one of several passes keeps what it gathered in its own type and says
/// after each pass whether it reads again.
pub trait Scan {
    /// What the next pass reads.
    fn reads(&self) -> Reads {
        Reads::Pages
    }
    /// Reads one page ([`Reads::Pages`]) and hands its findings to `out`.
    ///
    /// # Errors
    /// What the [`CrawledSite`] could not read.
    fn page(&mut self, page: &CrawledPage, out: &mut Findings) -> SiteResult<()> {
        let _ = (page, out);
        Ok(())
    }
    /// Reads one internal link ([`Reads::InternalLinks`], as [`CrawledSite::internal_links`]
    /// gives them): the linking page and how the target answered.
    ///
    /// # Errors
    /// What the [`CrawledSite`] could not read.
    fn link(&mut self, from: &str, target: &Answer, out: &mut Findings) -> SiteResult<()> {
        let _ = (from, target, out);
        Ok(())
    }
    /// After the pass: what it found only once it had read everything, and whether the scan
    /// reads again.
    ///
    /// # Errors
    /// What the [`CrawledSite`] could not read.
    fn end(&mut self, out: &mut Findings) -> SiteResult<Next> {
        let _ = out;
        Ok(Next::Done)
    }
}

/// The answers of link targets a read of the pages keeps from one page to the next
/// ([`CrawledSite::link_answers`]): by URL, `None` for a URL the crawl did not fetch.
#[derive(Debug, Default)]
pub struct LinkCache(pub HashMap<String, Option<Answer>>);

/// What a [`Scan`]'s pass reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reads {
    /// Every page ([`CrawledSite::pages`]).
    Pages,
    /// Every internal link with its target's answer ([`CrawledSite::link_answers`] of each
    /// page).
    InternalLinks,
}

/// Whether a [`Scan`] reads again after a pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    /// The scan is over.
    Done,
    /// Another pass ([`Scan::reads`] says over what).
    ReadAgain,
}

/// What [`SiteRule::scan`] gives.
pub type ScanResult<'s> = SiteResult<Option<Box<dyn Scan + 's>>>;

/// A scan of the links to other sites as the crawl checked them: each linking page of each
/// URL that `answers` lists (the broken ones, or those that redirected) gives a finding with
/// `detail` of the URL and how it answered. Nothing to scan without checks, or when the list
/// is empty.
pub(crate) fn each_external_link<'s>(
    site: &'s dyn CrawledSite,
    answers: fn(&ExternalLinks) -> &std::collections::BTreeMap<String, String>,
    detail: fn(&str, &str) -> String,
) -> ScanResult<'s> {
    let Some(answers) = site.external_links().map(answers).filter(|a| !a.is_empty()) else {
        return Ok(None);
    };
    // The records keep the links, the checks the answers, so this reads the pages once.
    each_page(move |page: &CrawledPage, out: &mut Findings| {
        for link in page.outlinks.iter().filter(|l| !l.internal) {
            if let Some(answer) = answers.get(&link.url) {
                out.push(SiteFinding {
                    url: link.url.clone(),
                    linked_from: Some(page.url.clone()),
                    detail: detail(&link.url, answer),
                });
            }
        }
        Ok(())
    })
}

/// A scan of one pass over the pages, a closure called with each.
pub fn each_page<'s>(page: impl FnMut(&CrawledPage, &mut Findings) -> SiteResult<()> + 's) -> ScanResult<'s> {
    struct EachPage<F>(F);
    impl<F: FnMut(&CrawledPage, &mut Findings) -> SiteResult<()>> Scan for EachPage<F> {
        fn page(&mut self, page: &CrawledPage, out: &mut Findings) -> SiteResult<()> {
            (self.0)(page, out)
        }
    }
    Ok(Some(Box::new(EachPage(page))))
}

/// A scan of one pass over the internal links, a closure called with each linking page and
/// how the target answered.
pub fn each_link<'s>(link: impl FnMut(&str, &Answer, &mut Findings) -> SiteResult<()> + 's) -> ScanResult<'s> {
    struct EachLink<F>(F);
    impl<F: FnMut(&str, &Answer, &mut Findings) -> SiteResult<()>> Scan for EachLink<F> {
        fn reads(&self) -> Reads {
            Reads::InternalLinks
        }
        fn link(&mut self, from: &str, target: &Answer, out: &mut Findings) -> SiteResult<()> {
            (self.0)(from, target, out)
        }
    }
    Ok(Some(Box::new(EachLink(link))))
}

/// Runs `scans` (each with the index of its findings in `outs`) pass after pass, each pass
/// one read of the pages, for those that read pages and those that read links alike, until
/// every scan is done.
fn run_scans<'s>(
    site: &dyn CrawledSite,
    mut scans: Vec<(usize, Box<dyn Scan + 's>)>,
    outs: &mut [Findings],
) -> SiteResult<()> {
    while !scans.is_empty() {
        let (mut pages, mut links): (Vec<_>, Vec<_>) = scans.into_iter().partition(|(_, s)| s.reads() == Reads::Pages);
        // One read of the pages: each page to the scans reading pages, then its links to
        // those reading links.
        let mut cache = LinkCache::default();
        site.pages(&mut |page| {
            pages.iter_mut().try_for_each(|(i, scan)| scan.page(page, &mut outs[*i]))?;
            if links.is_empty() {
                return Ok(());
            }
            site.link_answers(page, &mut cache, &mut |target| {
                links.iter_mut().try_for_each(|(i, scan)| scan.link(&page.url, target, &mut outs[*i]))
            })
        })?;
        scans = Vec::new();
        for (i, mut scan) in pages.into_iter().chain(links) {
            if scan.end(&mut outs[i])? == Next::ReadAgain {
                scans.push((i, scan));
            }
        }
    }
    Ok(())
}

/// Every site rule, in display order (severity of what it finds, then topic).
pub static SITE_RULES: &[&dyn SiteRule] = &[
    &broken_internal_link::BrokenInternalLink,
    &broken_external_link::BrokenExternalLink,
    &external_link_redirect::ExternalLinkRedirect,
    &redirect_loop::RedirectLoop,
    &canonical_to_bad_url::CanonicalToBadUrl,
    &canonical_to_redirect::CanonicalToRedirect,
    &canonical_to_noindex::CanonicalToNoindex,
    &internal_redirect::InternalRedirect,
    &internal_redirect_chain::InternalRedirectChain,
    &canonical_chain::CanonicalChain,
    &duplicate_title::DuplicateTitle,
    &duplicate_content::DuplicateContent,
    &near_duplicate_content::NearDuplicateContent,
    &url_variant_duplicate::UrlVariantDuplicate,
    &soft_404::Soft404,
    &orphan_page::OrphanPage,
    &sitemap_non_indexable_url::SitemapNonIndexableUrl,
    &sitemap_error::SitemapErrorRule,
    &hreflang_no_return_link::HreflangNoReturnLink,
    &hreflang_inconsistent_return::HreflangInconsistentReturn,
    &hreflang_to_bad_url::HreflangToBadUrl,
    &hreflang_conflicting_targets::HreflangConflictingTargets,
    &duplicate_meta_description::DuplicateMetaDescription,
    &duplicate_h1::DuplicateH1,
    &not_in_sitemap::NotInSitemap,
    &linked_page_blocked_by_robots::LinkedPageBlockedByRobots,
    &ai_crawlers_blocked_at_edge::AiCrawlersBlockedAtEdge,
    &deep_page::DeepPage,
    &few_inlinks::FewInlinks,
    &nofollow_only_inlinks::NofollowOnlyInlinks,
    &pagination_broken::PaginationBroken,
    &structured_data_errors_across_pages::StructuredDataErrorsAcrossPages,
    &structured_data_missing_in_template::StructuredDataMissingInTemplate,
];

/// Looks a site rule up by id.
pub fn site_rule_by_id(id: &str) -> Option<&'static SiteRuleMeta> {
    SITE_RULES.iter().map(|r| r.meta()).find(|m| m.id == id)
}

/// What a [`CrawledSite`] could not read (a database error, for a site in a store).
pub type SiteError = Box<dyn std::error::Error + Send + Sync>;
/// The result of reading a [`CrawledSite`].
pub type SiteResult<T> = Result<T, SiteError>;

/// How a crawled URL answered: the facts of its record the rules read about a link's,
/// canonical's, redirect's or sitemap entry's target.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Answer {
    /// The URL fetched, normalised.
    pub url: String,
    /// The HTTP status (`None`: the fetch failed).
    pub status: Option<u16>,
    /// Why the fetch failed.
    pub error: Option<String>,
    /// The normalised `Location` of a 3xx answer.
    pub redirect_to: Option<String>,
    /// Whether it was an HTML page.
    pub html: bool,
    /// Whether a robots directive forbids indexing it.
    pub noindex: bool,
}

impl CrawledPage {
    /// How this URL answered ([`Answer`]).
    pub fn answer(&self) -> Answer {
        Answer {
            url: self.url.clone(),
            status: self.status,
            error: self.error.clone(),
            redirect_to: self.redirect_to.clone(),
            html: self.html,
            noindex: self.noindex,
        }
    }

    /// The URLs this page links to on its site, each once, in the page's order, the page
    /// itself left out: the targets [`CrawledSite::link_answers`] answers for.
    pub fn internal_targets(&self) -> Vec<&str> {
        let mut seen = HashSet::new();
        self.outlinks
            .iter()
            .filter(|l| l.internal && l.url != self.url)
            .map(|l| l.url.as_str())
            .filter(|u| seen.insert(*u))
            .collect()
    }
}

/// The value pages may share that a duplicate rule compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DuplicateKey {
    /// [`CrawledPage::title`].
    Title,
    /// [`CrawledPage::meta_description`].
    MetaDescription,
    /// [`CrawledPage::text_hash`].
    TextHash,
}

impl DuplicateKey {
    /// The key of `page`.
    pub fn of(self, page: &CrawledPage) -> Option<&str> {
        match self {
            DuplicateKey::Title => page.title.as_deref(),
            DuplicateKey::MetaDescription => page.meta_description.as_deref(),
            DuplicateKey::TextHash => page.text_hash.as_deref(),
        }
    }

    /// Every key, in the order of [`DuplicateKey::stored`]'s columns.
    pub const ALL: [DuplicateKey; 3] = [DuplicateKey::Title, DuplicateKey::MetaDescription, DuplicateKey::TextHash];

    /// What a store keeps to group pages by this key with an index: for an indexable page
    /// ([`CrawledPage::indexable`]) with the key, a fixed-size hash of it (SHA-256, hex, first
    /// 16 bytes; the text hash as it is); `None` otherwise. Equal keys give equal hashes.
    pub fn stored(self, page: &CrawledPage) -> Option<String> {
        if !page.indexable() {
            return None;
        }
        let key = self.of(page)?;
        Some(match self {
            DuplicateKey::TextHash => key.to_string(),
            _ => hex::encode(&sha2::Sha256::digest(key.as_bytes())[..16]),
        })
    }
}

/// What the AI crawlers got of one page of a crawl's sample, where the edge (the server or
/// its CDN) was checked for turning them away: the crawl fetches at most
/// [`MAX_EDGE_SAMPLE`] of its pages again after its end, as a browser and as a few main AI
/// crawlers, and keeps the crawlers it turned away, for `ai-crawlers-blocked-at-edge`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EdgeProbe {
    /// The page, as the crawl recorded it.
    pub url: String,
    /// The registry token of each crawler turned away, with what shows it (the evidence of
    /// the AI-readiness check's comparison), in the order they were fetched.
    pub blocked: Vec<(String, String)>,
}

impl EdgeProbe {
    /// Whether a page's record puts it in the sample, taken in crawl order until it holds
    /// [`MAX_EDGE_SAMPLE`]: an HTML page that answered 200 and is not `noindex`.
    pub fn samples(page: &CrawledPage) -> bool {
        page.html && page.status == Some(200) && !page.noindex
    }

    /// The crawlers of [`EDGE_PROBE_BOTS`] that `robots` lets fetch `path`: a `Disallow` is
    /// the site's choice, not an edge block, so a crawler kept out is not sent.
    pub fn bots(robots: &ai_visibility::Robots, path: &str) -> Vec<EdgeBot> {
        ai_visibility::EDGE_BOTS
            .iter()
            .filter(|b| EDGE_PROBE_BOTS.contains(&b.bot) && robots.is_allowed(b.bot, path))
            .copied()
            .collect()
    }

    /// Judges page `url` from the browser's answer and each crawler's, with the AI-readiness
    /// check's comparison ([`ai_visibility::edge_blocking`]): the crawlers turned away where
    /// the browser got the page.
    pub fn judge(url: String, browser: EdgeAnswer, bots: Vec<(EdgeBot, EdgeAnswer)>) -> EdgeProbe {
        let judged = ai_visibility::edge_blocking(browser, bots, Vec::new());
        let blocked = judged
            .bots
            .into_iter()
            .filter(|v| v.blocked)
            .map(|v| (v.bot.to_owned(), v.evidence.unwrap_or_default()))
            .collect();
        EdgeProbe { url, blocked }
    }
}

/// One answer to the edge check's fetches, and a crawler it sends, as the AI-readiness check
/// has them.
pub use ai_visibility::{Answer as EdgeAnswer, EdgeBot};

/// The pages of a crawl checked for edge blocking at most ([`EdgeProbe`]).
pub const MAX_EDGE_SAMPLE: usize = 5;

/// The AI crawlers (registry tokens of `ai_visibility::EDGE_BOTS`) each sampled page is
/// fetched as: one each of the main training, answer-engine and search operators, so that
/// a sample costs at most 4 requests a page (the browser's and theirs), 20 a crawl.
pub const EDGE_PROBE_BOTS: &[&str] = &["GPTBot", "ClaudeBot", "PerplexityBot"];

/// How the site answered the URL a crawl fetches once at its start, one that never existed
/// ([`not_found_probe_path`]): what the site's own "not found" answer looks like, for
/// `soft-404` (docs/RULES.md, "Site rules").
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct NotFoundProbe {
    /// The URL fetched.
    pub url: String,
    /// The HTTP status (`None`: the fetch failed).
    #[serde(default)]
    pub status: Option<u16>,
    /// The [`content_signature`](crate::content_signature) of its page, when it answered an
    /// HTML page with enough text.
    #[serde(default)]
    pub content_signature: Option<u64>,
}

impl NotFoundProbe {
    /// The probe as the crawl recorded `page`, its fetch.
    pub fn of(page: &CrawledPage) -> NotFoundProbe {
        NotFoundProbe { url: page.url.clone(), status: page.status, content_signature: page.content_signature }
    }
}

/// The path of the URL a crawl fetches to see the site's "not found" answer: a fixed prefix
/// that names the tool (so that a site's owner reading the logs knows who asked) and 64
/// random bits, so that no real page has it.
pub fn not_found_probe_path(random: u64) -> String {
    format!("/seo-audit-404-{random:016x}")
}

/// A group of indexable pages sharing a [`DuplicateKey`] value, as [`CrawledSite::duplicates`]
/// gives it beside each of its members.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DuplicateGroup {
    /// How many pages share the value (two or more).
    pub count: usize,
    /// The first [`DUPLICATE_HEAD`] of their URLs in URL order ([`DuplicateGroup::offer`]):
    /// not in crawl order, which among pages at the same depth follows the answers' timing,
    /// so that the pages a finding names are the same at every crawl of the same site.
    pub head: Vec<String>,
}

impl DuplicateGroup {
    /// Offers one of the group's URLs to [`DuplicateGroup::head`], which keeps the
    /// [`DUPLICATE_HEAD`] first in URL order (byte order), each once, whatever order they
    /// are offered in.
    pub fn offer(&mut self, url: &str) {
        let at = self.head.partition_point(|h| h.as_str() < url);
        if at >= DUPLICATE_HEAD || self.head.get(at).is_some_and(|h| h == url) {
            return;
        }
        self.head.insert(at, url.to_string());
        self.head.truncate(DUPLICATE_HEAD);
    }
}

/// The members of a [`DuplicateGroup`] it names ([`DuplicateGroup::head`]): enough to name
/// three others beside any member.
pub const DUPLICATE_HEAD: usize = 4;

/// The crawled site as the site rules read it: a set of queries over the records of the
/// pages fetched, their links and the sitemaps' URLs. [`SiteIndex`] answers them from
/// records in memory; the service and the command line answer them from their database
/// (docs/ARCHITECTURE.md, "Site crawl"), page by page, so that what a rule holds does not
/// grow with the pages crawled. Streams call `f` once per item and stop at its first error.
pub trait CrawledSite {
    /// Every URL the crawl fetched (answered or failed), in crawl order.
    fn pages(&self, f: &mut dyn FnMut(&CrawledPage) -> SiteResult<()>) -> SiteResult<()>;
    /// The record of `url`, when the crawl fetched it.
    fn page(&self, url: &str) -> SiteResult<Option<CrawledPage>>;
    /// How `url` answered, when the crawl fetched it (what [`CrawledSite::page`] gives, without
    /// its links and alternates).
    fn answer(&self, url: &str) -> SiteResult<Option<Answer>>;
    /// Every internal link from a fetched page to another URL the crawl fetched: the
    /// linking page's URL and how the target answered (each pair once), page after page in
    /// crawl order: each page's [`CrawledSite::link_answers`].
    fn internal_links(&self, f: &mut dyn FnMut(&str, &Answer) -> SiteResult<()>) -> SiteResult<()> {
        let mut cache = LinkCache::default();
        self.pages(&mut |page| self.link_answers(page, &mut cache, &mut |target| f(&page.url, target)))
    }
    /// How the targets of `page`'s internal links answered: each target the crawl fetched
    /// once, in the page's order, the page itself left out. `cache` keeps answers from one
    /// page to the next of a read (most pages link to the same menus); a store bounds it.
    fn link_answers(
        &self,
        page: &CrawledPage,
        cache: &mut LinkCache,
        f: &mut dyn FnMut(&Answer) -> SiteResult<()>,
    ) -> SiteResult<()>;
    /// The page that links to `url` (itself excluded) nearest the start: the least click
    /// depth (a page without one last), then the least URL in byte order, so that two crawls
    /// of an unchanged site name the same page whatever order its pages answered in.
    fn first_inlink(&self, url: &str) -> SiteResult<Option<String>>;
    /// How many fetched pages link to `url` (each page once, itself excluded).
    fn inlink_count(&self, url: &str) -> SiteResult<u64>;
    /// How many of them link to it with a link the crawl follows ([`Outlink::follow`]: no
    /// `nofollow`-like `rel` and no page-wide `nofollow`).
    fn followed_inlink_count(&self, url: &str) -> SiteResult<u64>;
    /// Whether a fetched page redirects to `url`.
    fn redirected_to(&self, url: &str) -> SiteResult<bool>;
    /// Every page URL the site's sitemaps list (normalised; any order).
    fn sitemap_urls(&self, f: &mut dyn FnMut(&str) -> SiteResult<()>) -> SiteResult<()>;
    /// Whether the sitemaps list `url`.
    fn in_sitemap(&self, url: &str) -> SiteResult<bool>;
    /// Whether any sitemap was read (`not-in-sitemap` applies only then).
    fn sitemaps_read(&self) -> bool;
    /// Whether the crawl fetched a list of URLs only, following no link (docs/RULES.md, "List
    /// mode"): the rules that need the whole site are then skipped
    /// ([`SiteRule::skipped_in_list_mode`]). `false` by default.
    fn list_mode(&self) -> bool {
        false
    }
    /// The similarity in percent from which `near-duplicate-content` reports two pages (the
    /// crawl's `near_duplicate_threshold`, [`NEAR_DUPLICATE_THRESHOLDS`]).
    fn near_duplicate_threshold(&self) -> u32 {
        NEAR_DUPLICATE_SIMILARITY
    }
    /// How the site answered the never-existing URL the crawl fetched at its start
    /// ([`NotFoundProbe`]); `None` by default: a crawl that fetched none.
    fn not_found_probe(&self) -> Option<&NotFoundProbe> {
        None
    }
    /// The crawl's external links as checked ([`ExternalLinks`]); `None` by default: a crawl
    /// that checked none.
    fn external_links(&self) -> Option<&ExternalLinks> {
        None
    }

    /// What the AI crawlers got of the crawl's sample of pages ([`EdgeProbe`]); empty by
    /// default: a crawl that checked none.
    fn edge_probes(&self) -> &[EdgeProbe] {
        &[]
    }
    /// Every problem of the site's sitemaps ([`SitemapRead::problems`](crate::SitemapRead::problems);
    /// any order). None by default: a site that kept none.
    fn sitemap_problems(&self, f: &mut dyn FnMut(&SitemapProblem) -> SiteResult<()>) -> SiteResult<()> {
        let _ = f;
        Ok(())
    }
    /// Each indexable page ([`CrawledPage::indexable`]) whose `key` it shares with another
    /// indexable page, with its group (any order of groups and members).
    fn duplicates(
        &self,
        key: DuplicateKey,
        f: &mut dyn FnMut(&str, &DuplicateGroup) -> SiteResult<()>,
    ) -> SiteResult<()>;
    /// The counts the site score reads.
    fn totals(&self) -> SiteResult<SiteTotals>;
    /// Every URL the crawl skipped because the site's robots.txt keeps it out, with the
    /// reason the frontier recorded ([`ROBOTS_REASON_PREFIX`]; any order).
    fn robots_blocked(&self, f: &mut dyn FnMut(&str, &str) -> SiteResult<()>) -> SiteResult<()>;
}

/// How every reason the frontier records for a URL robots.txt keeps out starts
/// (`robots.txt: Disallow: /private`, `robots.txt unreachable (HTTP 503)`), and no other
/// reason does ([`CrawledSite::robots_blocked`]).
pub const ROBOTS_REASON_PREFIX: &str = "robots.txt";

/// What the site score and a crawl's end read of all the pages ([`CrawledSite::totals`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SiteTotals {
    /// URLs fetched (answered or failed).
    pub crawled: u64,
    /// Pages with a page score (the HTML pages audited).
    pub scored: u64,
    /// The sum of their page scores (each at most 100).
    pub score_sum: u64,
    /// Whether any URL answered 2xx.
    pub answered: bool,
}

/// The findings of one rule as it checks ([`SiteRule::check`]): sorted, each once, and at
/// most [`MAX_FINDINGS_PER_RULE`] kept (the first in that order), so that a rule holds no
/// more findings however many pages are crawled. Those left out are still counted, and so
/// are the distinct URLs of all of them: nothing is cut silently.
#[derive(Debug, Default)]
pub struct Findings {
    kept: BTreeSet<SiteFinding>,
    total: u64,
    urls: Urls,
}

/// How a [`Findings`] counts its distinct URLs: a set of its own, or its bit in the map of
/// the rules that read the pages in one pass ([`check_site_with`]).
#[derive(Debug)]
enum Urls {
    Own(HashSet<u64>),
    Shared { seen: SharedUrls, bit: u64, count: u64 },
}

/// Each affected URL's hash, with a bit for each rule of a pass that found it.
type SharedUrls = std::rc::Rc<std::cell::RefCell<HashMap<u64, u64>>>;

impl Default for Urls {
    fn default() -> Urls {
        Urls::Own(HashSet::new())
    }
}

/// The findings a site rule keeps at most (docs/RULES.md, "Site rules"): the first in
/// URL order. The result says how many there were in all ([`SiteRuleResult::total_findings`],
/// [`SiteRuleResult::total_urls`]), and the site score counts every affected URL.
pub const MAX_FINDINGS_PER_RULE: usize = 10_000;

impl Findings {
    /// Adds a finding. A rule hands each finding once; one equal to a finding kept is not
    /// counted again.
    pub fn push(&mut self, finding: SiteFinding) {
        // A fixed-key hash of the URL: 8 bytes per affected URL, however long it is, to
        // count the distinct URLs of the findings not kept.
        let mut hasher = std::hash::DefaultHasher::new();
        finding.url.hash(&mut hasher);
        let hash = hasher.finish();
        match &mut self.urls {
            Urls::Own(set) => {
                set.insert(hash);
            }
            Urls::Shared { seen, bit, count } => {
                let mut seen = seen.borrow_mut();
                let rules = seen.entry(hash).or_insert(0);
                if *rules & *bit == 0 {
                    *rules |= *bit;
                    *count += 1;
                }
            }
        }
        if self.kept.len() >= MAX_FINDINGS_PER_RULE && self.kept.last().is_some_and(|l| *l <= finding) {
            if !self.kept.contains(&finding) {
                self.total += 1;
            }
            return;
        }
        if self.kept.insert(finding) {
            self.total += 1;
        }
        if self.kept.len() > MAX_FINDINGS_PER_RULE {
            self.kept.pop_last();
        }
    }

    /// Whether findings were left out at the cap.
    pub fn capped(&self) -> bool {
        self.total > self.kept.len() as u64
    }

    /// The findings found, kept or not.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The distinct URLs of all the findings found, kept or not.
    pub fn total_urls(&self) -> u64 {
        match &self.urls {
            Urls::Own(set) => set.len() as u64,
            Urls::Shared { count, .. } => *count,
        }
    }

    /// Counts the distinct URLs from now on as bit `bit` of `seen` (the map of a pass of
    /// [`check_site_with`]), with those counted so far. Once only: a rule reads the pages in
    /// one pass.
    fn count_urls_in(&mut self, seen: &SharedUrls, bit: usize) {
        let Urls::Own(set) = &self.urls else { return };
        let bit = 1u64 << bit;
        let mut map = seen.borrow_mut();
        for hash in set {
            *map.entry(*hash).or_insert(0) |= bit;
        }
        self.urls = Urls::Shared { seen: seen.clone(), bit, count: set.len() as u64 };
    }

    /// The findings kept, sorted.
    pub fn into_vec(self) -> Vec<SiteFinding> {
        self.kept.into_iter().collect()
    }

    /// The rule's result: the findings kept and the totals.
    pub fn into_result(self, meta: &'static SiteRuleMeta) -> SiteRuleResult {
        let (total_findings, total_urls, truncated) = (self.total, self.total_urls(), self.capped());
        SiteRuleResult {
            id: meta.id,
            severity: meta.severity,
            findings: self.into_vec(),
            total_findings,
            total_urls,
            truncated,
            skipped: false,
        }
    }
}

/// A [`CrawledSite`] over records in memory: the pages' records indexed once (for tests, the
/// engine's own examples and benchmarks).
#[derive(Debug)]
pub struct SiteIndex<'a> {
    /// Every URL the crawl fetched (answered or failed), in crawl order.
    pub pages: &'a [CrawledPage],
    /// The same, by URL.
    pub by_url: HashMap<&'a str, &'a CrawledPage>,
    /// For each URL, the crawled pages that link to it (other pages only) with the link.
    pub inlinks: HashMap<&'a str, Vec<(&'a CrawledPage, &'a Outlink)>>,
    /// Every page URL the site's sitemaps list (normalised).
    pub sitemap_urls: &'a BTreeSet<String>,
    /// Whether any sitemap was read (`not-in-sitemap` applies only then).
    pub sitemaps_read: bool,
    /// The problems of the site's sitemaps ([`SiteIndex::with_sitemap_problems`]).
    pub sitemap_problems: &'a [SitemapProblem],
    /// The URLs skipped for robots.txt, with the frontier's reason
    /// ([`SiteIndex::with_robots_blocked`]; none unless given).
    pub robots_blocked: &'a [(String, String)],
    /// [`CrawledSite::near_duplicate_threshold`].
    pub near_duplicate_threshold: u32,
    /// [`CrawledSite::not_found_probe`] ([`SiteIndex::with_not_found_probe`]; none unless
    /// given).
    pub not_found_probe: Option<NotFoundProbe>,
    /// [`CrawledSite::external_links`] ([`SiteIndex::with_external_links`]; none unless given).
    pub external_links: Option<ExternalLinks>,
    /// [`CrawledSite::edge_probes`] ([`SiteIndex::with_edge_probes`]; none unless given).
    pub edge_probes: Vec<EdgeProbe>,
    /// [`CrawledSite::list_mode`] ([`SiteIndex::with_list_mode`]; `false` unless given).
    pub list_mode: bool,
}

impl<'a> SiteIndex<'a> {
    /// Indexes the records.
    pub fn new(pages: &'a [CrawledPage], sitemap_urls: &'a BTreeSet<String>, sitemaps_read: bool) -> SiteIndex<'a> {
        let mut by_url = HashMap::with_capacity(pages.len());
        let mut inlinks: HashMap<&str, Vec<_>> = HashMap::new();
        for page in pages {
            by_url.insert(page.url.as_str(), page);
            for link in &page.outlinks {
                if link.url != page.url {
                    inlinks.entry(link.url.as_str()).or_default().push((page, link));
                }
            }
        }
        SiteIndex {
            pages,
            by_url,
            inlinks,
            sitemap_urls,
            sitemaps_read,
            sitemap_problems: &[],
            robots_blocked: &[],
            near_duplicate_threshold: NEAR_DUPLICATE_SIMILARITY,
            not_found_probe: None,
            external_links: None,
            edge_probes: Vec::new(),
            list_mode: false,
        }
    }

    /// The same index, of a list-mode crawl when `list_mode` is true.
    pub fn with_list_mode(self, list_mode: bool) -> SiteIndex<'a> {
        SiteIndex { list_mode, ..self }
    }

    /// The same index, with the crawl's external links as checked.
    pub fn with_external_links(self, external_links: Option<ExternalLinks>) -> SiteIndex<'a> {
        SiteIndex { external_links, ..self }
    }

    /// The same index, with what the AI crawlers got of the crawl's sample of pages.
    pub fn with_edge_probes(self, edge_probes: Vec<EdgeProbe>) -> SiteIndex<'a> {
        SiteIndex { edge_probes, ..self }
    }

    /// The same index, with how the site answered the crawl's never-existing URL.
    pub fn with_not_found_probe(self, probe: Option<NotFoundProbe>) -> SiteIndex<'a> {
        SiteIndex { not_found_probe: probe, ..self }
    }

    /// The same, with the problems the sitemaps' reading found.
    pub fn with_sitemap_problems(mut self, problems: &'a [SitemapProblem]) -> SiteIndex<'a> {
        self.sitemap_problems = problems;
        self
    }

    /// The same index, with the URLs the crawl skipped for robots.txt and the reason of
    /// each ([`CrawledSite::robots_blocked`]).
    pub fn with_robots_blocked(self, robots_blocked: &'a [(String, String)]) -> SiteIndex<'a> {
        SiteIndex { robots_blocked, ..self }
    }

    /// The same index, with `near-duplicate-content` reporting from `threshold` percent.
    pub fn with_near_duplicate_threshold(self, threshold: u32) -> SiteIndex<'a> {
        SiteIndex { near_duplicate_threshold: threshold, ..self }
    }
}

impl CrawledSite for SiteIndex<'_> {
    fn pages(&self, f: &mut dyn FnMut(&CrawledPage) -> SiteResult<()>) -> SiteResult<()> {
        self.pages.iter().try_for_each(f)
    }

    fn page(&self, url: &str) -> SiteResult<Option<CrawledPage>> {
        Ok(self.by_url.get(url).map(|p| (*p).clone()))
    }

    fn answer(&self, url: &str) -> SiteResult<Option<Answer>> {
        Ok(self.by_url.get(url).map(|p| p.answer()))
    }

    fn link_answers(
        &self,
        page: &CrawledPage,
        _: &mut LinkCache,
        f: &mut dyn FnMut(&Answer) -> SiteResult<()>,
    ) -> SiteResult<()> {
        for url in page.internal_targets() {
            if let Some(target) = self.by_url.get(url) {
                f(&target.answer())?;
            }
        }
        Ok(())
    }

    fn first_inlink(&self, url: &str) -> SiteResult<Option<String>> {
        let nearest = self.inlinks.get(url).and_then(|l| {
            l.iter().map(|(from, _)| *from).min_by_key(|from| (from.depth.is_none(), from.depth, from.url.as_str()))
        });
        Ok(nearest.map(|from| from.url.clone()))
    }

    fn inlink_count(&self, url: &str) -> SiteResult<u64> {
        Ok(self.inlinks.get(url).map_or(0, |l| l.len() as u64))
    }

    fn followed_inlink_count(&self, url: &str) -> SiteResult<u64> {
        Ok(self.inlinks.get(url).map_or(0, |l| l.iter().filter(|(_, link)| link.follow).count() as u64))
    }

    fn redirected_to(&self, url: &str) -> SiteResult<bool> {
        Ok(self.pages.iter().any(|p| p.redirect_to.as_deref() == Some(url)))
    }

    fn sitemap_urls(&self, f: &mut dyn FnMut(&str) -> SiteResult<()>) -> SiteResult<()> {
        self.sitemap_urls.iter().try_for_each(|u| f(u))
    }

    fn in_sitemap(&self, url: &str) -> SiteResult<bool> {
        Ok(self.sitemap_urls.contains(url))
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

    fn not_found_probe(&self) -> Option<&NotFoundProbe> {
        self.not_found_probe.as_ref()
    }

    fn external_links(&self) -> Option<&ExternalLinks> {
        self.external_links.as_ref()
    }

    fn edge_probes(&self) -> &[EdgeProbe] {
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
        let mut groups: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for page in self.pages.iter().filter(|p| p.indexable()) {
            if let Some(k) = key.of(page) {
                groups.entry(k).or_default().push(page.url.as_str());
            }
        }
        for urls in groups.values().filter(|g| g.len() > 1) {
            let mut group = DuplicateGroup { count: urls.len(), head: Vec::new() };
            for url in urls {
                group.offer(url);
            }
            for url in urls {
                f(url, &group)?;
            }
        }
        Ok(())
    }

    fn totals(&self) -> SiteResult<SiteTotals> {
        let scores = self.pages.iter().filter_map(|p| p.score);
        Ok(SiteTotals {
            crawled: self.pages.len() as u64,
            scored: scores.clone().count() as u64,
            score_sum: scores.map(|s| u64::from(s.min(100))).sum(),
            answered: self.pages.iter().any(|p| matches!(p.status, Some(200..=299))),
        })
    }

    fn robots_blocked(&self, f: &mut dyn FnMut(&str, &str) -> SiteResult<()>) -> SiteResult<()> {
        self.robots_blocked.iter().try_for_each(|(url, reason)| f(url, reason))
    }
}

/// One site rule's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SiteRuleResult {
    /// The rule id.
    pub id: &'static str,
    /// Its severity.
    pub severity: Severity,
    /// What it found, sorted; empty when it passes. At most [`MAX_FINDINGS_PER_RULE`]: the
    /// first in that order ([`SiteRuleResult::truncated`]).
    pub findings: Vec<SiteFinding>,
    /// The findings found, `findings` and those left out.
    pub total_findings: u64,
    /// The distinct URLs of all the findings: what the site score counts.
    pub total_urls: u64,
    /// Whether `findings` lists fewer than `total_findings`.
    pub truncated: bool,
    /// Whether the rule was not checked: a list-mode crawl, and a rule that needs the whole
    /// site ([`SiteRule::skipped_in_list_mode`]). It then has no findings.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub skipped: bool,
}

impl SiteRuleResult {
    /// The result of the findings `findings`, all of them (none left out).
    pub fn of(id: &'static str, severity: Severity, findings: Vec<SiteFinding>) -> SiteRuleResult {
        let total_urls = findings.iter().map(|f| f.url.as_str()).collect::<BTreeSet<_>>().len() as u64;
        SiteRuleResult {
            id,
            severity,
            total_findings: findings.len() as u64,
            total_urls,
            truncated: false,
            skipped: false,
            findings,
        }
    }

    /// The distinct affected URLs, every one of them ([`SiteRuleResult::total_urls`]).
    pub fn affected(&self) -> usize {
        usize::try_from(self.total_urls).unwrap_or(usize::MAX)
    }
}

/// Runs every site rule over the crawled pages and the sitemap URL set, in memory
/// ([`SiteIndex`]). Results come in table order, every rule included (passing ones with no
/// findings).
pub fn run_site_rules(
    pages: &[CrawledPage],
    sitemap_urls: &BTreeSet<String>,
    sitemaps_read: bool,
) -> Vec<SiteRuleResult> {
    match check_site(&SiteIndex::new(pages, sitemap_urls, sitemaps_read)) {
        Ok(results) => results,
        Err(e) => unreachable!("records in memory are always read: {e}"),
    }
}

/// Runs every site rule over `site`. Results come in table order, every rule included
/// (passing ones with no findings); each rule's findings sorted, each once, at most
/// [`MAX_FINDINGS_PER_RULE`] kept, with the totals of all.
///
/// # Errors
/// The first error of the site's reads.
pub fn check_site(site: &dyn CrawledSite) -> SiteResult<Vec<SiteRuleResult>> {
    check_site_with(site, SITE_RULES)
}

/// Runs `rules` over `site` as [`check_site`] runs the table: a rule of one's own beside the
/// built-in ones (`crates/crawl/tests/it/rule_unit.rs` writes one in a test module alone). In
/// a list-mode crawl ([`CrawledSite::list_mode`]) a rule that needs the whole site is not run:
/// its result is [`SiteRuleResult::skipped`], with no findings.
///
/// The rules' scans ([`SiteRule::scan`]) run together, pass after pass (at most
/// [`SCANS_PER_PASS`] rules at a time), then the other rules one after the other: each rule's
/// findings are what it finds run alone (every pass gives it the pages or the links in the
/// same order), in a fraction of the reads.
///
/// # Errors
/// The first error of the site's reads.
pub fn check_site_with(site: &dyn CrawledSite, rules: &[&dyn SiteRule]) -> SiteResult<Vec<SiteRuleResult>> {
    let mut outs: Vec<Findings> = rules.iter().map(|_| Findings::default()).collect();
    let mut skipped = vec![false; rules.len()];
    let mut scans: Vec<(usize, Box<dyn Scan + '_>)> = Vec::new();
    let mut whole: Vec<usize> = Vec::new();
    for (i, rule) in rules.iter().enumerate() {
        if site.list_mode() && rule.skipped_in_list_mode().is_some() {
            skipped[i] = true;
        } else if let Some(scan) = rule.scan(site, &mut outs[i])? {
            scans.push((i, scan));
        } else {
            whole.push(i);
        }
    }
    while !scans.is_empty() {
        let together: Vec<(usize, Box<dyn Scan + '_>)> = scans.drain(..scans.len().min(SCANS_PER_PASS)).collect();
        // The rules run together count their distinct URLs in one map (a bit each), not a
        // set each: it holds one entry per affected URL however many rules there are.
        let seen = std::rc::Rc::new(std::cell::RefCell::new(HashMap::new()));
        for (bit, (i, _)) in together.iter().enumerate() {
            outs[*i].count_urls_in(&seen, bit);
        }
        run_scans(site, together, &mut outs)?;
    }
    for i in whole {
        rules[i].check(site, &mut outs[i])?;
    }
    Ok(rules
        .iter()
        .zip(outs)
        .zip(skipped)
        .map(|((rule, findings), skipped)| SiteRuleResult { skipped, ..findings.into_result(rule.meta()) })
        .collect())
}

/// The rules whose scans [`check_site_with`] runs together at most (one bit each of the map
/// their distinct URLs are counted in).
pub const SCANS_PER_PASS: usize = 64;

/// The findings of a duplicate rule: each indexable page sharing `key` with others, named
/// beside up to three of them.
pub(crate) fn duplicates(site: &dyn CrawledSite, key: DuplicateKey, what: &str, out: &mut Findings) -> SiteResult<()> {
    site.duplicates(key, &mut |url, group| {
        let detail = format!("same {what} as {}{}", group.others_than(url), one_page_note(site, url, group)?);
        out.push(SiteFinding { url: url.to_string(), linked_from: None, detail });
        Ok(())
    })
}

/// What a duplicate rule's finding adds when its group is one page at two URLs (`/` and
/// `/index.html`, `/a` and `/a/`, answering the same text): that the cause is the second
/// URL, which `url-variant-duplicate` reports, not two pages to tell apart. Empty otherwise.
pub(crate) fn one_page_note(site: &dyn CrawledSite, url: &str, group: &DuplicateGroup) -> SiteResult<&'static str> {
    let other = match group.head.as_slice() {
        [a, b] if group.count == 2 && a == url => b,
        [a, b] if group.count == 2 && b == url => a,
        _ => return Ok(""),
    };
    if !url_variant_duplicate::is_variant(other, url) && !url_variant_duplicate::is_variant(url, other) {
        return Ok("");
    }
    let (this, that) = (site.page(url)?.unwrap_or_default(), site.page(other)?.unwrap_or_default());
    Ok(if this.same_text(&that) { ": one page at two URLs, which url-variant-duplicate reports" } else { "" })
}

impl DuplicateGroup {
    /// The group's other pages than `url`, as a finding names them: up to three of its first
    /// ones in URL order ([`DuplicateGroup::head`]), then how many more (`a, b, c and 4 more`).
    pub(crate) fn others_than(&self, url: &str) -> String {
        let others: Vec<&str> = self.head.iter().map(String::as_str).filter(|u| *u != url).take(3).collect();
        let more = self.count - 1 - others.len();
        let mut named = others.join(", ");
        if more > 0 {
            named.push_str(&format!(" and {more} more"));
        }
        named
    }
}

/// Where the redirects from a redirecting URL lead, followed through the crawl's answers for
/// at most `max_hops` hops: the URLs on the way, the first one included.
pub(crate) enum RedirectPath {
    /// The last URL answers without redirecting (or was not fetched).
    Ends(Vec<String>),
    /// The last URL is one already on the way: a loop.
    Loops(Vec<String>),
    /// `max_hops` hops were followed and the last URL redirects again.
    Cut(Vec<String>),
}

/// Follows the redirects from `url`, which redirects to `first` (see [`RedirectPath`]): the
/// redirect rules' one walk along a chain, a look-up a hop.
pub(crate) fn follow_redirects(
    site: &dyn CrawledSite,
    url: &str,
    first: &str,
    max_hops: usize,
) -> SiteResult<RedirectPath> {
    let mut chain = vec![url.to_string()];
    let mut next = Some(first.to_string());
    while let Some(to) = next {
        // `chain` holds the URLs reached in `chain.len() - 1` hops: `to` is one more.
        if chain.len() > max_hops {
            return Ok(RedirectPath::Cut(chain));
        }
        let looped = chain.contains(&to);
        chain.push(to);
        if looped {
            return Ok(RedirectPath::Loops(chain));
        }
        next = site.answer(chain.last().map(String::as_str).unwrap_or_default())?.and_then(|a| a.redirect_to);
    }
    Ok(RedirectPath::Ends(chain))
}

/// `HTTP 404`, `HTTP 301 to …` or the fetch error: how a URL answered. A redirect that makes
/// one of the changes a server or site generator makes to every URL says which
/// ([`redirect_change`]): hundreds of findings of several rules (links, canonicals, hreflang,
/// sitemaps naming `/docs/a` where the page is `/docs/a/`) then read as the one setting they
/// come from.
pub(crate) fn answer(page: &Answer) -> String {
    match (page.status, &page.redirect_to, &page.error) {
        (Some(s), Some(to), _) => match redirect_change(&page.url, to) {
            Some(change) => format!("HTTP {s} to {to} ({change})"),
            None => format!("HTTP {s} to {to}"),
        },
        (Some(s), None, _) => format!("HTTP {s}"),
        (None, _, Some(e)) => format!("not fetched: {e}"),
        (None, _, None) => "not fetched".to_string(),
    }
}

/// What a redirect from `from` to `to` changes when it is one change of a whole site's URLs:
/// only the final slash added or removed, only `http` made `https`, or only `www.` added to or
/// removed from the host. `None` for any other redirect (another path, or several changes).
pub(crate) fn redirect_change(from: &str, to: &str) -> Option<&'static str> {
    let (Ok(a), Ok(b)) = (url::Url::parse(from), url::Url::parse(to)) else { return None };
    let (host_a, host_b) = (a.host_str()?, b.host_str()?);
    // The ports as written: `http` to `https` changes the default port and nothing else.
    let same_place = a.port() == b.port() && a.query() == b.query();
    if !same_place {
        return None;
    }
    let (path_a, path_b) = (a.path(), b.path());
    if a.scheme() == b.scheme() && host_a == host_b {
        if path_b.strip_suffix('/') == Some(path_a) {
            return Some("only adds the final slash");
        }
        if path_a.strip_suffix('/') == Some(path_b) && path_b != "/" {
            return Some("only removes the final slash");
        }
        return None;
    }
    if path_a != path_b {
        return None;
    }
    if host_a == host_b {
        return (a.scheme() == "http" && b.scheme() == "https").then_some("only moves to https");
    }
    if a.scheme() != b.scheme() {
        return None;
    }
    if host_b.strip_prefix("www.") == Some(host_a) {
        return Some("only adds www.");
    }
    if host_a.strip_prefix("www.") == Some(host_b) {
        return Some("only removes www.");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The changes a whole site's redirects make are named, and nothing else is: another
    /// path, two changes at once, a query that changes, another port.
    #[test]
    fn redirects_that_make_one_site_wide_change_say_which() {
        let change = |from: &str, to: &str| redirect_change(from, to);
        assert_eq!(change("https://s.test/docs/a", "https://s.test/docs/a/"), Some("only adds the final slash"));
        assert_eq!(change("https://s.test/a?x=1", "https://s.test/a/?x=1"), Some("only adds the final slash"));
        assert_eq!(change("https://s.test/docs/a/", "https://s.test/docs/a"), Some("only removes the final slash"));
        assert_eq!(change("http://s.test/a", "https://s.test/a"), Some("only moves to https"));
        assert_eq!(change("https://s.test/a", "https://www.s.test/a"), Some("only adds www."));
        assert_eq!(change("https://www.s.test/a", "https://s.test/a"), Some("only removes www."));
        for (from, to) in [
            ("https://s.test/old", "https://s.test/new"),
            ("https://s.test/a", "https://s.test/a/b"),
            ("http://s.test/a", "https://s.test/a/"),
            ("http://s.test/a", "https://www.s.test/a"),
            ("https://s.test/a?x=1", "https://s.test/a/?x=2"),
            ("http://s.test/a", "http://s.test:8080/a/"),
            ("https://s.test/a", "http://s.test/a"),
            ("https://s.test/a", "https://other.test/a"),
        ] {
            assert_eq!(change(from, to), None, "{from} -> {to}");
        }
        let moved = Answer {
            url: "https://s.test/docs/a".into(),
            status: Some(301),
            redirect_to: Some("https://s.test/docs/a/".into()),
            ..Answer::default()
        };
        assert_eq!(answer(&moved), "HTTP 301 to https://s.test/docs/a/ (only adds the final slash)");
        let elsewhere = Answer { redirect_to: Some("https://s.test/new".into()), ..moved };
        assert_eq!(answer(&elsewhere), "HTTP 301 to https://s.test/new");
    }

    #[test]
    fn a_list_mode_crawl_skips_the_rules_that_need_the_whole_site() {
        let deep = CrawledPage {
            url: "https://s.test/a/b/c/d/e".into(),
            status: Some(200),
            html: true,
            depth: Some(5),
            ..CrawledPage::default()
        };
        let pages = vec![deep];
        let sitemap = BTreeSet::new();
        let deep_id = deep_page::DeepPage.meta().id;
        let whole = check_site(&SiteIndex::new(&pages, &sitemap, false)).unwrap();
        assert!(whole.iter().all(|r| !r.skipped));
        assert_eq!(whole.iter().find(|r| r.id == deep_id).unwrap().total_findings, 1);
        let listed = check_site(&SiteIndex::new(&pages, &sitemap, false).with_list_mode(true)).unwrap();
        assert_eq!(listed.len(), SITE_RULES.len(), "every rule has a result");
        let skipped: Vec<&str> = listed.iter().filter(|r| r.skipped).map(|r| r.id).collect();
        let expected: Vec<&str> =
            SITE_RULES.iter().filter(|r| r.skipped_in_list_mode().is_some()).map(|r| r.meta().id).collect();
        assert_eq!(skipped, expected);
        assert!(skipped.contains(&deep_id) && skipped.contains(&orphan_page::OrphanPage.meta().id));
        assert!(listed.iter().filter(|r| r.skipped).all(|r| r.findings.is_empty() && r.total_findings == 0));
        let json = serde_json::to_value(listed.iter().find(|r| r.id == deep_id).unwrap()).unwrap();
        assert_eq!(json["skipped"], true);
        assert!(serde_json::to_value(&whole[0]).unwrap().get("skipped").is_none(), "said only when true");
    }

    #[test]
    fn a_duplicate_group_names_its_first_urls_in_url_order_whatever_order_they_come_in() {
        let urls = ["https://s.test/e", "https://s.test/", "https://s.test/c", "https://s.test/a", "https://s.test/d"];
        let mut forward = DuplicateGroup { count: urls.len(), head: Vec::new() };
        let mut backward = forward.clone();
        for url in urls {
            forward.offer(url);
            forward.offer(url);
        }
        for url in urls.iter().rev() {
            backward.offer(url);
        }
        assert_eq!(forward.head, ["https://s.test/", "https://s.test/a", "https://s.test/c", "https://s.test/d"]);
        assert_eq!(forward, backward);
        assert_eq!(
            forward.others_than("https://s.test/a"),
            "https://s.test/, https://s.test/c, https://s.test/d and 1 more"
        );
    }

    /// The pages a duplicate finding names are the same whatever order the crawl recorded the
    /// pages in (among pages at one depth, that order follows the answers' timing): the
    /// shared title, meta description and `<h1>` of seven pages give the same findings over
    /// the pages in crawl order and reversed.
    #[test]
    fn duplicate_findings_name_the_same_pages_whatever_the_crawl_order() {
        let pages: Vec<CrawledPage> = [4, 0, 6, 2, 5, 1, 3]
            .into_iter()
            .map(|i| CrawledPage {
                url: format!("https://s.test/p{i}"),
                status: Some(200),
                html: true,
                depth: Some(1),
                title: Some("One title for all".into()),
                meta_description: Some("One description for all".into()),
                h1: Some("One heading for all".into()),
                ..CrawledPage::default()
            })
            .collect();
        let reversed: Vec<CrawledPage> = pages.iter().rev().cloned().collect();
        let sitemap = BTreeSet::new();
        let ids = [
            duplicate_title::DuplicateTitle.meta().id,
            duplicate_meta_description::DuplicateMetaDescription.meta().id,
            duplicate_h1::DuplicateH1.meta().id,
        ];
        let findings = |pages: &[CrawledPage]| -> Vec<(&'static str, Vec<SiteFinding>)> {
            run_site_rules(pages, &sitemap, false)
                .into_iter()
                .filter(|r| ids.contains(&r.id))
                .map(|r| (r.id, r.findings))
                .collect()
        };
        let (ahead, behind) = (findings(&pages), findings(&reversed));
        assert_eq!(ahead, behind);
        assert_eq!(ahead.len(), 3);
        for (id, found) in &ahead {
            assert_eq!(found.len(), 7, "{id}");
            let first = found.iter().find(|f| f.url == "https://s.test/p0").expect("p0's finding");
            assert!(
                first.detail.contains(" as https://s.test/p1, https://s.test/p2, https://s.test/p3 and 3 more"),
                "{id}: {}",
                first.detail
            );
        }
    }

    #[test]
    fn findings_keep_the_first_in_order_up_to_the_cap() {
        let finding =
            |i: usize| SiteFinding { url: format!("https://s.test/{i:06}"), linked_from: None, detail: "x".into() };
        let mut findings = Findings::default();
        for i in (0..MAX_FINDINGS_PER_RULE + 5).rev() {
            findings.push(finding(i));
        }
        findings.push(finding(3));
        assert!(findings.capped());
        assert_eq!(findings.total(), (MAX_FINDINGS_PER_RULE + 5) as u64, "every finding counted, each once");
        assert_eq!(findings.total_urls(), (MAX_FINDINGS_PER_RULE + 5) as u64);
        let kept = findings.into_vec();
        assert_eq!(kept.len(), MAX_FINDINGS_PER_RULE);
        assert_eq!(kept.first(), Some(&finding(0)));
        assert_eq!(kept.last(), Some(&finding(MAX_FINDINGS_PER_RULE - 1)));
        let mut few = Findings::default();
        few.push(finding(2));
        few.push(finding(1));
        few.push(finding(2));
        assert!(!few.capped());
        assert_eq!(few.into_vec(), vec![finding(1), finding(2)], "sorted, each once");
    }

    #[test]
    fn rules_of_one_pass_count_their_distinct_urls_in_one_map_each_its_own() {
        let finding = |i: usize, detail: &str| SiteFinding {
            url: format!("https://s.test/{i:06}"),
            linked_from: None,
            detail: detail.into(),
        };
        let (mut a, mut b) = (Findings::default(), Findings::default());
        // Found before the pass (a rule's setup), then in it.
        a.push(finding(0, "setup"));
        let seen = std::rc::Rc::new(std::cell::RefCell::new(HashMap::new()));
        a.count_urls_in(&seen, 0);
        b.count_urls_in(&seen, 1);
        for i in 0..MAX_FINDINGS_PER_RULE + 20 {
            a.push(finding(i, "one"));
            a.push(finding(i, "two"));
            if i % 2 == 0 {
                b.push(finding(i, "b"));
            }
        }
        assert_eq!(a.total(), 2 * (MAX_FINDINGS_PER_RULE + 20) as u64 + 1, "every finding counted");
        assert_eq!(a.total_urls(), (MAX_FINDINGS_PER_RULE + 20) as u64, "a URL once, found before the pass or in it");
        assert_eq!(b.total_urls(), (MAX_FINDINGS_PER_RULE + 20).div_ceil(2) as u64, "the other rule's URLs its own");
        assert_eq!(seen.borrow().len(), MAX_FINDINGS_PER_RULE + 20, "one entry a URL for both rules");
        assert!(a.capped() && !b.capped());
    }
}
