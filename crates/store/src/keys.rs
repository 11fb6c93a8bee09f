use crate::sql::{args, Db, Row};
use rand::distributions::Alphanumeric;
use rand::rngs::OsRng;
use rand::Rng;
use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};
use sha2::{Digest, Sha256};
use time::OffsetDateTime;
use vocab::{KeyId, UserId};

use crate::clock::{self, format_rfc3339};
use crate::db::{new_id, Store};
use crate::error::{Error, Result};
use crate::users::{insert_user, user_exists, Tier};

/// Fixed tag every key starts with.
pub const KEY_TAG: &str = "sa_";
/// Number of random base62 characters after the tag.
pub const KEY_RANDOM_LEN: usize = 32;
/// Length of `key_prefix`: the tag and the first seven random characters, enough to tell
/// keys apart in listings and logs while revealing 42 of the key's 190 bits.
pub const KEY_PREFIX_LEN: usize = 10;
/// Every scope a key can hold (docs/SECURITY.md, "Who may do what"), by name.
pub const SCOPES: &[&str] = vocab::Scope::NAMES;
pub use vocab::DEFAULT_SCOPES;
/// Longest key name accepted.
pub const MAX_KEY_NAME_LEN: usize = 100;

/// What [`Store::create_key`] needs. [`NewKey::new`] fills in the defaults.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewKey {
    /// Owner; `None` creates a user of `tier` in the same transaction as the key.
    pub user_id: Option<UserId>,
    /// Human label, 1 to [`MAX_KEY_NAME_LEN`] characters.
    pub name: String,
    /// Tier of the key (its default rate limit).
    pub tier: Tier,
    /// Scopes, each one of [`SCOPES`]; at least one.
    pub scopes: Vec<String>,
    /// When the key stops working; `None` never.
    pub expires_at: Option<OffsetDateTime>,
    /// Requests per minute overriding the tier's default.
    pub rate_limit: Option<u32>,
    /// Pages per site crawl overriding the tier's cap (at least 1).
    pub max_pages: Option<u32>,
}

impl NewKey {
    /// A key for a new user of `tier`, with [`DEFAULT_SCOPES`], no expiry and the tier's
    /// rate limit.
    pub fn new(name: impl Into<String>, tier: Tier) -> NewKey {
        NewKey {
            user_id: None,
            name: name.into(),
            tier,
            scopes: DEFAULT_SCOPES.iter().map(|s| s.as_str().to_owned()).collect(),
            expires_at: None,
            rate_limit: None,
            max_pages: None,
        }
    }
}

/// A stored API key, without its secret. Revoked keys are never returned.
///
/// Serialises exactly as the key record of docs/API.md (`api_keys` of the usage snapshot): `id,
/// name, key_prefix, scopes, rate_limit, enabled, last_used_at, expires_at, created_at`, where
/// `rate_limit` is the effective limit (the tier default when the key has none of its own).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyRecord {
    /// UUID.
    pub id: KeyId,
    /// Owner.
    pub user_id: UserId,
    /// Human label.
    pub name: String,
    /// First [`KEY_PREFIX_LEN`] characters of the key.
    pub key_prefix: String,
    /// Granted scopes.
    pub scopes: Vec<String>,
    /// Tier of the key.
    pub tier: Tier,
    /// Own requests-per-minute limit; `None` means the tier default.
    pub rate_limit: Option<u32>,
    /// Own pages per site crawl, set by the operator; `None` means the tier's cap (the
    /// service's `[max_pages]` settings).
    pub max_pages: Option<u32>,
    /// Disabled keys are known but refused (403).
    pub enabled: bool,
    /// Last successful authentication.
    pub last_used_at: Option<OffsetDateTime>,
    /// Expiry; `None` never.
    pub expires_at: Option<OffsetDateTime>,
    /// Creation time.
    pub created_at: OffsetDateTime,
}

impl KeyRecord {
    /// The key has an expiry at or before `now`.
    pub fn is_expired(&self, now: OffsetDateTime) -> bool {
        self.expires_at.is_some_and(|at| at <= now)
    }

    /// Enabled and not expired at `now`.
    pub fn is_usable(&self, now: OffsetDateTime) -> bool {
        self.enabled && !self.is_expired(now)
    }

    /// The key grants `scope`.
    pub fn has_scope(&self, scope: vocab::Scope) -> bool {
        self.scopes.iter().any(|s| s == scope.as_str())
    }

    /// Requests per minute: the key's own limit, else the built-in default of its tier.
    pub fn effective_rate_limit(&self) -> u32 {
        self.rate_limit_or(self.tier.default_rate_limit())
    }

    /// The key's own limit, else `tier_default` (for servers that configure tier limits).
    pub fn rate_limit_or(&self, tier_default: u32) -> u32 {
        self.rate_limit.unwrap_or(tier_default)
    }

    /// The usage identity of this key: `key:<id>`.
    pub fn identity(&self) -> String {
        format!("key:{}", self.id)
    }
}

impl Serialize for KeyRecord {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("KeyRecord", 9)?;
        st.serialize_field("id", &self.id)?;
        st.serialize_field("name", &self.name)?;
        st.serialize_field("key_prefix", &self.key_prefix)?;
        st.serialize_field("scopes", &self.scopes)?;
        st.serialize_field("rate_limit", &self.effective_rate_limit())?;
        st.serialize_field("enabled", &self.enabled)?;
        st.serialize_field("last_used_at", &self.last_used_at.map(format_rfc3339))?;
        st.serialize_field("expires_at", &self.expires_at.map(format_rfc3339))?;
        st.serialize_field("created_at", &format_rfc3339(self.created_at))?;
        st.end()
    }
}

/// A new key: the tag and [`KEY_RANDOM_LEN`] base62 characters from the operating
/// system's CSPRNG.
pub fn generate_key() -> String {
    let mut key = String::with_capacity(KEY_TAG.len() + KEY_RANDOM_LEN);
    key.push_str(KEY_TAG);
    key.extend(OsRng.sample_iter(&Alphanumeric).take(KEY_RANDOM_LEN).map(char::from));
    key
}

/// Lower-case hex SHA-256 of the whole key: what the database stores instead of it.
pub fn hash_key(plaintext: &str) -> String {
    hex::encode(Sha256::digest(plaintext.as_bytes()))
}

/// Parses a comma list of scopes (`"audit, mcp"`), refusing unknown names and
/// dropping duplicates.
pub fn parse_scopes(list: &str) -> Result<Vec<String>> {
    validate_scopes(list.split(',').map(str::trim).filter(|s| !s.is_empty()))
}

fn validate_scopes<'a>(scopes: impl IntoIterator<Item = &'a str>) -> Result<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for scope in scopes {
        if !SCOPES.contains(&scope) {
            return Err(Error::invalid("scopes", format!("unknown scope {scope:?} (known: {})", SCOPES.join(", "))));
        }
        if !out.iter().any(|s| s == scope) {
            out.push(scope.to_owned());
        }
    }
    if out.is_empty() {
        return Err(Error::invalid("scopes", "a key needs at least one scope"));
    }
    Ok(out)
}

/// A key's own pages per crawl is at least 1: a cap of 0 would end every crawl before its
/// start page.
fn check_max_pages(max_pages: Option<u32>) -> Result<()> {
    if max_pages == Some(0) {
        return Err(Error::invalid("max_pages", "a key's pages per crawl must be at least 1"));
    }
    Ok(())
}

const COLUMNS: &str = "id, user_id, name, key_prefix, scopes, tier, rate_limit, enabled, \
                       last_used_at, expires_at, created_at, max_pages";

struct RawKey {
    id: KeyId,
    user_id: UserId,
    name: String,
    key_prefix: String,
    scopes: String,
    tier: String,
    rate_limit: Option<i64>,
    enabled: bool,
    last_used_at: Option<vocab::Timestamp>,
    expires_at: Option<vocab::Timestamp>,
    created_at: vocab::Timestamp,
    max_pages: Option<i64>,
}

impl RawKey {
    fn from_row(row: &Row<'_>) -> Result<RawKey> {
        Ok(RawKey {
            id: row.get(0)?,
            user_id: row.get(1)?,
            name: row.get(2)?,
            key_prefix: row.get(3)?,
            scopes: row.get(4)?,
            tier: row.get(5)?,
            rate_limit: row.get(6)?,
            enabled: row.get(7)?,
            last_used_at: row.get(8)?,
            expires_at: row.get(9)?,
            created_at: row.get(10)?,
            max_pages: row.get(11)?,
        })
    }

    fn decode(self) -> Result<KeyRecord> {
        const T: &str = "api_keys";
        // Written as a JSON array; a plain comma list is accepted for rows made by hand.
        let scopes = serde_json::from_str::<Vec<String>>(&self.scopes).unwrap_or_else(|_| {
            self.scopes.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned).collect()
        });
        Ok(KeyRecord {
            id: self.id,
            user_id: self.user_id,
            name: self.name,
            key_prefix: self.key_prefix,
            scopes,
            tier: self.tier.parse().map_err(|_| Error::corrupt(T, format!("bad tier {:?}", self.tier)))?,
            rate_limit: self
                .rate_limit
                .map(|n| u32::try_from(n).map_err(|_| Error::corrupt(T, "bad rate_limit")))
                .transpose()?,
            max_pages: self
                .max_pages
                .map(|n| u32::try_from(n).ok().filter(|n| *n >= 1).ok_or_else(|| Error::corrupt(T, "bad max_pages")))
                .transpose()?,
            enabled: self.enabled,
            last_used_at: self.last_used_at.map(vocab::Timestamp::instant),
            expires_at: self.expires_at.map(vocab::Timestamp::instant),
            created_at: self.created_at.instant(),
        })
    }
}

fn query_keys(conn: &Db<'_>, filter: &str, params: &[crate::sql::Value<'_>]) -> Result<Vec<KeyRecord>> {
    let sql = format!("SELECT {COLUMNS} FROM api_keys WHERE revoked_at IS NULL AND {filter}");
    let mut stmt = conn.prepare(&sql)?;
    let raw = stmt.query_map(params, RawKey::from_row)?.collect::<Result<Vec<_>>>()?;
    raw.into_iter().map(RawKey::decode).collect()
}

/// The one live key named by its id or its prefix.
fn resolve(conn: &Db<'_>, id_or_prefix: &str) -> Result<KeyRecord> {
    let mut found = query_keys(conn, "(id = ?1 OR key_prefix = ?1)", args![id_or_prefix])?;
    match found.len() {
        0 => Err(Error::not_found("api key", id_or_prefix)),
        1 => Ok(found.remove(0)),
        _ => Err(Error::Ambiguous(id_or_prefix.to_owned())),
    }
}

impl Store {
    /// Creates a key and returns its plaintext, which is not stored anywhere and cannot be
    /// shown again, with its record. Without `user_id`, a user of the key's tier is created
    /// in the same transaction.
    pub fn create_key(&self, new: NewKey) -> Result<(String, KeyRecord)> {
        let name = new.name.trim().to_owned();
        if name.is_empty() || name.chars().count() > MAX_KEY_NAME_LEN {
            return Err(Error::invalid("name", format!("must be 1 to {MAX_KEY_NAME_LEN} characters")));
        }
        let scopes = validate_scopes(new.scopes.iter().map(String::as_str))?;
        check_max_pages(new.max_pages)?;
        let now = clock::truncate_ms(OffsetDateTime::now_utc());
        let plaintext = generate_key();
        let hash = hash_key(&plaintext);
        let record = self.write(|tx| {
            let user_id = match new.user_id.clone() {
                Some(id) if user_exists(tx, &id)? => id,
                Some(id) => return Err(Error::not_found("user", id)),
                None => insert_user(tx, new.tier, now)?.id,
            };
            let record = KeyRecord {
                id: new_id().into(),
                user_id,
                name: name.clone(),
                key_prefix: plaintext[..KEY_PREFIX_LEN].to_owned(),
                scopes: scopes.clone(),
                tier: new.tier,
                rate_limit: new.rate_limit,
                max_pages: new.max_pages,
                enabled: true,
                last_used_at: None,
                expires_at: new.expires_at.map(clock::truncate_ms),
                created_at: now,
            };
            tx.execute(
                "INSERT INTO api_keys (id, user_id, name, key_prefix, key_hash, scopes, tier, \
                 rate_limit, enabled, expires_at, created_at, max_pages) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 1, ?9, ?10, ?11)",
                args![
                    record.id,
                    record.user_id,
                    record.name,
                    record.key_prefix,
                    hash,
                    serde_json::to_string(&record.scopes).unwrap_or_else(|_| "[]".into()),
                    record.tier.as_str(),
                    record.rate_limit,
                    record.expires_at.map(format_rfc3339),
                    format_rfc3339(record.created_at),
                    record.max_pages,
                ],
            )?;
            Ok(record)
        })?;
        Ok((plaintext, record))
    }

    /// Live (not revoked) keys, of one user or of everyone, oldest first.
    pub fn list_keys(&self, user_id: Option<&str>) -> Result<Vec<KeyRecord>> {
        self.read(|conn| match user_id {
            Some(id) => query_keys(conn, "user_id = ?1 ORDER BY created_at, rowid", args![id]),
            None => query_keys(conn, "TRUE ORDER BY created_at, rowid", args![]),
        })
    }

    /// The live key named by id or prefix, or [`Error::NotFound`].
    pub fn get_key(&self, id_or_prefix: &str) -> Result<KeyRecord> {
        self.read(|conn| resolve(conn, id_or_prefix))
    }

    /// Sets a key's own pages per site crawl (`None`: back to its tier's cap); returns the
    /// updated record. Crawls started after it use the new cap; crawls already started keep
    /// theirs.
    pub fn set_key_max_pages(&self, id_or_prefix: &str, max_pages: Option<u32>) -> Result<KeyRecord> {
        check_max_pages(max_pages)?;
        self.write(|tx| {
            let mut key = resolve(tx, id_or_prefix)?;
            tx.execute("UPDATE api_keys SET max_pages = ?2 WHERE id = ?1", args![key.id, max_pages])?;
            key.max_pages = max_pages;
            Ok(key)
        })
    }

    /// Enables or disables a key; returns the updated record.
    pub fn set_enabled(&self, id_or_prefix: &str, enabled: bool) -> Result<KeyRecord> {
        self.write(|tx| {
            let mut key = resolve(tx, id_or_prefix)?;
            tx.execute("UPDATE api_keys SET enabled = ?2 WHERE id = ?1", args![key.id, enabled])?;
            key.enabled = enabled;
            Ok(key)
        })
    }

    /// Revokes a key for good: from now on it is unknown to every lookup. Returns the record
    /// as it was.
    pub fn revoke(&self, id_or_prefix: &str) -> Result<KeyRecord> {
        self.write(|tx| {
            let key = resolve(tx, id_or_prefix)?;
            tx.execute(
                "UPDATE api_keys SET revoked_at = ?2, enabled = 0 WHERE id = ?1",
                args![key.id, clock::now_rfc3339()],
            )?;
            Ok(key)
        })
    }

    /// The live key whose hash matches `plaintext`, disabled and expired ones included (the
    /// caller answers 403 for those, 401 for `None`).
    ///
    /// Comparing hashes through an index leaks nothing useful by timing: an attacker would
    /// have to choose inputs by the bytes of their SHA-256.
    pub fn lookup(&self, plaintext: &str) -> Result<Option<KeyRecord>> {
        let hash = hash_key(plaintext);
        self.read(|conn| {
            let raw = conn.query_opt(
                &format!("SELECT {COLUMNS} FROM api_keys WHERE key_hash = ?1 AND revoked_at IS NULL"),
                args![hash],
                RawKey::from_row,
            )?;
            raw.map(RawKey::decode).transpose()
        })
    }

    /// Records that the key authenticated a request now.
    pub fn touch_last_used(&self, id: &str) -> Result<()> {
        self.touch_last_used_at(id, OffsetDateTime::now_utc())
    }

    /// [`Store::touch_last_used`] with an explicit time.
    pub fn touch_last_used_at(&self, id: &str, at: OffsetDateTime) -> Result<()> {
        let changed = self.write_each(|conn| {
            conn.execute(
                "UPDATE api_keys SET last_used_at = ?2 WHERE id = ?1 AND revoked_at IS NULL",
                args![id, format_rfc3339(at)],
            )
        })?;
        if changed == 0 {
            return Err(Error::not_found("api key", id));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_scopes(list: &str, expected: Option<&[&str]>) {
        let got = parse_scopes(list).ok();
        let expected = expected.map(|e| e.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>());
        assert_eq!(got, expected, "{list:?}");
    }

    #[test]
    fn scope_lists() {
        check_scopes("audit", Some(&["audit"]));
        check_scopes("audit,mcp", Some(&["audit", "mcp"]));
        check_scopes(" audit , mcp ,webhooks", Some(&["audit", "mcp", "webhooks"]));
        check_scopes("mcp,mcp,audit", Some(&["mcp", "audit"]));
        check_scopes("audit,,", Some(&["audit"]));
        check_scopes("", None);
        check_scopes(",", None);
        check_scopes("admin", None);
        check_scopes("audit,AUDIT", None);
    }

    #[test]
    fn generated_keys_have_the_documented_shape() {
        let a = generate_key();
        let b = generate_key();
        assert_ne!(a, b);
        assert_eq!(a.len(), KEY_TAG.len() + KEY_RANDOM_LEN);
        assert!(a.starts_with(KEY_TAG));
        assert!(a[KEY_TAG.len()..].bytes().all(|c| c.is_ascii_alphanumeric()));
    }

    #[test]
    fn hash_is_hex_sha256() {
        // SHA-256 of "abc" from FIPS 180-2.
        assert_eq!(hash_key("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }
}
