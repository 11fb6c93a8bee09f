use crate::sql::{args, Db, Row};
use serde::Serialize;
use time::OffsetDateTime;
use vocab::UserId;

use crate::clock::{self, format_rfc3339, ser};
use crate::db::{new_id, Store};
use crate::error::{Error, Result};

/// Requests per minute of anonymous use (per client network; docs/API.md, Quota).
pub const ANONYMOUS_RATE_LIMIT: u32 = 10;
pub use vocab::{Tier, FREE_RATE_LIMIT, PRO_RATE_LIMIT};

/// The tier named `s`, refused with the store's `invalid` error (what the admin command
/// shows).
///
/// # Errors
/// `s` is not `free` or `pro`.
pub fn parse_tier(s: &str) -> Result<Tier> {
    s.parse().map_err(|_| Error::invalid("tier", format!("{s:?} is not free or pro")))
}

/// An account: the owner of keys, audits, webhooks, monitors.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct User {
    /// UUID.
    pub id: UserId,
    /// Account tier.
    pub tier: Tier,
    /// Creation time (UTC, milliseconds).
    #[serde(serialize_with = "ser::ts")]
    pub created_at: OffsetDateTime,
}

impl User {
    fn from_row(row: &Row<'_>) -> Result<(String, String, String)> {
        Ok((row.get(0)?, row.get(1)?, row.get(2)?))
    }

    fn decode((id, tier, created_at): (String, String, String)) -> Result<User> {
        Ok(User {
            id: id.into(),
            tier: tier.parse().map_err(|_| Error::corrupt("users", format!("bad tier {tier:?}")))?,
            created_at: clock::decode("users", &created_at),
        })
    }
}

/// Inserts a user on an open connection or transaction (shared with key creation, which
/// creates the owner and the key in one transaction).
pub(crate) fn insert_user(conn: &Db<'_>, tier: Tier, at: OffsetDateTime) -> Result<User> {
    let user = User { id: new_id().into(), tier, created_at: clock::truncate_ms(at) };
    conn.execute(
        "INSERT INTO users (id, tier, created_at) VALUES (?1, ?2, ?3)",
        args![user.id, tier.as_str(), format_rfc3339(user.created_at)],
    )?;
    Ok(user)
}

pub(crate) fn user_exists(conn: &Db<'_>, id: &str) -> Result<bool> {
    conn.query_one("SELECT EXISTS (SELECT 1 FROM users WHERE id = ?1)", args![id], |row| row.get(0))
}

impl Store {
    /// Creates a user of the given tier.
    pub fn create_user(&self, tier: Tier) -> Result<User> {
        self.write_each(|conn| insert_user(conn, tier, OffsetDateTime::now_utc()))
    }

    /// The user with this id, or [`Error::NotFound`].
    pub fn get_user(&self, id: &str) -> Result<User> {
        let raw = self.read(|conn| {
            conn.query_opt("SELECT id, tier, created_at FROM users WHERE id = ?1", args![id], User::from_row)
        })?;
        User::decode(raw.ok_or_else(|| Error::not_found("user", id))?)
    }

    /// Every user, oldest first.
    pub fn list_users(&self) -> Result<Vec<User>> {
        let raw = self.read(|conn| {
            let mut stmt = conn.prepare("SELECT id, tier, created_at FROM users ORDER BY created_at, rowid")?;
            let rows = stmt.query_map(args![], User::from_row)?;
            rows.collect::<Result<Vec<_>>>()
        })?;
        raw.into_iter().map(User::decode).collect()
    }
}

#[cfg(test)]
mod name_tests {
    use super::{parse_tier, Tier};

    #[test]
    fn tiers_round_trip_by_their_stored_names() {
        let names: Vec<&str> = Tier::ALL.iter().map(|t| t.as_str()).collect();
        assert_eq!(names, ["free", "pro"]);
        for &t in Tier::ALL {
            assert_eq!(parse_tier(t.as_str()).ok(), Some(t));
            assert_eq!(t.to_string(), t.as_str());
            assert_eq!(serde_json::to_value(t).ok(), Some(serde_json::Value::from(t.as_str())));
        }
        let refused = parse_tier("gold").expect_err("no such tier");
        assert_eq!(refused.to_string(), r#"invalid tier: "gold" is not free or pro"#);
    }
}
