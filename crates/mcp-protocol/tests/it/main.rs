//! The integration tests of mcp-protocol, in one test binary (one link of the stack instead
//! of one per file): each module was a test file of its own. Run one with
//! `cargo test -p mcp-protocol --test it MODULE::`.

mod properties;
