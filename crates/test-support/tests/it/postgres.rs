//! `TempPostgres` against Debian's real server binaries: skipped with a message when they are
//! not installed, unless `SEO_AUDIT_REQUIRE_POSTGRES=1`.

use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use test_support::TempPostgres;

/// The child process of `a_killed_test_process_leaves_no_server` runs this test.
const CHILD: &str = "SEO_AUDIT_POSTGRES_HARNESS_CHILD";

fn listening(port: u16) -> bool {
    TcpStream::connect(("127.0.0.1", port)).is_ok()
}

/// Waits (at most a minute, for a slow machine) for `done`; whether it came.
fn eventually(mut done: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(60);
    while Instant::now() < deadline {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    done()
}

#[test]
fn serves_fresh_databases_and_is_gone_when_dropped() {
    let Some(pg) = TempPostgres::start() else { return };
    let (port, dir) = (pg.port(), pg.socket_dir().to_path_buf());
    assert!(listening(port), "listens on 127.0.0.1:{port}");
    assert!(dir.join(format!(".s.PGSQL.{port}")).exists(), "its unix socket is in {}", dir.display());

    let first = pg.fresh_database();
    let second = pg.fresh_database();
    assert_ne!(first, second);
    for url in [&first, &second] {
        assert!(url.starts_with(&format!("postgres://postgres@127.0.0.1:{port}/")), "{url}");
        assert_eq!(pg.psql(url, "select 1"), "1");
    }
    // Two databases, not two names for one: a table made in the first is not in the second.
    pg.psql(&first, "create table t (x bigint); insert into t values (7)");
    assert_eq!(pg.psql(&first, "select x from t"), "7");
    let missing = pg.try_psql(&second, "select x from t").expect_err("no table t in the second database");
    assert!(missing.contains("does not exist"), "{missing}");
    // Text compares as bytes in the C locale the migrations rely on.
    assert_eq!(pg.psql(&first, "select string_agg(c, '' order by c) from unnest(array['b','B','a']) c"), "Bab");
    assert_eq!(pg.psql(&first, "show max_connections"), "200");
    assert_eq!(pg.psql(&first, "show fsync"), "off");

    pg.drop_database(&second);
    assert!(pg.try_psql(&second, "select 1").is_err(), "a dropped database is gone");

    drop(pg);
    assert!(!listening(port), "the port is closed once dropped");
    assert!(!dir.exists(), "{} is deleted once dropped", dir.display());
}

#[test]
fn stops_and_starts_again_on_the_same_port_and_data() {
    let Some(pg) = TempPostgres::start() else { return };
    let url = pg.fresh_database();
    pg.psql(&url, "create table kept (x bigint); insert into kept values (42)");
    assert!(pg.is_running());

    pg.stop();
    assert!(!pg.is_running());
    assert!(!listening(pg.port()), "nothing listens while it is stopped");
    assert!(pg.try_psql(&url, "select 1").is_err(), "no answer while it is stopped");

    pg.start_again();
    assert!(pg.is_running());
    assert_eq!(pg.psql(&url, "select x from kept"), "42", "the data outlives the stop");

    pg.restart_after(Duration::from_millis(100));
    assert_eq!(pg.psql(&url, "select x from kept"), "42");
}

#[test]
fn the_shared_server_is_one_per_process_and_serves_parallel_tests() {
    let Some(a) = TempPostgres::shared() else { return };
    let b = TempPostgres::shared().expect("started once, there after");
    assert!(std::ptr::eq(a, b));
    // Tests run in parallel, each taking a database of its own at the same time.
    let urls: Vec<String> = std::thread::scope(|s| {
        let takers: Vec<_> = (0..16).map(|_| s.spawn(|| a.fresh_database())).collect();
        takers.into_iter().map(|t| t.join().expect("fresh_database")).collect()
    });
    let distinct: std::collections::BTreeSet<&String> = urls.iter().collect();
    assert_eq!(distinct.len(), urls.len(), "{urls:?}");
    for url in &urls {
        assert_eq!(a.psql(url, "select current_database()"), url.rsplit('/').next().unwrap());
    }
}

/// Without the binaries: a skip with one line, or a failure under `SEO_AUDIT_REQUIRE_POSTGRES=1`.
#[test]
fn missing_binaries_skip_unless_required() {
    let run = |require: bool| {
        let mut child = Command::new(std::env::current_exe().expect("the test binary"));
        child
            .args(["--exact", "postgres::child_without_binaries", "--ignored", "--nocapture", "--test-threads=1"])
            .env(CHILD, "1")
            .env("SEO_AUDIT_POSTGRES_BIN", "/nonexistent/postgresql/bin");
        if require {
            child.env(test_support::REQUIRE_POSTGRES, "1");
        } else {
            child.env_remove(test_support::REQUIRE_POSTGRES);
        }
        let out = child.output().expect("run the test binary again");
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (passed, stdout, stderr) = run(false);
    assert!(passed && stdout.contains("NO SERVER"), "{stdout}{stderr}");
    assert!(stderr.contains("skipping the PostgreSQL tests: SEO_AUDIT_POSTGRES_BIN="), "{stderr}");
    let (passed, stdout, stderr) = run(true);
    assert!(!passed, "{stdout}{stderr}");
    assert!(
        stdout.contains("SEO_AUDIT_REQUIRE_POSTGRES=1 but SEO_AUDIT_POSTGRES_BIN=")
            || stderr.contains("SEO_AUDIT_REQUIRE_POSTGRES=1 but SEO_AUDIT_POSTGRES_BIN="),
        "{stdout}{stderr}"
    );
}

/// Not a test of its own: the child process of `missing_binaries_skip_unless_required`.
#[test]
#[ignore = "run by missing_binaries_skip_unless_required as a child process"]
fn child_without_binaries() {
    if std::env::var(CHILD).as_deref() != Ok("1") {
        return;
    }
    if TempPostgres::start().is_none() {
        println!("NO SERVER");
    }
}

/// A test process that dies without dropping its server (SIGKILL) leaves neither the server
/// nor its directory: the watchdog stops and deletes them.
#[test]
fn a_killed_test_process_leaves_no_server() {
    if TempPostgres::shared().is_none() {
        return;
    }
    let mut child = Command::new(std::env::current_exe().expect("the test binary"))
        .args(["--exact", "postgres::child_holding_a_server", "--ignored", "--nocapture", "--test-threads=1"])
        .env(CHILD, "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("run the test binary again");
    let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
    let ready = stdout
        .lines()
        .map_while(Result::ok)
        // libtest may print the test's name on the same line first.
        .find_map(|line| line.split_once("READY ").map(|(_, ready)| ready.to_owned()))
        .expect("the child reports its server");
    let (port, dir) = ready.split_once(' ').expect("READY <port> <dir>");
    let (port, dir): (u16, PathBuf) = (port.parse().expect("a port"), PathBuf::from(dir));
    assert!(listening(port), "the child's server is up");

    child.kill().expect("SIGKILL the child");
    child.wait().expect("reap the child");
    assert!(eventually(|| !listening(port)), "the server of a killed test process stops (port {port})");
    assert!(eventually(|| !dir.exists()), "its directory {} is deleted", dir.display());
}

/// Not a test of its own: the child process of `a_killed_test_process_leaves_no_server`.
#[test]
#[ignore = "run by a_killed_test_process_leaves_no_server as a child process"]
fn child_holding_a_server() {
    if std::env::var(CHILD).as_deref() != Ok("1") {
        return;
    }
    let pg = TempPostgres::start().expect("the parent saw PostgreSQL installed");
    println!("READY {} {}", pg.port(), pg.socket_dir().display());
    // Holds the server until killed: the parent never writes to this pipe.
    let mut line = String::new();
    let _ = std::io::stdin().read_line(&mut line);
    std::mem::forget(pg);
}
