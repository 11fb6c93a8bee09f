//! autofix
