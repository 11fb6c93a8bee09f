//! Asking an AI search provider over the network: [`OpenAiCompatibleProvider`] and
//! [`geo_check`]. This is the only I/O of the crate and it is compiled only with the
//! `provider` feature, so that the pure engines (robots.txt, llms.txt, the AI crawler table,
//! the scans, the query generation) can be used, by `autofix` for one, without linking an
//! async runtime or an HTTP client. The server enables the feature.

use std::time::Duration;

use audit_core::Page;
use futures_util::stream::{self, StreamExt, TryStreamExt};
use serde_json::json;
use url::Url;

use crate::entity::normalize_domain;
use crate::geo::{
    brand_is_whole, count_mentions, generate_queries, geo_brand, parse_answer, AiSearchProvider, GeoOptions,
    GeoQueryResult, GeoReport, ProviderAnswer, ProviderError, ProviderFuture, DEFAULT_PROVIDER_TIMEOUT,
};

/// The instruction sent with every query. It asks for sources so that citations and
/// named sites, which mentions are counted from, appear in the answer.
const SYSTEM_PROMPT: &str = "You are an AI search assistant. Answer the user's question concisely, \
    recommend specific websites, brands or products where that fits, and name the sources you rely on with their URLs.";

/// The provider error a transport failure means: a timeout is the provider's timeout, an
/// oversized answer cannot be read, and anything else means the provider was unreachable.
fn from_fetch(e: fetch::Error) -> ProviderError {
    match e {
        fetch::Error::Timeout { .. } => ProviderError::Timeout,
        fetch::Error::Config(m) => ProviderError::Config(m),
        fetch::Error::TooLarge { limit } => ProviderError::Malformed(format!("answer larger than {limit} bytes")),
        other => ProviderError::Transport(other),
    }
}

/// An AI search engine behind an OpenAI-compatible chat-completions interface
/// (OpenAI, Perplexity, OpenRouter, a local gateway ...): `POST {base_url}/chat/completions`
/// with bearer auth. All HTTP goes through the given [`fetch::Fetcher`], so the address
/// guard applies; the server puts the operator's provider address on its allow list.
#[derive(Clone)]
pub struct OpenAiCompatibleProvider {
    fetcher: fetch::Fetcher,
    endpoint: Url,
    api_key: String,
    model: String,
    timeout: Duration,
}

impl std::fmt::Debug for OpenAiCompatibleProvider {
    // The key is a secret and stays out of logs.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenAiCompatibleProvider")
            .field("endpoint", &self.endpoint.as_str())
            .field("model", &self.model)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

impl OpenAiCompatibleProvider {
    /// A provider at `base_url` (e.g. `https://api.perplexity.ai` or
    /// `https://api.openai.com/v1`), with [`DEFAULT_PROVIDER_TIMEOUT`] per query. An
    /// empty `api_key` sends no `Authorization` header (local gateways).
    ///
    /// # Errors
    /// [`ProviderError::Config`] when `base_url` is not an http(s) URL.
    pub fn new(
        fetcher: fetch::Fetcher,
        base_url: &str,
        api_key: impl Into<String>,
        model: impl Into<String>,
    ) -> Result<OpenAiCompatibleProvider, ProviderError> {
        let base = base_url.trim().trim_end_matches('/');
        let endpoint = Url::parse(&format!("{base}/chat/completions"))
            .ok()
            .filter(|u| matches!(u.scheme(), "http" | "https") && u.has_host())
            .ok_or_else(|| ProviderError::Config(format!("base url {base_url:?} is not an http(s) url")))?;
        Ok(OpenAiCompatibleProvider {
            fetcher,
            endpoint,
            api_key: api_key.into(),
            model: model.into(),
            timeout: DEFAULT_PROVIDER_TIMEOUT,
        })
    }

    /// The same provider with another per-query time limit.
    pub fn with_timeout(mut self, timeout: Duration) -> OpenAiCompatibleProvider {
        self.timeout = timeout;
        self
    }

    /// The URL queries are posted to.
    pub fn endpoint(&self) -> &Url {
        &self.endpoint
    }

    /// The model asked.
    pub fn model(&self) -> &str {
        &self.model
    }

    async fn ask_inner(&self, query: &str) -> Result<ProviderAnswer, ProviderError> {
        let body = json!({
            "model": self.model,
            "messages": [
                {"role": "system", "content": SYSTEM_PROMPT},
                {"role": "user", "content": query},
            ],
        });
        let mut headers = vec![("accept".to_owned(), "application/json".to_owned())];
        if !self.api_key.is_empty() {
            headers.push(("authorization".to_owned(), format!("Bearer {}", self.api_key)));
        }
        let (status, _headers, bytes) =
            self.fetcher.post_json(&self.endpoint, &headers, &body, self.timeout).await.map_err(from_fetch)?;
        if !(200..300).contains(&status) {
            return Err(ProviderError::Status { status });
        }
        parse_answer(&bytes)
    }
}

impl AiSearchProvider for OpenAiCompatibleProvider {
    fn ask<'a>(&'a self, query: &'a str) -> ProviderFuture<'a> {
        Box::pin(self.ask_inner(query))
    }
}

/// Runs a geo-check: asks the [`generate_queries`] of `page` with at most
/// `options.concurrency` in flight, each bounded by `options.query_timeout` and the
/// whole by `options.total_timeout`. Results keep query order.
///
/// # Errors
/// The first [`ProviderError`]: a score over fewer than twelve answers would not be the
/// score the interface promises, so a failed query fails the check.
pub async fn geo_check<P: AiSearchProvider + ?Sized>(
    provider: &P,
    page: &Page,
    domain: &str,
    options: &GeoOptions,
) -> Result<GeoReport, ProviderError> {
    let queries = generate_queries(page, domain);
    let brand = geo_brand(page, domain);
    // A brand the queries had to cut is not counted: no answer names it back whole.
    let brand = Some(brand).filter(|b| !b.is_empty() && brand_is_whole(b));
    let domain_norm = normalize_domain(domain);
    let per_query = options.query_timeout;
    // The futures are built eagerly from owned queries (not inside a stream combinator's
    // closure), so the whole check is a `Send` future a request handler can await.
    let asks = stream::iter(queries.into_iter().map(|q| {
        let (brand, domain) = (brand.clone(), domain_norm.clone());
        async move {
            let answer =
                tokio::time::timeout(per_query, provider.ask(&q.query)).await.map_err(|_| ProviderError::Timeout)??;
            let mentions = count_mentions(&answer, &domain, brand.as_deref());
            Ok::<_, ProviderError>(GeoQueryResult { query: q.query, kind: q.kind, found: mentions > 0, mentions })
        }
    }))
    .buffered(options.concurrency.max(1))
    .try_collect::<Vec<_>>();
    let results = tokio::time::timeout(options.total_timeout, asks).await.map_err(|_| ProviderError::Timeout)??;
    let found = results.iter().filter(|r| r.found).count();
    let visibility_score =
        if results.is_empty() { 0 } else { ((found * 200 + results.len()) / (results.len() * 2)) as u8 };
    Ok(GeoReport { domain: domain_norm, visibility_score, queries: results })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn provider_settings() {
        let fetcher = fetch::Fetcher::new(fetch::FetchConfig::default()).unwrap();
        let p = OpenAiCompatibleProvider::new(fetcher.clone(), "https://api.example/v1/", "sk-secret", "m").unwrap();
        assert_eq!(p.endpoint().as_str(), "https://api.example/v1/chat/completions");
        assert!(!format!("{p:?}").contains("sk-secret"));
        for bad in ["", "ftp://x/", "not a url"] {
            assert!(
                matches!(OpenAiCompatibleProvider::new(fetcher.clone(), bad, "", "m"), Err(ProviderError::Config(_))),
                "{bad}"
            );
        }
    }
}
