use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct MixedContent;

impl MixedContent {
    /// The rule's id as a constant: the glossary has a concept of the same name
    /// (crates/app/src/glossary.rs), which takes its slug from here so that the id is
    /// written once, in this file.
    pub const ID: &'static str = META.id;
}

static META: RuleMeta = RuleMeta {
    id: "mixed-content",
    name: "HTTPS page loads no subresource over HTTP",
    category: Category::Technical,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 95,
    weight: 1,
    threshold: "any http: subresource",
    why: "Browsers block or flag insecure subresources on secure pages, breaking images, scripts and styles.",
    fail_example: "<img src=\"http://cdn.example.com/a.png\"> on an https page",
    pass_example: "every subresource over https",
    reference: "https://developer.mozilla.org/en-US/docs/Web/Security/Mixed_content",
    phrases: &["mixed content", "insecure resource", "insecure content", "subresource http", "http resource https"],
    excluded: &[],
    glossary: &["mixed-content"],
};

impl Rule for MixedContent {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.parsed_url().is_none_or(|u| u.scheme() != "https") {
            return Outcome::NotApplicable;
        }
        let Some(first) = page.mixed_content.first() else { return Outcome::Pass };
        Outcome::Fail(
            Finding::new(
                "Mixed content",
                format!("{} subresource(s) load over plain HTTP on this HTTPS page.", page.mixed_content.len()),
            )
            .current(first.clone())
            .suggested(first.replacen("http://", "https://", 1))
            .at(page, page.spots.mixed_content.iter().copied()),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        let mut list: Vec<String> =
            c.page.map(|p| p.mixed_content.iter().take(10).cloned().collect()).unwrap_or_default();
        if list.is_empty() {
            list.extend(c.current_token().filter(|v| v.starts_with("http://")).map(str::to_string));
        }
        let which =
            if list.is_empty() { String::new() } else { format!(" Change these to https: {}.", list.join(", ")) };
        FixTemplate::some(
            FixKind::Html,
            Difficulty::Easy,
            "<meta http-equiv=\"Content-Security-Policy\" content=\"upgrade-insecure-requests\">",
            format!("Load every script, style sheet and image over HTTPS; this tag in <head> makes browsers upgrade the rest.{which}"),
        )
    }
}
