use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct ThinContent;

impl ThinContent {
    /// The rule's id as a constant: the glossary has a concept of the same name
    /// (crates/app/src/glossary.rs), which takes its slug from here so that the id is
    /// written once, in this file.
    pub const ID: &'static str = META.id;
}

static META: RuleMeta = RuleMeta {
    id: "thin-content",
    name: "Page has substantial text",
    category: Category::Content,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::High,
    confidence: 70,
    weight: 1,
    threshold: "< 300 visible words",
    why: "Pages with little text rarely answer a query well enough to rank.",
    fail_example: "a page with 120 words",
    pass_example: "a page with 800 words",
    reference: "https://github.com/sethblack/python-seo-analyzer",
    phrases: &["thin content", "low word count", "word count", "little text", "not enough content", "thin page"],
    excluded: &[],
    glossary: &["thin-content"],
};

impl Rule for ThinContent {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.word_count >= util::THIN_CONTENT_WORDS {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "Thin content",
                format!(
                    "The page has {} visible words; pages that rank usually have at least {}.",
                    page.word_count,
                    util::THIN_CONTENT_WORDS
                ),
            )
            .current(page.word_count.to_string())
            .suggested(format!(">= {}", util::THIN_CONTENT_WORDS)),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        let words = c.page.map(|p| p.word_count as u64).or_else(|| c.current_number());
        let now = words.map_or(String::new(), |n| format!(" (now {n})"));
        FixTemplate::some(
            FixKind::Text,
            Difficulty::Hard,
            format!("Expand {} to at least 300 words of its own text{now}: answer the questions a visitor brings, add an overview, details, examples and a short FAQ. The content-gap analysis lists the sections similar pages cover.", c.known_topic().map_or_else(|| "the page".to_string(), |t| format!("\"{t}\""))),
            "Pages with little text rarely rank; write for the reader, not for a word count.",
        )
    }
}
