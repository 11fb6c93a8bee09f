use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct MetaDescriptionTooShort;

static META: RuleMeta = RuleMeta {
    id: "meta-description-too-short",
    name: "Meta description is at least 70 characters",
    category: Category::Content,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Low,
    confidence: 70,
    weight: 1,
    threshold: "< 70 characters",
    why: "A short description leaves most of the snippet to chance.",
    fail_example: "<meta name=\"description\" content=\"Shoes.\">",
    pass_example: "a 140-character description",
    reference: "https://moz.com/learn/seo/meta-description",
    phrases: &["description short"],
    excluded: &["og", "graph", "twitter"],
    glossary: &["meta-description"],
};

impl Rule for MetaDescriptionTooShort {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let Some(d) = page.meta_description().map(str::trim).filter(|d| !d.is_empty()) else {
            return Outcome::NotApplicable;
        };
        let len = d.chars().count();
        if len >= util::DESCRIPTION_MIN_CHARS {
            return Outcome::Pass;
        }
        let mut f = Finding::new(
            "Meta description is too short",
            format!(
                "The meta description has {len} characters; aim for {}-{}.",
                util::DESCRIPTION_MIN_CHARS,
                util::DESCRIPTION_MAX_CHARS
            ),
        )
        .current(d);
        if let Some(s) = util::suggest_description(page) {
            f = f.suggested(s);
        }
        Outcome::Fail(f.at(page, page.spots.meta_descriptions.first().copied()))
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        super::description_fix(c, super::Problem::TooShort)
    }
}
