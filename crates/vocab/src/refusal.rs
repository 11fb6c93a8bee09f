//! [`Refusal`]: a request refused as sent, the one type every layer refuses with.

use serde_json::{json, Value};

use crate::ErrorCode;

/// Why a request is refused as sent and nothing changed: the error code, one sentence and
/// machine-readable details. The wire types' request checks and the application's use
/// cases both refuse with it; each protocol maps its code to a status of its own (the
/// server to an HTTP status, the agent tools to a tool error, the command line to an exit
/// status).
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    /// The stable error code (docs/API.md, "Errors").
    pub code: ErrorCode,
    /// What is wrong, as a sentence.
    pub message: String,
    /// Machine-readable details (`{"parameter": "url"}`), if any.
    pub details: Option<Box<Value>>,
}

impl Refusal {
    /// A refusal with `code` and `message`.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Refusal {
        Refusal { code, message: message.into(), details: None }
    }

    /// `invalid_request`.
    pub fn invalid_request(message: impl Into<String>) -> Refusal {
        Refusal::new(ErrorCode::InvalidRequest, message)
    }

    /// `missing_parameter` naming the parameter in `details.parameter`: "The parameter
    /// `url` is required." (the one wording of every route and tool).
    pub fn missing_parameter(name: &str) -> Refusal {
        Refusal::new(ErrorCode::MissingParameter, format!("The parameter `{name}` is required."))
            .with_details(json!({ "parameter": name }))
    }

    /// Adds machine-readable details.
    pub fn with_details(mut self, details: Value) -> Refusal {
        self.details = Some(Box::new(details));
        self
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Refusal {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_parameter_names_the_parameter() {
        let r = Refusal::missing_parameter("url");
        assert_eq!(r.code, ErrorCode::MissingParameter);
        assert_eq!(r.to_string(), "The parameter `url` is required.");
        assert_eq!(r.details.as_deref(), Some(&json!({ "parameter": "url" })));
    }
}
