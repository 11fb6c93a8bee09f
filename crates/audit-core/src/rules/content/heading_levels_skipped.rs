use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct HeadingLevelsSkipped;

static META: RuleMeta = RuleMeta {
    id: "heading-levels-skipped",
    name: "Heading levels do not skip",
    category: Category::Content,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Low,
    confidence: 70,
    weight: 1,
    threshold: "a heading more than one level below the previous",
    why: "A logical outline helps assistive technology and machines understand the structure of the content.",
    fail_example: "<h1>..</h1><h3>..</h3>",
    pass_example: "<h1>..</h1><h2>..</h2>",
    reference: "https://www.w3.org/WAI/tutorials/page-structure/headings/",
    phrases: &["heading skip", "heading level", "heading hierarchy", "heading structure", "heading order"],
    excluded: &[],
    glossary: &["heading-structure", "semantic-html"],
};

impl Rule for HeadingLevelsSkipped {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.headings.len() < 2 {
            return Outcome::NotApplicable;
        }
        let skip = page.headings.windows(2).find(|w| w[1].level > w[0].level + 1);
        let Some(w) = skip else { return Outcome::Pass };
        Outcome::Fail(
            Finding::new(
                "Heading levels skipped",
                format!("An <h{}> follows an <h{}>; do not skip heading levels.", w[1].level, w[0].level),
            )
            .current(format!("h{} -> h{}", w[0].level, w[1].level))
            .suggested(format!("h{} -> h{}", w[0].level, w[0].level + 1))
            .at(page, page.headings.windows(2).filter(|w| w[1].level > w[0].level + 1).map(|w| w[1].spot)),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        let headings: Vec<(u8, String)> =
            c.page.map(|p| p.headings.iter().map(|h| (h.level, h.text.clone())).collect()).unwrap_or_default();
        let skip = c.current.as_deref().filter(|v| v.len() <= 12 && v.starts_with('h') && v.contains("->"));
        let found = skip.map_or(String::new(), |s| format!(" The page goes {} now.", s.replace("->", "to")));
        let (code, why) = if headings.is_empty() {
            (
                "<h1>TODO: the page's h1</h1>\n<h2>TODO: a section heading</h2>\n<h3>TODO: a subsection heading</h3>".to_string(),
                "An outline whose levels go down one step at a time (the page's headings were not given: re-level them like this); restyle with CSS instead of choosing a level for its look.",
            )
        } else {
            (
                relevel(&headings).iter().take(30).map(|(l, text)| format!("<h{l}>{}</h{l}>", attr(text))).collect::<Vec<_>>().join("\n"),
                "The headings of the page with levels that go down one step at a time; restyle with CSS instead of choosing a level for its look.",
            )
        };
        FixTemplate::some(FixKind::Html, Difficulty::Medium, code, format!("{why}{found}"))
    }
}

/// Headings re-levelled so no level is skipped going down: each heading sits one level
/// below the nearest earlier heading of a higher original level.
fn relevel(headings: &[(u8, String)]) -> Vec<(u8, String)> {
    let mut stack: Vec<(u8, u8)> = Vec::new();
    let mut out = Vec::with_capacity(headings.len());
    for (level, text) in headings {
        while stack.last().is_some_and(|(orig, _)| orig >= level) {
            stack.pop();
        }
        let new = stack.last().map_or((*level).min(2), |(_, n)| n + 1);
        stack.push((*level, new));
        out.push((new, text.clone()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relevelling_removes_skips() {
        let got = relevel(&[(1, "a".into()), (3, "b".into()), (4, "c".into()), (2, "d".into()), (4, "e".into())]);
        let levels: Vec<u8> = got.iter().map(|(l, _)| *l).collect();
        assert_eq!(levels, vec![1, 2, 3, 2, 3]);
    }
}
