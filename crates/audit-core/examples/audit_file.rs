//! Audits an HTML file and prints the text report (the report of `seo-audit audit --format
//! text`):
//!
//! ```sh
//! cargo run -p seo-audit-core --example audit_file -- page.html [URL]
//! ```
//!
//! `URL` is the address the page is (or will be) served at: links, the canonical and the URL
//! rules are judged against it; without it the page is audited at `https://example.com/`.
//! A file has no HTTP facts, so the rules that need them (status, redirects, response time)
//! do not apply. Exits with status 2 when the file cannot be read.

use std::process::ExitCode;

use audit_core::{audit, report, HttpFacts, Page};

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: audit_file FILE.html [URL]");
        return ExitCode::from(2);
    };
    let url = args.next().unwrap_or_else(|| "https://example.com/".to_string());
    let html = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("error: cannot read {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let page = Page::parse(&url, &html, HttpFacts::new());
    print!("{}", report::text(&audit(page), false));
    ExitCode::SUCCESS
}
