//! robots.txt bytes → `Robots::parse` → `verdict` for a user agent and path from the input.
//!
//! Input layout: `UA \n PATH \n ROBOTS...`; a missing part is empty.
#![no_main]

use ai_visibility::Robots;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut parts = data.splitn(3, |&b| b == b'\n');
    let ua = String::from_utf8_lossy(parts.next().unwrap_or_default());
    let path = String::from_utf8_lossy(parts.next().unwrap_or_default());
    let body = parts.next().unwrap_or_default();
    let robots = Robots::parse(body);
    let verdict = robots.verdict(&ua, &path);
    assert_eq!(verdict.allowed, robots.is_allowed(&ua, &path));
    let _ = robots.crawl_delay(&ua);
    // The whole file, too, as a robots.txt.
    let whole = Robots::parse(data);
    let _ = whole.verdict("GPTBot", "/");
});
