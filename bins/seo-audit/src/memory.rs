//! The process's memory: pages of the normal size only, and freed memory returned to the
//! system after a large page.
//!
//! mimalloc asks the kernel for transparent huge pages on the arenas it allocates from
//! (`madvise(MADV_HUGEPAGE)`, and Linux set to `always` gives them unasked): the first byte
//! written in any 2 MiB of an arena then makes the whole 2 MiB resident. Memory written in
//! small parts far apart, such as the buffers of many request bodies each received in part,
//! cost several times what was written: 10 HTTP/2 connections of stalled bodies, whose bytes
//! the body budget holds to 32 MiB, grew the process by 89 to 115 MiB (docs/SECURITY.md,
//! "Request bodies"). [`small_pages_only`] turns them off for the process.
//!
//! mimalloc also keeps the pages a thread freed for a while before it gives them back, which
//! is what makes it fast for the many small DOMs of ordinary pages. Its version 3 waits a
//! second, long enough to hold everything a burst of refused request bodies freed at the
//! burst's peak: [`prompt_purge`] sets mimalloc 2's 10 ms instead (docs/SECURITY.md,
//! "Request bodies"). A page of several megabytes frees tens of megabytes at once, though, and
//! four of them in flight held 150–165 MiB at the peak where 106 MiB were live
//! (docs/SCALING.md, "Large pages"). The crawl calls [`collect`] through [`app::memory`] once
//! such a page has been analysed and its body freed; ordinary pages never reach it.

/// Turns transparent huge pages off for this process and the processes it starts (the
/// browser of rendered audits), for every page the kernel maps from now on: to be called
/// first in `main`, before the runtime's threads and the service's allocations. A kernel
/// without the switch (or one that refuses it) leaves them on: the error says why, and
/// `serve` logs it.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
pub fn small_pages_only() -> std::io::Result<()> {
    // SAFETY: `prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0)` takes no pointer and touches no memory
    // of this process; it sets one flag of the process for the kernel's page faults (prctl(2)).
    let done = unsafe { libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0) };
    if done == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// Elsewhere the kernel's huge pages are not this process's to turn off.
#[cfg(not(target_os = "linux"))]
pub fn small_pages_only() -> std::io::Result<()> {
    Ok(())
}

/// mimalloc's `mi_option_purge_delay`, the 16th of `mi_option_e` in its `mimalloc.h` (v3);
/// `libmimalloc-sys` names no constant for it. The unit test below checks the number
/// against the option the `MIMALLOC_PURGE_DELAY` variable sets.
const PURGE_DELAY_OPTION: libmimalloc_sys::mi_option_t = 15;

/// How long mimalloc keeps memory a thread freed before it gives it back to the system, in
/// milliseconds: mimalloc 2's own default. mimalloc 3, this build's, waits a second, and
/// under 10 HTTP/2 connections of 200 streams, whose bodies the budget refuses past 16 MiB
/// while their bytes keep coming, the freed buffers it kept grew the process by 44 to 62 MiB
/// against a bound of 64 MB (61 MiB); with 10 ms, by 34 to 36 MiB (docs/SECURITY.md,
/// "Request bodies"). Freed memory still serves the next allocations for those 10 ms, so a
/// busy server's steady traffic keeps its pages (docs/PERFORMANCE.md, "The service").
pub const PURGE_DELAY_MS: i64 = 10;

/// Sets mimalloc's purge delay to [`PURGE_DELAY_MS`], unless `MIMALLOC_PURGE_DELAY` names
/// one (the operator's, as mimalloc's other variables). To be called first in `main`:
/// mimalloc's options are not to be set while other threads allocate.
#[allow(unsafe_code)]
pub fn prompt_purge() {
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_some() {
        return;
    }
    // SAFETY: `mi_option_set` takes no pointer; it is called before any other thread of the
    // process exists (its documentation: options are not set thread-safely).
    unsafe { libmimalloc_sys::mi_option_set(PURGE_DELAY_OPTION, PURGE_DELAY_MS as _) }
}

/// mimalloc's purge delay now, in milliseconds.
#[cfg(test)]
#[allow(unsafe_code)]
pub fn purge_delay_ms() -> std::os::raw::c_long {
    // SAFETY: `mi_option_get` takes no pointer and only reads the option's value.
    unsafe { libmimalloc_sys::mi_option_get(PURGE_DELAY_OPTION) }
}

/// Asks mimalloc to give back what it holds freed, on every thread's behalf it can, and the
/// C library's allocator too (SQLite's, whose page caches are allocated there).
#[allow(unsafe_code)]
pub fn collect() {
    // SAFETY: `mi_collect` takes no pointer and has no precondition: it may be called from
    // any thread at any time (mimalloc's documentation, "Extended functions"); `force`
    // returns the memory to the operating system at once instead of scheduling it.
    unsafe { libmimalloc_sys::mi_collect(true) }
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `malloc_trim` takes no pointer; glibc's allocator locks its arenas while it
    // returns their free pages (malloc_trim(3)), so any thread may call it at any time.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The option's number is the one `MIMALLOC_PURGE_DELAY` sets: this test runs itself
    /// again with the variable at a value no default has, and the child reads it back.
    #[test]
    fn the_purge_delay_option_is_the_one_its_variable_names() {
        if std::env::var_os("SEO_AUDIT_PURGE_CHILD").is_some() {
            assert_eq!(purge_delay_ms(), 37);
            // The operator's value is kept.
            prompt_purge();
            assert_eq!(purge_delay_ms(), 37);
            return;
        }
        let child = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "memory::tests::the_purge_delay_option_is_the_one_its_variable_names"])
            .env("SEO_AUDIT_PURGE_CHILD", "1")
            .env("MIMALLOC_PURGE_DELAY", "37")
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&child.stdout);
        // The child ran this one test (a filter that matched nothing would pass too).
        assert!(child.status.success() && said.contains("1 passed"), "{said}");
    }
}
