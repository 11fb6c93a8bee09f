//! Rules of this category: one file each.

mod canonical_fragment;
mod canonical_header_conflict;
mod canonical_missing;
mod canonical_multiple;
mod canonical_points_elsewhere;
mod canonical_relative;
mod canonical_with_noindex;
mod charset_missing;
mod favicon_missing;
mod form_insecure;
mod head_ended_early;
mod http_status_error;
mod meta_refresh;
mod mixed_content;
mod not_https;
mod page_nofollow;
mod page_noimageindex;
mod page_noindex;
mod page_nosnippet;
mod redirect_chain;
mod robots_txt_blocked;
mod robots_txt_invalid;
mod url_many_parameters;
mod url_multiple_slashes;
mod url_too_long;
mod url_underscores;
mod url_uppercase;

pub use canonical_fragment::CanonicalFragment;
pub use canonical_header_conflict::CanonicalHeaderConflict;
pub use canonical_missing::CanonicalMissing;
pub use canonical_multiple::CanonicalMultiple;
pub use canonical_points_elsewhere::CanonicalPointsElsewhere;
pub use canonical_relative::CanonicalRelative;
pub use canonical_with_noindex::CanonicalWithNoindex;
pub use charset_missing::CharsetMissing;
pub use favicon_missing::FaviconMissing;
pub use form_insecure::FormInsecure;
pub use head_ended_early::HeadEndedEarly;
pub use http_status_error::HttpStatusError;
pub use meta_refresh::MetaRefresh;
pub use mixed_content::MixedContent;
pub use not_https::NotHttps;
pub use page_nofollow::PageNofollow;
pub use page_noimageindex::PageNoimageindex;
pub use page_noindex::PageNoindex;
pub use page_nosnippet::PageNosnippet;
pub use redirect_chain::RedirectChain;
pub use robots_txt_blocked::RobotsTxtBlocked;
pub use robots_txt_invalid::RobotsTxtInvalid;
pub use url_many_parameters::UrlManyParameters;
pub use url_multiple_slashes::UrlMultipleSlashes;
pub use url_too_long::UrlTooLong;
pub use url_underscores::UrlUnderscores;
pub use url_uppercase::UrlUppercase;

use crate::fix::{attr, Difficulty, FixCtx, FixKind, FixTemplate};

/// The fix of the robots meta rules (`noindex`, `nofollow`): one tag that allows both.
fn robots_meta_fix() -> Option<FixTemplate> {
    FixTemplate::some(
        FixKind::Html,
        Difficulty::Easy,
        "<meta name=\"robots\" content=\"index, follow\">",
        "Replace the robots meta tag in <head> with this one (or remove it: index, follow is the default), and remove any X-Robots-Tag: noindex/nofollow response header.",
    )
}

/// A robots meta tag with the page's own `<meta name="robots">` directives but those `drop`
/// names, so that the fix of one directive keeps the others (`noindex`, `nofollow`,
/// `noarchive`...); `otherwise` when the page is not given or nothing is left.
fn robots_meta_without(c: &FixCtx, drop: impl Fn(&str) -> bool, otherwise: &str) -> String {
    let mut kept: Vec<String> = Vec::new();
    for directive in c.page.into_iter().flat_map(|p| &p.meta_robots).flat_map(|m| m.split(',')) {
        let directive = directive.trim();
        if !directive.is_empty() && !drop(directive) && !kept.iter().any(|k| k.eq_ignore_ascii_case(directive)) {
            kept.push(directive.to_string());
        }
    }
    let content = if kept.is_empty() { otherwise.to_string() } else { kept.join(", ") };
    format!("<meta name=\"robots\" content=\"{}\">", attr(&content))
}

/// The fix of the canonical rules: one canonical link to the page itself.
fn canonical_fix(c: &FixCtx, difficulty: Difficulty, why: &str) -> Option<FixTemplate> {
    FixTemplate::some(
        FixKind::Html,
        difficulty,
        format!("<link rel=\"canonical\" href=\"{}\">", attr(&c.url_or_todo())),
        why,
    )
}

/// The fix of the address rules: a redirect from the address to its clean form (`clean`
/// removes the rule's problem). Without the page's address, the current value (the
/// path) or `example`, an address with the problem, stands in: the bare example origin has
/// nothing to clean. A known address that shows no such problem gets the example too:
/// redirecting it to itself would loop.
fn clean_url_fix(c: &FixCtx, clean: fn(&url::Url) -> String, example: &str) -> Option<FixTemplate> {
    let known = Some(c.url.clone()).filter(|u| c.known_url && clean(u) != u.as_str());
    let example_note = if c.known_url && known.is_none() {
        " The page's address shows no such problem, so an example address stands in: use the one the audit named."
    } else {
        ""
    };
    let given = c.current_token().filter(|p| p.starts_with('/'));
    let old = known.clone().unwrap_or_else(|| {
        let path = given.unwrap_or(example);
        c.url.join(path).unwrap_or_else(|_| c.url.clone())
    });
    let clean = clean(&old);
    let old_path = old.path().to_string();
    let todo = if known.is_some() {
        String::new()
    } else if given.is_none() {
        format!("# TODO: example addresses stand in below, replace {old} and {clean} with the address the audit named and its clean form\n")
    } else if !c.known_url {
        format!("# TODO: replace {} with the address of your site\n", c.origin())
    } else {
        String::new()
    };
    FixTemplate::some(
        FixKind::ServerConfig,
        Difficulty::Medium,
        format!("{todo}# nginx: send the old address to the clean one\nlocation = {old_path} {{\n    return 301 {clean};\n}}\n\n# and in the page's <head>\n# <link rel=\"canonical\" href=\"{clean}\">"),
        format!("Publish the page at the clean address, redirect the old address there permanently, and link to the new one.{example_note}"),
    )
}
