//! The integration tests of http-serve, in one test binary. Run one module with
//! `cargo test -p http-serve --test it MODULE::`.

#[cfg(target_os = "linux")]
mod accept_backoff;
mod common;
mod connections;
