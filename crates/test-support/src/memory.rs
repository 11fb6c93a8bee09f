//! The memory of a process, read from `/proc`, for benchmarks and tests that report it.

/// A field of a `/proc` file of `key: value kB` lines (`status`, `smaps_rollup`), in KiB.
pub fn proc_kib(text: &str, key: &str) -> Option<u64> {
    text.lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(':'))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
}

/// The resident set size and its peak, in MiB, from `/proc/self/status` (0 where the file
/// or a field is missing: not Linux).
pub fn rss_mib() -> (f64, f64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let mib = |key: &str| proc_kib(&status, key).map_or(0.0, |kb| kb as f64 / 1024.0);
    (mib("VmRSS"), mib("VmHWM"))
}
