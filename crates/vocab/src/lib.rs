//! The vocabulary at the bottom of the workspace: the names that the store, the
//! application, the wire types and the engines all speak, each list written once
//! (docs/ARCHITECTURE.md, "crates/vocab").
//!
//! Every enum here converts to and from its wire name (`as_str`, `Display`, `FromStr`),
//! serialises as that name, and lists its names in declaration order (`NAMES`), which is
//! the order the OpenAPI document and the docs print them in.

mod ids;
mod names;
mod refusal;
mod time_stamp;

pub use ids::{
    AlertId, ApprovalId, AuditId, CrawlId, DeliveryId, EventId, ExperimentId, KeyId, MonitorId, ReadinessId,
    ScheduleId, ShareId, UserId, WebhookId, WorkflowId, CRAWL_ID_RANDOM_LEN, CRAWL_ID_TAG,
};
pub use names::{ErrorCode, Scope, Tier, WebhookEvent, DEFAULT_SCOPES, FREE_RATE_LIMIT, PRO_RATE_LIMIT};
pub use refusal::Refusal;
pub use time_stamp::Timestamp;
