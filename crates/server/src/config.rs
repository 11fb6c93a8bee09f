//! Settings of the service, from one definition: [`Config`] and its sections are the settings
//! (a field each: its key in the TOML file, its type, its doc), their `Default` is the
//! defaults, and each setting's environment variable is derived from its key ([`env_name`]).
//! [`Config::load`] layers them with figment: defaults, then the TOML file, then `SEO_AUDIT_*`
//! variables; the binary merges its command-line flags on top (docs/API.md, "Running the
//! service", whose table of settings a test of the binary checks against this definition).

use std::collections::BTreeMap;
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::time::Duration;

use figment::providers::{Format, Serialized, Toml};
use figment::value::{Dict, Empty, Map, Tag, Value};
use figment::{Figment, Metadata, Profile, Provider, Source};
use serde::{Deserialize, Deserializer, Serialize};

/// Largest request body accepted: 1 MiB (docs/API.md, "Conventions of every endpoint").
pub const MAX_REQUEST_BODY_BYTES: usize = 1024 * 1024;
/// Audits of one batch that run at the same time (docs/API.md, "POST /api/v1/audit/batch").
pub const BATCH_CONCURRENCY: usize = 3;
/// Most URLs in one batch.
pub const MAX_BATCH_URLS: usize = 10;
/// CPU time one page's analysis (parse, facts, rules) may take.
pub const DEFAULT_ANALYSIS_CPU: Duration = Duration::from_secs(2);
/// The URL audited for a domain: `{domain}` is replaced by the validated domain.
pub const DEFAULT_BADGE_AUDIT_URL: &str = "https://{domain}/";
/// Default of [`crate::Config::anonymous_ipv6_prefix`]: an IPv6 client counts as its /64,
/// the block one subscriber usually gets.
pub const DEFAULT_ANONYMOUS_IPV6_PREFIX: u8 = 64;

/// Requests (quota units) per minute of each kind of identity (docs/API.md, Quota).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RateLimits {
    /// Per client IP, without a key.
    pub anonymous: u32,
    /// Keys of tier `free` without their own limit.
    pub free: u32,
    /// Keys of tier `pro` without their own limit.
    pub pro: u32,
}

impl Default for RateLimits {
    fn default() -> Self {
        RateLimits { anonymous: store::ANONYMOUS_RATE_LIMIT, free: store::FREE_RATE_LIMIT, pro: store::PRO_RATE_LIMIT }
    }
}

impl RateLimits {
    /// The per-minute limit of a tier.
    pub fn for_tier(&self, tier: store::Tier) -> u32 {
        match tier {
            store::Tier::Free => self.free,
            store::Tier::Pro => self.pro,
        }
    }
}

/// How targets are fetched (the `fetch` crate's limits, in config-file units).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FetchSettings {
    /// Longest wait for a connection, per hop.
    pub connect_timeout_ms: u64,
    /// Longest time for a whole page fetch.
    pub total_timeout_ms: u64,
    /// Longest time for robots.txt and other text files.
    pub text_timeout_ms: u64,
    /// Largest page body after decompression.
    pub max_body_bytes: usize,
    /// How long a site's robots.txt is reused across audits of its pages (0: never).
    pub robots_cache_ttl_s: u64,
}

impl Default for FetchSettings {
    fn default() -> Self {
        FetchSettings {
            connect_timeout_ms: ms(fetch::DEFAULT_CONNECT_TIMEOUT),
            total_timeout_ms: ms(fetch::DEFAULT_TOTAL_TIMEOUT),
            text_timeout_ms: ms(fetch::DEFAULT_TEXT_TIMEOUT),
            max_body_bytes: fetch::DEFAULT_MAX_BODY_BYTES,
            // Short enough that an edited robots.txt shows within a minute, long enough that
            // a batch or a crawl of one site asks for it once.
            robots_cache_ttl_s: 60,
        }
    }
}

fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// The AI search provider of geo-check (`POST /api/geo-check`, see `crate::geo`). Its
/// `Debug` form leaves the key out, so logging the settings cannot leak it.
#[derive(Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GeoSettings {
    /// Base URL of an OpenAI-compatible chat-completions API.
    pub base_url: Option<String>,
    /// Its API key.
    pub api_key: Option<String>,
    /// The model to ask.
    pub model: Option<String>,
    /// Longest wait for one provider answer, in milliseconds (default 30 s); the whole
    /// check gets three times as long (`SEO_AUDIT_GEO_TIMEOUT_MS`).
    pub timeout_ms: Option<u64>,
}

impl std::fmt::Debug for GeoSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GeoSettings")
            .field("base_url", &self.base_url)
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .field("model", &self.model)
            .field("timeout_ms", &self.timeout_ms)
            .finish()
    }
}

/// Every setting of `seo-audit serve`. [`Config::default`] is the no-configuration service.
/// A field is a setting (a struct field is a `[section]` of settings): adding one here adds
/// it to the file, the environment ([`env_name`]) and the settings tests at once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Address and port to listen on; port 0 picks a free port.
    pub listen: SocketAddr,
    /// Directory holding the SQLite file ([`store::DB_FILE_NAME`]).
    pub data: PathBuf,
    /// Public base URL of the service (user agent, links in documents).
    pub base_url: String,
    /// Addresses the address guard lets through (development and tests only).
    pub allow_targets: Vec<String>,
    /// Test and sandbox setting (`SEO_AUDIT_OFFLINE=1`): only `allow_targets` are
    /// reachable, public hosts included in the refusal, and unlisted names are never looked
    /// up (see `fetch::FetchConfig::offline`). Off by default.
    pub offline: bool,
    /// Peers whose `X-Forwarded-For` is believed. Empty: the socket peer is the client.
    pub trusted_proxies: Vec<IpAddr>,
    /// Prefix length (1 to 128) of the network an anonymous IPv6 client counts as, for the
    /// anonymous quota and the badge's flood guard; 128 counts every address apart.
    #[serde(deserialize_with = "ipv6_prefix")]
    pub anonymous_ipv6_prefix: u8,
    /// Per-minute quota of each kind of identity.
    pub rate_limits: RateLimits,
    /// Audits fetched and analysed at once, server-wide.
    pub max_concurrent_audits: usize,
    /// Audits waiting for a slot; past that, 503 `overloaded`.
    pub audit_queue: usize,
    /// CPU time one page's analysis may take, in milliseconds; a page that needs more is
    /// audited as far as it was parsed, with the `html-too-complex` finding. 0: no limit
    /// (the parser's structural limits still hold).
    pub analysis_cpu_ms: u64,
    /// Target fetching limits.
    pub fetch: FetchSettings,
    /// AI search provider.
    pub geo: GeoSettings,
    /// Time a client gets to send its request headers, in milliseconds: from the accept
    /// to the first complete request head, then for each further head once its first
    /// byte is in.
    pub header_timeout_ms: u64,
    /// Time a client gets to send its request body, in milliseconds (a slow sender is
    /// answered 400 `invalid_request` and cut off).
    pub body_timeout_ms: u64,
    /// Longest wait for requests in flight at shutdown, in milliseconds; the process exits
    /// at most about a second after it, work still running or not.
    pub shutdown_grace_ms: u64,
    /// Time a connection may stay open with no request in flight, in milliseconds
    /// (HTTP/1.1 keep-alive and HTTP/2 alike).
    pub idle_timeout_ms: u64,
    /// Connections open at once, server-wide; over it a new connection is closed at once.
    /// 0: only the open-file limit bounds them. Never more than the open-file limit allows
    /// (lowered at start, see `docs/SECURITY.md`).
    pub max_connections: usize,
    /// Connections open at once from one client IP (one /64 for IPv6; trusted proxies
    /// only count globally); over it a new connection is closed at once. 0: no per-IP cap.
    pub max_connections_per_ip: usize,
    /// URL the badge audits in the background for a domain without a recent audit;
    /// `{domain}` is replaced by the domain. Empty: no background audits.
    pub badge_audit_url: String,
    /// Requests per minute per client IP to the badge and report routes: a flood guard,
    /// separate from the audit quota (the badge consumes no audit quota; docs/API.md).
    pub widget_rate_limit: u32,
    /// Seconds between two audits of a monitored page (daily by default; docs/API.md,
    /// "Monitoring").
    pub monitor_interval_s: u64,
    /// Delay before the first retry of a failed webhook delivery, in milliseconds; it
    /// doubles at each further attempt.
    pub webhook_retry_base_ms: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            data: PathBuf::from("./data"),
            base_url: fetch::DEFAULT_BASE_URL.to_string(),
            allow_targets: Vec::new(),
            offline: false,
            trusted_proxies: Vec::new(),
            anonymous_ipv6_prefix: DEFAULT_ANONYMOUS_IPV6_PREFIX,
            rate_limits: RateLimits::default(),
            max_concurrent_audits: 16,
            audit_queue: 64,
            fetch: FetchSettings::default(),
            geo: GeoSettings::default(),
            header_timeout_ms: 10_000,
            analysis_cpu_ms: ms(DEFAULT_ANALYSIS_CPU),
            body_timeout_ms: 30_000,
            shutdown_grace_ms: 30_000,
            idle_timeout_ms: 60_000,
            max_connections: 10_000,
            max_connections_per_ip: 256,
            badge_audit_url: DEFAULT_BADGE_AUDIT_URL.to_string(),
            widget_rate_limit: 120,
            monitor_interval_s: u64::from(store::DEFAULT_MONITOR_INTERVAL_S),
            webhook_retry_base_ms: crate::webhooks::DEFAULT_RETRY_BASE_MS,
        }
    }
}

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
    /// A value from another source (the command line, TOML text) is wrong.
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

impl Config {
    /// Defaults, overlaid by `file` when given, overlaid by the process's `SEO_AUDIT_*`
    /// environment.
    pub fn load(file: Option<&Path>) -> Result<Config, ConfigError> {
        Config::extract(&Config::layers(file, std::env::vars())?)
    }

    /// The layers [`Config::load`] reads, for a caller to merge more on top (the binary's
    /// flags): defaults, `file`, then the `SEO_AUDIT_*` variables among `vars` (others are
    /// ignored, as are `SEO_AUDIT_CONFIG`, the file's own name, and `SEO_AUDIT_LOG`).
    pub fn layers(
        file: Option<&Path>,
        vars: impl IntoIterator<Item = (String, String)>,
    ) -> Result<Figment, ConfigError> {
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

    /// Defaults overlaid by TOML text.
    pub fn from_toml(text: &str) -> Result<Config, String> {
        let layers = Figment::from(Serialized::defaults(Config::default())).merge(Toml::string(text));
        Config::extract(&layers).map_err(|e| e.to_string())
    }

    /// Path of the SQLite file inside [`Config::data`].
    pub fn db_path(&self) -> PathBuf {
        self.data.join(store::DB_FILE_NAME)
    }

    /// The fetcher settings these settings describe.
    pub fn fetch_config(&self) -> fetch::FetchConfig {
        fetch::FetchConfig {
            connect_timeout: Duration::from_millis(self.fetch.connect_timeout_ms),
            total_timeout: Duration::from_millis(self.fetch.total_timeout_ms),
            text_timeout: Duration::from_millis(self.fetch.text_timeout_ms),
            max_body_bytes: self.fetch.max_body_bytes,
            base_url: self.base_url.clone(),
            allow_targets: self.allow_targets.clone(),
            robots_cache_ttl: Duration::from_secs(self.fetch.robots_cache_ttl_s),
            offline: self.offline,
            ..fetch::FetchConfig::default()
        }
    }
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

/// An IPv6 prefix length: 1 to 128.
fn ipv6_prefix<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u8, D::Error> {
    let bits = u8::deserialize(deserializer)?;
    if (1..=128).contains(&bits) {
        Ok(bits)
    } else {
        Err(serde::de::Error::custom(format!("{bits} is not an IPv6 prefix length (1 to 128)")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from_env(vars: &[(&str, &str)]) -> Result<Config, ConfigError> {
        Config::extract(&Config::layers(None, vars.iter().map(|(k, v)| (k.to_string(), v.to_string())))?)
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
        let c = Config::from_toml(
            "listen = \"127.0.0.1:0\"\nmax_concurrent_audits = 2\nmax_connections_per_ip = 8\n[rate_limits]\nfree = 5\n[fetch]\ntotal_timeout_ms = 100\n",
        )
        .unwrap();
        assert_eq!(c.listen.port(), 0);
        assert_eq!(c.max_concurrent_audits, 2);
        assert_eq!((c.max_connections_per_ip, c.max_connections), (8, Config::default().max_connections));
        assert_eq!(c.rate_limits, RateLimits { free: 5, ..RateLimits::default() });
        assert_eq!(c.fetch.total_timeout_ms, 100);
        assert_eq!(c.fetch.max_body_bytes, fetch::DEFAULT_MAX_BODY_BYTES);
        assert!(Config::from_toml("listen = 5").is_err());
        assert!(Config::from_toml("unknown_setting = 1").is_err());
        assert!(Config::from_toml("[fetch]\nunknown_setting = 1").is_err());
        assert_eq!(Config::from_toml("anonymous_ipv6_prefix = 48").unwrap().anonymous_ipv6_prefix, 48);
        assert!(Config::from_toml("anonymous_ipv6_prefix = 0").is_err());
        assert!(Config::from_toml("anonymous_ipv6_prefix = 129").is_err());
        assert_eq!(Config::from_toml("").unwrap(), Config::default());
    }

    #[test]
    fn file_errors_name_the_file_and_the_setting() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing.toml");
        assert!(matches!(Config::layers(Some(&missing), []), Err(ConfigError::Read { path, .. }) if path == missing));
        let file = dir.path().join("seo-audit.toml");
        for (text, wanted) in [
            ("audit_queue = -1\n", "audit_queue"),
            ("[fetch]\nmax_body_bytes = \"big\"\n", "fetch.max_body_bytes"),
            ("anonymous_ipv6_prefix = 0\n", "not an IPv6 prefix length"),
            ("typo = 1\n", "typo"),
            ("listen = \n", "listen"),
        ] {
            std::fs::write(&file, text).unwrap();
            let e = Config::extract(&Config::layers(Some(&file), []).unwrap()).unwrap_err();
            assert!(matches!(&e, ConfigError::Toml { path, .. } if *path == file), "{text:?}: {e:?}");
            assert!(e.to_string().contains(wanted), "{text:?}: {e}");
        }
        // The environment overrides the file.
        std::fs::write(&file, "audit_queue = 3\nmax_concurrent_audits = 4\n").unwrap();
        let c = Config::extract(&Config::layers(Some(&file), [("SEO_AUDIT_AUDIT_QUEUE".into(), "5".into())]).unwrap())
            .unwrap();
        assert_eq!((c.audit_queue, c.max_concurrent_audits), (5, 4));
    }

    /// A configuration that differs from the default in every setting.
    fn everything_set() -> Config {
        Config {
            listen: "0.0.0.0:9001".parse().unwrap(),
            data: PathBuf::from("/var/lib/seo-audit"),
            base_url: "https://seo.example.com".into(),
            allow_targets: vec!["127.0.0.1".into(), "localhost".into()],
            offline: true,
            trusted_proxies: vec!["10.0.0.1".parse().unwrap(), "::1".parse().unwrap()],
            anonymous_ipv6_prefix: 48,
            rate_limits: RateLimits { anonymous: 1, free: 2, pro: 3 },
            max_concurrent_audits: 4,
            audit_queue: 5,
            analysis_cpu_ms: 6,
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
            shutdown_grace_ms: 15,
            idle_timeout_ms: 16,
            max_connections: 17,
            max_connections_per_ip: 18,
            badge_audit_url: String::new(),
            widget_rate_limit: 19,
            monitor_interval_s: 20,
            webhook_retry_base_ms: 21,
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
        assert_eq!(Config::from_toml(&toml).unwrap(), all, "{toml}");

        let text = |v: &Value| match v {
            Value::Array(_, items) => items.iter().map(text_of).collect::<Vec<_>>().join(","),
            other => text_of(other),
        };
        let vars: Vec<(String, String)> = set.iter().map(|(key, value)| (env_name(key), text(value))).collect();
        let from_env = Config::extract(&Config::layers(None, vars.clone()).unwrap()).unwrap();
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
            let c = Config::extract(&Config::layers(None, [(var.to_string(), text(value))]).unwrap()).unwrap();
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
