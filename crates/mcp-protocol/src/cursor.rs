//! Opaque, deterministic paging cursors.
//!
//! A cursor is the base64url form of `o:<offset>` into the registry's fixed list. It is
//! opaque to clients; the prefix lets a future format be told apart from this one.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;

use crate::error::Error;

pub(crate) fn encode(offset: usize) -> String {
    URL_SAFE_NO_PAD.encode(format!("o:{offset}"))
}

/// The offset a cursor points at; only offsets this crate could have issued for a
/// list of `len` items are accepted.
pub(crate) fn decode(cursor: &str, len: usize) -> Result<usize, Error> {
    let invalid = || Error::InvalidParams(format!("invalid cursor {cursor:?}"));
    let bytes = URL_SAFE_NO_PAD.decode(cursor).map_err(|_| invalid())?;
    let text = std::str::from_utf8(&bytes).map_err(|_| invalid())?;
    let digits = text.strip_prefix("o:").ok_or_else(invalid)?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(invalid());
    }
    let offset: usize = digits.parse().map_err(|_| invalid())?;
    if offset == 0 || offset >= len {
        return Err(invalid());
    }
    Ok(offset)
}

/// One page of `items` starting at `cursor`, and the cursor of the next page.
pub(crate) fn page<'a, T>(
    items: &'a [T],
    cursor: Option<&str>,
    page_size: usize,
) -> Result<(&'a [T], Option<String>), Error> {
    let start = match cursor {
        None => 0,
        Some(c) => decode(c, items.len())?,
    };
    // A page size of 0 would never advance; treat it as 1.
    let end = start.saturating_add(page_size.max(1)).min(items.len());
    let next = (end < items.len()).then(|| encode(end));
    Ok((&items[start..end], next))
}
