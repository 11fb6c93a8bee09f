//! `seo-audit`: the command line of the seo-audit service.
//!
//! - `seo-audit audit TARGET`: audit a URL, or a local HTML file as if served at `--url`.
//! - `seo-audit crawl URL`: crawl a site and audit every page (docs/API.md, "Site crawl").
//! - `seo-audit serve`: run the HTTP service (prints `listening on http://ADDR`, `https://`
//!   with `--tls-cert` and `--tls-key`).
//! - `seo-audit users create`, `seo-audit keys create|list|disable|enable|revoke`,
//!   `seo-audit migrate`: administer the database under `--data`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};
use serde::Serialize;
use settings::Flags;

/// mimalloc instead of the C library's allocator: an audit builds and frees a whole DOM of
/// small nodes, and under load glibc's malloc and free took a fifth of the service's CPU
/// (docs/PERFORMANCE.md, "The service: audits per second over HTTP").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod admin_cmd;
mod audit_cmd;
mod baseline;
mod ci_formats;
mod cli_error;
mod crawl_cmd;
mod memory;
mod serve_cmd;
mod settings;
mod table;

/// Settings every subcommand shares. Their names are part of the interface (docs/API.md,
/// "Running the service"): scripts and config files name them. A flag that is a setting
/// serializes under the setting's key ([`settings::settings`]); its environment variable is
/// the setting's, read by [`settings::layers`].
#[derive(Debug, Clone, clap::Args, Serialize)]
pub struct Global {
    /// Data directory holding the SQLite file [default: ./data].
    #[arg(long, global = true)]
    pub data: Option<PathBuf>,
    /// PostgreSQL URL (`postgres://user:password@host/db`): keep the data there instead of
    /// SQLite under --data, shared by every replica given the same URL.
    #[arg(long, global = true, value_name = "URL")]
    #[serde(rename = "database_url")]
    pub database: Option<String>,
    /// TOML settings file.
    #[arg(long, env = "SEO_AUDIT_CONFIG", global = true)]
    #[serde(skip)]
    pub config: Option<PathBuf>,
}

impl Global {
    /// Defaults, then the settings file, then `SEO_AUDIT_*` variables, then `--data`.
    pub fn load_config(&self) -> Result<server::Config, String> {
        self.load_config_with(())
    }

    /// [`Global::load_config`] with a subcommand's setting flags on top.
    pub fn load_config_with(&self, flags: impl Serialize) -> Result<server::Config, String> {
        let layers = settings::layers(self.config.as_deref(), std::env::vars()).map_err(|e| e.to_string())?;
        settings::extract(&layers.merge(Flags(self)).merge(Flags(flags))).map_err(|e| e.to_string())
    }
}

/// Most threads of the runtime's blocking pool (store calls, analyses, the audit writer),
/// instead of tokio's 512. Every blocking call waits for one of the store's 8 pooled
/// connections or for an analysis slot (one per core) anyway, so more threads add no
/// throughput; but each thread that ever ran keeps its own allocator heap, and on PostgreSQL,
/// where every quota charge is a blocking call, 100 such threads held 1 GB under the load run
/// of docs/PERFORMANCE.md against 450 MB with 32, at the same rate.
const BLOCKING_THREADS: usize = 32;

/// Time blocking work (an analysis, a database write) gets to end once the command is done
/// before the process exits anyway.
const RUNTIME_STOP: Duration = Duration::from_millis(500);

#[derive(Debug, Parser)]
#[command(name = "seo-audit", version, about = "SEO audits for search engines and AI assistants")]
struct Cli {
    #[command(flatten)]
    global: Global,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Audit a URL, or a local HTML file as if served at --url.
    Audit(audit_cmd::AuditArgs),
    /// Crawl a site from a URL: every page audited, then the site rules.
    Crawl(crawl_cmd::CrawlArgs),
    /// Run the HTTP service.
    Serve(serve_cmd::ServeArgs),
    /// Manage users.
    #[command(subcommand)]
    Users(admin_cmd::UsersCommand),
    /// Manage API keys.
    #[command(subcommand)]
    Keys(admin_cmd::KeysCommand),
    /// Create the database or bring it to the schema of this build.
    Migrate,
}

fn main() -> ExitCode {
    // First, before any thread or allocation of the service: the memory bounds of
    // docs/SECURITY.md hold for pages of the normal size.
    let small_pages = memory::small_pages_only();
    memory::prompt_purge();
    app::memory::install_release(memory::collect);
    let cli = Cli::parse();
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    builder.max_blocking_threads(match cli.command {
        // A crawl's blocking work is bounded (one frontier thread, one analysis per core): a
        // smaller pool still keeps its memory flat.
        Command::Crawl(_) => app::crawl::blocking_threads(),
        _ => BLOCKING_THREADS,
    });
    let runtime = match builder.enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            let failed = cli_error::fail(app::ErrorCode::Internal, format!("cannot start the async runtime: {e}"));
            return ExitCode::from(failed);
        }
    };
    // The administration commands are synchronous and run outside the async runtime: the
    // PostgreSQL client blocks, and must not do so on a thread that drives async tasks.
    let code = match cli.command {
        Command::Users(cmd) => admin_cmd::users(cmd, &cli.global),
        Command::Keys(cmd) => admin_cmd::keys(cmd, &cli.global),
        Command::Migrate => admin_cmd::migrate(&cli.global),
        Command::Audit(args) => runtime.block_on(audit_cmd::run(args, &cli.global)),
        Command::Crawl(args) => runtime.block_on(crawl_cmd::run(args, &cli.global)),
        Command::Serve(args) => runtime.block_on(serve_cmd::run(args, &cli.global, small_pages)),
    };
    // Dropping the runtime would wait for every blocking thread, and an analysis still
    // running after the shutdown grace period would keep the process alive until it ends:
    // tasks are dropped, blocking threads get this long to finish, and exiting ends the
    // rest (docs/API.md, "Conventions of every endpoint": shutdown).
    runtime.shutdown_timeout(RUNTIME_STOP);
    ExitCode::from(code)
}
