//! Embeds every migration file into the crate, so that adding a migration is a matter of
//! adding its files: `migrations/sqlite/NNNN_name.sql` and `migrations/postgres/NNNN_name.sql`,
//! the same change written for each database. The lists are generated here, sorted by
//! version, checked to be contiguous from 1, and checked to name the same migrations.

use std::fmt::Write as _;
use std::path::Path;
use std::{env, fs};

fn main() {
    let root = Path::new(&env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR")).join("migrations");
    let sqlite = collect(&root.join("sqlite"));
    let postgres = collect(&root.join("postgres"));
    let names = |list: &[(u32, String, String)]| list.iter().map(|(v, n, _)| (*v, n.clone())).collect::<Vec<_>>();
    assert!(
        names(&sqlite) == names(&postgres),
        "migrations/sqlite and migrations/postgres must hold the same versions with the same names"
    );
    let out = format!(
        "pub const MIGRATIONS: &[Migration] = {};\npub const PG_MIGRATIONS: &[Migration] = {};\n",
        list(&sqlite),
        list(&postgres)
    );
    let target = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("migrations.rs");
    fs::write(target, out).expect("OUT_DIR is writable");
}

fn collect(dir: &Path) -> Vec<(u32, String, String)> {
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut found: Vec<(u32, String, String)> = Vec::new();
    for entry in fs::read_dir(dir).unwrap_or_else(|e| panic!("{} must exist: {e}", dir.display())) {
        let path = entry.expect("readable migrations directory").path();
        println!("cargo:rerun-if-changed={}", path.display());
        let Some(file) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        let Some(stem) = file.strip_suffix(".sql") else {
            continue;
        };
        let (number, name) =
            stem.split_once('_').unwrap_or_else(|| panic!("migration {file} must be named NNNN_name.sql"));
        let version: u32 = number.parse().unwrap_or_else(|_| panic!("migration {file} must start with a number"));
        found.push((version, name.to_owned(), path.display().to_string()));
    }
    found.sort();
    for (i, (version, name, _)) in found.iter().enumerate() {
        let expected = u32::try_from(i).expect("few migrations") + 1;
        assert_eq!(
            *version, expected,
            "migration versions must be contiguous from 1: found {version} ({name}) in {} where {expected} was expected",
            dir.display()
        );
    }
    found
}

fn list(found: &[(u32, String, String)]) -> String {
    let mut out = String::from("&[\n");
    for (version, name, path) in found {
        writeln!(out, "    Migration {{ version: {version}, name: {name:?}, sql: include_str!({path:?}) }},")
            .expect("writing to a String cannot fail");
    }
    out.push_str("]\n");
    out
}
