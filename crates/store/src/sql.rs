//! The one face of both databases to the rest of the crate: [`Db`] runs a statement on
//! SQLite (rusqlite) or PostgreSQL (the synchronous `postgres` client) with the same SQL
//! text, the same arguments ([`args!`]) and the same row reader ([`Row::get`]).
//!
//! The SQL of the crate is written once, in the subset both databases run the same way:
//! `?N` placeholders (rewritten to `$N` for PostgreSQL, [`to_postgres`]), `ON CONFLICT`
//! upserts, `RETURNING`, `COALESCE`, `CAST(... AS BIGINT)`, `SAVEPOINT`. Every table has a
//! `rowid` on both (SQLite's own; a generated identity column on PostgreSQL), so "in the
//! order rows were made" is the same `ORDER BY rowid` on both. Text columns on PostgreSQL are
//! `COLLATE "C"`: byte order, as in SQLite, so RFC 3339 timestamps compare as times.
//! Where the two must differ (row locks for claims), the code asks [`Db::is_postgres`].
//!
//! Values cross as [`Value`]: integers are `BIGINT` on PostgreSQL and SQLite's `INTEGER`
//! (booleans too, stored 0/1 on both), text is text, reals are `DOUBLE PRECISION`.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;

use postgres::types::{FromSql, IsNull, ToSql, Type};
use postgres::Statement;

use crate::error::{Error, Result};

/// One argument or column value, as both databases see it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value<'a> {
    Null,
    Int(i64),
    Real(f64),
    Text(Cow<'a, str>),
    Blob(Cow<'a, [u8]>),
}

/// Turns a Rust value into a [`Value`] argument (borrowing text, not copying it).
pub(crate) trait ToValue {
    fn to_value(&self) -> Value<'_>;
}

impl<T: ToValue + ?Sized> ToValue for &T {
    fn to_value(&self) -> Value<'_> {
        (**self).to_value()
    }
}

impl<T: ToValue> ToValue for Option<T> {
    fn to_value(&self) -> Value<'_> {
        self.as_ref().map_or(Value::Null, ToValue::to_value)
    }
}

impl ToValue for str {
    fn to_value(&self) -> Value<'_> {
        Value::Text(Cow::Borrowed(self))
    }
}

impl ToValue for String {
    fn to_value(&self) -> Value<'_> {
        Value::Text(Cow::Borrowed(self.as_str()))
    }
}

/// A time is written in the store's one format (`clock`), owned: it is made, not borrowed.
impl ToValue for vocab::Timestamp {
    fn to_value(&self) -> Value<'_> {
        Value::Text(Cow::Owned(self.to_string()))
    }
}

/// An id is written and read as its text.
macro_rules! id_value {
    ($($t:ty),*) => {$(
        impl ToValue for $t {
            fn to_value(&self) -> Value<'_> {
                Value::Text(Cow::Borrowed(self.as_str()))
            }
        }

        impl FromValue for $t {
            fn from_value(value: Value<'_>) -> std::result::Result<Self, String> {
                String::from_value(value).map(<$t>::from)
            }
        }
    )*};
}
id_value!(
    vocab::AlertId,
    vocab::ApprovalId,
    vocab::AuditId,
    vocab::CrawlId,
    vocab::DeliveryId,
    vocab::EventId,
    vocab::ExperimentId,
    vocab::KeyId,
    vocab::MonitorId,
    vocab::ReadinessId,
    vocab::ScheduleId,
    vocab::ShareId,
    vocab::UserId,
    vocab::WebhookId,
    vocab::WorkflowId
);

impl ToValue for [u8] {
    fn to_value(&self) -> Value<'_> {
        Value::Blob(Cow::Borrowed(self))
    }
}

impl ToValue for Vec<u8> {
    fn to_value(&self) -> Value<'_> {
        Value::Blob(Cow::Borrowed(self.as_slice()))
    }
}

impl ToValue for bool {
    fn to_value(&self) -> Value<'_> {
        Value::Int(i64::from(*self))
    }
}

impl ToValue for f64 {
    fn to_value(&self) -> Value<'_> {
        Value::Real(*self)
    }
}

impl ToValue for Value<'_> {
    fn to_value(&self) -> Value<'_> {
        match self {
            Value::Null => Value::Null,
            Value::Int(n) => Value::Int(*n),
            Value::Real(x) => Value::Real(*x),
            Value::Text(t) => Value::Text(Cow::Borrowed(t)),
            Value::Blob(b) => Value::Blob(Cow::Borrowed(b)),
        }
    }
}

macro_rules! int_value {
    ($($t:ty),*) => {$(
        impl ToValue for $t {
            fn to_value(&self) -> Value<'_> {
                // Saturates only for u64/usize beyond i64::MAX, which no column holds.
                Value::Int(i64::try_from(*self).unwrap_or(i64::MAX))
            }
        }
    )*};
}
int_value!(i64, i32, i16, u8, u16, u32, u64, usize);

/// The arguments of one statement: `args![a, b, c]` borrows each value as a [`Value`].
macro_rules! args {
    () => { &[][..] };
    ($($e:expr),+ $(,)?) => { &[$($crate::sql::ToValue::to_value(&$e)),+][..] };
}
pub(crate) use args;

/// Reads one column [`Value`] back into a Rust type.
pub(crate) trait FromValue: Sized {
    fn from_value(value: Value<'_>) -> std::result::Result<Self, String>;
}

impl FromValue for i64 {
    fn from_value(value: Value<'_>) -> std::result::Result<Self, String> {
        match value {
            Value::Int(n) => Ok(n),
            // SQLite's SUM/AVG of integers, PostgreSQL's NUMERIC of a SUM: whole numbers.
            Value::Real(x) if x.fract() == 0.0 && x.abs() < 9.0e15 => Ok(x as i64),
            other => Err(format!("expected an integer, found {other:?}")),
        }
    }
}

macro_rules! int_from_value {
    ($($t:ty),*) => {$(
        impl FromValue for $t {
            fn from_value(value: Value<'_>) -> std::result::Result<Self, String> {
                let n = i64::from_value(value)?;
                <$t>::try_from(n).map_err(|_| format!("{n} is out of range for {}", stringify!($t)))
            }
        }
    )*};
}
int_from_value!(i32, u8, u16, u32, u64, usize);

impl FromValue for bool {
    fn from_value(value: Value<'_>) -> std::result::Result<Self, String> {
        Ok(i64::from_value(value)? != 0)
    }
}

impl FromValue for f64 {
    fn from_value(value: Value<'_>) -> std::result::Result<Self, String> {
        match value {
            Value::Real(x) => Ok(x),
            Value::Int(n) => Ok(n as f64),
            other => Err(format!("expected a number, found {other:?}")),
        }
    }
}

impl FromValue for String {
    fn from_value(value: Value<'_>) -> std::result::Result<Self, String> {
        match value {
            Value::Text(t) => Ok(t.into_owned()),
            other => Err(format!("expected text, found {other:?}")),
        }
    }
}

/// A time column is read without failing on its text (`clock::read_stored`): a row written
/// in another form stays readable.
impl FromValue for vocab::Timestamp {
    fn from_value(value: Value<'_>) -> std::result::Result<Self, String> {
        match value {
            Value::Text(t) => Ok(crate::clock::read_stored("a time column", &t)),
            other => Err(format!("expected a time as text, found {other:?}")),
        }
    }
}

impl FromValue for Vec<u8> {
    fn from_value(value: Value<'_>) -> std::result::Result<Self, String> {
        match value {
            Value::Blob(b) => Ok(b.into_owned()),
            Value::Text(t) => Ok(t.into_owned().into_bytes()),
            other => Err(format!("expected bytes, found {other:?}")),
        }
    }
}

impl<T: FromValue> FromValue for Option<T> {
    fn from_value(value: Value<'_>) -> std::result::Result<Self, String> {
        match value {
            Value::Null => Ok(None),
            v => T::from_value(v).map(Some),
        }
    }
}

/// One row of a result, from either database.
pub(crate) enum Row<'r> {
    Lite(&'r rusqlite::Row<'r>),
    Pg(&'r postgres::Row),
}

impl Row<'_> {
    /// Column `idx` (from 0) as a `T`.
    pub(crate) fn get<T: FromValue>(&self, idx: usize) -> Result<T> {
        let value = match self {
            Row::Lite(row) => match row.get_ref(idx)? {
                rusqlite::types::ValueRef::Null => Value::Null,
                rusqlite::types::ValueRef::Integer(n) => Value::Int(n),
                rusqlite::types::ValueRef::Real(x) => Value::Real(x),
                // Checked with `str::from_utf8`, which skips ASCII a word at a time, before
                // the lossy conversion, which walks every byte: the site rules read each
                // page's record (20 KiB of JSON and more), and the lossy walk was 3% of a
                // crawl's whole profile (docs/PERFORMANCE.md, "Site crawl").
                rusqlite::types::ValueRef::Text(t) => Value::Text(match std::str::from_utf8(t) {
                    Ok(text) => Cow::Borrowed(text),
                    Err(_) => String::from_utf8_lossy(t),
                }),
                rusqlite::types::ValueRef::Blob(b) => Value::Blob(Cow::Borrowed(b)),
            },
            Row::Pg(row) => row.try_get::<_, PgValue>(idx)?.0,
        };
        T::from_value(value).map_err(|reason| Error::Column { idx, reason })
    }
}

/// A PostgreSQL column read as a [`Value`], whatever its type.
struct PgValue(Value<'static>);

impl<'a> FromSql<'a> for PgValue {
    fn from_sql(ty: &Type, raw: &'a [u8]) -> std::result::Result<Self, Box<dyn std::error::Error + Sync + Send>> {
        let value = match *ty {
            Type::INT8 => Value::Int(i64::from_sql(ty, raw)?),
            Type::INT4 => Value::Int(i64::from(i32::from_sql(ty, raw)?)),
            Type::INT2 => Value::Int(i64::from(i16::from_sql(ty, raw)?)),
            Type::BOOL => Value::Int(i64::from(bool::from_sql(ty, raw)?)),
            Type::FLOAT8 => Value::Real(f64::from_sql(ty, raw)?),
            Type::FLOAT4 => Value::Real(f64::from(f32::from_sql(ty, raw)?)),
            Type::NUMERIC => Value::Real(numeric_to_f64(raw)?),
            Type::BYTEA => Value::Blob(Cow::Owned(Vec::<u8>::from_sql(ty, raw)?)),
            _ => Value::Text(Cow::Owned(String::from_sql(ty, raw)?)),
        };
        Ok(PgValue(value))
    }

    fn from_sql_null(_: &Type) -> std::result::Result<Self, Box<dyn std::error::Error + Sync + Send>> {
        Ok(PgValue(Value::Null))
    }

    fn accepts(ty: &Type) -> bool {
        matches!(
            *ty,
            Type::INT8
                | Type::INT4
                | Type::INT2
                | Type::BOOL
                | Type::FLOAT8
                | Type::FLOAT4
                | Type::NUMERIC
                | Type::BYTEA
                | Type::TEXT
                | Type::VARCHAR
                | Type::BPCHAR
                | Type::NAME
                | Type::UNKNOWN
        )
    }
}

/// PostgreSQL's binary NUMERIC (what `SUM` of a `BIGINT` column returns): a sign, a weight
/// and base-10000 digits.
fn numeric_to_f64(raw: &[u8]) -> std::result::Result<f64, Box<dyn std::error::Error + Sync + Send>> {
    let word = |i: usize| -> std::result::Result<i16, Box<dyn std::error::Error + Sync + Send>> {
        let bytes = raw.get(i * 2..i * 2 + 2).ok_or("short NUMERIC")?;
        Ok(i16::from_be_bytes([bytes[0], bytes[1]]))
    };
    let ndigits = usize::try_from(word(0)?).map_err(|_| "bad NUMERIC")?;
    let weight = i32::from(word(1)?);
    let sign = word(2)? as u16;
    if sign == 0xC000 {
        return Ok(f64::NAN);
    }
    let mut value = 0.0_f64;
    for i in 0..ndigits {
        let digit = f64::from(word(4 + i)?);
        value += digit * 10000_f64.powi(weight - i32::try_from(i).map_err(|_| "bad NUMERIC")?);
    }
    Ok(if sign == 0x4000 { -value } else { value })
}

impl ToSql for Value<'_> {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut postgres::types::private::BytesMut,
    ) -> std::result::Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        match self {
            Value::Null => Ok(IsNull::Yes),
            Value::Int(n) => match *ty {
                Type::INT8 => n.to_sql(ty, out),
                Type::INT4 => i32::try_from(*n)?.to_sql(ty, out),
                Type::INT2 => i16::try_from(*n)?.to_sql(ty, out),
                Type::BOOL => (*n != 0).to_sql(ty, out),
                Type::FLOAT8 => (*n as f64).to_sql(ty, out),
                Type::FLOAT4 => (*n as f32).to_sql(ty, out),
                _ => n.to_string().to_sql(ty, out),
            },
            Value::Real(x) => match *ty {
                Type::FLOAT4 => (*x as f32).to_sql(ty, out),
                _ => x.to_sql(ty, out),
            },
            Value::Text(t) => t.as_ref().to_sql(ty, out),
            Value::Blob(b) => b.as_ref().to_sql(ty, out),
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    postgres::types::to_sql_checked!();
}

impl rusqlite::ToSql for Value<'_> {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, ValueRef};
        Ok(ToSqlOutput::Borrowed(match self {
            Value::Null => ValueRef::Null,
            Value::Int(n) => ValueRef::Integer(*n),
            Value::Real(x) => ValueRef::Real(*x),
            Value::Text(t) => ValueRef::Text(t.as_bytes()),
            Value::Blob(b) => ValueRef::Blob(b),
        }))
    }
}

/// Rewrites the crate's `?N` placeholders to PostgreSQL's `$N` (a bare `?` becomes the
/// next number). Text between single quotes is left alone.
pub(crate) fn to_postgres(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() + 8);
    let mut next = 1u32;
    let mut quoted = false;
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                quoted = !quoted;
                out.push(c);
            }
            '?' if !quoted => {
                let mut digits = String::new();
                while let Some(d) = chars.peek().copied().filter(char::is_ascii_digit) {
                    digits.push(d);
                    chars.next();
                }
                out.push('$');
                if digits.is_empty() {
                    out.push_str(&next.to_string());
                    next += 1;
                } else {
                    out.push_str(&digits);
                }
            }
            _ => out.push(c),
        }
    }
    out
}

/// A pooled PostgreSQL connection with its prepared statements, keyed by the crate's SQL
/// text: each statement is parsed once per connection.
pub(crate) struct PgConn {
    /// Always `Some` but while being dropped.
    client: Option<postgres::Client>,
    statements: HashMap<String, Statement>,
}

impl PgConn {
    pub(crate) fn new(client: postgres::Client) -> Self {
        PgConn { client: Some(client), statements: HashMap::new() }
    }

    /// A [`Db`] on this connection, each statement on its own (autocommit).
    pub(crate) fn db(&mut self) -> Db<'_> {
        let (client, statements) = self.parts();
        Db::Pg(RefCell::new(PgHandle { session: PgSession::Auto(client), statements }))
    }

    /// The client and the statement cache, borrowed apart.
    pub(crate) fn parts(&mut self) -> (&mut postgres::Client, &mut HashMap<String, Statement>) {
        let client = self.client.as_mut().expect("a PostgreSQL connection has its client until dropped");
        (client, &mut self.statements)
    }
}

impl Drop for PgConn {
    /// Closing a connection blocks on the client's own runtime, which panics on a thread
    /// that drives async tasks, and the last handle of a store may well be dropped on one
    /// (a test's, or the server's at shutdown): the client is closed on a thread of its own.
    /// The pool keeps its connections, so they close rarely and the thread costs nothing
    /// that matters.
    fn drop(&mut self) {
        if let Some(client) = self.client.take() {
            let statements = std::mem::take(&mut self.statements);
            let _ = std::thread::Builder::new().name("pg-close".into()).spawn(move || drop((statements, client)));
        }
    }
}

/// What a PostgreSQL [`Db`] runs statements on: the connection itself (autocommit) or an
/// open transaction on it.
pub(crate) enum PgSession<'c> {
    Auto(&'c mut postgres::Client),
    Tx(postgres::Transaction<'c>),
}

pub(crate) struct PgHandle<'c> {
    pub(crate) session: PgSession<'c>,
    pub(crate) statements: &'c mut HashMap<String, Statement>,
}

impl PgHandle<'_> {
    fn statement(&mut self, sql: &str) -> std::result::Result<Statement, postgres::Error> {
        if let Some(s) = self.statements.get(sql) {
            return Ok(s.clone());
        }
        let text = to_postgres(sql);
        let stmt = match &mut self.session {
            PgSession::Auto(c) => c.prepare(&text)?,
            PgSession::Tx(t) => t.prepare(&text)?,
        };
        // A bounded cache: the crate's SQL is a fixed set, but some of it is built from
        // filters, so cap it rather than trust that.
        if self.statements.len() >= 512 {
            self.statements.clear();
        }
        self.statements.insert(sql.to_owned(), stmt.clone());
        Ok(stmt)
    }

    fn query(&mut self, sql: &str, args: &[Value<'_>]) -> std::result::Result<Vec<postgres::Row>, postgres::Error> {
        let stmt = self.statement(sql)?;
        let params: Vec<&(dyn ToSql + Sync)> = args.iter().map(|a| a as &(dyn ToSql + Sync)).collect();
        match &mut self.session {
            PgSession::Auto(c) => c.query(&stmt, &params),
            PgSession::Tx(t) => t.query(&stmt, &params),
        }
    }

    fn execute(&mut self, sql: &str, args: &[Value<'_>]) -> std::result::Result<u64, postgres::Error> {
        let stmt = self.statement(sql)?;
        let params: Vec<&(dyn ToSql + Sync)> = args.iter().map(|a| a as &(dyn ToSql + Sync)).collect();
        match &mut self.session {
            PgSession::Auto(c) => c.execute(&stmt, &params),
            PgSession::Tx(t) => t.execute(&stmt, &params),
        }
    }

    fn batch(&mut self, sql: &str) -> std::result::Result<(), postgres::Error> {
        match &mut self.session {
            PgSession::Auto(c) => c.batch_execute(sql),
            PgSession::Tx(t) => t.batch_execute(sql),
        }
    }
}

/// A connection (or an open transaction) of either database, as the crate's queries see it.
pub(crate) enum Db<'c> {
    Lite(&'c rusqlite::Connection),
    Pg(RefCell<PgHandle<'c>>),
}

impl Db<'_> {
    /// Whether this is PostgreSQL (for the few statements that differ: row locks).
    pub(crate) fn is_postgres(&self) -> bool {
        matches!(self, Db::Pg(_))
    }

    /// Runs one statement; returns the number of rows it changed.
    pub(crate) fn execute(&self, sql: &str, args: &[Value<'_>]) -> Result<usize> {
        match self {
            Db::Lite(conn) => Ok(conn.prepare_cached(sql)?.execute(rusqlite::params_from_iter(args.iter()))?),
            Db::Pg(h) => Ok(usize::try_from(h.borrow_mut().execute(sql, args)?).unwrap_or(usize::MAX)),
        }
    }

    /// Runs several statements without arguments (schema changes, savepoints).
    pub(crate) fn execute_batch(&self, sql: &str) -> Result<()> {
        match self {
            Db::Lite(conn) => Ok(conn.execute_batch(sql)?),
            Db::Pg(h) => Ok(h.borrow_mut().batch(sql)?),
        }
    }

    /// Every row of a query, each read by `f`.
    pub(crate) fn query_map<T>(
        &self,
        sql: &str,
        args: &[Value<'_>],
        mut f: impl FnMut(&Row<'_>) -> Result<T>,
    ) -> Result<Vec<T>> {
        match self {
            Db::Lite(conn) => {
                let mut stmt = conn.prepare_cached(sql)?;
                let mut rows = stmt.query(rusqlite::params_from_iter(args.iter()))?;
                let mut out = Vec::new();
                while let Some(row) = rows.next()? {
                    out.push(f(&Row::Lite(row))?);
                }
                Ok(out)
            }
            Db::Pg(h) => {
                let rows = h.borrow_mut().query(sql, args)?;
                rows.iter().map(|row| f(&Row::Pg(row))).collect()
            }
        }
    }

    /// The first row of a query read by `f`, or `None` when there is none.
    pub(crate) fn query_opt<T>(
        &self,
        sql: &str,
        args: &[Value<'_>],
        f: impl FnOnce(&Row<'_>) -> Result<T>,
    ) -> Result<Option<T>> {
        match self {
            Db::Lite(conn) => {
                let mut stmt = conn.prepare_cached(sql)?;
                let mut rows = stmt.query(rusqlite::params_from_iter(args.iter()))?;
                match rows.next()? {
                    Some(row) => f(&Row::Lite(row)).map(Some),
                    None => Ok(None),
                }
            }
            Db::Pg(h) => {
                let rows = h.borrow_mut().query(sql, args)?;
                rows.first().map(|row| f(&Row::Pg(row))).transpose()
            }
        }
    }

    /// The one row a query always returns (an aggregate, `EXISTS`, `RETURNING` of an
    /// insert), read by `f`.
    pub(crate) fn query_one<T>(
        &self,
        sql: &str,
        args: &[Value<'_>],
        f: impl FnOnce(&Row<'_>) -> Result<T>,
    ) -> Result<T> {
        self.query_opt(sql, args, f)?.ok_or(Error::NoRow)
    }
}

/// A statement to run more than once or row by row, the way `rusqlite::Statement` reads:
/// both databases keep the parsed statement per connection, so this only carries the text.
pub(crate) struct Stmt<'d, 'c> {
    db: &'d Db<'c>,
    sql: String,
}

impl Stmt<'_, '_> {
    /// Every row, each read by `f`, as an iterator of results.
    pub(crate) fn query_map<T>(
        &mut self,
        args: &[Value<'_>],
        f: impl FnMut(&Row<'_>) -> Result<T>,
    ) -> Result<impl Iterator<Item = Result<T>>> {
        Ok(self.db.query_map(&self.sql, args, f)?.into_iter().map(Ok))
    }

    /// The one row it always returns, read by `f`.
    pub(crate) fn query_one<T>(&mut self, args: &[Value<'_>], f: impl FnOnce(&Row<'_>) -> Result<T>) -> Result<T> {
        self.db.query_one(&self.sql, args, f)
    }

    /// Runs it; returns the number of rows changed.
    pub(crate) fn execute(&mut self, args: &[Value<'_>]) -> Result<usize> {
        self.db.execute(&self.sql, args)
    }
}

impl<'c> Db<'c> {
    /// The statement `sql`, to run with [`Stmt::query_map`] or [`Stmt::execute`].
    pub(crate) fn prepare<'d>(&'d self, sql: &str) -> Result<Stmt<'d, 'c>> {
        Ok(Stmt { db: self, sql: sql.to_owned() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_become_dollars() {
        assert_eq!(to_postgres("SELECT a FROM t WHERE b = ?1 AND c = ?12"), "SELECT a FROM t WHERE b = $1 AND c = $12");
        assert_eq!(to_postgres("VALUES (?, ?)"), "VALUES ($1, $2)");
        assert_eq!(to_postgres("WHERE a = '?1' AND b = ?2"), "WHERE a = '?1' AND b = $2");
    }

    #[test]
    fn numeric_decodes() {
        // 12345678 = digits [1234, 5678], weight 1.
        let raw: Vec<u8> = [2i16, 1, 0, 0, 1234, 5678].iter().flat_map(|w| w.to_be_bytes()).collect();
        assert_eq!(numeric_to_f64(&raw).unwrap(), 12_345_678.0);
        let neg: Vec<u8> = [1i16, 0, 0x4000, 0, 42].iter().flat_map(|w| w.to_be_bytes()).collect();
        assert_eq!(numeric_to_f64(&neg).unwrap(), -42.0);
        let zero: Vec<u8> = [0i16, 0, 0, 0].iter().flat_map(|w| w.to_be_bytes()).collect();
        assert_eq!(numeric_to_f64(&zero).unwrap(), 0.0);
    }

    #[test]
    fn values_read_back() {
        assert_eq!(i64::from_value(Value::Int(7)), Ok(7));
        assert!(u32::from_value(Value::Int(-1)).is_err());
        assert_eq!(bool::from_value(Value::Int(1)), Ok(true));
        assert_eq!(Option::<String>::from_value(Value::Null), Ok(None));
        assert_eq!(i64::from_value(Value::Real(30.0)), Ok(30));
    }
}
