//! ai-visibility
