//! One module per area; each handler is listed once in [`crate::router::ROUTES`].

pub mod ai;
pub mod alerts;
pub mod audit;
pub mod bot;
pub mod content;
pub mod crawl_shares;
pub mod crawls;
pub mod history;
pub mod mcp;
pub mod monitors;
pub mod openapi;
pub mod schedules;
pub mod status;
pub mod usage;
pub mod web;
pub mod webhooks;
pub mod workflows;
