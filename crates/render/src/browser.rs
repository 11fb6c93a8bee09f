//! One Chromium process: started with a fresh profile behind a proxy that refuses
//! everything, watched (alive, memory), and killed with its whole process tree when dropped.

use std::path::{Path, PathBuf};
use std::time::Duration;

use chromiumoxide::browser::{Browser, BrowserConfig};
use fetch::proxy::{GuardedProxy, ProxyLimits};
use futures_util::StreamExt;
use tokio::task::JoinHandle;

use crate::error::RenderError;

/// How to install a browser, for [`RenderError::NotConfigured`].
pub(crate) const INSTALL_HINT: &str = "install Debian's `chromium` package (apt-get install chromium) or set the `chromium` setting to the browser's path";

/// The names looked for on `PATH` when no binary is configured.
const NAMES: [&str; 4] = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];

/// The name every browser profile directory starts with, in the system's temporary directory.
pub const PROFILE_PREFIX: &str = "seo-audit-chromium-";

/// The file in a profile directory that holds the process id of the service that started
/// the browser, so that a later start can tell a profile left by a killed service from one
/// a running service (another replica, another test) still uses.
pub const PROFILE_OWNER_FILE: &str = "seo-audit-owner";

/// How old a profile without an owner file must be before a start removes it (one that a
/// service is creating has no owner file for an instant).
const UNOWNED_PROFILE_AGE: Duration = Duration::from_secs(600);

/// Longest wait for a starting browser to open its DevTools socket.
const LAUNCH_TIMEOUT: Duration = Duration::from_secs(20);

/// The Chromium binary: the configured one, or the first of [`NAMES`] on `PATH`.
pub(crate) fn find_chromium(configured: Option<&Path>) -> Result<PathBuf, RenderError> {
    if let Some(path) = configured {
        return if path.is_file() {
            Ok(path.to_path_buf())
        } else {
            Err(RenderError::NotConfigured(format!(
                "the configured browser {} does not exist; {INSTALL_HINT}",
                path.display()
            )))
        };
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path) {
        for name in NAMES {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return Ok(candidate);
            }
        }
    }
    Err(RenderError::NotConfigured(format!("no Chromium was found on PATH; {INSTALL_HINT}")))
}

/// A running browser.
pub(crate) struct BrowserProcess {
    pub(crate) browser: Browser,
    /// Drives the DevTools connection; ends when the connection does (the browser died).
    handler: JoinHandle<()>,
    pid: Option<u32>,
    /// The browser-wide `--proxy-server`: a guard in offline mode with an empty allow-list,
    /// so it refuses every request. Renders use their own proxy, set on their browser
    /// context; this one only catches what runs outside any render (the first blank tab).
    _refuse_all: GuardedProxy,
    /// The profile directory, removed once the processes are gone.
    profile: Option<tempfile::TempDir>,
}

impl BrowserProcess {
    /// Starts `chromium` with a fresh profile.
    pub(crate) async fn launch(chromium: &Path, heap_mb: u64) -> Result<BrowserProcess, RenderError> {
        let failed = |what: &str, err: &dyn std::fmt::Display| RenderError::Launch(format!("{what}: {err}"));
        let profile = tempfile::Builder::new()
            .prefix(PROFILE_PREFIX)
            .tempdir()
            .map_err(|e| failed("cannot create the browser profile", &e))?;
        std::fs::write(profile.path().join(PROFILE_OWNER_FILE), std::process::id().to_string())
            .map_err(|e| failed("cannot write the browser profile's owner", &e))?;
        let nothing = fetch::FetchConfig { offline: true, ..fetch::FetchConfig::default() };
        let nothing = fetch::Fetcher::new(nothing).map_err(|e| failed("cannot build the refusing proxy", &e))?;
        let refuse_all = GuardedProxy::start(nothing, ProxyLimits::of(&fetch::FetchConfig::default()))
            .await
            .map_err(|e| failed("cannot start the refusing proxy", &e))?;
        let mut config = BrowserConfig::builder();
        if !sandboxed(rustix::process::geteuid().is_root()) {
            config = config.no_sandbox();
        }
        let config = config
            .chrome_executable(chromium)
            .user_data_dir(profile.path())
            .respect_https_errors()
            .launch_timeout(LAUNCH_TIMEOUT)
            // Commands are bounded by each render's own limit.
            .request_timeout(Duration::from_secs(60))
            .args(chromium_args(&refuse_all.url(), heap_mb))
            .build()
            .map_err(|e| RenderError::NotConfigured(format!("{e}; {INSTALL_HINT}")))?;
        let (mut browser, mut handler) =
            Browser::launch(config).await.map_err(|e| failed(&format!("{} did not start", chromium.display()), &e))?;
        let pid = browser.get_mut_child().and_then(|child| child.inner.id());
        let handler = tokio::spawn(async move {
            while let Some(event) = handler.next().await {
                if let Err(err) = event {
                    tracing::warn!(error = %err, "the DevTools connection of the browser failed");
                    break;
                }
            }
        });
        Ok(BrowserProcess { browser, handler, pid, _refuse_all: refuse_all, profile: Some(profile) })
    }

    /// Whether the browser still runs and its DevTools connection is open.
    pub(crate) fn alive(&self) -> bool {
        if self.handler.is_finished() {
            return false;
        }
        self.pid.is_none_or(process_alive)
    }

    /// The browser's process id.
    pub(crate) fn pid(&self) -> Option<u32> {
        self.pid
    }

    /// The browser's profile directory.
    pub(crate) fn profile_dir(&self) -> Option<PathBuf> {
        self.profile.as_ref().map(|p| p.path().to_path_buf())
    }

    /// Memory of the browser and all its descendants, in bytes: the sum of their
    /// proportional set sizes (`Pss` of `/proc/PID/smaps_rollup`: resident memory, each
    /// shared page divided among the processes sharing it), so the browser binary and the
    /// shared memory its processes all map are counted once, not once per process as a sum
    /// of RSS would. Where that file cannot be read, the RSS of `/proc/PID/statm`.
    pub(crate) fn memory_bytes(&self) -> u64 {
        let Some(pid) = self.pid else { return 0 };
        tree(pid).into_iter().map(process_memory).sum()
    }
}

impl Drop for BrowserProcess {
    fn drop(&mut self) {
        self.handler.abort();
        let Some(pid) = self.pid else { return };
        let processes = tree(pid);
        for &p in processes.iter().rev() {
            if let Some(p) = rustix::process::Pid::from_raw(p as i32) {
                let _ = rustix::process::kill_process(p, rustix::process::Signal::KILL);
            }
        }
        // Reap the browser (a killed process goes within milliseconds), so that it leaves
        // no zombie and chromiumoxide no warning about a browser not closed.
        if let Some(child) = self.browser.get_mut_child() {
            for _ in 0..100 {
                if !matches!(child.try_wait(), Ok(None)) {
                    break;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        // The profile goes with the processes: killed processes write nothing more, so it
        // is removed at once; should a file have appeared meanwhile, once more after they
        // are all gone.
        if let Some(profile) = self.profile.take() {
            let path = profile.path().to_path_buf();
            drop(profile);
            if !path.exists() {
                return;
            }
            std::thread::spawn(move || {
                for _ in 0..50 {
                    if !processes.iter().any(|&p| process_alive(p)) {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(100));
                }
                let _ = std::fs::remove_dir_all(&path);
            });
        }
    }
}

/// Whether Chromium runs with its own sandbox: not as root, where Chromium refuses to start
/// with it (the service usually runs as root in containers); as any other user it is kept
/// (docs/SECURITY.md, "Rendered audits").
pub(crate) fn sandboxed(root: bool) -> bool {
    !root
}

/// The command line (besides the sandbox, [`sandboxed`]): headless, no
/// GPU, no QUIC (it would bypass an HTTP proxy), no background traffic, and every request
/// through `proxy`, loopback included (`<-loopback>` removes loopback from the implicit
/// bypass list). WebRTC may not use UDP outside the proxy. Chromium never resolves a name
/// itself: with a fixed proxy it hands names to the proxy, and the host resolver rules
/// make any lookup it would still make (prefetch, preconnect) fail. A page's JavaScript heap
/// is capped at `heap_mb` mebibytes (V8's `--max-old-space-size`): a script that allocates
/// without end fails in its own tab instead of growing the browser past its memory limit;
/// what V8 does not count (array buffers, the DOM, images) the render's watchdog bounds.
fn chromium_args(proxy: &str, heap_mb: u64) -> Vec<String> {
    [
        "--headless".to_string(),
        "--disable-gpu".into(),
        "--disable-quic".into(),
        "--no-first-run".into(),
        "--disable-background-networking".into(),
        "--disable-component-update".into(),
        "--disable-sync".into(),
        "--disable-dev-shm-usage".into(),
        "--disable-domain-reliability".into(),
        "--no-pings".into(),
        "--disable-features=HttpsUpgrades,HttpsFirstBalancedModeAutoEnable,MediaRouter,OptimizationHints".into(),
        format!("--proxy-server={proxy}"),
        "--proxy-bypass-list=<-loopback>".into(),
        "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1".into(),
        "--force-webrtc-ip-handling-policy=disable_non_proxied_udp".into(),
        "--webrtc-ip-handling-policy=disable_non_proxied_udp".into(),
        format!("--js-flags=--max-old-space-size={heap_mb}"),
    ]
    .into_iter()
    .map(|arg| arg.trim_start_matches("--").to_string())
    .collect()
}

/// What [`reap_orphans`] removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Reaped {
    /// Browser processes killed (each with its descendants).
    pub browsers: usize,
    /// Profile directories removed.
    pub profiles: usize,
}

/// Kills the browsers and removes the profile directories that a service killed without a
/// chance to clean up (SIGKILL, a crash, the OOM killer) left in `temp_dir`: the profiles
/// whose owner process is gone, and every process whose command line names one of them
/// (`--user-data-dir=`), with its descendants. Profiles whose owner still runs (another
/// replica or test on the same machine) are left alone; a profile without an owner file
/// is removed when no process uses it and it is older than ten minutes. Called when a
/// renderer is built, that is when the service starts.
pub fn reap_orphans(temp_dir: &Path) -> Reaped {
    let mut reaped = Reaped::default();
    let Ok(entries) = std::fs::read_dir(temp_dir) else { return reaped };
    let profiles: Vec<PathBuf> = entries
        .flatten()
        .filter(|e| e.file_name().to_str().is_some_and(|n| n.starts_with(PROFILE_PREFIX)))
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .collect();
    if profiles.is_empty() {
        return reaped;
    }
    let commands = command_lines();
    for profile in profiles {
        let users: Vec<u32> =
            commands.iter().filter(|(_, args)| names_profile(args, &profile)).map(|(p, _)| *p).collect();
        let owner =
            std::fs::read_to_string(profile.join(PROFILE_OWNER_FILE)).ok().and_then(|s| s.trim().parse::<u32>().ok());
        match owner {
            Some(pid) if pid == std::process::id() || process_alive(pid) => continue,
            Some(_) => {}
            None => {
                let old = std::fs::metadata(&profile)
                    .and_then(|m| m.modified())
                    .ok()
                    .and_then(|t| t.elapsed().ok())
                    .is_some_and(|age| age >= UNOWNED_PROFILE_AGE);
                if !users.is_empty() || !old {
                    continue;
                }
            }
        }
        // A browser is a process tree: Chromium's helpers (and a process caught between fork
        // and exec) carry the same command line as their parent, and belong to its tree.
        let trees: Vec<(u32, Vec<u32>)> = users.iter().map(|&pid| (pid, tree(pid))).collect();
        let roots: Vec<u32> = trees
            .iter()
            .filter(|(pid, _)| !trees.iter().any(|(other, t)| other != pid && t.contains(pid)))
            .map(|(pid, _)| *pid)
            .collect();
        let mut killed = Vec::new();
        for &pid in &roots {
            let processes = tree(pid);
            for &p in processes.iter().rev() {
                if let Some(p) = rustix::process::Pid::from_raw(p as i32) {
                    let _ = rustix::process::kill_process(p, rustix::process::Signal::KILL);
                }
            }
            killed.extend(processes);
            reaped.browsers += 1;
        }
        // Killed processes write nothing more; they are gone within milliseconds.
        for _ in 0..200 {
            if !killed.iter().any(|&p| process_alive(p)) {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        if std::fs::remove_dir_all(&profile).is_ok() {
            reaped.profiles += 1;
        }
    }
    reaped
}

/// Every process's id and arguments, from `/proc`.
fn command_lines() -> Vec<(u32, Vec<String>)> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .flatten()
        .filter_map(|e| {
            let pid = e.file_name().to_str()?.parse::<u32>().ok()?;
            let raw = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
            let args = raw.split(|b| *b == 0).map(|a| String::from_utf8_lossy(a).into_owned()).collect();
            Some((pid, args))
        })
        .collect()
}

/// Whether a command line names `profile` as its user data directory.
fn names_profile(args: &[String], profile: &Path) -> bool {
    let Some(profile) = profile.to_str() else { return false };
    args.iter().any(|a| a.strip_prefix("--user-data-dir=").is_some_and(|p| p.trim_end_matches('/') == profile))
        || args.windows(2).any(|w| w[0] == "--user-data-dir" && w[1].trim_end_matches('/') == profile)
}

/// Whether `pid` runs (exists and is not a zombie).
fn process_alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat.rsplit_once(')').and_then(|(_, rest)| rest.split_whitespace().next()) != Some("Z"),
        Err(_) => false,
    }
}

/// `pid` and its descendants, parents before children.
fn tree(pid: u32) -> Vec<u32> {
    let mut parents: Vec<(u32, u32)> = Vec::new();
    if let Ok(entries) = std::fs::read_dir("/proc") {
        for entry in entries.flatten() {
            let Some(child) = entry.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else { continue };
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{child}/stat")) else { continue };
            // pid (comm) state ppid ...; comm may hold spaces and parentheses.
            let ppid = stat.rsplit_once(')').and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<u32>().ok());
            if let Some(ppid) = ppid {
                parents.push((child, ppid));
            }
        }
    }
    let mut found = vec![pid];
    let mut i = 0;
    while i < found.len() {
        let parent = found[i];
        found.extend(parents.iter().filter(|(_, p)| *p == parent).map(|(c, _)| *c));
        i += 1;
    }
    found
}

/// The proportional set size of `pid` in bytes, or its resident set size.
fn process_memory(pid: u32) -> u64 {
    let pss_kib = std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup")).ok().and_then(|text| {
        let line = text.lines().find(|l| l.starts_with("Pss:"))?;
        line.split_whitespace().nth(1)?.parse::<u64>().ok()
    });
    if let Some(kib) = pss_kib {
        return kib * 1024;
    }
    let pages: u64 = std::fs::read_to_string(format!("/proc/{pid}/statm"))
        .ok()
        .and_then(|s| s.split_whitespace().nth(1)?.parse().ok())
        .unwrap_or(0);
    pages * rustix::param::page_size() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_request_goes_through_the_proxy_and_nothing_around_it() {
        let args = chromium_args("http://127.0.0.1:4567", 256);
        let has = |arg: &str| args.iter().any(|a| a == arg);
        // chromiumoxide adds the leading dashes.
        assert!(args.iter().all(|a| !a.starts_with('-')), "{args:?}");
        assert!(has("proxy-server=http://127.0.0.1:4567"), "{args:?}");
        // A page's JavaScript heap is capped.
        assert!(has("js-flags=--max-old-space-size=256"), "{args:?}");
        // Loopback is not bypassed: the proxy judges it.
        assert!(has("proxy-bypass-list=<-loopback>"), "{args:?}");
        // QUIC would go around an HTTP proxy, and so would WebRTC's UDP.
        assert!(has("disable-quic"), "{args:?}");
        assert!(has("force-webrtc-ip-handling-policy=disable_non_proxied_udp"), "{args:?}");
        assert!(has("webrtc-ip-handling-policy=disable_non_proxied_udp"), "{args:?}");
        // Chromium resolves no name itself.
        assert!(has("host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"), "{args:?}");
        assert!(has("headless") && has("disable-background-networking"), "{args:?}");
        // The sandbox is chromiumoxide's switch, not one of these.
        assert!(!args.iter().any(|a| a.contains("sandbox")), "{args:?}");
    }

    #[test]
    fn only_root_runs_the_browser_without_its_sandbox() {
        assert!(!sandboxed(true));
        assert!(sandboxed(false));
    }
}
