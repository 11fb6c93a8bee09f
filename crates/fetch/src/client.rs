//! The fetcher: one reqwest client behind the guard, redirects followed by hand.

use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::{Bytes, BytesMut};
use reqwest::header::{HeaderMap, HeaderName, HeaderValue, ACCEPT, CONTENT_TYPE, LOCATION, USER_AGENT};
use reqwest::redirect::Policy;
use url::Url;

use crate::guard::normalize_name;
use crate::resolver::GuardedResolver;
use crate::site::{BoundSite, SiteHeaders};
use crate::validate::check_shape;
use crate::{
    AddressGuard, ConnectFailure, Error, FetchedPage, LinkAnswer, RedirectHop, DEFAULT_BASE_URL,
    DEFAULT_CONNECT_TIMEOUT, DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_REDIRECTS, DEFAULT_POST_MAX_BYTES,
    DEFAULT_ROBOTS_CACHE_ENTRIES, DEFAULT_TEXT_MAX_BYTES, DEFAULT_TEXT_TIMEOUT, DEFAULT_TOTAL_TIMEOUT,
};

const PAGE_ACCEPT: &str = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5";
const TEXT_ACCEPT: &str = "text/plain,text/markdown;q=0.9,*/*;q=0.5";

/// Settings of a [`Fetcher`]. Every field has a `pub const` default of the same meaning,
/// and [`FetchConfig::default`] uses them all.
#[derive(Debug, Clone)]
pub struct FetchConfig {
    /// Longest wait for a TCP (and TLS) connection, per hop.
    pub connect_timeout: Duration,
    /// Longest time for a whole page fetch: all hops and the full body.
    pub total_timeout: Duration,
    /// Largest page body after decompression.
    pub max_body_bytes: usize,
    /// Longest time for a whole [`Fetcher::fetch_text`] (robots.txt, llms.txt).
    pub text_timeout: Duration,
    /// Largest body [`Fetcher::fetch_robots_txt`] accepts.
    pub text_max_bytes: usize,
    /// Largest response body [`Fetcher::post_json`] accepts.
    pub post_max_bytes: usize,
    /// How many redirects are followed; one more is [`Error::TooManyRedirects`].
    pub max_redirects: usize,
    /// The service's public base URL, named in the user agent as `<base_url>/bot`.
    pub base_url: String,
    /// Operator allow-list of the address guard; see [`AddressGuard`] for the forms.
    /// Empty by default: only public targets.
    pub allow_targets: Vec<String>,
    /// Fixed DNS answers, consulted before the system resolver and still filtered by the
    /// address guard. Meant for tests and for pinning a host in development.
    pub dns_overrides: Vec<(String, Vec<IpAddr>)>,
    /// How long a fetched robots.txt is reused for the same origin (RFC 9309 §2.4 allows up
    /// to 24 h); zero disables the cache. Errors are never cached.
    pub robots_cache_ttl: Duration,
    /// Most origins whose robots.txt is kept.
    pub robots_cache_entries: usize,
    /// Offline mode, for tests and sandboxes (default off): only `allow_targets` (and
    /// names pinned by `dns_overrides` to allowed addresses) are reachable; everything
    /// else, public hosts included, is refused without any DNS lookup. See
    /// [`AddressGuard::offline`].
    pub offline: bool,
}

impl Default for FetchConfig {
    fn default() -> Self {
        FetchConfig {
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            total_timeout: DEFAULT_TOTAL_TIMEOUT,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            text_timeout: DEFAULT_TEXT_TIMEOUT,
            text_max_bytes: DEFAULT_TEXT_MAX_BYTES,
            post_max_bytes: DEFAULT_POST_MAX_BYTES,
            max_redirects: DEFAULT_MAX_REDIRECTS,
            base_url: DEFAULT_BASE_URL.to_string(),
            allow_targets: Vec::new(),
            dns_overrides: Vec::new(),
            robots_cache_ttl: Duration::ZERO,
            robots_cache_entries: DEFAULT_ROBOTS_CACHE_ENTRIES,
            offline: false,
        }
    }
}

impl FetchConfig {
    /// The user agent sent with every request: `SeoAuditBot/<version> (+<base_url>/bot)`.
    ///
    /// A webmaster reads it in their logs and follows the link, so it must lead somewhere
    /// they can reach: while the base URL is an address only this machine or its network
    /// can open (the default `http://127.0.0.1:8080`, `localhost`, a private address), it
    /// names the project's public description of the bot ([`crate::PUBLIC_BOT_PAGE`])
    /// instead.
    pub fn user_agent(&self) -> String {
        let base = self.base_url.trim_end_matches('/');
        if reachable_from_outside(base) {
            format!("SeoAuditBot/{} (+{base}/bot)", env!("CARGO_PKG_VERSION"))
        } else {
            format!("SeoAuditBot/{} (+{})", env!("CARGO_PKG_VERSION"), crate::PUBLIC_BOT_PAGE)
        }
    }
}

/// Whether `base` is an http(s) address someone on the internet could open: not a loopback,
/// private, link-local or unspecified address, nor `localhost`.
fn reachable_from_outside(base: &str) -> bool {
    let Ok(url) = url::Url::parse(base) else { return false };
    match url.host() {
        Some(url::Host::Domain(name)) => {
            let name = name.trim_end_matches('.').to_ascii_lowercase();
            name != "localhost" && !name.ends_with(".localhost")
        }
        Some(url::Host::Ipv4(ip)) => {
            !(ip.is_loopback() || ip.is_private() || ip.is_link_local() || ip.is_unspecified())
        }
        Some(url::Host::Ipv6(ip)) => {
            let local = (ip.segments()[0] & 0xfe00) == 0xfc00 || (ip.segments()[0] & 0xffc0) == 0xfe80;
            !(ip.is_loopback() || ip.is_unspecified() || local)
        }
        None => false,
    }
}

/// The network client of seo-audit. Cheap to clone (one `Arc`); clones share the
/// connection pool.
///
/// Every request goes through the [`AddressGuard`]: URLs are checked before each hop and
/// resolved addresses at connection time. Redirects are followed by hand so each hop is
/// checked and recorded. No proxy from the environment is used: a proxy would resolve
/// the target itself, out of the guard's sight.
#[derive(Clone)]
pub struct Fetcher {
    inner: Arc<Inner>,
    /// The headers of a staging site's crawl and the site they go to ([`Fetcher::for_site`]).
    site: Option<Arc<BoundSite>>,
    /// The `User-Agent` sent instead of the service's own ([`Fetcher::with_user_agent`]).
    user_agent: Option<HeaderValue>,
}

struct Inner {
    client: reqwest::Client,
    guard: Arc<AddressGuard>,
    /// The fixed DNS answers of `config.dns_overrides`, by normalized name.
    overrides: Arc<HashMap<String, Vec<IpAddr>>>,
    config: FetchConfig,
    /// robots.txt answers by origin, with the time they were fetched.
    robots_cache: std::sync::Mutex<HashMap<String, (Instant, FetchedPage)>>,
}

impl std::fmt::Debug for Fetcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Fetcher").field("config", &self.inner.config).field("site", &self.site).finish_non_exhaustive()
    }
}

/// Request headers a caller sets instead of the service's own.
#[derive(Default)]
struct Headers {
    user_agent: Option<HeaderValue>,
    accept: Option<HeaderValue>,
}

/// What kind of body a fetch expects.
#[derive(Clone, Copy)]
enum Expect {
    Html,
    AnyText,
    /// One hop of a site crawl ([`Fetcher::fetch_hop`]).
    Hop,
}

impl Fetcher {
    /// Builds the client.
    ///
    /// # Errors
    /// [`Error::Config`] for a bad allow-list entry or when the TLS client cannot be built.
    pub fn new(config: FetchConfig) -> Result<Fetcher, Error> {
        let guard = Arc::new(AddressGuard::new(&config.allow_targets)?.offline(config.offline));
        let overrides: HashMap<String, Vec<IpAddr>> =
            config.dns_overrides.iter().map(|(name, addrs)| (normalize_name(name), addrs.clone())).collect();
        let overrides = Arc::new(overrides);
        let resolver = GuardedResolver { guard: Arc::clone(&guard), overrides: Arc::clone(&overrides) };
        let client = reqwest::Client::builder()
            .redirect(Policy::none())
            .no_proxy()
            .connect_timeout(config.connect_timeout)
            .user_agent(config.user_agent())
            .dns_resolver(Arc::new(resolver))
            .use_rustls_tls()
            .build()
            .map_err(|e| Error::Config(e.to_string()))?;
        let inner = Arc::new(Inner { client, guard, overrides, config, robots_cache: Default::default() });
        Ok(Fetcher { inner, site: None, user_agent: None })
    }

    /// This fetcher (its client, guard and limits shared) sending `headers` with every
    /// request to the host of `start` (docs/API.md, "Staging sites"): pages, robots.txt,
    /// sitemaps and the hops of their redirects that stay on that host
    /// ([`crate::applies_to`]); a hop to another host goes without them. Link checks
    /// ([`Fetcher::check_link`]) and posts ([`Fetcher::post_json`]) never carry them, and
    /// the robots.txt it reads with them is neither taken from nor put in the shared cache.
    pub fn for_site(&self, start: &Url, headers: SiteHeaders) -> Fetcher {
        let site = (!headers.is_empty()).then(|| Arc::new(BoundSite { start: start.clone(), headers }));
        Fetcher { inner: Arc::clone(&self.inner), site, user_agent: self.user_agent.clone() }
    }

    /// This fetcher sending `agent` as its `User-Agent` on every request (pages, robots.txt,
    /// sitemaps, link checks) instead of the service's own: a crawl's user agent profile
    /// (docs/API.md, "User agent"). `None` keeps the service's. A caller's own agent
    /// ([`Fetcher::fetch_text_as`]) still wins.
    ///
    /// # Errors
    /// [`Error::Config`] when `agent` is no valid header value.
    pub fn with_user_agent(&self, agent: Option<&str>) -> Result<Fetcher, Error> {
        let user_agent = agent
            .map(|a| HeaderValue::from_str(a).map_err(|e| Error::Config(format!("user agent: {e}"))))
            .transpose()?;
        Ok(Fetcher { inner: Arc::clone(&self.inner), site: self.site.clone(), user_agent })
    }

    /// This fetcher without the headers of [`Fetcher::for_site`].
    pub fn without_site(&self) -> Fetcher {
        Fetcher { inner: Arc::clone(&self.inner), site: None, user_agent: self.user_agent.clone() }
    }

    /// Whether this fetcher sends a site's headers ([`Fetcher::for_site`]).
    pub fn has_site_headers(&self) -> bool {
        self.site.is_some()
    }

    /// The settings this fetcher was built with.
    pub fn config(&self) -> &FetchConfig {
        &self.inner.config
    }

    /// The address guard this fetcher applies.
    pub fn guard(&self) -> &AddressGuard {
        &self.inner.guard
    }

    /// The addresses of the host name `name` that may be connected to: resolved as every
    /// fetch resolves (fixed answers, then the system resolver) and filtered by the guard.
    ///
    /// # Errors
    /// [`Error::Dns`] when the name does not resolve, [`Error::Blocked`] when no address
    /// passes the guard.
    pub async fn resolve(&self, name: &str) -> Result<Vec<IpAddr>, Error> {
        crate::resolver::resolve_checked(&self.inner.guard, &self.inner.overrides, &normalize_name(name)).await
    }

    /// Fetches an HTML page, following up to `max_redirects` redirects, within
    /// `total_timeout` and `max_body_bytes`.
    ///
    /// A successful (2xx) answer must be `text/html` or `application/xhtml+xml`; one
    /// without a content type is taken as HTML. Answers with other statuses are returned
    /// whatever their type, since their status is what matters.
    ///
    /// # Errors
    /// Any [`Error`] except [`Error::Config`]; see each variant.
    pub async fn fetch_page(&self, url: &Url) -> Result<FetchedPage, Error> {
        let config = &self.inner.config;
        self.fetch(url, Expect::Html, config.max_body_bytes, config.total_timeout).await
    }

    /// Fetches one hop of a site crawl: like [`Fetcher::fetch_page`] (guarded, within
    /// `total_timeout` and `max_body_bytes`), but a redirect is not followed: a 3xx answer
    /// with a `Location` is returned as it is, with its headers and no body, and the crawl
    /// decides whether to fetch the target. A 2xx answer that is not HTML is returned too,
    /// its body not read (empty): the crawl records it without parsing it.
    ///
    /// # Errors
    /// As [`Fetcher::fetch_page`], without [`Error::NotHtml`] and the redirect errors.
    pub async fn fetch_hop(&self, url: &Url) -> Result<FetchedPage, Error> {
        let config = &self.inner.config;
        self.fetch(url, Expect::Hop, config.max_body_bytes, config.total_timeout).await
    }

    /// Fetches a text resource (robots.txt, llms.txt, a sitemap) of at most `max_bytes`,
    /// within `text_timeout`, with redirects followed like [`Fetcher::fetch_page`] and no
    /// content-type check.
    ///
    /// # Errors
    /// As [`Fetcher::fetch_page`], without [`Error::NotHtml`].
    pub async fn fetch_text(&self, url: &Url, max_bytes: usize) -> Result<FetchedPage, Error> {
        let timeout = self.inner.config.text_timeout;
        self.fetch(url, Expect::AnyText, max_bytes, timeout).await
    }

    /// Fetches a text resource like [`Fetcher::fetch_text`], with a `User-Agent` and an
    /// `Accept` of the caller's instead of the service's: the AI-readiness check asks for a
    /// page as an AI crawler would, and for markdown. Guarded and bounded like every fetch.
    ///
    /// # Errors
    /// As [`Fetcher::fetch_text`]; [`Error::Config`] when a value is not a valid header value.
    pub async fn fetch_text_as(
        &self,
        url: &Url,
        max_bytes: usize,
        user_agent: Option<&str>,
        accept: Option<&str>,
    ) -> Result<FetchedPage, Error> {
        let value = |v: &str| HeaderValue::from_str(v).map_err(|e| Error::Config(format!("header value: {e}")));
        let headers =
            Headers { user_agent: user_agent.map(value).transpose()?, accept: accept.map(value).transpose()? };
        check_shape(url)?;
        let timeout = self.inner.config.text_timeout;
        let started = Instant::now();
        tokio::time::timeout(timeout, self.follow(url, Expect::AnyText, max_bytes, started, &headers))
            .await
            .unwrap_or_else(|_| Err(Error::timeout(url, timeout)))
    }

    /// Fetches `/robots.txt` at the origin of `page_url`, with `text_max_bytes` and
    /// `text_timeout`.
    ///
    /// Every answer is returned as `Ok(Some(page))`, whatever its status, because
    /// RFC 9309 treats them differently (4xx: no rules, allow all; 5xx: disallow all); a
    /// missing robots.txt is therefore a page with status 404. `Ok(None)` means
    /// `page_url` has no http(s) origin to ask.
    ///
    /// # Errors
    /// As [`Fetcher::fetch_text`]; a robots.txt over the limit is [`Error::TooLarge`].
    pub async fn fetch_robots_txt(&self, page_url: &Url) -> Result<Option<FetchedPage>, Error> {
        if check_shape(page_url).is_err() {
            return Ok(None);
        }
        let Ok(robots) = page_url.join("/robots.txt") else {
            return Ok(None);
        };
        // A robots.txt read with a staging site's headers is that caller's alone.
        let private = self.site.as_deref().is_some_and(|site| site.applies_to(&robots));
        let ttl = if private { Duration::ZERO } else { self.inner.config.robots_cache_ttl };
        let origin = page_url.origin().ascii_serialization();
        if !ttl.is_zero() {
            let cache = self.inner.robots_cache.lock().unwrap_or_else(|p| p.into_inner());
            if let Some((at, page)) = cache.get(&origin) {
                if at.elapsed() < ttl {
                    return Ok(Some(page.clone()));
                }
            }
        }
        let max = self.inner.config.text_max_bytes;
        let page = self.fetch_text(&robots, max).await?;
        if !ttl.is_zero() {
            let mut cache = self.inner.robots_cache.lock().unwrap_or_else(|p| p.into_inner());
            if cache.len() >= self.inner.config.robots_cache_entries {
                // Drop what has expired; if that frees nothing, drop the oldest entry.
                cache.retain(|_, (at, _)| at.elapsed() < ttl);
                if cache.len() >= self.inner.config.robots_cache_entries {
                    if let Some(oldest) = cache.iter().min_by_key(|(_, (at, _))| *at).map(|(k, _)| k.clone()) {
                        cache.remove(&oldest);
                    }
                }
            }
            if self.inner.config.robots_cache_entries > 0 {
                cache.insert(origin, (Instant::now(), page.clone()));
            }
        }
        Ok(Some(page))
    }

    /// Checks a link without reading a page: HEAD, hop by hop with each hop guarded as every
    /// fetch (redirects followed up to `max_redirects`, loops refused), and GET for a hop
    /// whose HEAD is refused (405, 501, or the connection reset or closed: servers that do
    /// not implement HEAD), its body never read. The whole check, redirects and GETs
    /// included, within `timeout`. For a crawl's external links (docs/RULES.md,
    /// `broken-external-link`).
    ///
    /// # Errors
    /// As [`Fetcher::fetch_hop`]: [`Error::Blocked`] when the guard refuses a hop (nothing is
    /// sent to it), [`Error::Timeout`] past `timeout`, the redirect errors.
    pub async fn check_link(&self, url: &Url, timeout: Duration) -> Result<LinkAnswer, Error> {
        check_shape(url)?;
        tokio::time::timeout(timeout, self.check_hops(url)).await.unwrap_or_else(|_| Err(Error::timeout(url, timeout)))
    }

    async fn check_hops(&self, url: &Url) -> Result<LinkAnswer, Error> {
        let max_redirects = self.inner.config.max_redirects;
        let accept = HeaderValue::from_static(PAGE_ACCEPT);
        let mut current = url.clone();
        let mut chain: Vec<RedirectHop> = Vec::new();
        let mut seen: HashSet<String> = HashSet::from([visit_key(&current)]);
        let mut by_get = false;
        loop {
            self.inner.guard.check_url(&current)?;
            let head =
                self.inner.client.head(current.clone()).header(ACCEPT, accept.clone()).headers(self.agent_header());
            let head = head.send().await;
            let head_refused = match &head {
                Ok(response) => matches!(response.status().as_u16(), 405 | 501),
                Err(_) => false,
            };
            let response = match head {
                Ok(response) if !head_refused => response,
                Ok(_) => {
                    by_get = true;
                    self.inner
                        .client
                        .get(current.clone())
                        .header(ACCEPT, accept.clone())
                        .headers(self.agent_header())
                        .send()
                        .await
                        .map_err(|e| self.classify(e))?
                }
                Err(e) => match self.classify(e) {
                    Error::Connect { failure: ConnectFailure::Reset | ConnectFailure::Closed, .. } => {
                        by_get = true;
                        self.inner
                            .client
                            .get(current.clone())
                            .header(ACCEPT, accept.clone())
                            .headers(self.agent_header())
                            .send()
                            .await
                            .map_err(|e| self.classify(e))?
                    }
                    other => return Err(other),
                },
            };
            let status = response.status().as_u16();
            if let Some(location) = redirect_location(&response) {
                current = next_hop(current, status, location, &mut chain, &mut seen, max_redirects)?;
                continue;
            }
            // The body is never read: dropping the answer closes its stream.
            return Ok(LinkAnswer { status, redirect_chain: chain, final_url: current, by_get });
        }
    }

    /// The `User-Agent` of [`Fetcher::with_user_agent`], as headers to add (none: the
    /// client's own).
    fn agent_header(&self) -> HeaderMap {
        let mut map = HeaderMap::new();
        if let Some(agent) = &self.user_agent {
            map.insert(USER_AGENT, agent.clone());
        }
        map
    }

    /// POSTs a JSON body and returns the status, headers (lowercase names) and body of
    /// the answer. For webhook delivery and the AI search provider.
    ///
    /// The target is guarded like any fetch. Redirects are not followed (a 3xx is
    /// returned as it is): a POST should not wander. `Content-Type: application/json` is
    /// set unless `headers` sets it; the answer's body may be at most `post_max_bytes`.
    ///
    /// # Errors
    /// [`Error::Config`] for a header name or value that is not valid HTTP; otherwise as
    /// [`Fetcher::fetch_text`].
    pub async fn post_json(
        &self,
        url: &Url,
        headers: &[(String, String)],
        body: &serde_json::Value,
        timeout: Duration,
    ) -> Result<(u16, Vec<(String, String)>, Bytes), Error> {
        check_shape(url)?;
        self.inner.guard.check_url(url)?;
        let mut map = HeaderMap::new();
        map.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        for (name, value) in headers {
            let name = HeaderName::from_bytes(name.as_bytes())
                .map_err(|_| Error::Config(format!("bad header name {name:?}")))?;
            let value =
                HeaderValue::from_str(value).map_err(|_| Error::Config(format!("bad value for header {name}")))?;
            if name == CONTENT_TYPE {
                map.insert(name, value);
            } else {
                map.append(name, value);
            }
        }
        let payload = serde_json::to_vec(body).map_err(|e| Error::Config(e.to_string()))?;
        let limit = self.inner.config.post_max_bytes;
        let request = self.inner.client.post(url.clone()).headers(map).body(payload);
        let exchange = async {
            let response = request.send().await.map_err(|e| self.classify(e))?;
            let status = response.status().as_u16();
            let headers = header_list(response.headers());
            let body = read_body(response, limit, self.inner.config.connect_timeout).await?;
            Ok((status, headers, body))
        };
        tokio::time::timeout(timeout, exchange).await.unwrap_or_else(|_| Err(Error::timeout(url, timeout)))
    }

    async fn fetch(&self, url: &Url, expect: Expect, limit: usize, timeout: Duration) -> Result<FetchedPage, Error> {
        check_shape(url)?;
        let started = Instant::now();
        tokio::time::timeout(timeout, self.follow(url, expect, limit, started, &Headers::default()))
            .await
            .unwrap_or_else(|_| Err(Error::timeout(url, timeout)))
    }

    /// A reqwest error as ours.
    fn classify(&self, err: reqwest::Error) -> Error {
        Error::from_reqwest(err, self.inner.config.connect_timeout)
    }

    /// Walks the redirect chain hop by hop, guarding each, then reads the final body.
    async fn follow(
        &self,
        url: &Url,
        expect: Expect,
        limit: usize,
        started: Instant,
        headers: &Headers,
    ) -> Result<FetchedPage, Error> {
        let max_redirects = self.inner.config.max_redirects;
        let accept = headers.accept.clone().unwrap_or(HeaderValue::from_static(match expect {
            Expect::Html | Expect::Hop => PAGE_ACCEPT,
            Expect::AnyText => TEXT_ACCEPT,
        }));
        let mut current = url.clone();
        let mut chain: Vec<RedirectHop> = Vec::new();
        let mut seen: HashSet<String> = HashSet::from([visit_key(&current)]);
        loop {
            self.inner.guard.check_url(&current)?;
            let hop_started = Instant::now();
            let mut request = self.inner.client.get(current.clone()).header(ACCEPT, accept.clone());
            if let Some(agent) = headers.user_agent.as_ref().or(self.user_agent.as_ref()) {
                request = request.header(USER_AGENT, agent.clone());
            }
            // Checked at every hop: a redirect to another host goes without them.
            if let Some(site) = self.site.as_deref().filter(|site| site.applies_to(&current)) {
                request = site.headers.apply(request);
            }
            let response = request.send().await.map_err(|e| self.classify(e))?;
            let ttfb = hop_started.elapsed();
            let status = response.status().as_u16();
            let headers_only = |current: Url, response: &reqwest::Response| FetchedPage {
                requested_url: url.clone(),
                final_url: current,
                status,
                redirect_chain: Vec::new(),
                headers: header_list(response.headers()),
                content_type: response
                    .headers()
                    .get(CONTENT_TYPE)
                    .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
                    .filter(|v| !v.trim().is_empty()),
                body: Bytes::new(),
                ttfb_ms: millis(ttfb),
                total_ms: millis(started.elapsed()),
            };

            if let (Expect::Hop, Some(_)) = (expect, redirect_location(&response)) {
                return Ok(headers_only(current, &response));
            }
            if let Some(location) = redirect_location(&response) {
                current = next_hop(current, status, location, &mut chain, &mut seen, max_redirects)?;
                continue;
            }

            let headers = header_list(response.headers());
            let content_type = response
                .headers()
                .get(CONTENT_TYPE)
                .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
                .filter(|v| !v.trim().is_empty());
            if let Some(ct) = &content_type {
                if response.status().is_success() && !is_html_type(ct) {
                    match expect {
                        Expect::Html => return Err(Error::NotHtml { content_type: ct.clone() }),
                        Expect::Hop => return Ok(headers_only(current, &response)),
                        Expect::AnyText => {}
                    }
                }
            }
            let body = read_body(response, limit, self.inner.config.connect_timeout).await?;
            return Ok(FetchedPage {
                requested_url: url.clone(),
                final_url: current,
                status,
                redirect_chain: chain,
                headers,
                content_type,
                body,
                ttfb_ms: millis(ttfb),
                total_ms: millis(started.elapsed()),
            });
        }
    }
}

/// The `Location` of a redirect answer; `None` for any other answer (a 3xx without
/// `Location` is a final answer, as browsers treat it).
fn redirect_location(response: &reqwest::Response) -> Option<&HeaderValue> {
    match response.status().as_u16() {
        301 | 302 | 303 | 307 | 308 => response.headers().get(LOCATION),
        _ => None,
    }
}

/// Resolves a `Location` against the URL that sent it and applies the URL rules.
fn redirect_target(base: &Url, location: &HeaderValue) -> Result<Url, Error> {
    let text = String::from_utf8_lossy(location.as_bytes()).into_owned();
    let refuse = |reason: String| Error::InvalidRedirect { location: text.clone(), reason };
    let next = base.join(text.trim()).map_err(|e| refuse(e.to_string()))?;
    match check_shape(&next) {
        Ok(()) => Ok(next),
        Err(Error::InvalidUrl(reason)) => Err(refuse(reason)),
        Err(other) => Err(other),
    }
}

/// Two URLs that differ only in their fragment are the same visit.
/// One redirect followed: the hop recorded in `chain`, its target checked against the URLs
/// already visited (a loop) and the number of hops against `max_redirects`.
fn next_hop(
    current: Url,
    status: u16,
    location: &HeaderValue,
    chain: &mut Vec<RedirectHop>,
    seen: &mut HashSet<String>,
    max_redirects: usize,
) -> Result<Url, Error> {
    let next = redirect_target(&current, location)?;
    chain.push(RedirectHop { url: current, status });
    if !seen.insert(visit_key(&next)) {
        return Err(Error::RedirectLoop { url: next.to_string() });
    }
    if chain.len() > max_redirects {
        return Err(Error::TooManyRedirects { limit: max_redirects });
    }
    Ok(next)
}

fn visit_key(url: &Url) -> String {
    let mut key = url.clone();
    key.set_fragment(None);
    key.into()
}

/// Whether a `Content-Type` names an HTML document.
fn is_html_type(content_type: &str) -> bool {
    let essence = content_type.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    essence == "text/html" || essence == "application/xhtml+xml"
}

fn header_list(headers: &HeaderMap) -> Vec<(String, String)> {
    headers
        .iter()
        .map(|(name, value)| (name.as_str().to_string(), String::from_utf8_lossy(value.as_bytes()).into_owned()))
        .collect()
}

/// Reads the (already decompressed) body chunk by chunk, failing as soon as it passes
/// `limit`, so neither an endless body nor a compression bomb is ever held in memory
/// beyond the limit. The HTTP client decodes gzip, deflate and brotli and drops their
/// `Content-Encoding`; a `zstd` answer (sent though not asked for) is decoded here within
/// the same limit, and any other encoding is refused ([`Error::Encoding`]) rather than
/// audited as the garbage its bytes would parse to.
async fn read_body(mut response: reqwest::Response, limit: usize, connect_timeout: Duration) -> Result<Bytes, Error> {
    let encoding = response
        .headers()
        .get(reqwest::header::CONTENT_ENCODING)
        .map(|v| String::from_utf8_lossy(v.as_bytes()).trim().to_ascii_lowercase())
        .filter(|e| !e.is_empty() && e != "identity");
    if let Some(encoding) = encoding.as_deref().filter(|e| *e != "zstd") {
        return Err(Error::Encoding { encoding: encoding.to_string() });
    }
    // reqwest drops Content-Length when it decompresses, so this is the true size; when
    // it is announced over the limit there is no point reading.
    let announced = response.content_length().unwrap_or(0);
    if announced > limit as u64 {
        return Err(Error::TooLarge { limit });
    }
    let mut body = BytesMut::with_capacity(usize::try_from(announced).unwrap_or(0).min(limit));
    while let Some(chunk) = response.chunk().await.map_err(|e| Error::from_reqwest(e, connect_timeout))? {
        if body.len().saturating_add(chunk.len()) > limit {
            return Err(Error::TooLarge { limit });
        }
        body.extend_from_slice(&chunk);
    }
    match encoding {
        Some(_) => decode_zstd(&body, limit, response.url()),
        None => Ok(body.freeze()),
    }
}

/// A zstd body decoded, at most `limit` bytes of it: reading stops one byte past the limit,
/// so a small frame that decompresses to gigabytes costs no more than the limit.
fn decode_zstd(compressed: &[u8], limit: usize, url: &Url) -> Result<Bytes, Error> {
    use std::io::Read as _;
    let broken = |e: &dyn std::fmt::Display| Error::Http {
        host: crate::error::host_of(url),
        detail: format!("the zstd body does not decode: {e}"),
    };
    let decoder = ruzstd::decoding::StreamingDecoder::new(compressed).map_err(|e| broken(&e))?;
    let mut out = Vec::new();
    decoder
        .take(u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1))
        .read_to_end(&mut out)
        .map_err(|e| broken(&e))?;
    if out.len() > limit {
        return Err(Error::TooLarge { limit });
    }
    Ok(Bytes::from(out))
}

fn millis(elapsed: Duration) -> u64 {
    u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_html(content_type: &str, expected: bool) {
        assert_eq!(is_html_type(content_type), expected, "{content_type:?}");
    }

    #[test]
    fn html_content_types() {
        check_html("text/html", true);
        check_html("text/html; charset=utf-8", true);
        check_html("TEXT/HTML;charset=Shift_JIS", true);
        check_html(" application/xhtml+xml ", true);
        check_html("image/png", false);
        check_html("text/plain", false);
        check_html("application/json; charset=utf-8", false);
        check_html("text/htmlx", false);
    }

    #[test]
    fn user_agent_names_the_bot_page() {
        let config = FetchConfig { base_url: "https://audit.example/".into(), ..FetchConfig::default() };
        assert_eq!(
            config.user_agent(),
            format!("SeoAuditBot/{} (+https://audit.example/bot)", env!("CARGO_PKG_VERSION"))
        );
    }

    #[test]
    fn user_agent_of_an_inner_base_url_names_the_public_bot_page() {
        let public = format!("SeoAuditBot/{} (+{})", env!("CARGO_PKG_VERSION"), crate::PUBLIC_BOT_PAGE);
        for base in [
            crate::DEFAULT_BASE_URL,
            "http://localhost:8080",
            "http://[::1]:8080/",
            "http://10.0.0.5",
            "http://0.0.0.0:8080",
            "not a url",
        ] {
            let config = FetchConfig { base_url: base.into(), ..FetchConfig::default() };
            assert_eq!(config.user_agent(), public, "{base}");
        }
        let config = FetchConfig { base_url: "http://203.0.113.7:8080".into(), ..FetchConfig::default() };
        assert!(config.user_agent().ends_with("(+http://203.0.113.7:8080/bot)"));
    }
}
