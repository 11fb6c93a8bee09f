//! geo-check (docs/API.md, "POST /api/geo-check"): the AI search provider, built once from
//! [`GeoSettings`], and the use case that asks it about an audited page, with its per-domain
//! cache. Without a provider the answer is [`AppError::NotConfigured`]; a provider failure
//! is [`AppError::Provider`].
//!
//! The provider gets its own [`fetch::Fetcher`] whose allow-list holds only the
//! provider's host: the operator named that address, so it may be private (a gateway on
//! the same network), while the fetcher of audited pages keeps its guard unchanged.

use std::time::Duration;

use ai_visibility::{
    geo_check, normalize_domain, GeoCheckResult, GeoOptions, OpenAiCompatibleProvider, DEFAULT_GEO_CONCURRENCY,
    GEO_QUERY_COUNT,
};
use url::Url;

use crate::{App, AppError};

/// The AI search provider's settings (the `[geo]` section of the service's settings). Its
/// `Debug` form leaves the key out, so logging the settings cannot leak it.
#[derive(Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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
    /// The provider the settings describe, fetching with `fetch` (the service's fetcher
    /// settings; the allow-list and the wait are the provider's own). Never fails: a
    /// missing or unusable provider is reported by [`GeoService::provider`] on each
    /// geo-check instead, so the rest of the service starts either way.
    pub fn new(settings: &GeoSettings, fetch: fetch::FetchConfig) -> GeoService {
        let options = options(settings);
        let provider = build(settings, fetch, options.query_timeout);
        if let Err(Unavailable::Invalid(why)) = &provider {
            tracing::error!(reason = %why, "geo-check provider settings are unusable; geo-check answers 503");
        }
        GeoService { provider, options }
    }

    /// The provider, or [`AppError::NotConfigured`].
    ///
    /// # Errors
    /// There is no usable provider.
    pub fn provider(&self) -> Result<&OpenAiCompatibleProvider, AppError> {
        match &self.provider {
            Ok(p) => Ok(p),
            Err(Unavailable::NotConfigured) => Err(AppError::NotConfigured { invalid: false }),
            Err(Unavailable::Invalid(_)) => Err(AppError::NotConfigured { invalid: true }),
        }
    }

    /// Limits of one geo-check.
    pub fn options(&self) -> &GeoOptions {
        &self.options
    }

    /// The geo-check of `url` for `owner` (`None`: an anonymous caller, then named by
    /// `caller`, its identity label): without a provider nothing is charged (the request
    /// could never succeed); then a place among the audit slots and one unit charged to `payer`; then the
    /// caller's own cached answer for the domain (younger than [`store::GEO_CACHE_TTL`]; an
    /// answer is never served to another caller), which asks neither the page nor the
    /// provider; otherwise the page is audited through the one
    /// audit path and the provider is asked, and the answer is cached. The answer is the
    /// wire body (docs/API.md, "POST /api/geo-check"), with `cached` telling which.
    ///
    /// Dropped (the client went away), the check stops asking the provider.
    ///
    /// # Errors
    /// `not_configured`, `overloaded`, the charge's refusal, what the audit met, or the
    /// provider's failure.
    pub async fn check(
        &self,
        app: &App,
        url: &Url,
        owner: Option<&crate::UserId>,
        caller: &str,
        payer: &crate::quota::Payer,
    ) -> Result<GeoCheckResult, AppError> {
        let provider = self.provider()?;
        let domain = normalize_domain(url.host_str().unwrap_or_default());
        let paid = app.admit_paid(0, payer).await?;

        let whose = owner.map_or_else(|| caller.to_string(), |user| format!("user:{user}"));
        let (lookup, lookup_whose) = (domain.clone(), whose.clone());
        let now = time::OffsetDateTime::now_utc();
        if let Some(entry) = app.db(move |s| s.get_geo_cache(&lookup, &lookup_whose, now)).await? {
            match serde_json::from_str::<GeoCheckResult>(&entry.result_json) {
                Ok(body) => return Ok(GeoCheckResult { cached: true, ..body }),
                Err(_) => {
                    tracing::warn!(domain = %domain, "unreadable geo-check cache entry; asking the provider again")
                }
            }
        }

        let page = app.audit_paid(paid, url, owner).await?;
        let report = geo_check(provider, &page.audit.page, &domain, &self.options).await.map_err(|e| {
            tracing::warn!(domain = %domain, error = %e, "geo-check provider failed");
            AppError::Provider(e)
        })?;
        let checked_at = time::OffsetDateTime::now_utc();
        // The cache keeps the answer as it was sent, so a cached answer is the same body.
        let body = GeoCheckResult {
            ok: true,
            api_version: audit_core::API_VERSION.into(),
            url: url.as_str().into(),
            domain: report.domain,
            visibility_score: report.visibility_score,
            queries: report.queries,
            checked_at: store::format_rfc3339(checked_at),
            cached: false,
        };
        let key = body.domain.clone();
        let text = serde_json::to_string(&body).map_err(|e| AppError::internal(format!("geo-check answer: {e}")))?;
        // A result that cannot be cached is still the client's answer; the next call asks again.
        if let Err(e) = app.db(move |s| s.put_geo_cache(&key, &whose, &text, checked_at)).await {
            tracing::error!(domain = %domain, error = %e, "geo-check result not cached");
        }
        Ok(body)
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

fn build(
    geo: &GeoSettings,
    fetch: fetch::FetchConfig,
    timeout: Duration,
) -> Result<OpenAiCompatibleProvider, Unavailable> {
    let (Some(base_url), Some(model)) = (geo.base_url.as_deref(), geo.model.as_deref()) else {
        return Err(Unavailable::NotConfigured);
    };
    let url = Url::parse(base_url.trim()).map_err(|e| Unavailable::Invalid(format!("base url: {e}")))?;
    let host = allow_entry(&url).ok_or_else(|| Unavailable::Invalid("base url has no host".into()))?;
    let fetch_config = fetch::FetchConfig {
        allow_targets: vec![host],
        // The provider answers once, whole; a page-sized limit on the wait would cut
        // long answers off before the per-query limit the operator chose.
        total_timeout: timeout,
        ..fetch
    };
    let fetcher = fetch::Fetcher::new(fetch_config).map_err(|e| Unavailable::Invalid(e.to_string()))?;
    let provider = OpenAiCompatibleProvider::new(fetcher, base_url, geo.api_key.clone().unwrap_or_default(), model)
        .map_err(|e| Unavailable::Invalid(e.to_string()))?;
    Ok(provider.with_timeout(timeout))
}

/// The allow-list entry for the provider's host and port (an IPv6 literal keeps its
/// brackets, so `[::1]:8080` parses as an address with a port).
fn allow_entry(url: &Url) -> Option<String> {
    let host = url.host_str().filter(|h| !h.is_empty())?;
    let port = url.port_or_known_default()?;
    Some(format!("{host}:{port}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_settings(base_url: Option<&str>, model: Option<&str>, expected: Result<&str, &str>) {
        let settings = GeoSettings {
            base_url: base_url.map(str::to_string),
            model: model.map(str::to_string),
            api_key: Some("sk-secret".into()),
            timeout_ms: None,
        };
        let service = GeoService::new(&settings, fetch::FetchConfig::default());
        match (service.provider(), expected) {
            (Ok(p), Ok(endpoint)) => {
                assert_eq!(p.endpoint().as_str(), endpoint);
                assert!(!format!("{service:?}").contains("sk-secret"));
            }
            (Err(e), Err(reason)) => {
                assert_eq!(e.code(), "not_configured");
                assert_eq!(e.details().and_then(|d| d["reason"].as_str().map(str::to_string)).as_deref(), Some(reason));
            }
            (got, _) => panic!("{base_url:?} {model:?}: unexpected {got:?}"),
        }
        // Neither the settings nor the service print the key.
        assert!(!format!("{settings:?} {service:?}").contains("sk-secret"));
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
}
