use std::path::PathBuf;

use rusqlite::ErrorCode;

/// Everything that can go wrong in the store.
///
/// Callers branch on the predicates ([`Error::is_not_found`], [`Error::is_unavailable`],
/// [`Error::is_conflict`], [`Error::is_invalid`]) rather than on variants, so variants can
/// be refined without breaking them.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A row the caller named does not exist (a revoked key counts as absent).
    #[error("{entity} not found: {key}")]
    NotFound {
        /// What was looked for: `user`, `api key`, `webhook`, ...
        entity: &'static str,
        /// The id or prefix the caller gave.
        key: String,
    },
    /// The caller passed a value the store refuses (unknown tier or scope, bad URL, ...).
    #[error("invalid {field}: {reason}")]
    Invalid {
        /// The offending field.
        field: &'static str,
        /// Why it was refused.
        reason: String,
    },
    /// A key prefix matches more than one key; the caller must use the id.
    #[error("key prefix {0} matches more than one key, use the key id")]
    Ambiguous(String),
    /// The database was migrated by a newer build than this one.
    #[error("database schema version {found} is newer than this build supports ({supported})")]
    SchemaTooNew {
        /// Highest version recorded in `schema_migrations`.
        found: u32,
        /// Highest version embedded in this build.
        supported: u32,
    },
    /// A migration failed and was rolled back.
    #[error("migration {version} ({name}) failed: {source}")]
    Migration {
        /// Version number of the migration.
        version: u32,
        /// Name part of its file name.
        name: &'static str,
        /// The database's error.
        #[source]
        source: Box<Error>,
    },
    /// A stored value could not be decoded (bad JSON or timestamp written by hand).
    #[error("corrupt value in {table}: {reason}")]
    Corrupt {
        /// Table holding the value.
        table: &'static str,
        /// What could not be decoded.
        reason: String,
    },
    /// The directory that should hold the database file could not be created.
    #[error("cannot create the data directory {path}: {source}")]
    Io {
        /// The directory.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// No pooled connection could be had (the database cannot be opened, or every
    /// connection stayed busy past the pool timeout).
    #[error("database connection pool: {0}")]
    Pool(#[from] r2d2::Error),
    /// An SQLite write waited for the other writes of the process past the store's
    /// `write_wait` ([`crate::StoreOptions::write_wait`]), or was asked for by the thread
    /// that holds the writer's turn.
    #[error("database busy: {0}")]
    Busy(String),
    /// Any other SQLite error.
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// Any other PostgreSQL error (the server's message, or a lost connection).
    #[error("database error: {}", pg_message(.0))]
    Postgres(#[from] postgres::Error),
    /// A query that always returns a row returned none.
    #[error("database error: the query returned no row")]
    NoRow,
    /// A column held a value of another type than the code reads.
    #[error("database error: column {idx}: {reason}")]
    Column {
        /// The column, from 0.
        idx: usize,
        /// What was found.
        reason: String,
    },
    /// The SQLite file is damaged: a query met a corrupt page, or the integrity check
    /// ([`crate::Store::check_integrity`]) found a fault. Reported by [`crate::Store::ping`]
    /// until the file is replaced ([`crate::Store::reopen`]) or the process restarts.
    #[error("the database file is damaged: {0}")]
    Damaged(String),
    /// The failure of one write made for several callers ([`crate::Store::insert_audits`]):
    /// each of them gets it.
    #[error("{0}")]
    Shared(std::sync::Arc<Error>),
}

/// Shorthand for results of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// The named row does not exist (the server answers 404, or 401 for keys).
    pub fn is_not_found(&self) -> bool {
        if let Error::Shared(e) = self {
            return e.is_not_found();
        }
        matches!(self, Error::NotFound { .. }) || matches!(self, Error::Sqlite(rusqlite::Error::QueryReturnedNoRows))
    }

    /// The database cannot be opened, read or written: missing or unwritable file, not a
    /// database, corrupt, disk full, locked past the busy timeout, pool exhausted. The
    /// server reports `degraded` on the status endpoint and 503/500 elsewhere.
    pub fn is_unavailable(&self) -> bool {
        match self {
            Error::Io { .. } | Error::Pool(_) | Error::Damaged(_) | Error::Busy(_) => true,
            Error::Sqlite(e) => sqlite_unavailable(e),
            Error::Postgres(e) => pg_unavailable(e),
            Error::Migration { source, .. } => source.is_unavailable(),
            Error::Shared(e) => e.is_unavailable(),
            _ => false,
        }
    }

    /// The database file itself is damaged (SQLite's `SQLITE_CORRUPT` or `SQLITE_NOTADB`,
    /// or a failed integrity check), as opposed to being busy or out of reach: the status
    /// endpoints say `corrupt` (docs/API.md, "GET /api/status").
    pub fn is_damaged(&self) -> bool {
        match self {
            Error::Damaged(_) => true,
            Error::Sqlite(rusqlite::Error::SqliteFailure(f, _)) => {
                matches!(f.code, ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase)
            }
            // The pool reports a connection it could not open by the text of SQLite's error.
            Error::Pool(e) => {
                let text = e.to_string();
                text.contains("malformed") || text.contains("not a database")
            }
            Error::Migration { source, .. } => source.is_damaged(),
            Error::Shared(e) => e.is_damaged(),
            _ => false,
        }
    }

    /// A uniqueness rule was violated (same monitor URL twice, same keyword twice).
    pub fn is_conflict(&self) -> bool {
        match self {
            Error::Sqlite(rusqlite::Error::SqliteFailure(e, _)) => {
                e.code == ErrorCode::ConstraintViolation
                    && matches!(
                        e.extended_code,
                        rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE | rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY
                    )
            }
            Error::Postgres(e) => e.code() == Some(&postgres::error::SqlState::UNIQUE_VIOLATION),
            Error::Shared(e) => e.is_conflict(),
            _ => false,
        }
    }

    /// A constraint of the schema refused the write (a foreign key, a check, a uniqueness).
    pub(crate) fn is_constraint_violation(&self) -> bool {
        match self {
            Error::Sqlite(rusqlite::Error::SqliteFailure(e, _)) => e.code == ErrorCode::ConstraintViolation,
            Error::Postgres(e) => e.code().is_some_and(|c| c.code().starts_with("23")),
            _ => false,
        }
    }

    /// A PostgreSQL transaction lost a race with another one (serialization failure or
    /// deadlock) and may simply be run again.
    pub(crate) fn is_retryable(&self) -> bool {
        match self {
            Error::Postgres(e) => matches!(
                e.code(),
                Some(c) if *c == postgres::error::SqlState::T_R_SERIALIZATION_FAILURE
                    || *c == postgres::error::SqlState::T_R_DEADLOCK_DETECTED
            ),
            Error::Migration { source, .. } => source.is_retryable(),
            _ => false,
        }
    }

    /// The caller's input was refused before it reached the database.
    pub fn is_invalid(&self) -> bool {
        match self {
            Error::Shared(e) => e.is_invalid(),
            _ => matches!(self, Error::Invalid { .. } | Error::Ambiguous(_)),
        }
    }

    pub(crate) fn not_found(entity: &'static str, key: impl Into<String>) -> Self {
        Error::NotFound { entity, key: key.into() }
    }

    pub(crate) fn invalid(field: &'static str, reason: impl Into<String>) -> Self {
        Error::Invalid { field, reason: reason.into() }
    }

    pub(crate) fn corrupt(table: &'static str, reason: impl Into<String>) -> Self {
        Error::Corrupt { table, reason: reason.into() }
    }
}

/// A PostgreSQL error with its cause: the client's own text ("error connecting to server")
/// says little without it ("Connection refused", the server's message).
fn pg_message(e: &postgres::Error) -> String {
    match std::error::Error::source(e) {
        Some(cause) => format!("{e}: {cause}"),
        None => e.to_string(),
    }
}

/// A PostgreSQL error that means the server cannot be reached or used: no connection
/// (refused, closed, timed out: no SQLSTATE), or a state of the server itself (starting,
/// shutting down, out of connections, disk full).
fn pg_unavailable(e: &postgres::Error) -> bool {
    let Some(code) = e.code() else {
        // No SQLSTATE: the connection failed, closed or timed out, unless the error is a
        // value the code could not convert (a bug, not an outage).
        let text = e.to_string();
        return !(text.starts_with("error serializing") || text.starts_with("error deserializing"));
    };
    let class = &code.code()[..2];
    // 08 connection exception, 53 insufficient resources, 57 operator intervention
    // (admin shutdown, cannot connect now), 58 system error.
    matches!(class, "08" | "53" | "57" | "58")
}

fn sqlite_unavailable(e: &rusqlite::Error) -> bool {
    match e {
        rusqlite::Error::SqliteFailure(f, _) => matches!(
            f.code,
            ErrorCode::CannotOpen
                | ErrorCode::NotADatabase
                | ErrorCode::DatabaseCorrupt
                | ErrorCode::DiskFull
                | ErrorCode::SystemIoFailure
                | ErrorCode::PermissionDenied
                | ErrorCode::ReadOnly
                | ErrorCode::DatabaseBusy
                | ErrorCode::DatabaseLocked
                | ErrorCode::OutOfMemory
                | ErrorCode::FileLockingProtocolFailed
                | ErrorCode::NoLargeFileSupport
        ),
        rusqlite::Error::InvalidPath(_) => true,
        _ => false,
    }
}
