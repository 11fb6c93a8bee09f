//! Share links of a crawl's report page (docs/API.md, "Share links"), and the service's
//! secret that signs them.
//!
//! A link is a signed token (made and checked by the application); the store keeps what
//! makes a link revocable: its id, its crawl, when it was made, when it expires and when it
//! was revoked. Nothing secret is stored per link: a token is its id, its expiry and a
//! signature over them with the service's secret, which is one row of `service_secrets`,
//! made at first use and then the same for every replica on the database.

use rand::rngs::OsRng;
use rand::RngCore;
use vocab::{CrawlId, ShareId, Timestamp};

use crate::clock;
use crate::error::{Error, Result};
use crate::sql::{args, Row};
use crate::Store;

/// The first characters of a share link's id.
pub const SHARE_ID_TAG: &str = "sh_";
/// Random base62 characters after [`SHARE_ID_TAG`].
pub const SHARE_ID_RANDOM_LEN: usize = 22;
/// Share links a crawl may have in all, revoked and expired ones included: the bound of
/// their listing and of the rows one crawl adds.
pub const MAX_SHARES_PER_CRAWL: u64 = 100;
/// Bytes of a service secret.
pub const SERVICE_SECRET_BYTES: usize = 32;

/// One share link of a crawl.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrawlShare {
    /// `sh_` + 22 base62 characters.
    pub id: ShareId,
    /// The crawl it opens.
    pub crawl_id: CrawlId,
    /// When it was made.
    pub created_at: Timestamp,
    /// When it stops opening the report.
    pub expires_at: Timestamp,
    /// When it was revoked, if it was.
    pub revoked_at: Option<Timestamp>,
}

const SHARE_COLUMNS: &str = "id, crawl_id, created_at, expires_at, revoked_at";

fn share_from_row(row: &Row<'_>) -> Result<CrawlShare> {
    Ok(CrawlShare {
        id: row.get(0)?,
        crawl_id: row.get(1)?,
        created_at: row.get(2)?,
        expires_at: row.get(3)?,
        revoked_at: row.get(4)?,
    })
}

/// A new share link id.
pub fn generate_share_id() -> String {
    use rand::distributions::Alphanumeric;
    use rand::Rng;
    let mut id = String::with_capacity(SHARE_ID_TAG.len() + SHARE_ID_RANDOM_LEN);
    id.push_str(SHARE_ID_TAG);
    id.extend(OsRng.sample_iter(&Alphanumeric).take(SHARE_ID_RANDOM_LEN).map(char::from));
    id
}

impl Store {
    /// Records a new share link of crawl `crawl_id` expiring at `expires_at`.
    ///
    /// # Errors
    /// [`Error::is_not_found`] when the crawl does not exist; [`Error::is_invalid`] when it
    /// has [`MAX_SHARES_PER_CRAWL`] links already; the database.
    pub fn create_crawl_share(&self, crawl_id: &str, expires_at: time::OffsetDateTime) -> Result<CrawlShare> {
        let share = CrawlShare {
            id: ShareId::from(generate_share_id()),
            crawl_id: CrawlId::from(crawl_id),
            created_at: Timestamp::now(),
            expires_at: Timestamp::from(expires_at),
            revoked_at: None,
        };
        self.write(|tx| {
            // Counted in the transaction that adds the row: two requests at once cannot
            // both pass at the bound.
            let exists: i64 =
                tx.query_one("SELECT CAST(COUNT(*) AS BIGINT) FROM crawls WHERE id = ?1", args![crawl_id], |r| {
                    r.get(0)
                })?;
            if exists == 0 {
                return Err(Error::not_found("crawl", crawl_id));
            }
            let n: u64 = tx.query_one(
                "SELECT CAST(COUNT(*) AS BIGINT) FROM crawl_shares WHERE crawl_id = ?1",
                args![crawl_id],
                |r| r.get(0),
            )?;
            if n >= MAX_SHARES_PER_CRAWL {
                return Err(Error::invalid(
                    "share",
                    format!(
                        "a crawl has at most {MAX_SHARES_PER_CRAWL} share links, revoked and expired ones included"
                    ),
                ));
            }
            tx.execute(
                "INSERT INTO crawl_shares (id, crawl_id, created_at, expires_at) VALUES (?1, ?2, ?3, ?4)",
                args![share.id, share.crawl_id, share.created_at, share.expires_at],
            )?;
            Ok(())
        })?;
        Ok(share)
    }

    /// Share link `id`, whatever its crawl and state; `None` when there is none.
    ///
    /// # Errors
    /// The database.
    pub fn crawl_share(&self, id: &str) -> Result<Option<CrawlShare>> {
        self.read(|db| {
            db.query_opt(&format!("SELECT {SHARE_COLUMNS} FROM crawl_shares WHERE id = ?1"), args![id], share_from_row)
        })
    }

    /// Every share link of crawl `crawl_id` (at most [`MAX_SHARES_PER_CRAWL`]), newest first.
    ///
    /// # Errors
    /// The database.
    pub fn crawl_shares(&self, crawl_id: &str) -> Result<Vec<CrawlShare>> {
        self.read(|db| {
            db.query_map(
                &format!(
                    "SELECT {SHARE_COLUMNS} FROM crawl_shares WHERE crawl_id = ?1 \
                     ORDER BY created_at DESC, id DESC LIMIT ?2"
                ),
                args![crawl_id, MAX_SHARES_PER_CRAWL],
                share_from_row,
            )
        })
    }

    /// Revokes share link `id` of crawl `crawl_id` (a link already revoked keeps its first
    /// revocation time); the link as it now is.
    ///
    /// # Errors
    /// [`Error::is_not_found`] when the crawl has no such link; the database.
    pub fn revoke_crawl_share(&self, crawl_id: &str, id: &str) -> Result<CrawlShare> {
        self.write(|tx| {
            tx.execute(
                "UPDATE crawl_shares SET revoked_at = COALESCE(revoked_at, ?3) WHERE id = ?1 AND crawl_id = ?2",
                args![id, crawl_id, clock::now_rfc3339()],
            )?;
            tx.query_opt(
                &format!("SELECT {SHARE_COLUMNS} FROM crawl_shares WHERE id = ?1 AND crawl_id = ?2"),
                args![id, crawl_id],
                share_from_row,
            )?
            .ok_or_else(|| Error::not_found("share link", id))
        })
    }

    /// The service's secret called `name`: made from the operating system's random source the
    /// first time it is asked for, and the same afterwards, for every process on the database
    /// (the first insert wins; the others read it).
    ///
    /// # Errors
    /// The database, or a stored secret that is not hex of [`SERVICE_SECRET_BYTES`] bytes.
    pub fn service_secret(&self, name: &str) -> Result<Vec<u8>> {
        let read = |db: &crate::sql::Db<'_>| {
            db.query_opt("SELECT secret FROM service_secrets WHERE name = ?1", args![name], |r| r.get::<String>(0))
        };
        let stored = match self.read(read)? {
            Some(hex) => hex,
            None => {
                let mut bytes = [0u8; SERVICE_SECRET_BYTES];
                OsRng.fill_bytes(&mut bytes);
                self.write(|tx| {
                    tx.execute(
                        "INSERT INTO service_secrets (name, secret, created_at) VALUES (?1, ?2, ?3) \
                         ON CONFLICT (name) DO NOTHING",
                        args![name, hex::encode(bytes), clock::now_rfc3339()],
                    )?;
                    read(tx)?.ok_or(Error::NoRow)
                })?
            }
        };
        match hex::decode(&stored) {
            Ok(bytes) if bytes.len() == SERVICE_SECRET_BYTES => Ok(bytes),
            _ => Err(Error::corrupt(
                "service_secrets",
                format!("the secret {name:?} is not {SERVICE_SECRET_BYTES} bytes of hex"),
            )),
        }
    }
}
