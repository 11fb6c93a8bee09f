//! `seo-audit`: the command line of the seo-audit service.
//!
//! - `seo-audit audit TARGET`: audit a URL, or a local HTML file as if served at `--url`.
//! - `seo-audit serve`: run the HTTP service (prints `listening on http://ADDR`).
//! - `seo-audit users create`, `seo-audit keys create|list|disable|enable|revoke`,
//!   `seo-audit migrate`: administer the database under `--data`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};
use figment::value::{Dict, Map, Value};
use figment::{Metadata, Profile, Provider};
use serde::Serialize;

mod admin_cmd;
mod audit_cmd;
mod serve_cmd;

/// Settings every subcommand shares. Their names are part of the interface (docs/API.md,
/// "Running the service"): scripts and config files name them. A flag that is a setting
/// serializes under the setting's key (`server::settings`); its environment variable is the
/// setting's, read by `server::Config::layers`.
#[derive(Debug, Clone, clap::Args, Serialize)]
pub struct Global {
    /// Data directory holding the SQLite file [default: ./data].
    #[arg(long, global = true)]
    pub data: Option<PathBuf>,
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
        let layers = server::Config::layers(self.config.as_deref(), std::env::vars()).map_err(|e| e.to_string())?;
        server::Config::extract(&layers.merge(Flags(self)).merge(Flags(flags))).map_err(|e| e.to_string())
    }
}

/// Command-line flags as the top layer of settings: `T` serialized under the settings' keys,
/// without the flags not given (`None`, empty lists).
struct Flags<T>(T);

impl<T: Serialize> Provider for Flags<T> {
    fn metadata(&self) -> Metadata {
        Metadata::named("command line")
    }

    fn data(&self) -> Result<Map<Profile, Dict>, figment::Error> {
        let dict = Value::serialize(&self.0)?.into_dict().unwrap_or_default();
        Ok(Profile::Default.collect(given(dict)))
    }
}

fn given(dict: Dict) -> Dict {
    dict.into_iter()
        .filter_map(|(key, value)| match value {
            Value::Dict(tag, inner) => Some((key, Value::Dict(tag, given(inner)))),
            Value::Empty(..) => None,
            Value::Array(_, ref items) if items.is_empty() => None,
            value => Some((key, value)),
        })
        .collect()
}

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
            Command::Serve(args) => serve_cmd::run(args, &cli.global).await,
            Command::Users(cmd) => admin_cmd::users(cmd, &cli.global),
            Command::Keys(cmd) => admin_cmd::keys(cmd, &cli.global),
            Command::Migrate => admin_cmd::migrate(&cli.global),
        }
    });
    // Dropping the runtime would wait for every blocking thread, and an analysis still
    // running after the shutdown grace period would keep the process alive until it ends:
    // tasks are dropped, blocking threads get this long to finish, and exiting ends the
    // rest (docs/API.md, "Conventions of every endpoint": shutdown).
    runtime.shutdown_timeout(RUNTIME_STOP);
    ExitCode::from(code)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use clap::CommandFactory;

    use super::*;

    /// The keys of the settings a parsed command line sets.
    fn keys_set(argv: &[&str]) -> Vec<String> {
        let cli = Cli::try_parse_from(argv).unwrap_or_else(|e| panic!("{argv:?}: {e}"));
        let mut dict = Flags(&cli.global).data().unwrap().remove(&Profile::Default).unwrap_or_default();
        let command = match &cli.command {
            Command::Serve(args) => Flags(args).data(),
            Command::Audit(args) => Flags(&args.settings).data(),
            _ => Flags(()).data(),
        };
        dict.extend(command.unwrap().remove(&Profile::Default).unwrap_or_default());
        let mut keys = Vec::new();
        leaf_keys("", &dict, &mut keys);
        keys
    }

    fn leaf_keys(prefix: &str, dict: &Dict, out: &mut Vec<String>) {
        for (name, value) in dict {
            let key = if prefix.is_empty() { name.clone() } else { format!("{prefix}.{name}") };
            match value {
                Value::Dict(_, inner) => leaf_keys(&key, inner, out),
                _ => out.push(key),
            }
        }
    }

    /// Every flag of `serve` (and the global `--data`) that is a setting, with the key it sets.
    fn setting_flags() -> BTreeMap<String, String> {
        let cli = Cli::command();
        let serve = cli.find_subcommand("serve").expect("serve");
        let mut flags = BTreeMap::new();
        for arg in cli.get_arguments().chain(serve.get_arguments()) {
            let Some(long) = arg.get_long() else { continue };
            if ["help", "version", "config"].contains(&long) {
                continue;
            }
            let names = arg.get_value_names().unwrap_or_default();
            let value = match names.first().map(|n| n.as_str()) {
                Some("ADDR") => "127.0.0.1:1",
                Some("IP") => "10.0.0.1",
                Some("BITS" | "N" | "MS") => "7",
                _ => "x",
            };
            let flag = format!("--{long}");
            let keys = keys_set(&["seo-audit", "serve", &flag, value]);
            assert_eq!(keys.len(), 1, "{flag} sets {keys:?}: every flag of serve is one setting");
            flags.insert(flag, keys[0].clone());
        }
        flags
    }

    #[test]
    fn flags_name_settings_and_win_over_the_environment_and_the_file() {
        let flags = setting_flags();
        let settings: Vec<String> = server::settings().into_iter().map(|(k, _)| k).collect();
        for (flag, key) in &flags {
            assert!(settings.contains(key), "{flag} sets {key}, which is no setting");
        }
        assert_eq!(flags.get("--data").map(String::as_str), Some("data"));
        assert_eq!(flags.get("--rate-limit-anonymous").map(String::as_str), Some("rate_limits.anonymous"));
        assert_eq!(keys_set(&["seo-audit", "audit", "x", "--allow-target", "a"]), ["allow_targets"]);
        assert!(keys_set(&["seo-audit", "serve"]).is_empty(), "no flag given, no setting set");

        let dir = std::env::temp_dir().join(format!("seo-audit-flags-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("seo-audit.toml");
        std::fs::write(&file, "audit_queue = 1\nmax_concurrent_audits = 1\nidle_timeout_ms = 1\n").unwrap();
        let vars = [("SEO_AUDIT_AUDIT_QUEUE", "2"), ("SEO_AUDIT_MAX_CONCURRENT_AUDITS", "2")];
        let layers =
            server::Config::layers(Some(&file), vars.iter().map(|(k, v)| (k.to_string(), v.to_string()))).unwrap();
        let cli = Cli::try_parse_from(["seo-audit", "serve", "--audit-queue", "3", "--allow-target", "a,b"]).unwrap();
        let Command::Serve(args) = &cli.command else { unreachable!() };
        let config = server::Config::extract(&layers.merge(Flags(&cli.global)).merge(Flags(args))).unwrap();
        assert_eq!((config.audit_queue, config.max_concurrent_audits, config.idle_timeout_ms), (3, 2, 1));
        assert_eq!(config.allow_targets, ["a", "b"]);
        assert_eq!(config.data, server::Config::default().data);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// docs/API.md, "Running the service", lists every setting once, with its default, its
    /// environment variable and its flags, and nothing else.
    #[test]
    fn the_settings_table_of_the_docs_is_the_definition() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/API.md");
        let doc = std::fs::read_to_string(&path).expect("docs/API.md");
        let start = doc.find("```toml\nlisten =").expect("the settings table") + "```toml\n".len();
        let table = &doc[start..start + doc[start..].find("```").expect("end of the table")];

        let settings: BTreeMap<String, Value> = server::settings().into_iter().collect();
        let flags = setting_flags();
        let mut seen = Vec::new();
        let mut section = String::new();
        for line in table.lines() {
            let (code, comment) = line.split_once('#').unwrap_or((line, ""));
            let code = code.trim();
            if code.is_empty() {
                continue;
            }
            if let Some(name) = code.strip_prefix('[').and_then(|c| c.strip_suffix(']')) {
                section = format!("{name}.");
                continue;
            }
            let (name, value) = code.split_once('=').unwrap_or_else(|| panic!("{line:?}"));
            let key = format!("{section}{}", name.trim());
            let default = settings.get(&key).unwrap_or_else(|| panic!("the docs list {key}, which is no setting"));
            let comment = comment.trim();
            let var: String =
                comment.chars().take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == '_').collect();
            assert_eq!(var, server::env_name(&key), "the variable of {key}");
            if !matches!(default, Value::Empty(..)) {
                let documented: toml::Value = toml::from_str(&format!("v = {}", value.trim())).unwrap();
                assert_eq!(
                    serde_json::to_value(&documented["v"]).unwrap(),
                    serde_json::to_value(default).unwrap(),
                    "the default of {key}"
                );
            }
            let mut documented_flags: Vec<&str> = comment
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                .filter(|w| w.starts_with("--"))
                .collect();
            documented_flags.sort();
            let mut real: Vec<&str> = flags.iter().filter(|(_, k)| **k == key).map(|(f, _)| f.as_str()).collect();
            real.sort();
            assert_eq!(documented_flags, real, "the flags of {key}");
            seen.push(key);
        }
        let mut sorted = seen.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), seen.len(), "a setting listed twice: {seen:?}");
        let missing: Vec<&String> = settings.keys().filter(|k| !seen.contains(k)).collect();
        assert!(missing.is_empty(), "the docs miss the settings {missing:?}");
        for (var, _) in server::ENV_ALIASES {
            assert!(doc.contains(&format!("`{var}`")), "the docs do not name the older variable {var}");
        }
    }
}
