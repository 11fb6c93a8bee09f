//! The ids of the service's records as types of their own: a crawl id cannot be passed where
//! an audit id is meant. Each is its text on the wire and in the store (`serde(transparent)`),
//! converts from and to `String` (`From`), reads as `&str` (`as_str`, `Deref`, `Borrow`, so
//! code written against `&str` keeps compiling and maps keyed by id are looked up with a
//! `&str`), and prints as its text. Ids the service makes in a fixed format can be checked
//! (`CrawlId::parse`); the others are opaque.

use std::borrow::Borrow;
use std::fmt;
use std::ops::Deref;

use serde::{Deserialize, Serialize};

macro_rules! id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(String);

        // Debug is the text's own (`"cr_…"`), not the type's (`CrawlId("cr_…")`): sentences
        // that quote an id with `{:?}` read as they did when ids were strings.
        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Debug::fmt(&self.0, f)
            }
        }

        impl $name {
            /// The id's text.
            pub fn as_str(&self) -> &str {
                &self.0
            }

            /// The id's text, owned.
            pub fn into_string(self) -> String {
                self.0
            }
        }

        impl From<String> for $name {
            fn from(text: String) -> $name {
                $name(text)
            }
        }

        impl From<&str> for $name {
            fn from(text: &str) -> $name {
                $name(text.to_string())
            }
        }

        impl From<$name> for String {
            fn from(id: $name) -> String {
                id.0
            }
        }

        impl Deref for $name {
            type Target = str;

            fn deref(&self) -> &str {
                &self.0
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl Borrow<str> for $name {
            fn borrow(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.0 == other
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.0 == *other
            }
        }

        impl PartialEq<String> for $name {
            fn eq(&self, other: &String) -> bool {
                &self.0 == other
            }
        }

        // Both ways round, so that an id compares with text whichever side it is on.
        impl PartialEq<$name> for String {
            fn eq(&self, other: &$name) -> bool {
                *self == other.0
            }
        }

        impl PartialEq<$name> for str {
            fn eq(&self, other: &$name) -> bool {
                self == other.0
            }
        }

        impl PartialEq<$name> for &str {
            fn eq(&self, other: &$name) -> bool {
                *self == other.0
            }
        }
    };
}

id!(
    /// A stored audit's id.
    AuditId
);
id!(
    /// An experiment's id (a UUID).
    ExperimentId
);
id!(
    /// A stored AI-readiness answer's id (time-ordered, as an audit's).
    ReadinessId
);
id!(
    /// A site crawl's id: [`CRAWL_ID_TAG`] and [`CRAWL_ID_RANDOM_LEN`] base62 characters.
    CrawlId
);
id!(
    /// An API key's id (not the key: the key is never stored).
    KeyId
);
id!(
    /// A webhook subscription's id.
    WebhookId
);
id!(
    /// A webhook delivery's id (a UUID): its outbox row, which the delivery log lists and
    /// the dispatcher claims and records attempts of.
    DeliveryId
);
id!(
    /// A webhook event's id (a UUID): the delivered body's `id` and its `x-webhook-id`
    /// header, the same for every subscription the event went to and every attempt.
    EventId
);
id!(
    /// A monitor's id.
    MonitorId
);
id!(
    /// An account's id.
    UserId
);
id!(
    /// A crawl schedule's id (`cs_` and 32 hexadecimal digits).
    ScheduleId
);
id!(
    /// A share link's id (`sh_` and 22 base62 characters).
    ShareId
);
id!(
    /// A workflow run's id (a UUID).
    WorkflowId
);
id!(
    /// An alert's id (a UUID): a monitor's or a crawl schedule's.
    AlertId
);
id!(
    /// A workflow run's approval gate's id (a UUID): the `approvalId` of approve_fixes.
    ApprovalId
);

/// The tag every crawl id starts with.
pub const CRAWL_ID_TAG: &str = "cr_";

/// The random base62 characters of a crawl id after its tag.
pub const CRAWL_ID_RANDOM_LEN: usize = 22;

impl CrawlId {
    /// `text` when it is a crawl id of the service's format; `None` otherwise (an id that
    /// cannot be one is then answered as an unknown one, without asking the store).
    pub fn parse(text: &str) -> Option<CrawlId> {
        let random = text.strip_prefix(CRAWL_ID_TAG)?;
        (random.len() == CRAWL_ID_RANDOM_LEN && random.bytes().all(|b| b.is_ascii_alphanumeric()))
            .then(|| CrawlId(text.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn an_id_is_its_text_on_the_wire_and_in_code() {
        let id = AuditId::from("0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b");
        assert_eq!(serde_json::to_string(&id).unwrap(), "\"0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b\"");
        assert_eq!(serde_json::from_str::<AuditId>("\"x\"").unwrap(), AuditId::from("x"));
        assert_eq!(id.to_string(), id.as_str());
        // Quoted with `{:?}` as its text is.
        assert_eq!(format!("{:?}", AuditId::from("a\"1")), format!("{:?}", "a\"1"));
        assert!(id == "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b");
        assert!("0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b" == id);
        let text = id.to_string();
        assert!(text == id);
        // Code written against `&str` takes it as it is.
        fn len(text: &str) -> usize {
            text.len()
        }
        assert_eq!(len(&id), 36);
        let by_id: HashMap<WebhookId, u32> = HashMap::from([(WebhookId::from("w1"), 1)]);
        assert_eq!(by_id.get("w1"), Some(&1));
        assert_eq!(String::from(id.clone()), id.into_string());
    }

    #[test]
    fn a_crawl_id_is_checked_for_its_format() {
        let id = format!("{CRAWL_ID_TAG}{}", "aZ0".repeat(7) + "b");
        assert_eq!(CrawlId::parse(&id).map(String::from), Some(id.clone()));
        for bad in [
            "",
            "cr_",
            "au_aZ0aZ0aZ0aZ0aZ0aZ0aZ0b",
            &id[..id.len() - 1],
            &format!("{id}c"),
            "cr_aZ0aZ0aZ0aZ0aZ0aZ0aZ0-",
        ] {
            assert_eq!(CrawlId::parse(bad), None, "{bad}");
        }
    }
}
