//! Returning freed memory to the system after a large page.
//!
//! mimalloc keeps the pages a thread freed for a while before it gives them back (a second
//! in its current version), which is what makes it fast for the many small DOMs of ordinary
//! pages. A page of several megabytes frees tens of megabytes at once, though, and four of
//! them in flight held 150–165 MiB at the peak where 106 MiB were live (docs/SCALING.md,
//! "Large pages"). The crawl calls [`collect`] through [`app::memory`] once such a page has
//! been analysed and its body freed; ordinary pages never reach it.

/// Asks mimalloc to give back what it holds freed, on every thread's behalf it can.
#[allow(unsafe_code)]
pub fn collect() {
    // SAFETY: `mi_collect` takes no pointer and has no precondition: it may be called from
    // any thread at any time (mimalloc's documentation, "Extended functions"); `force`
    // returns the memory to the operating system at once instead of scheduling it.
    unsafe { libmimalloc_sys::mi_collect(true) }
}
