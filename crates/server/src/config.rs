//! Settings of the service: defaults, a TOML file, then `SEO_AUDIT_*` environment variables
//! (later sources win; command-line flags are applied on top by the binary).

use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

/// Address `serve` listens on without configuration.
pub const DEFAULT_LISTEN: &str = "127.0.0.1:8080";
/// Data directory without configuration (holds the SQLite file).
pub const DEFAULT_DATA_DIR: &str = "./data";
/// Audits fetched and analysed at the same time, server-wide.
pub const DEFAULT_MAX_CONCURRENT_AUDITS: usize = 16;
/// Audits that may wait for a free slot; one more is answered 503 `overloaded`.
pub const DEFAULT_AUDIT_QUEUE: usize = 64;
/// Largest request body accepted: 1 MiB (docs/API.md, "Conventions of every endpoint").
pub const MAX_REQUEST_BODY_BYTES: usize = 1024 * 1024;
/// Audits of one batch that run at the same time (docs/API.md, "POST /api/v1/audit/batch").
pub const BATCH_CONCURRENCY: usize = 3;
/// Most URLs in one batch.
pub const MAX_BATCH_URLS: usize = 10;
/// Time a client gets to send its request headers.
pub const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// The URL audited for a domain: `{domain}` is replaced by the validated domain.
pub const DEFAULT_BADGE_AUDIT_URL: &str = "https://{domain}/";
/// Requests per minute per client IP to the badge and report routes: a flood guard,
/// separate from the audit quota (the badge consumes no audit quota; docs/API.md).
pub const DEFAULT_WIDGET_RATE_LIMIT: u32 = 120;
/// Default of [`crate::Config::anonymous_ipv6_prefix`]: an IPv6 client counts as its /64,
/// the block one subscriber usually gets.
pub const DEFAULT_ANONYMOUS_IPV6_PREFIX: u8 = 64;
/// CPU time one page's analysis (parse, facts, rules) may take.
pub const DEFAULT_ANALYSIS_CPU: Duration = Duration::from_secs(2);
/// Time a client gets to send a whole request body, once its headers are in.
pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(30);
/// Longest wait for requests in flight when shutting down.
pub const DEFAULT_SHUTDOWN_GRACE: Duration = Duration::from_secs(30);
/// Time a connection may stay open without a request in flight.
pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(60);
/// Connections open at once, server-wide (lowered at start to what the open-file limit
/// allows, see `docs/SECURITY.md`).
pub const DEFAULT_MAX_CONNECTIONS: usize = 10_000;
/// Connections open at once from one client IP (one IPv6 /64).
pub const DEFAULT_MAX_CONNECTIONS_PER_IP: usize = 256;

/// Requests (quota units) per minute of each kind of identity (docs/API.md, Quota).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
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
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
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
            robots_cache_ttl_s: DEFAULT_ROBOTS_CACHE_TTL_S,
        }
    }
}

/// Default reuse time of a fetched robots.txt: short enough that an edited robots.txt shows
/// within a minute, long enough that a batch or a crawl of one site asks for it once.
pub const DEFAULT_ROBOTS_CACHE_TTL_S: u64 = 60;

fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// The AI search provider of geo-check (`POST /api/geo-check`, see `crate::geo`). Its
/// `Debug` form leaves the key out, so logging the settings cannot leak it.
#[derive(Clone, Default, PartialEq, Eq, Deserialize)]
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
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
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
    pub anonymous_ipv6_prefix: u8,
    /// Per-minute quota of each kind of identity.
    pub rate_limits: RateLimits,
    /// Audits in flight at once, server-wide.
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
    /// 0: only the open-file limit bounds them. Never more than the open-file limit allows.
    pub max_connections: usize,
    /// Connections open at once from one client IP (one /64 for IPv6; trusted proxies
    /// only count globally); over it a new connection is closed at once. 0: no per-IP cap.
    pub max_connections_per_ip: usize,
    /// URL the badge audits in the background for a domain without a recent audit;
    /// `{domain}` is replaced by the domain. Empty: no background audits.
    pub badge_audit_url: String,
    /// Requests per minute per client IP to the badge and report routes (flood guard,
    /// separate from the audit quota).
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
            listen: DEFAULT_LISTEN.parse().unwrap_or_else(|_| SocketAddr::from(([127, 0, 0, 1], 8080))),
            data: PathBuf::from(DEFAULT_DATA_DIR),
            base_url: fetch::DEFAULT_BASE_URL.to_string(),
            allow_targets: Vec::new(),
            offline: false,
            trusted_proxies: Vec::new(),
            anonymous_ipv6_prefix: DEFAULT_ANONYMOUS_IPV6_PREFIX,
            rate_limits: RateLimits::default(),
            max_concurrent_audits: DEFAULT_MAX_CONCURRENT_AUDITS,
            audit_queue: DEFAULT_AUDIT_QUEUE,
            fetch: FetchSettings::default(),
            geo: GeoSettings::default(),
            header_timeout_ms: ms(DEFAULT_HEADER_TIMEOUT),
            analysis_cpu_ms: ms(DEFAULT_ANALYSIS_CPU),
            body_timeout_ms: ms(DEFAULT_BODY_TIMEOUT),
            shutdown_grace_ms: ms(DEFAULT_SHUTDOWN_GRACE),
            idle_timeout_ms: ms(DEFAULT_IDLE_TIMEOUT),
            max_connections: DEFAULT_MAX_CONNECTIONS,
            max_connections_per_ip: DEFAULT_MAX_CONNECTIONS_PER_IP,
            badge_audit_url: DEFAULT_BADGE_AUDIT_URL.to_string(),
            widget_rate_limit: DEFAULT_WIDGET_RATE_LIMIT,
            monitor_interval_s: u64::from(store::DEFAULT_MONITOR_INTERVAL_S),
            webhook_retry_base_ms: crate::webhooks::DEFAULT_RETRY_BASE_MS,
        }
    }
}

/// A setting that could not be read.
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
    /// The settings file is not valid TOML for [`Config`].
    #[error("invalid settings file {path}: {message}")]
    Toml {
        /// The file.
        path: PathBuf,
        /// The parser's message.
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
}

impl Config {
    /// Defaults, overlaid by `file` when given, overlaid by the process's `SEO_AUDIT_*`
    /// environment.
    pub fn load(file: Option<&Path>) -> Result<Config, ConfigError> {
        let mut config = match file {
            Some(path) => Config::from_file(path)?,
            None => Config::default(),
        };
        config.apply_env(std::env::vars())?;
        Ok(config)
    }

    /// Defaults overlaid by a TOML file.
    pub fn from_file(path: &Path) -> Result<Config, ConfigError> {
        let text =
            std::fs::read_to_string(path).map_err(|source| ConfigError::Read { path: path.to_path_buf(), source })?;
        Config::from_toml(&text).map_err(|message| ConfigError::Toml { path: path.to_path_buf(), message })
    }

    /// Defaults overlaid by TOML text.
    pub fn from_toml(text: &str) -> Result<Config, String> {
        let config: Config = toml::from_str(text).map_err(|e| e.to_string().trim().to_string())?;
        ipv6_prefix(config.anonymous_ipv6_prefix).map_err(|e| format!("anonymous_ipv6_prefix: {e}"))?;
        Ok(config)
    }

    /// Overlays the `SEO_AUDIT_*` variables among `vars` (names in [`ENV_VARS`]); others
    /// are ignored.
    pub fn apply_env(&mut self, vars: impl IntoIterator<Item = (String, String)>) -> Result<(), ConfigError> {
        for (var, value) in vars {
            if !var.starts_with("SEO_AUDIT_") {
                continue;
            }
            let bad = |message: String| ConfigError::Env { var: var.clone(), message };
            let v = value.trim();
            match var.as_str() {
                "SEO_AUDIT_LISTEN" => self.listen = parse(v).map_err(bad)?,
                "SEO_AUDIT_DATA" => self.data = PathBuf::from(v),
                "SEO_AUDIT_BASE_URL" => self.base_url = v.to_string(),
                "SEO_AUDIT_ALLOW_TARGETS" => self.allow_targets = comma_list(v),
                "SEO_AUDIT_OFFLINE" => self.offline = matches!(v, "1" | "true" | "yes" | "on"),
                "SEO_AUDIT_TRUSTED_PROXIES" => {
                    self.trusted_proxies =
                        comma_list(v).iter().map(|s| parse(s)).collect::<Result<_, _>>().map_err(bad)?
                }
                "SEO_AUDIT_ANONYMOUS_IPV6_PREFIX" => {
                    self.anonymous_ipv6_prefix = parse(v).and_then(ipv6_prefix).map_err(bad)?
                }
                "SEO_AUDIT_RATE_LIMIT_ANONYMOUS" => self.rate_limits.anonymous = parse(v).map_err(bad)?,
                "SEO_AUDIT_RATE_LIMIT_FREE" => self.rate_limits.free = parse(v).map_err(bad)?,
                "SEO_AUDIT_RATE_LIMIT_PRO" => self.rate_limits.pro = parse(v).map_err(bad)?,
                "SEO_AUDIT_MAX_CONCURRENT_AUDITS" => self.max_concurrent_audits = parse(v).map_err(bad)?,
                "SEO_AUDIT_AUDIT_QUEUE" => self.audit_queue = parse(v).map_err(bad)?,
                "SEO_AUDIT_CONNECT_TIMEOUT_MS" => self.fetch.connect_timeout_ms = parse(v).map_err(bad)?,
                "SEO_AUDIT_FETCH_TIMEOUT_MS" => self.fetch.total_timeout_ms = parse(v).map_err(bad)?,
                "SEO_AUDIT_TEXT_TIMEOUT_MS" => self.fetch.text_timeout_ms = parse(v).map_err(bad)?,
                "SEO_AUDIT_MAX_PAGE_BYTES" => self.fetch.max_body_bytes = parse(v).map_err(bad)?,
                "SEO_AUDIT_ROBOTS_CACHE_TTL_S" => self.fetch.robots_cache_ttl_s = parse(v).map_err(bad)?,
                "SEO_AUDIT_GEO_BASE_URL" => self.geo.base_url = non_empty(v),
                "SEO_AUDIT_GEO_API_KEY" => self.geo.api_key = non_empty(v),
                "SEO_AUDIT_GEO_MODEL" => self.geo.model = non_empty(v),
                "SEO_AUDIT_GEO_TIMEOUT_MS" => self.geo.timeout_ms = Some(parse(v).map_err(bad)?),
                "SEO_AUDIT_HEADER_TIMEOUT_MS" => self.header_timeout_ms = parse(v).map_err(bad)?,
                "SEO_AUDIT_BODY_TIMEOUT_MS" => self.body_timeout_ms = parse(v).map_err(bad)?,
                "SEO_AUDIT_ANALYSIS_CPU_MS" => self.analysis_cpu_ms = parse(v).map_err(bad)?,
                "SEO_AUDIT_SHUTDOWN_GRACE_MS" => self.shutdown_grace_ms = parse(v).map_err(bad)?,
                "SEO_AUDIT_IDLE_TIMEOUT_MS" => self.idle_timeout_ms = parse(v).map_err(bad)?,
                "SEO_AUDIT_MAX_CONNECTIONS" => self.max_connections = parse(v).map_err(bad)?,
                "SEO_AUDIT_MAX_CONNECTIONS_PER_IP" => self.max_connections_per_ip = parse(v).map_err(bad)?,
                "SEO_AUDIT_BADGE_AUDIT_URL" => self.badge_audit_url = v.to_string(),
                "SEO_AUDIT_WIDGET_RATE_LIMIT" => self.widget_rate_limit = parse(v).map_err(bad)?,
                "SEO_AUDIT_MONITOR_INTERVAL_S" => self.monitor_interval_s = parse(v).map_err(bad)?,
                "SEO_AUDIT_WEBHOOK_RETRY_BASE_MS" => self.webhook_retry_base_ms = parse(v).map_err(bad)?,
                // SEO_AUDIT_CONFIG names the file itself; SEO_AUDIT_LOG is read by the
                // binary's log setup; unknown names are left for other tools.
                _ => {}
            }
        }
        Ok(())
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

/// Environment variables [`Config::apply_env`] reads.
pub const ENV_VARS: &[&str] = &[
    "SEO_AUDIT_LISTEN",
    "SEO_AUDIT_DATA",
    "SEO_AUDIT_BASE_URL",
    "SEO_AUDIT_ALLOW_TARGETS",
    "SEO_AUDIT_OFFLINE",
    "SEO_AUDIT_TRUSTED_PROXIES",
    "SEO_AUDIT_ANONYMOUS_IPV6_PREFIX",
    "SEO_AUDIT_RATE_LIMIT_ANONYMOUS",
    "SEO_AUDIT_RATE_LIMIT_FREE",
    "SEO_AUDIT_RATE_LIMIT_PRO",
    "SEO_AUDIT_MAX_CONCURRENT_AUDITS",
    "SEO_AUDIT_AUDIT_QUEUE",
    "SEO_AUDIT_CONNECT_TIMEOUT_MS",
    "SEO_AUDIT_FETCH_TIMEOUT_MS",
    "SEO_AUDIT_TEXT_TIMEOUT_MS",
    "SEO_AUDIT_MAX_PAGE_BYTES",
    "SEO_AUDIT_ROBOTS_CACHE_TTL_S",
    "SEO_AUDIT_GEO_BASE_URL",
    "SEO_AUDIT_GEO_API_KEY",
    "SEO_AUDIT_GEO_MODEL",
    "SEO_AUDIT_GEO_TIMEOUT_MS",
    "SEO_AUDIT_HEADER_TIMEOUT_MS",
    "SEO_AUDIT_BODY_TIMEOUT_MS",
    "SEO_AUDIT_SHUTDOWN_GRACE_MS",
    "SEO_AUDIT_ANALYSIS_CPU_MS",
    "SEO_AUDIT_IDLE_TIMEOUT_MS",
    "SEO_AUDIT_MAX_CONNECTIONS",
    "SEO_AUDIT_MAX_CONNECTIONS_PER_IP",
    "SEO_AUDIT_BADGE_AUDIT_URL",
    "SEO_AUDIT_WIDGET_RATE_LIMIT",
    "SEO_AUDIT_MONITOR_INTERVAL_S",
    "SEO_AUDIT_WEBHOOK_RETRY_BASE_MS",
];

fn parse<T: std::str::FromStr>(v: &str) -> Result<T, String>
where
    T::Err: std::fmt::Display,
{
    v.parse::<T>().map_err(|e| format!("{v:?}: {e}"))
}

/// An IPv6 prefix length: 1 to 128.
fn ipv6_prefix(bits: u8) -> Result<u8, String> {
    if (1..=128).contains(&bits) {
        Ok(bits)
    } else {
        Err(format!("{bits} is not an IPv6 prefix length (1 to 128)"))
    }
}

fn comma_list(v: &str) -> Vec<String> {
    v.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_string).collect()
}

fn non_empty(v: &str) -> Option<String> {
    (!v.is_empty()).then(|| v.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_env(vars: &[(&str, &str)], expected: impl Fn(&Config) -> bool) {
        let mut c = Config::default();
        c.apply_env(vars.iter().map(|(k, v)| (k.to_string(), v.to_string()))).unwrap();
        assert!(expected(&c), "{vars:?} gave {c:?}");
    }

    #[test]
    fn environment_overrides() {
        check_env(&[], |c| *c == Config::default());
        check_env(&[("SEO_AUDIT_LISTEN", "0.0.0.0:9000")], |c| c.listen.port() == 9000);
        check_env(&[("SEO_AUDIT_ALLOW_TARGETS", "127.0.0.1, ::1,")], |c| c.allow_targets == ["127.0.0.1", "::1"]);
        check_env(&[("SEO_AUDIT_RATE_LIMIT_ANONYMOUS", "3")], |c| c.rate_limits.anonymous == 3);
        check_env(&[("SEO_AUDIT_TRUSTED_PROXIES", "10.0.0.1")], |c| c.trusted_proxies.len() == 1);
        check_env(&[("SEO_AUDIT_OFFLINE", "1")], |c| c.offline && c.fetch_config().offline);
        check_env(&[], |c| c.anonymous_ipv6_prefix == 64);
        check_env(&[("SEO_AUDIT_ANONYMOUS_IPV6_PREFIX", "56")], |c| c.anonymous_ipv6_prefix == 56);
        check_env(&[("SEO_AUDIT_ANONYMOUS_IPV6_PREFIX", "128")], |c| c.anonymous_ipv6_prefix == 128);
        check_env(&[("SEO_AUDIT_GEO_MODEL", "m")], |c| c.geo.model.as_deref() == Some("m"));
        check_env(&[("SEO_AUDIT_IDLE_TIMEOUT_MS", "1500")], |c| c.idle_timeout_ms == 1500);
        check_env(&[("SEO_AUDIT_ANALYSIS_CPU_MS", "500")], |c| c.analysis_cpu_ms == 500);
        check_env(&[("SEO_AUDIT_MAX_CONNECTIONS", "100")], |c| c.max_connections == 100);
        check_env(&[("SEO_AUDIT_MAX_CONNECTIONS_PER_IP", "0")], |c| c.max_connections_per_ip == 0);
        check_env(&[("OTHER", "x"), ("SEO_AUDIT_UNKNOWN", "x")], |c| *c == Config::default());
    }

    #[test]
    fn bad_environment_values_are_errors() {
        for (k, v) in [
            ("SEO_AUDIT_LISTEN", "nope"),
            ("SEO_AUDIT_AUDIT_QUEUE", "-1"),
            ("SEO_AUDIT_TRUSTED_PROXIES", "x"),
            ("SEO_AUDIT_MAX_CONNECTIONS", "-5"),
            ("SEO_AUDIT_ANONYMOUS_IPV6_PREFIX", "0"),
            ("SEO_AUDIT_ANONYMOUS_IPV6_PREFIX", "129"),
            ("SEO_AUDIT_ANONYMOUS_IPV6_PREFIX", "/64"),
        ] {
            let mut c = Config::default();
            assert!(c.apply_env([(k.to_string(), v.to_string())]).is_err(), "{k}={v}");
        }
    }

    #[test]
    fn toml_files() {
        let c = Config::from_toml(
            "listen = \"127.0.0.1:0\"\nmax_concurrent_audits = 2\nmax_connections_per_ip = 8\n[rate_limits]\nfree = 5\n[fetch]\ntotal_timeout_ms = 100\n",
        )
        .unwrap();
        assert_eq!(c.listen.port(), 0);
        assert_eq!(c.max_concurrent_audits, 2);
        assert_eq!((c.max_connections_per_ip, c.max_connections), (8, DEFAULT_MAX_CONNECTIONS));
        assert_eq!(c.rate_limits, RateLimits { free: 5, ..RateLimits::default() });
        assert_eq!(c.fetch.total_timeout_ms, 100);
        assert_eq!(c.fetch.max_body_bytes, fetch::DEFAULT_MAX_BODY_BYTES);
        assert!(Config::from_toml("listen = 5").is_err());
        assert!(Config::from_toml("unknown_setting = 1").is_err());
        assert_eq!(Config::from_toml("anonymous_ipv6_prefix = 48").unwrap().anonymous_ipv6_prefix, 48);
        assert!(Config::from_toml("anonymous_ipv6_prefix = 0").is_err());
        assert!(Config::from_toml("anonymous_ipv6_prefix = 129").is_err());
        assert_eq!(Config::from_toml("").unwrap(), Config::default());
    }
}
