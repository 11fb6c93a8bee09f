//! The store's timestamps: the one format of [`vocab::Timestamp`] (RFC 3339, UTC,
//! milliseconds, `Z`), fixed width so that text order is time order and SQL range queries
//! compare strings.

use serde::Serializer;
use time::macros::format_description;
use time::{OffsetDateTime, PrimitiveDateTime, UtcOffset};
use vocab::Timestamp;

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

/// A date and time of day with a space or a `T` between them, seconds and any fraction:
/// SQLite's `datetime()` text, and PostgreSQL's text of a `timestamp`.
const SPACED: &[time::format_description::FormatItem<'static>] = format_description!(
    version = 2,
    "[year]-[month]-[day][first [ ][T]][hour]:[minute]:[second][optional [.[subsecond]]]"
);

/// The same followed by an offset of hours and optionally minutes: PostgreSQL's text of a
/// `timestamptz` (`2025-01-02 03:04:05.678901+00`).
const SPACED_OFFSET: &[time::format_description::FormatItem<'static>] = format_description!(
    version = 2,
    "[year]-[month]-[day][first [ ][T]][hour]:[minute]:[second][optional [.[subsecond]]]\
     [offset_hour sign:mandatory][optional [:[offset_minute]]]"
);

/// The instant a stored time column holds, in any form a row may hold it: the store writes
/// one format ([`now_rfc3339`], [`format_rfc3339`]) and always has (every migration and every
/// write since the first go through them; neither database's own clock, `datetime('now')`
/// or `now()`, writes a column), so any RFC 3339 text is read as it is, and the texts a
/// database's own clock makes (SQLite's `2025-01-02 03:04:05`, UTC; PostgreSQL's
/// `2025-01-02 03:04:05.678901+00`), which only a hand-edited row can hold, are read as the
/// instants they name. `None` for text that is no time at all.
pub(crate) fn parse_stored(text: &str) -> Option<Timestamp> {
    let text = text.trim();
    if let Some(at) = Timestamp::parse(text) {
        return Some(at);
    }
    if let Ok(at) = OffsetDateTime::parse(text, SPACED_OFFSET) {
        return Some(Timestamp::from(at));
    }
    let bare = text.strip_suffix(['Z', 'z']).unwrap_or(text);
    PrimitiveDateTime::parse(bare, SPACED).ok().map(|at| Timestamp::from(at.assume_offset(UtcOffset::UTC)))
}

/// A stored time, read without failing: text that is no time at all cannot fail the request
/// that reads its row (the rest of the row is good), so it reads as the Unix epoch, which no
/// row of the service was made at, and a warning names the table and the text.
pub(crate) fn read_stored(table: &'static str, text: &str) -> Timestamp {
    parse_stored(text).unwrap_or_else(|| {
        tracing::warn!(table, text, "a stored time is not a time; read as the Unix epoch");
        Timestamp::from(OffsetDateTime::UNIX_EPOCH)
    })
}

/// A stored time as an instant ([`read_stored`]).
pub(crate) fn decode(table: &'static str, text: &str) -> OffsetDateTime {
    read_stored(table, text).instant()
}

/// A stored time that may be absent ([`read_stored`]).
pub(crate) fn decode_opt(table: &'static str, text: Option<String>) -> Option<OffsetDateTime> {
    text.map(|t| decode(table, &t))
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

    /// Every text a time column can hold reads as the instant it names: the store's own
    /// format (every row the service wrote), other RFC 3339 texts, and the texts of the
    /// databases' clocks; text that is no time reads as the epoch instead of failing.
    #[test]
    fn reads_every_stored_form() {
        let at = |text: &str| read_stored("crawls", text).to_string();
        assert_eq!(at("2025-01-02T03:04:05.678Z"), "2025-01-02T03:04:05.678Z");
        assert_eq!(at("2025-01-02T03:04:05Z"), "2025-01-02T03:04:05.000Z");
        assert_eq!(at("2025-01-02T05:04:05.678901+02:00"), "2025-01-02T03:04:05.678Z");
        assert_eq!(at("2025-01-02 03:04:05"), "2025-01-02T03:04:05.000Z", "SQLite datetime()");
        assert_eq!(at("2025-01-02 03:04:05.678"), "2025-01-02T03:04:05.678Z", "SQLite with fraction");
        assert_eq!(at("2025-01-02T03:04:05"), "2025-01-02T03:04:05.000Z", "no zone: UTC");
        assert_eq!(at("2025-01-02 03:04:05.678901+00"), "2025-01-02T03:04:05.678Z", "PostgreSQL now()");
        assert_eq!(at("2025-01-02 05:34:05.678901+02:30"), "2025-01-02T03:04:05.678Z", "PostgreSQL, an offset");
        assert_eq!(at("2025-01-02 03:04:05Z"), "2025-01-02T03:04:05.000Z");
        for bad in ["", "yesterday", "2025-01-02", "2025-13-02T00:00:00Z"] {
            assert_eq!(at(bad), "1970-01-01T00:00:00.000Z", "{bad:?}");
        }
    }

    #[test]
    fn rejects_non_timestamps() {
        for text in ["", "yesterday", "2025-01-02", "2025-13-02T00:00:00Z"] {
            assert_eq!(parse_rfc3339(text), None, "{text}");
        }
    }
}
