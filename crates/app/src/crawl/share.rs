//! Share links of a keyed crawl's report page (docs/API.md, "Share links"): a link opens
//! `/crawls/{id}` without the key, until it expires or is revoked.
//!
//! A link is `/crawls/{crawl_id}?share={token}`, the token `{link_id}.{expires}.{signature}`:
//! the link's id (`sh_` + 22 base62), its expiry in Unix seconds, and the base64url
//! HMAC-SHA256, keyed with the service's secret ([`store::Store::service_secret`]), of the
//! crawl id, the link id and the expiry. A token opens the report only when its signature is
//! the service's for that crawl, it has not expired, and its link is stored for that crawl,
//! unrevoked, with that expiry; anything else is answered as an unknown crawl (404
//! `not_found`), whichever of these failed, so that a guess learns nothing. The key never
//! goes into a URL, and a link can be ended before its expiry ([`Crawls::revoke_share`]).

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use hmac::{Hmac, Mac};
use sha2::Sha256;
use time::OffsetDateTime;

use super::table::TableQuery;
use super::Crawls;
use crate::AppError;
use vocab::CrawlId;

/// The lifetime of a link when the request names none: 7 days.
pub const DEFAULT_SHARE_SECS: u64 = 7 * 24 * 3600;
/// The shortest lifetime a request may ask for: 1 minute.
pub const MIN_SHARE_SECS: u64 = 60;
/// The longest lifetime a request may ask for: 30 days.
pub const MAX_SHARE_SECS: u64 = 30 * 24 * 3600;
/// The name of the service secret that signs the links.
const SECRET_NAME: &str = "crawl-share";
/// Longest token read; a real one is about 90 bytes.
const MAX_TOKEN_BYTES: usize = 200;
/// What the signature covers before the crawl id, link id and expiry: a version, so that a
/// later format never verifies as this one.
const SIGNED_PREFIX: &str = "seo-audit crawl-share v1";

/// A share link as its owner sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Share {
    /// The stored link.
    pub link: store::CrawlShare,
    /// The path that opens the report (`/crawls/{id}?share=…`), while the link is live.
    pub path: Option<String>,
    /// `active`, `expired` or `revoked`.
    pub state: &'static str,
}

/// A link on the wire (`api::crawl_shares::CrawlShare`), its address absolute on `base_url`:
/// the report is opened from elsewhere (a mail, a ticket, a chat).
pub fn wire_share(base_url: &str, share: Share) -> api::crawl_shares::CrawlShare {
    let base = base_url.trim_end_matches('/');
    api::crawl_shares::CrawlShare {
        url: share.path.map(|path| format!("{base}{path}")),
        state: share.state.to_string(),
        id: share.link.id,
        crawl_id: share.link.crawl_id,
        created_at: share.link.created_at,
        expires_at: share.link.expires_at,
        revoked_at: share.link.revoked_at,
    }
}

/// The signature of a link.
fn sign(secret: &[u8], crawl_id: &str, link_id: &str, expires: i64) -> Hmac<Sha256> {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("HMAC takes a key of any length");
    mac.update(format!("{SIGNED_PREFIX}\n{crawl_id}\n{link_id}\n{expires}").as_bytes());
    mac
}

/// The token of a link.
pub fn token(secret: &[u8], crawl_id: &str, link_id: &str, expires: i64) -> String {
    let signature = sign(secret, crawl_id, link_id, expires).finalize().into_bytes();
    format!("{link_id}.{expires}.{}", URL_SAFE_NO_PAD.encode(signature))
}

/// The link id and expiry of `token` when its signature is the service's for crawl
/// `crawl_id` (compared in constant time); `None` for anything else.
pub fn verify(secret: &[u8], crawl_id: &str, token: &str) -> Option<(String, i64)> {
    if token.len() > MAX_TOKEN_BYTES {
        return None;
    }
    let mut parts = token.split('.');
    let (link_id, expires, signature) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() || !well_formed_link_id(link_id) || !expires.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let expires: i64 = expires.parse().ok()?;
    let signature = URL_SAFE_NO_PAD.decode(signature).ok()?;
    sign(secret, crawl_id, link_id, expires).verify_slice(&signature).ok()?;
    Some((link_id.to_string(), expires))
}

fn well_formed_link_id(id: &str) -> bool {
    id.len() == store::SHARE_ID_TAG.len() + store::SHARE_ID_RANDOM_LEN
        && id.starts_with(store::SHARE_ID_TAG)
        && id[store::SHARE_ID_TAG.len()..].bytes().all(|b| b.is_ascii_alphanumeric())
}

/// The lifetime a request asks for, checked: [`DEFAULT_SHARE_SECS`] when absent.
///
/// # Errors
/// Out of [`MIN_SHARE_SECS`]..=[`MAX_SHARE_SECS`] (`invalid_request` naming `expires_in`).
pub fn lifetime(expires_in: Option<u64>) -> Result<u64, AppError> {
    match expires_in {
        None => Ok(DEFAULT_SHARE_SECS),
        Some(s) if (MIN_SHARE_SECS..=MAX_SHARE_SECS).contains(&s) => Ok(s),
        Some(_) => Err(lifetime_refusal()),
    }
}

/// The refusal of a lifetime out of bounds or of another type.
pub fn lifetime_refusal() -> AppError {
    AppError::invalid_parameter(
        "expires_in",
        format!("a whole number of seconds from {MIN_SHARE_SECS} to {MAX_SHARE_SECS} (30 days)"),
    )
}

/// Unix seconds of a stored time (what a link's token carries).
fn unix(stored: vocab::Timestamp) -> i64 {
    stored.instant().unix_timestamp()
}

fn not_found(id: &str) -> AppError {
    // Worded as an unknown crawl is (service.rs), whatever failed.
    AppError::refused(crate::ErrorCode::NotFound, format!("No crawl {id:?} of this caller."))
}

impl Crawls {
    /// The service secret that signs share links (made at first use, in the database).
    async fn share_secret(&self) -> Result<Vec<u8>, AppError> {
        self.app.db(|s| s.service_secret(SECRET_NAME)).await
    }

    fn share_of(&self, secret: &[u8], link: store::CrawlShare, now: i64) -> Share {
        let expires = unix(link.expires_at);
        let state = match (&link.revoked_at, expires > now) {
            (Some(_), _) => "revoked",
            (None, false) => "expired",
            (None, true) => "active",
        };
        let path = (state == "active").then(|| {
            format!(
                "/crawls/{}?share={}",
                link.crawl_id,
                pages::encode_component(&token(secret, &link.crawl_id, &link.id, expires))
            )
        });
        Share { link, path, state }
    }

    /// Makes a share link of `owner`'s crawl `id` that opens its report for `expires_in`
    /// seconds ([`lifetime`]).
    ///
    /// # Errors
    /// `not_found` (no such crawl of `owner`), `invalid_request` (`expires_in` out of
    /// bounds, or the crawl has [`store::MAX_SHARES_PER_CRAWL`] links), or the store.
    pub async fn share(&self, owner: &crate::UserId, id: &CrawlId, expires_in: Option<u64>) -> Result<Share, AppError> {
        let seconds = lifetime(expires_in)?;
        let crawl = self.owned(Some(owner), id).await?;
        let secret = self.share_secret().await?;
        // Whole seconds: the token carries Unix seconds and the row the same instant.
        let now = OffsetDateTime::now_utc().unix_timestamp();
        let expires_at = OffsetDateTime::from_unix_timestamp(now.saturating_add(i64::try_from(seconds).unwrap_or(0)))
            .map_err(AppError::internal)?;
        let key = crawl.id.clone();
        let made = self.app.db(move |s| Ok(s.create_crawl_share(&key, expires_at))).await?;
        let link = match made {
            Ok(link) => link,
            Err(e) if e.is_not_found() => return Err(not_found(id)),
            Err(e) if e.is_invalid() => {
                return Err(AppError::refused(
                    crate::ErrorCode::InvalidRequest,
                    format!(
                        "This crawl has {} share links already, the most one crawl may have (revoked and expired \
                         ones count); share one of its live links instead.",
                        store::MAX_SHARES_PER_CRAWL
                    ),
                )
                .with_details(serde_json::json!({ "limit": store::MAX_SHARES_PER_CRAWL })))
            }
            Err(e) => return Err(e.into()),
        };
        Ok(self.share_of(&secret, link, now))
    }

    /// The share links of `owner`'s crawl `id`, newest first.
    ///
    /// # Errors
    /// `not_found` (no such crawl of `owner`), or the store.
    pub async fn shares(&self, owner: &crate::UserId, id: &CrawlId) -> Result<Vec<Share>, AppError> {
        let crawl = self.owned(Some(owner), id).await?;
        let secret = self.share_secret().await?;
        let links = self.app.db(move |s| s.crawl_shares(&crawl.id)).await?;
        let now = OffsetDateTime::now_utc().unix_timestamp();
        Ok(links.into_iter().map(|l| self.share_of(&secret, l, now)).collect())
    }

    /// Revokes share link `link_id` of `owner`'s crawl `id`: from now on it opens nothing.
    /// Revoking a revoked link answers it as it is.
    ///
    /// # Errors
    /// `not_found` (no such crawl of `owner`, or no such link of it), or the store.
    pub async fn revoke_share(&self, owner: &crate::UserId, id: &CrawlId, link_id: &str) -> Result<Share, AppError> {
        let crawl = self.owned(Some(owner), id).await?;
        let secret = self.share_secret().await?;
        let link = link_id.to_string();
        let revoked = self.app.db(move |s| Ok(s.revoke_crawl_share(&crawl.id, &link))).await?;
        match revoked {
            Ok(link) => Ok(self.share_of(&secret, link, OffsetDateTime::now_utc().unix_timestamp())),
            Err(e) if e.is_not_found() => Err(AppError::refused(
                crate::ErrorCode::NotFound,
                format!("No share link {link_id:?} of crawl {id:?}."),
            )),
            Err(e) => Err(e.into()),
        }
    }

    /// The crawl `id` a share `token` opens, once the token is checked: signed by this
    /// service for this crawl, not expired, and its link stored for this crawl with this
    /// expiry and not revoked.
    ///
    /// # Errors
    /// `not_found` for any token that does not open crawl `id` (one answer whatever
    /// failed), or the store.
    pub async fn shared(&self, id: &CrawlId, token: &str) -> Result<store::Crawl, AppError> {
        let secret = self.share_secret().await?;
        let Some((link_id, expires)) = verify(&secret, id, token) else { return Err(not_found(id)) };
        if expires <= OffsetDateTime::now_utc().unix_timestamp() {
            return Err(not_found(id));
        }
        let stored = self.app.db(move |s| s.crawl_share(&link_id)).await?;
        let live = stored.is_some_and(|l| l.crawl_id == *id && l.revoked_at.is_none() && unix(l.expires_at) == expires);
        if !live {
            return Err(not_found(id));
        }
        let key = id.to_string();
        match self.app.db(move |s| Ok(s.get_crawl(&key))).await? {
            Ok(crawl) => Ok(crawl),
            Err(e) if e.is_not_found() => Err(not_found(id)),
            Err(e) => Err(e.into()),
        }
    }

    /// The report page's view of crawl `id` opened through share `token`
    /// ([`Crawls::shared`]): the owner's view, with the page's own links carrying the token
    /// and no link to the key's routes.
    ///
    /// # Errors
    /// As [`Crawls::shared`], and as [`Crawls::report_view`].
    pub async fn shared_report_view(
        &self,
        id: &CrawlId,
        token: &str,
        table: TableQuery,
    ) -> Result<pages::crawl::CrawlView, AppError> {
        let crawl = self.shared(id, token).await?;
        let mut view = self.report_view(crawl.user_id.as_ref(), &crawl.id, table).await?;
        view.share = Some(token.to_string());
        Ok(view)
    }

    /// The report page's view of crawl `id` for `reader`: through its share link
    /// ([`Crawls::shared_report_view`], the view then carries the token), else as the
    /// caller's own crawl ([`Crawls::report_view`]).
    ///
    /// # Errors
    /// As those two.
    pub async fn report_for(
        &self,
        reader: ReportReader,
        id: &CrawlId,
        table: TableQuery,
    ) -> Result<pages::crawl::CrawlView, AppError> {
        match reader {
            ReportReader::Link(token) => self.shared_report_view(id, &token, table).await,
            ReportReader::Caller(owner) => self.report_view(owner.as_ref(), id, table).await,
        }
    }
}

/// Who reads a crawl's report page (`GET /crawls/{id}`, [`Crawls::report_for`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReportReader {
    /// The holder of a share link, by its token.
    Link(String),
    /// The caller: a key's owner, or `None` without a key.
    Caller(Option<crate::UserId>),
}

/// The share token of a report page's request: its `share` parameter, when sent and not
/// empty. A link opens the page without a key, and when one is sent beside a key it is
/// still the only thing that decides (docs/API.md, "Share links"): the caller's identity is
/// then not asked for.
pub fn link_of(share: Option<String>) -> Option<String> {
    share.filter(|token| !token.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &[u8] = b"0123456789abcdef0123456789abcdef";
    const CRAWL: &str = "cr_aaaaaaaaaaaaaaaaaaaaaa";
    const LINK: &str = "sh_bbbbbbbbbbbbbbbbbbbbbb";

    #[test]
    fn a_token_verifies_for_its_crawl_only() {
        let t = token(SECRET, CRAWL, LINK, 1_900_000_000);
        assert_eq!(verify(SECRET, CRAWL, &t), Some((LINK.to_string(), 1_900_000_000)));
        // Another crawl's signature, another secret.
        assert_eq!(verify(SECRET, "cr_cccccccccccccccccccccc", &t), None);
        assert_eq!(verify(b"another secret of the same length", CRAWL, &t), None);
    }

    #[test]
    fn a_changed_token_verifies_never() {
        let t = token(SECRET, CRAWL, LINK, 1_900_000_000);
        let (id, rest) = t.split_once('.').unwrap();
        let (_, signature) = rest.split_once('.').unwrap();
        // A later expiry with the old signature; another link id; a signature changed by one
        // character; cut; extended; empty.
        let mut flipped = signature.to_string();
        let last = flipped.pop().unwrap();
        flipped.push(if last == 'A' { 'B' } else { 'A' });
        for bad in [
            format!("{id}.1900000001.{signature}"),
            format!("sh_dddddddddddddddddddddd.1900000000.{signature}"),
            format!("{id}.1900000000.{flipped}"),
            format!("{id}.1900000000.{}", &signature[..20]),
            format!("{t}.x"),
            format!("{id}.+1900000000.{signature}"),
            String::new(),
            "x".repeat(300),
        ] {
            assert_eq!(verify(SECRET, CRAWL, &bad), None, "{bad}");
        }
    }

    #[test]
    fn lifetimes_are_bounded() {
        assert_eq!(lifetime(None).unwrap(), DEFAULT_SHARE_SECS);
        assert_eq!(lifetime(Some(60)).unwrap(), 60);
        assert_eq!(lifetime(Some(MAX_SHARE_SECS)).unwrap(), MAX_SHARE_SECS);
        for bad in [0, 59, MAX_SHARE_SECS + 1, u64::MAX] {
            assert!(lifetime(Some(bad)).unwrap_err().to_string().contains("expires_in"), "{bad}");
        }
    }
}
