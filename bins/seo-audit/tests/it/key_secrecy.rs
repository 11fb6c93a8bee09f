//! The real binary at the most verbose log level: no API key, valid or not, in the header
//! or the query, reaches anything it prints (stdout and stderr) or any answer.

use std::io::{BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::common;
use common::bin;

/// One HTTP/1.1 exchange over a fresh connection; the whole answer, head included.
fn exchange(addr: &str, request: &str) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    s.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    let _ = s.read_to_string(&mut answer);
    answer
}

#[test]
fn keys_never_printed_at_trace_level() {
    let dir = tempfile::tempdir().unwrap();
    let created = bin(dir.path()).args(["keys", "create", "--name", "secrecy", "--tier", "free"]).output().unwrap();
    assert!(created.status.success(), "{created:?}");
    let key = String::from_utf8_lossy(&created.stdout).trim().to_string();
    assert!(key.starts_with("sa_") && key.len() > 20, "{key:?}");
    let invalid = format!("sa_{}", "z".repeat(32));

    let log_path = dir.path().join("serve.log");
    let log = std::fs::File::create(&log_path).unwrap();
    let mut child = bin(dir.path())
        .args(["serve", "--listen", "127.0.0.1:0"])
        .env("SEO_AUDIT_LOG", "trace")
        .stdout(Stdio::piped())
        .stderr(Stdio::from(log))
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let addr = common::listening_addr(&mut stdout);
    let line = format!("listening on http://{addr}\n");

    let mut answers = String::new();
    for secret in [&key, &invalid] {
        for path in
            ["/api/v1/usage", "/api/v1/audit?url=http://10.0.0.1/", "/api/v1/webhooks", "/api/status", "/nowhere"]
        {
            let sep = if path.contains('?') { '&' } else { '?' };
            let in_header =
                format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: {secret}\r\nConnection: close\r\n\r\n");
            let in_query =
                format!("GET {path}{sep}x-api-key={secret} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
            answers.push_str(&exchange(&addr, &in_header));
            answers.push_str(&exchange(&addr, &in_query));
        }
        let body = r#"{"urls":["http://10.0.0.1/"]}"#;
        answers.push_str(&exchange(
            &addr,
            &format!(
                "POST /api/v1/audit/batch HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: {secret}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            ),
        ));
    }
    assert!(answers.contains("HTTP/1.1 200") && answers.contains("HTTP/1.1 401"), "{answers}");

    let pid = child.id().to_string();
    assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap();
    assert!(child.wait().unwrap().success());
    let printed = std::fs::read_to_string(&log_path).unwrap() + &line + &rest;
    assert!(printed.contains("request"), "the request log is on: {printed}");
    for (what, text) in [("output", &printed), ("answers", &answers)] {
        for secret in [&key, &invalid] {
            assert!(!text.contains(secret.as_str()), "a key appears in the {what}");
            assert!(!text.contains(&secret[..20]), "the first 20 characters of a key appear in the {what}");
        }
    }
}
