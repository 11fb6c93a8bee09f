//! Rules of this category: one file each.

mod internal_link_nofollow;
mod link_empty_text;
mod link_text_not_descriptive;
mod link_uncrawlable;
mod links_too_many;

pub use internal_link_nofollow::InternalLinkNofollow;
pub use link_empty_text::LinkEmptyText;
pub use link_text_not_descriptive::LinkTextNotDescriptive;
pub use link_uncrawlable::LinkUncrawlable;
pub use links_too_many::LinksTooMany;
