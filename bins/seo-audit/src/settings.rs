//! The settings' layers (docs/API.md, "Running the service"): the defaults of
//! [`server::Config`], which defines every setting, then the TOML file, then the `SEO_AUDIT_*`
//! variables, then the command-line flags, merged with figment. A setting's variable is
//! derived from its key ([`env_name`]); a flag is a field serialized under its key ([`Flags`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use figment::providers::{Format, Serialized, Toml};
use figment::value::{Dict, Empty, Map, Tag, Value};
use figment::{Figment, Metadata, Profile, Provider, Source};
use serde::Serialize;
use server::Config;

/// A setting that could not be read: which setting, from which source, what is wrong.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The settings file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The settings file is not valid TOML for [`Config`], or one of its values is wrong.
    #[error("invalid settings file {path}: {message}")]
    Toml {
        /// The file.
        path: PathBuf,
        /// The setting and what is wrong with it.
        message: String,
    },
    /// An environment variable has a value of the wrong form.
    #[error("invalid {var}: {message}")]
    Env {
        /// The variable.
        var: String,
        /// What is wrong.
        message: String,
    },
    /// A value from another source (the command line) is wrong.
    #[error("invalid setting {key} ({origin}): {message}")]
    Other {
        /// The setting's key.
        key: String,
        /// Where the value came from.
        origin: String,
        /// What is wrong.
        message: String,
    },
}

/// Defaults, then `file` when given, then the `SEO_AUDIT_*` variables among `vars` (others
/// are ignored, as are `SEO_AUDIT_CONFIG`, the file's own name, and `SEO_AUDIT_LOG`): the
/// layers under the flags.
pub fn layers(file: Option<&Path>, vars: impl IntoIterator<Item = (String, String)>) -> Result<Figment, ConfigError> {
    let mut figment = Figment::from(Serialized::defaults(Config::default()));
    if let Some(path) = file {
        // Read here first: a missing or unreadable file is its own error.
        std::fs::read(path).map_err(|source| ConfigError::Read { path: path.to_path_buf(), source })?;
        figment = figment.merge(Toml::file_exact(path));
    }
    Ok(figment.merge(Environment::new(vars)))
}

/// The settings `layers` describe. Numbers and switches may be given as text (the
/// environment has nothing else); any wrong value is an error naming its source.
pub fn extract(layers: &Figment) -> Result<Config, ConfigError> {
    layers.extract_lossy().map_err(|e| config_error(e, layers))
}

/// Command-line flags as the top layer of settings: `T` serialized under the settings' keys,
/// without the flags not given (`None`, empty lists).
pub struct Flags<T>(pub T);

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

/// Prefix of every setting's environment variable.
pub const ENV_PREFIX: &str = "SEO_AUDIT_";

/// The environment variable of the setting `key` (`fetch.total_timeout_ms`):
/// [`ENV_PREFIX`] and the key in upper snake case (`SEO_AUDIT_FETCH_TOTAL_TIMEOUT_MS`).
pub fn env_name(key: &str) -> String {
    format!("{ENV_PREFIX}{}", key.replace('.', "_").to_ascii_uppercase())
}

/// Names the environment had for settings of a section before the names were derived, still
/// read (when both are set, the derived name wins): variable, setting key.
pub const ENV_ALIASES: &[(&str, &str)] = &[
    ("SEO_AUDIT_RATE_LIMIT_ANONYMOUS", "rate_limits.anonymous"),
    ("SEO_AUDIT_RATE_LIMIT_FREE", "rate_limits.free"),
    ("SEO_AUDIT_RATE_LIMIT_PRO", "rate_limits.pro"),
    ("SEO_AUDIT_CONNECT_TIMEOUT_MS", "fetch.connect_timeout_ms"),
    ("SEO_AUDIT_FETCH_TIMEOUT_MS", "fetch.total_timeout_ms"),
    ("SEO_AUDIT_TEXT_TIMEOUT_MS", "fetch.text_timeout_ms"),
    ("SEO_AUDIT_MAX_PAGE_BYTES", "fetch.max_body_bytes"),
    ("SEO_AUDIT_ROBOTS_CACHE_TTL_S", "fetch.robots_cache_ttl_s"),
];

/// Every setting, as its key (`section.key` inside a section) and its default value, in key
/// order: what [`Config`] defines, read from it.
pub fn settings() -> Vec<(String, Value)> {
    let defaults = Value::serialize(Config::default()).ok().and_then(Value::into_dict).unwrap_or_default();
    let mut out = Vec::new();
    leaves("", &defaults, &mut out);
    out
}

fn leaves(prefix: &str, dict: &Dict, out: &mut Vec<(String, Value)>) {
    for (name, value) in dict {
        let key = if prefix.is_empty() { name.clone() } else { format!("{prefix}.{name}") };
        match value {
            Value::Dict(_, section) => leaves(&key, section, out),
            _ => out.push((key, value.clone())),
        }
    }
}

/// Name of the environment layer in figment's metadata.
const ENV_SOURCE: &str = "environment variable";

/// The `SEO_AUDIT_*` variables that name a setting, as a figment layer. A value is text,
/// trimmed; for a list setting it is a comma list; empty, it unsets an optional setting and
/// turns a switch off.
struct Environment {
    /// Setting key, variable, value as figment reads it; an alias before its derived name,
    /// so the derived name wins.
    values: Vec<(String, String, Value)>,
}

impl Environment {
    fn new(vars: impl IntoIterator<Item = (String, String)>) -> Self {
        let settings = settings();
        let mut values: Vec<(bool, String, String, Value)> = Vec::new();
        for (var, raw) in vars {
            if !var.starts_with(ENV_PREFIX) {
                continue;
            }
            let alias = ENV_ALIASES.iter().find(|(name, _)| *name == var).map(|(_, key)| *key);
            let derived = alias.is_none();
            let found = settings.iter().find(|(key, _)| alias.map_or_else(|| env_name(key) == var, |a| a == key));
            if let Some((key, default)) = found {
                values.push((derived, key.clone(), var, env_value(raw.trim(), default)));
            }
        }
        values.sort_by_key(|(derived, ..)| *derived);
        Environment { values: values.into_iter().map(|(_, key, var, value)| (key, var, value)).collect() }
    }
}

/// The figment value of a variable's text, shaped by the setting's default: numbers and
/// switches stay text for the lossy extraction to read.
fn env_value(text: &str, default: &Value) -> Value {
    match default {
        Value::Array(..) => Value::from(
            text.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_string).collect::<Vec<_>>(),
        ),
        Value::Bool(..) if text.is_empty() => Value::from(false),
        Value::Empty(..) if text.is_empty() => Value::from(Empty::None),
        _ => Value::from(text),
    }
}

impl Provider for Environment {
    fn metadata(&self) -> Metadata {
        let vars: BTreeMap<String, String> =
            self.values.iter().map(|(key, var, _)| (key.clone(), var.clone())).collect();
        // An error's path may go past the setting (an element of a list): name the variable
        // of the longest key that is a setting.
        Metadata::named(ENV_SOURCE).interpolater(move |_: &Profile, path: &[&str]| {
            (1..=path.len())
                .rev()
                .find_map(|n| vars.get(&path[..n].join(".")).cloned())
                .unwrap_or_else(|| env_name(&path.join(".")))
        })
    }

    fn data(&self) -> Result<Map<Profile, Dict>, figment::Error> {
        let mut dict = Dict::new();
        for (key, _, value) in &self.values {
            insert(&mut dict, key, value.clone());
        }
        Ok(Profile::Default.collect(dict))
    }
}

/// Puts `value` at the dotted `key` of `dict`, making sections on the way.
fn insert(dict: &mut Dict, key: &str, value: Value) {
    match key.split_once('.') {
        None => {
            dict.insert(key.to_string(), value);
        }
        Some((section, rest)) => {
            let entry = dict.entry(section.to_string()).or_insert_with(|| Value::Dict(Tag::Default, Dict::new()));
            if let Value::Dict(_, inner) = entry {
                insert(inner, rest, value);
            }
        }
    }
}

/// Figment's error as a [`ConfigError`] naming the setting and its source (and, for a
/// variable, the text it holds).
fn config_error(e: figment::Error, layers: &Figment) -> ConfigError {
    let key = e.path.join(".");
    let what = e.kind.to_string();
    let message = match e.kind {
        figment::error::Kind::UnknownField(..) => what.clone(),
        _ if key.is_empty() => what.clone(),
        _ => format!("{key}: {what}"),
    };
    let Some(metadata) = &e.metadata else {
        return ConfigError::Other { key, origin: "settings".into(), message: what };
    };
    match &metadata.source {
        Some(Source::File(path)) => ConfigError::Toml { path: path.clone(), message },
        _ if metadata.name == ENV_SOURCE => {
            let message = match env_text(layers, &e.path) {
                Some(text) => format!("{text:?}: {what}"),
                None => what,
            };
            ConfigError::Env { var: metadata.interpolate(&Profile::Default, &e.path), message }
        }
        _ => ConfigError::Other { key, origin: metadata.name.to_string(), message: what },
    }
}

/// The text a variable gave the setting at `path`, or the list element at fault.
fn env_text(layers: &Figment, path: &[String]) -> Option<String> {
    let (key, index) = match path.split_last() {
        Some((last, setting)) if last.parse::<usize>().is_ok() => (setting.join("."), last.parse().ok()),
        _ => (path.join("."), None),
    };
    let value = match (layers.find_value(&key).ok()?, index) {
        (Value::Array(_, items), Some(i)) => items.into_iter().nth(i)?,
        (value, _) => value,
    };
    value.into_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use server::{FetchSettings, GeoSettings, MaxPages, RateLimits};

    /// Defaults overlaid by TOML text.
    fn from_toml(text: &str) -> Result<Config, String> {
        let layers = Figment::from(Serialized::defaults(Config::default())).merge(Toml::string(text));
        extract(&layers).map_err(|e| e.to_string())
    }

    fn from_env(vars: &[(&str, &str)]) -> Result<Config, ConfigError> {
        extract(&layers(None, vars.iter().map(|(k, v)| (k.to_string(), v.to_string())))?)
    }

    fn check_env(vars: &[(&str, &str)], expected: impl Fn(&Config) -> bool) {
        let c = from_env(vars).unwrap();
        assert!(expected(&c), "{vars:?} gave {c:?}");
    }

    #[test]
    fn environment_overrides() {
        check_env(&[], |c| *c == Config::default());
        check_env(&[("SEO_AUDIT_LISTEN", "0.0.0.0:9000")], |c| c.listen.port() == 9000);
        check_env(&[("SEO_AUDIT_ALLOW_TARGETS", "127.0.0.1, ::1,")], |c| c.allow_targets == ["127.0.0.1", "::1"]);
        check_env(&[("SEO_AUDIT_RATE_LIMITS_ANONYMOUS", "3")], |c| c.rate_limits.anonymous == 3);
        check_env(&[("SEO_AUDIT_RATE_LIMIT_ANONYMOUS", "3")], |c| c.rate_limits.anonymous == 3);
        check_env(&[("SEO_AUDIT_TRUSTED_PROXIES", "10.0.0.1")], |c| c.trusted_proxies.len() == 1);
        check_env(&[("SEO_AUDIT_OFFLINE", "1")], |c| c.offline && c.fetch_config().offline);
        check_env(&[("SEO_AUDIT_OFFLINE", "")], |c| !c.offline);
        check_env(&[], |c| c.anonymous_ipv6_prefix == 64);
        check_env(&[("SEO_AUDIT_ANONYMOUS_IPV6_PREFIX", "56")], |c| c.anonymous_ipv6_prefix == 56);
        check_env(&[("SEO_AUDIT_ANONYMOUS_IPV6_PREFIX", "128")], |c| c.anonymous_ipv6_prefix == 128);
        check_env(&[("SEO_AUDIT_GEO_MODEL", "m")], |c| c.geo.model.as_deref() == Some("m"));
        check_env(&[("SEO_AUDIT_GEO_API_KEY", "12345")], |c| c.geo.api_key.as_deref() == Some("12345"));
        check_env(&[("SEO_AUDIT_GEO_MODEL", "")], |c| c.geo.model.is_none());
        check_env(&[("SEO_AUDIT_BADGE_AUDIT_URL", "")], |c| c.badge_audit_url.is_empty());
        check_env(&[("SEO_AUDIT_IDLE_TIMEOUT_MS", " 1500 ")], |c| c.idle_timeout_ms == 1500);
        check_env(&[("SEO_AUDIT_ANALYSIS_CPU_MS", "500")], |c| c.analysis_cpu_ms == 500);
        check_env(&[("SEO_AUDIT_MAX_CONNECTIONS", "100")], |c| c.max_connections == 100);
        check_env(&[("SEO_AUDIT_MAX_CONNECTIONS_PER_IP", "0")], |c| c.max_connections_per_ip == 0);
        check_env(&[("OTHER", "x"), ("SEO_AUDIT_UNKNOWN", "x"), ("SEO_AUDIT_CONFIG", "x")], |c| {
            *c == Config::default()
        });
        // The derived name wins over an older one, whichever comes first.
        for vars in [
            [("SEO_AUDIT_FETCH_TOTAL_TIMEOUT_MS", "7"), ("SEO_AUDIT_FETCH_TIMEOUT_MS", "9")],
            [("SEO_AUDIT_FETCH_TIMEOUT_MS", "9"), ("SEO_AUDIT_FETCH_TOTAL_TIMEOUT_MS", "7")],
        ] {
            check_env(&vars, |c| c.fetch.total_timeout_ms == 7);
        }
    }

    #[test]
    fn bad_environment_values_are_errors_naming_the_variable() {
        for (k, v) in [
            ("SEO_AUDIT_LISTEN", "nope"),
            ("SEO_AUDIT_AUDIT_QUEUE", "-1"),
            ("SEO_AUDIT_AUDIT_QUEUE", ""),
            ("SEO_AUDIT_TRUSTED_PROXIES", "10.0.0.1,x"),
            ("SEO_AUDIT_MAX_CONNECTIONS", "-5"),
            ("SEO_AUDIT_ANONYMOUS_IPV6_PREFIX", "0"),
            ("SEO_AUDIT_ANONYMOUS_IPV6_PREFIX", "129"),
            ("SEO_AUDIT_ANONYMOUS_IPV6_PREFIX", "/64"),
            ("SEO_AUDIT_OFFLINE", "maybe"),
            ("SEO_AUDIT_GEO_TIMEOUT_MS", "soon"),
            ("SEO_AUDIT_RATE_LIMIT_PRO", "many"),
        ] {
            match from_env(&[(k, v)]) {
                Err(ConfigError::Env { var, message }) => {
                    assert_eq!(var, k, "{message}");
                    assert!(!message.is_empty());
                }
                other => panic!("{k}={v} gave {other:?}"),
            }
        }
        let e = from_env(&[("SEO_AUDIT_ANONYMOUS_IPV6_PREFIX", "0")]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid SEO_AUDIT_ANONYMOUS_IPV6_PREFIX: \"0\": 0 is not an IPv6 prefix length (1 to 128)"
        );
        let e = from_env(&[("SEO_AUDIT_TRUSTED_PROXIES", "10.0.0.1, x")]).unwrap_err();
        assert_eq!(e.to_string(), "invalid SEO_AUDIT_TRUSTED_PROXIES: \"x\": invalid IP address syntax");
    }

    #[test]
    fn toml_files() {
        let c = from_toml(
            "listen = \"127.0.0.1:0\"\nmax_concurrent_audits = 2\nmax_connections_per_ip = 8\n[rate_limits]\nfree = 5\n[fetch]\ntotal_timeout_ms = 100\n",
        )
        .unwrap();
        assert_eq!(c.listen.port(), 0);
        assert_eq!(c.max_concurrent_audits, 2);
        assert_eq!((c.max_connections_per_ip, c.max_connections), (8, Config::default().max_connections));
        assert_eq!(c.rate_limits, RateLimits { free: 5, ..RateLimits::default() });
        assert_eq!(c.fetch.total_timeout_ms, 100);
        assert_eq!(c.fetch.max_body_bytes, fetch::DEFAULT_MAX_BODY_BYTES);
        assert!(from_toml("listen = 5").is_err());
        assert!(from_toml("unknown_setting = 1").is_err());
        assert!(from_toml("[fetch]\nunknown_setting = 1").is_err());
        assert_eq!(from_toml("anonymous_ipv6_prefix = 48").unwrap().anonymous_ipv6_prefix, 48);
        assert!(from_toml("anonymous_ipv6_prefix = 0").is_err());
        assert!(from_toml("anonymous_ipv6_prefix = 129").is_err());
        assert_eq!(from_toml("").unwrap(), Config::default());
    }

    #[test]
    fn file_errors_name_the_file_and_the_setting() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing.toml");
        assert!(matches!(layers(Some(&missing), []), Err(ConfigError::Read { path, .. }) if path == missing));
        let file = dir.path().join("seo-audit.toml");
        for (text, wanted) in [
            ("audit_queue = -1\n", "audit_queue"),
            ("[fetch]\nmax_body_bytes = \"big\"\n", "fetch.max_body_bytes"),
            ("anonymous_ipv6_prefix = 0\n", "not an IPv6 prefix length"),
            ("typo = 1\n", "typo"),
            ("listen = \n", "listen"),
        ] {
            std::fs::write(&file, text).unwrap();
            let e = extract(&layers(Some(&file), []).unwrap()).unwrap_err();
            assert!(matches!(&e, ConfigError::Toml { path, .. } if *path == file), "{text:?}: {e:?}");
            assert!(e.to_string().contains(wanted), "{text:?}: {e}");
        }
        // The environment overrides the file.
        std::fs::write(&file, "audit_queue = 3\nmax_concurrent_audits = 4\n").unwrap();
        let c = extract(&layers(Some(&file), [("SEO_AUDIT_AUDIT_QUEUE".into(), "5".into())]).unwrap()).unwrap();
        assert_eq!((c.audit_queue, c.max_concurrent_audits), (5, 4));
    }

    /// A configuration that differs from the default in every setting.
    fn everything_set() -> Config {
        Config {
            listen: "0.0.0.0:9001".parse().unwrap(),
            metrics_listen: Some("127.0.0.1:9464".parse().unwrap()),
            data: PathBuf::from("/var/lib/seo-audit"),
            database_url: "postgres://seo@db.example.com/seo".into(),
            base_url: "https://seo.example.com".into(),
            allow_targets: vec!["127.0.0.1".into(), "localhost".into()],
            offline: true,
            trusted_proxies: vec!["10.0.0.1".parse().unwrap(), "::1".parse().unwrap()],
            anonymous_ipv6_prefix: 48,
            rate_limits: RateLimits { anonymous: 1, free: 2, pro: 3 },
            max_pages: MaxPages { anonymous: 35, free: 36, pro: 37 },
            max_concurrent_audits: 4,
            audit_queue: 5,
            analysis_cpu_ms: 6,
            chromium: Some(PathBuf::from("/usr/bin/chromium")),
            render_tabs: 23,
            render_queue: 24,
            render_timeout_ms: 25,
            render_memory_mb: 26,
            fetch: FetchSettings {
                connect_timeout_ms: 7,
                total_timeout_ms: 8,
                text_timeout_ms: 9,
                max_body_bytes: 10,
                robots_cache_ttl_s: 11,
            },
            geo: GeoSettings {
                base_url: Some("https://ai.example.com/v1".into()),
                api_key: Some("12345".into()),
                model: Some("sonar".into()),
                timeout_ms: Some(12),
            },
            header_timeout_ms: 13,
            body_timeout_ms: 14,
            body_budget_mb: 27,
            shutdown_grace_ms: 15,
            idle_timeout_ms: 16,
            max_connections: 17,
            max_connections_per_ip: 18,
            tls_cert: Some(PathBuf::from("/etc/seo-audit/chain.pem")),
            tls_key: Some(PathBuf::from("/etc/seo-audit/key.pem")),
            badge_audit_url: String::new(),
            widget_rate_limit: 19,
            monitor_interval_s: 20,
            webhook_retry_base_ms: 21,
            lease_ms: 22,
            crawl_time_limit_s: 23,
            crawl_external_budget: 39,
            max_running_crawls: 27,
            max_running_crawls_per_caller: 28,
            retain_anonymous_audits_days: 29,
            retain_keyed_audits_days: 30,
            retain_anonymous_crawls_days: 31,
            retain_keyed_crawls_days: 32,
            retain_anonymous_crawls: 33,
            retain_keyed_crawls_per_owner: 34,
            retain_crawl_pages_days: 38,
        }
    }

    /// Every setting can be set from the file and from the environment, under the names the
    /// definition gives it; an added setting fails here until `everything_set` sets it.
    #[test]
    fn every_setting_is_read_from_toml_and_from_the_environment() {
        let all = everything_set();
        let defaults = settings();
        let mut set = Vec::new();
        leaves("", &Value::serialize(&all).unwrap().into_dict().unwrap(), &mut set);
        assert_eq!(defaults.iter().map(|(k, _)| k).collect::<Vec<_>>(), set.iter().map(|(k, _)| k).collect::<Vec<_>>());
        assert!(defaults.len() >= 32, "{defaults:?}");
        for ((key, default), (_, value)) in defaults.iter().zip(&set) {
            assert_ne!(default, value, "everything_set leaves {key} at its default");
        }

        let toml = toml::to_string(&all).unwrap();
        assert_eq!(from_toml(&toml).unwrap(), all, "{toml}");

        let text = |v: &Value| match v {
            Value::Array(_, items) => items.iter().map(text_of).collect::<Vec<_>>().join(","),
            other => text_of(other),
        };
        let vars: Vec<(String, String)> = set.iter().map(|(key, value)| (env_name(key), text(value))).collect();
        let from_env = extract(&layers(None, vars.clone()).unwrap()).unwrap();
        assert_eq!(from_env, all, "{vars:?}");

        // Names are distinct and none is mistaken for another setting's.
        let mut names: Vec<String> = defaults.iter().map(|(k, _)| env_name(k)).collect();
        names.extend(ENV_ALIASES.iter().map(|(v, _)| v.to_string()));
        let count = names.len();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), count, "{names:?}");
        for (var, key) in ENV_ALIASES {
            assert!(defaults.iter().any(|(k, _)| k == key), "{var} names no setting {key}");
            let (_, value) = set.iter().find(|(k, _)| k == key).unwrap();
            let c = extract(&layers(None, [(var.to_string(), text(value))]).unwrap()).unwrap();
            assert_ne!(c, Config::default(), "{var}");
        }
    }

    fn text_of(v: &Value) -> String {
        match v {
            Value::String(_, s) => s.clone(),
            Value::Num(_, n) => n.to_u128().map_or_else(|| format!("{n:?}"), |n| n.to_string()),
            Value::Bool(_, b) => b.to_string(),
            other => panic!("no text for {other:?}"),
        }
    }
}

/// The flags and the docs against the definition.
#[cfg(test)]
mod flag_and_doc_tests {
    use std::collections::BTreeMap;

    use clap::{CommandFactory, Parser};

    use super::*;
    use crate::{Cli, Command};

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
        let mut set = Vec::new();
        leaves("", &dict, &mut set);
        set.into_iter().map(|(key, _)| key).collect()
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
        let keys: Vec<String> = settings().into_iter().map(|(k, _)| k).collect();
        for (flag, key) in &flags {
            assert!(keys.contains(key), "{flag} sets {key}, which is no setting");
        }
        assert_eq!(flags.get("--data").map(String::as_str), Some("data"));
        assert_eq!(flags.get("--rate-limit-anonymous").map(String::as_str), Some("rate_limits.anonymous"));
        assert_eq!(keys_set(&["seo-audit", "audit", "x", "--allow-target", "a"]), ["allow_targets"]);
        assert!(keys_set(&["seo-audit", "serve"]).is_empty(), "no flag given, no setting set");

        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("seo-audit.toml");
        std::fs::write(&file, "audit_queue = 1\nmax_concurrent_audits = 1\nidle_timeout_ms = 1\n").unwrap();
        let vars = [("SEO_AUDIT_AUDIT_QUEUE", "2"), ("SEO_AUDIT_MAX_CONCURRENT_AUDITS", "2")];
        let layers = layers(Some(&file), vars.iter().map(|(k, v)| (k.to_string(), v.to_string()))).unwrap();
        let cli = Cli::try_parse_from(["seo-audit", "serve", "--audit-queue", "3", "--allow-target", "a,b"]).unwrap();
        let Command::Serve(args) = &cli.command else { unreachable!() };
        let config = extract(&layers.merge(Flags(&cli.global)).merge(Flags(args))).unwrap();
        assert_eq!((config.audit_queue, config.max_concurrent_audits, config.idle_timeout_ms), (3, 2, 1));
        assert_eq!(config.allow_targets, ["a", "b"]);
        assert_eq!(config.data, Config::default().data);
    }

    /// docs/API.md, "Running the service", lists every setting once, with its default, its
    /// environment variable and its flags, and nothing else.
    #[test]
    fn the_settings_table_of_the_docs_is_the_definition() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/API.md");
        let doc = std::fs::read_to_string(&path).expect("docs/API.md");
        let start = doc.find("```toml\nlisten =").expect("the settings table") + "```toml\n".len();
        let table = &doc[start..start + doc[start..].find("```").expect("end of the table")];

        let defined: BTreeMap<String, Value> = settings().into_iter().collect();
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
            let default = defined.get(&key).unwrap_or_else(|| panic!("the docs list {key}, which is no setting"));
            let comment = comment.trim();
            let var: String =
                comment.chars().take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == '_').collect();
            assert_eq!(var, env_name(&key), "the variable of {key}");
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
        let missing: Vec<&String> = defined.keys().filter(|k| !seen.contains(k)).collect();
        assert!(missing.is_empty(), "the docs miss the settings {missing:?}");
        for (var, _) in ENV_ALIASES {
            assert!(doc.contains(&format!("`{var}`")), "the docs do not name the older variable {var}");
        }
    }
}
