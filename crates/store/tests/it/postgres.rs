//! A fresh PostgreSQL database for a test, or `None` (the test then runs on SQLite only)
//! when no server answers and `SEO_AUDIT_REQUIRE_POSTGRES` is unset.
//!
//! The server is the one at `SEO_AUDIT_TEST_POSTGRES_URL` (default: a local server on
//! port 55999, user `postgres`); each call makes a new database on it.

use std::sync::atomic::{AtomicU32, Ordering};

pub fn fresh_database() -> Option<String> {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let admin = std::env::var("SEO_AUDIT_TEST_POSTGRES_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:55999/postgres".to_string());
    let mut client = match postgres::Client::connect(&admin, postgres::NoTls) {
        Ok(c) => c,
        Err(e) => {
            assert!(std::env::var_os("SEO_AUDIT_REQUIRE_POSTGRES").is_none(), "no PostgreSQL at {admin}: {e}");
            eprintln!("PostgreSQL tests skipped: no server at {admin} ({e})");
            return None;
        }
    };
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().subsec_nanos();
    let name = format!("store_it_{}_{}_{nanos}", std::process::id(), NEXT.fetch_add(1, Ordering::SeqCst));
    client.batch_execute(&format!("CREATE DATABASE {name}")).unwrap();
    let (base, _) = admin.rsplit_once('/').unwrap();
    Some(format!("{base}/{name}"))
}
