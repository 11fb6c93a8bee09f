//! Prints what the near-copy rules read of a saved HTML page: the words of its own text (the
//! text of its one main landmark, else its visible text, without its nav, header and footer),
//! lower case and split where the signature splits them (on every character that is not
//! alphanumeric), one line, space-separated; then its content signature. For checking the
//! crawl's reading of real pages against another reader's (docs/PERFORMANCE.md, "Real sites").
//!
//!     cargo run --release -p crawl --example own_text -- PAGE.html [URL] [CONTENT_TYPE]
//!
//! CONTENT_TYPE is the `Content-Type` the page was served with (its charset decides the
//! decoding before the document's own `<meta charset>`), none by default.

use audit_core::{HttpFacts, Page};

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: own_text PAGE.html [URL] [CONTENT_TYPE]");
        std::process::exit(2);
    };
    let url = args.next().unwrap_or_else(|| "http://127.0.0.1/".to_string());
    let mut http = HttpFacts::new().with_status(200);
    if let Some(content_type) = args.next() {
        http = http.with_header("content-type", content_type);
    }
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    let page = Page::parse(&url, &bytes, http);
    let text = &page.visible_text;
    // The pieces `content_signature` reads, a word break between two.
    let own = crawl::own_text_pieces(text, &page.boilerplate).join(" ");
    let lower = own.to_lowercase();
    let words: Vec<&str> = lower.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    println!("{}", words.join(" "));
    match crawl::content_signature(text, &page.boilerplate) {
        Some(signature) => println!("signature {signature:016x}"),
        None => println!("no signature (fewer than {} words)", crawl::MIN_SIGNATURE_WORDS),
    }
}
