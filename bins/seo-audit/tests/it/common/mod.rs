//! What the binary's tests share: the command with a clean environment, and `serve` started
//! on a free loopback port.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// `seo-audit --data DATA`, with none of the operator's `SEO_AUDIT_*` settings leaking in.
pub fn bin(data: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_seo-audit"));
    for var in ["SEO_AUDIT_DATA", "SEO_AUDIT_CONFIG", "SEO_AUDIT_LISTEN", "SEO_AUDIT_ALLOW_TARGETS", "SEO_AUDIT_LOG"] {
        cmd.env_remove(var);
    }
    cmd.arg("--data").arg(data);
    cmd
}

/// Reads the `listening on http://ADDR` line `serve` prints first, and returns ADDR.
pub fn listening_addr(stdout: &mut impl BufRead) -> String {
    let mut line = String::new();
    stdout.read_line(&mut line).expect("read serve's first line");
    line.trim_end().strip_prefix("listening on http://").unwrap_or_else(|| panic!("{line:?}")).to_string()
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
