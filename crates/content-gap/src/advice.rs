//! Advice a writer can act on: each gap's heading written for the page at hand (its topic in
//! the heading) and what pages of its type usually say in that section (docs/API.md,
//! "POST /api/content-gap").

use crate::facts::Facts;
use crate::model::PageType;
use crate::normalize::fold;

/// Most words of the topic put into a heading.
const TOPIC_MAX_WORDS: usize = 9;

/// Site-name suffixes of titles: "Copper kettles | Kessel & Co".
const TITLE_SEPARATORS: &[&str] = &[" | ", " – ", " — ", " - ", " :: ", " · ", " » "];

/// What the page is about, in its own words: the h1 (unless it is a logo), else the title
/// without its site name,
/// else the words of the address's last segment, else the host.
pub(crate) fn topic(facts: &Facts) -> String {
    let h1 = clean(&facts.h1);
    let mut title = facts.title.trim();
    for sep in TITLE_SEPARATORS {
        if let Some((head, _)) = title.split_once(sep) {
            title = head.trim();
        }
    }
    let title = clean(title);
    // An h1 of a word or two that the title does not contain is a logo or a site name
    // ("V8"), not the topic; the title says more then.
    let logo = h1.split_whitespace().count() <= 2
        && title.split_whitespace().count() >= 3
        && !fold(&title).contains(&fold(&h1));
    if !h1.is_empty() && !logo {
        return h1;
    }
    if !title.is_empty() {
        return title;
    }
    let url = url::Url::parse(&facts.url).ok();
    let slug = url
        .as_ref()
        .and_then(|u| u.path_segments().and_then(|mut s| s.rfind(|x| !x.is_empty()).map(str::to_string)))
        .map(|s| s.rsplit_once('.').map_or(s.clone(), |(stem, _)| stem.to_string()))
        .map(|s| s.split(['-', '_', '+']).filter(|w| !w.is_empty()).collect::<Vec<_>>().join(" "))
        .map(|s| capitalise(&s))
        .filter(|s| s.chars().any(char::is_alphabetic));
    slug.or_else(|| url.as_ref().and_then(|u| u.host_str()).map(|h| h.trim_start_matches("www.").to_string()))
        .unwrap_or_else(|| "This page".to_string())
}

/// White space collapsed, at most [`TOPIC_MAX_WORDS`] words (cut at a colon or dash first),
/// trailing punctuation removed.
fn clean(text: &str) -> String {
    let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut t = collapsed.as_str();
    if t.split_whitespace().count() > TOPIC_MAX_WORDS {
        for sep in [": ", " – ", " — ", " - ", "? ", ". "] {
            if let Some((head, _)) = t.split_once(sep) {
                if head.split_whitespace().count() >= 2 {
                    t = head;
                    break;
                }
            }
        }
    }
    let words: Vec<&str> = t.split_whitespace().take(TOPIC_MAX_WORDS).collect();
    words.join(" ").trim_end_matches(|c: char| ",;:.!-–—|".contains(c)).trim().to_string()
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}

fn is_how_to(topic: &str) -> bool {
    let f = fold(topic);
    f.starts_with("how to ") || f.starts_with("wie man ") || f.starts_with("so ")
}

/// The heading to add for a missing section `key` (catalogue heading `label`) on a page
/// about `topic`, in the page's language: German for a page in German (`lang` `de...`),
/// English otherwise.
pub(crate) fn heading_in(lang: Option<&str>, t: PageType, key: &str, label: &str, topic: &str) -> String {
    if lang.is_some_and(|l| l == "de" || l.starts_with("de-")) {
        if let Some(de) = german(key) {
            return match key {
                "main_sections" | "instructions" if is_how_to(topic) => format!("{topic}: Schritt für Schritt"),
                "instructions" => format!("So gelingt {topic}: Schritt für Schritt"),
                _ => format!("{topic}: {de}"),
            };
        }
    }
    match (key, t) {
        ("introduction", PageType::Article) => format!("{topic}: what you will learn"),
        ("introduction", PageType::Recipe) => format!("{topic}: why this recipe works"),
        ("introduction", PageType::Category) => format!("{topic}: what the range offers"),
        ("introduction", PageType::Comparison) => format!("{topic}: what we compared and why"),
        _ => heading_any(key, label, topic),
    }
}

fn heading_any(key: &str, label: &str, topic: &str) -> String {
    match key {
        "main_sections" if is_how_to(topic) => format!("{topic}: step by step"),
        "main_sections" => format!("{topic}: the main points in detail"),
        "instructions" if is_how_to(topic) => format!("{topic}: step by step"),
        "instructions" => format!("How to make {topic}: step by step"),
        "introduction" => format!("{topic}: what it is and who it is for"),
        "description" => format!("{topic}: what it is and what it does"),
        "comparison" => format!("{topic} compared with alternatives"),
        "subcategories" => format!("{topic} by category"),
        "buying_guide" => format!("{topic}: how to choose"),
        "pricing" => format!("{topic}: price and what is included"),
        "process" => format!("{topic}: how it works"),
        "comparison_table" => format!("{topic}: side-by-side table"),
        "account" => format!("{topic}: your account"),
        "verdict" => format!("{topic}: our verdict"),
        _ => format!("{topic}: {}", lower_first(label)),
    }
}

/// The German heading part of a section.
fn german(key: &str) -> Option<&'static str> {
    Some(match key {
        "introduction" => "worum es geht",
        "key_takeaways" => "das Wichtigste in Kürze",
        "table_of_contents" => "Inhalt",
        "main_sections" => "die wichtigsten Punkte im Detail",
        "conclusion" => "Fazit",
        "faq" => "häufige Fragen",
        "sources_author" => "Quellen und Autor",
        "description" => "was es ist und was es kann",
        "specifications" => "technische Daten",
        "pricing" => "Preis und Leistungsumfang",
        "shipping_returns" => "Versand und Rückgabe",
        "reviews" => "Kundenbewertungen",
        "comparison" => "im Vergleich mit Alternativen",
        "subcategories" => "nach Kategorie",
        "bestsellers" => "Bestseller",
        "buying_guide" => "Kaufberatung",
        "brands" => "Top-Marken",
        "benefits" => "Ihre Vorteile",
        "services" => "Leistungen",
        "process" => "so funktioniert es",
        "case_studies" => "Referenzen",
        "call_to_action" => "Angebot anfordern",
        "about" => "über uns",
        "address_hours" => "Adresse und Öffnungszeiten",
        "contact" => "Kontakt und Anfahrt",
        "overview" => "Überblick",
        "installation" => "Installation",
        "quick_start" => "Schnellstart",
        "examples" => "Beispiele",
        "api_reference" => "API-Referenz",
        "troubleshooting" => "Fehlerbehebung",
        "ingredients" => "Zutaten",
        "instructions" => "Zubereitung Schritt für Schritt",
        "time" => "Zubereitungs- und Garzeit",
        "nutrition" => "Nährwerte",
        "tips" => "Tipps und Varianten",
        "questions" => "Fragen und Antworten",
        "ordering" => "Bestellung",
        "payment" => "Zahlung",
        "account" => "Ihr Kundenkonto",
        "comparison_table" => "Vergleichstabelle",
        "methodology" => "so haben wir getestet",
        "pros_cons" => "Vor- und Nachteile",
        "verdict" => "unser Fazit",
        "offerings" => "Produkte und Leistungen",
        "featured_content" => "aktuelle Beiträge",
        _ => return None,
    })
}

/// A label lower-cased unless it starts with an acronym ("API reference").
fn lower_first(label: &str) -> String {
    let first = label.split_whitespace().next().unwrap_or("");
    if first.len() > 1 && first.chars().all(|c| c.is_uppercase()) {
        label.to_string()
    } else {
        label.to_lowercase()
    }
}

/// What pages usually say in a section, for the gap's reason.
pub(crate) fn covers(key: &str) -> &'static str {
    match key {
        "introduction" => "what the page is about, for whom, and what the reader will get from it",
        "key_takeaways" => "the three to five points a hurried reader should leave with",
        "table_of_contents" => "links to each section of a long page",
        "main_sections" => "the topic in sections of their own, one subheading per step or question",
        "conclusion" => "a summary of what was said and what to do next",
        "faq" => "short answers to the questions readers ask about it",
        "sources_author" => "who wrote it, their expertise, and the sources the facts come from",
        "description" => "what the product is, what it does and whom it suits",
        "specifications" => "dimensions, materials, capacity and other technical data",
        "pricing" => "the price, what it includes and any options that change it",
        "shipping_returns" => "delivery times and costs, and how to send an item back",
        "reviews" => "ratings and what customers say about it",
        "comparison" => "how it differs from the alternatives a buyer considers",
        "subcategories" => "links to the narrower categories of the range",
        "bestsellers" => "the most popular items of the range",
        "buying_guide" => "what to look for when choosing one, and which item suits whom",
        "brands" => "the brands the range carries",
        "benefits" => "what the customer gains, in concrete results",
        "services" => "each service offered, with what it includes",
        "process" => "the steps from first contact to the result",
        "case_studies" => "work done for real customers, with results",
        "call_to_action" => "how to get a quote or book, in one clear step",
        "about" => "who is behind it, since when, and why they can be trusted",
        "address_hours" => "the address and opening hours",
        "contact" => "phone, e-mail and how to get there",
        "overview" => "what the software does and when to use it",
        "installation" => "how to install it, with the exact commands",
        "quick_start" => "a first working example in a few steps",
        "examples" => "code examples for common tasks",
        "api_reference" => "every function or option with its parameters",
        "troubleshooting" => "common errors and how to fix them",
        "ingredients" => "every ingredient with its quantity",
        "instructions" => "numbered steps from preparation to serving",
        "time" => "preparation, cooking and total time",
        "nutrition" => "calories and nutrients per serving",
        "tips" => "tips, substitutions and variations",
        "questions" => "the questions customers ask most, each with a short answer",
        "ordering" => "how to place, change or cancel an order",
        "payment" => "the payment methods accepted and when payment is taken",
        "account" => "how to sign in, reset a password and manage the account",
        "comparison_table" => "the options side by side in one table",
        "methodology" => "how the options were tested and judged",
        "pros_cons" => "the strengths and weaknesses of each option",
        "verdict" => "which option to choose, and for whom",
        "offerings" => "the main products or services, each with a link",
        "featured_content" => "the latest articles or news",
        _ => "this section",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(url: &str, title: &str, h1: &str) -> Facts {
        Facts { url: url.into(), title: title.into(), h1: h1.into(), ..Facts::default() }
    }

    #[test]
    fn the_topic_is_the_pages_own_name() {
        for (url, title, h1, want) in [
            (
                "https://a.example/x",
                "Copper kettles | Kessel & Co",
                "Hand-hammered copper kettles",
                "Hand-hammered copper kettles",
            ),
            ("https://a.example/x", "Copper kettles | Kessel & Co", "", "Copper kettles"),
            // A logo in the h1 is not the topic.
            (
                "https://v8.dev/blog/x",
                "Outside the web: standalone WebAssembly binaries · V8",
                "V8",
                "Outside the web: standalone WebAssembly binaries",
            ),
            ("https://a.example/banana-bread", "Classic banana bread recipe", "Banana bread", "Banana bread"),
            ("https://a.example/blog/clean-copper-kettle.html", "", "", "Clean copper kettle"),
            ("https://www.kessel.example/", "", "", "kessel.example"),
        ] {
            assert_eq!(topic(&facts(url, title, h1)), want, "{title:?} {h1:?}");
        }
    }

    #[test]
    fn german_pages_get_german_headings() {
        let de = Some("de-de");
        assert_eq!(
            heading_in(de, PageType::Recipe, "time", "Prep and cook time", "Apfelstrudel wie bei Oma"),
            "Apfelstrudel wie bei Oma: Zubereitungs- und Garzeit"
        );
        assert_eq!(
            heading_in(de, PageType::Recipe, "instructions", "Instructions", "Apfelstrudel"),
            "So gelingt Apfelstrudel: Schritt für Schritt"
        );
        assert_eq!(
            heading_in(Some("en"), PageType::Recipe, "time", "Prep and cook time", "Banana bread"),
            "Banana bread: prep and cook time"
        );
    }

    #[test]
    fn headings_carry_the_topic() {
        let t = "How to clean a copper kettle";
        assert_eq!(
            heading_in(None, PageType::Article, "main_sections", "Main sections", t),
            "How to clean a copper kettle: step by step"
        );
        assert_eq!(
            heading_in(None, PageType::Recipe, "instructions", "Instructions", "Banana bread"),
            "How to make Banana bread: step by step"
        );
        assert_eq!(
            heading_in(None, PageType::Documentation, "api_reference", "API reference", "tidyq"),
            "tidyq: API reference"
        );
        assert_eq!(
            heading_in(None, PageType::Product, "shipping_returns", "Shipping and returns", "Oak chair"),
            "Oak chair: shipping and returns"
        );
    }
}
