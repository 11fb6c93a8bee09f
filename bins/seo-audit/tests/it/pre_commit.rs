//! The pre-commit hook of `.pre-commit-hooks.yaml` (docs/API.md, "Command line audits for
//! CI"), run by the real `pre-commit` tool (PyPI `pre-commit`, installed by `.ci/run`) with
//! `pre-commit try-repo` over a throwaway git repository: a changed HTML file that scores
//! under the hook's threshold fails the commit, one that passes does not. Without the tool
//! the test skips with a message, unless `SEO_AUDIT_REQUIRE_PRE_COMMIT=1` (CI sets it).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A page scoring above the hook's default threshold (50).
const GOOD: &str = "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">\
    <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
    <title>Copper kettles: care, history and repair</title>\
    <meta name=\"description\" content=\"How to care for a copper kettle, where copper kettles come from, and how to \
    repair one that leaks at the seam.\"></head><body><h1>Copper kettles</h1>\
    <p>Copper kettles heat quickly and evenly.</p><img src=\"/k.jpg\" alt=\"A copper kettle\"></body></html>";

/// A page scoring well under it (39 with ruleset 1.8.0): kept out of the index, and no title,
/// heading, language or viewport.
const BAD: &str =
    "<html><head><meta name=\"robots\" content=\"noindex\"></head><body><p>hi</p><img src=a.jpg></body></html>";

/// `pre-commit` if it runs; `None` (the test skips) if not, unless required.
fn pre_commit() -> Option<&'static str> {
    let runs = Command::new("pre-commit").arg("--version").output().is_ok_and(|o| o.status.success());
    if runs {
        return Some("pre-commit");
    }
    let required = std::env::var("SEO_AUDIT_REQUIRE_PRE_COMMIT").as_deref() == Ok("1");
    assert!(!required, "SEO_AUDIT_REQUIRE_PRE_COMMIT=1 but `pre-commit --version` does not run");
    eprintln!(
        "skipped: the pre-commit tool is not installed (`python3 -m pip install pre-commit`; \
         SEO_AUDIT_REQUIRE_PRE_COMMIT=1 makes this fail)"
    );
    None
}

/// The repository whose `.pre-commit-hooks.yaml` is tried.
fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("the repository root")
}

/// A command in `dir` with this build's `seo-audit` first on PATH, pre-commit's cache in
/// `home`, a git identity, and none of the tests' `SEO_AUDIT_*` settings.
fn in_repo(program: &str, dir: &Path, home: &Path) -> Command {
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_seo-audit")).parent().expect("the binary's directory").to_path_buf();
    let path = std::env::var_os("PATH").unwrap_or_default();
    let path = std::env::join_paths(std::iter::once(bin_dir).chain(std::env::split_paths(&path))).expect("PATH");
    let mut cmd = Command::new(program);
    for (name, _) in std::env::vars_os() {
        if name.as_encoded_bytes().starts_with(b"SEO_AUDIT_") {
            cmd.env_remove(name);
        }
    }
    cmd.current_dir(dir)
        .env("PATH", path)
        .env("PRE_COMMIT_HOME", home)
        .env("SEO_AUDIT_DATA", home)
        .env("GIT_AUTHOR_NAME", "test")
        .env("GIT_AUTHOR_EMAIL", "test@example.com")
        .env("GIT_COMMITTER_NAME", "test")
        .env("GIT_COMMITTER_EMAIL", "test@example.com");
    cmd
}

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

#[test]
fn the_pre_commit_hook_fails_a_page_under_its_threshold_and_passes_a_good_one() {
    let Some(tool) = pre_commit() else { return };
    let work = tempfile::tempdir().expect("tempdir");
    let (site, home) = (work.path().join("site"), work.path().join("home"));
    std::fs::create_dir_all(site.join("pages")).expect("mkdir");
    std::fs::create_dir_all(&home).expect("mkdir");
    std::fs::write(site.join("pages/good.html"), GOOD).expect("write");
    std::fs::write(site.join("pages/bad.html"), BAD).expect("write");
    std::fs::write(site.join("notes.txt"), "not a page").expect("write");
    for args in [&["init", "-q", "."][..], &["add", "."][..]] {
        let out = in_repo("git", &site, &home).args(args).output().expect("run git");
        assert!(out.status.success(), "git {args:?}: {}", text(&out));
    }
    let root = repo_root();
    let try_hook = |files: &[&str]| {
        in_repo(tool, &site, &home)
            .arg("try-repo")
            .arg(&root)
            .arg("seo-audit")
            .arg("--files")
            .args(files)
            .output()
            .expect("run pre-commit")
    };

    let good = try_hook(&["pages/good.html"]);
    assert!(good.status.success(), "{}", text(&good));
    assert!(text(&good).contains("Passed"), "{}", text(&good));

    let both = try_hook(&["pages/good.html", "pages/bad.html", "notes.txt"]);
    assert_eq!(both.status.code(), Some(1), "{}", text(&both));
    let said = text(&both);
    assert!(said.contains("Failed"), "{said}");
    // Each HTML file was audited, the text file not at all.
    assert!(said.contains("pages/good.html\nScore ") && said.contains("pages/bad.html\nScore "), "{said}");
    assert!(said.contains("[title-missing]"), "{said}");
    assert!(!said.contains("notes.txt\nScore"), "{said}");
}
