//! Prints what the near-copy rules read of a saved HTML page: its own text (the text of its
//! one main landmark, else its visible text, without its nav, header and footer), white space
//! collapsed, then its content signature. For checking the crawl's reading of real pages
//! against another reader's (docs/PERFORMANCE.md, "Real sites").
//!
//!     cargo run --release -p crawl --example own_text -- PAGE.html [URL]

use audit_core::{HttpFacts, Page};

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: own_text PAGE.html [URL]");
        std::process::exit(2);
    };
    let url = args.next().unwrap_or_else(|| "http://127.0.0.1/".to_string());
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    let page = Page::parse(&url, &bytes, HttpFacts::new());
    let text = &page.visible_text;
    let mut at = 0;
    let mut own = String::new();
    for &(start, end) in &page.boilerplate {
        own.push_str(text.get(at..start).unwrap_or_default());
        own.push(' ');
        at = at.max(end);
    }
    own.push_str(text.get(at..).unwrap_or_default());
    println!("{}", own.split_whitespace().collect::<Vec<_>>().join(" "));
    match crawl::content_signature(text, &page.boilerplate) {
        Some(signature) => println!("signature {signature:016x}"),
        None => println!("no signature (fewer than {} words)", crawl::MIN_SIGNATURE_WORDS),
    }
}
