//! audit-core
