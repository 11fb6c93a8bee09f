use std::time::Duration;

use crate::sql::{args, Db, Row};
use serde::Serialize;
use time::OffsetDateTime;
use vocab::{AuditId, UserId};

use crate::clock::{self, format_rfc3339, ser};
use crate::db::{new_time_ordered_id, Store};
use crate::error::{Error, Result};

/// Age beyond which the badge no longer shows a stored score (docs/API.md, "GET /api/widget").
pub const BADGE_MAX_AGE: Duration = Duration::from_secs(24 * 60 * 60);

/// An audit to store. [`NewAudit::new`] stamps it with the current time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewAudit {
    /// The URL that was asked for.
    pub url: String,
    /// The URL after redirects; its host and path are indexed.
    pub final_url: String,
    /// Score percentage.
    pub score: i64,
    /// Ruleset that produced the score.
    pub ruleset_version: String,
    /// The full audit result as JSON text.
    pub result_json: String,
    /// Owner, when a key requested it.
    pub user_id: Option<UserId>,
    /// The page's visible text, kept once per distinct text ([`Store::audits_with_text_for_url`]
    /// reads it back).
    pub page_text: Option<String>,
    /// When the audit ran.
    pub created_at: OffsetDateTime,
}

impl NewAudit {
    /// An anonymous audit made now.
    pub fn new(
        url: impl Into<String>,
        final_url: impl Into<String>,
        score: i64,
        ruleset_version: impl Into<String>,
        result_json: impl Into<String>,
    ) -> NewAudit {
        NewAudit {
            url: url.into(),
            final_url: final_url.into(),
            score,
            ruleset_version: ruleset_version.into(),
            result_json: result_json.into(),
            user_id: None,
            page_text: None,
            created_at: OffsetDateTime::now_utc(),
        }
    }
}

/// A stored audit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StoredAudit {
    /// UUID.
    pub id: AuditId,
    /// The URL that was asked for.
    pub url: String,
    /// The URL after redirects.
    pub final_url: String,
    /// Lower-case host of `final_url`.
    pub host: String,
    /// Score percentage.
    pub score: i64,
    /// Ruleset that produced the score.
    pub ruleset_version: String,
    /// The full audit result as JSON text.
    pub result_json: String,
    /// Owner, if any.
    pub user_id: Option<UserId>,
    /// Made without a key (anonymously or by the badge's background queue), so shown by the
    /// public report page and badge. Fixed when stored: an audit made with a key stays
    /// private even if its owner is removed.
    pub public: bool,
    /// When the audit ran (UTC, milliseconds).
    #[serde(serialize_with = "ser::ts")]
    pub created_at: OffsetDateTime,
}

/// Builds the data of an audit's `audit.completed` event from the audit as stored (used only
/// for audits with an owner).
pub type EventData = Box<dyn Fn(&StoredAudit) -> serde_json::Value + Send>;

/// Lower-case host and path of a URL, as indexed. `None` for URLs without a host.
pub fn host_and_path(url: &str) -> Option<(String, String)> {
    let parsed = url::Url::parse(url).ok()?;
    let host = parsed.host_str()?.trim_end_matches('.').to_ascii_lowercase();
    if host.is_empty() {
        return None;
    }
    Some((host, parsed.path().to_owned()))
}

const COLUMNS: &str = "id, url, final_url, host, score, ruleset_version, result_json, user_id, public, created_at";

type RawAudit = (AuditId, String, String, String, i64, String, String, Option<UserId>, bool, String);

fn from_row(row: &Row<'_>) -> Result<RawAudit> {
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

fn decode(raw: RawAudit) -> Result<StoredAudit> {
    let (id, url, final_url, host, score, ruleset_version, result_json, user_id, public, created_at) = raw;
    Ok(StoredAudit {
        id,
        url,
        final_url,
        host,
        score,
        ruleset_version,
        result_json,
        user_id,
        public,
        created_at: clock::decode("audits", &created_at),
    })
}

fn query(conn: &Db<'_>, tail: &str, params: &[crate::sql::Value<'_>]) -> Result<Vec<StoredAudit>> {
    let mut stmt = conn.prepare(&format!("SELECT {COLUMNS} FROM audits {tail}"))?;
    let raw = stmt.query_map(params, from_row)?.collect::<Result<Vec<_>>>()?;
    raw.into_iter().map(decode).collect()
}

fn query_one(conn: &Db<'_>, tail: &str, params: &[crate::sql::Value<'_>]) -> Result<Option<StoredAudit>> {
    let raw = conn.query_opt(&format!("SELECT {COLUMNS} FROM audits {tail}"), params, from_row)?;
    raw.map(decode).transpose()
}

/// The row of a new audit, the path of its final URL and its page text.
fn prepare(new: NewAudit) -> Result<(StoredAudit, String, Option<String>)> {
    let (host, path) =
        host_and_path(&new.final_url).ok_or_else(|| Error::invalid("final_url", "not an absolute URL with a host"))?;
    let audit = StoredAudit {
        id: new_time_ordered_id().into(),
        url: new.url,
        final_url: new.final_url,
        host,
        score: new.score,
        ruleset_version: new.ruleset_version,
        result_json: new.result_json,
        public: new.user_id.is_none(),
        user_id: new.user_id,
        created_at: clock::truncate_ms(new.created_at),
    };
    Ok((audit, path, new.page_text))
}

/// The key of a page text in `page_texts`: its BLAKE3 hash in hex. A cryptographic hash,
/// since the texts of every caller share the table and a text made to collide with another
/// would be read back in its place; BLAKE3 rather than SHA-256 for speed (10 µs against 36 µs
/// for the load page's 64 KB of text, a fiftieth of the service's CPU per audit). Rows
/// written with SHA-256 keys (before 2026-11-29) keep them and read back alike: a key names
/// a text, whichever function made it. A text stored under its old key and audited again is
/// stored once more under its new one, until retention prunes the old audits.
fn text_key(text: &str) -> String {
    blake3::hash(text.as_bytes()).to_hex().to_string()
}

fn insert_row(conn: &Db<'_>, audit: &StoredAudit, path: &str, text: Option<&str>) -> Result<()> {
    let text_hash = match text {
        Some(text) => {
            let hash = text_key(text);
            conn.prepare("INSERT INTO page_texts (hash, text) VALUES (?1, ?2) ON CONFLICT (hash) DO NOTHING")?
                .execute(args![hash, text])?;
            Some(hash)
        }
        None => None,
    };
    conn.prepare(
        "INSERT INTO audits (id, url, final_url, host, path, score, ruleset_version, \
         result_json, user_id, public, created_at, text_hash) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
    )?
    .execute(args![
        audit.id,
        audit.url,
        audit.final_url,
        audit.host,
        path,
        audit.score,
        audit.ruleset_version,
        audit.result_json,
        audit.user_id,
        audit.public,
        format_rfc3339(audit.created_at),
        text_hash,
    ])?;
    Ok(())
}

impl Store {
    /// Stores an audit and returns it as stored.
    pub fn insert_audit(&self, new: NewAudit) -> Result<StoredAudit> {
        let (audit, path, text) = prepare(new)?;
        self.write(|tx| insert_row(tx, &audit, &path, text.as_deref()))?;
        Ok(audit)
    }

    /// [`Store::insert_audit`] that, for an audit with an owner, writes its
    /// `audit.completed` webhook event with `data` (built from the stored audit) into the
    /// outbox in the same transaction: the audit is never kept without its event, nor the
    /// event without the audit. A batch of one ([`Store::insert_audits`]).
    pub fn insert_audit_with_event(
        &self,
        new: NewAudit,
        data: impl Fn(&StoredAudit) -> serde_json::Value + Send + 'static,
    ) -> Result<(StoredAudit, crate::Enqueued)> {
        let mut answers = self.insert_audits(vec![(new, Box::new(data))]);
        answers.pop().unwrap_or_else(|| Err(Error::corrupt("audits", "a batch of one audit gave no answer")))
    }

    /// Stores a batch of audits in one transaction (one commit for all: the group commit of
    /// the service's audit writer), each as [`Store::insert_audit_with_event`] would, and
    /// answers for each in order. A row that fails (an invalid final URL, a constraint) is
    /// rolled back alone, to its savepoint; a failed commit fails every row with the same
    /// [`Error::Shared`].
    pub fn insert_audits(&self, batch: Vec<(NewAudit, EventData)>) -> Vec<Result<(StoredAudit, crate::Enqueued)>> {
        let n = batch.len();
        // Checked before the transaction: a row refused here is answered without it.
        let prepared: Vec<_> = batch.into_iter().map(|(new, data)| (prepare(new), data)).collect();
        let written = self.write(|tx| {
            let mut out = Vec::with_capacity(n);
            for (audit, path, text, data) in
                prepared.iter().filter_map(|(p, data)| p.as_ref().ok().map(|(a, path, t)| (a, path, t, data)))
            {
                tx.execute_batch("SAVEPOINT audit")?;
                let row = insert_row(tx, audit, path, text.as_deref()).and_then(|()| match &audit.user_id {
                    Some(owner) => crate::webhooks::enqueue_event(
                        tx,
                        owner,
                        "audit.completed",
                        &data(audit),
                        OffsetDateTime::now_utc(),
                    ),
                    None => Ok(crate::Enqueued::default()),
                });
                match row {
                    Ok(enqueued) => {
                        tx.execute_batch("RELEASE audit")?;
                        out.push(Ok((audit.clone(), enqueued)));
                    }
                    // A lost race of the whole transaction is not this row's failure: the
                    // transaction runs again.
                    Err(e) if e.is_retryable() => return Err(e),
                    Err(e) => {
                        tx.execute_batch("ROLLBACK TO audit; RELEASE audit")?;
                        out.push(Err(e));
                    }
                }
            }
            Ok(out)
        });
        match written {
            Ok(written) => {
                let mut written = written.into_iter();
                prepared
                    .into_iter()
                    .map(|(p, _)| match p {
                        Ok(_) => {
                            written.next().unwrap_or_else(|| Err(Error::corrupt("audits", "a row gave no answer")))
                        }
                        Err(e) => Err(e),
                    })
                    .collect()
            }
            Err(e) => {
                let shared = std::sync::Arc::new(e);
                (0..n).map(|_| Err(Error::Shared(shared.clone()))).collect()
            }
        }
    }

    /// The audit with this id, or [`Error::NotFound`].
    pub fn get_audit(&self, id: &str) -> Result<StoredAudit> {
        self.read(|conn| query_one(conn, "WHERE id = ?1", args![id]))?.ok_or_else(|| Error::not_found("audit", id))
    }

    /// The audit the public badge and report show for a host (lower-cased here): among the
    /// host's **public** audits (made without a key, [`StoredAudit::public`]) no older than
    /// `max_age`, the newest of its home page (path `/`) when there is one, else the newest
    /// of any page. Audits made with a key are never returned.
    pub fn latest_audit_for_host(&self, host: &str, max_age: Duration) -> Result<Option<StoredAudit>> {
        self.latest_audit_for_host_at(host, max_age, OffsetDateTime::now_utc())
    }

    /// The audit with this id when it is public ([`StoredAudit::public`]); `None` for an
    /// unknown id and for an audit made with a key alike.
    pub fn get_public_audit(&self, id: &str) -> Result<Option<StoredAudit>> {
        self.read(|conn| query_one(conn, "WHERE id = ?1 AND public = 1", args![id]))
    }

    /// [`Store::latest_audit_for_host`] as of `now`.
    pub fn latest_audit_for_host_at(
        &self,
        host: &str,
        max_age: Duration,
        now: OffsetDateTime,
    ) -> Result<Option<StoredAudit>> {
        let host = host.trim().trim_end_matches('.').to_ascii_lowercase();
        let cutoff = time::Duration::try_from(max_age)
            .ok()
            .and_then(|age| now.checked_sub(age))
            .map_or_else(|| "0000".to_owned(), format_rfc3339);
        self.read(|conn| {
            query_one(
                conn,
                "WHERE host = ?1 AND public = 1 AND created_at >= ?2 \
                 ORDER BY (path = '/') DESC, created_at DESC, rowid DESC LIMIT 1",
                args![host, cutoff],
            )
        })
    }

    /// The newest audit whose requested or final URL is `url`.
    pub fn latest_audit_for_url(&self, url: &str) -> Result<Option<StoredAudit>> {
        self.read(|conn| {
            query_one(conn, "WHERE url = ?1 OR final_url = ?1 ORDER BY created_at DESC, rowid DESC LIMIT 1", args![url])
        })
    }

    /// Audits whose requested or final URL is `url`, newest first, at most `limit`.
    pub fn audits_for_url(&self, url: &str, limit: usize) -> Result<Vec<StoredAudit>> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.read(|conn| {
            query(
                conn,
                "WHERE url = ?1 OR final_url = ?1 ORDER BY created_at DESC, rowid DESC LIMIT ?2",
                args![url, limit],
            )
        })
    }

    /// [`Store::audits_for_url`] with each audit's kept page text ([`NewAudit::page_text`];
    /// `None` for audits stored without one, or before texts had their own table).
    pub fn audits_with_text_for_url(&self, url: &str, limit: usize) -> Result<Vec<(StoredAudit, Option<String>)>> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.read(|conn| {
            let columns = COLUMNS.split(", ").map(|c| format!("a.{c}")).collect::<Vec<_>>().join(", ");
            let mut stmt = conn.prepare(&format!(
                "SELECT {columns}, t.text FROM audits a LEFT JOIN page_texts t ON t.hash = a.text_hash \
                 WHERE a.url = ?1 OR a.final_url = ?1 ORDER BY a.created_at DESC, a.rowid DESC LIMIT ?2"
            ))?;
            let raw = stmt
                .query_map(args![url, limit], |row| Ok((from_row(row)?, row.get::<Option<String>>(10)?)))?
                .collect::<Result<Vec<_>>>()?;
            raw.into_iter().map(|(audit, text)| Ok((decode(audit)?, text))).collect()
        })
    }

    /// Number of stored audits.
    pub fn count_audits(&self) -> Result<u64> {
        let n: i64 = self.read(|conn| conn.query_one("SELECT COUNT(*) FROM audits", args![], |row| row.get(0)))?;
        Ok(u64::try_from(n).unwrap_or(0))
    }
}

/// Which of an owner's audits [`Store::list_user_audits`] returns, newest first (by
/// `created_at`, then `id`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AuditFilter {
    /// Only audits whose requested or final URL is this.
    pub url: Option<String>,
    /// Only audits of this host (compared lower-cased, without a trailing dot).
    pub host: Option<String>,
    /// Only audits made at or after this instant.
    pub since: Option<OffsetDateTime>,
    /// Only audits strictly older than this `(created_at, id)`: the position a page ended at.
    pub before: Option<(OffsetDateTime, AuditId)>,
}

impl Store {
    /// At most `limit` audits of `user_id` that pass `filter`, newest first (`created_at`,
    /// then `id`, both descending; the `audits_user` index gives that order).
    pub fn list_user_audits(&self, user_id: &str, filter: &AuditFilter, limit: usize) -> Result<Vec<StoredAudit>> {
        use crate::sql::Value;
        let mut clauses = vec!["user_id = ?".to_owned()];
        let mut values: Vec<Value<'_>> = vec![Value::Text(user_id.into())];
        if let Some(url) = &filter.url {
            clauses.push("(url = ? OR final_url = ?)".to_owned());
            values.push(Value::Text(url.clone().into()));
            values.push(Value::Text(url.clone().into()));
        }
        if let Some(host) = &filter.host {
            clauses.push("host = ?".to_owned());
            values.push(Value::Text(host.trim().trim_end_matches('.').to_ascii_lowercase().into()));
        }
        if let Some(since) = filter.since {
            clauses.push("created_at >= ?".to_owned());
            values.push(Value::Text(format_rfc3339(since).into()));
        }
        if let Some((created_at, id)) = &filter.before {
            clauses.push("(created_at, id) < (?, ?)".to_owned());
            values.push(Value::Text(format_rfc3339(*created_at).into()));
            values.push(Value::Text(id.to_string().into()));
        }
        values.push(Value::Int(i64::try_from(limit).unwrap_or(i64::MAX)));
        let tail = format!("WHERE {} ORDER BY created_at DESC, id DESC LIMIT ?", clauses.join(" AND "));
        self.read(|conn| query(conn, &tail, &values))
    }

    /// The `limit` newest audits whose requested or final URL is `url`, **oldest first**:
    /// those of `user_id`, or, without an owner, the public ones ([`StoredAudit::public`]).
    pub fn url_history(&self, user_id: Option<&str>, url: &str, limit: usize) -> Result<Vec<StoredAudit>> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let mut audits = self.read(|conn| match user_id {
            Some(user) => query(
                conn,
                "WHERE user_id = ?1 AND (url = ?2 OR final_url = ?2) ORDER BY created_at DESC, id DESC LIMIT ?3",
                args![user, url, limit],
            ),
            None => query(
                conn,
                "WHERE public = 1 AND (url = ?1 OR final_url = ?1) ORDER BY created_at DESC, id DESC LIMIT ?2",
                args![url, limit],
            ),
        })?;
        audits.reverse();
        Ok(audits)
    }

    /// The `limit` newest **public** audits ([`StoredAudit::public`]) of the page at `host`
    /// (lower-cased here) and `path`, oldest first: the score history the public report page
    /// draws.
    pub fn public_page_history(&self, host: &str, path: &str, limit: usize) -> Result<Vec<StoredAudit>> {
        let host = host.trim().trim_end_matches('.').to_ascii_lowercase();
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let mut audits = self.read(|conn| {
            query(
                conn,
                "WHERE public = 1 AND host = ?1 AND path = ?2 ORDER BY created_at DESC, id DESC LIMIT ?3",
                args![host, path, limit],
            )
        })?;
        audits.reverse();
        Ok(audits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(url: &str, expected: Option<(&str, &str)>) {
        let got = host_and_path(url);
        let expected = expected.map(|(h, p)| (h.to_owned(), p.to_owned()));
        assert_eq!(got, expected, "{url}");
    }

    #[test]
    fn hosts_and_paths() {
        check("https://Example.COM/", Some(("example.com", "/")));
        check("https://example.com", Some(("example.com", "/")));
        check("https://example.com./a?b=c#d", Some(("example.com", "/a")));
        check("http://example.com:8080/x/", Some(("example.com", "/x/")));
        check("http://127.0.0.1/", Some(("127.0.0.1", "/")));
        check("http://[::1]/p", Some(("[::1]", "/p")));
        check("/relative", None);
        check("mailto:a@example.com", None);
        check("", None);
    }
}
