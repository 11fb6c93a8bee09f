//! Value checks: ISO 8601 dates and durations, absolute URLs, numeric prices, ISO 4217
//! currencies and schema.org enumeration members.

/// What a property's value must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Anything present: text, a URL or a nested item.
    Any,
    /// Non-empty text (or a nested item, such as a `Brand` for `brand`).
    Text,
    /// An absolute `http`/`https` URL.
    Url,
    /// An image: an absolute URL, or an `ImageObject` with one in `url` or `contentUrl`.
    Image,
    /// An ISO 8601 date, or date and time.
    Date,
    /// An ISO 8601 duration (`PT1H30M`).
    Duration,
    /// A number.
    Number,
    /// A price: a number written with digits and at most one `.` (no currency symbol, no
    /// thousands separator).
    Price,
    /// An ISO 4217 currency code.
    Currency,
    /// A nested item (an object), not text.
    Item,
    /// A member of a schema.org enumeration, by its short name.
    Enum(&'static str, &'static [&'static str]),
}

impl Kind {
    /// How the kind reads in a message and in docs/RULES.md.
    pub fn describe(self) -> String {
        match self {
            Kind::Any => "present".into(),
            Kind::Text => "text".into(),
            Kind::Url => "absolute URL".into(),
            Kind::Image => "image URL".into(),
            Kind::Date => "ISO 8601 date".into(),
            Kind::Duration => "ISO 8601 duration".into(),
            Kind::Number => "number".into(),
            Kind::Price => "numeric price".into(),
            Kind::Currency => "ISO 4217 currency".into(),
            Kind::Item => "nested item".into(),
            Kind::Enum(name, _) => name.into(),
        }
    }

    /// Whether text is a valid value of this kind.
    pub fn accepts_text(self, text: &str) -> bool {
        let t = text.trim();
        match self {
            Kind::Any => true,
            Kind::Text => !t.is_empty(),
            Kind::Url | Kind::Image => is_absolute_url(t),
            Kind::Date => is_iso_date(t),
            Kind::Duration => is_iso_duration(t),
            Kind::Number => t.parse::<f64>().is_ok_and(f64::is_finite),
            Kind::Price => is_price(t),
            Kind::Currency => is_currency(t),
            Kind::Item => false,
            Kind::Enum(_, members) => {
                let short = super::graph::short_name(t);
                members.contains(&short)
            }
        }
    }
}

/// `ItemAvailability` (schema.org).
pub const ITEM_AVAILABILITY: &[&str] = &[
    "BackOrder",
    "Discontinued",
    "InStock",
    "InStoreOnly",
    "LimitedAvailability",
    "MadeToOrder",
    "OnlineOnly",
    "OutOfStock",
    "PreOrder",
    "PreSale",
    "Reserved",
    "SoldOut",
];
/// `OfferItemCondition` (schema.org).
pub const ITEM_CONDITION: &[&str] = &["DamagedCondition", "NewCondition", "RefurbishedCondition", "UsedCondition"];
/// `EventStatusType` (schema.org).
pub const EVENT_STATUS: &[&str] =
    &["EventCancelled", "EventMovedOnline", "EventPostponed", "EventRescheduled", "EventScheduled"];
/// `EventAttendanceModeEnumeration` (schema.org).
pub const ATTENDANCE_MODE: &[&str] =
    &["MixedEventAttendanceMode", "OfflineEventAttendanceMode", "OnlineEventAttendanceMode"];
/// `employmentType` values Google reads for job postings.
pub const EMPLOYMENT_TYPE: &[&str] =
    &["FULL_TIME", "PART_TIME", "CONTRACTOR", "TEMPORARY", "INTERN", "VOLUNTEER", "PER_DIEM", "OTHER"];

/// Whether text is an absolute `http` or `https` URL.
pub fn is_absolute_url(text: &str) -> bool {
    url::Url::parse(text).is_ok_and(|u| matches!(u.scheme(), "http" | "https") && u.host().is_some())
}

fn digits(s: &str, n: usize) -> bool {
    s.len() == n && s.bytes().all(|b| b.is_ascii_digit())
}

/// Whether text is an ISO 8601 date (`2026-11-28`), or a date and time
/// (`2026-11-28T09:30`, with seconds, fractions and a zone `Z` or `+01:00` optional).
pub fn is_iso_date(text: &str) -> bool {
    let (date, time) = match text.split_once(['T', ' ']) {
        Some((d, t)) => (d, Some(t)),
        None => (text, None),
    };
    let mut parts = date.split('-');
    let (Some(y), Some(m), Some(d), None) = (parts.next(), parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    if !(digits(y, 4) && digits(m, 2) && digits(d, 2)) {
        return false;
    }
    let (m, d): (u32, u32) = (m.parse().unwrap_or(0), d.parse().unwrap_or(0));
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return false;
    }
    let Some(time) = time else { return true };
    // The zone: `Z`, or `+hh:mm` / `-hh:mm` (or without the colon).
    let (clock, zone) = match time.find(['Z', '+', '-']) {
        Some(at) => time.split_at(at),
        None => (time, ""),
    };
    let zone_ok = zone.is_empty()
        || zone == "Z"
        || (zone.len() >= 3 && {
            let z = zone[1..].replace(':', "");
            digits(&z, 4) || digits(&z, 2)
        });
    let (hms, fraction) = match clock.split_once('.') {
        Some((hms, f)) => (hms, Some(f)),
        None => (clock, None),
    };
    let fraction_ok = fraction.is_none_or(|f| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()));
    let fields: Vec<&str> = hms.split(':').collect();
    let clock_ok = matches!(fields.len(), 2 | 3)
        && fields.iter().all(|f| digits(f, 2))
        && fields[0].parse::<u32>().is_ok_and(|h| h <= 24)
        && fields[1].parse::<u32>().is_ok_and(|m| m < 60)
        && fields.get(2).is_none_or(|s| s.parse::<u32>().is_ok_and(|s| s <= 60));
    zone_ok && fraction_ok && clock_ok
}

/// Whether text is an ISO 8601 duration: `P`, then at least one of years, months, weeks,
/// days, and after `T` hours, minutes, seconds (the last component may have a fraction).
pub fn is_iso_duration(text: &str) -> bool {
    let Some(rest) = text.strip_prefix('P') else { return false };
    let (date, time) = match rest.split_once('T') {
        Some((d, t)) => (d, Some(t)),
        None => (rest, None),
    };
    fn components(s: &str, units: &[u8]) -> Option<usize> {
        let mut count = 0;
        let mut number = String::new();
        let mut next_unit = 0;
        for c in s.chars() {
            if c.is_ascii_digit() || c == '.' || c == ',' {
                number.push(c);
            } else {
                let pos = units.iter().position(|&u| u as char == c)?;
                if pos < next_unit || number.is_empty() || number.replace(',', ".").parse::<f64>().is_err() {
                    return None;
                }
                next_unit = pos + 1;
                number.clear();
                count += 1;
            }
        }
        number.is_empty().then_some(count)
    }
    let Some(d) = components(date, b"YMWD") else { return false };
    let t = match time {
        Some(t) => match components(t, b"HMS") {
            Some(0) | None => return false,
            Some(n) => n,
        },
        None => 0,
    };
    d + t > 0
}

/// Whether text is a price Google reads: digits with at most one `.` for decimals.
pub fn is_price(text: &str) -> bool {
    let (int, frac) = match text.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (text, None),
    };
    !int.is_empty()
        && int.bytes().all(|b| b.is_ascii_digit())
        && frac.is_none_or(|f| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()))
}

/// Active ISO 4217 currency codes.
const CURRENCIES: &str = "AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BOV BRL BSD BTN \
BWP BYN BZD CAD CDF CHE CHF CHW CLF CLP CNY COP COU CRC CUC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL \
GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP \
LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP \
PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY \
TTD TWD TZS UAH UGX USD USN UYI UYU UYW UZS VED VES VND VUV WST XAF XAG XAU XBA XBB XBC XBD XCD XCG XDR XOF XPD XPF XPT \
XSU XUA YER ZAR ZMW ZWG ZWL";

/// Whether text is an ISO 4217 currency code (upper case, as the standard writes it).
pub fn is_currency(text: &str) -> bool {
    text.len() == 3 && CURRENCIES.split_whitespace().any(|c| c == text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        for ok in [
            "2026-11-28",
            "2026-11-28T09:30",
            "2026-11-28T09:30:00Z",
            "2026-11-28T09:30:00.123+01:00",
            "2026-01-01T00:00:00-0500",
        ] {
            assert!(is_iso_date(ok), "{ok}");
        }
        for bad in ["28.11.2026", "2026-13-01", "2026-11", "Nov 28, 2026", "2026-11-28T9:30", "2026-11-28T09:30+1", ""]
        {
            assert!(!is_iso_date(bad), "{bad}");
        }
    }

    #[test]
    fn durations() {
        for ok in ["PT1H30M", "P1D", "PT45S", "P1Y2M3DT4H5M6.5S", "P2W"] {
            assert!(is_iso_duration(ok), "{ok}");
        }
        for bad in ["P", "PT", "1H30M", "PT30", "PM1T", "P1H", "PT1D", "90 minutes"] {
            assert!(!is_iso_duration(bad), "{bad}");
        }
    }

    #[test]
    fn prices_currencies_urls_enums() {
        assert!(is_price("19.99") && is_price("0") && is_price("1200"));
        assert!(!is_price("$19.99") && !is_price("19,99") && !is_price("1,200.00") && !is_price("") && !is_price("1."));
        assert!(
            is_currency("EUR")
                && is_currency("USD")
                && !is_currency("eur")
                && !is_currency("EURO")
                && !is_currency("XYZ")
        );
        assert!(
            is_absolute_url("https://example.com/a.jpg")
                && !is_absolute_url("/a.jpg")
                && !is_absolute_url("mailto:a@b.c")
        );
        let k = Kind::Enum("ItemAvailability", ITEM_AVAILABILITY);
        assert!(
            k.accepts_text("https://schema.org/InStock")
                && k.accepts_text("InStock")
                && k.accepts_text("http://schema.org/OutOfStock")
        );
        assert!(!k.accepts_text("in stock") && !k.accepts_text("https://schema.org/Available"));
    }
}
