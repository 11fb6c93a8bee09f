//! The real `seo-audit` binary: administration commands, then `serve` on port 0 talked to
//! over loopback, then SIGTERM.

use std::io::Read;
use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Output};

const PAGE: &str = "<!doctype html><html lang=\"en\"><head><title>A fixture page served for the binary test</title>\
<meta name=\"description\" content=\"A small page.\"></head><body><h1>Fixture</h1><p>Some words.</p></body></html>";

use crate::common;
use common::bin;

fn run(data: &Path, args: &[&str]) -> Output {
    bin(data).args(args).output().unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).trim_end().to_string()
}

/// Answers every connection with [`PAGE`] (or an empty robots.txt 404), one request each.
fn fixture_server() -> u16 {
    test_support::ThreadServer::start(|request| {
        Some(if request.path == "/robots.txt" { test_support::status(404) } else { test_support::html(PAGE) })
    })
    .port()
}

struct Serving {
    child: Child,
    base: String,
}

impl Serving {
    fn start(data: &Path) -> Serving {
        let (child, addr) = common::spawn_serve(data, "warn");
        assert!(!addr.ends_with(":0"), "the real port is printed: {addr}");
        Serving { child, base: format!("http://{addr}") }
    }

    /// SIGTERM, then the exit status and whatever else was printed on stdout.
    fn terminate(mut self) -> (bool, String) {
        let pid = self.child.id().to_string();
        assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
        let status = self.child.wait().unwrap();
        let mut rest = String::new();
        self.child.stdout.take().unwrap().read_to_string(&mut rest).unwrap();
        (status.success(), rest)
    }
}

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[tokio::test]
async fn administer_then_serve() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path();

    let out = run(data, &["migrate"]);
    assert!(out.status.success(), "{out:?}");
    assert!(data.join("seo-audit.db").is_file());
    let said = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(said.contains("applied migrations 1 to"), "a fresh database reports what it applied: {said}");
    let again = String::from_utf8_lossy(&run(data, &["migrate"]).stderr).to_string();
    assert!(again.contains("already up to date"), "{again}");

    let out = run(data, &["users", "create", "--tier", "pro"]);
    assert!(out.status.success(), "{out:?}");
    let user = stdout(&out);
    assert_eq!(user.len(), 36, "a UUID alone: {user:?}");

    let out = run(
        data,
        &[
            "keys",
            "create",
            "--name",
            "ci",
            "--tier",
            "free",
            "--scopes",
            "audit,mcp",
            "--expires-in",
            "90d",
            "--user",
            &user,
            "--rate-limit",
            "5",
        ],
    );
    assert!(out.status.success(), "{out:?}");
    let key = stdout(&out);
    assert!(
        key.starts_with("sa_") && key.len() == 35 && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
        "{key:?}"
    );
    assert!(!String::from_utf8_lossy(&out.stderr).contains(&key), "details on stderr, not the key again");
    let prefix = &key[..10];

    // Without --user a user of the tier is created; the environment names the data dir too.
    let out = common::command()
        .env("SEO_AUDIT_DATA", data)
        .args(["keys", "create", "--name", "other", "--tier", "pro"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");

    for bad in [
        vec!["keys", "create", "--name", "x", "--scopes", "admin"],
        vec!["keys", "create", "--name", "x", "--tier", "gold"],
        vec!["keys", "create", "--name", "x", "--expires-in", "soon"],
        vec!["keys", "create", "--name", "x", "--user", "no-such-user"],
        vec!["keys", "disable", "sa_nothing"],
        vec!["keys", "create", "--name", "x", "--rate-limit", "0"],
    ] {
        let out = run(data, &bad);
        assert!(!out.status.success(), "{bad:?} succeeded");
        assert!(out.stdout.is_empty(), "{bad:?} printed {:?}", stdout(&out));
    }

    // Values of every width: a longer scope list, a three-digit limit, a long name.
    let wide = ["keys", "create", "--name", "nightly crawler", "--tier", "free", "--scopes", "audit,mcp,webhooks"];
    assert!(run(data, &[&wide[..], &["--rate-limit", "120"]].concat()).status.success());

    let out = run(data, &["keys", "list"]);
    assert!(out.status.success());
    let listing = stdout(&out);
    assert!(listing.contains(prefix) && listing.contains("ci") && !listing.contains(&key), "{listing}");
    // Columns line up: every cell of a text column starts where its header starts, and the
    // right-aligned RPM ends where its header ends.
    let lines: Vec<&str> = listing.lines().collect();
    assert_eq!(lines.len(), 4, "{listing}");
    let header = lines[0];
    for column in ["ID", "PREFIX", "TIER", "SCOPES", "STATE", "EXPIRES", "NAME"] {
        let at = header.find(column).unwrap();
        for line in &lines[1..] {
            let b = line.as_bytes();
            assert!(b[at] != b' ' && (at == 0 || b[at - 1] == b' '), "{column} at {at}:\n{listing}");
        }
    }
    let rpm_end = header.find("RPM").unwrap() + 2;
    for line in &lines[1..] {
        let b = line.as_bytes();
        assert!(b[rpm_end].is_ascii_digit() && b[rpm_end + 1] == b' ', "RPM:\n{listing}");
    }
    assert!(lines.iter().all(|l| !l.ends_with(' ')), "no trailing spaces:\n{listing}");
    let out = run(data, &["keys", "list", "--json", "--user", &user]);
    let rows: Vec<serde_json::Value> = stdout(&out).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), 1);
    assert_eq!((rows[0]["key_prefix"].as_str(), rows[0]["rate_limit"].as_u64()), (Some(prefix), Some(5)));
    // A key without its own limit shows its tier's limit as this configuration sets it.
    let out = common::command()
        .env("SEO_AUDIT_DATA", data)
        .env("SEO_AUDIT_RATE_LIMIT_PRO", "100")
        .args(["keys", "list", "--json"])
        .output()
        .unwrap();
    let rows: Vec<serde_json::Value> = stdout(&out).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let pro: Vec<u64> = rows.iter().filter(|r| r["tier"] == "pro").map(|r| r["rate_limit"].as_u64().unwrap()).collect();
    assert_eq!(pro, [100], "{rows:#?}");

    // A key's own pages per crawl: its tier's cap until the operator sets one, its own
    // after, its tier's again with `tier`; 0 and words are refused.
    let pages = |data: &std::path::Path| -> u64 {
        let out = run(data, &["keys", "list", "--json", "--user", &user]);
        let row: serde_json::Value = serde_json::from_str(stdout(&out).lines().next().unwrap()).unwrap();
        row["max_pages"].as_u64().unwrap()
    };
    assert_eq!(pages(data), 100, "the free tier's default");
    let out = run(data, &["keys", "set", prefix, "--max-pages", "2000"]);
    assert!(out.status.success() && out.stdout.is_empty(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("2000 pages a crawl (its own)"), "{out:?}");
    assert_eq!(pages(data), 2000);
    assert!(run(data, &["keys", "list"]).status.success());
    for bad in ["0", "many", "-5"] {
        let out = run(data, &["keys", "set", prefix, "--max-pages", bad]);
        assert!(!out.status.success(), "--max-pages {bad} succeeded");
    }
    assert!(!run(data, &["keys", "set", "sa_nothing", "--max-pages", "9"]).status.success());
    assert_eq!(pages(data), 2000, "a refused change changes nothing");
    assert!(run(data, &["keys", "set", prefix, "--max-pages", "tier"]).status.success());
    assert_eq!(pages(data), 100);

    let server = Serving::start(data);
    let client = reqwest::Client::builder().no_proxy().build().unwrap();
    let get = |path: &str, key: Option<&str>| {
        let mut req = client.get(format!("{}{path}", server.base));
        if let Some(k) = key {
            req = req.header("x-api-key", k);
        }
        req.send()
    };
    assert_eq!(get("/api/status", None).await.unwrap().status(), 200);

    let port = fixture_server();
    let audit = get(&format!("/api/v1/audit?url=http://127.0.0.1:{port}/&format=compact"), Some(&key)).await.unwrap();
    assert_eq!(audit.status(), 200);
    assert_eq!(audit.headers()["x-ratelimit-limit"], "5");
    let body: serde_json::Value = audit.json().await.unwrap();
    assert_eq!(body["status_code"], 200);

    // Administration takes effect on the running server.
    assert_eq!(get("/api/v1/usage", Some(&key)).await.unwrap().status(), 200);
    assert!(run(data, &["keys", "disable", prefix]).status.success());
    assert_eq!(get("/api/v1/usage", Some(&key)).await.unwrap().status(), 403);
    assert!(run(data, &["keys", "enable", prefix]).status.success());
    assert_eq!(get("/api/v1/usage", Some(&key)).await.unwrap().status(), 200);
    assert!(run(data, &["keys", "revoke", prefix]).status.success());
    assert_eq!(get("/api/v1/usage", Some(&key)).await.unwrap().status(), 401);

    let (clean, rest) = server.terminate();
    assert!(clean, "serve exits 0 on SIGTERM");
    assert_eq!(rest, "", "stdout carries the listening line only");
}

#[test]
fn serve_reports_a_busy_address() {
    let dir = tempfile::tempdir().unwrap();
    let taken = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let out = bin(dir.path()).args(["serve", "--listen", &addr]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: listen_failed: Cannot listen on"), "{out:?}");
}

/// `serve --tls-cert --tls-key` (the key from its environment variable): HTTPS on the
/// printed `https://` address, HTTP/2 or HTTP/1.1 as the client offers, audits included.
#[tokio::test]
async fn serve_speaks_https_with_a_certificate_chain() {
    let dir = tempfile::tempdir().unwrap();
    let certs = test_support::tls::TestCerts::generate(dir.path());
    let data = dir.path().join("data");
    let mut child = bin(&data)
        .args(["serve", "--listen", "127.0.0.1:0", "--allow-target", "127.0.0.1", "--tls-cert"])
        .arg(&certs.chain)
        .env("SEO_AUDIT_TLS_KEY", &certs.key)
        .env("SEO_AUDIT_LOG", "warn")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let (scheme, addr) = common::listening_url(&mut std::io::BufReader::new(child.stdout.as_mut().unwrap()));
    let server = Serving { child, base: format!("https://{addr}") };
    assert_eq!(scheme, "https");

    let port = fixture_server();
    let audit = format!("{}/api/v1/audit?url=http://127.0.0.1:{port}/&format=compact", server.base);
    for (client, version) in [
        (certs.client().build().unwrap(), reqwest::Version::HTTP_2),
        (certs.client().http1_only().build().unwrap(), reqwest::Version::HTTP_11),
    ] {
        let status = client.get(format!("{}/api/status", server.base)).send().await.unwrap();
        assert_eq!((status.status().as_u16(), status.version()), (200, version));
        let answer = client.get(&audit).send().await.unwrap();
        assert_eq!((answer.status().as_u16(), answer.version()), (200, version));
        let body: serde_json::Value = answer.json().await.unwrap();
        assert_eq!(body["status_code"], 200, "{body}");
    }
    // Plain HTTP on the port gets no answer, and the server goes on.
    let plain = reqwest::Client::builder().no_proxy().build().unwrap().get(format!("http://{addr}/api/status"));
    assert!(plain.send().await.is_err());
    let status = certs.client().build().unwrap().get(format!("{}/api/status", server.base)).send().await.unwrap();
    assert_eq!(status.status(), 200);

    let (clean, rest) = server.terminate();
    assert!(clean, "serve exits 0 on SIGTERM");
    assert_eq!(rest, "", "stdout carries the listening line only");
}

/// Half a TLS setting, a file that cannot be read, a key that is not the certificate's:
/// one line on stderr and exit status 2, before anything listens.
#[test]
fn serve_refuses_wrong_tls_settings_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let certs = test_support::tls::TestCerts::generate(dir.path());
    let (chain, key, other) =
        (certs.chain.to_str().unwrap(), certs.key.to_str().unwrap(), certs.other_key.to_str().unwrap());
    let missing = dir.path().join("missing.pem");
    let missing = missing.to_str().unwrap();
    // The flags, the variables, what the line says.
    type Case<'a> = (&'a [&'a str], &'a [(&'a str, &'a str)], &'a str);
    let cases: [Case; 5] = [
        (&["--tls-cert", chain], &[], "tls_cert is set without tls_key"),
        (&[], &[("SEO_AUDIT_TLS_KEY", key)], "tls_key is set without tls_cert"),
        (&["--tls-cert", missing, "--tls-key", key], &[], "Cannot read the TLS certificate"),
        (&["--tls-cert", chain, "--tls-key", missing], &[], "Cannot read the TLS private key"),
        (&["--tls-cert", chain, "--tls-key", other], &[], "does not belong to the certificate"),
    ];
    for (args, vars, wanted) in cases {
        let out = bin(&dir.path().join("data"))
            .args(["serve", "--listen", "127.0.0.1:0"])
            .args(args)
            .envs(vars.iter().copied())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?} {vars:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}: nothing listened");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("error: ") && stderr.contains(wanted), "{args:?}: {stderr}");
    }
}

/// A database URL that is not PostgreSQL's, a server that does not answer, a database that
/// does not exist: `serve` and `migrate` say so in one line on stderr (the password never
/// shown) and exit 2, before anything listens.
#[test]
fn a_bad_database_url_is_one_line_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let closed = test_support::closed_port();
    let refused = format!("postgres://seo:s3cret@127.0.0.1:{closed}/seo");
    // The refused connection is said in words (docs/API.md, "Errors"), never as the
    // libraries' text ("database error: error connecting to server: ... (os error 111)").
    let mut cases: Vec<(String, &str)> = vec![
        ("mysql://seo:s3cret@127.0.0.1/seo".into(), "error: invalid_request: "),
        ("mysql://seo:s3cret@127.0.0.1/seo".into(), "is not a postgres:// URL"),
        (refused, "error: database_unavailable: The database cannot be opened: the connection was refused"),
    ];
    if let Some(pg) = test_support::TempPostgres::shared() {
        cases.push((pg.url_of("no_such_database"), "does not exist"));
    }
    for (url, wanted) in &cases {
        for args in [&["serve", "--listen", "127.0.0.1:0"][..], &["migrate"][..]] {
            let out = bin(&dir.path().join("data")).args(args).args(["--database", url]).output().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?} {url}: {stderr}");
            assert!(out.stdout.is_empty(), "{args:?} {url}: nothing listened");
            assert_eq!(stderr.lines().count(), 1, "{args:?} {url}: {stderr}");
            assert!(stderr.starts_with("error: ") && stderr.contains(wanted), "{args:?} {url}: {stderr}");
            assert!(!stderr.contains("s3cret"), "the password is never shown: {stderr}");
            assert!(!stderr.contains("os error"), "{args:?} {url}: {stderr}");
            assert!(stderr.trim_end().ends_with('.'), "a sentence: {stderr}");
        }
    }
}
