//! `docs/AI-VISIBILITY.md` is generated from the check tables and must not go stale.
//! Regenerate with `UPDATE_DOCS=1 cargo test -p ai-visibility --test it methodology_doc::`.

use std::path::PathBuf;

use ai_visibility::{scan_methodology_markdown, Pillar, READINESS_POINTS, SCAN_CHECKS};

fn doc_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/AI-VISIBILITY.md")
}

#[test]
fn doc_is_current() {
    let generated = scan_methodology_markdown();
    let path = doc_path();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &generated).unwrap();
        return;
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == generated,
        "{} is stale; run UPDATE_DOCS=1 cargo test -p ai-visibility --test it methodology_doc::",
        path.display()
    );
}

#[test]
fn doc_lists_every_check_with_its_points() {
    let doc = scan_methodology_markdown();
    for c in SCAN_CHECKS {
        assert!(doc.contains(&format!("| `{}` | {} |", c.id, c.max)), "{} is documented", c.id);
    }
    for i in READINESS_POINTS {
        assert!(doc.contains(&format!("| `{}` | {} |", i.id, i.points)), "{} is documented", i.id);
    }
    for p in Pillar::ALL {
        assert!(doc.contains(&format!("(`{}`, 25 points)", p.key())));
    }
}
