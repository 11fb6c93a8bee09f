//! The rule trait and the vocabulary of findings.

use serde::Serialize;

use crate::page::Page;

/// Category of a rule, as shown in recommendations (docs/API.md, "The audit result").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Category {
    #[serde(rename = "SEO Technical")]
    Technical,
    #[serde(rename = "Content")]
    Content,
    #[serde(rename = "Images")]
    Images,
    #[serde(rename = "Links")]
    Links,
    #[serde(rename = "Social")]
    Social,
    #[serde(rename = "Structured Data")]
    StructuredData,
    #[serde(rename = "Performance")]
    Performance,
    #[serde(rename = "Mobile")]
    Mobile,
    #[serde(rename = "Internationalization")]
    Internationalization,
}

/// The three groups of `get_audit_methodology`; every category belongs to one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Group {
    Technical,
    Content,
    Performance,
}

impl Category {
    /// Every category, in display order.
    pub const ALL: [Category; 9] = [
        Category::Technical,
        Category::Content,
        Category::Images,
        Category::Links,
        Category::Social,
        Category::StructuredData,
        Category::Performance,
        Category::Mobile,
        Category::Internationalization,
    ];

    /// The display name used on the wire.
    pub fn name(self) -> &'static str {
        match self {
            Category::Technical => "SEO Technical",
            Category::Content => "Content",
            Category::Images => "Images",
            Category::Links => "Links",
            Category::Social => "Social",
            Category::StructuredData => "Structured Data",
            Category::Performance => "Performance",
            Category::Mobile => "Mobile",
            Category::Internationalization => "Internationalization",
        }
    }

    /// The methodology group the category belongs to.
    pub fn group(self) -> Group {
        match self {
            Category::Technical | Category::Links | Category::StructuredData | Category::Internationalization => {
                Group::Technical
            }
            Category::Content | Category::Images | Category::Social => Group::Content,
            Category::Performance | Category::Mobile => Group::Performance,
        }
    }
}

impl Group {
    /// The name used by `get_audit_methodology`'s `category` argument.
    pub fn name(self) -> &'static str {
        match self {
            Group::Technical => "technical",
            Group::Content => "content",
            Group::Performance => "performance",
        }
    }

    /// Parses a group name.
    pub fn from_name(name: &str) -> Option<Group> {
        match name {
            "technical" => Some(Group::Technical),
            "content" => Some(Group::Content),
            "performance" => Some(Group::Performance),
            _ => None,
        }
    }
}

/// How serious a failed rule is; the recommendation `type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Critical,
    Warning,
    Notice,
}

impl Severity {
    pub fn name(self) -> &'static str {
        match self {
            Severity::Critical => "critical",
            Severity::Warning => "warning",
            Severity::Notice => "notice",
        }
    }
}

/// Expected effect of fixing, or expected work to fix (`impact` and `effort`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Level {
    High,
    Medium,
    Low,
}

impl Level {
    pub fn name(self) -> &'static str {
        match self {
            Level::High => "high",
            Level::Medium => "medium",
            Level::Low => "low",
        }
    }

    /// 3 for high, 2 for medium, 1 for low: used to rank opportunities.
    pub fn points(self) -> u32 {
        match self {
            Level::High => 3,
            Level::Medium => 2,
            Level::Low => 1,
        }
    }
}

/// The static description of a rule: what the rule table lists and the fingerprint covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleMeta {
    /// Stable kebab-case id, never reused.
    pub id: &'static str,
    /// Short human name of the check, phrased as what passing means.
    pub name: &'static str,
    pub category: Category,
    pub severity: Severity,
    pub impact: Level,
    pub effort: Level,
    /// 0..100: how sure a failure is a real problem.
    pub confidence: u8,
    /// Points out of 100 for the whole table.
    pub weight: u32,
    /// The threshold the rule compares with, as text (`"> 60 characters"`), or `""`.
    pub threshold: &'static str,
    /// Why it matters, one or two sentences.
    pub why: &'static str,
    /// Markup or a situation that fails the rule.
    pub fail_example: &'static str,
    /// Markup or a situation that passes it.
    pub pass_example: &'static str,
    /// Where the practice is documented.
    pub reference: &'static str,
}

/// A failed check: what was found and what would be right.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub title: String,
    pub description: String,
    pub current_value: Option<String>,
    pub suggested_value: Option<String>,
}

impl Finding {
    /// A finding with a title and description and no values.
    pub fn new(title: impl Into<String>, description: impl Into<String>) -> Finding {
        Finding { title: title.into(), description: description.into(), current_value: None, suggested_value: None }
    }

    /// Sets what the page has now.
    pub fn current(mut self, value: impl Into<String>) -> Finding {
        self.current_value = Some(value.into());
        self
    }

    /// Sets what the page should have.
    pub fn suggested(mut self, value: impl Into<String>) -> Finding {
        self.suggested_value = Some(value.into());
        self
    }
}

/// The outcome of one rule on one page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Pass,
    Fail(Finding),
    /// The rule does not apply (hreflang on a monolingual page): left out of the score.
    NotApplicable,
}

/// One check. Implementations are unit structs, one per file, listed in [`crate::RULES`].
pub trait Rule: Sync {
    /// The static description of the rule.
    fn meta(&self) -> &'static RuleMeta;
    /// Runs the check on page facts.
    fn check(&self, page: &Page) -> Outcome;
}
