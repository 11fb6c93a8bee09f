//! What a service killed without cleaning up (SIGKILL) leaves behind, a browser still
//! running and its profile on disk, is taken away by the next start
//! ([`render::reap_orphans`], called when a renderer is built); what a live service uses is
//! left alone. Stand-in browsers are real processes whose command line names the profile
//! as Chromium's does, so no Chromium is needed.

use std::path::Path;
use std::process::{Child, Command};
use std::time::Duration;

use render::{reap_orphans, Reaped, PROFILE_OWNER_FILE, PROFILE_PREFIX};

/// A process that runs until killed, with `--user-data-dir=PROFILE` on its command line.
fn stand_in_browser(profile: &Path) -> Child {
    // A loop keeps the shell from replacing itself with `sleep`: the shell's command line
    // carries the argument, and once the shell is killed its last `sleep` ends within a second.
    Command::new("sh")
        .args(["-c", "while :; do sleep 1; done", &format!("--user-data-dir={}", profile.display())])
        .spawn()
        .expect("sh runs")
}

/// A process id that no process has any more.
fn dead_pid() -> u32 {
    let mut child = Command::new("true").spawn().expect("true runs");
    let pid = child.id();
    child.wait().unwrap();
    pid
}

/// Whether `child` ended within a few seconds.
fn ended(child: &mut Child) -> bool {
    for _ in 0..500 {
        if child.try_wait().unwrap().is_some() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    false
}

#[test]
fn a_killed_services_browser_and_profile_are_reaped_and_a_live_ones_kept() {
    let tmp = tempfile::tempdir().unwrap();
    let profile = |name: &str, owner: Option<u32>| {
        let dir = tmp.path().join(format!("{PROFILE_PREFIX}{name}"));
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join("Local State"), "{}").unwrap();
        if let Some(pid) = owner {
            std::fs::write(dir.join(PROFILE_OWNER_FILE), pid.to_string()).unwrap();
        }
        dir
    };
    // Left by a service that was killed: its owner is gone, its browser runs on.
    let orphan = profile("orphan", Some(dead_pid()));
    let mut orphan_browser = stand_in_browser(&orphan);
    // Left without a browser.
    let empty = profile("empty", Some(dead_pid()));
    // In use by a live service (this process stands for it).
    let live = profile("live", Some(std::process::id()));
    let mut live_browser = stand_in_browser(&live);
    // Just being created by a service (no owner file yet), and something else entirely.
    let fresh = profile("fresh", None);
    let other = tmp.path().join("someone-elses-dir");
    std::fs::create_dir(&other).unwrap();

    let reaped = reap_orphans(tmp.path());
    assert_eq!(reaped, Reaped { browsers: 1, profiles: 2 });
    assert!(ended(&mut orphan_browser), "the orphaned browser is killed");
    assert!(!orphan.exists() && !empty.exists(), "the orphaned profiles are removed");
    assert!(live_browser.try_wait().unwrap().is_none(), "a live service's browser runs on");
    assert!(live.exists() && fresh.exists() && other.exists());

    // A second start finds nothing more to do.
    assert_eq!(reap_orphans(tmp.path()), Reaped::default());
    live_browser.kill().unwrap();
    live_browser.wait().unwrap();
}
