//! [`Timestamp`]: one instant, one wire format.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use time::format_description::well_known::Rfc3339;
use time::macros::format_description;
use time::{OffsetDateTime, UtcOffset};

/// The one timestamp format of the service, in the store and on the wire: RFC 3339, UTC,
/// milliseconds, `Z` (`2025-01-02T03:04:05.678Z`). Fixed width for years 0..=9999, so text
/// order is time order and SQL range queries compare strings.
const FORMAT: &[time::format_description::FormatItem<'static>] =
    format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z");

/// An instant in UTC, kept to the millisecond: what is written is what is read back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(OffsetDateTime);

impl Timestamp {
    /// Now, to the millisecond.
    pub fn now() -> Timestamp {
        Timestamp::from(OffsetDateTime::now_utc())
    }

    /// The instant.
    pub fn instant(self) -> OffsetDateTime {
        self.0
    }

    /// Parses any RFC 3339 timestamp (any offset, any sub-second precision), kept to the
    /// millisecond in UTC.
    pub fn parse(text: &str) -> Option<Timestamp> {
        OffsetDateTime::parse(text, &Rfc3339).ok().map(Timestamp::from)
    }

    /// Formats any instant in the one format: converted to UTC, cut to milliseconds. Years
    /// outside 0..=9999 cannot come from a clock; they are clamped rather than refused.
    pub fn format(at: OffsetDateTime) -> String {
        let utc = at.to_offset(UtcOffset::UTC);
        utc.format(FORMAT).unwrap_or_else(|_| {
            if utc.year() < 0 {
                "0000-01-01T00:00:00.000Z".to_owned()
            } else {
                "9999-12-31T23:59:59.999Z".to_owned()
            }
        })
    }

    /// `at` in UTC, cut to the millisecond (what the format keeps).
    pub fn truncate(at: OffsetDateTime) -> OffsetDateTime {
        let at = at.to_offset(UtcOffset::UTC);
        at.replace_millisecond(at.millisecond()).unwrap_or(at)
    }
}

impl From<OffsetDateTime> for Timestamp {
    fn from(at: OffsetDateTime) -> Timestamp {
        Timestamp(Timestamp::truncate(at))
    }
}

impl From<Timestamp> for OffsetDateTime {
    fn from(t: Timestamp) -> OffsetDateTime {
        t.0
    }
}

impl std::fmt::Display for Timestamp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&Timestamp::format(self.0))
    }
}

impl Serialize for Timestamp {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Timestamp {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Timestamp, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Timestamp::parse(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("{text:?} is not an RFC 3339 timestamp")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    fn check(at: OffsetDateTime, expected: &str) {
        let text = Timestamp::format(at);
        assert_eq!(text, expected);
        assert_eq!(Timestamp::parse(&text), Some(Timestamp::from(at)), "round trip of {text}");
        assert_eq!(Timestamp::from(at).to_string(), expected);
        assert_eq!(serde_json::to_string(&Timestamp::from(at)).unwrap(), format!("\"{expected}\""));
    }

    #[test]
    fn formats_utc_with_milliseconds() {
        check(datetime!(2025-01-02 03:04:05.678901 UTC), "2025-01-02T03:04:05.678Z");
        check(datetime!(2025-01-02 03:04:05 UTC), "2025-01-02T03:04:05.000Z");
        check(datetime!(2025-01-02 03:04:05.5 +02:00), "2025-01-02T01:04:05.500Z");
        check(datetime!(1999-12-31 23:59:59.999 -01:00), "2000-01-01T00:59:59.999Z");
        assert_eq!(Timestamp::parse("yesterday"), None);
        assert!(serde_json::from_str::<Timestamp>("\"2025-01-02\"").is_err());
    }
}
