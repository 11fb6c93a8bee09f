//! Any text → `LlmsTxt::parse` → report. Parsing twice must give the same result.
#![no_main]

use ai_visibility::LlmsTxt;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let parsed = LlmsTxt::parse(text);
    assert_eq!(parsed, LlmsTxt::parse(text));
    let _ = parsed.report("https://example.com/llms.txt");
    let _ = parsed.links().count();
});
