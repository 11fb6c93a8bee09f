//! A real PostgreSQL server for tests: Debian's server binaries (package `postgresql`) run in a
//! temporary directory, started by the tests themselves (docs/ARCHITECTURE.md, "`crates/test-support`: tests only").
//!
//! - [`TempPostgres::start`] runs `initdb` in a new temporary directory (trust authentication,
//!   UTF-8, locale C) and starts the server with `pg_ctl` on 127.0.0.1 at a free port, its unix
//!   socket in that directory, with `fsync` off, small `shared_buffers` and `max_connections`
//!   200 (three replicas with their pools and the tests' own connections). Dropping it stops
//!   the server and deletes the directory.
//! - [`TempPostgres::shared`]: one server per test process, started on first use and never
//!   stopped by the tests; take a [`TempPostgres::fresh_database`] from it per test.
//! - [`TempPostgres::stop`], [`TempPostgres::start_again`] and [`TempPostgres::restart_after`]
//!   take the server away and bring it back on the same data directory and port, for the tests
//!   of a database that goes away under a running service. Use a server of your own
//!   ([`TempPostgres::start`]) for that, never the shared one.
//!
//! The binaries are the newest `/usr/lib/postgresql/*/bin` that has `initdb`, `pg_ctl`,
//! `postgres` and `psql`, or the directory in `SEO_AUDIT_POSTGRES_BIN`. When there is none,
//! `start` and `shared` print one line and return `None` (the test skips), unless
//! `SEO_AUDIT_REQUIRE_POSTGRES=1` (set by `.ci/run`), which makes them panic instead.
//!
//! `initdb` and `postgres` refuse to run as root, and tests run as root in CI: as root, every
//! server command runs as the `postgres` system user (created by Debian's package) and the
//! temporary directory is given to it; otherwise they run as the current user. Databases are
//! created with the `psql` binary, so this crate needs no PostgreSQL client library.
//!
//! A test process that dies leaves no server behind: each server has a watchdog process that
//! waits for the end of a pipe whose only writer is the test process. When the pipe closes
//! (drop, normal exit with the shared server still up, a panic that aborts, SIGKILL), the
//! watchdog stops the server (`pg_ctl stop -m fast`) and deletes the directory.

use std::fs::{self, OpenOptions};
use std::io::Write as _;
use std::net::TcpListener;
use std::os::unix::fs::chown;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use tempfile::TempDir;

/// The environment switch that turns "PostgreSQL is not installed" from a skip into a failure.
pub const REQUIRE_POSTGRES: &str = "SEO_AUDIT_REQUIRE_POSTGRES";

/// The database superuser `initdb` creates; every URL connects as this user.
pub const SUPERUSER: &str = "postgres";

/// Settings appended to `postgresql.conf`: a throwaway server, fast rather than durable.
const SETTINGS: &str = "
listen_addresses = '127.0.0.1'
max_connections = 200
shared_buffers = 16MB
fsync = off
synchronous_commit = off
full_page_writes = off
wal_level = minimal
max_wal_senders = 0
max_wal_size = 64MB
min_wal_size = 32MB
log_min_messages = warning
log_checkpoints = off
";

/// How many times a start is tried on another free port when the chosen one was taken meanwhile.
const PORT_ATTEMPTS: usize = 5;

/// One PostgreSQL server in a temporary directory; see the module documentation.
pub struct TempPostgres {
    bin: PathBuf,
    /// The major version of the binaries (`STRATEGY = FILE_COPY` needs 15).
    major: u32,
    /// The uid and gid the server commands run as; `None`: as the current user.
    run_as: Option<(u32, u32)>,
    port: u16,
    dir: TempDir,
    /// The watchdog and the write end of its pipe (module documentation).
    watchdog: Mutex<Option<(Child, ChildStdin)>>,
    databases: AtomicU32,
}

impl std::fmt::Debug for TempPostgres {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TempPostgres").field("port", &self.port).field("dir", &self.dir.path()).finish_non_exhaustive()
    }
}

impl TempPostgres {
    /// Starts a new server. `None` (with one line on stderr) when the PostgreSQL binaries are
    /// not installed; panics when they are missing and `SEO_AUDIT_REQUIRE_POSTGRES=1`, or when
    /// they are there but the server does not start (with the server's log).
    pub fn start() -> Option<TempPostgres> {
        let (bin, run_as) = match locate() {
            Ok(found) => found,
            Err(why) => {
                assert!(
                    std::env::var(REQUIRE_POSTGRES).as_deref() != Ok("1"),
                    "{REQUIRE_POSTGRES}=1 but {why} (install Debian's `postgresql` package or set \
                     SEO_AUDIT_POSTGRES_BIN to a directory with initdb, pg_ctl, postgres and psql)"
                );
                eprintln!("skipping the PostgreSQL tests: {why} (install Debian's `postgresql` package)");
                return None;
            }
        };
        Some(Self::start_with(bin, run_as))
    }

    /// The server of this test process, started on first use and never stopped by the tests
    /// (its watchdog stops it when the process ends). `None` as for [`TempPostgres::start`].
    pub fn shared() -> Option<&'static TempPostgres> {
        static SHARED: OnceLock<Option<TempPostgres>> = OnceLock::new();
        SHARED.get_or_init(TempPostgres::start).as_ref()
    }

    fn start_with(bin: PathBuf, run_as: Option<(u32, u32)>) -> TempPostgres {
        let version = output(Command::new(bin.join("postgres")).arg("--version"), "postgres --version");
        let major = parse_major(&String::from_utf8_lossy(&version.stdout))
            .unwrap_or_else(|| panic!("cannot read the version in {:?}", String::from_utf8_lossy(&version.stdout)));

        // As root the directory goes to the `postgres` user, who must be able to reach it:
        // /tmp rather than a TMPDIR that may sit under /root.
        let parent = if run_as.is_some() { PathBuf::from("/tmp") } else { std::env::temp_dir() };
        let dir = tempfile::Builder::new()
            .prefix("seo-audit-pg-")
            .tempdir_in(&parent)
            .unwrap_or_else(|e| panic!("cannot create a temporary directory in {}: {e}", parent.display()));
        if let Some((uid, gid)) = run_as {
            chown(dir.path(), Some(uid), Some(gid))
                .unwrap_or_else(|e| panic!("cannot give {} to the postgres user: {e}", dir.path().display()));
        }
        let mut server =
            TempPostgres { bin, major, run_as, port: 0, dir, watchdog: Mutex::new(None), databases: AtomicU32::new(0) };
        // The watchdog first: from here on, whatever happens to this process, the directory
        // and any server in it go away with it.
        server.spawn_watchdog();

        let initdb = output(
            server
                .as_server_user("initdb")
                .arg("-D")
                .arg(server.data())
                .args(["-U", SUPERUSER, "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync"])
                .arg("--no-instructions"),
            "initdb",
        );
        assert!(initdb.status.success(), "initdb failed:\n{}", lossy(&initdb));
        let mut conf = OpenOptions::new()
            .append(true)
            .open(server.data().join("postgresql.conf"))
            .expect("initdb writes postgresql.conf");
        writeln!(conf, "{SETTINGS}unix_socket_directories = '{}'", server.socket_dir().display())
            .expect("append to postgresql.conf");

        for attempt in 1..=PORT_ATTEMPTS {
            server.port = free_port();
            match server.pg_ctl_start() {
                Ok(()) => return server,
                // Another process took the port between its probe and the server's bind.
                Err(log) if attempt < PORT_ATTEMPTS && log.contains("could not bind") => continue,
                Err(log) => panic!("PostgreSQL did not start on port {}:\n{log}", server.port),
            }
        }
        unreachable!("the last attempt returns or panics")
    }

    /// The TCP port on 127.0.0.1.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The directory of the server's unix socket (`.s.PGSQL.<port>`).
    pub fn socket_dir(&self) -> &Path {
        self.dir.path()
    }

    /// The server's log file.
    pub fn log_file(&self) -> PathBuf {
        self.dir.path().join("server.log")
    }

    /// The URL of the maintenance database `postgres`; tests take a
    /// [`TempPostgres::fresh_database`] instead.
    pub fn url(&self) -> String {
        self.url_of("postgres")
    }

    /// `postgres://postgres@127.0.0.1:<port>/<name>`.
    pub fn url_of(&self, database: &str) -> String {
        format!("postgres://{SUPERUSER}@127.0.0.1:{}/{database}", self.port)
    }

    /// Creates a new empty database with a name unique on this server and returns its URL.
    /// Each one takes about 7 MB of the temporary directory; [`TempPostgres::drop_database`]
    /// gives it back.
    pub fn fresh_database(&self) -> String {
        let name = format!("test_{}", self.databases.fetch_add(1, Ordering::Relaxed) + 1);
        // FILE_COPY copies the template's files instead of writing them all to the WAL.
        let strategy = if self.major >= 15 { " STRATEGY = FILE_COPY" } else { "" };
        self.psql(&self.url(), &format!("CREATE DATABASE {name}{strategy}"));
        self.url_of(&name)
    }

    /// Drops the database of `url` (one of [`TempPostgres::fresh_database`]), closing the
    /// connections still open to it.
    pub fn drop_database(&self, url: &str) {
        let name = url.rsplit('/').next().unwrap_or_default();
        assert!(
            !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'),
            "not a database URL of this server: {url}"
        );
        self.psql(&self.url(), &format!("DROP DATABASE {name} WITH (FORCE)"));
    }

    /// Runs `sql` with `psql` against `url` (stopping at the first error) and returns what it
    /// printed, unaligned, tuples only (`-At`); panics with psql's message when it fails.
    pub fn psql(&self, url: &str, sql: &str) -> String {
        self.try_psql(url, sql).unwrap_or_else(|message| panic!("psql {sql:?} on {url} failed: {message}"))
    }

    /// [`TempPostgres::psql`] that returns psql's error output instead of panicking.
    pub fn try_psql(&self, url: &str, sql: &str) -> Result<String, String> {
        let out = output(
            clean_env(&mut Command::new(self.bin.join("psql")))
                .args(["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", sql])
                .env("PGCONNECT_TIMEOUT", "10"),
            "psql",
        );
        if out.status.success() {
            Ok(String::from_utf8_lossy(&out.stdout).trim_end().to_owned())
        } else {
            Err(lossy(&out))
        }
    }

    /// Runs the SQL file `file` with `psql` against `url` in one transaction (`-1`), stopping
    /// at the first error, as `psql -v ON_ERROR_STOP=1 -1 -f FILE` does; `Err` with psql's message.
    pub fn psql_file(&self, url: &str, file: &Path) -> Result<String, String> {
        let out = output(
            clean_env(&mut Command::new(self.bin.join("psql")))
                .args(["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-1", "-d", url, "-f"])
                .arg(file)
                .env("PGCONNECT_TIMEOUT", "10"),
            "psql",
        );
        if out.status.success() {
            Ok(String::from_utf8_lossy(&out.stdout).trim_end().to_owned())
        } else {
            Err(lossy(&out))
        }
    }

    /// Whether the server is up (`pg_ctl status`).
    pub fn is_running(&self) -> bool {
        let status = output(self.as_server_user("pg_ctl").arg("status").arg("-D").arg(self.data()), "pg_ctl status");
        status.status.success()
    }

    /// Stops the server (fast shutdown: open sessions are ended) and returns when it is down;
    /// the data directory and the port stay for [`TempPostgres::start_again`].
    pub fn stop(&self) {
        let out = output(
            self.as_server_user("pg_ctl").args(["stop", "-m", "fast", "-w", "-s", "-D"]).arg(self.data()),
            "pg_ctl stop",
        );
        assert!(out.status.success(), "pg_ctl stop failed:\n{}", lossy(&out));
    }

    /// Starts the stopped server again on the same data directory and port; returns when it
    /// accepts connections.
    pub fn start_again(&self) {
        if let Err(log) = self.pg_ctl_start() {
            panic!("PostgreSQL did not start again on port {}:\n{log}", self.port);
        }
    }

    /// [`TempPostgres::stop`], `down_for` without a server, then [`TempPostgres::start_again`].
    pub fn restart_after(&self, down_for: Duration) {
        self.stop();
        std::thread::sleep(down_for);
        self.start_again();
    }

    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    /// `pg_ctl start`, waiting until the server accepts connections; `Err` with the log.
    fn pg_ctl_start(&self) -> Result<(), String> {
        let out = output(
            self.as_server_user("pg_ctl")
                .args(["start", "-w", "-t", "120", "-s", "-D"])
                .arg(self.data())
                .arg("-l")
                .arg(self.log_file())
                .arg("-o")
                .arg(format!("-p {}", self.port)),
            "pg_ctl start",
        );
        if out.status.success() {
            Ok(())
        } else {
            let log = fs::read_to_string(self.log_file()).unwrap_or_default();
            Err(format!("{}\n--- {}:\n{log}", lossy(&out), self.log_file().display()))
        }
    }

    /// A command of the server's binaries, run as the server's user, in the temporary directory
    /// (the test's working directory may be out of that user's reach).
    fn as_server_user(&self, program: &str) -> Command {
        let mut command = Command::new(self.bin.join(program));
        clean_env(&mut command).current_dir(self.dir.path());
        if let Some((uid, gid)) = self.run_as {
            command.uid(uid).gid(gid);
        }
        command
    }

    fn spawn_watchdog(&self) {
        let script = r#"cat >/dev/null; "$0" stop -D "$1" -m fast -w -s >/dev/null 2>&1; rm -rf "$2""#;
        let mut watchdog = Command::new("/bin/sh");
        watchdog
            .arg("-c")
            .arg(script)
            .arg(self.bin.join("pg_ctl"))
            .arg(self.data())
            .arg(self.dir.path())
            .current_dir(self.dir.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            // Its own process group: a Ctrl-C in the terminal must not end it before it cleans up.
            .process_group(0);
        clean_env(&mut watchdog);
        if let Some((uid, gid)) = self.run_as {
            watchdog.uid(uid).gid(gid);
        }
        let mut child = watchdog.spawn().unwrap_or_else(|e| panic!("cannot start the PostgreSQL watchdog: {e}"));
        let stdin = child.stdin.take().expect("piped stdin");
        *self.watchdog.lock().unwrap_or_else(|e| e.into_inner()) = Some((child, stdin));
    }
}

impl Drop for TempPostgres {
    /// Closes the watchdog's pipe and waits for it: it stops the server and deletes the directory.
    fn drop(&mut self) {
        let taken = self.watchdog.get_mut().unwrap_or_else(|e| e.into_inner()).take();
        if let Some((mut child, stdin)) = taken {
            drop(stdin);
            let _ = child.wait();
        }
    }
}

/// The binaries and the user to run them as, or why PostgreSQL cannot run here.
fn locate() -> Result<(PathBuf, Option<(u32, u32)>), String> {
    let bin = match std::env::var_os("SEO_AUDIT_POSTGRES_BIN") {
        Some(dir) => {
            let dir = PathBuf::from(dir);
            if !has_binaries(&dir) {
                return Err(format!("SEO_AUDIT_POSTGRES_BIN={} lacks initdb, pg_ctl, postgres or psql", dir.display()));
            }
            dir
        }
        None => newest_debian_bin().ok_or_else(|| "no PostgreSQL server in /usr/lib/postgresql/*/bin".to_owned())?,
    };
    let run_as =
        if rustix::process::geteuid().is_root() {
            Some(system_user("postgres").ok_or_else(|| {
                "running as root and there is no `postgres` system user to run the server as".to_owned()
            })?)
        } else {
            None
        };
    Ok((bin, run_as))
}

fn has_binaries(dir: &Path) -> bool {
    ["initdb", "pg_ctl", "postgres", "psql"].iter().all(|b| dir.join(b).is_file())
}

/// The newest `/usr/lib/postgresql/<major>/bin` with every binary the harness runs.
fn newest_debian_bin() -> Option<PathBuf> {
    let entries = fs::read_dir("/usr/lib/postgresql").ok()?;
    entries
        .filter_map(|entry| {
            let entry = entry.ok()?;
            let major: u32 = entry.file_name().to_str()?.parse().ok()?;
            let bin = entry.path().join("bin");
            has_binaries(&bin).then_some((major, bin))
        })
        .max_by_key(|(major, _)| *major)
        .map(|(_, bin)| bin)
}

/// The uid and gid of a user of `/etc/passwd`.
fn system_user(name: &str) -> Option<(u32, u32)> {
    let passwd = fs::read_to_string("/etc/passwd").ok()?;
    passwd.lines().find_map(|line| {
        let mut fields = line.split(':');
        (fields.next()? == name).then_some(())?;
        let _password = fields.next()?;
        Some((fields.next()?.parse().ok()?, fields.next()?.parse().ok()?))
    })
}

/// "postgres (PostgreSQL) 15.14 (Debian 15.14-0+deb12u1)" -> 15.
fn parse_major(version: &str) -> Option<u32> {
    let number = version.split_whitespace().find(|w| w.starts_with(|c: char| c.is_ascii_digit()))?;
    number.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
}

fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind a free port");
    listener.local_addr().expect("local addr").port()
}

/// Drops the libpq variables of the environment, so that only the URL decides where psql goes.
fn clean_env(command: &mut Command) -> &mut Command {
    for var in ["PGDATA", "PGHOST", "PGHOSTADDR", "PGPORT", "PGUSER", "PGDATABASE", "PGOPTIONS", "PGSERVICE"] {
        command.env_remove(var);
    }
    command
}

fn output(command: &mut Command, what: &str) -> Output {
    command.stdin(Stdio::null()).output().unwrap_or_else(|e| panic!("cannot run {what}: {e}"))
}

fn lossy(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

#[cfg(test)]
mod tests {
    use super::parse_major;

    #[test]
    fn reads_the_major_version() {
        assert_eq!(parse_major("postgres (PostgreSQL) 15.14 (Debian 15.14-0+deb12u1)"), Some(15));
        assert_eq!(parse_major("postgres (PostgreSQL) 17.2"), Some(17));
        assert_eq!(parse_major("postgres (PostgreSQL) 18beta1"), Some(18));
        assert_eq!(parse_major("nothing"), None);
    }
}
