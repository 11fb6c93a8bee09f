//! mcp-protocol
