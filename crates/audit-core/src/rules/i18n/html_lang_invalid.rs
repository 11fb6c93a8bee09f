use crate::fix::fix_lang_tag;
use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct HtmlLangInvalid;

static META: RuleMeta = RuleMeta {
    id: "html-lang-invalid",
    name: "html lang is a valid BCP 47 tag",
    category: Category::Internationalization,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 90,
    weight: 1,
    threshold: "lang is not a well-formed BCP 47 tag",
    why: "An invalid language tag is ignored, as if there were none.",
    fail_example: "<html lang=\"english\">",
    pass_example: "<html lang=\"en-GB\">",
    reference: "https://developer.chrome.com/docs/lighthouse/accessibility/html-lang-valid",
    phrases: &["invalid lang", "invalid language", "wrong lang", "wrong language"],
    excluded: &["hreflang"],
    glossary: &["html-lang"],
};

impl Rule for HtmlLangInvalid {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let Some(lang) = page.lang.as_deref().map(str::trim).filter(|l| !l.is_empty()) else {
            return Outcome::NotApplicable;
        };
        if util::is_valid_bcp47(lang) {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new("Invalid language tag", format!("\"{lang}\" is not a valid BCP 47 language tag."))
                .current(lang)
                .suggested("en, en-GB, de-AT, ...")
                .at(page, [page.spots.html]),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        // The page's tag repaired (`en_us` to `en-US`) when that makes it valid, else inferred.
        let given = c.page.and_then(|p| p.lang.as_deref()).or(c.current.as_deref());
        let lang = match given {
            Some(l) => {
                let f = fix_lang_tag(l);
                if util::is_valid_bcp47(&f) {
                    f
                } else {
                    c.lang()
                }
            }
            None => c.lang(),
        };
        super::lang_fix(lang)
    }
}
