//! The two databases the store runs on, for tests that must hold on both: [`both!`] turns
//! one test body into a `sqlite` and a `postgres` test, [`fresh`] opens an empty store on
//! either (SQLite in a temporary directory; PostgreSQL as a new database of the test
//! process's server, `test_support::postgres`), and [`Raw`] looks at what is really stored
//! through a connection of its own.

use store::{Database, Store, StoreOptions};
use tempfile::TempDir;
use test_support::TempPostgres;

/// Which database a test runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// An empty store of one backend, with what keeps it alive.
pub struct Fresh {
    pub store: Store,
    /// The SQLite file's directory.
    pub dir: Option<TempDir>,
    /// The PostgreSQL database's URL.
    pub url: Option<String>,
}

impl Fresh {
    /// How to open the same database again.
    pub fn database(&self) -> Database {
        match (&self.url, &self.dir) {
            (Some(url), _) => Database::Postgres(url.clone()),
            (None, Some(dir)) => Database::Sqlite(db_file(dir)),
            (None, None) => unreachable!("a fresh store has a file or a URL"),
        }
    }

    /// Another store on the same database (another process's, as far as the database can
    /// tell: its own pool).
    pub fn open_again(&self) -> Store {
        Store::open_database(&self.database(), StoreOptions::default()).unwrap().0
    }

    /// A plain connection to the same database.
    pub fn raw(&self) -> Raw {
        match &self.url {
            Some(url) => Raw::Pg(std::cell::RefCell::new(postgres::Client::connect(url, postgres::NoTls).unwrap())),
            None => Raw::Lite(rusqlite::Connection::open(self.store.path().unwrap()).unwrap()),
        }
    }
}

fn db_file(dir: &TempDir) -> std::path::PathBuf {
    dir.path().join("data").join(store::DB_FILE_NAME)
}

/// An empty, migrated store on `backend`; `None` (the test skips, with one message from
/// `test_support`) when PostgreSQL is wanted and this machine has none, unless the
/// `SEO_AUDIT_REQUIRE_POSTGRES` switch makes that a failure.
pub fn fresh(backend: Backend) -> Option<Fresh> {
    match backend {
        Backend::Sqlite => {
            let dir = tempfile::tempdir().unwrap();
            let store = Store::open(db_file(&dir)).unwrap();
            Some(Fresh { store, dir: Some(dir), url: None })
        }
        Backend::Postgres => {
            let server = TempPostgres::shared()?;
            let url = server.fresh_database();
            let store = Store::connect(&url).unwrap();
            Some(Fresh { store, dir: None, url: Some(url) })
        }
    }
}

/// A connection of the test's own to the store's database.
pub enum Raw {
    Lite(rusqlite::Connection),
    Pg(std::cell::RefCell<postgres::Client>),
}

/// One column value as text (numbers written out), `None` for NULL.
fn pg_text(row: &postgres::Row, i: usize) -> Option<String> {
    use postgres::types::Type;
    let ty = row.columns()[i].type_().clone();
    match ty {
        Type::INT8 => row.get::<_, Option<i64>>(i).map(|n| n.to_string()),
        Type::INT4 => row.get::<_, Option<i32>>(i).map(|n| n.to_string()),
        Type::BOOL => row.get::<_, Option<bool>>(i).map(|b| i64::from(b).to_string()),
        Type::FLOAT8 => row.get::<_, Option<f64>>(i).map(|n| n.to_string()),
        _ => row.get::<_, Option<String>>(i),
    }
}

impl Raw {
    /// Runs statements (no result).
    pub fn exec(&self, sql: &str) {
        match self {
            Raw::Lite(c) => c.execute_batch(sql).unwrap(),
            Raw::Pg(c) => c.borrow_mut().batch_execute(sql).unwrap(),
        }
    }

    /// Every row of a query, each column as text (`None` for NULL).
    pub fn rows(&self, sql: &str) -> Vec<Vec<Option<String>>> {
        match self {
            Raw::Lite(c) => {
                let mut stmt = c.prepare(sql).unwrap();
                let n = stmt.column_count();
                stmt.query_map([], |row| {
                    (0..n)
                        .map(|i| {
                            Ok(match row.get_ref(i)? {
                                rusqlite::types::ValueRef::Null => None,
                                rusqlite::types::ValueRef::Integer(v) => Some(v.to_string()),
                                rusqlite::types::ValueRef::Real(v) => Some(v.to_string()),
                                rusqlite::types::ValueRef::Text(t) => Some(String::from_utf8_lossy(t).into_owned()),
                                rusqlite::types::ValueRef::Blob(b) => Some(String::from_utf8_lossy(b).into_owned()),
                            })
                        })
                        .collect::<rusqlite::Result<Vec<_>>>()
                })
                .unwrap()
                .collect::<rusqlite::Result<Vec<_>>>()
                .unwrap()
            }
            Raw::Pg(c) => {
                let rows = c.borrow_mut().query(sql, &[]).unwrap();
                rows.iter().map(|row| (0..row.len()).map(|i| pg_text(row, i)).collect()).collect()
            }
        }
    }

    /// The first column of the first row, as text.
    pub fn text(&self, sql: &str) -> Option<String> {
        self.rows(sql).into_iter().next().and_then(|row| row.into_iter().next().flatten())
    }

    /// The first column of the first row, as a number.
    pub fn int(&self, sql: &str) -> i64 {
        let text = self.text(sql).unwrap_or_else(|| panic!("no value from {sql}"));
        text.parse().unwrap_or_else(|_| panic!("{text:?} from {sql} is not a number"))
    }

    /// Rows in `table`.
    pub fn count(&self, table: &str) -> i64 {
        self.int(&format!("SELECT CAST(COUNT(*) AS BIGINT) FROM {table}"))
    }

    /// Whether the schema has this table.
    pub fn has_table(&self, table: &str) -> bool {
        let sql = match self {
            Raw::Lite(_) => format!("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = {}", q(table)),
            Raw::Pg(_) => format!(
                "SELECT CAST(COUNT(*) AS BIGINT) FROM information_schema.tables \
                 WHERE table_schema = current_schema() AND table_name = {}",
                q(table)
            ),
        };
        self.int(&sql) == 1
    }
}

/// `s` as an SQL string literal.
pub fn q(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

/// One test body, run as two tests: `NAME::sqlite` and `NAME::postgres`. The body gets the
/// [`Backend`] under the name given.
macro_rules! both {
    ($(#[$meta:meta])* fn $name:ident($backend:ident) $body:block) => {
        $(#[$meta])*
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            fn test_body($backend: $crate::backend::Backend) $body

            #[test]
            fn sqlite() {
                test_body($crate::backend::Backend::Sqlite)
            }

            #[test]
            fn postgres() {
                test_body($crate::backend::Backend::Postgres)
            }
        }
    };
}
pub(crate) use both;
