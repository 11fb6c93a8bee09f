//! Page-type classification from URL, title, headings, structured data and words.
//!
//! Every clue adds points to one page type and is kept as a [`Signal`], so the decision can be
//! shown: the winner is the type with most points, and its signals explain why.

use serde::Serialize;

use crate::facts::Facts;
use crate::model::{section, Detect, PageType};
use crate::normalize::{contains_phrase, fold, tokens};

/// One clue that counted for the winning page type.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "ClassificationSignal"))]
pub struct Signal {
    /// Where it was seen: `url`, `json-ld`, `og`, `title`, `headings`, `words`, `default`.
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
    /// The signals that counted for the winner, strongest first.
    pub signals: Vec<Signal>,
}

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

/// Classifies the page described by `facts`.
pub(crate) fn classify(facts: &Facts) -> Classification {
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
    // few models share the section (ingredients say recipe; an FAQ says little).
    let heading_tokens: Vec<(String, Vec<String>)> =
        facts.headings.iter().map(|h| (h.text.clone(), tokens(&h.text))).collect();
    for t in PageType::ALL {
        for ms in t.model() {
            let Some(sec) = section(ms.key) else { continue };
            if sec.synonyms.is_empty() {
                continue;
            }
            let sharing = PageType::ALL.iter().filter(|o| o.model().iter().any(|x| x.key == ms.key)).count() as u32;
            let hit =
                heading_tokens.iter().find(|(_, ht)| sec.synonyms.iter().any(|syn| contains_phrase(ht, &tokens(syn))));
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
            Classification { page_type: t, confidence, signals }
        }
        None => Classification {
            page_type: PageType::Article,
            confidence: 0,
            signals: vec![Signal { source: "default", value: "no signal matched any page type".into(), weight: 0 }],
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
