//! Bar charts drawn on the server as inline SVG (the crawl report's status codes, click
//! depths, findings and scores): readable with no script, and each bar carries its label and
//! number as text and as `data-label`/`data-value`, so a reader, a screen reader and a test
//! read the same figures. Plain data in, markup out.

use maud::{html, Markup};

/// Width of the drawing, in SVG units.
const WIDTH: u32 = 420;
/// Width kept for the labels left of the bars.
const LABEL_WIDTH: u32 = 120;
/// Width kept for the numbers right of the bars.
const VALUE_WIDTH: u32 = 50;
/// Height of one bar and the gap below it.
const BAR_HEIGHT: u32 = 18;
const BAR_GAP: u32 = 6;

/// One bar: its label, its number, and the CSS class that colours it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bar {
    /// What the bar counts ("200", "depth 2", "critical").
    pub label: String,
    /// The count.
    pub value: u64,
    /// `bar-good`, `bar-fair`, `bar-poor` or `bar-plain`.
    pub class: &'static str,
}

impl Bar {
    /// A bar of the plain colour.
    pub fn plain(label: impl Into<String>, value: u64) -> Bar {
        Bar { label: label.into(), value, class: "bar-plain" }
    }
}

/// A horizontal bar chart titled `title` (its accessible name too), `id` naming it in the
/// page (`data-chart`); bars scaled to the largest. No bars: a sentence saying so.
pub fn bar_chart(id: &str, title: &str, bars: &[Bar]) -> Markup {
    let max = bars.iter().map(|b| b.value).max().unwrap_or(0).max(1);
    let span = WIDTH - LABEL_WIDTH - VALUE_WIDTH;
    let count = u32::try_from(bars.len()).unwrap_or(u32::MAX);
    let height = count.saturating_mul(BAR_HEIGHT + BAR_GAP).max(BAR_HEIGHT);
    let title_id = format!("chart-{id}-title");
    html! {
        figure class="chart" data-chart=(id) {
            figcaption id=(title_id) { (title) }
            @if bars.is_empty() {
                p class="muted" { "Nothing to count yet." }
            } @else {
                svg xmlns="http://www.w3.org/2000/svg" role="img" aria-labelledby=(title_id)
                    viewBox={ "0 0 " (WIDTH) " " (height) } width=(WIDTH) height=(height) {
                    title { (title) }
                    @for (i, bar) in bars.iter().enumerate() {
                        @let y = u32::try_from(i).unwrap_or(u32::MAX).saturating_mul(BAR_HEIGHT + BAR_GAP);
                        // The bar's length in whole units; a bar of a non-zero count is at
                        // least one unit long, so it never looks like nothing.
                        @let length = if bar.value == 0 { 0 } else { (u64::from(span) * bar.value / max).max(1) };
                        g class="bar" data-label=(bar.label) data-value=(bar.value) {
                            text x=(LABEL_WIDTH - 6) y=(y + 13) text-anchor="end" { (bar.label) }
                            rect class=(bar.class) x=(LABEL_WIDTH) y=(y) width=(length) height=(BAR_HEIGHT) {}
                            text x=(u64::from(LABEL_WIDTH) + length + 6) y=(y + 13) { (bar.value) }
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_carry_their_numbers_and_scale_to_the_largest() {
        let chart = bar_chart("status", "Status <codes>", &[Bar::plain("200", 8), Bar::plain("404", 2)]).into_string();
        assert!(chart.contains(r#"data-label="200" data-value="8""#), "{chart}");
        assert!(chart.contains(r#"data-label="404" data-value="2""#), "{chart}");
        // 250 units for the largest, a quarter of it for a quarter of the count.
        assert!(chart.contains(r#"width="250" height="18""#) && chart.contains(r#"width="62" height="18""#), "{chart}");
        assert!(chart.contains("Status &lt;codes&gt;"), "the title is text: {chart}");
        let empty = bar_chart("none", "Nothing", &[]).into_string();
        assert!(empty.contains("Nothing to count yet.") && !empty.contains("<svg"));
    }
}
