//! A failed audit through the real binary (docs/API.md, "Errors"): the client reads a
//! sentence of ours, and the libraries' cause chain is in the log, with the request id.

use std::io::{BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::common;
use common::bin;

#[test]
fn the_cause_chain_goes_to_the_log_with_the_request_id() {
    let dir = tempfile::tempdir().unwrap();
    let log_path = dir.path().join("serve.log");
    let mut child = bin(dir.path())
        .args(["serve", "--listen", "127.0.0.1:0", "--allow-target", "127.0.0.1"])
        .env("SEO_AUDIT_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(Stdio::from(std::fs::File::create(&log_path).unwrap()))
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let addr = common::listening_addr(&mut stdout);

    let closed = test_support::closed_port();
    let mut s = TcpStream::connect(&addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let request = format!(
        "GET /api/v1/audit?url=http://127.0.0.1:{closed}/ HTTP/1.1\r\nHost: 127.0.0.1\r\nx-request-id: refused-1\r\n\
         Connection: close\r\n\r\n"
    );
    s.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    let _ = s.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 502"), "{answer}");
    assert!(answer.contains(&format!("The connection to 127.0.0.1:{closed} was refused")), "{answer}");
    assert!(!answer.contains("os error") && !answer.contains("tcp connect"), "{answer}");

    assert!(Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap().success());
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap();
    assert!(child.wait().unwrap().success());
    let log = std::fs::read_to_string(&log_path).unwrap();
    let line = log
        .lines()
        .find(|l| l.contains("request failed") && l.contains("refused-1"))
        .unwrap_or_else(|| panic!("no cause logged with the request id:\n{log}"));
    assert!(line.contains("target_unreachable") && line.to_lowercase().contains("connection refused"), "{line}");
}
