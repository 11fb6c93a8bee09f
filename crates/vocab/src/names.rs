//! The named sets: scopes, tiers, webhook events and error codes.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use strum::VariantNames;

/// Serde through the wire name, so that the name is written once (in the strum attributes).
macro_rules! wire_name {
    ($ty:ident, $what:literal) => {
        impl $ty {
            /// Every wire name, in declaration order.
            pub const NAMES: &'static [&'static str] = <$ty as VariantNames>::VARIANTS;

            /// Every value, in declaration order.
            pub const ALL: &'static [$ty] = <$ty as strum::VariantArray>::VARIANTS;

            /// The wire name.
            pub fn as_str(self) -> &'static str {
                self.into()
            }

            /// The wire name, in a constant (the names are in declaration order).
            pub const fn name(self) -> &'static str {
                Self::NAMES[self as usize]
            }
        }

        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<$ty, D::Error> {
                let name = <std::borrow::Cow<'de, str>>::deserialize(d)?;
                name.parse().map_err(|_| {
                    serde::de::Error::custom(format!("{name:?} is not {} (one of {})", $what, <$ty>::NAMES.join(", ")))
                })
            }
        }
    };
}

/// What an API key may be used for (docs/SECURITY.md, "Who may do what").
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::Display,
    strum::VariantNames,
    strum::VariantArray,
)]
#[strum(serialize_all = "lowercase")]
pub enum Scope {
    /// Audits, batches, crawls, the AI and content endpoints.
    Audit,
    /// The agent-tool endpoint.
    Mcp,
    /// Webhook subscriptions.
    Webhooks,
}
wire_name!(Scope, "a scope");

/// The scopes of a key created without an explicit list.
pub const DEFAULT_SCOPES: &[Scope] = &[Scope::Audit, Scope::Mcp];

/// Requests per minute of a free key without a limit of its own.
pub const FREE_RATE_LIMIT: u32 = 30;
/// Requests per minute of a pro key without a limit of its own.
pub const PRO_RATE_LIMIT: u32 = 60;

/// An account tier: the default rate limit and the crawl size of its keys.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::Display,
    strum::VariantNames,
    strum::VariantArray,
)]
#[strum(serialize_all = "lowercase")]
pub enum Tier {
    /// The free account tier.
    Free,
    /// The paid tier.
    Pro,
}
wire_name!(Tier, "a tier");

impl Tier {
    /// Requests per minute of the tier when a key has no limit of its own.
    pub fn default_rate_limit(self) -> u32 {
        match self {
            Tier::Free => FREE_RATE_LIMIT,
            Tier::Pro => PRO_RATE_LIMIT,
        }
    }
}

/// A webhook event (docs/API.md, "Webhooks"). [`WebhookEvent::Ping`] is the event of a test
/// delivery: sent to one subscription whatever it subscribed to, and subscribed to by none.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::Display,
    strum::VariantNames,
    strum::VariantArray,
)]
pub enum WebhookEvent {
    /// A stored audit finished.
    #[strum(serialize = "audit.completed")]
    AuditCompleted,
    /// A site crawl finished.
    #[strum(serialize = "crawl.completed")]
    CrawlCompleted,
    /// A monitor raised an alert.
    #[strum(serialize = "monitor.alert")]
    MonitorAlert,
    /// A scheduled crawl's run raised an alert (new critical findings, or a site score drop).
    #[strum(serialize = "crawl.alert")]
    CrawlAlert,
    /// A workflow run waits for its owner's approval.
    #[strum(serialize = "workflow.awaiting_approval")]
    WorkflowAwaitingApproval,
    /// A workflow run finished.
    #[strum(serialize = "workflow.completed")]
    WorkflowCompleted,
    /// A test delivery (`POST /api/v1/webhooks/{id}/test`).
    #[strum(serialize = "ping")]
    Ping,
}
wire_name!(WebhookEvent, "a webhook event");

impl WebhookEvent {
    /// The events a subscription may name: every one but [`WebhookEvent::Ping`], which is
    /// declared last so that these are the first names.
    pub const SUBSCRIBABLE: &'static [&'static str] = WebhookEvent::NAMES.split_last().expect("declared").1;

    /// Whether a subscription may name this event.
    pub fn subscribable(self) -> bool {
        self != WebhookEvent::Ping
    }
}

/// The stable error codes of every answer: REST error bodies, agent-tool errors, a
/// workflow step's reason, the command line's messages (docs/API.md, "Errors"). Each
/// protocol maps a code to its own status (HTTP status, JSON-RPC code, exit status) in one
/// place of its own layer.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::Display,
    strum::VariantNames,
    strum::VariantArray,
)]
#[strum(serialize_all = "snake_case")]
pub enum ErrorCode {
    /// The request is malformed (a value of the wrong type or range, an unknown field).
    InvalidRequest,
    /// A required parameter is missing.
    MissingParameter,
    /// The target URL is not one this service audits.
    InvalidUrl,
    /// No API key, or an unknown one, where one is needed.
    Unauthorized,
    /// The key may not do this (disabled, expired, lacking the scope).
    Forbidden,
    /// No such resource (or not the caller's).
    NotFound,
    /// The route does not answer this method.
    MethodNotAllowed,
    /// The resource is not in a state that allows this.
    Conflict,
    /// The request body is too large.
    PayloadTooLarge,
    /// The request body is not JSON.
    UnsupportedMediaType,
    /// The address guard refused the target.
    BlockedTarget,
    /// The target did not answer HTML.
    NotHtml,
    /// The target's answer passed the body limit.
    TargetTooLarge,
    /// The caller's quota is spent.
    RateLimited,
    /// The target could not be reached.
    TargetUnreachable,
    /// A service this one calls failed (the browser, the AI search provider).
    UpstreamError,
    /// The feature needs a setting the operator has not made.
    NotConfigured,
    /// Every audit slot is busy and the queue is full.
    Overloaded,
    /// The target did not answer in time.
    TargetTimeout,
    /// A bug or a failure of the service itself; the cause is logged, never shown.
    Internal,
    /// A competitor page answered a status outside 200..=299 (an item of a content-gap
    /// answer, never a whole answer's code; last, so that [`ErrorCode::ANSWER_CODES`] is a
    /// prefix).
    TargetStatus,
}
wire_name!(ErrorCode, "an error code");

impl ErrorCode {
    /// The codes a whole error answer may carry: every code but
    /// [`ErrorCode::TargetStatus`], which only items of an answer carry.
    pub const ANSWER_CODES: &'static [&'static str] = ErrorCode::NAMES.split_last().expect("declared").1;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trips<T>(all: &[T], names: &[&str])
    where
        T: Copy + PartialEq + std::fmt::Debug + std::fmt::Display + std::str::FromStr + Into<&'static str> + Serialize,
    {
        assert_eq!(all.len(), names.len());
        for (value, name) in all.iter().zip(names) {
            let wire: &'static str = (*value).into();
            assert_eq!(wire, *name);
            assert_eq!(name.parse::<T>().ok(), Some(*value));
            assert_eq!(value.to_string(), *name);
            assert_eq!(serde_json_string(value), format!("\"{name}\""));
        }
    }

    fn serde_json_string<T: Serialize>(value: &T) -> String {
        serde_json::to_string(value).unwrap()
    }

    #[test]
    fn names_are_the_wire_names() {
        round_trips(Scope::ALL, &["audit", "mcp", "webhooks"]);
        round_trips(Tier::ALL, &["free", "pro"]);
        round_trips(
            WebhookEvent::ALL,
            &[
                "audit.completed",
                "crawl.completed",
                "monitor.alert",
                "crawl.alert",
                "workflow.awaiting_approval",
                "workflow.completed",
                "ping",
            ],
        );
        assert_eq!(WebhookEvent::SUBSCRIBABLE.len(), 6);
        assert!(!WebhookEvent::SUBSCRIBABLE.contains(&"ping"));
        assert_eq!(ErrorCode::NAMES.len(), ErrorCode::ALL.len());
        assert_eq!(ErrorCode::InvalidRequest.as_str(), "invalid_request");
        assert_eq!(ErrorCode::TargetStatus.as_str(), "target_status");
        assert!(!ErrorCode::ANSWER_CODES.contains(&"target_status"));
        assert_eq!(ErrorCode::ANSWER_CODES.last(), Some(&"internal"));
        assert_eq!("nope".parse::<Scope>().ok(), None);
    }
}
