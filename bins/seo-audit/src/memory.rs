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
//! mimalloc also keeps the pages a thread freed for a while before it gives them back (a
//! second in its current version), which is what makes it fast for the many small DOMs of
//! ordinary pages. A page of several megabytes frees tens of megabytes at once, though, and
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

/// Asks mimalloc to give back what it holds freed, on every thread's behalf it can.
#[allow(unsafe_code)]
pub fn collect() {
    // SAFETY: `mi_collect` takes no pointer and has no precondition: it may be called from
    // any thread at any time (mimalloc's documentation, "Extended functions"); `force`
    // returns the memory to the operating system at once instead of scheduling it.
    unsafe { libmimalloc_sys::mi_collect(true) }
}
