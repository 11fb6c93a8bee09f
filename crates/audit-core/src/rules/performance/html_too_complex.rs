use crate::parse::Stop;
use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct HtmlTooComplex;

static META: RuleMeta = RuleMeta {
    id: "html-too-complex",
    name: "HTML is analysed in full, within the parser's limits",
    category: Category::Performance,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::Medium,
    confidence: 90,
    weight: 1,
    threshold: "nesting > 512 levels, or analysis budget / 500,000 nodes exceeded",
    why: "Markup this deep or this costly is almost always unclosed tags or generated output gone wrong; browsers and crawlers flatten or cut it, so what they index is not the structure the markup describes.",
    fail_example: "600 nested <div> elements, or a 5 MiB page of unclosed tags",
    pass_example: "a page whose elements close and nest a few dozen levels deep",
    reference: "https://web.dev/articles/dom-size-and-interactivity",
    phrases: &["nested deeper", "nesting limit", "deeply nested", "analysis stopped", "too complex", "unclosed element"],
    excluded: &[],
    glossary: &["dom-size"],
};

impl Rule for HtmlTooComplex {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let analysis = &page.analysis;
        if let Some(stop) = analysis.stopped {
            let kb = |b: usize| b.div_ceil(1024);
            let why = match stop {
                Stop::Budget => "took more than the analysis budget to parse",
                Stop::Nodes => "built more than 500,000 nodes",
                // The parse ended but reading its elements did not: the bytes parsed are not
                // the part audited, so the finding must not say the whole page was covered.
                Stop::AfterParse => {
                    return Outcome::Fail(
                        Finding::new(
                            "Analysis stopped before the end of the page",
                            format!(
                                "The page's {} KB of HTML were parsed, but reading its elements took more than the \
                                 analysis budget, so this audit covers only the elements before the point where it \
                                 stopped. Look for generated markup with very many elements or attributes; crawlers \
                                 give up on such pages too.",
                                kb(analysis.parsed_bytes)
                            ),
                        )
                        .current("elements read in part: the analysis budget ran out after parsing")
                        .suggested("the whole page analysed"),
                    );
                }
            };
            return Outcome::Fail(
                Finding::new(
                    "Analysis stopped before the end of the page",
                    format!(
                        "The HTML {why}, so this audit covers the first {} KB of {} KB. Look for unclosed or deeply \
                         nested elements and generated markup; crawlers give up on such pages too.",
                        kb(analysis.parsed_bytes),
                        kb(analysis.total_bytes)
                    ),
                )
                .current(format!("{} of {} bytes analysed", analysis.parsed_bytes, analysis.total_bytes))
                .suggested("the whole page analysed"),
            );
        }
        if analysis.flattened_elements > 0 {
            return Outcome::Fail(
                Finding::new(
                    "Elements nested deeper than 512 levels",
                    format!(
                        "{} elements sit deeper than browsers nest: past 512 open elements they are attached beside \
                         each other, so the structure crawlers see is not what the markup says. This is usually a \
                         tag that is opened in a loop and never closed.",
                        analysis.flattened_elements
                    ),
                )
                .current(format!("{} elements past the nesting limit", analysis.flattened_elements))
                .suggested("every element closed; nesting well under 512 levels"),
            );
        }
        Outcome::Pass
    }

    fn fix(&self, _: &FixCtx) -> Option<FixTemplate> {
        FixTemplate::some(
            FixKind::Text,
            Difficulty::Hard,
            "Close every element you open: find the template or loop that opens a <div>, <span> or <font> without its end tag (the HTML validator at validator.w3.org names the line), keep nesting to a few dozen levels, and split very large generated markup into pages.",
            "Past 512 levels browsers stop nesting elements, and parsers give up on documents this costly, so crawlers index a different structure than the markup describes.",
        )
    }
}
