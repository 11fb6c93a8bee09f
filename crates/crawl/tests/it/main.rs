//! Integration tests of the crawl engine, one binary (docs/PERFORMANCE.md, "Building and
//! testing").

mod corpus;
mod fixture_sites;
mod properties;
mod rule_unit;
mod rules_doc;
mod sites;
