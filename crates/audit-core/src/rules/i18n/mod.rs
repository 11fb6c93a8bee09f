//! Rules of this category: one file each.

mod hreflang_conflicting_entries;
mod hreflang_invalid_code;
mod hreflang_lang_mismatch;
mod hreflang_no_self_reference;
mod hreflang_no_x_default;
mod hreflang_relative_url;
mod html_lang_invalid;
mod html_lang_missing;

pub use hreflang_conflicting_entries::HreflangConflictingEntries;
pub use hreflang_invalid_code::HreflangInvalidCode;
pub use hreflang_lang_mismatch::HreflangLangMismatch;
pub use hreflang_no_self_reference::HreflangNoSelfReference;
pub use hreflang_no_x_default::HreflangNoXDefault;
pub use hreflang_relative_url::HreflangRelativeUrl;
pub use html_lang_invalid::HtmlLangInvalid;
pub use html_lang_missing::HtmlLangMissing;

use crate::fix::{attr, fix_lang_tag, Difficulty, FixCtx, FixKind, FixTemplate};
use crate::rules::util::{is_valid_hreflang, same_url};

/// The head's hreflang entries that name a language: a valid code other than `x-default`.
fn language_entries(page: &crate::page::Page) -> impl Iterator<Item = &crate::page::Hreflang> + '_ {
    page.head_hreflang()
        .filter(|h| !h.lang.trim().eq_ignore_ascii_case("x-default") && is_valid_hreflang(h.lang.trim()))
}

/// The fix of the html lang rules: the html element with `lang`.
fn lang_fix(lang: String) -> Option<FixTemplate> {
    FixTemplate::some(
        FixKind::Html,
        Difficulty::Easy,
        format!("<html lang=\"{}\">", attr(&lang)),
        format!("Declare the language of the page on the html element (\"{lang}\" was inferred; correct it if the page is in another language)."),
    )
}

/// The fix of the hreflang rules: the page's set, repaired.
fn hreflang_fix(c: &FixCtx) -> Option<FixTemplate> {
    let set = hreflang_set(c);
    let code = set
        .iter()
        .map(|(l, h)| format!("<link rel=\"alternate\" hreflang=\"{}\" href=\"{}\">", attr(l), attr(h)))
        .collect::<Vec<_>>()
        .join("\n");
    FixTemplate::some(
        FixKind::Html,
        Difficulty::Medium,
        code,
        "Use this set on every page of the group: valid codes, absolute URLs, a link to the page itself and an x-default. Each page must link back to the others.",
    )
}

/// The hreflang set of the page, repaired: valid codes, absolute URLs, self link, x-default.
fn hreflang_set(c: &FixCtx) -> Vec<(String, String)> {
    let mut set: Vec<(String, String)> = Vec::new();
    if let Some(p) = c.page {
        for h in &p.hreflang {
            let code = if is_valid_hreflang(&h.lang) {
                h.lang.clone()
            } else {
                fix_lang_tag(&h.lang).replace("en-UK", "en-GB")
            };
            if !is_valid_hreflang(&code) {
                continue;
            }
            let href = h.url.clone().unwrap_or_else(|| c.url_or_todo());
            if !set.iter().any(|(l, _)| l.eq_ignore_ascii_case(&code)) {
                set.push((code, href));
            }
        }
    }
    let own = c.url_or_todo();
    if !set.iter().any(|(_, h)| same_url(h, &own)) {
        let lang = c.lang();
        set.retain(|(l, _)| !l.eq_ignore_ascii_case(&lang));
        set.insert(0, (lang, own.clone()));
    }
    if set.len() == 1 {
        // A set of one is not a set: show where a second language would go.
        let other = if set[0].0.starts_with("en") { "de" } else { "en" };
        set.push((other.to_string(), format!("TODO: full URL of the {other} version of this page")));
    }
    if !set.iter().any(|(l, _)| l.eq_ignore_ascii_case("x-default")) {
        let default =
            set.iter().find(|(l, _)| l.starts_with("en")).map_or_else(|| set[0].1.clone(), |(_, h)| h.clone());
        set.push(("x-default".into(), default));
    }
    set
}
