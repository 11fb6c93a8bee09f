//! The tests of the harness itself, in one test binary. Run one with
//! `cargo test -p test-support --test it MODULE::`.

mod postgres;
mod servers;
