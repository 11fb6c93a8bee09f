//! The PostgreSQL forms of the migrations (`migrations/postgres/`) against the SQLite ones
//! (`migrations/sqlite/`), on a real PostgreSQL (`test_support::TempPostgres`; skipped when it
//! is not installed, unless `SEO_AUDIT_REQUIRE_POSTGRES=1`). Each file applies alone in one
//! transaction with `psql -v ON_ERROR_STOP=1 -1 -f`, as an operator would; and the schema the
//! two sets make is the same: tables, columns (INTEGER as BIGINT, REAL as DOUBLE PRECISION,
//! TEXT as TEXT COLLATE "C"), nullability, defaults, primary keys, foreign keys with their
//! ON DELETE, unique constraints, CHECK constraints and indexes with their names, columns and
//! conditions; every table SQLite gives a rowid has a `rowid` identity column. The store's own
//! application of the migrations is tested with the store.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use rusqlite::Connection;
use test_support::TempPostgres;

/// One table as both databases describe it, in SQLite's vocabulary mapped to PostgreSQL's.
#[derive(Debug, PartialEq)]
struct Table {
    /// (name, type, not null, default) in order; PostgreSQL's `rowid` left out.
    columns: Vec<(String, String, bool, Option<String>)>,
    primary_key: Vec<String>,
    /// (column, referenced table, referenced column, on delete).
    foreign_keys: BTreeSet<(String, String, String, String)>,
    unique: BTreeSet<String>,
    checks: BTreeSet<String>,
    /// name -> (columns, unique, condition).
    indexes: BTreeMap<String, (String, bool, String)>,
    /// SQLite: not WITHOUT ROWID; PostgreSQL: a `rowid` BIGINT identity column.
    rowid: bool,
}

fn migrations(backend: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations").join(backend);
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "sql"))
        .collect();
    files.sort();
    files
}

/// Lower case, without casts, brackets or spaces, `x = ANY (ARRAY[a, b])` as `x in a,b`: the
/// same text for a condition as SQLite keeps it and as PostgreSQL prints it.
fn normalize(condition: &str) -> String {
    let casts = regex_lite::Regex::new(r"::[a-z]+( precision)?(\[\])?").unwrap();
    let mut text = casts.replace_all(&condition.to_lowercase(), "").into_owned();
    text.retain(|c| !c.is_whitespace() && c != '(' && c != ')');
    text.replace("=anyarray[", "in").replace(']', "")
}

/// The text inside each `CHECK ( ... )` of a CREATE TABLE statement.
fn checks_of(sql: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut rest = sql;
    while let Some(at) = rest.find("CHECK (") {
        let body = &rest[at + "CHECK (".len()..];
        let mut depth = 1;
        let end = body
            .char_indices()
            .find_map(|(i, c)| {
                depth += match c {
                    '(' => 1,
                    ')' => -1,
                    _ => 0,
                };
                (depth == 0).then_some(i)
            })
            .expect("balanced CHECK");
        found.insert(normalize(&body[..end]));
        rest = &body[end..];
    }
    found
}

fn unquote(default: &str) -> String {
    default.trim_matches('\'').to_owned()
}

fn sqlite_schema() -> BTreeMap<String, Table> {
    let conn = Connection::open_in_memory().unwrap();
    for file in migrations("sqlite") {
        conn.execute_batch(&fs::read_to_string(&file).unwrap()).unwrap();
    }
    let tables: Vec<(String, String)> = conn
        .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        .unwrap()
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let strings = |sql: &str, table: &str, pick: &dyn Fn(&rusqlite::Row<'_>) -> rusqlite::Result<Vec<String>>| {
        let mut stmt = conn.prepare(&sql.replace("{t}", table)).unwrap();
        stmt.query_map([], |row| pick(row)).unwrap().collect::<Result<Vec<_>, _>>().unwrap()
    };
    let mut schema = BTreeMap::new();
    for (name, sql) in tables {
        let info = strings("PRAGMA table_info({t})", &name, &|r| {
            Ok(vec![
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, i64>(3)?.to_string(),
                r.get::<_, Option<String>>(4)?.unwrap_or_default(),
                r.get::<_, i64>(5)?.to_string(),
            ])
        });
        let columns = info
            .iter()
            .map(|c| {
                let ty = match c[1].as_str() {
                    "INTEGER" => "bigint",
                    "TEXT" => "text",
                    "REAL" => "double precision",
                    "BLOB" => "bytea",
                    other => panic!("{name}.{}: type {other} has no mapping", c[0]),
                };
                let not_null = c[2] == "1" || c[4] != "0";
                let default = (!c[3].is_empty()).then(|| unquote(&c[3]));
                (c[0].clone(), ty.to_owned(), not_null, default)
            })
            .collect();
        let mut primary_key: Vec<(i64, String)> =
            info.iter().filter(|c| c[4] != "0").map(|c| (c[4].parse().unwrap(), c[0].clone())).collect();
        primary_key.sort();
        let foreign_keys =
            strings("PRAGMA foreign_key_list({t})", &name, &|r| Ok(vec![r.get(3)?, r.get(2)?, r.get(4)?, r.get(6)?]))
                .into_iter()
                .map(|f| (f[0].clone(), f[1].clone(), f[2].clone(), f[3].clone()))
                .collect();
        let (mut unique, mut indexes) = (BTreeSet::new(), BTreeMap::new());
        for index in strings("PRAGMA index_list({t})", &name, &|r| {
            Ok(vec![r.get(1)?, r.get::<_, i64>(2)?.to_string(), r.get(3)?])
        }) {
            let columns = strings("PRAGMA index_info({t})", &index[0], &|r| Ok(vec![r.get(2)?])).concat().join(",");
            match index[2].as_str() {
                "pk" => {}
                "u" => {
                    unique.insert(columns);
                }
                _ => {
                    let sql: String = conn
                        .query_row("SELECT sql FROM sqlite_master WHERE name = ?1", [&index[0]], |r| r.get(0))
                        .unwrap();
                    let condition = sql.split_once(" WHERE ").map(|(_, c)| normalize(c)).unwrap_or_default();
                    indexes.insert(index[0].clone(), (columns, index[1] == "1", condition));
                }
            }
        }
        let table = Table {
            columns,
            primary_key: primary_key.into_iter().map(|(_, c)| c).collect(),
            foreign_keys,
            unique,
            checks: checks_of(&sql),
            indexes,
            rowid: !sql.contains("WITHOUT ROWID"),
        };
        schema.insert(name, table);
    }
    schema
}

fn postgres_schema(pg: &TempPostgres, url: &str) -> BTreeMap<String, Table> {
    let rows = |sql: &str, table: &str| -> Vec<Vec<String>> {
        let out = pg.psql(url, &sql.replace("{t}", table));
        out.lines().filter(|l| !l.is_empty()).map(|l| l.split('|').map(str::to_owned).collect()).collect()
    };
    let mut schema = BTreeMap::new();
    for table in rows("SELECT tablename FROM pg_tables WHERE schemaname = 'public'", "") {
        let name = &table[0];
        let mut rowid = false;
        let mut columns = Vec::new();
        for c in rows(
            "SELECT column_name, data_type, is_nullable, coalesce(column_default, ''), coalesce(collation_name, ''), \
             is_identity, coalesce(identity_generation, '') FROM information_schema.columns \
             WHERE table_schema = 'public' AND table_name = '{t}' ORDER BY ordinal_position",
            name,
        ) {
            if c[1] == "text" {
                assert_eq!(c[4], "C", "{name}.{}: every text column collates \"C\" (byte order, as SQLite)", c[0]);
            }
            if c[0] == "rowid" {
                assert_eq!(
                    (c[1].as_str(), c[5].as_str(), c[6].as_str()),
                    ("bigint", "YES", "BY DEFAULT"),
                    "{name}.rowid"
                );
                rowid = true;
                continue;
            }
            let casts = regex_lite::Regex::new(r"::[a-z]+( precision)?$").unwrap();
            let default = (!c[3].is_empty()).then(|| unquote(&casts.replace(&c[3], "")));
            columns.push((c[0].clone(), c[1].clone(), c[2] == "NO", default));
        }
        let primary_key = rows(
            "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey) \
             WHERE i.indrelid = 'public.{t}'::regclass AND i.indisprimary ORDER BY array_position(i.indkey::int2[], a.attnum)",
            name,
        )
        .concat();
        let foreign_keys = rows(
            "SELECT a.attname, cl.relname, af.attname, c.confdeltype, array_length(c.conkey, 1) FROM pg_constraint c \
             JOIN pg_class cl ON cl.oid = c.confrelid \
             JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1] \
             JOIN pg_attribute af ON af.attrelid = c.confrelid AND af.attnum = c.confkey[1] \
             WHERE c.contype = 'f' AND c.conrelid = 'public.{t}'::regclass",
            name,
        )
        .into_iter()
        .map(|f| {
            assert_eq!(f[4], "1", "{name}: foreign keys of one column, as in SQLite");
            let on_delete = match f[3].as_str() {
                "a" => "NO ACTION",
                "r" => "RESTRICT",
                "c" => "CASCADE",
                "n" => "SET NULL",
                "d" => "SET DEFAULT",
                other => panic!("confdeltype {other}"),
            };
            (f[0].clone(), f[1].clone(), f[2].clone(), on_delete.to_owned())
        })
        .collect();
        let unique = rows(
            "SELECT array_to_string(array(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY k(n, o) \
             JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.o), ',') \
             FROM pg_constraint c WHERE c.contype = 'u' AND c.conrelid = 'public.{t}'::regclass",
            name,
        )
        .concat()
        .into_iter()
        .collect();
        let checks = rows(
            "SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE contype = 'c' AND conrelid = 'public.{t}'::regclass",
            name,
        )
        .concat()
        .iter()
        .map(|c| normalize(c.strip_prefix("CHECK ").expect("CHECK (...)")))
        .collect();
        let indexes = rows(
            "SELECT i.relname, ix.indisunique, array_to_string(array(SELECT pg_get_indexdef(ix.indexrelid, k + 1, true) \
             FROM generate_subscripts(ix.indkey, 1) k ORDER BY k), ','), coalesce(pg_get_expr(ix.indpred, ix.indrelid, true), '') \
             FROM pg_index ix JOIN pg_class i ON i.oid = ix.indexrelid WHERE ix.indrelid = 'public.{t}'::regclass \
             AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = ix.indexrelid)",
            name,
        )
        .into_iter()
        // Every SQLite index ends with the row's rowid implicitly; PostgreSQL's `rowid` is a
        // column of its own, named last where an index is walked in row order.
        .map(|i| {
            let columns = i[2].strip_suffix(",rowid").unwrap_or(&i[2]).to_string();
            (i[0].clone(), (columns, i[1] == "t", normalize(&i[3])))
        })
        .collect();
        schema.insert(name.clone(), Table { columns, primary_key, foreign_keys, unique, checks, indexes, rowid });
    }
    schema
}

#[test]
fn every_postgres_migration_applies_and_makes_the_sqlite_schema() {
    let Some(pg) = TempPostgres::shared() else { return };
    let (sqlite, postgres) = (migrations("sqlite"), migrations("postgres"));
    let names = |files: &[PathBuf]| -> Vec<String> {
        files.iter().map(|f| f.file_name().unwrap().to_string_lossy().into_owned()).collect()
    };
    assert_eq!(names(&postgres), names(&sqlite), "one PostgreSQL file per SQLite migration, same version and name");

    let url = pg.fresh_database();
    for file in &postgres {
        pg.psql_file(&url, file).unwrap_or_else(|e| panic!("{} does not apply: {e}", file.display()));
    }
    let (want, got) = (sqlite_schema(), postgres_schema(pg, &url));
    assert_eq!(got.keys().collect::<Vec<_>>(), want.keys().collect::<Vec<_>>(), "the same tables");
    for (name, table) in &want {
        assert_eq!(&got[name], table, "table {name}: PostgreSQL (left) against SQLite (right)");
    }
    assert!(want.len() >= 16 && want.values().any(|t| !t.rowid), "the comparison saw the whole schema");
}

/// 0004 marks the audits stored before it public when they have no owner, on both.
#[test]
fn the_data_migration_of_0004_does_the_same_on_postgres() {
    let Some(pg) = TempPostgres::shared() else { return };
    let seed = "INSERT INTO users (id, tier, created_at) VALUES ('u1', 'free', '2025-01-01T00:00:00.000Z');
        INSERT INTO audits (id, url, final_url, host, path, score, ruleset_version, result_json, user_id, created_at)
        VALUES ('a1', 'u', 'u', 'h', '/', 1, 'v', '{}', 'u1', '2025-01-01T00:00:00.000Z'),
               ('a2', 'u', 'u', 'h', '/', 1, 'v', '{}', NULL, '2025-01-01T00:00:00.000Z');";
    let read = "SELECT id, public FROM audits ORDER BY id";

    let conn = Connection::open_in_memory().unwrap();
    let url = pg.fresh_database();
    for (i, (lite, post)) in migrations("sqlite").iter().zip(migrations("postgres")).enumerate() {
        if i == 3 {
            conn.execute_batch(seed).unwrap();
            pg.psql(&url, seed);
        }
        conn.execute_batch(&fs::read_to_string(lite).unwrap()).unwrap();
        pg.psql_file(&url, &post).unwrap();
    }
    let lite: Vec<String> = conn
        .prepare(read)
        .unwrap()
        .query_map([], |r| Ok(format!("{}|{}", r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(lite, ["a1|0", "a2|1"]);
    assert_eq!(pg.psql(&url, read).lines().collect::<Vec<_>>(), lite);
}
