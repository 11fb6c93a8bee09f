//! ai-visibility
mod bots;
mod robots;
pub use bots::*;
pub use robots::*;
