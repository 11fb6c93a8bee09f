use std::time::Duration;

use crate::sql::args;
use time::OffsetDateTime;

use crate::clock::{self, format_rfc3339};
use crate::db::Store;
use crate::error::Result;

/// How long a geo-check result is served from the cache (docs/API.md, "POST /api/geo-check").
pub const GEO_CACHE_TTL: Duration = Duration::from_secs(24 * 60 * 60);

/// A cached geo-check result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeoCacheEntry {
    /// Lower-case domain.
    pub domain: String,
    /// Whose answer it is (the caller's identity, as the application names it).
    pub caller: String,
    /// The visibility check result as JSON text.
    pub result_json: String,
    /// When the provider was asked.
    pub created_at: OffsetDateTime,
}

/// The row key of `caller`'s answer for `domain`: the two joined by a space, which no
/// domain holds. An answer names the caller's URL (a query string may carry a token) and is
/// made from the page that URL served, so it is kept per caller and never served to another
/// (docs/SECURITY.md).
fn cache_key(domain: &str, caller: &str) -> String {
    format!("{} {caller}", domain.to_ascii_lowercase())
}

impl Store {
    /// `caller`'s cached result for `domain` when it is younger than [`GEO_CACHE_TTL`] at
    /// `now`; another caller's answer for the same domain is never returned.
    pub fn get_geo_cache(&self, domain: &str, caller: &str, now: OffsetDateTime) -> Result<Option<GeoCacheEntry>> {
        let key = cache_key(domain, caller);
        let raw: Option<(String, String)> = self.read(|conn| {
            conn.query_opt("SELECT result_json, created_at FROM geo_cache WHERE domain = ?1", args![&key], |row| {
                Ok((row.get(0)?, row.get(1)?))
            })
        })?;
        let Some((result_json, created_at)) = raw else {
            return Ok(None);
        };
        let created_at = clock::decode("geo_cache", &created_at);
        if now - created_at >= GEO_CACHE_TTL {
            return Ok(None);
        }
        let (domain, caller) = (domain.to_ascii_lowercase(), caller.to_string());
        Ok(Some(GeoCacheEntry { domain, caller, result_json, created_at }))
    }

    /// Stores (or replaces) `caller`'s result for `domain`, made at `at`.
    pub fn put_geo_cache(&self, domain: &str, caller: &str, result_json: &str, at: OffsetDateTime) -> Result<()> {
        self.write_each(|conn| {
            conn.execute(
                "INSERT INTO geo_cache (domain, result_json, created_at) VALUES (?1, ?2, ?3) \
                 ON CONFLICT (domain) DO UPDATE SET result_json = excluded.result_json, \
                 created_at = excluded.created_at",
                args![cache_key(domain, caller), result_json, format_rfc3339(at)],
            )?;
            Ok(())
        })
    }
}
