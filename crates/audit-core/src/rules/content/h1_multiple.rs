use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct H1Multiple;

static META: RuleMeta = RuleMeta {
    id: "h1-multiple",
    name: "Page has one h1 heading",
    category: Category::Content,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Low,
    confidence: 60,
    weight: 1,
    threshold: "more than one <h1>",
    why: "One main heading gives the page a clear topic; several dilute it.",
    fail_example: "two <h1>",
    pass_example: "one <h1> and <h2> sub-headings",
    reference: "https://www.seonaut.org/",
    phrases: &["multiple h1", "more h1", "duplicate h1 tag"],
    excluded: &[],
    glossary: &["h1-heading"],
};

impl Rule for H1Multiple {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.h1s.len() <= 1 {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "Several H1 headings",
                format!("The page has {} <h1> headings; keep one and demote the rest to <h2>.", page.h1s.len()),
            )
            .current(page.h1s.join(" | "))
            .suggested("1")
            .at(page, page.headings.iter().filter(|h| h.level == 1).map(|h| h.spot)),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        // The page's h1s, else the current value (the check joins them with " | ").
        let h1s: Vec<String> = c.page.map(|p| p.h1s.clone()).unwrap_or_else(|| {
            c.current.as_deref().map(|v| v.split(" | ").map(str::to_string).collect()).unwrap_or_default()
        });
        let code = match h1s.split_first() {
            Some((first, rest)) if !rest.is_empty() => {
                let mut lines = vec![format!("<h1>{}</h1>", attr(first))];
                lines.extend(rest.iter().map(|h| format!("<h2>{}</h2>", attr(h))));
                lines.join("\n")
            }
            _ => format!(
                "<h1>{}</h1>\n<h2>TODO: the text of the other h1</h2>",
                attr(&c.topic_or_todo("the text of the h1 that names the topic"))
            ),
        };
        FixTemplate::some(
            FixKind::Html,
            Difficulty::Easy,
            code,
            "Keep one h1 for the topic of the page and turn the other h1 headings into h2.",
        )
    }
}
