//! The built-in model: page types, the catalogue of sections and, per page type, the
//! sections top-ranking pages of that type usually cover with their typical length.
//!
//! The figures are editorial: typical section lengths of well-ranking pages of each type,
//! rounded. They are a starting point when no competitor pages are given.

use serde::Serialize;

/// What kind of page it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum PageType {
    /// An article or blog post.
    Article,
    Product,
    /// A category or listing page of a shop or directory.
    Category,
    /// A service or landing page.
    Service,
    LocalBusiness,
    Documentation,
    Recipe,
    Faq,
    /// A comparison, "best of" list or review.
    Comparison,
    Home,
    /// None of the above: a legal notice, a login or cart page, an error page. It has no
    /// model of its own; only competitors show its gaps.
    Other,
}

impl PageType {
    /// Every page type; the order breaks ties in classification.
    pub const ALL: [PageType; 11] = [
        PageType::Article,
        PageType::Product,
        PageType::Category,
        PageType::Service,
        PageType::LocalBusiness,
        PageType::Documentation,
        PageType::Recipe,
        PageType::Faq,
        PageType::Comparison,
        PageType::Home,
        PageType::Other,
    ];

    /// The name used on the wire (`local_business`).
    pub fn name(self) -> &'static str {
        match self {
            PageType::Article => "article",
            PageType::Product => "product",
            PageType::Category => "category",
            PageType::Service => "service",
            PageType::LocalBusiness => "local_business",
            PageType::Documentation => "documentation",
            PageType::Recipe => "recipe",
            PageType::Faq => "faq",
            PageType::Comparison => "comparison",
            PageType::Home => "home",
            PageType::Other => "other",
        }
    }

    /// A plural phrase for reasons ("product pages").
    pub fn plural(self) -> &'static str {
        match self {
            PageType::Article => "articles",
            PageType::Product => "product pages",
            PageType::Category => "category pages",
            PageType::Service => "service pages",
            PageType::LocalBusiness => "local business pages",
            PageType::Documentation => "documentation pages",
            PageType::Recipe => "recipes",
            PageType::Faq => "FAQ pages",
            PageType::Comparison => "comparisons and reviews",
            PageType::Home => "home pages",
            PageType::Other => "pages of this kind",
        }
    }

    /// Parses a wire name.
    pub fn from_name(name: &str) -> Option<PageType> {
        PageType::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The sections pages of this type usually cover.
    pub fn model(self) -> &'static [ModelSection] {
        match self {
            PageType::Article => ARTICLE,
            PageType::Product => PRODUCT,
            PageType::Category => CATEGORY,
            PageType::Service => SERVICE,
            PageType::LocalBusiness => LOCAL_BUSINESS,
            PageType::Documentation => DOCUMENTATION,
            PageType::Recipe => RECIPE,
            PageType::Faq => FAQ,
            PageType::Comparison => COMPARISON,
            PageType::Home => HOME,
            PageType::Other => &[],
        }
    }
}

/// How a page shows it covers a section, besides a heading that names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detect {
    /// Only a heading matching a synonym.
    Heading,
    /// Also an opening paragraph before the first subheading (an introduction rarely has a
    /// heading of its own).
    Intro,
    /// Also at least this many second-level headings (the main body of an article).
    Body(usize),
    /// Also at least this many headings phrased as questions.
    Questions(usize),
}

/// A section of the catalogue: one topic, named in English and German.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Section {
    /// Stable key, snake_case.
    pub key: &'static str,
    /// The heading suggested when the section is missing.
    pub heading: &'static str,
    /// Phrases (English and German) a heading covering the section contains.
    pub synonyms: &'static [&'static str],
    pub detect: Detect,
}

impl Section {
    /// Its synonyms as [`crate::normalize::tokens`], tokenised and stemmed once for the whole
    /// catalogue: a page is compared with every synonym of every section for each of its
    /// headings, and stemming the synonyms anew each time made 20,000 headings cost 16 s.
    pub fn synonym_tokens(&self) -> &'static [Vec<String>] {
        static TOKENS: std::sync::OnceLock<std::collections::HashMap<&'static str, Vec<Vec<String>>>> =
            std::sync::OnceLock::new();
        TOKENS
            .get_or_init(|| {
                SECTIONS
                    .iter()
                    .map(|s| (s.key, s.synonyms.iter().map(|syn| crate::normalize::tokens(syn)).collect()))
                    .collect()
            })
            .get(self.key)
            .map_or(&[], Vec::as_slice)
    }

    /// Whether a heading (its tokens) names this section: it contains one of its synonyms.
    pub fn named_by(&self, heading: &[String]) -> bool {
        self.synonym_tokens().iter().any(|syn| crate::normalize::contains_phrase(heading, syn))
    }
}

/// A section as part of a page type's model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ModelSection {
    pub key: &'static str,
    /// 3 essential, 2 expected, 1 nice to have: the gap priority and the coverage weight.
    pub weight: u32,
    /// Typical length in words on top-ranking pages.
    pub words: u32,
}

const fn m(key: &'static str, weight: u32, words: u32) -> ModelSection {
    ModelSection { key, weight, words }
}

const fn s(key: &'static str, heading: &'static str, synonyms: &'static [&'static str]) -> Section {
    Section { key, heading, synonyms, detect: Detect::Heading }
}

/// Every section any model speaks of. Competitor headings are clustered against it too.
pub static SECTIONS: &[Section] = &[
    Section {
        key: "introduction",
        heading: "Introduction",
        synonyms: &["introduction", "intro", "einleitung", "einfuehrung", "vorwort"],
        detect: Detect::Intro,
    },
    s(
        "key_takeaways",
        "Key takeaways",
        &[
            "key takeaways",
            "takeaways",
            "summary",
            "tl dr",
            "tldr",
            "key points",
            "in short",
            "das wichtigste",
            "zusammenfassung",
            "kurz gesagt",
            "auf einen blick",
            "kernaussagen",
        ],
    ),
    s("table_of_contents", "Table of contents", &["table of contents", "contents", "inhaltsverzeichnis", "inhalt"]),
    Section { key: "main_sections", heading: "Main sections", synonyms: &[], detect: Detect::Body(3) },
    s(
        "conclusion",
        "Conclusion",
        &[
            "conclusion",
            "final thoughts",
            "wrapping up",
            "wrap up",
            "bottom line",
            "fazit",
            "schlussfolgerung",
            "schlusswort",
            "abschliessend",
        ],
    ),
    s(
        "faq",
        "Frequently asked questions",
        &[
            "faq",
            "faqs",
            "frequently asked questions",
            "common questions",
            "questions and answers",
            "q a",
            "haeufige fragen",
            "haeufig gestellte fragen",
            "fragen und antworten",
            "fragen",
        ],
    ),
    s(
        "sources_author",
        "Sources and author",
        &[
            "sources",
            "references",
            "further reading",
            "about the author",
            "author",
            "bibliography",
            "quellen",
            "quellenangaben",
            "literatur",
            "weiterfuehrende links",
            "ueber den autor",
            "autor",
            "autorin",
        ],
    ),
    s(
        "description",
        "Product description",
        &[
            "description",
            "product description",
            "about this product",
            "about this item",
            "overview",
            "beschreibung",
            "produktbeschreibung",
            "ueber dieses produkt",
            "uebersicht",
        ],
    ),
    s(
        "specifications",
        "Specifications",
        &[
            "specifications",
            "specs",
            "technical details",
            "technical data",
            "product details",
            "features",
            "dimensions",
            "whats in the box",
            "technische daten",
            "spezifikationen",
            "produktdetails",
            "merkmale",
            "eigenschaften",
            "abmessungen",
            "lieferumfang",
        ],
    ),
    s(
        "pricing",
        "Pricing",
        &[
            "pricing",
            "price",
            "prices",
            "plans",
            "cost",
            "costs",
            "rates",
            "preis",
            "preise",
            "kosten",
            "tarife",
            "pakete",
            "preisliste",
        ],
    ),
    s(
        "shipping_returns",
        "Shipping and returns",
        &[
            "shipping",
            "delivery",
            "returns",
            "return policy",
            "refunds",
            "versand",
            "lieferung",
            "lieferzeit",
            "rueckgabe",
            "ruecksendung",
            "retoure",
            "widerruf",
            "umtausch",
        ],
    ),
    s(
        "reviews",
        "Customer reviews",
        &[
            "reviews",
            "customer reviews",
            "ratings",
            "testimonials",
            "what our customers say",
            "what clients say",
            "bewertungen",
            "kundenbewertungen",
            "rezensionen",
            "erfahrungen",
            "kundenstimmen",
            "erfahrungsberichte",
        ],
    ),
    s(
        "comparison",
        "Comparison with alternatives",
        &[
            "comparison",
            "compare",
            "compared",
            "vs",
            "versus",
            "alternatives",
            "similar products",
            "vergleich",
            "vergleichen",
            "alternativen",
            "aehnliche produkte",
            "unterschiede",
        ],
    ),
    s(
        "subcategories",
        "Shop by category",
        &["categories", "subcategories", "shop by", "browse by", "kategorien", "unterkategorien", "alle kategorien"],
    ),
    s(
        "bestsellers",
        "Bestsellers",
        &[
            "bestsellers",
            "best sellers",
            "best selling",
            "popular",
            "top rated",
            "featured products",
            "bestseller",
            "beliebt",
            "beliebteste",
            "topseller",
            "empfohlene produkte",
        ],
    ),
    s(
        "buying_guide",
        "Buying guide",
        &[
            "buying guide",
            "how to choose",
            "what to look for",
            "choosing",
            "kaufberatung",
            "kaufratgeber",
            "ratgeber",
            "worauf achten",
            "richtige finden",
            "auswahl",
        ],
    ),
    s("brands", "Top brands", &["brands", "top brands", "manufacturers", "marken", "hersteller", "topmarken"]),
    s(
        "benefits",
        "Benefits",
        &[
            "benefits",
            "why choose",
            "why us",
            "advantages",
            "what you get",
            "vorteile",
            "ihre vorteile",
            "warum",
            "nutzen",
            "mehrwert",
        ],
    ),
    s(
        "services",
        "Services",
        &[
            "services",
            "what we do",
            "what we offer",
            "offerings",
            "treatments",
            "solutions",
            "leistungen",
            "dienstleistungen",
            "unser angebot",
            "leistungsspektrum",
            "loesungen",
            "behandlungen",
        ],
    ),
    s(
        "process",
        "How it works",
        &[
            "how it works",
            "process",
            "how we work",
            "our approach",
            "step by step",
            "so funktioniert",
            "funktioniert",
            "ablauf",
            "vorgehen",
            "prozess",
            "vorgehensweise",
        ],
    ),
    s(
        "case_studies",
        "Case studies",
        &[
            "case studies",
            "case study",
            "portfolio",
            "projects",
            "success stories",
            "clients",
            "referenzen",
            "projekte",
            "fallstudien",
            "kundenprojekte",
            "erfolgsgeschichten",
        ],
    ),
    s(
        "call_to_action",
        "Get a quote",
        &[
            "get a quote",
            "request a quote",
            "free consultation",
            "book a call",
            "book now",
            "book an appointment",
            "schedule",
            "sign up",
            "get in touch",
            "angebot anfordern",
            "termin vereinbaren",
            "jetzt anfragen",
            "beratung",
            "jetzt buchen",
            "anfrage",
        ],
    ),
    s(
        "about",
        "About us",
        &[
            "about us",
            "about",
            "who we are",
            "our team",
            "team",
            "our story",
            "ueber uns",
            "wer wir sind",
            "unser team",
            "geschichte",
        ],
    ),
    s(
        "address_hours",
        "Address and opening hours",
        &[
            "address",
            "hours",
            "opening hours",
            "opening times",
            "location",
            "locations",
            "find us",
            "visit us",
            "adresse",
            "oeffnungszeiten",
            "standort",
            "standorte",
            "anschrift",
            "so finden sie uns",
        ],
    ),
    s(
        "contact",
        "Contact and directions",
        &[
            "contact",
            "contact us",
            "how to get here",
            "getting here",
            "directions to",
            "parking",
            "kontakt",
            "anfahrt",
            "wegbeschreibung",
            "kontaktieren",
            "parken",
        ],
    ),
    Section {
        key: "overview",
        heading: "Overview",
        synonyms: &[
            "overview",
            "what is",
            "about",
            "introduction",
            "ueberblick",
            "uebersicht",
            "einfuehrung",
            "was ist",
        ],
        detect: Detect::Intro,
    },
    s(
        "installation",
        "Installation",
        &[
            "installation",
            "install",
            "installing",
            "setup",
            "set up",
            "requirements",
            "prerequisites",
            "einrichtung",
            "einrichten",
            "voraussetzungen",
            "installieren",
        ],
    ),
    s(
        "quick_start",
        "Quick start",
        &[
            "quick start",
            "quickstart",
            "getting started",
            "get started",
            "first steps",
            "tutorial",
            "schnellstart",
            "erste schritte",
            "loslegen",
            "schnelleinstieg",
        ],
    ),
    s(
        "examples",
        "Examples",
        &[
            "examples",
            "example",
            "usage",
            "use cases",
            "samples",
            "recipes",
            "beispiele",
            "beispiel",
            "verwendung",
            "anwendung",
            "anwendungsfaelle",
        ],
    ),
    s(
        "api_reference",
        "API reference",
        &[
            "api reference",
            "api",
            "reference",
            "configuration",
            "options",
            "parameters",
            "methods",
            "arguments",
            "referenz",
            "konfiguration",
            "optionen",
            "parameter",
            "methoden",
        ],
    ),
    s(
        "troubleshooting",
        "Troubleshooting",
        &[
            "troubleshooting",
            "common errors",
            "known issues",
            "debugging",
            "common problems",
            "errors",
            "fehlerbehebung",
            "probleme",
            "bekannte probleme",
            "fehlersuche",
            "fehler",
        ],
    ),
    s(
        "ingredients",
        "Ingredients",
        &["ingredients", "you will need", "what you need", "shopping list", "zutaten", "einkaufsliste", "zutatenliste"],
    ),
    s(
        "instructions",
        "Instructions",
        &[
            "instructions",
            "steps",
            "method",
            "directions",
            "preparation",
            "how to make",
            "zubereitung",
            "anleitung",
            "schritte",
            "so gehts",
            "schritt fuer schritt",
            "zubereiten",
        ],
    ),
    s(
        "time",
        "Prep and cook time",
        &[
            "prep time",
            "cook time",
            "cooking time",
            "total time",
            "time",
            "zubereitungszeit",
            "kochzeit",
            "backzeit",
            "arbeitszeit",
            "dauer",
            "zeit",
        ],
    ),
    s(
        "nutrition",
        "Nutrition facts",
        &[
            "nutrition",
            "nutrition facts",
            "nutritional information",
            "calories",
            "naehrwerte",
            "naehrwertangaben",
            "kalorien",
            "naehrstoffe",
        ],
    ),
    s(
        "tips",
        "Tips and variations",
        &[
            "tips",
            "tricks",
            "notes",
            "variations",
            "substitutions",
            "storage",
            "storing",
            "tipps",
            "hinweise",
            "variationen",
            "varianten",
            "aufbewahrung",
            "aufbewahren",
        ],
    ),
    Section { key: "questions", heading: "Questions and answers", synonyms: &[], detect: Detect::Questions(4) },
    s("ordering", "Ordering", &["ordering", "orders", "placing an order", "bestellung", "bestellen", "bestellungen"]),
    s(
        "payment",
        "Payment",
        &[
            "payment",
            "payments",
            "billing",
            "payment methods",
            "zahlung",
            "bezahlung",
            "zahlungsarten",
            "zahlungsmethoden",
            "rechnung",
        ],
    ),
    s(
        "account",
        "Account",
        &["account", "login", "sign in", "password", "konto", "kundenkonto", "anmeldung", "passwort"],
    ),
    s(
        "comparison_table",
        "Comparison table",
        &[
            "comparison table",
            "side by side",
            "at a glance",
            "comparison chart",
            "vergleichstabelle",
            "tabelle",
            "im ueberblick",
            "gegenueberstellung",
        ],
    ),
    s(
        "methodology",
        "How we tested",
        &[
            "how we tested",
            "how we test",
            "methodology",
            "criteria",
            "how we chose",
            "testing",
            "testverfahren",
            "so haben wir getestet",
            "kriterien",
            "methodik",
            "testkriterien",
        ],
    ),
    s(
        "pros_cons",
        "Pros and cons",
        &[
            "pros and cons",
            "pros",
            "cons",
            "advantages and disadvantages",
            "strengths",
            "weaknesses",
            "vor und nachteile",
            "nachteile",
            "staerken",
            "schwaechen",
        ],
    ),
    s(
        "verdict",
        "Verdict",
        &[
            "verdict",
            "winner",
            "our pick",
            "our recommendation",
            "which should you choose",
            "which one",
            "final verdict",
            "testsieger",
            "empfehlung",
            "urteil",
            "gewinner",
            "unsere wahl",
        ],
    ),
    s(
        "offerings",
        "Products and services",
        &[
            "products",
            "our products",
            "shop",
            "collections",
            "categories",
            "what we offer",
            "produkte",
            "sortiment",
            "kollektionen",
            "kategorien",
            "unser angebot",
        ],
    ),
    s(
        "featured_content",
        "Latest articles",
        &[
            "latest news",
            "news",
            "blog",
            "latest articles",
            "latest posts",
            "insights",
            "aktuelles",
            "neuigkeiten",
            "magazin",
            "neueste beitraege",
            "news und blog",
        ],
    ),
];

/// Looks a section up by key.
pub fn section(key: &str) -> Option<&'static Section> {
    SECTIONS.iter().find(|s| s.key == key)
}

static ARTICLE: &[ModelSection] = &[
    m("introduction", 3, 100),
    m("key_takeaways", 2, 80),
    m("table_of_contents", 1, 40),
    m("main_sections", 3, 900),
    m("conclusion", 2, 120),
    m("faq", 2, 250),
    m("sources_author", 1, 80),
];

static PRODUCT: &[ModelSection] = &[
    m("description", 3, 200),
    m("specifications", 3, 200),
    m("pricing", 2, 60),
    m("shipping_returns", 2, 120),
    m("reviews", 3, 250),
    m("faq", 2, 200),
    m("comparison", 1, 150),
];

static CATEGORY: &[ModelSection] = &[
    m("introduction", 2, 120),
    m("subcategories", 2, 60),
    m("bestsellers", 1, 80),
    m("buying_guide", 3, 300),
    m("brands", 1, 60),
    m("faq", 2, 200),
];

static SERVICE: &[ModelSection] = &[
    m("services", 3, 250),
    m("benefits", 3, 200),
    m("process", 2, 180),
    m("pricing", 2, 150),
    m("case_studies", 2, 200),
    m("reviews", 2, 150),
    m("faq", 2, 250),
    m("call_to_action", 2, 40),
    m("about", 1, 120),
];

static LOCAL_BUSINESS: &[ModelSection] = &[
    m("address_hours", 3, 60),
    m("services", 3, 200),
    m("contact", 3, 50),
    m("reviews", 2, 150),
    m("faq", 2, 200),
    m("about", 1, 120),
];

static DOCUMENTATION: &[ModelSection] = &[
    m("overview", 3, 120),
    m("installation", 3, 150),
    m("quick_start", 3, 250),
    m("examples", 2, 300),
    m("api_reference", 2, 500),
    m("troubleshooting", 2, 200),
    m("faq", 1, 150),
];

static RECIPE: &[ModelSection] = &[
    m("introduction", 1, 100),
    m("ingredients", 3, 120),
    m("instructions", 3, 300),
    m("time", 2, 30),
    m("nutrition", 1, 60),
    m("tips", 2, 120),
    m("faq", 1, 150),
];

static FAQ: &[ModelSection] = &[
    m("questions", 3, 600),
    m("ordering", 1, 150),
    m("payment", 1, 150),
    m("shipping_returns", 1, 150),
    m("account", 1, 100),
    m("contact", 2, 60),
];

static COMPARISON: &[ModelSection] = &[
    m("introduction", 2, 120),
    m("comparison_table", 3, 150),
    m("methodology", 2, 150),
    m("pros_cons", 3, 250),
    m("pricing", 2, 120),
    m("verdict", 3, 150),
    m("comparison", 1, 150),
    m("faq", 2, 200),
];

static HOME: &[ModelSection] = &[
    m("offerings", 3, 150),
    m("about", 2, 120),
    m("benefits", 2, 150),
    m("reviews", 2, 120),
    m("featured_content", 1, 150),
    m("call_to_action", 2, 40),
    m("contact", 2, 60),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_model_key_is_in_the_catalogue() {
        for t in PageType::ALL {
            for ms in t.model() {
                assert!(section(ms.key).is_some(), "{}: {}", t.name(), ms.key);
                assert!((1..=3).contains(&ms.weight) && ms.words > 0, "{}: {}", t.name(), ms.key);
            }
            assert_eq!(PageType::from_name(t.name()), Some(t));
        }
    }

    #[test]
    fn catalogue_keys_are_unique_and_named_in_two_languages() {
        for (i, s) in SECTIONS.iter().enumerate() {
            assert!(SECTIONS[..i].iter().all(|o| o.key != s.key), "duplicate {}", s.key);
            // Sections detected only structurally have no synonyms; the rest need English and
            // German phrases (German ones are listed after the English ones).
            if s.detect == Detect::Heading {
                assert!(s.synonyms.len() >= 2, "{}", s.key);
            }
        }
    }
}
