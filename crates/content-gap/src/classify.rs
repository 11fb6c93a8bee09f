//! Page-type classification, in three steps (docs/API.md, "POST /api/content-gap"):
//!
//! 1. what the page **declares**: the schema.org `@type` of its main JSON-LD items, its
//!    microdata, its `og:type`;
//! 2. else how it is **built**: the site's root, a recipe's ingredient list, a product's
//!    price and buy button (or JSON-LD offers), a listing's repeated cards, an article's
//!    byline and date;
//! 3. else **words**: every clue of the URL, title and headings adds points to one page type
//!    and is kept as a [`Signal`]; the winner is the type with most points.
//!
//! The [`Classification`] says which step decided ([`DecidedBy`]) and why, in a sentence.

use serde::Serialize;

use crate::facts::Facts;
use crate::model::{section, Detect, PageType};
use crate::normalize::{fold, tokens};

/// One clue that counted for the winning page type.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "ClassificationSignal"))]
pub struct Signal {
    /// Where it was seen: `json-ld`, `microdata`, `og`, `structure`, `url`, `title`,
    /// `headings`, `words`, `default`.
    pub source: &'static str,
    /// What was seen (a path segment, a type, a phrase, a heading).
    pub value: String,
    /// Points it gave.
    pub weight: u32,
}

/// The page type and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Classification {
    #[serde(rename = "pageType")]
    pub page_type: PageType,
    /// 0..100: the winner's share of all points.
    #[cfg_attr(feature = "schema", schemars(range(max = 100)))]
    pub confidence: u8,
    /// The signals that counted for the winner: the deciding one first, then the word
    /// clues that agree, strongest first.
    pub signals: Vec<Signal>,
    /// Which step decided.
    #[serde(rename = "decidedBy")]
    pub decided_by: DecidedBy,
    /// Why, in a sentence naming the signal that decided (the report's `pageTypeReason`).
    pub reason: String,
}

/// Which kind of evidence decided the page type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum DecidedBy {
    /// What the page declares: schema.org `@type` (JSON-LD, microdata) or `og:type`.
    Declared,
    /// How the page is built: root address, ingredient list, price and buy button, repeated
    /// cards, byline and date.
    Structure,
    /// Words of the URL, title and headings.
    Words,
    /// Nothing pointed anywhere: an article is assumed.
    Default,
}

/// Declared schema.org types per page type, in the order they win when a page declares
/// several (a product page's FAQ block or shop address does not make it an FAQ or a local
/// business page). Site-wide types (`Organization`, `WebSite`, `WebPage`, `BreadcrumbList`)
/// declare nothing about the page.
const DECLARED: &[(PageType, &[&str])] = &[
    (PageType::Recipe, &["Recipe"]),
    (PageType::Product, &["Product", "ProductGroup", "IndividualProduct", "ProductModel"]),
    (PageType::Documentation, &["TechArticle", "APIReference"]),
    (PageType::Comparison, &["Review", "CriticReview", "ReviewNewsArticle"]),
    (
        PageType::Article,
        &[
            "Article",
            "BlogPosting",
            "NewsArticle",
            "Report",
            "ScholarlyArticle",
            "LiveBlogPosting",
            "OpinionNewsArticle",
            "AnalysisNewsArticle",
            "ReportageNewsArticle",
            "BackgroundNewsArticle",
            "SatiricalArticle",
        ],
    ),
    (PageType::Category, &["CollectionPage", "SearchResultsPage", "OfferCatalog"]),
    (PageType::Service, &["Service", "ProfessionalService", "FinancialService"]),
    (PageType::LocalBusiness, LOCAL_BUSINESS_TYPES),
    (PageType::Faq, &["FAQPage", "QAPage"]),
];

const LOCAL_BUSINESS_TYPES: &[&str] = &[
    "LocalBusiness",
    "Restaurant",
    "Store",
    "Dentist",
    "Physician",
    "MedicalClinic",
    "Bakery",
    "CafeOrCoffeeShop",
    "HairSalon",
    "BeautySalon",
    "AutoRepair",
    "Hotel",
    "LegalService",
    "Attorney",
    "RealEstateAgent",
    "Plumber",
    "Electrician",
    "HomeAndConstructionBusiness",
    "FoodEstablishment",
    "HealthAndBeautyBusiness",
    "BarOrPub",
    "DaySpa",
    "Optician",
    "Pharmacy",
    "VeterinaryCare",
];

/// Item types of which a page declaring three or more is a listing of them.
const LISTED: &[PageType] = &[PageType::Product, PageType::Recipe, PageType::Article];

/// og:type values that declare a page type (`website` declares nothing: every page says it).
const OG_DECLARED: &[(PageType, &[&str])] = &[
    (PageType::Article, &["article"]),
    (PageType::Product, &["product", "og:product", "product.item", "product.group"]),
    (PageType::LocalBusiness, &["business.business", "restaurant.restaurant", "place"]),
];

/// URL path segments (folded, whole segments or hyphen-separated words) per type.
const URL_HINTS: &[(PageType, u32, &[&str])] = &[
    (
        PageType::Article,
        3,
        &[
            "blog", "news", "article", "articles", "post", "posts", "magazin", "magazine", "ratgeber", "stories",
            "journal",
        ],
    ),
    (PageType::Product, 4, &["product", "products", "p", "item", "dp", "produkt", "artikel"]),
    (
        PageType::Category,
        4,
        &["category", "categories", "collections", "collection", "c", "kategorie", "shop", "catalog", "katalog"],
    ),
    (
        PageType::Service,
        3,
        &["services", "service", "solutions", "leistungen", "dienstleistungen", "loesungen", "agency", "agentur"],
    ),
    (
        PageType::LocalBusiness,
        3,
        &[
            "locations",
            "location",
            "store",
            "stores",
            "standort",
            "standorte",
            "filiale",
            "filialen",
            "praxis",
            "restaurant",
        ],
    ),
    (
        PageType::Documentation,
        4,
        &[
            "docs",
            "doc",
            "documentation",
            "reference",
            "api",
            "manual",
            "handbuch",
            "dokumentation",
            "guide",
            "guides",
            "sdk",
        ],
    ),
    (PageType::Recipe, 5, &["recipe", "recipes", "rezept", "rezepte"]),
    (PageType::Faq, 5, &["faq", "faqs", "help", "hilfe", "support", "fragen"]),
    (
        PageType::Other,
        6,
        &[
            "impressum",
            "imprint",
            "privacy",
            "datenschutz",
            "terms",
            "agb",
            "legal",
            "login",
            "signin",
            "cart",
            "warenkorb",
            "checkout",
            "cookies",
            "404",
            "search",
            "suche",
        ],
    ),
    (
        PageType::Comparison,
        4,
        &["vs", "versus", "compare", "comparison", "vergleich", "review", "reviews", "test", "best", "alternatives"],
    ),
];

/// JSON-LD `@type`s per page type.
const JSON_LD_HINTS: &[(PageType, u32, &[&str])] = &[
    (PageType::Article, 5, &["Article", "BlogPosting", "NewsArticle", "Report", "ScholarlyArticle"]),
    (PageType::Product, 6, &["Product", "ProductGroup", "Offer", "IndividualProduct"]),
    (PageType::Category, 4, &["CollectionPage", "ItemList", "OfferCatalog", "SearchResultsPage"]),
    (PageType::Service, 4, &["Service", "ProfessionalService", "FinancialService"]),
    (
        PageType::LocalBusiness,
        6,
        &[
            "LocalBusiness",
            "Restaurant",
            "Store",
            "Dentist",
            "Physician",
            "MedicalClinic",
            "Bakery",
            "CafeOrCoffeeShop",
            "HairSalon",
            "AutoRepair",
            "Hotel",
            "LegalService",
            "RealEstateAgent",
            "Plumber",
            "Electrician",
            "HomeAndConstructionBusiness",
            "FoodEstablishment",
            "HealthAndBeautyBusiness",
        ],
    ),
    (PageType::Documentation, 5, &["TechArticle", "APIReference", "SoftwareSourceCode", "SoftwareApplication"]),
    (PageType::Recipe, 8, &["Recipe"]),
    (PageType::Faq, 5, &["FAQPage", "QAPage"]),
    (PageType::Comparison, 4, &["Review", "AggregateRating"]),
    (PageType::Home, 2, &["WebSite"]),
];

/// Phrases in the title or h1 per page type (folded, matched on word boundaries).
const TITLE_HINTS: &[(PageType, u32, &[&str])] = &[
    (
        PageType::Article,
        2,
        &["how to", "guide", "tips", "why", "ways to", "ratgeber", "anleitung", "so gelingt", "tipps", "warum"],
    ),
    (PageType::Product, 2, &["buy", "kaufen", "order online", "in stock", "online bestellen"]),
    (
        PageType::Category,
        2,
        &["shop", "collection", "all products", "sale", "alle produkte", "online shop", "kollektion"],
    ),
    (
        PageType::Service,
        3,
        &[
            "services",
            "agency",
            "consulting",
            "solutions",
            "leistungen",
            "agentur",
            "beratung",
            "dienstleistungen",
            "hire",
        ],
    ),
    (
        PageType::LocalBusiness,
        2,
        &[
            "near me",
            "opening hours",
            "in berlin",
            "in munich",
            "in muenchen",
            "in hamburg",
            "in london",
            "oeffnungszeiten",
            "dentist",
            "zahnarzt",
            "restaurant",
            "bakery",
            "baeckerei",
            "salon",
            "friseur",
        ],
    ),
    (
        PageType::Documentation,
        3,
        &[
            "documentation",
            "docs",
            "api reference",
            "getting started",
            "installation",
            "reference",
            "dokumentation",
            "handbuch",
            "sdk",
            "cli",
        ],
    ),
    (PageType::Recipe, 5, &["recipe", "rezept", "how to make", "homemade", "selbst gemacht", "backen", "kochen"]),
    (PageType::Faq, 5, &["faq", "frequently asked questions", "haeufige fragen", "help center", "hilfe"]),
    (
        PageType::Comparison,
        4,
        &[
            "vs",
            "versus",
            "comparison",
            "compared",
            "review",
            "best",
            "top 10",
            "top 5",
            "alternatives",
            "vergleich",
            "im test",
            "testsieger",
            "beste",
        ],
    ),
    (PageType::Home, 1, &["home", "startseite", "welcome", "willkommen"]),
    (
        PageType::Other,
        5,
        &[
            "privacy policy",
            "datenschutzerklaerung",
            "datenschutz",
            "impressum",
            "imprint",
            "legal notice",
            "terms of service",
            "terms and conditions",
            "terms of use",
            "allgemeine geschaeftsbedingungen",
            "cookie policy",
            "page not found",
            "seite nicht gefunden",
            "log in",
            "sign in",
            "anmelden",
            "shopping cart",
            "your cart",
            "warenkorb",
            "checkout",
            "search results",
            "suchergebnisse",
        ],
    ),
];

/// og:type values per page type.
const OG_HINTS: &[(PageType, u32, &[&str])] = &[
    (PageType::Article, 3, &["article", "blog"]),
    (PageType::Product, 4, &["product", "og product", "product item"]),
    (PageType::LocalBusiness, 3, &["business business", "restaurant restaurant", "place"]),
    (PageType::Home, 1, &["website"]),
];

struct Scores {
    signals: Vec<(PageType, Signal)>,
}

impl Scores {
    fn add(&mut self, t: PageType, source: &'static str, value: impl Into<String>, weight: u32) {
        self.signals.push((t, Signal { source, value: value.into(), weight }));
    }

    fn total(&self, t: PageType) -> u32 {
        self.signals.iter().filter(|(p, _)| *p == t).map(|(_, s)| s.weight).sum()
    }
}

/// Whether folded `text` contains `phrase` as whole words.
fn has_phrase(text: &str, phrase: &str) -> bool {
    let words: Vec<&str> = text.split_whitespace().collect();
    let p: Vec<&str> = phrase.split_whitespace().collect();
    !p.is_empty() && words.windows(p.len()).any(|w| w == p.as_slice())
}

/// Classifies the page described by `facts`: declared, else structure, else words.
pub(crate) fn classify(facts: &Facts) -> Classification {
    let words = by_words(facts);
    let decided = declared(facts)
        .map(|d| (DecidedBy::Declared, d, 95))
        .or_else(|| structure(facts).map(|d| (DecidedBy::Structure, d, 85)));
    let Some((decided_by, (page_type, signal, reason), confidence)) = decided else {
        return words;
    };
    // The word clues that agree with the decision follow the signal that made it.
    let mut signals = vec![signal];
    if words.page_type == page_type && words.decided_by == DecidedBy::Words {
        signals.extend(words.signals);
    }
    Classification { page_type, confidence, signals, decided_by, reason }
}

/// The page type the page declares, with its signal and reason.
fn declared(facts: &Facts) -> Option<(PageType, Signal, String)> {
    let st = &facts.structure;
    for (source, types, place) in
        [("json-ld", &st.json_ld_main, "in JSON-LD"), ("microdata", &st.microdata, "in microdata")]
    {
        for (t, names) in DECLARED {
            let Some((name, n)) = types.iter().find(|(ty, _)| names.contains(&ty.as_str())) else { continue };
            if *n >= 3 && LISTED.contains(t) {
                return Some((
                    PageType::Category,
                    Signal { source, value: format!("{n} x {name}"), weight: 10 },
                    format!("The page declares {n} schema.org {name} items {place}: a listing of them."),
                ));
            }
            return Some((
                *t,
                Signal { source, value: name.clone(), weight: 10 },
                format!("The page declares schema.org @type {name} {place}."),
            ));
        }
    }
    let og = facts.og_type.as_deref().map(|o| o.trim().to_ascii_lowercase())?;
    let (t, _) = OG_DECLARED.iter().find(|(_, values)| values.contains(&og.as_str()))?;
    Some((
        *t,
        Signal { source: "og", value: format!("og:type {og}"), weight: 10 },
        format!("The page declares og:type {og}."),
    ))
}

/// Units of a recipe's quantities (English and German), lower case.
const UNITS: &[&str] = &[
    "g",
    "kg",
    "mg",
    "ml",
    "l",
    "dl",
    "cl",
    "cup",
    "cups",
    "tbsp",
    "tsp",
    "tablespoon",
    "tablespoons",
    "teaspoon",
    "teaspoons",
    "oz",
    "lb",
    "lbs",
    "pinch",
    "cloves",
    "clove",
    "el",
    "tl",
    "prise",
    "msp",
    "becher",
    "pck",
    "packung",
    "stueck",
    "zehen",
    "zehe",
    "bund",
    "dose",
    "scheiben",
];

/// Whether a word is a quantity: `200`, `1/2`, `½`, `1,5`.
fn is_amount(w: &str) -> bool {
    !w.is_empty()
        && w.chars().any(|c| c.is_ascii_digit() || "½¼¾⅓⅔".contains(c))
        && w.chars().all(|c| c.is_ascii_digit() || "½¼¾⅓⅔/.,-".contains(c))
}

/// Quantities with a unit in the text (`200 g`, `2 cups`, `500ml`), with the first one.
fn quantities(text: &str) -> (usize, Option<String>) {
    let words: Vec<String> =
        text.split_whitespace().map(|w| fold(w.trim_matches(|c: char| ",.;:()".contains(c)))).collect();
    let mut n = 0;
    let mut first = None;
    for (i, w) in words.iter().enumerate() {
        let hit = if is_amount(w) {
            words.get(i + 1).is_some_and(|u| UNITS.contains(&u.as_str())).then(|| format!("{w} {}", words[i + 1]))
        } else {
            let digits = w.find(|c: char| !(c.is_ascii_digit() || c == ',' || c == '.')).unwrap_or(w.len());
            (digits > 0 && UNITS.contains(&&w[digits..])).then(|| w.clone())
        };
        if let Some(h) = hit {
            n += 1;
            first.get_or_insert(h);
        }
    }
    (n, first)
}

/// Prices in the text (`€49.90`, `49,90 €`, `$12`, `EUR 12`), with the first one.
fn prices(text: &str) -> (usize, Option<String>) {
    const CUR: &[&str] = &["€", "$", "£", "eur", "usd", "gbp", "chf"];
    let words: Vec<&str> = text.split_whitespace().collect();
    let num = |w: &str| {
        let w = w.trim_end_matches(['*', ',', '.']);
        !w.is_empty()
            && w.chars().next().is_some_and(|c| c.is_ascii_digit())
            && w.chars().all(|c| c.is_ascii_digit() || c == '.' || c == ',' || c == '-' || c == '–')
    };
    let mut n = 0;
    let mut first = None;
    for (i, w) in words.iter().enumerate() {
        let lower = w.to_lowercase();
        let glued = CUR.iter().any(|c| {
            (lower.starts_with(c) && num(&lower[c.len()..]))
                || (lower.ends_with(c) && num(&lower[..lower.len() - c.len()]))
        });
        let spaced = CUR.contains(&lower.as_str()) && i > 0 && num(words[i - 1])
            || CUR.contains(&lower.as_str())
                && words.get(i + 1).is_some_and(|x| num(x))
                && !(i > 0 && num(words[i - 1]));
        if glued || spaced {
            n += 1;
            first.get_or_insert_with(|| {
                if glued {
                    w.to_string()
                } else if i > 0 && num(words[i - 1]) {
                    format!("{} {w}", words[i - 1])
                } else {
                    format!("{w} {}", words[i + 1])
                }
            });
        }
    }
    (n, first)
}

const MONTHS: &[&str] = &[
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "jan",
    "feb",
    "mar",
    "apr",
    "jun",
    "jul",
    "aug",
    "sep",
    "sept",
    "oct",
    "nov",
    "dec",
    "januar",
    "februar",
    "maerz",
    "mai",
    "juni",
    "juli",
    "oktober",
    "dezember",
];

/// A date near the top of the text (`March 3, 2024`, `3. März 2024`, `2024-03-03`,
/// `03.03.2024`).
fn date(text: &str) -> Option<String> {
    let words: Vec<&str> = text.split_whitespace().take(400).collect();
    let year = |w: &str| {
        let w = w.trim_matches(|c: char| !c.is_ascii_digit());
        w.len() == 4 && (w.starts_with("19") || w.starts_with("20"))
    };
    for (i, w) in words.iter().enumerate() {
        let t = w.trim_matches(|c: char| ",.;()|·".contains(c));
        let b = t.as_bytes();
        let iso = b.len() == 10 && b[4] == b'-' && b[7] == b'-' && t[..4].bytes().all(|c| c.is_ascii_digit());
        let dotted = b.len() == 10 && b[2] == b'.' && b[5] == b'.' && t[6..].bytes().all(|c| c.is_ascii_digit());
        if iso || dotted {
            return Some(t.to_string());
        }
        if MONTHS.contains(&fold(t).as_str()) && words[i + 1..].iter().take(2).any(|x| year(x)) {
            let start = i.saturating_sub(1);
            let end = (i + 3).min(words.len());
            return Some(words[start..end].join(" "));
        }
    }
    None
}

/// A byline near the top of the text: `By Jane Doe`, `Von Jana Weber`, `Written by ...`.
fn byline(text: &str) -> Option<String> {
    let words: Vec<&str> = text.split_whitespace().take(400).collect();
    let capital = |w: &str| w.chars().next().is_some_and(char::is_uppercase) && w.chars().count() >= 2;
    words.windows(3).find_map(|w| {
        (matches!(w[0], "By" | "by" | "Von" | "von" | "Author:" | "Autor:" | "Autorin:")
            && capital(w[1])
            && capital(w[2]))
        .then(|| w.join(" "))
    })
}

/// Whether a path is the root of a site: `/`, an index file, or a language's root (`/en/`,
/// `/de-at`).
fn is_root(path: &str) -> bool {
    let p = path.trim_matches('/').to_ascii_lowercase();
    let lang = |s: &str| {
        let mut parts = s.split('-');
        parts.next().is_some_and(|l| l.len() == 2 && l.bytes().all(|b| b.is_ascii_lowercase()))
            && parts.all(|r| r.len() == 2 && r.bytes().all(|b| b.is_ascii_alphabetic()))
            && s.len() <= 5
    };
    let index = |s: &str| matches!(s, "index.html" | "index.htm" | "index.php" | "home");
    match p.split_once('/') {
        None => p.is_empty() || index(&p) || lang(&p),
        Some((first, rest)) => lang(first) && index(rest),
    }
}

/// The page type the page's structure shows, with its signal and reason.
fn structure(facts: &Facts) -> Option<(PageType, Signal, String)> {
    let st = &facts.structure;
    let sig = |value: String| Signal { source: "structure", value, weight: 8 };
    let url = url::Url::parse(&facts.url).ok().filter(|u| u.query().is_none());
    if let Some(path) = url.as_ref().map(url::Url::path).filter(|p| is_root(p)) {
        let reason = if path == "/" {
            "The page is the root of its site (/).".to_string()
        } else {
            format!("The page is the root of its site ({path}).")
        };
        return Some((PageType::Home, sig(format!("site root {path}")), reason));
    }
    let heading = section("ingredients")
        .and_then(|ingredients| facts.headings.iter().find(|h| ingredients.named_by(&tokens(&h.text))));
    let (amounts, first_amount) = quantities(&st.text);
    if let (Some(h), 3.., Some(q)) = (heading, amounts, first_amount) {
        return Some((
            PageType::Recipe,
            sig(format!("ingredient list: {amounts} quantities")),
            format!("The page lists ingredients: {amounts} quantities such as \"{q}\" and a heading \"{}\".", h.text),
        ));
    }
    let (n_prices, first_price) = prices(&st.text);
    let folded = fold(&st.text);
    let buy = [
        "add to cart",
        "add to basket",
        "add to bag",
        "buy now",
        "in den warenkorb",
        "jetzt kaufen",
        "in den einkaufswagen",
    ]
    .into_iter()
    .find(|p| has_phrase(&folded, p));
    let cards = st.linked_subheadings;
    if cards >= 5 && cards * 5 >= st.subheadings * 3 {
        return Some((
            PageType::Category,
            sig(format!("{cards} linked cards")),
            format!(
                "{cards} of its {} subheadings link to pages of their own: the repeated cards of a listing.",
                st.subheadings
            ),
        ));
    }
    if st.ld_offers {
        return Some((
            PageType::Product,
            sig("JSON-LD offers".into()),
            "The page's JSON-LD carries offers with a price.".into(),
        ));
    }
    if let (1..=3, Some(p), Some(b)) = (n_prices, first_price, buy) {
        return Some((
            PageType::Product,
            sig(format!("price {p} and \"{b}\"")),
            format!("The page shows a price ({p}) and a buy button (\"{b}\")."),
        ));
    }
    let by = byline(&st.text).or_else(|| (st.author_link || st.ld_author).then(|| "an author link".to_string()));
    let when = date(&st.text).or_else(|| st.ld_date.then(|| "a publication date".to_string()));
    if let (Some(by), Some(when)) = (by, when) {
        return Some((
            PageType::Article,
            sig("byline and date".into()),
            format!("The page has a byline (\"{by}\") and a date (\"{when}\"), as articles do."),
        ));
    }
    None
}

/// Classification by the words of the URL, title and headings.
fn by_words(facts: &Facts) -> Classification {
    let mut scores = Scores { signals: Vec::new() };

    // URL: path segments and the words of hyphenated slugs.
    let path = url::Url::parse(&facts.url).map(|u| u.path().to_string()).unwrap_or_default();
    let segments: Vec<String> = path.split('/').filter(|s| !s.is_empty()).map(fold).collect();
    if segments.is_empty() && !facts.url.is_empty() {
        scores.add(PageType::Home, "url", "/", 6);
    }
    for (t, w, hints) in URL_HINTS {
        let hit = segments.iter().find_map(|seg| {
            let words: Vec<&str> = seg.split_whitespace().collect();
            hints.iter().find(|h| words.contains(h) && (h.len() >= 2 || words.len() == 1))
        });
        if let Some(h) = hit {
            scores.add(*t, "url", format!("/{h}"), *w);
        }
    }
    // A date in the path is how blogs and newspapers file articles.
    if segments.iter().any(|s| s.len() == 4 && s.starts_with("20") && s.bytes().all(|b| b.is_ascii_digit())) {
        scores.add(PageType::Article, "url", "date in path", 3);
    }

    for (t, w, hints) in JSON_LD_HINTS {
        if let Some(ty) = facts.json_ld_types.iter().find(|ty| hints.contains(&ty.as_str())) {
            scores.add(*t, "json-ld", ty.clone(), *w);
        }
    }

    if let Some(og) = facts.og_type.as_deref() {
        let og = fold(og);
        for (t, w, hints) in OG_HINTS {
            if hints.iter().any(|h| og.trim() == *h) {
                scores.add(*t, "og", format!("og:type {}", og.trim()), *w);
            }
        }
    }

    let title = fold(&format!("{} {}", facts.title, facts.h1));
    for (t, w, hints) in TITLE_HINTS {
        if let Some(h) = hints.iter().find(|h| has_phrase(&title, h)) {
            scores.add(*t, "title", *h, *w);
        }
    }

    // Headings: a heading naming a section of a type's model counts for that type, more when
    // few models share the section (ingredients say recipe; an FAQ says little). One such
    // heading alone is chance ("Find us on:" on a news page, "Make your Firefox your own"):
    // a type needs two of its sections named.
    let heading_tokens: Vec<(String, Vec<String>)> =
        facts.headings.iter().map(|h| (h.text.clone(), tokens(&h.text))).collect();
    for t in PageType::ALL {
        let named = t
            .model()
            .iter()
            .filter_map(|ms| section(ms.key))
            .filter(|sec| heading_tokens.iter().any(|(_, ht)| sec.named_by(ht)))
            .count();
        if named < 2 {
            continue;
        }
        for ms in t.model() {
            let Some(sec) = section(ms.key) else { continue };
            if sec.synonyms.is_empty() {
                continue;
            }
            let sharing = PageType::ALL.iter().filter(|o| o.model().iter().any(|x| x.key == ms.key)).count() as u32;
            let hit = heading_tokens.iter().find(|(_, ht)| sec.named_by(ht));
            if let Some((text, _)) = hit {
                let w = (ms.weight * 2 / sharing.max(1)).max(1);
                scores.add(t, "headings", text.clone(), w);
            }
        }
    }
    // Question headings make an FAQ page, when there are many of them.
    let questions = facts.headings.iter().filter(|h| is_question(&h.text)).count();
    if questions >= 4 {
        scores.add(
            PageType::Faq,
            "headings",
            format!("{questions} question headings"),
            2 + (questions as u32).min(12) / 2,
        );
    }

    // Words: long text with many sections reads as an article; a home page is short on words
    // per heading.
    if facts.word_count >= 800 && facts.headings.len() >= 4 {
        scores.add(PageType::Article, "words", format!("{} words", facts.word_count), 1);
    }

    let mut best = None::<(PageType, u32)>;
    for t in PageType::ALL {
        let total = scores.total(t);
        if total > 0 && best.is_none_or(|(_, b)| total > b) {
            best = Some((t, total));
        }
    }
    let all: u32 = scores.signals.iter().map(|(_, s)| s.weight).sum();
    match best {
        Some((t, total)) => {
            let mut signals: Vec<Signal> =
                scores.signals.into_iter().filter(|(p, _)| *p == t).map(|(_, s)| s).collect();
            signals.sort_by(|a, b| b.weight.cmp(&a.weight).then_with(|| a.cmp(b)));
            let confidence = ((100 * total + all / 2) / all.max(1)).min(100) as u8;
            let clues: Vec<String> = signals
                .iter()
                .take(3)
                .map(|s| {
                    format!(
                        "{} ({} {})",
                        s.value,
                        s.source,
                        if s.weight == 1 { "point".to_string() } else { format!("{} points", s.weight) }
                    )
                })
                .collect();
            let reason =
                format!("Nothing declared or built decided; words did: {} for {}.", clues.join(", "), t.name());
            Classification { page_type: t, confidence, signals, decided_by: DecidedBy::Words, reason }
        }
        None => Classification {
            page_type: PageType::Article,
            confidence: 0,
            signals: vec![Signal { source: "default", value: "no signal matched any page type".into(), weight: 0 }],
            decided_by: DecidedBy::Default,
            reason: "Nothing on the page points to a page type; an article is assumed.".into(),
        },
    }
}

/// Whether a heading is phrased as a question.
pub(crate) fn is_question(text: &str) -> bool {
    const STARTS: &[&str] = &[
        "how", "what", "why", "when", "where", "which", "who", "can", "do", "does", "is", "are", "should", "will",
        "wie", "was", "warum", "wann", "wo", "welche", "welcher", "wer", "kann", "gibt", "muss", "ist", "sind",
    ];
    let t = text.trim();
    t.ends_with('?')
        || (fold(t).split_whitespace().next().is_some_and(|w| STARTS.contains(&w)) && t.split_whitespace().count() >= 3)
}

/// Sections detected by structure rather than wording, used by coverage.
pub(crate) fn structurally_covered(detect: Detect, facts: &Facts) -> Option<String> {
    match detect {
        Detect::Heading => None,
        Detect::Intro => facts.has_intro.then(|| "opening paragraph".to_string()),
        Detect::Body(n) => {
            let count = facts.headings.iter().filter(|h| h.level.is_none_or(|l| l == 2)).count();
            (count >= n).then(|| format!("{count} section headings"))
        }
        Detect::Questions(n) => {
            let count = facts.headings.iter().filter(|h| is_question(&h.text)).count();
            (count >= n).then(|| format!("{count} question headings"))
        }
    }
}
