//! The store's timestamps: the one format of [`vocab::Timestamp`] (RFC 3339, UTC,
//! milliseconds, `Z`), fixed width so that text order is time order and SQL range queries
//! compare strings.

use serde::Serializer;
use time::OffsetDateTime;
use vocab::Timestamp;

use crate::error::{Error, Result};

/// The current time as stored: `2025-01-02T03:04:05.678Z`.
pub fn now_rfc3339() -> String {
    Timestamp::now().to_string()
}

/// Formats any instant as the store does: converted to UTC, truncated to milliseconds.
pub fn format_rfc3339(at: OffsetDateTime) -> String {
    Timestamp::format(at)
}

/// Parses any RFC 3339 timestamp (any offset, any sub-second precision).
pub fn parse_rfc3339(text: &str) -> Option<OffsetDateTime> {
    OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339).ok()
}

/// Decodes a stored timestamp, naming the table when it is not one.
pub(crate) fn decode(table: &'static str, text: &str) -> Result<OffsetDateTime> {
    parse_rfc3339(text).ok_or_else(|| Error::corrupt(table, format!("bad timestamp {text:?}")))
}

pub(crate) fn decode_opt(table: &'static str, text: Option<String>) -> Result<Option<OffsetDateTime>> {
    text.map(|t| decode(table, &t)).transpose()
}

/// Milliseconds are all the store keeps; values in memory are truncated the same way, so a
/// record read back equals the one written.
pub(crate) fn truncate_ms(at: OffsetDateTime) -> OffsetDateTime {
    Timestamp::truncate(at)
}

/// Serde helpers that write timestamps in the store's format.
pub(crate) mod ser {
    use super::*;

    pub(crate) fn ts<S: Serializer>(at: &OffsetDateTime, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format_rfc3339(*at))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    fn check(at: OffsetDateTime, expected: &str) {
        let text = format_rfc3339(at);
        assert_eq!(text, expected);
        assert_eq!(parse_rfc3339(&text), Some(truncate_ms(at)), "round trip of {text}");
    }

    #[test]
    fn formats_utc_with_milliseconds() {
        check(datetime!(2025-01-02 03:04:05.678901 UTC), "2025-01-02T03:04:05.678Z");
        check(datetime!(2025-01-02 03:04:05 UTC), "2025-01-02T03:04:05.000Z");
        check(datetime!(2025-01-02 03:04:05.5 +02:00), "2025-01-02T01:04:05.500Z");
        check(datetime!(1999-12-31 23:59:59.999 -01:00), "2000-01-01T00:59:59.999Z");
    }

    #[test]
    fn now_is_parseable_and_fixed_width() {
        let now = now_rfc3339();
        assert_eq!(now.len(), 24, "{now}");
        assert!(parse_rfc3339(&now).is_some());
    }

    #[test]
    fn rejects_non_timestamps() {
        for text in ["", "yesterday", "2025-01-02", "2025-13-02T00:00:00Z"] {
            assert_eq!(parse_rfc3339(text), None, "{text}");
        }
    }
}
