//! The rule trait and the vocabulary of findings.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::fix::{FixCtx, FixTemplate};
use crate::locate::{Location, Spot};
use crate::page::Page;

/// A name that names no variant: the error of the [`FromStr`] implementations of
/// [`Category`], [`Group`], [`Severity`], [`Level`] and [`CheckStatus`](crate::CheckStatus).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} `{name}`")]
#[non_exhaustive]
pub struct UnknownName {
    /// What was parsed (`category`, `group`, `severity`, `level`).
    pub what: &'static str,
    /// The text that matched no name.
    pub name: String,
}

/// `as_str`, [`Display`](fmt::Display) and [`FromStr`] from one table of wire names, so the
/// three agree with each other and with the serde names. With `schema`, also the JSON Schema
/// of the wire type (feature `schema`): a string enum of the names with that description,
/// written by hand so the variants' documentation stays out of the API's schemas.
macro_rules! wire_names {
    ($ty:ident, $what:literal, schema: $description:literal, { $($variant:ident => $name:literal,)+ }) => {
        wire_names!($ty, $what, { $($variant => $name,)+ });

        #[cfg(feature = "schema")]
        impl schemars::JsonSchema for $ty {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                stringify!($ty).into()
            }

            fn schema_id() -> std::borrow::Cow<'static, str> {
                concat!(module_path!(), "::", stringify!($ty)).into()
            }

            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                schemars::json_schema!({ "type": "string", "enum": [$($name),+], "description": $description })
            }
        }
    };
    ($ty:ident, $what:literal, { $($variant:ident => $name:literal,)+ }) => {
        impl $ty {
            /// The name used on the wire (also what [`Display`](std::fmt::Display) writes and
            /// [`FromStr`](std::str::FromStr) reads).
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($ty::$variant => $name,)+
                }
            }
        }

        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl FromStr for $ty {
            type Err = UnknownName;

            fn from_str(name: &str) -> Result<Self, Self::Err> {
                match name {
                    $($name => Ok($ty::$variant),)+
                    _ => Err(UnknownName { what: $what, name: name.to_string() }),
                }
            }
        }
    };
}

pub(crate) use wire_names;

/// Category of a rule, as shown in recommendations (docs/API.md, "The audit result").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum Category {
    /// Crawling and indexing: status, redirects, HTTPS, robots, canonicals, URLs (`SEO Technical`).
    #[serde(rename = "SEO Technical")]
    Technical,
    /// Title, description, headings and text (`Content`).
    #[serde(rename = "Content")]
    Content,
    /// Image alternative text and dimensions (`Images`).
    #[serde(rename = "Images")]
    Images,
    /// Link text, crawlable links and link counts (`Links`).
    #[serde(rename = "Links")]
    Links,
    /// Open Graph and Twitter cards (`Social`).
    #[serde(rename = "Social")]
    Social,
    /// JSON-LD and microdata (`Structured Data`).
    #[serde(rename = "Structured Data")]
    StructuredData,
    /// Page weight, response time, render-blocking scripts, DOM size (`Performance`).
    #[serde(rename = "Performance")]
    Performance,
    /// The viewport (`Mobile`).
    #[serde(rename = "Mobile")]
    Mobile,
    /// `lang` and hreflang (`Internationalization`).
    #[serde(rename = "Internationalization")]
    Internationalization,
}

wire_names!(Category, "category", schema: "Category of a rule, as shown in recommendations (docs/API.md, \"The audit result\").", {
    Technical => "SEO Technical",
    Content => "Content",
    Images => "Images",
    Links => "Links",
    Social => "Social",
    StructuredData => "Structured Data",
    Performance => "Performance",
    Mobile => "Mobile",
    Internationalization => "Internationalization",
});

/// The three groups of `get_audit_methodology`; every category belongs to one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Group {
    /// Technical, links, structured data and internationalisation.
    Technical,
    /// Content, images and social.
    Content,
    /// Performance and mobile.
    Performance,
}

wire_names!(Group, "group", {
    Technical => "technical",
    Content => "content",
    Performance => "performance",
});

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

/// How serious a failed rule is; the recommendation `type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Severity {
    /// Keeps the page out of search results or breaks it (`critical`).
    Critical,
    /// Costs ranking or click-through (`warning`).
    Warning,
    /// Worth fixing when convenient (`notice`).
    Notice,
}

wire_names!(Severity, "severity", schema: "How serious a failed rule is; the recommendation `type`.", {
    Critical => "critical",
    Warning => "warning",
    Notice => "notice",
});

impl Severity {
    /// Every severity, worst first.
    pub const ALL: [Severity; 3] = [Severity::Critical, Severity::Warning, Severity::Notice];
}

/// Expected effect of fixing, or expected work to fix (`impact` and `effort`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Level {
    /// `high`.
    High,
    /// `medium`.
    Medium,
    /// `low`.
    Low,
}

wire_names!(Level, "level", schema: "Expected effect of fixing, or expected work to fix (`impact` and `effort`).", {
    High => "high",
    Medium => "medium",
    Low => "low",
});

impl Level {
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
///
/// A rule describes itself with a `static` of this type (see [`audit_with`](crate::audit_with)),
/// so it is not `#[non_exhaustive]`: a field added here is a breaking change, made in a major
/// version only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleMeta {
    /// Stable kebab-case id, never reused.
    pub id: &'static str,
    /// Short human name of the check, phrased as what passing means.
    pub name: &'static str,
    /// The category the rule is reported under.
    pub category: Category,
    /// How serious a failure is (the recommendation `type`).
    pub severity: Severity,
    /// Expected effect of fixing.
    pub impact: Level,
    /// Expected work to fix.
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
    /// How issue titles of other tools name the problem: an issue whose title holds every
    /// word of one phrase (words folded: stemmed, synonyms joined) gets this rule's fix
    /// (the `autofix` crate's matching). A one-word phrase must be a distinctive word.
    pub phrases: &'static [&'static str],
    /// Words that, in such a title, mean another problem (`og` for the title rules).
    pub excluded: &'static [&'static str],
    /// Slugs of the glossary entries (`svc://seo-concepts`) that explain the rule, in the
    /// glossary's order: the first is the rule's concept.
    pub glossary: &'static [&'static str],
}

/// A failed check: what was found and what would be right. Built with [`Finding::new`],
/// [`Finding::current`] and [`Finding::suggested`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Finding {
    /// One line naming the problem on this page.
    pub title: String,
    /// What is wrong and how to fix it.
    pub description: String,
    /// What the page has now, when there is a value to show.
    pub current_value: Option<String>,
    /// What the page should have, when the engine can say.
    pub suggested_value: Option<String>,
    /// The elements the finding is about, in document order: the first
    /// [`MAX_LOCATIONS`](crate::locate::MAX_LOCATIONS) of them.
    pub locations: Vec<Location>,
    /// How many elements the finding is about (`locations` lists at most 50 of them).
    pub locations_total: u32,
}

impl Finding {
    /// A finding with a title and description and no values.
    pub fn new(title: impl Into<String>, description: impl Into<String>) -> Finding {
        Finding {
            title: title.into(),
            description: description.into(),
            current_value: None,
            suggested_value: None,
            locations: Vec::new(),
            locations_total: 0,
        }
    }

    /// Points the finding at elements of the page, in document order: each spot that
    /// points at an element counts, and the first
    /// [`MAX_LOCATIONS`](crate::locate::MAX_LOCATIONS) are listed.
    pub fn at(mut self, page: &Page, spots: impl IntoIterator<Item = Spot>) -> Finding {
        for spot in spots.into_iter().filter(|s| s.is_some()) {
            self.locations_total = self.locations_total.saturating_add(1);
            if self.locations.len() < crate::locate::MAX_LOCATIONS {
                if let Some(location) = page.locate(spot) {
                    self.locations.push(location);
                }
            }
        }
        self
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
#[non_exhaustive]
pub enum Outcome {
    /// The page passes the check.
    Pass,
    /// The page fails it: what was found.
    Fail(Finding),
    /// The rule does not apply (hreflang on a monolingual page): left out of the score.
    NotApplicable,
}

/// One check. The built-in ones are unit structs, one per file (its check, its text in
/// [`RuleMeta`] and its fix), listed in [`crate::RULES`]; a rule of your own implements this
/// trait and runs beside them with [`audit_with`](crate::audit_with).
pub trait Rule: Sync {
    /// The static description of the rule.
    fn meta(&self) -> &'static RuleMeta;
    /// Runs the check on page facts.
    fn check(&self, page: &Page) -> Outcome;
    /// The code that repairs what the check finds, filled in from the page and what the
    /// caller knows ([`FixCtx`]); `None` when the rule offers none.
    fn fix(&self, ctx: &FixCtx) -> Option<FixTemplate> {
        let _ = ctx;
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_display_and_parse_back() {
        for c in Category::ALL {
            assert_eq!(c.to_string().parse::<Category>(), Ok(c));
            assert_eq!(serde_json::to_value(c).unwrap(), c.as_str());
            assert_eq!(c.group().to_string().parse::<Group>(), Ok(c.group()));
        }
        for s in Severity::ALL {
            assert_eq!(s.to_string().parse::<Severity>(), Ok(s));
            assert_eq!(serde_json::to_value(s).unwrap(), s.as_str());
        }
        for l in [Level::High, Level::Medium, Level::Low] {
            assert_eq!(l.to_string().parse::<Level>(), Ok(l));
            assert_eq!(serde_json::to_value(l).unwrap(), l.as_str());
        }
        assert_eq!(Category::StructuredData.to_string(), "Structured Data");
        assert_eq!(Group::Performance.to_string(), "performance");
        let e = "Critical".parse::<Severity>().unwrap_err();
        assert_eq!(e.to_string(), "unknown severity `Critical`");
        assert!("seo technical".parse::<Category>().is_err());
    }
}
