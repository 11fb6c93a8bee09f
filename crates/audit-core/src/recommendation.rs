//! The recommendation (a failed check, as the audit result and the rendering comparison both
//! report it) and the link counts of a page summary: wire shapes of their own module, below
//! both the audit (audit.rs) and the rendering comparison (rendering.rs), which use them.

use serde::{Deserialize, Serialize};

use crate::rule::{Category, Level, Severity};

/// One recommendation (a failed check).
///
/// Reading one back fills absent fields with the values of [`Recommendation::default`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct Recommendation {
    /// The rule's id.
    pub id: String,
    /// The rule's severity, serialised as `type`.
    #[serde(rename = "type")]
    pub kind: Severity,
    /// The rule's category.
    pub category: Category,
    /// What was found (the finding's title).
    pub title: String,
    /// What is wrong and how to fix it.
    pub description: String,
    /// Expected effect of fixing.
    pub impact: Level,
    /// Expected work to fix.
    pub effort: Level,
    /// 0..100: how sure the rule is that this is a real problem.
    #[cfg_attr(feature = "schema", schemars(range(max = 100)))]
    pub confidence: u8,
    /// What the page has now, when there is a value to show.
    pub current_value: Option<String>,
    /// What the page should have, when the engine can say.
    pub suggested_value: Option<String>,
    /// The elements the finding is about, in document order, at most 50: line and column of
    /// each start tag in the HTML as served, a selector that matches exactly it, and a snippet
    /// of the tag. Absent when the finding is about the page as a whole.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "schema", schemars(length(max = 50)))]
    pub locations: Vec<crate::locate::Location>,
    /// How many elements the finding is about (`locations` lists the first 50). Absent when
    /// it points at none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub locations_total: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// An empty recommendation: no id or text, a `notice` of category `SEO Technical` with low
/// impact and effort. What a partial stored recommendation is filled from.
impl Default for Recommendation {
    fn default() -> Recommendation {
        Recommendation {
            id: String::new(),
            kind: Severity::Notice,
            category: Category::Technical,
            title: String::new(),
            description: String::new(),
            impact: Level::Low,
            effort: Level::Low,
            confidence: 0,
            current_value: None,
            suggested_value: None,
            locations: Vec::new(),
            locations_total: 0,
        }
    }
}

/// `page.links` of the audit result: `<a>` elements counted as links.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct LinkCounts {
    /// Links to the page's own host.
    pub internal: usize,
    /// Links elsewhere.
    pub external: usize,
}
