//! Structured data as search engines read it: JSON-LD, microdata and RDFa Lite read into one
//! graph of typed items ([`graph`]), each item checked against Google's documented
//! requirements for the rich results its type can earn ([`types`], [`values`], [`check`]).
//!
//! The reading is bounded, so that a page of nothing but structured data stays within the
//! analysis budget (docs/API.md, "Structured data"): at most [`MAX_JSON_LD_BYTES`] of JSON-LD
//! are parsed, [`MAX_ITEMS`] items read and checked, [`MAX_NODES`] nodes built,
//! [`MAX_PROPERTIES`] properties of [`MAX_VALUES`] values kept per node, [`MAX_VISITS`]
//! markup elements visited and [`MAX_PROBLEMS`] problems listed per page. What a bound left
//! out is counted ([`StructuredData::blocks_not_read`], [`StructuredData::nodes_not_read`],
//! [`StructuredData::problems_not_listed`]), never dropped silently.

pub mod check;
pub mod graph;
mod json_ld;
pub mod types;
pub mod values;

pub use json_ld::JsonLd;

use serde::{Deserialize, Serialize};

use crate::parse::Budget;

/// Bytes of JSON-LD parsed per page at most, blocks in page order: a block that does not fit
/// in what is left is not parsed (and counted), a later smaller one still can be. The largest
/// block of the corpus's 97 pages is 30 KB; JSON parsing is the reader's largest cost (a 5 MB
/// block of products took a third of the analysis budget before this bound).
pub const MAX_JSON_LD_BYTES: usize = 1024 * 1024;
/// Top-level items (and main entities) read and checked per page at most: checking is the
/// reader's other large cost, and each item is a member of the audit result.
pub const MAX_ITEMS: usize = 1_000;
/// Nodes (typed items and nested objects) read from one page at most.
pub const MAX_NODES: usize = 20_000;
/// Distinct properties kept per node at most (schema.org's largest types have about a hundred):
/// a property is found by a scan of the node's, so thousands of distinct names in one object
/// would make reading quadratic.
pub const MAX_PROPERTIES: usize = 128;
/// Values kept per property of a node at most (every value of a required property is checked
/// and may be a problem).
pub const MAX_VALUES: usize = 1_000;
/// Problems (errors and warnings) listed per page at most; the eligibility of every checked
/// item still counts all of its problems.
pub const MAX_PROBLEMS: usize = 2_000;
/// Markup elements visited while reading microdata and RDFa at most (`itemref` can make an
/// element part of many items).
pub const MAX_VISITS: usize = 200_000;
/// Nesting of JSON-LD objects and microdata or RDFa items followed at most.
pub const MAX_DEPTH: usize = 32;

/// An element with microdata or RDFa attributes (or an `id`, which `itemref` may name), as
/// the page walk records it: the attributes structured data is read from, and the nearest
/// recorded ancestor.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MarkupElement {
    /// Index of the nearest recorded ancestor.
    pub parent: Option<usize>,
    /// Line of the start tag.
    pub line: u32,
    /// `id`.
    pub id: Option<String>,
    /// Whether `itemscope` is present.
    pub itemscope: bool,
    /// `itemtype`.
    pub itemtype: Option<String>,
    /// `itemprop`.
    pub itemprop: Option<String>,
    /// `itemref`.
    pub itemref: Option<String>,
    /// `itemid`.
    pub itemid: Option<String>,
    /// `vocab` (RDFa).
    pub vocab: Option<String>,
    /// `typeof` (RDFa).
    pub typeof_: Option<String>,
    /// `property` (RDFa).
    pub property: Option<String>,
    /// `resource` (RDFa).
    pub resource: Option<String>,
    /// `content`.
    pub content: Option<String>,
    /// `href`, else `src`.
    pub href: Option<String>,
    /// The value an `itemprop` takes from an attribute of this element (`content` of
    /// `<meta>`, `src` of `<img>`, `href` of `<a>`, `datetime` of `<time>` ...).
    pub micro_value: Option<String>,
    /// The element's text, white space collapsed, when its value is its text.
    pub text: Option<String>,
}

/// Where an item was read from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    /// A `<script type="application/ld+json">` block.
    #[default]
    JsonLd,
    /// Microdata (`itemscope`, `itemtype`, `itemprop`).
    Microdata,
    /// RDFa Lite (`vocab`, `typeof`, `property`).
    Rdfa,
}

/// How much a problem costs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum ProblemSeverity {
    /// A required property is missing or invalid: the item is not eligible for the rich
    /// result.
    #[default]
    Error,
    /// A recommended property is missing or invalid: the item is eligible, with less.
    Warning,
}

/// One problem of an item.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "StructuredDataProblem"))]
#[serde(default)]
pub struct Problem {
    /// The property path from the item, e.g. `Product.offers[0].price`.
    pub path: String,
    /// `error` (not eligible) or `warning` (eligible with less).
    pub severity: ProblemSeverity,
    /// The rich result the requirement belongs to, e.g. `Product snippet`.
    pub rich_result: String,
    /// What is wrong, in a sentence.
    pub message: String,
    /// The line of the page where the item (or the property, for microdata and RDFa) starts.
    pub line: u32,
}

/// One item of the page's structured data, with what it is eligible for.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "StructuredDataItem"))]
#[serde(default)]
pub struct Item {
    /// The item's type (schema.org types by their short name), the first when it has several.
    #[serde(rename = "type")]
    pub type_: String,
    /// All its types.
    pub types: Vec<String>,
    /// Where it was read from.
    pub source: Source,
    /// The line of the page where it starts (for JSON-LD, its `<script>` element).
    pub line: u32,
    /// Rich results its type can earn that it is eligible for (no error).
    pub eligible: Vec<String>,
    /// Rich results its type can earn that an error keeps it from.
    pub not_eligible: Vec<String>,
    /// Problems that cost eligibility.
    pub errors: Vec<Problem>,
    /// Problems that leave it eligible, with less.
    pub warnings: Vec<Problem>,
    /// For a type whose rich result Google retired: the markup can be valid, but it earns no
    /// rich result (with the date it stopped).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notice: Option<String>,
}

/// A JSON-LD block that is not valid JSON.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct InvalidBlock {
    /// The line of the page the parse error points at.
    pub line: u32,
    /// The parser's message.
    pub message: String,
}

/// The `structured_data` section of the audit result: every item of the page with its
/// eligibility, and the JSON-LD blocks that could not be read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct StructuredData {
    /// Top-level items (and items that are a page's main entity), in document order by source:
    /// every one, or those within the result's bound (`audit_core::bound::MAX_LISTED_ITEM_BYTES`).
    pub items: Vec<Item>,
    /// How many items were read and checked, present only when `items` lists fewer (the
    /// result, which is stored, stays bounded however large the items are).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub items_total: Option<usize>,
    /// JSON-LD blocks that are not valid JSON: every one, or the first
    /// `audit_core::bound::MAX_LISTED_INVALID_BLOCKS`.
    pub invalid_blocks: Vec<InvalidBlock>,
    /// How many JSON-LD blocks are not valid JSON, present only when `invalid_blocks` lists
    /// fewer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invalid_blocks_total: Option<usize>,
    /// Nodes, items and property values not read or not checked because the page reached
    /// [`MAX_ITEMS`], [`MAX_NODES`], [`MAX_PROPERTIES`], [`MAX_VALUES`] or [`MAX_VISITS`], or
    /// the analysis budget ran out.
    pub nodes_not_read: usize,
    /// JSON-LD blocks not parsed because they did not fit in the page's [`MAX_JSON_LD_BYTES`]
    /// (they are neither items nor invalid blocks).
    pub blocks_not_read: usize,
    /// Problems of checked items past the page's [`MAX_PROBLEMS`], not listed.
    pub problems_not_listed: usize,
    /// Whether the analysis budget ran out while reading or checking (the page's
    /// `analysis.stopped` says `budget` then too).
    pub stopped: bool,
}

impl StructuredData {
    /// Errors of all items.
    pub fn errors(&self) -> impl Iterator<Item = (&Item, &Problem)> {
        self.items.iter().flat_map(|i| i.errors.iter().map(move |p| (i, p)))
    }

    /// Warnings of all items.
    pub fn warnings(&self) -> impl Iterator<Item = (&Item, &Problem)> {
        self.items.iter().flat_map(|i| i.warnings.iter().map(move |p| (i, p)))
    }
}

/// Reads a page's JSON-LD blocks and markup elements into one graph and checks every item.
pub fn read(json_ld: &[JsonLd], markup: &[MarkupElement], budget: &dyn Budget) -> StructuredData {
    let mut graph = graph::Graph::read(json_ld, markup, budget);
    let mut items = Vec::new();
    let (mut listed, mut problems_not_listed) = (0, 0);
    for (k, n) in graph.items().into_iter().enumerate() {
        // Checking costs more than reading: ask the budget as often.
        if graph.stopped || (k % 64 == 63 && budget.exhausted()) {
            graph.stopped = true;
            graph.not_read += 1;
            continue;
        }
        if k >= MAX_ITEMS {
            graph.not_read += 1;
            continue;
        }
        let mut item = check::check_item(&graph, n);
        // Eligibility is decided on every problem; only the list is cut.
        for list in [&mut item.errors, &mut item.warnings] {
            let keep = list.len().min(MAX_PROBLEMS - listed);
            problems_not_listed += list.len() - keep;
            list.truncate(keep);
            listed += keep;
        }
        items.push(item);
    }
    let invalid_blocks = json_ld
        .iter()
        .filter_map(|b| {
            b.error.as_ref().map(|e| InvalidBlock { line: b.error_line.unwrap_or(b.line), message: e.clone() })
        })
        .collect();
    StructuredData {
        items,
        items_total: None,
        invalid_blocks,
        invalid_blocks_total: None,
        nodes_not_read: graph.not_read,
        blocks_not_read: json_ld.iter().filter(|b| b.not_read).count(),
        problems_not_listed,
        stopped: graph.stopped,
    }
}
