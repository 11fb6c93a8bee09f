//! Rules of this category: one file each.

mod canonical_missing;
mod canonical_multiple;
mod canonical_points_elsewhere;
mod canonical_relative;
mod canonical_with_noindex;
mod charset_missing;
mod favicon_missing;
mod http_status_error;
mod mixed_content;
mod not_https;
mod page_nofollow;
mod page_noindex;
mod redirect_chain;
mod robots_txt_blocked;
mod url_many_parameters;
mod url_too_long;
mod url_underscores;
mod url_uppercase;

pub use canonical_missing::CanonicalMissing;
pub use canonical_multiple::CanonicalMultiple;
pub use canonical_points_elsewhere::CanonicalPointsElsewhere;
pub use canonical_relative::CanonicalRelative;
pub use canonical_with_noindex::CanonicalWithNoindex;
pub use charset_missing::CharsetMissing;
pub use favicon_missing::FaviconMissing;
pub use http_status_error::HttpStatusError;
pub use mixed_content::MixedContent;
pub use not_https::NotHttps;
pub use page_nofollow::PageNofollow;
pub use page_noindex::PageNoindex;
pub use redirect_chain::RedirectChain;
pub use robots_txt_blocked::RobotsTxtBlocked;
pub use url_many_parameters::UrlManyParameters;
pub use url_too_long::UrlTooLong;
pub use url_underscores::UrlUnderscores;
pub use url_uppercase::UrlUppercase;
