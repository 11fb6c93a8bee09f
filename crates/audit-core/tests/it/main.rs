//! The integration tests of the engine, in one test binary (one link of the stack instead
//! of one per file): each module was a test file of its own. Run one with
//! `cargo test -p seo-audit-core --test it MODULE::`.

mod corpus;
mod facts;
mod lighthouse;
mod locations;
mod properties;
mod rule_cases;
#[path = "../support/rule_fixture.rs"]
mod rule_fixture;
mod rule_unit;
mod rules;
mod rules_doc;
mod snapshots;
mod table;
mod walk_budget;
