//! `seo-audit`: the command line of the seo-audit service.
//!
//! - `seo-audit audit TARGET`: audit a URL, or a local HTML file as if served at `--url`.
//! - `seo-audit serve`, `users`, `keys`, `migrate`: run and administer the service.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod audit_cmd;

/// Settings every subcommand shares (names fixed by DECISIONS.md §11).
#[derive(Debug, Clone, clap::Args)]
pub struct Global {
    /// Data directory holding the SQLite file.
    #[arg(long, env = "SEO_AUDIT_DATA", global = true, default_value = "./data")]
    pub data: PathBuf,
    /// TOML settings file.
    #[arg(long, env = "SEO_AUDIT_CONFIG", global = true)]
    pub config: Option<PathBuf>,
}

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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: internal: cannot start the async runtime: {e}");
            return ExitCode::from(2);
        }
    };
    let code = runtime.block_on(async move {
        match cli.command {
            Command::Audit(args) => audit_cmd::run(args, &cli.global).await,
        }
    });
    ExitCode::from(code)
}
