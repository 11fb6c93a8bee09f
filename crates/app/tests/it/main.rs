//! The application's use cases, called as the REST API, the agent tools and the command
//! line call them (one function each), against a real SQLite store and fixture sites on
//! loopback; no HTTP in front. What is HTTP (statuses, headers, limits, the OpenAPI
//! document, the agent protocol) is tested in the server's tests.

mod audit;
mod crawl;
mod local_crawl;
mod owned;
mod politeness;
mod quota;
mod support;
