//! What the robots.txt files of recent audits say, read once per file.
//!
//! The fetcher caches a site's robots.txt as bytes, per origin (`fetch.robots_cache_ttl_s`,
//! 60 s by default), and hands every audit of the site the same bytes ([`bytes::Bytes`]
//! shares one buffer between clones). Reading them is CPU work that grows with the file:
//! 0.56 ms for github.com's 31 KB, 1.1 ms for a 170 KB file, about 13 ms at the fetcher's
//! 500 KiB limit, more than the audit of a page takes. The memo keeps what a file says beside
//! the bytes it was read from, and an audit handed the very same buffer (the same address
//! and length, which the memo's own reference keeps from being freed and reused) takes the
//! reading instead of reading again. A file fetched anew is a new buffer, and is read again.
//!
//! Bounded: at most [`MAX_FILES`] files and [`MAX_BYTES`] of their text, each for at most
//! [`MAX_AGE`], the oldest entry dropped first; a file larger than the text bound is read and
//! not kept. (The bytes are the fetcher's own buffer, whose allocation may be up to twice its
//! length when the body came without a `Content-Length`.)

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use ai_visibility::Robots;
use bytes::Bytes;

/// Files the memo keeps at most.
pub const MAX_FILES: usize = 64;

/// Bytes of robots.txt text the memo keeps at most, all files together (the readings beside
/// them take a few times that).
pub const MAX_BYTES: usize = 4 * 1024 * 1024;

/// How long an entry is kept: past the fetcher's cache of the bytes (60 s by default), no
/// audit is handed the same buffer again, and the entry only holds memory.
pub const MAX_AGE: Duration = Duration::from_secs(120);

struct Entry {
    url: String,
    body: Bytes,
    robots: Arc<Robots>,
    at: Instant,
}

/// The process's memo (one for every fetcher: the key is the buffer itself).
fn memo() -> &'static Mutex<VecDeque<Entry>> {
    static MEMO: OnceLock<Mutex<VecDeque<Entry>>> = OnceLock::new();
    MEMO.get_or_init(|| Mutex::new(VecDeque::new()))
}

/// What the robots.txt at `url` with `body` says: the memo's reading when it holds this very
/// buffer, else a new reading, kept for the next audit. Call it off the async workers (an
/// analysis thread or the blocking pool): a reading may take milliseconds.
pub fn read(url: &str, body: &Bytes) -> Arc<Robots> {
    let same = |e: &Entry| e.body.as_ptr() == body.as_ptr() && e.body.len() == body.len() && e.url == url;
    if let Some(found) = memo().lock().unwrap_or_else(|p| p.into_inner()).iter().find(|e| same(e)) {
        return Arc::clone(&found.robots);
    }
    // Read outside the lock: another thread may read the same file meanwhile, and the second
    // reading replaces the first.
    let robots = Arc::new(Robots::parse(body));
    if body.len() <= MAX_BYTES {
        let mut entries = memo().lock().unwrap_or_else(|p| p.into_inner());
        entries.retain(|e| e.url != url && e.at.elapsed() < MAX_AGE);
        let mut held: usize = entries.iter().map(|e| e.body.len()).sum();
        while entries.len() >= MAX_FILES || held + body.len() > MAX_BYTES {
            let Some(oldest) = entries.pop_front() else { break };
            held -= oldest.body.len();
        }
        let at = Instant::now();
        entries.push_back(Entry { url: url.to_string(), body: body.clone(), robots: Arc::clone(&robots), at });
    }
    robots
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One test for the process-wide memo, so that no other test changes it meanwhile.
    #[test]
    fn the_same_buffer_is_read_once_and_a_new_one_again_within_the_bounds() {
        let body = Bytes::from_static(b"User-agent: *\nDisallow: /private\n");
        let url = "https://memo.test/robots.txt";
        let first = read(url, &body);
        assert!(!first.is_allowed("SeoAuditBot", "/private/a"));
        assert!(Arc::ptr_eq(&first, &read(url, &body.clone())), "the same buffer: the same reading");
        // The same text in a new buffer (the file fetched again) is read again, and replaces
        // the entry of its URL.
        let again = Bytes::from(body.to_vec());
        let second = read(url, &again);
        assert!(!Arc::ptr_eq(&first, &second));
        assert_eq!(memo().lock().unwrap().iter().filter(|e| e.url == url).count(), 1);
        // Another URL with the same buffer is another file.
        assert!(!Arc::ptr_eq(&second, &read("https://other.test/robots.txt", &again)));
        // Past the bounds the oldest go: MAX_FILES files of 100 KB stay within MAX_BYTES.
        let big = Bytes::from(vec![b'#'; 100 * 1024]);
        for i in 0..MAX_FILES + 5 {
            read(&format!("https://site{i}.test/robots.txt"), &big);
        }
        let entries = memo().lock().unwrap();
        assert!(entries.len() <= MAX_FILES);
        assert!(entries.iter().map(|e| e.body.len()).sum::<usize>() <= MAX_BYTES);
        assert!(entries.iter().all(|e| e.url != url), "the oldest entries were dropped");
        drop(entries);
        // A file over the text bound is read, not kept.
        let huge = Bytes::from(vec![b'#'; MAX_BYTES + 1]);
        let huge_url = "https://huge.test/robots.txt";
        read(huge_url, &huge);
        assert!(memo().lock().unwrap().iter().all(|e| e.url != huge_url));
    }
}
