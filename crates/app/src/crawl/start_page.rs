//! A crawl's start page, fetched once. The start of a crawl fetches its start page as an
//! audit does (redirects followed, the audit's refusals: not HTML, unreachable...) before
//! the crawl exists; what that fetch got is handed to the crawl's runner, which takes it for
//! the start URL (and for each redirect target on the way) instead of asking the site again
//! (docs/ARCHITECTURE.md, "Site crawl").

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use fetch::{FetchedPage, Fetcher};
use url::Url;

use crate::AppError;

/// A crawl's start page as the start check fetched it, redirects followed.
#[derive(Debug, Clone)]
pub struct StartPage {
    page: FetchedPage,
}

impl StartPage {
    /// Fetches the start page at `url` as an audit fetches its page: it must answer an HTML
    /// page (redirects followed, each hop through the address guard).
    ///
    /// # Errors
    /// The audit's fetch errors: `blocked_target`, `not_html`, `unreachable`...
    pub async fn fetch(fetcher: &Fetcher, url: &Url) -> Result<StartPage, AppError> {
        Ok(StartPage { page: fetcher.fetch_page(url).await? })
    }

    /// The start URL asked for.
    pub fn url(&self) -> &Url {
        &self.page.requested_url
    }

    /// The body's size in bytes.
    pub fn body_len(&self) -> usize {
        self.page.body.len()
    }

    /// The answers the fetch got, by the URL asked (without its fragment, as it went on the
    /// wire), each as one hop of the crawl ([`Fetcher::fetch_hop`]) would have given it: a
    /// redirect as its status and `Location` (the next URL of the chain, absolute), the last
    /// answer as it came. A redirect's other headers were not kept by the fetch; the crawl
    /// reads only its status and `Location`.
    pub fn hops(self) -> HashMap<String, FetchedPage> {
        let mut page = self.page;
        let chain = std::mem::take(&mut page.redirect_chain);
        let targets = chain.iter().skip(1).map(|hop| hop.url.clone()).chain(std::iter::once(page.final_url.clone()));
        let mut hops: HashMap<String, FetchedPage> = chain
            .iter()
            .zip(targets)
            .map(|(hop, target)| {
                let answer = FetchedPage {
                    requested_url: hop.url.clone(),
                    final_url: hop.url.clone(),
                    status: hop.status,
                    redirect_chain: Vec::new(),
                    headers: vec![("location".to_string(), target.to_string())],
                    content_type: None,
                    body: Default::default(),
                    ttfb_ms: 0,
                    total_ms: 0,
                };
                (wire_key(&hop.url), answer)
            })
            .collect();
        page.requested_url = page.final_url.clone();
        hops.insert(wire_key(&page.final_url), page);
        hops
    }
}

/// `url` as it goes on the wire: without its fragment.
pub fn wire_key(url: &Url) -> String {
    let mut key = url.clone();
    key.set_fragment(None);
    key.into()
}

/// Start pages the service holds at most for crawls that have not started yet.
pub const HELD_START_PAGES: usize = 8;

/// The largest start page the service holds for its crawl (bigger ones are fetched again by
/// the crawl): with [`HELD_START_PAGES`], the held pages take at most 8 MiB.
pub const HELD_START_PAGE_BYTES: usize = 1024 * 1024;

/// How long a start page is held for its crawl: a crawl queued behind others for longer
/// fetches its start page itself, as it then may have changed.
pub const HELD_FOR: Duration = Duration::from_secs(60);

/// The start pages the service's crawl starts fetched, held until their crawls run (in this
/// process; a crawl another replica or a later process runs fetches its start page itself).
/// Bounded: [`HELD_START_PAGES`] pages of at most [`HELD_START_PAGE_BYTES`], each for
/// [`HELD_FOR`].
#[derive(Debug, Default)]
pub struct StartPages {
    held: Mutex<Vec<(String, Instant, StartPage)>>,
}

impl StartPages {
    /// Holds `page` for crawl `crawl_id`, the oldest held page given up when full.
    pub fn keep(&self, crawl_id: &str, page: StartPage) {
        if page.body_len() > HELD_START_PAGE_BYTES {
            return;
        }
        let mut held = self.held.lock().unwrap_or_else(|p| p.into_inner());
        held.retain(|(_, at, _)| at.elapsed() < HELD_FOR);
        if held.len() >= HELD_START_PAGES {
            held.remove(0);
        }
        held.push((crawl_id.to_string(), Instant::now(), page));
    }

    /// The start page held for crawl `crawl_id`, if it still is.
    pub fn take(&self, crawl_id: &str) -> Option<StartPage> {
        let mut held = self.held.lock().unwrap_or_else(|p| p.into_inner());
        held.retain(|(_, at, _)| at.elapsed() < HELD_FOR);
        let at = held.iter().position(|(id, _, _)| id == crawl_id)?;
        Some(held.remove(at).2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fetch::RedirectHop;

    fn url(s: &str) -> Url {
        Url::parse(s).expect("url")
    }

    fn page(requested: &str, chain: &[(&str, u16)], last: &str) -> StartPage {
        StartPage {
            page: FetchedPage {
                requested_url: url(requested),
                final_url: url(last),
                status: 200,
                redirect_chain: chain.iter().map(|(u, status)| RedirectHop { url: url(u), status: *status }).collect(),
                headers: vec![("content-type".into(), "text/html".into())],
                content_type: Some("text/html".into()),
                body: "<title>Home</title>".into(),
                ttfb_ms: 3,
                total_ms: 5,
            },
        }
    }

    #[test]
    fn each_hop_is_answered_as_the_crawl_would_have_been() {
        let hops =
            page("http://a.test/#top", &[("http://a.test/#top", 301), ("https://a.test/", 302)], "https://a.test/en/")
                .hops();
        assert_eq!(hops.len(), 3);
        let first = &hops["http://a.test/"];
        assert_eq!((first.status, first.header("location")), (301, Some("https://a.test/")));
        let second = &hops["https://a.test/"];
        assert_eq!((second.status, second.header("location")), (302, Some("https://a.test/en/")));
        assert!(first.body.is_empty() && second.body.is_empty());
        let last = &hops["https://a.test/en/"];
        assert_eq!((last.status, last.requested_url.as_str()), (200, "https://a.test/en/"));
        assert_eq!(&last.body[..], b"<title>Home</title>");
        assert!(last.redirect_chain.is_empty());
        let alone = page("https://b.test/", &[], "https://b.test/").hops();
        assert_eq!(alone.keys().collect::<Vec<_>>(), ["https://b.test/"]);
    }

    #[test]
    fn start_pages_are_held_within_their_bounds_and_taken_once() {
        let held = StartPages::default();
        for n in 0..=HELD_START_PAGES {
            held.keep(&format!("cr_{n}"), page("https://a.test/", &[], "https://a.test/"));
        }
        assert!(held.take("cr_0").is_none(), "the oldest was given up when full");
        assert!(held.take("cr_1").is_some());
        assert!(held.take("cr_1").is_none(), "taken once");
        let mut big = page("https://a.test/", &[], "https://a.test/");
        big.page.body = vec![b' '; HELD_START_PAGE_BYTES + 1].into();
        held.keep("cr_big", big);
        assert!(held.take("cr_big").is_none(), "too large to hold");
    }
}
