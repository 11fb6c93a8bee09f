//! Rules of this category: one file each.

mod hreflang_invalid_code;
mod hreflang_no_self_reference;
mod hreflang_no_x_default;
mod hreflang_relative_url;
mod html_lang_invalid;
mod html_lang_missing;

pub use hreflang_invalid_code::HreflangInvalidCode;
pub use hreflang_no_self_reference::HreflangNoSelfReference;
pub use hreflang_no_x_default::HreflangNoXDefault;
pub use hreflang_relative_url::HreflangRelativeUrl;
pub use html_lang_invalid::HtmlLangInvalid;
pub use html_lang_missing::HtmlLangMissing;
