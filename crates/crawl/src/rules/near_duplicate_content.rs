use std::collections::HashMap;

use super::prelude::*;
use crate::page::signature_similarity;
use crate::rules::DUPLICATE_HEAD;

/// The rule: its text is `META`, its check is below.
#[derive(Debug, Clone, Copy)]
pub struct NearDuplicateContent;

/// The similarity (percent of the signatures' bits that agree) from which two pages are
/// near duplicates, by default ([`CrawledSite::near_duplicate_threshold`]).
pub const NEAR_DUPLICATE_SIMILARITY: u32 = 90;

/// The pages after it in a band's run (pages sharing the band's value, ordered by the rest of their signatures, then by URL hash) a
/// page is compared with at most: a run of up to this many more pages is compared pair by
/// pair; in a larger one, a cluster of thousands of pages of one template, each page is
/// compared with the next this many, which still links the cluster and names a closest page
/// for each of them, at a cost that grows with the pages, not their square.
pub const MAX_COMPARED: usize = 512;

/// The thresholds a crawl may choose (`near_duplicate_threshold`, docs/API.md, "Site
/// crawl"). Below 50% two unrelated texts agree on about half their bits by chance, so a
/// lower threshold would only report noise; and the banded lookup compares the pages that
/// share a band's value ([`MAX_COMPARED`] after each at most), whose bands get narrower as the
/// threshold falls.
pub const NEAR_DUPLICATE_THRESHOLDS: std::ops::RangeInclusive<u32> = 50..=100;

static META: SiteRuleMeta = SiteRuleMeta {
    id: "near-duplicate-content",
    name: "Pages are not near copies of each other",
    severity: Severity::Warning,
    threshold: "the own text of two or more indexable pages (the text of the page's one `<main>` when it has one; navigation, header and footer left out) is at least 90% \
                similar by SimHash (a crawl may choose 50-100%: `near_duplicate_threshold`), without being the exact same text (that is `duplicate-content`'s); each page is \
                named with its cluster and its highest similarity",
    why: "Search engines pick one page of a group of near copies to show and leave the others out; the pages \
          compete with each other, and the crawl budget goes to copies.",
    fail_example: "/guide-a and /guide-b carry the same article, with another title and main heading",
    pass_example: "pages share their menus and footer, and each has its own text",
    reference: "https://developers.google.com/search/docs/advanced/guidelines/duplicate-content",
    phrases: &[],
    excluded: &[],
    glossary: &[super::DuplicateContent::ID],
};

/// The most bits two near duplicates' signatures differ in, at similarity `threshold`.
fn max_different_bits(threshold: u32) -> u32 {
    64 - (threshold.min(100) * 64).div_ceil(100)
}

/// The chance that two pages whose texts' expected similarity is `expected` percent (100 ×
/// (1 − acos(c) / π) for the cosine similarity c of their runs of three words, each bit of
/// their signatures then differing with probability 1 − `expected` / 100) are found at
/// `threshold`: that at most [`max_different_bits`] of the 64 bits differ (a binomial tail).
/// docs/RULES.md tabulates it ("How alike near copies are").
pub(crate) fn chance_found(expected: f64, threshold: u32) -> f64 {
    let p = (1.0 - expected / 100.0).clamp(0.0, 1.0);
    let mut choose = 1.0_f64;
    let mut sum = 0.0;
    for k in 0..=max_different_bits(threshold) {
        if k > 0 {
            choose = choose * f64::from(64 - k + 1) / f64::from(k);
        }
        sum += choose * p.powi(k as i32) * (1.0 - p).powi(64 - k as i32);
    }
    sum.min(1.0)
}

/// The signature's bits cut into `max_different_bits + 1` bands: two signatures that differ
/// in at most `max_different_bits` bits agree on a whole band (pigeonhole), so comparing the
/// pages that share a band's value finds every pair (in a run of pages sharing it of up to
/// [`MAX_COMPARED`] + 1; in a longer one, each page's [`MAX_COMPARED`] neighbours on each side).
fn bands(max_different_bits: u32) -> Vec<(u32, u32)> {
    let n = max_different_bits + 1;
    (0..n).map(|i| (i * 64 / n, (i + 1) * 64 / n)).collect()
}

/// `sig` turned so that the band's bits are its highest: sorted by it, the signatures that
/// share the band's value are a run, and within the run those that agree on more of the
/// bits next to the band come together.
fn band_first(sig: u64, (_, to): (u32, u32)) -> u64 {
    sig.rotate_left(64 - to)
}

#[cfg(test)]
fn band(sig: u64, (from, to): (u32, u32)) -> u64 {
    // A mask of the band's width; at 100% the one band is all 64 bits, which a shift of
    // `1 << 64` could not make.
    (sig >> from) & (u64::MAX >> (64 - (to - from)))
}

fn root(parent: &mut [u32], mut i: u32) -> u32 {
    while parent[i as usize] != i {
        let up = parent[parent[i as usize] as usize];
        parent[i as usize] = up;
        i = up;
    }
    i
}

impl SiteRule for NearDuplicateContent {
    fn meta(&self) -> &'static SiteRuleMeta {
        &META
    }

    fn scan<'s>(&'s self, site: &'s dyn CrawledSite, _: &mut Findings) -> ScanResult<'s> {
        let threshold = site.near_duplicate_threshold().clamp(*NEAR_DUPLICATE_THRESHOLDS.start(), 100);
        Ok(Some(Box::new(Passes { threshold, ..Passes::default() })))
    }
}

/// Two passes over the pages. The first keeps a fixed size per page (its signature, a piece
/// of its exact text hash and a hash of its URL), so that what the rule holds grows with the
/// pages, not with their text; the pages are then compared and clustered. The second reads
/// the URLs of the pages in a cluster (those the findings name).
#[derive(Default)]
struct Passes {
    threshold: u32,
    /// After the first pass: the second's.
    second: bool,
    signed: Vec<(u64, u64)>,
    /// The order pages are named in among equals (the closest of pages equally similar,
    /// the others of a cluster): their URLs' fixed hash, then their place in the stream.
    /// The stream's order is the order the crawl first found the URLs, which depends on
    /// which answers came first; the findings must not.
    order: Vec<(u64, u32)>,
    /// Each page's most similar other page, and the similarity.
    best: Vec<(u32, u32)>,
    clusters: HashMap<u32, Vec<u32>>,
    urls: HashMap<u32, String>,
    /// The second pass's place among the pages the first kept.
    at: u32,
}

impl Scan for Passes {
    fn page(&mut self, page: &CrawledPage, _: &mut Findings) -> SiteResult<()> {
        if !self.second {
            if let (true, Some(sig)) = (page.indexable(), page.content_signature) {
                let exact = page.text_hash.as_deref().and_then(|h| u64::from_str_radix(h.get(..16)?, 16).ok());
                self.order.push((xxhash_rust::xxh3::xxh3_64(page.url.as_bytes()), self.signed.len() as u32));
                self.signed.push((sig, exact.unwrap_or_default()));
            }
        } else if page.indexable() && page.content_signature.is_some() {
            if self.best.get(self.at as usize).is_some_and(|b| b.1 != u32::MAX) {
                self.urls.insert(self.at, page.url.clone());
            }
            self.at += 1;
        }
        Ok(())
    }

    fn end(&mut self, out: &mut Findings) -> SiteResult<Next> {
        if self.second {
            self.report(out);
            return Ok(Next::Done);
        }
        self.second = true;
        self.compare()?;
        Ok(if self.clusters.is_empty() { Next::Done } else { Next::ReadAgain })
    }
}

impl Passes {
    /// Compares the pages of the first pass and clusters the near duplicates.
    fn compare(&mut self) -> SiteResult<()> {
        let (signed, order, threshold) = (&self.signed, &self.order, self.threshold);
        let n = u32::try_from(signed.len()).map_err(|_| "too many pages to compare")?;
        let mut parent: Vec<u32> = (0..n).collect();
        let mut best: Vec<(u32, u32)> = vec![(0, u32::MAX); signed.len()];
        // Each page's signature turned so that the band's bits lead ([`band_first`]), with
        // the page's URL hash and place, sorted: the pages sharing the band's value are a
        // run, ordered by the rest of their signatures (pages whose signatures agree on more
        // of the other bits sit nearer), then by URL hash. One vector of 24 bytes a page,
        // reused band after band (a map of vectors took several times that:
        // docs/PERFORMANCE.md, "The site rules at the end"). A page is compared with the
        // MAX_COMPARED pages after it in its run: every pair of a run of up to that many,
        // and a bounded number a page in a larger one (pages of one template whose texts
        // barely differ, thousands of them), which every pair would make quadratic. Ordered
        // by URL hash alone, those neighbours were chosen by chance: a page 95% like another
        // could be missed, and which were missed changed with the site's host name.
        let mut keyed: Vec<(u64, u64, u32)> = Vec::with_capacity(signed.len());
        for b in bands(max_different_bits(threshold)) {
            keyed.clear();
            keyed.extend(signed.iter().enumerate().map(|(i, (sig, _))| (band_first(*sig, b), order[i].0, i as u32)));
            keyed.sort_unstable();
            let width = b.1 - b.0;
            let same_band = |x: &(u64, u64, u32), y: &(u64, u64, u32)| x.0 >> (64 - width) == y.0 >> (64 - width);
            for members in keyed.chunk_by(same_band).filter(|m| m.len() > 1) {
                for (k, &(_, _, i)) in members.iter().enumerate() {
                    for &(_, _, j) in members[k + 1..].iter().take(MAX_COMPARED) {
                        let ((a, ea), (c, ec)) = (signed[i as usize], signed[j as usize]);
                        let similarity = signature_similarity(a, c);
                        if similarity < threshold || (ea == ec && ea != 0) {
                            continue;
                        }
                        let (ri, rj) = (root(&mut parent, i), root(&mut parent, j));
                        parent[ri.max(rj) as usize] = ri.min(rj);
                        for (x, y) in [(i, j), (j, i)] {
                            let current = &mut best[x as usize];
                            if current.1 == u32::MAX
                                || similarity > current.0
                                || (similarity == current.0 && order[y as usize] < order[current.1 as usize])
                            {
                                *current = (similarity, y);
                            }
                        }
                    }
                }
            }
        }
        for i in 0..n {
            if best[i as usize].1 != u32::MAX {
                let r = root(&mut parent, i);
                self.clusters.entry(r).or_default().push(i);
            }
        }
        for members in self.clusters.values_mut() {
            members.sort_by_key(|&m| order[m as usize]);
        }
        self.best = best;
        // The second pass needs neither.
        self.signed = Vec::new();
        self.order = Vec::new();
        Ok(())
    }

    /// The findings, once the second pass has read the URLs.
    fn report(&self, out: &mut Findings) {
        let (best, urls) = (&self.best, &self.urls);
        for members in self.clusters.values() {
            for &m in members {
                let (Some(url), (similarity, closest)) = (urls.get(&m), best[m as usize]) else { continue };
                let Some(closest_url) = urls.get(&closest) else { continue };
                let others: Vec<&str> = members
                    .iter()
                    .filter(|o| **o != m && **o != closest)
                    .take(DUPLICATE_HEAD - 2)
                    .filter_map(|o| urls.get(o).map(String::as_str))
                    .collect();
                let more = members.len() - 2 - others.len();
                let mut detail = format!("{similarity}% similar to {closest_url}");
                // The group is linked pair by pair (A like B, B like C): the others are named
                // as members of one group, not as each this near to the page.
                if !others.is_empty() {
                    detail.push_str(&format!("; in one group of near copies with {}", others.join(", ")));
                }
                if more > 0 {
                    detail.push_str(&format!(" and {more} more"));
                }
                out.push(SiteFinding { url: url.clone(), linked_from: None, detail });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The chance a pair is found is the binomial tail of its bits (values from Python's
    /// `math.comb`): certain for equal texts, a coin's toss near the threshold, rare far below.
    #[test]
    fn chance_found_is_the_binomial_tail_of_the_differing_bits() {
        assert_eq!(chance_found(100.0, 90), 1.0);
        for (expected, chance) in
            [(95.0, 0.959_703_114_107_175_7), (90.0, 0.539_038_843_528_311_6), (80.0, 0.018_219_940_017_062_1)]
        {
            assert!((chance_found(expected, 90) - chance).abs() < 1e-12, "{expected}: {}", chance_found(expected, 90));
        }
        // At 50% every pair within 32 differing bits is found: about half of unrelated ones.
        assert!((chance_found(50.0, 50) - 0.549_673_376_873_983_4).abs() < 1e-12, "{}", chance_found(50.0, 50));
        let mut last = 1.0;
        for expected in (50..=100).rev() {
            let chance = chance_found(f64::from(expected), 90);
            assert!(chance <= last, "{expected}");
            last = chance;
        }
    }

    /// A page of `path` with the signature `signature` and a text of its own.
    fn signed_page(path: &str, k: u32, signature: u64) -> crate::page::CrawledPage {
        crate::page::CrawledPage {
            url: format!("http://site.test/{path}"),
            status: Some(200),
            html: true,
            depth: Some(1),
            content_signature: Some(signature),
            text_hash: Some(format!("{k:032x}")),
            ..crate::page::CrawledPage::default()
        }
    }

    /// The rule's findings over `pages`.
    fn findings_over(pages: &[crate::page::CrawledPage]) -> Findings {
        let sitemap_urls = std::collections::BTreeSet::new();
        let site = crate::rules::SiteIndex::new(pages, &sitemap_urls, false);
        let mut out = Findings::default();
        NearDuplicateContent.check(&site, &mut out).unwrap();
        out
    }

    /// Pages found in another order (the order answers came in, which concurrency changes)
    /// are named alike: six pages with the same signature and other texts are each 100%
    /// similar to all five others, and each names the same closest page and the same others
    /// of its cluster in every order.
    #[test]
    fn pages_equally_similar_are_named_alike_whatever_order_they_came_in() {
        let page = |n: u32| signed_page(&format!("p{n}"), n, 0x0123_4567_89ab_cdef);
        let findings = |pages: &[crate::page::CrawledPage]| findings_over(pages).into_vec();
        let mut pages: Vec<_> = (0..6).map(page).collect();
        let first = findings(&pages);
        assert_eq!(first.len(), 6, "{first:?}");
        for _ in 0..5 {
            pages.rotate_left(1);
            assert_eq!(findings(&pages), first);
        }
        pages.reverse();
        assert_eq!(findings(&pages), first);
    }

    /// A group linked pair by pair: a is near b and b near c, but a is not near c. a's finding
    /// names b as its closest page and c only as a member of the same group, never as a page
    /// near a itself (as "near duplicate of c" would).
    #[test]
    fn a_page_names_its_closest_copy_and_the_rest_of_its_group_as_a_group() {
        let (a, b, c) = (0u64, 0x3f, 0xfff);
        assert!(signature_similarity(a, b) >= NEAR_DUPLICATE_SIMILARITY);
        assert!(signature_similarity(b, c) >= NEAR_DUPLICATE_SIMILARITY);
        assert!(signature_similarity(a, c) < NEAR_DUPLICATE_SIMILARITY);
        let pages = [signed_page("a", 1, a), signed_page("b", 2, b), signed_page("c", 3, c)];
        let findings = findings_over(&pages).into_vec();
        let of_a = findings.iter().find(|f| f.url == "http://site.test/a").expect("a is reported");
        assert_eq!(
            of_a.detail,
            format!(
                "{}% similar to http://site.test/b; in one group of near copies with http://site.test/c",
                signature_similarity(a, b)
            )
        );
        assert_eq!(findings.len(), 3, "{findings:?}");
    }

    /// A cluster larger than a page is compared with (thousands of pages of one template):
    /// every page is still reported, with the same closest page in any order the pages came
    /// in, while each page is compared with a bounded number of others.
    #[test]
    fn a_cluster_past_the_pages_compared_is_reported_whole_and_alike_in_any_order() {
        let n = MAX_COMPARED as u32 * 3 + 7;
        let page = |k: u32| signed_page(&format!("tag/{k}"), k, 0x0f0f_0f0f_1234_5678 ^ u64::from(k % 3));
        let findings = |pages: &[crate::page::CrawledPage]| {
            let out = findings_over(pages);
            (out.total_urls(), out.into_vec())
        };
        let mut pages: Vec<_> = (0..n).map(page).collect();
        let first = findings(&pages);
        assert_eq!(first.0, u64::from(n), "every page of the cluster is reported");
        pages.rotate_left(n as usize / 3);
        assert_eq!(findings(&pages), first);
        pages.reverse();
        assert_eq!(findings(&pages), first);
    }

    #[test]
    fn the_bands_cover_the_bits_once_and_outnumber_the_differences() {
        assert_eq!(max_different_bits(NEAR_DUPLICATE_SIMILARITY), 6);
        assert_eq!((max_different_bits(50), max_different_bits(100)), (32, 0));
        for threshold in NEAR_DUPLICATE_THRESHOLDS {
            let bits = max_different_bits(threshold);
            let bands = bands(bits);
            assert_eq!(bands.len() as u32, bits + 1);
            assert_eq!(bands.first().map(|b| b.0), Some(0));
            assert_eq!(bands.last().map(|b| b.1), Some(64));
            assert!(bands.windows(2).all(|w| w[0].1 == w[1].0 && w[0].1 > w[0].0));
            let sig = 0xF0F0_1234_5678_9ABC;
            let rebuilt = bands.iter().fold(0u64, |acc, b| acc | band(sig, *b) << b.0);
            assert_eq!(rebuilt, sig);
            // The key the pages are sorted by leads with the band's value, and keeps every bit.
            for b in &bands {
                assert_eq!(band_first(sig, *b) >> (64 - (b.1 - b.0)), band(sig, *b), "{threshold}%: band {b:?}");
                assert_eq!(band_first(sig, *b).count_ones(), sig.count_ones());
            }
        }
    }

    /// Runs of pages sharing a band's value far larger than the pages each is compared with
    /// (one template, thousands of pages): a pair of near copies that share only two bands,
    /// each a run of 3,000 pages, is found whatever the pages' URLs, because a run is
    /// ordered by the rest of the signatures. Ordered by URL hash alone, the pair sat too far
    /// apart in both runs (checked with the old order: missed for the first host here).
    #[test]
    fn near_copies_in_runs_past_the_pages_compared_are_found_whatever_the_urls() {
        let bands = bands(max_different_bits(NEAR_DUPLICATE_SIMILARITY));
        let mask = |(from, to): (u32, u32)| (u64::MAX >> (64 - (to - from))) << from;
        let twin = 0x5a5a_1234_abcd_9876_u64;
        // Six bits apart, one in each band but the first and the last: 90% similar.
        let other = twin ^ (1 << 10 | 1 << 20 | 1 << 30 | 1 << 31 | 1 << 40 | 1 << 50);
        assert_eq!(signature_similarity(twin, other), NEAR_DUPLICATE_SIMILARITY);
        for host in ["a.test", "b.test", "c.test", "d.test", "e.test", "f.test"] {
            let mut pages = Vec::new();
            for k in 0..6_000u32 {
                // Another text, sharing the first or the last band's value with the twins.
                let b = if k % 2 == 0 { bands[0] } else { bands[bands.len() - 1] };
                let sig = (xxhash_rust::xxh3::xxh3_64(&k.to_le_bytes()) & !mask(b)) | (twin & mask(b));
                pages.push(signed_page(&format!("t/{k}"), k + 10, sig));
            }
            pages.push(signed_page("one", 1, twin));
            pages.push(signed_page("two", 2, other));
            for p in &mut pages {
                p.url = p.url.replace("site.test", host);
            }
            let findings = findings_over(&pages).into_vec();
            let one = findings.iter().find(|f| f.url == format!("http://{host}/one"));
            assert!(
                one.is_some_and(|f| f.detail.starts_with(&format!("90% similar to http://{host}/two"))),
                "{host}: {one:?}"
            );
        }
    }
}
