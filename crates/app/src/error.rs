//! [`AppError`]: why a use case failed, in the application's words. The server maps it to
//! an HTTP status and error code in one place; background jobs log it.

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
    /// The use case refuses the request as asked and changes nothing: `code` is the error
    /// code of docs/API.md "Errors" (`invalid_request`, `missing_parameter`, `not_found`).
    #[error("{message}")]
    Refused {
        /// The stable error code.
        code: &'static str,
        /// What is wrong, as a sentence.
        message: String,
    },
    /// A bug: the engine panicked, a task failed, a result did not serialise.
    #[error("internal error: {0}")]
    Internal(String),
}

impl AppError {
    /// An internal error from anything displayable.
    pub fn internal(e: impl std::fmt::Display) -> AppError {
        AppError::Internal(e.to_string())
    }

    /// A refusal with `code` (see [`AppError::Refused`]).
    pub fn refused(code: &'static str, message: impl Into<String>) -> AppError {
        AppError::Refused { code, message: message.into() }
    }

    /// The stable error code (docs/API.md "Errors") this failure is reported with.
    pub fn code(&self) -> &'static str {
        match self {
            AppError::Fetch(e) => e.code(),
            AppError::Overloaded => "overloaded",
            AppError::Refused { code, .. } => code,
            AppError::Store(_) | AppError::Internal(_) => "internal",
        }
    }
}
