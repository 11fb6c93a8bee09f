//! What the binary's tests share: the command with a clean environment, and `serve` started
//! on a free loopback port.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// `seo-audit`, with every `SEO_AUDIT_*` variable of the tests' own environment removed: an
/// operator's settings (`SEO_AUDIT_RATE_LIMIT_ANONYMOUS`, `SEO_AUDIT_MAX_PAGE_BYTES`...) and
/// CI's `SEO_AUDIT_REQUIRE_*` never reach the child; a test sets what it needs with `.env`.
/// The rest of the environment (PATH, HOME, TMPDIR...) is kept.
pub fn command() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_seo-audit"));
    for (name, _) in std::env::vars_os() {
        if name.as_encoded_bytes().starts_with(b"SEO_AUDIT_") {
            cmd.env_remove(name);
        }
    }
    cmd
}

/// `seo-audit --data DATA` ([`command`]: no `SEO_AUDIT_*` setting leaks in).
pub fn bin(data: &Path) -> Command {
    let mut cmd = command();
    cmd.arg("--data").arg(data);
    cmd
}

/// Reads the `listening on http://ADDR` line `serve` prints first, and returns ADDR.
pub fn listening_addr(stdout: &mut impl BufRead) -> String {
    let (scheme, addr) = listening_url(stdout);
    assert_eq!(scheme, "http");
    addr
}

/// Reads the `listening on SCHEME://ADDR` line `serve` prints first, and returns SCHEME
/// (`http` or `https`) and ADDR.
pub fn listening_url(stdout: &mut impl BufRead) -> (String, String) {
    let mut line = String::new();
    stdout.read_line(&mut line).expect("read serve's first line");
    let url = line.trim_end().strip_prefix("listening on ").unwrap_or_else(|| panic!("{line:?}"));
    let (scheme, addr) = url.split_once("://").unwrap_or_else(|| panic!("{line:?}"));
    (scheme.to_string(), addr.to_string())
}

/// `serve` on port 0 with 127.0.0.1 allowed as a target, logging at `log` level to nowhere;
/// the child (stdout still piped) and its address.
pub fn spawn_serve(data: &Path, log: &str) -> (Child, String) {
    spawn_serve_with(data, log, &[])
}

/// [`spawn_serve`] with more arguments of `serve`.
pub fn spawn_serve_with(data: &Path, log: &str, extra: &[&str]) -> (Child, String) {
    let mut child = bin(data)
        .args(["serve", "--listen", "127.0.0.1:0", "--allow-target", "127.0.0.1"])
        .args(extra)
        .env("SEO_AUDIT_LOG", log)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start seo-audit serve");
    let addr = listening_addr(&mut BufReader::new(child.stdout.as_mut().expect("piped stdout")));
    (child, addr)
}

/// Every `SEO_AUDIT_*` variable of this process's environment (CI sets several) is removed
/// from the child's, and nothing else is.
#[test]
fn the_binary_gets_no_seo_audit_variable() {
    let cmd = command();
    let removed: Vec<_> = cmd.get_envs().filter(|(_, v)| v.is_none()).map(|(k, _)| k.to_os_string()).collect();
    let ours: Vec<_> =
        std::env::vars_os().map(|(k, _)| k).filter(|k| k.as_encoded_bytes().starts_with(b"SEO_AUDIT_")).collect();
    for var in &ours {
        assert!(removed.contains(var), "{var:?} would reach the child");
    }
    assert_eq!(removed.len(), ours.len(), "only SEO_AUDIT_* variables are removed: {removed:?}");
}

/// Polls `check` every 25 ms until it gives a value, for at most `limit`.
pub fn eventually<T>(what: &str, limit: std::time::Duration, mut check: impl FnMut() -> Option<T>) -> T {
    let deadline = std::time::Instant::now() + limit;
    loop {
        if let Some(v) = check() {
            return v;
        }
        assert!(std::time::Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(std::time::Duration::from_millis(25));
    }
}

/// SIGKILL: nothing is flushed or finished gracefully.
pub fn kill(mut child: Child) {
    child.kill().unwrap();
    child.wait().unwrap();
}

/// One HTTP/1.1 request with the key `key` over a fresh connection (`Connection: close`, so the
/// answer is read to its end); the status and the JSON body (`null` when it is not JSON).
pub fn request(
    addr: &str,
    key: &str,
    method: &str,
    path: &str,
    body: Option<&serde_json::Value>,
) -> (u16, serde_json::Value) {
    use std::io::{Read, Write};
    let body = body.map(serde_json::Value::to_string).unwrap_or_default();
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nx-api-key: {key}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut raw = String::new();
    stream.read_to_string(&mut raw).unwrap();
    let status = raw.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or_else(|| panic!("{raw}"));
    let json = raw.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or_default();
    (status, serde_json::from_str(json).unwrap_or(serde_json::Value::Null))
}

/// Kills the child process when dropped: a failing test leaves nothing running behind.
pub struct KillOnDrop(pub std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}
