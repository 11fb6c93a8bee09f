//! The bounds of an audit result: what is sent and stored of a page of up to 5 MiB
//! (docs/SECURITY.md, "What one caller can start and store").
//!
//! The rules read the whole page; the result is what the service answers and keeps for
//! every audit, so each text and list in it that grows with the page has a bound. A text past
//! its bound is cut at a character boundary and ends with `…`; a list past its bound lists
//! its first entries and says how many there are in all. The bounds are in bytes of JSON as
//! written (a control character takes six), so that their sum, [`MAX_RESULT_BYTES`], is a
//! bound of the stored row whatever the page is made of. The shared corpus of real pages is
//! kept whole (`crates/audit-core/tests/it/corpus.rs`).

use serde::Serialize;

use crate::recommendation::Recommendation;

/// JSON bytes of a short text of the result at most: the title, first `<h1>`, Open Graph
/// title, robots content, language, charset, a finding's title. A title of a kilobyte is far
/// past what a search result shows (about 60 characters).
pub const MAX_RESULT_TEXT_BYTES: usize = 1_024;
/// JSON bytes of the meta description and the Open Graph description at most, each. Some
/// real pages put their article's first paragraphs there: the corpus's longest Open Graph
/// description is 1,783 bytes (`ctpost.com.html`).
pub const MAX_RESULT_DESCRIPTION_BYTES: usize = 4_096;
/// JSON bytes of a URL of the result at most (the page's, its canonical, its Open Graph image,
/// an hreflang target, a blocked or rendered-only link): the longest URL the fetcher fetches is
/// 2,048 bytes.
pub const MAX_RESULT_URL_BYTES: usize = 2_048;
/// JSON bytes of a finding's description, current value and suggested value at most, each.
/// The longest of the corpus's real pages is far shorter (measured by the corpus test).
pub const MAX_RESULT_FINDING_TEXT_BYTES: usize = 4_096;
/// JSON bytes of the listed headings at most (each heading's text is at most 4,096 bytes as
/// parsed): the others are counted in `page.headings_total`.
pub const MAX_LISTED_HEADING_BYTES: usize = 128 * 1024;
/// JSON bytes of the listed hreflang links at most, the others counted in
/// `page.hreflang_total` (84 alternates of a real page take about 7 KB).
pub const MAX_LISTED_HREFLANG_BYTES: usize = 128 * 1024;
/// JSON bytes of a JSON-LD type name listed in `page.schema_types` at most.
pub const MAX_LISTED_TYPE_BYTES: usize = 128;
/// JSON bytes of the findings' locations at most, all findings together, worst finding
/// first: a location past it is not listed (its finding's `locations_total` still counts it).
pub const MAX_LISTED_LOCATION_BYTES: usize = 256 * 1024;
/// JSON bytes of the structured-data items listed at most: an item past it is not listed and
/// `structured_data.items_total` counts every item read.
pub const MAX_LISTED_ITEM_BYTES: usize = 512 * 1024;
/// Invalid JSON-LD blocks listed at most (`structured_data.invalid_blocks_total` counts them
/// all): a page of 100,000 blocks of `{` would otherwise list each with its parser message.
pub const MAX_LISTED_INVALID_BLOCKS: usize = 100;
/// JSON bytes of `ai_insights` at most (written from four finding titles and the score).
pub const MAX_RESULT_INSIGHTS_BYTES: usize = 8 * 1024;
/// Directives of a rendering view's `robots` listed at most (a real page has a handful).
pub const MAX_LISTED_ROBOTS_DIRECTIVES: usize = 32;

/// The largest audit result, as JSON, in bytes: the sum of the bounds above over the fields
/// they bound and the fixed fields, rounded up. In KiB: the page 6 × 1 + 2 × 4 + 4 × 2 (texts,
/// descriptions, URLs) + 128 + 128 (headings, hreflang) + 50 × 0.125 (type names) = 285; 100
/// findings (the rule table has 75; [`MAX_RULES_COUNTED`]) of 1 + 3 × 4 + 0.5 (title,
/// description, values, fixed fields) = 1,350, and 256 of locations; 6 of checks and 8 of insights; structured data 512 + 100 × 1
/// (invalid blocks) = 612; a rendered audit's section 2 + 50 × 3 (blocked requests) + 2 × 12
/// (views) + 50 × 2 (links) + 3 × 13.5 + 32 (its findings) = 349: 2,866 KiB in all, bounded at
/// 3 MiB. `crates/audit-core/tests/it/facts.rs` tests it on a page built to reach the bounds.
pub const MAX_RESULT_BYTES: usize = 3 * 1024 * 1024;

/// Page rules [`MAX_RESULT_BYTES`] counts findings for (a unit test holds the rule table
/// within it).
pub const MAX_RULES_COUNTED: usize = 100;

/// What [`AuditResult::bound`](crate::AuditResult::bound) cut: texts cut and list entries left out.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Cuts {
    /// Texts cut (each ends with `…`).
    pub texts: usize,
    /// List entries not listed (each list counts them in its total).
    pub entries: usize,
}

impl Cuts {
    /// Whether nothing was cut.
    pub fn none(self) -> bool {
        self == Cuts::default()
    }
}

/// Bytes of `value` as JSON.
pub fn json_len<T: Serialize + ?Sized>(value: &T) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    // Writing to a counter cannot fail, and the result's types always serialise.
    let _ = serde_json::to_writer(&mut count, value);
    count.0
}

/// Bytes `c` takes inside a JSON string (serde_json's escapes).
fn escaped_len(c: char) -> usize {
    match c {
        '"' | '\\' | '\n' | '\r' | '\t' | '\u{8}' | '\u{c}' => 2,
        c if (c as u32) < 0x20 => 6,
        c => c.len_utf8(),
    }
}

/// Cuts `s` so that it takes at most `max` bytes as a JSON string (quotes included), at a
/// character boundary, ending with `…` when cut. Counts the cut in `cuts`.
pub fn cut_text(s: &mut String, max: usize, cuts: &mut Cuts) {
    let ellipsis = '…'.len_utf8();
    let mut used = 2;
    let mut fits_with_mark = None;
    for (at, c) in s.char_indices() {
        let len = escaped_len(c);
        if used + len + ellipsis > max && fits_with_mark.is_none() {
            fits_with_mark = Some(at);
        }
        if used + len > max {
            s.truncate(fits_with_mark.unwrap_or(at));
            s.push('…');
            cuts.texts += 1;
            return;
        }
        used += len;
    }
}

pub(crate) fn cut_option(s: &mut Option<String>, max: usize, cuts: &mut Cuts) {
    if let Some(s) = s {
        cut_text(s, max, cuts);
    }
}

/// Keeps the first entries of `list` whose JSON fits in `max_bytes` (and at most `max_len`
/// of them); answers how many it had, when some were left out.
pub(crate) fn keep_within<T: Serialize>(
    list: &mut Vec<T>,
    max_len: usize,
    max_bytes: usize,
    cuts: &mut Cuts,
) -> Option<usize> {
    let total = list.len();
    let mut used = 2;
    let mut keep = 0;
    for entry in list.iter().take(max_len) {
        let len = json_len(entry) + 1;
        if used + len > max_bytes {
            break;
        }
        used += len;
        keep += 1;
    }
    list.truncate(keep);
    cuts.entries += total - keep;
    (keep < total).then_some(total)
}

/// The texts of a finding within their bounds; its locations within what is `left` of the
/// locations' budget.
pub(crate) fn bound_finding(r: &mut Recommendation, left: &mut usize, cuts: &mut Cuts) {
    cut_text(&mut r.title, MAX_RESULT_TEXT_BYTES, cuts);
    cut_text(&mut r.description, MAX_RESULT_FINDING_TEXT_BYTES, cuts);
    cut_option(&mut r.current_value, MAX_RESULT_FINDING_TEXT_BYTES, cuts);
    cut_option(&mut r.suggested_value, MAX_RESULT_FINDING_TEXT_BYTES, cuts);
    let listed = r.locations.len();
    r.locations.retain(|l| {
        let len = json_len(l) + 1;
        let fits = len <= *left;
        if fits {
            *left -= len;
        }
        fits
    });
    cuts.entries += listed - r.locations.len();
    // The total counts every element, listed or not.
    r.locations_total = r.locations_total.max(u32::try_from(listed).unwrap_or(u32::MAX));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut(s: &str, max: usize) -> (String, Cuts) {
        let mut s = s.to_string();
        let mut cuts = Cuts::default();
        cut_text(&mut s, max, &mut cuts);
        (s, cuts)
    }

    #[test]
    fn a_text_is_cut_within_its_json_bytes_with_a_mark() {
        // "abc" takes 5 bytes as JSON: it fits in 5, not in 4.
        assert_eq!(cut("abc", 5), ("abc".to_string(), Cuts::default()));
        let (s, cuts) = cut("abcdef", 6);
        assert_eq!((s.as_str(), cuts.texts), ("a…", 1));
        assert!(json_len(&s) <= 6);
        // A control character takes six bytes as JSON: the cut counts it so.
        let (s, _) = cut(&"\u{1}".repeat(100), 40);
        assert!(json_len(&s) <= 40, "{}", json_len(&s));
        assert!(s.ends_with('…'));
        // Characters of several bytes are never split.
        let (s, _) = cut(&"é".repeat(100), 41);
        assert!(json_len(&s) <= 41 && s.ends_with('…'));
    }

    #[test]
    fn the_bound_counts_every_rule() {
        assert!(crate::RULES.len() <= MAX_RULES_COUNTED, "{} rules: recount MAX_RESULT_BYTES", crate::RULES.len());
    }

    #[test]
    fn a_list_keeps_what_fits_and_counts_the_rest() {
        let mut list = vec!["a".repeat(10); 10];
        let mut cuts = Cuts::default();
        // Each entry is 12 bytes and a comma: 2 + 3 × 13 = 41.
        assert_eq!(keep_within(&mut list, usize::MAX, 41, &mut cuts), Some(10));
        assert_eq!((list.len(), cuts.entries), (3, 7));
        assert!(json_len(&list) <= 41);
        let mut list = vec![1, 2, 3];
        assert_eq!(keep_within(&mut list, 3, usize::MAX, &mut cuts), None);
    }
}
