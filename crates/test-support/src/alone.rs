//! One test in a process of its own, inside the crate's one test binary: for a test that
//! changes or measures the whole process (its open-file limit, the global log subscriber,
//! its CPU time), which the other tests of the binary, running on other threads, would
//! disturb or be disturbed by.
//!
//! The test is two functions: an `#[ignore]`d one that does the work and starts with
//! `assert!(test_support::alone())`, and a plain one that calls [`run_alone`] with the
//! ignored one's path. `cargo test` runs the plain one, which runs this test binary again
//! for the ignored one only.

/// Set in the process [`run_alone`] starts.
const ALONE: &str = "TEST_SUPPORT_ALONE";

/// Runs the ignored test `path` (`module::name` in this test binary) in a new process of
/// this test binary, alone; panics with its output unless it ran and passed.
pub fn run_alone(path: &str) {
    let exe = std::env::current_exe().expect("the test binary");
    let out = std::process::Command::new(exe)
        .args([path, "--exact", "--ignored", "--nocapture", "--test-threads=1"])
        .env(ALONE, path)
        .output()
        .expect("run the test binary again");
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{path} failed in its own process:\n{stdout}\n{stderr}");
    assert!(stdout.contains("test result: ok. 1 passed"), "{path} did not run in its own process:\n{stdout}");
    eprint!("{stderr}");
}

/// Whether this process was started by [`run_alone`] (for the ignored test to check that it
/// is not run among the others, as by `cargo test -- --ignored`).
pub fn alone() -> bool {
    std::env::var_os(ALONE).is_some()
}
