//! The AI search provider of geo-check, built once from [`GeoSettings`], and the mapping
//! of its failures to the API's error model (docs/API.md, "POST /api/geo-check": 503
//! `not_configured` without a provider, 502 `upstream_error` when it fails).
//!
//! The provider gets its own [`fetch::Fetcher`] whose allow-list holds only the
//! provider's host: the operator named that address, so it may be private (a gateway on
//! the same network), while the fetcher of audited pages keeps its guard unchanged.

use std::time::Duration;

use ai_visibility::{GeoOptions, OpenAiCompatibleProvider, ProviderError, DEFAULT_GEO_CONCURRENCY, GEO_QUERY_COUNT};
use http::StatusCode;
use serde_json::json;

use crate::config::{Config, GeoSettings};
use crate::error::ApiError;

/// The settings geo-check needs, named in the `not_configured` answer.
pub const GEO_SETTINGS: [&str; 2] = ["SEO_AUDIT_GEO_BASE_URL", "SEO_AUDIT_GEO_MODEL"];

/// The provider of geo-check, or why there is none.
#[derive(Debug)]
pub struct GeoService {
    provider: Result<OpenAiCompatibleProvider, Unavailable>,
    options: GeoOptions,
}

/// Why geo-check cannot run.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Unavailable {
    /// Base URL or model is not set.
    NotConfigured,
    /// The settings are set but unusable (logged once at start-up).
    Invalid(String),
}

impl GeoService {
    /// The provider the settings describe. Never fails: a missing or unusable provider
    /// is reported by [`GeoService::provider`] on each geo-check instead, so the rest of
    /// the service starts either way.
    pub fn from_config(config: &Config) -> GeoService {
        let options = options(&config.geo);
        let provider = build(config, options.query_timeout);
        if let Err(Unavailable::Invalid(why)) = &provider {
            tracing::error!(reason = %why, "geo-check provider settings are unusable; geo-check answers 503");
        }
        GeoService { provider, options }
    }

    /// The provider, or 503 `not_configured`.
    pub fn provider(&self) -> Result<&OpenAiCompatibleProvider, ApiError> {
        match &self.provider {
            Ok(p) => Ok(p),
            Err(Unavailable::NotConfigured) => Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "not_configured",
                "geo-check needs an AI search provider; the operator sets SEO_AUDIT_GEO_BASE_URL, SEO_AUDIT_GEO_MODEL and SEO_AUDIT_GEO_API_KEY.",
            )
            .with_details(json!({ "settings": GEO_SETTINGS, "reason": "missing" }))),
            Err(Unavailable::Invalid(_)) => Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "not_configured",
                "The AI search provider settings of this service are unusable; the operator has to correct them.",
            )
            .with_details(json!({ "settings": GEO_SETTINGS, "reason": "invalid" }))),
        }
    }

    /// Limits of one geo-check.
    pub fn options(&self) -> &GeoOptions {
        &self.options
    }
}

/// One query may take `timeout_ms`; twelve queries at [`DEFAULT_GEO_CONCURRENCY`] are
/// three rounds, so the whole check gets three times as long.
fn options(settings: &GeoSettings) -> GeoOptions {
    let defaults = GeoOptions::default();
    let query_timeout = settings.timeout_ms.map(Duration::from_millis).unwrap_or(defaults.query_timeout);
    let rounds = GEO_QUERY_COUNT.div_ceil(DEFAULT_GEO_CONCURRENCY) as u32;
    GeoOptions { concurrency: DEFAULT_GEO_CONCURRENCY, query_timeout, total_timeout: query_timeout * rounds }
}

fn build(config: &Config, timeout: Duration) -> Result<OpenAiCompatibleProvider, Unavailable> {
    let geo = &config.geo;
    let (Some(base_url), Some(model)) = (geo.base_url.as_deref(), geo.model.as_deref()) else {
        return Err(Unavailable::NotConfigured);
    };
    let url = url::Url::parse(base_url.trim()).map_err(|e| Unavailable::Invalid(format!("base url: {e}")))?;
    let host = allow_entry(&url).ok_or_else(|| Unavailable::Invalid("base url has no host".into()))?;
    let fetch_config = fetch::FetchConfig {
        allow_targets: vec![host],
        // The provider answers once, whole; a page-sized limit on the wait would cut
        // long answers off before the per-query limit the operator chose.
        total_timeout: timeout,
        ..config.fetch_config()
    };
    let fetcher = fetch::Fetcher::new(fetch_config).map_err(|e| Unavailable::Invalid(e.to_string()))?;
    let provider = OpenAiCompatibleProvider::new(fetcher, base_url, geo.api_key.clone().unwrap_or_default(), model)
        .map_err(|e| Unavailable::Invalid(e.to_string()))?;
    Ok(provider.with_timeout(timeout))
}

/// The allow-list entry for the provider's host and port (an IPv6 literal keeps its
/// brackets, so `[::1]:8080` parses as an address with a port).
fn allow_entry(url: &url::Url) -> Option<String> {
    let host = url.host_str().filter(|h| !h.is_empty())?;
    let port = url.port_or_known_default()?;
    Some(format!("{host}:{port}"))
}

/// 502 `upstream_error` in words of our own: the provider's answer, address and key
/// never reach the client (the cause is logged by the caller).
pub fn provider_error(e: &ProviderError) -> ApiError {
    let status = StatusCode::from_u16(e.http_status()).unwrap_or(StatusCode::BAD_GATEWAY);
    let (reason, message, upstream_status) = match e {
        ProviderError::Timeout => ("timeout", "The AI search provider did not answer in time.".to_string(), None),
        ProviderError::Status { status } => {
            ("status", format!("The AI search provider answered with HTTP status {status}."), Some(*status))
        }
        ProviderError::Malformed(_) => {
            ("malformed", "The AI search provider sent an answer that could not be read.".to_string(), None)
        }
        ProviderError::Transport(_) => {
            ("unreachable", "The AI search provider could not be reached.".to_string(), None)
        }
        _ => ("config", "The AI search provider is misconfigured.".to_string(), None),
    };
    let mut details = json!({ "reason": reason });
    if let Some(s) = upstream_status {
        details["upstream_status"] = json!(s);
    }
    ApiError::new(status, e.code(), message).with_details(details)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_settings(base_url: Option<&str>, model: Option<&str>, expected: Result<&str, &str>) {
        let config = Config {
            geo: GeoSettings {
                base_url: base_url.map(str::to_string),
                model: model.map(str::to_string),
                api_key: Some("sk-secret".into()),
                timeout_ms: None,
            },
            ..Config::default()
        };
        let service = GeoService::from_config(&config);
        match (service.provider(), expected) {
            (Ok(p), Ok(endpoint)) => {
                assert_eq!(p.endpoint().as_str(), endpoint);
                assert!(!format!("{service:?}").contains("sk-secret"));
            }
            (Err(e), Err(reason)) => {
                assert_eq!((e.status.as_u16(), e.code), (503, "not_configured"));
                assert_eq!(e.details.as_ref().and_then(|d| d.get("reason")).and_then(|r| r.as_str()), Some(reason));
            }
            (got, _) => panic!("{base_url:?} {model:?}: unexpected {got:?}"),
        }
        // Neither the settings nor the service print the key.
        assert!(!format!("{config:?} {service:?}").contains("sk-secret"));
    }

    #[test]
    fn provider_settings() {
        check_settings(Some("https://api.example/v1"), Some("m"), Ok("https://api.example/v1/chat/completions"));
        check_settings(Some("http://127.0.0.1:9/"), Some("m"), Ok("http://127.0.0.1:9/chat/completions"));
        check_settings(Some("http://[::1]:9"), Some("m"), Ok("http://[::1]:9/chat/completions"));
        check_settings(None, Some("m"), Err("missing"));
        check_settings(Some("https://api.example/v1"), None, Err("missing"));
        check_settings(Some("not a url"), Some("m"), Err("invalid"));
        check_settings(Some("ftp://api.example/"), Some("m"), Err("invalid"));
    }

    #[test]
    fn options_follow_the_timeout() {
        let o = options(&GeoSettings { timeout_ms: Some(200), ..GeoSettings::default() });
        assert_eq!((o.query_timeout, o.total_timeout), (Duration::from_millis(200), Duration::from_millis(600)));
        assert_eq!(options(&GeoSettings::default()), GeoOptions::default());
    }

    #[test]
    fn provider_errors_are_upstream_errors() {
        let cases = [
            (ProviderError::Timeout, "timeout"),
            (ProviderError::Status { status: 500 }, "status"),
            (ProviderError::Malformed("not json: sk-secret".into()), "malformed"),
            (ProviderError::Transport(fetch::Error::Connect("refused sk-secret".into())), "unreachable"),
            (ProviderError::Config("sk-secret".into()), "config"),
        ];
        for (e, reason) in cases {
            let api = provider_error(&e);
            assert_eq!((api.status.as_u16(), api.code), (502, "upstream_error"));
            assert_eq!(api.body()["error"]["details"]["reason"], reason);
            assert!(!api.body().to_string().contains("sk-secret"), "{e}");
        }
    }
}
