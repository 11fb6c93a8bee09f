//! Stored AI-readiness answers: the bounded record of each check (made by the application
//! from the answer; this crate keeps it as JSON text), read back by the report page as the
//! newest public one of a page.

use time::OffsetDateTime;
use vocab::{ReadinessId, UserId};

use crate::audits::host_and_path;
use crate::clock::{self, format_rfc3339};
use crate::db::{new_time_ordered_id, Store};
use crate::error::{Error, Result};
use crate::sql::{args, Row};

/// Bytes of a stored record at most. The application bounds every list and text of the
/// record it stores (docs/AI-VISIBILITY.md, "The report page"), so a record never comes
/// near this; it is the store's own guard against a caller that did not.
pub const MAX_READINESS_RECORD_BYTES: usize = 256 * 1024;

/// An AI-readiness answer to store. [`NewReadiness::new`] stamps it with the current time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewReadiness {
    /// The URL as requested.
    pub url: String,
    /// The URL after redirects: the page the answer is about.
    pub final_url: String,
    /// The readiness score, 0 to 100.
    pub score: i64,
    /// The bounded record of the answer, as JSON text.
    pub record_json: String,
    /// Who asked; `None` for a check made without a key, which makes the row public.
    pub user_id: Option<UserId>,
    /// When the check was made.
    pub created_at: OffsetDateTime,
}

impl NewReadiness {
    /// A new row made now.
    pub fn new(url: &str, final_url: &str, score: i64, record_json: String, user_id: Option<UserId>) -> NewReadiness {
        NewReadiness {
            url: url.to_owned(),
            final_url: final_url.to_owned(),
            score,
            record_json,
            user_id,
            created_at: OffsetDateTime::now_utc(),
        }
    }
}

/// A stored AI-readiness answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredReadiness {
    /// Time-ordered id.
    pub id: ReadinessId,
    /// The URL as requested.
    pub url: String,
    /// The URL after redirects.
    pub final_url: String,
    /// Lower-case host of the final URL.
    pub host: String,
    /// Path of the final URL.
    pub path: String,
    /// The readiness score.
    pub score: i64,
    /// The bounded record, as JSON text.
    pub record_json: String,
    /// Who asked, when the check was made with a key.
    pub user_id: Option<UserId>,
    /// Whether the public report page may show it: made without a key. Fixed when stored.
    pub public: bool,
    /// When the check was made.
    pub created_at: OffsetDateTime,
}

const COLUMNS: &str = "id, url, final_url, host, path, score, record_json, user_id, public, created_at";

type Raw = (ReadinessId, String, String, String, String, i64, String, Option<UserId>, bool, String);

fn from_row(row: &Row<'_>) -> Result<Raw> {
    Ok((
        row.get(0)?,
        row.get(1)?,
        row.get(2)?,
        row.get(3)?,
        row.get(4)?,
        row.get(5)?,
        row.get(6)?,
        row.get(7)?,
        row.get(8)?,
        row.get(9)?,
    ))
}

fn decode(raw: Raw) -> Result<StoredReadiness> {
    let (id, url, final_url, host, path, score, record_json, user_id, public, created_at) = raw;
    Ok(StoredReadiness {
        id,
        url,
        final_url,
        host,
        path,
        score,
        record_json,
        user_id,
        public,
        created_at: clock::decode("ai_readiness", &created_at),
    })
}

impl Store {
    /// Stores an AI-readiness answer and returns it as stored.
    ///
    /// # Errors
    /// `invalid` when the final URL has no host or the record is over
    /// [`MAX_READINESS_RECORD_BYTES`]; the database's failures.
    pub fn insert_readiness(&self, new: NewReadiness) -> Result<StoredReadiness> {
        let (host, path) = host_and_path(&new.final_url)
            .ok_or_else(|| Error::invalid("final_url", "not an absolute URL with a host"))?;
        if new.record_json.len() > MAX_READINESS_RECORD_BYTES {
            return Err(Error::invalid("record_json", "the readiness record is over its size limit"));
        }
        let row = StoredReadiness {
            id: new_time_ordered_id().into(),
            url: new.url,
            final_url: new.final_url,
            host,
            path,
            score: new.score,
            record_json: new.record_json,
            public: new.user_id.is_none(),
            user_id: new.user_id,
            created_at: clock::truncate_ms(new.created_at),
        };
        self.write(|tx| {
            tx.execute(
                &format!("INSERT INTO ai_readiness ({COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)"),
                args![
                    row.id,
                    row.url,
                    row.final_url,
                    row.host,
                    row.path,
                    row.score,
                    row.record_json,
                    row.user_id,
                    row.public,
                    format_rfc3339(row.created_at)
                ],
            )
        })?;
        Ok(row)
    }

    /// The newest **public** AI-readiness answer ([`StoredReadiness::public`]) of the page at
    /// `host` (lower-cased here) and `path`: what the report page shows beside the page's
    /// audit. An answer made with a key is never returned.
    pub fn latest_public_readiness(&self, host: &str, path: &str) -> Result<Option<StoredReadiness>> {
        let host = host.to_ascii_lowercase();
        let raw = self.read(|conn| {
            conn.query_opt(
                &format!(
                    "SELECT {COLUMNS} FROM ai_readiness WHERE public = 1 AND host = ?1 AND path = ?2 \
                     ORDER BY created_at DESC, id DESC LIMIT 1"
                ),
                args![host, path],
                from_row,
            )
        })?;
        raw.map(decode).transpose()
    }
}
