//! [`AppError`]: why a use case failed, in the application's words. The server maps it to
//! an HTTP status and error code in one place; background jobs log it or record
//! [`AppError::reason`].

use ai_visibility::ProviderError;
use serde_json::{json, Value};
use vocab::{ErrorCode, Refusal};

/// The settings geo-check needs, named in the `not_configured` answer.
pub const GEO_SETTINGS: [&str; 2] = ["SEO_AUDIT_GEO_BASE_URL", "SEO_AUDIT_GEO_MODEL"];

/// What an `internal` failure says to its reader; the cause goes to the log only.
pub const INTERNAL_MESSAGE: &str = "An internal error occurred; it has been logged with the request id.";

/// What an `overloaded` refusal says.
pub const OVERLOADED_MESSAGE: &str = "The service is busy with other audits; retry in a few seconds.";

/// Why a use case failed.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// The target could not be fetched (blocked, unreachable, not HTML, too large...).
    #[error(transparent)]
    Fetch(#[from] fetch::Error),
    /// Every audit slot is busy and the queue is full (or background work waited its
    /// patience out).
    #[error("the audit queue is full")]
    Overloaded,
    /// The database failed.
    #[error(transparent)]
    Store(#[from] store::Error),
    /// The use case refuses the request as asked and changes nothing: its code is one of
    /// docs/API.md "Errors" (`invalid_request`, `missing_parameter`, `invalid_url`,
    /// `not_found`, `conflict`).
    #[error(transparent)]
    Refused(#[from] Refusal),
    /// A bug: the engine panicked, a task failed, a result did not serialise.
    #[error("internal error: {0}")]
    Internal(String),
    /// geo-check has no AI search provider: its settings are missing, or (`invalid`)
    /// unusable.
    #[error("no usable ai search provider")]
    NotConfigured {
        /// The settings are set but unusable (rather than missing).
        invalid: bool,
    },
    /// The AI search provider failed (its answer, address and key are never shown).
    #[error(transparent)]
    Provider(ProviderError),
    /// A competitor page answered with this status outside 200..=299.
    #[error("the competitor answered http {0}")]
    CompetitorStatus(u16),
    /// A rendered audit was asked for and the service has no browser (docs/API.md,
    /// "Rendered audits"); the string is why, for the log.
    #[error("rendering is off: {0}")]
    RenderNotConfigured(String),
    /// The page did not render within the time limit and left no DOM to audit.
    #[error("the page did not render within {0:?}")]
    RenderTimeout(std::time::Duration),
    /// The browser failed while rendering (it is restarted for the next render); the
    /// string is the cause, for the log only.
    #[error("the browser failed: {0}")]
    RenderFailed(String),
    /// The browser did not start (a broken or wrong `chromium` binary); the string is the
    /// cause, for the log only.
    #[error("the browser did not start: {0}")]
    RenderStartFailed(String),
}

impl From<render::RenderError> for AppError {
    /// A render's failure in the application's words (docs/API.md, "Rendered audits",
    /// errors): no browser is `not_configured`, a full pool `overloaded`, the document's own
    /// fetch failure the fetch error it is.
    fn from(e: render::RenderError) -> AppError {
        match e {
            render::RenderError::NotConfigured(why) => AppError::RenderNotConfigured(why),
            render::RenderError::Overloaded => AppError::Overloaded,
            render::RenderError::Timeout(limit) => AppError::RenderTimeout(limit),
            render::RenderError::Fetch(f) => AppError::Fetch(f),
            render::RenderError::Browser(cause) => AppError::RenderFailed(cause),
            render::RenderError::Launch(cause) => AppError::RenderStartFailed(cause),
        }
    }
}

impl From<std::convert::Infallible> for AppError {
    /// A store that cannot fail (the command line's in-memory crawl frontier).
    fn from(e: std::convert::Infallible) -> AppError {
        match e {}
    }
}

/// `10 s` → `10 seconds`, `1 s` → `1 second`, `800 ms` → `0.8 seconds` (the fetcher's
/// wording of its own limits).
fn seconds(d: std::time::Duration) -> String {
    let ms = d.as_millis();
    match ms {
        1000 => "1 second".to_string(),
        ms if ms % 1000 == 0 => format!("{} seconds", ms / 1000),
        _ => format!("{} seconds", d.as_secs_f64()),
    }
}

/// What a paging `cursor` must be, in the refusal of one this service did not give out.
pub const CURSOR_EXPECTED: &str = "the `next_cursor` of an earlier page, passed as it was sent";

/// How an operator installs the browser of rendered audits, in the `not_configured` answer.
pub const RENDER_INSTALL: &str = "apt-get install chromium";

impl AppError {
    /// An internal error from anything displayable.
    pub fn internal(e: impl std::fmt::Display) -> AppError {
        AppError::Internal(e.to_string())
    }

    /// The database went away or cannot be written for now (a PostgreSQL server stopped, a
    /// SQLite file locked past its busy timeout or unwritable): work that failed with this
    /// is tried again once the database answers, rather than recorded as failed.
    pub fn is_store_unavailable(&self) -> bool {
        matches!(self, AppError::Store(e) if e.is_unavailable() && !e.is_damaged())
    }

    /// A refusal with `code` (see [`AppError::Refused`]).
    pub fn refused(code: ErrorCode, message: impl Into<String>) -> AppError {
        AppError::Refused(Refusal::new(code, message))
    }

    /// `missing_parameter` naming the parameter in `details.parameter`.
    pub fn missing_parameter(name: &str) -> AppError {
        AppError::Refused(Refusal::missing_parameter(name))
    }

    /// `invalid_request` for a query parameter whose value is malformed, naming it in
    /// `details.parameter`: "The parameter `limit` must be `expected`." Every route words
    /// the fault this one way (docs/API.md, "Errors").
    pub fn invalid_parameter(name: &str, expected: impl std::fmt::Display) -> AppError {
        AppError::refused(ErrorCode::InvalidRequest, format!("The parameter `{name}` must be {expected}."))
            .with_details(json!({ "parameter": name }))
    }

    /// `invalid_request` for a field of a JSON body with a value of the wrong type or
    /// range, naming it in `details.parameter`: "The field `render` must be `expected`."
    pub fn invalid_field(name: &str, expected: impl std::fmt::Display) -> AppError {
        // The sentence is written once, where typed request bodies are read.
        AppError::Refused(api::body::wrong_type(name, &expected.to_string()))
    }

    /// `invalid_request` for a JSON body that is not an object of the documented kind.
    pub fn body_not_object(members: &str) -> AppError {
        AppError::refused(ErrorCode::InvalidRequest, format!("The request body must be a JSON object with {members}."))
    }

    /// `invalid_request` for a member of a JSON body that the route does not know.
    pub fn unknown_field(name: &str) -> AppError {
        AppError::refused(ErrorCode::InvalidRequest, format!("The field `{name}` is not one this route takes."))
            .with_details(json!({ "parameter": name }))
    }

    /// A refusal with machine-readable details (other failures are returned unchanged).
    pub fn with_details(self, details: Value) -> AppError {
        match self {
            AppError::Refused(refusal) => AppError::Refused(refusal.with_details(details)),
            other => other,
        }
    }

    /// The stable error code (docs/API.md "Errors") this failure is reported with; each
    /// protocol maps it to its own status in its own layer.
    pub fn error_code(&self) -> ErrorCode {
        match self {
            AppError::Fetch(e) => e.error_code(),
            AppError::Overloaded => ErrorCode::Overloaded,
            AppError::Refused(refusal) => refusal.code,
            AppError::Store(_) | AppError::Internal(_) => ErrorCode::Internal,
            AppError::NotConfigured { .. } => ErrorCode::NotConfigured,
            // The provider's failures are all the service's upstream failing (its `code`).
            AppError::Provider(_) => ErrorCode::UpstreamError,
            AppError::CompetitorStatus(_) => ErrorCode::TargetStatus,
            AppError::RenderNotConfigured(_) => ErrorCode::NotConfigured,
            AppError::RenderTimeout(_) => ErrorCode::TargetTimeout,
            AppError::RenderFailed(_) | AppError::RenderStartFailed(_) => ErrorCode::UpstreamError,
        }
    }

    /// The wire name of [`AppError::error_code`].
    pub fn code(&self) -> &'static str {
        self.error_code().as_str()
    }

    /// The one sentence this failure is reported with (the API's `error.message`, a
    /// workflow step's reason, an alert): never an internal cause, never the provider's
    /// answer, address or key.
    pub fn message(&self) -> String {
        match self {
            AppError::Fetch(e) if e.error_code() == ErrorCode::Internal => INTERNAL_MESSAGE.to_string(),
            // The fetcher's sentences are ours already (docs/API.md, "Errors").
            AppError::Fetch(e) => e.to_string(),
            AppError::Overloaded => OVERLOADED_MESSAGE.to_string(),
            AppError::Refused(refusal) => refusal.message.clone(),
            AppError::Store(_) | AppError::Internal(_) => INTERNAL_MESSAGE.to_string(),
            AppError::NotConfigured { invalid: false } => "geo-check needs an AI search provider; the operator sets SEO_AUDIT_GEO_BASE_URL, SEO_AUDIT_GEO_MODEL and SEO_AUDIT_GEO_API_KEY.".to_string(),
            AppError::NotConfigured { invalid: true } => {
                "The AI search provider settings of this service are unusable; the operator has to correct them."
                    .to_string()
            }
            AppError::Provider(e) => provider_reason(e).1,
            AppError::CompetitorStatus(status) => format!("The competitor answered HTTP {status}."),
            AppError::RenderNotConfigured(_) => "Rendered audits need a headless Chromium and none was found; \
                 install Debian's `chromium` package (or set the `chromium` setting, SEO_AUDIT_CHROMIUM, to the \
                 browser's path) and restart the service. Audits without `render` work as always."
                .to_string(),
            AppError::RenderTimeout(limit) => format!(
                "The page did not finish rendering within {}, the render time limit.",
                seconds(*limit)
            ),
            AppError::RenderFailed(_) => {
                "The browser failed while rendering the page; it is restarted, retry the audit.".to_string()
            }
            AppError::RenderStartFailed(_) => "The browser (Chromium) failed to start, so the page could not be \
                 rendered; the operator should check the `chromium` setting (SEO_AUDIT_CHROMIUM) and the service's \
                 log. Audits without `render` work as always."
                .to_string(),
        }
    }

    /// Machine-readable details of the failure (the API's `error.details`), if any.
    pub fn details(&self) -> Option<Value> {
        match self {
            AppError::NotConfigured { invalid } => Some(json!({
                "settings": GEO_SETTINGS,
                "reason": if *invalid { "invalid" } else { "missing" },
            })),
            AppError::Provider(e) => {
                let (reason, _, upstream_status) = provider_reason(e);
                let mut details = json!({ "reason": reason });
                if let Some(s) = upstream_status {
                    details["upstream_status"] = json!(s);
                }
                Some(details)
            }
            AppError::CompetitorStatus(status) => Some(json!({ "status": status })),
            AppError::RenderNotConfigured(_) => Some(json!({
                "feature": "render",
                "settings": ["chromium"],
                "install": RENDER_INSTALL,
            })),
            AppError::RenderFailed(_) => Some(json!({ "reason": "browser" })),
            AppError::RenderStartFailed(_) => Some(json!({ "reason": "browser_start" })),
            AppError::Refused(refusal) => refusal.details.as_deref().cloned(),
            _ => None,
        }
    }

    /// What the libraries said about the failure (a fetch's cause chain), for the log only.
    pub fn log_detail(&self) -> Option<String> {
        match self {
            AppError::Fetch(e) => e.detail().map(str::to_string),
            AppError::Provider(ProviderError::Transport(e)) => e.detail().map(str::to_string),
            AppError::RenderNotConfigured(cause)
            | AppError::RenderFailed(cause)
            | AppError::RenderStartFailed(cause) => Some(cause.clone()),
            _ => None,
        }
    }

    /// `code: message`, how a background job records why it failed (a workflow step's
    /// `reason`).
    pub fn reason(&self) -> String {
        format!("{}: {}", self.code(), self.message())
    }
}

/// The reason, the sentence and the provider's status of a provider failure, in words of
/// our own.
fn provider_reason(e: &ProviderError) -> (&'static str, String, Option<u16>) {
    match e {
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
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn provider_errors_never_show_the_provider() {
        let cases = [
            (ProviderError::Timeout, "timeout"),
            (ProviderError::Status { status: 500 }, "status"),
            (ProviderError::Malformed("not json: sk-secret".into()), "malformed"),
            (
                ProviderError::Transport(fetch::Error::Http { host: "sk-secret".into(), detail: "sk-secret".into() }),
                "unreachable",
            ),
            (ProviderError::Config("sk-secret".into()), "config"),
        ];
        for (e, reason) in cases {
            let e = AppError::Provider(e);
            assert_eq!(e.code(), "upstream_error");
            let details = e.details().unwrap();
            assert_eq!(details["reason"], reason);
            assert!(!format!("{} {details}", e.message()).contains("sk-secret"), "{e}");
        }
    }

    #[test]
    fn messages_are_sentences() {
        assert_eq!(
            AppError::Fetch(fetch::Error::TooLarge { limit: 1 }).reason().split(": ").next(),
            Some("target_too_large")
        );
        let too_large = AppError::Fetch(fetch::Error::TooLarge { limit: 1024 });
        assert_eq!(
            too_large.message(),
            "The answer is larger than 1 KiB, the most this service reads (after decompression)."
        );
        assert_eq!(AppError::internal("password=hunter2").message(), INTERNAL_MESSAGE);
    }
}
