//! White space collapsed the way `str::split_whitespace` joined by single spaces would, but
//! fast: the page text kept with every stored audit and the text a crawl hashes to find
//! duplicate pages are tens of kilobytes per page (docs/PERFORMANCE.md, "The service: audits
//! per second over HTTP").

/// `s` with each run of white space (as [`char::is_whitespace`] defines it) made one space
/// and the ends trimmed, cut to at most `max` bytes at a character boundary. Only the first
/// `max` bytes of output are ever produced: the rest of `s` is not scanned. Runs of text are
/// copied whole, clean ASCII eight bytes at a time; only white space and non-ASCII
/// characters are looked at one by one.
pub fn collapse_white_space(s: &str, max: usize) -> String {
    let bytes = s.as_bytes();
    let n = bytes.len();
    let mut out = String::with_capacity(n.min(max));
    let white_at = |i: usize| -> (bool, usize) {
        if bytes[i] < 0x80 {
            (!WORD_BYTE[usize::from(bytes[i])], 1)
        } else {
            let c = s[i..].chars().next().unwrap_or(char::REPLACEMENT_CHARACTER);
            (c.is_whitespace(), c.len_utf8())
        }
    };
    let mut i = 0;
    while i < n {
        while i < n {
            let (white, width) = white_at(i);
            if !white {
                break;
            }
            i += width;
        }
        if i >= n {
            break;
        }
        // A segment: text whose white space is already single spaces between words, copied
        // in one piece. Most text is one long segment between line breaks.
        let start = i;
        while i - start <= max {
            i = skip_clean_chunks(bytes, i);
            while i < n && WORD_BYTE[usize::from(bytes[i])] {
                i += 1;
            }
            if i >= n {
                break;
            }
            if bytes[i] == b' ' && i + 1 < n && WORD_BYTE[usize::from(bytes[i + 1])] {
                i += 2;
                continue;
            }
            let (white, width) = white_at(i);
            if white {
                break;
            }
            i += width;
        }
        if !push_word(&mut out, &s[start..i], max) {
            break;
        }
    }
    out
}

/// From `i`, inside a segment (the byte before `i`, if any, is not white space), skips
/// eight bytes at a time while they need no closer look: ASCII, and every byte either part of
/// a word or a single space followed by a word byte. Returns where the closer look starts.
/// (Most of a page's text is such chunks; the bytes are classified together, as one `u64`,
/// instead of branching on each.)
fn skip_clean_chunks(bytes: &[u8], mut i: usize) -> usize {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const ONES: u64 = 0x0101_0101_0101_0101;
    while let Some(chunk) = bytes.get(i..i + 9) {
        let mut eight = [0u8; 8];
        eight.copy_from_slice(&chunk[..8]);
        let x = u64::from_le_bytes(eight);
        if x & HIGH != 0 {
            break;
        }
        // Per byte, exact for ASCII (no borrow crosses bytes): the high bit says "> 0x20".
        let word = ((x | HIGH) - 0x21 * ONES) & HIGH;
        let y = x ^ (0x20 * ONES);
        let space = !((y | HIGH) - ONES) & HIGH;
        // Every byte is a word byte or a space ...
        if (word | space) != HIGH {
            break;
        }
        // ... and every space is followed by a word byte (the ninth byte for the last one).
        let next_is_word = (word >> 8) | (u64::from(WORD_BYTE[usize::from(chunk[8])]) << 63);
        if space & !next_is_word != 0 {
            break;
        }
        i += 8;
    }
    i
}

/// The bytes that continue a word without a closer look: ASCII that is not white space
/// (`char::is_whitespace` for ASCII: space, `\t`, `\n`, `\x0b`, `\x0c`, `\r`).
const WORD_BYTE: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 0x80 {
        table[b] = !matches!(b as u8, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r');
        b += 1;
    }
    table
};

/// Appends `word` (after one space unless `out` is empty), cut so that `out` stays within
/// `max` bytes; `false` when it did not fit whole.
fn push_word(out: &mut String, word: &str, max: usize) -> bool {
    if !out.is_empty() {
        if out.len() >= max {
            return false;
        }
        out.push(' ');
    }
    let room = max - out.len();
    if word.len() <= room {
        out.push_str(word);
        return true;
    }
    let mut cut = room;
    while !word.is_char_boundary(cut) {
        cut -= 1;
    }
    out.push_str(&word[..cut]);
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference: what the stored text has always been (words joined by one space),
    /// cut at a character boundary.
    fn reference(s: &str, max: usize) -> String {
        let mut text = s.split_whitespace().collect::<Vec<_>>().join(" ");
        let mut cut = text.len().min(max);
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
        text
    }

    #[test]
    fn white_space_is_collapsed_like_split_whitespace() {
        let cases = [
            "",
            "   ",
            "one",
            "  Copper   kettles\nfor\ttea  ",
            "a\u{a0}b\u{2003}c\u{3000}d",
            "\u{b}x\u{c}y\r\nz",
            "ééé ééé",
            "日本語のテキスト と  空白",
            "tail ",
        ];
        for s in cases {
            for max in [0, 1, 2, 3, 4, 5, 7, 10, 64] {
                assert_eq!(collapse_white_space(s, max), reference(s, max), "{s:?} max {max}");
            }
        }
    }

    #[test]
    fn white_space_is_collapsed_like_split_whitespace_on_random_texts() {
        let alphabet =
            ['a', 'Z', '7', ' ', ' ', '\n', '\t', '\u{b}', 'é', '日', '\u{a0}', '\u{2003}', '\u{85}', '🫖', '-'];
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..20_000 {
            let len = usize::try_from(next() % 40).unwrap();
            let s: String = (0..len).map(|_| alphabet[usize::try_from(next() % 15).unwrap()]).collect();
            let max = usize::try_from(next() % 50).unwrap();
            assert_eq!(collapse_white_space(&s, max), reference(&s, max), "{s:?} max {max}");
        }
    }

    #[test]
    fn white_space_is_collapsed_like_split_whitespace_on_long_mostly_clean_texts() {
        // Long runs of words and single spaces (the chunks read eight bytes at a time), with
        // now and then a byte that needs a closer look, at every offset of a chunk.
        let rare = ['\n', '\t', ' ', 'é', '\u{a0}', '日', '~', '!'];
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..5_000 {
            let len = usize::try_from(next() % 200).unwrap();
            let s: String = (0..len)
                .map(|_| match next() % 40 {
                    0 => rare[usize::try_from(next() % 8).unwrap()],
                    1..=6 => ' ',
                    k => char::from(b'a' + u8::try_from(k % 26).unwrap()),
                })
                .collect();
            let max = usize::try_from(next() % 220).unwrap();
            assert_eq!(collapse_white_space(&s, max), reference(&s, max), "{s:?} max {max}");
        }
    }

    #[test]
    fn the_kept_text_is_capped_at_a_character() {
        let long = "mot ".repeat(40_000) + "é";
        let kept = collapse_white_space(&long, 64 * 1024);
        assert_eq!(kept.len(), 64 * 1024);
        assert_eq!(kept, reference(&long, 64 * 1024));
        assert_eq!(collapse_white_space("ééé", 3), "é");
    }
}
