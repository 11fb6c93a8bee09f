//! Rules of this category: one file each.

mod dom_too_large;
mod html_too_complex;
mod html_too_large;
mod render_blocking_scripts;
mod slow_response;

pub use dom_too_large::DomTooLarge;
pub use html_too_complex::HtmlTooComplex;
pub use html_too_large::HtmlTooLarge;
pub use render_blocking_scripts::RenderBlockingScripts;
pub use slow_response::SlowResponse;
