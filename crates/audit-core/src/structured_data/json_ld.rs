//! A JSON-LD block as the page walk finds it: the fact the page keeps and the graph reads. A
//! module of its own, below both the page (page.rs, which fills it) and the graph.

use serde::Serialize;

/// A `<script type="application/ld+json">` block.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct JsonLd {
    /// The parsed value; `None` when the block is not valid JSON.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<serde_json::Value>,
    /// The JSON parse error, kept as a fact.
    pub error: Option<String>,
    /// Every `@type` found in the block (including nested and `@graph` items).
    pub types: Vec<String>,
    /// Whether the top-level object (or every top-level item) carries `@context`.
    pub has_context: bool,
    /// The line of the page where the `<script>` element starts (1 for the first line).
    pub line: u32,
    /// The line of the page the JSON parse error points at, when the block is not valid JSON.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_line: Option<u32>,
    /// Whether the block was left unparsed: it did not fit in the page's
    /// [`MAX_JSON_LD_BYTES`](super::MAX_JSON_LD_BYTES) (`value` and `error` are then `None`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub not_read: bool,
    /// Where its `<script>` element is (see [`crate::Page::locate`]).
    #[serde(skip)]
    pub spot: crate::locate::Spot,
}
