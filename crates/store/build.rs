//! Embeds every `migrations/sqlite/NNNN_name.sql` file into the crate, so that adding a
//! migration is a matter of adding the file: the list is generated here, sorted by
//! version, and checked to be contiguous from 1.

use std::fmt::Write as _;
use std::path::Path;
use std::{env, fs};

fn main() {
    let dir = Path::new(&env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"))
        .join("migrations")
        .join("sqlite");
    println!("cargo:rerun-if-changed={}", dir.display());

    let mut found: Vec<(u32, String, String)> = Vec::new();
    for entry in fs::read_dir(&dir).expect("crates/store/migrations/sqlite must exist") {
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
            "migration versions must be contiguous from 1: found {version} ({name}) where {expected} was expected"
        );
    }

    let mut out = String::from("&[\n");
    for (version, name, path) in &found {
        writeln!(out, "    Migration {{ version: {version}, name: {name:?}, sql: include_str!({path:?}) }},")
            .expect("writing to a String cannot fail");
    }
    out.push_str("]\n");
    let target = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("migrations.rs");
    fs::write(target, out).expect("OUT_DIR is writable");
}
