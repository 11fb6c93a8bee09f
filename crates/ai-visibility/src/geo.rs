//! geo-check: ask an AI search engine the questions people ask about a site's topic and
//! count how often the site shows up in the answers (`/api/geo-check`).
//!
//! The queries come from the page alone ([`generate_queries`]), so the same page always
//! asks the same twelve questions. The engine is any [`AiSearchProvider`]. This module is
//! pure: asking a provider over the network (`OpenAiCompatibleProvider`, `geo_check`) lives
//! in `provider.rs`, behind the crate's `provider` feature.

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use audit_core::Page;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use url::Url;

use crate::entity::{brand_name, domain_label, entity_nodes, node_types, normalize_domain, short_type};

/// Number of queries a geo-check asks: the documented score is over twelve answers.
pub const GEO_QUERY_COUNT: usize = 12;
/// Queries in flight at once.
pub const DEFAULT_GEO_CONCURRENCY: usize = 4;
/// Longest wait for one provider answer.
pub const DEFAULT_PROVIDER_TIMEOUT: Duration = Duration::from_secs(30);
/// Longest time for a whole geo-check.
pub const DEFAULT_GEO_TOTAL_TIMEOUT: Duration = Duration::from_secs(90);

/// What a query is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum QueryKind {
    /// About the brand itself.
    Brand,
    /// About the page's topic, without naming the brand.
    Topic,
    /// About the kind of business or page, without naming the brand.
    Category,
    /// The brand against its alternatives.
    Comparison,
    /// A how-to question on the topic.
    HowTo,
}

/// One generated query.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GeoQuery {
    /// The question as sent.
    pub query: String,
    /// What it is about.
    pub kind: QueryKind,
}

/// How many queries of each kind, in order; sums to [`GEO_QUERY_COUNT`].
const KIND_COUNTS: [(QueryKind, usize); 5] = [
    (QueryKind::Brand, 3),
    (QueryKind::Topic, 3),
    (QueryKind::Category, 2),
    (QueryKind::Comparison, 2),
    (QueryKind::HowTo, 2),
];

/// Templates per kind, first choice first; later ones replace duplicates. `{brand}`,
/// `{topic}` and `{category}` are filled in.
fn templates(kind: QueryKind) -> &'static [&'static str] {
    match kind {
        QueryKind::Brand => &[
            "What is {brand}?",
            "{brand} reviews",
            "Is {brand} a good choice for {topic}?",
            "What does {brand} offer?",
            "{brand} pricing",
        ],
        QueryKind::Topic => &[
            "{topic}",
            "What should I know about {topic}?",
            "Top recommendations for {topic}",
            "{topic} tips",
            "Who are the experts on {topic}?",
        ],
        QueryKind::Category => &[
            "Which {category} do experts recommend?",
            "Top rated {category} websites",
            "Most trusted {category} brands",
            "{category} comparison",
        ],
        QueryKind::Comparison => &[
            "{brand} vs alternatives",
            "best {category} like {brand}",
            "alternatives to {brand}",
            "{brand} compared to competitors",
        ],
        QueryKind::HowTo => &[
            "How to choose the right {category}",
            "How to get started with {topic}",
            "How does {topic} work?",
            "How to compare {category} options",
        ],
    }
}

/// Words dropped from topic keywords (English and German function words).
const STOP_WORDS: &[&str] = &[
    "a",
    "an",
    "the",
    "and",
    "or",
    "of",
    "for",
    "to",
    "in",
    "on",
    "at",
    "by",
    "with",
    "from",
    "your",
    "our",
    "my",
    "you",
    "we",
    "is",
    "are",
    "be",
    "it",
    "its",
    "this",
    "that",
    "these",
    "those",
    "as",
    "about",
    "home",
    "welcome",
    "page",
    "official",
    "site",
    "website",
    "der",
    "die",
    "das",
    "und",
    "oder",
    "für",
    "mit",
    "von",
    "zu",
    "im",
    "in",
    "ein",
    "eine",
    "einen",
    "den",
    "dem",
    "des",
    "auf",
    "ihr",
    "ihre",
    "unser",
    "unsere",
    "willkommen",
    "startseite",
];
/// Most keywords kept for the topic.
const MAX_TOPIC_WORDS: usize = 5;

/// Characters of the brand and of the topic phrase a query is built from, at most: past it
/// the text is cut, with a visible `…`. A page names itself with whatever it likes (an
/// `og:site_name` of a megabyte, a heading of thousands of words), and each of the twelve
/// queries repeats the brand or the topic: unbounded, they would be sent to the provider,
/// sent back and cached as they are (docs/SECURITY.md, "What one caller can start and
/// store"). A name or phrase that long is none a searcher types.
pub const MAX_GEO_PART_CHARS: usize = 100;

/// Characters of one query at most: the longest template around a brand and a topic (or a
/// category as long as the topic), each within [`MAX_GEO_PART_CHARS`] and its `…`.
pub const MAX_GEO_QUERY_CHARS: usize = 300;

/// `text` cut to [`MAX_GEO_PART_CHARS`] characters, with a visible `…` when cut.
fn cut_part(text: &str) -> String {
    match text.char_indices().nth(MAX_GEO_PART_CHARS) {
        Some((at, _)) => format!("{}…", text[..at].trim_end()),
        None => text.to_owned(),
    }
}

/// Whether `brand` is within [`MAX_GEO_PART_CHARS`], so that the queries name it whole and
/// an answer can name it back: only such a brand is counted in the answers (by `geo_check`,
/// behind the `provider` feature).
#[cfg_attr(not(feature = "provider"), allow(dead_code))]
pub(crate) fn brand_is_whole(brand: &str) -> bool {
    brand.chars().nth(MAX_GEO_PART_CHARS).is_none()
}

/// Schema.org types and the category phrase a searcher would use for them. Generic
/// types (Organization, Person, WebPage) name no category and are skipped.
const CATEGORY_TYPES: &[(&str, &str)] = &[
    ("SoftwareApplication", "software"),
    ("WebApplication", "web app"),
    ("MobileApplication", "mobile app"),
    ("Product", "product"),
    ("Restaurant", "restaurant"),
    ("FoodEstablishment", "restaurant"),
    ("Hotel", "hotel"),
    ("LodgingBusiness", "hotel"),
    ("OnlineStore", "online shop"),
    ("Store", "shop"),
    ("Dentist", "dentist"),
    ("Physician", "doctor"),
    ("MedicalClinic", "clinic"),
    ("LegalService", "law firm"),
    ("Attorney", "lawyer"),
    ("RealEstateAgent", "real estate agent"),
    ("TravelAgency", "travel agency"),
    ("FinancialService", "financial service"),
    ("AutomotiveBusiness", "car service"),
    ("HomeAndConstructionBusiness", "contractor"),
    ("HealthAndBeautyBusiness", "beauty salon"),
    ("ProfessionalService", "service provider"),
    ("LocalBusiness", "local business"),
    ("Course", "online course"),
    ("EducationalOrganization", "school"),
    ("Recipe", "recipe site"),
    ("Event", "event"),
    ("JobPosting", "job board"),
    ("Book", "book"),
    ("NewsArticle", "news site"),
    ("NewsMediaOrganization", "news site"),
    ("BlogPosting", "blog"),
    ("Blog", "blog"),
    ("NGO", "nonprofit"),
];

fn category_for(t: &str) -> Option<&'static str> {
    let t = short_type(t);
    CATEGORY_TYPES.iter().find(|(name, _)| name.eq_ignore_ascii_case(t)).map(|(_, c)| *c)
}

/// The page's category: the first typed JSON-LD node (entities first) or microdata
/// item with a known category.
fn page_category(page: &Page) -> Option<&'static str> {
    let entity = entity_nodes(page).into_iter().flat_map(node_types).find_map(category_for);
    entity
        .or_else(|| page.json_ld_types().into_iter().find_map(category_for))
        .or_else(|| page.microdata_types.iter().find_map(|t| category_for(t)))
}

/// Splits a title at the separators sites put between page name and brand.
fn title_parts(title: &str) -> Vec<&str> {
    let mut parts = vec![title];
    for sep in [" | ", " - ", " – ", " — ", " · ", " :: ", ": ", " » "] {
        parts = parts.iter().flat_map(|p| p.split(sep)).map(str::trim).filter(|p| !p.is_empty()).collect();
    }
    parts
}

/// The topic phrase: the h1 (else the title, brand part removed) without the brand's words
/// and without leading or trailing function words, cut after [`MAX_TOPIC_WORDS`] content
/// words. Function words inside the phrase stay, so the queries read as a person would
/// write them ("pizza in Berlin", "software for teams", not "pizza berlin"). The first
/// word is lower-cased unless it is an acronym; the others keep their case (names).
fn topic(page: &Page, brand: &str) -> String {
    let brand_lc = brand.to_lowercase();
    let source = if !page.h1().trim().is_empty() {
        page.h1().to_owned()
    } else {
        let parts = title_parts(&page.title);
        let others: Vec<&str> = parts.iter().copied().filter(|p| !p.to_lowercase().contains(&brand_lc)).collect();
        let pool = if others.is_empty() { parts } else { others };
        pool.into_iter().max_by_key(|p| p.len()).unwrap_or("").to_owned()
    };
    let brand_words: Vec<String> = brand_lc.split_whitespace().map(str::to_owned).collect();
    let is_stop = |w: &str| STOP_WORDS.contains(&w.to_lowercase().as_str());
    let words: Vec<&str> = source
        .split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '\''))
        .map(|w| w.trim_matches(['-', '\'']))
        .filter(|w| !w.is_empty() && !brand_words.contains(&w.to_lowercase()))
        .collect();
    let mut phrase: Vec<&str> = Vec::new();
    let mut content = 0;
    for w in words.into_iter().skip_while(|w| is_stop(w)) {
        if !is_stop(w) {
            if content == MAX_TOPIC_WORDS {
                break;
            }
            content += 1;
        }
        phrase.push(w);
    }
    while phrase.last().is_some_and(|w| is_stop(w)) {
        phrase.pop();
    }
    if let Some(first) = phrase.first_mut() {
        let acronym = first.chars().count() > 1 && first.chars().all(|c| !c.is_lowercase());
        if !acronym {
            return std::iter::once(first.to_lowercase())
                .chain(phrase[1..].iter().map(|w| (*w).to_owned()))
                .collect::<Vec<_>>()
                .join(" ");
        }
    }
    phrase.join(" ")
}

/// Upper-cases the first letter (`acme` -> `Acme`).
fn capitalize(s: &str) -> String {
    let mut chars = s.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// The brand a geo-check asks and counts: og:site_name or the JSON-LD entity name, else
/// the domain's label (`acme` for `www.acme.co.uk`), capitalised.
pub(crate) fn geo_brand(page: &Page, domain: &str) -> String {
    brand_name(page).unwrap_or_else(|| {
        let host = if domain.trim().is_empty() {
            page.parsed_url().and_then(|u| u.host_str().map(str::to_owned)).unwrap_or_default()
        } else {
            domain.to_owned()
        };
        capitalize(&domain_label(&host))
    })
}

/// The twelve queries of a geo-check for `page` on `domain`: 3 brand, 3 topic,
/// 2 category, 2 comparison and 2 how-to queries, in that order, without duplicates
/// (case-insensitive). Deterministic: the same page always gives the same queries.
///
/// Brand: og:site_name, the JSON-LD entity name, else the domain label. Topic: the h1
/// (else the title without the brand) as a phrase of up to five content words. Category: the
/// JSON-LD or microdata type's everyday name (`Restaurant` -> `restaurant`), else the
/// topic. Brand and topic are cut at [`MAX_GEO_PART_CHARS`] (with a visible `…`), so each
/// query is at most [`MAX_GEO_QUERY_CHARS`] characters.
pub fn generate_queries(page: &Page, domain: &str) -> Vec<GeoQuery> {
    let brand = cut_part(&geo_brand(page, domain));
    let brand = if brand.is_empty() { "this website".to_owned() } else { brand };
    let topic = match cut_part(&topic(page, &brand)) {
        t if t.is_empty() => page_category(page).map_or_else(|| brand.clone(), str::to_owned),
        t => t,
    };
    let category = page_category(page).map_or_else(|| topic.clone(), str::to_owned);
    let fill = |t: &str| {
        let q = t.replace("{brand}", &brand).replace("{topic}", &topic).replace("{category}", &category);
        let q = audit_core::text::collapse(&q);
        capitalize(&q)
    };
    let mut out: Vec<GeoQuery> = Vec::with_capacity(GEO_QUERY_COUNT);
    for (kind, count) in KIND_COUNTS {
        let mut taken = 0;
        let candidates: Vec<String> = templates(kind).iter().map(|t| fill(t)).collect();
        for q in &candidates {
            if taken == count {
                break;
            }
            if !out.iter().any(|o| o.query.eq_ignore_ascii_case(q)) {
                out.push(GeoQuery { query: q.clone(), kind });
                taken += 1;
            }
        }
        // When brand, topic and category coincide, templates can run out of distinct
        // texts; the count is part of the interface, so repeat rather than ask fewer.
        for q in candidates.iter().cycle().take(count - taken) {
            out.push(GeoQuery { query: q.clone(), kind });
        }
    }
    out
}

/// An answer from an AI search engine.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProviderAnswer {
    /// The answer text.
    pub text: String,
    /// URLs the engine cited, in order, without duplicates.
    pub citations: Vec<String>,
}

/// A failure to get an answer from the AI search provider. The server answers every
/// variant with 502 `upstream_error` ([`ProviderError::code`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ProviderError {
    /// No answer within the time limit (one query's, or the whole check's).
    #[error("ai search provider did not answer in time")]
    Timeout,
    /// The provider answered with a status other than 2xx.
    #[error("ai search provider answered with http status {status}")]
    Status {
        /// The HTTP status.
        status: u16,
    },
    /// The answer was not the JSON a chat-completions interface sends.
    #[error("ai search provider sent a malformed answer: {0}")]
    Malformed(String),
    /// The provider could not be reached (refused connection, DNS, TLS, blocked address).
    /// Only the `provider` feature talks to a provider over the network, so only it has
    /// this variant (the enum is `non_exhaustive`, so other crates match it with a
    /// wildcard either way).
    #[cfg(feature = "provider")]
    #[error("ai search provider unreachable: {0}")]
    Transport(fetch::Error),
    /// The provider settings are unusable (base URL that does not parse, bad key bytes).
    #[error("ai search provider misconfigured: {0}")]
    Config(String),
}

impl ProviderError {
    /// The API error code (docs/API.md, "POST /api/geo-check"): always `upstream_error`.
    pub fn code(&self) -> &'static str {
        "upstream_error"
    }

    /// The HTTP status the server answers with: always 502.
    pub fn http_status(&self) -> u16 {
        502
    }

    /// Whether the provider ran out of time.
    pub fn is_timeout(&self) -> bool {
        matches!(self, ProviderError::Timeout)
    }

    /// Whether the provider answered with a non-2xx status.
    pub fn is_status(&self) -> bool {
        matches!(self, ProviderError::Status { .. })
    }

    /// Whether the provider's answer could not be read.
    pub fn is_malformed(&self) -> bool {
        matches!(self, ProviderError::Malformed(_))
    }
}

/// The future [`AiSearchProvider::ask`] returns; boxed so providers can be used as
/// `dyn AiSearchProvider` (the server holds one chosen at start-up).
pub type ProviderFuture<'a> = Pin<Box<dyn Future<Output = Result<ProviderAnswer, ProviderError>> + Send + 'a>>;

/// An AI search engine that answers one question at a time.
pub trait AiSearchProvider: Send + Sync {
    /// Asks one question.
    fn ask<'a>(&'a self, query: &'a str) -> ProviderFuture<'a>;
}

/// Reads a chat-completions answer: the text of `choices[0].message.content` (a string,
/// or a list of `{text}` parts) and the citations wherever the provider puts them —
/// top-level `citations` (Perplexity), `choices[0].message.annotations[].url_citation.url`
/// (OpenAI search models) and `search_results[].url`.
// Without the `provider` feature nothing in the crate reads a provider's answer, but the
// reading is pure and its tests stay here, with the other pure parts of the geo-check.
#[cfg_attr(not(feature = "provider"), allow(dead_code))]
pub(crate) fn parse_answer(bytes: &[u8]) -> Result<ProviderAnswer, ProviderError> {
    let v: Value = serde_json::from_slice(bytes).map_err(|e| ProviderError::Malformed(format!("not json: {e}")))?;
    let message =
        v.pointer("/choices/0/message").ok_or_else(|| ProviderError::Malformed("no choices[0].message".into()))?;
    let text = match message.get("content") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => {
            parts.iter().filter_map(|p| p.get("text").and_then(Value::as_str)).collect::<Vec<_>>().join("\n")
        }
        // A refusal or tool call carries no content; that is an answer without a mention.
        Some(Value::Null) => String::new(),
        _ => return Err(ProviderError::Malformed("choices[0].message.content is missing".into())),
    };
    let mut citations: Vec<String> = Vec::new();
    let mut add = |u: Option<&str>| {
        if let Some(u) = u.map(str::trim).filter(|u| !u.is_empty()) {
            if !citations.iter().any(|c| c == u) {
                citations.push(u.to_owned());
            }
        }
    };
    let url_of = |item: &Value| item.as_str().or_else(|| item.get("url").and_then(Value::as_str)).map(str::to_owned);
    for item in v.get("citations").and_then(Value::as_array).into_iter().flatten() {
        add(url_of(item).as_deref());
    }
    for a in message.get("annotations").and_then(Value::as_array).into_iter().flatten() {
        add(a.pointer("/url_citation/url").or_else(|| a.get("url")).and_then(Value::as_str));
    }
    for item in v.get("search_results").and_then(Value::as_array).into_iter().flatten() {
        add(item.get("url").and_then(Value::as_str));
    }
    Ok(ProviderAnswer { text, citations })
}

/// Whether the bytes at `start..end` of `hay` stand alone as a word (for a domain, also
/// not glued into a longer host: `acme.com.evil.net` does not mention `acme.com`).
fn bounded(hay: &str, start: usize, end: usize, host_like: bool) -> bool {
    let before = hay[..start].chars().next_back();
    let mut after = hay[end..].chars();
    let next = after.next();
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let before_ok = before.is_none_or(|c| !(word(c) || host_like && c == '-'));
    let after_ok = match next {
        None => true,
        Some(c) if word(c) => false,
        Some('-') if host_like => false,
        // `acme.community` or `acme.com.evil.net`: part of a longer host, not a mention.
        Some('.') => !after.next().is_some_and(word),
        Some(_) => true,
    };
    before_ok && after_ok
}

/// Byte ranges of the word-bounded, case-insensitive occurrences of `needle` in `hay`
/// (both already lower-case).
fn occurrences(hay: &str, needle: &str, host_like: bool) -> Vec<(usize, usize)> {
    if needle.is_empty() {
        return Vec::new();
    }
    hay.match_indices(needle).map(|(i, m)| (i, i + m.len())).filter(|&(s, e)| bounded(hay, s, e, host_like)).collect()
}

/// Mentions of a site in an answer: word-bounded, case-insensitive occurrences of the
/// domain or of the brand in the text (a brand inside a domain mention counts once),
/// plus cited URLs whose host is the domain or one of its subdomains.
pub fn count_mentions(answer: &ProviderAnswer, domain: &str, brand: Option<&str>) -> usize {
    let domain = normalize_domain(domain);
    let text = answer.text.to_lowercase();
    let domain_hits = occurrences(&text, &domain, true);
    let brand_hits = brand
        .map(|b| b.trim().to_lowercase())
        .filter(|b| b.chars().count() >= MIN_BRAND_CHARS)
        .map(|b| occurrences(&text, &b, false))
        .unwrap_or_default();
    let inside_domain = |&(s, e): &(usize, usize)| domain_hits.iter().any(|&(ds, de)| s >= ds && e <= de);
    let brand_only = brand_hits.iter().filter(|h| !inside_domain(h)).count();
    let suffix = format!(".{domain}");
    let cited = answer
        .citations
        .iter()
        .filter_map(|c| Url::parse(c).ok())
        .filter(|u| {
            u.host_str()
                .map(|h| h.trim_end_matches('.').to_ascii_lowercase())
                .is_some_and(|h| !domain.is_empty() && (h == domain || h.ends_with(&suffix)))
        })
        .count();
    domain_hits.len() + brand_only + cited
}

/// Brands shorter than this are not counted in answer text: two letters match too much.
const MIN_BRAND_CHARS: usize = 3;

/// Limits of one geo-check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GeoOptions {
    /// Queries in flight at once (at least 1).
    pub concurrency: usize,
    /// Longest wait for one answer.
    pub query_timeout: Duration,
    /// Longest time for the whole check.
    pub total_timeout: Duration,
}

impl Default for GeoOptions {
    fn default() -> GeoOptions {
        GeoOptions {
            concurrency: DEFAULT_GEO_CONCURRENCY,
            query_timeout: DEFAULT_PROVIDER_TIMEOUT,
            total_timeout: DEFAULT_GEO_TOTAL_TIMEOUT,
        }
    }
}

/// One query's outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(deny_unknown_fields))]
pub struct GeoQueryResult {
    /// The question asked.
    #[cfg_attr(feature = "schema", schemars(length(min = 1)))]
    pub query: String,
    /// What it is about (an additive field of the documented shape).
    pub kind: QueryKind,
    /// The site was mentioned at least once.
    pub found: bool,
    /// How often ([`count_mentions`]).
    pub mentions: usize,
}

/// The `/api/geo-check` result, `{domain, visibilityScore, queries[{query, found, mentions}]}`
/// (docs/API.md, "POST /api/geo-check").
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GeoReport {
    /// The checked domain, lower-case, without `www.`.
    pub domain: String,
    /// Share of queries in which the site was found, in percent, rounded.
    pub visibility_score: u8,
    /// Every query in generation order.
    pub queries: Vec<GeoQueryResult>,
}

/// The answer of `POST /api/geo-check` (docs/API.md, "POST /api/geo-check"): a
/// [`GeoReport`] of the page `url` in the envelope of every answer, as sent and as cached.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "GeoCheckResult", deny_unknown_fields))]
#[serde(rename_all = "camelCase")]
pub struct GeoCheckResult {
    #[cfg_attr(feature = "schema", schemars(extend("const" = true)))]
    pub ok: bool,
    #[serde(rename = "api_version")]
    #[cfg_attr(feature = "schema", schemars(extend("const" = "v1")))]
    pub api_version: String,
    /// The page the queries were generated from.
    pub url: String,
    /// The checked domain, lower-case, without `www.`.
    pub domain: String,
    /// Share of queries in which the site was found, in percent, rounded.
    #[cfg_attr(feature = "schema", schemars(range(max = 100)))]
    pub visibility_score: u8,
    /// Every query in generation order.
    #[cfg_attr(feature = "schema", schemars(length(min = GEO_QUERY_COUNT, max = GEO_QUERY_COUNT)))]
    pub queries: Vec<GeoQueryResult>,
    /// When the provider was asked.
    #[cfg_attr(feature = "schema", schemars(extend("format" = "date-time")))]
    pub checked_at: String,
    /// Whether the answer is the domain's cached one.
    #[serde(default)]
    pub cached: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use audit_core::HttpFacts;

    fn page(url: &str, html: &str) -> Page {
        Page::parse(url, html.as_bytes(), HttpFacts::default())
    }

    fn check_queries(html: &str, domain: &str, expected: &[(&str, QueryKind)]) {
        let p = page(&format!("https://{domain}/"), html);
        let q = generate_queries(&p, domain);
        assert_eq!(q.len(), GEO_QUERY_COUNT);
        assert_eq!(q, generate_queries(&p, domain), "deterministic");
        let kinds: Vec<QueryKind> = q.iter().map(|q| q.kind).collect();
        let mut want = Vec::new();
        for (kind, n) in KIND_COUNTS {
            want.extend(std::iter::repeat_n(kind, n));
        }
        assert_eq!(kinds, want);
        for (query, kind) in expected {
            assert!(q.iter().any(|g| g.query == *query && g.kind == *kind), "{query:?} ({kind:?}) in {q:#?}");
        }
    }

    #[test]
    fn a_brand_and_a_topic_past_their_bound_are_cut_visibly() {
        // A site name of 200,000 characters and a heading of 50,000 function words around
        // five content words of 10,000 letters each: every query within its bound, the cut
        // shown.
        let brand = "Brand".repeat(40_000);
        let heading = format!("{} {}", "the ".repeat(50_000), vec!["w".repeat(10_000); 5].join(" of the "));
        let html = format!(r#"<meta property="og:site_name" content="{brand}"><h1>{heading}</h1>"#);
        let p = page("https://long.example/", &html);
        let queries = generate_queries(&p, "long.example");
        assert_eq!(queries.len(), GEO_QUERY_COUNT);
        for q in &queries {
            assert!(q.query.chars().count() <= MAX_GEO_QUERY_CHARS, "{} characters", q.query.chars().count());
            assert!(q.query.contains('…'), "{}", q.query);
        }
        let first = &queries[0].query;
        assert!(first.starts_with("What is Brand") && first.ends_with("…?"), "{first}");
        // A brand within the bound is kept whole (and counted in answers); one past it is not.
        assert!(
            brand_is_whole(&"b".repeat(MAX_GEO_PART_CHARS)) && !brand_is_whole(&"b".repeat(MAX_GEO_PART_CHARS + 1))
        );
        assert_eq!(cut_part(&"b".repeat(MAX_GEO_PART_CHARS)), "b".repeat(MAX_GEO_PART_CHARS));
        assert_eq!(cut_part(&"é".repeat(MAX_GEO_PART_CHARS + 1)), format!("{}…", "é".repeat(MAX_GEO_PART_CHARS)));
    }

    #[test]
    fn queries_from_brand_topic_and_category() {
        let html = r#"<html><head><title>Best Pizza in Town | Luigi's</title><meta property="og:site_name" content="Luigi's">
            <script type="application/ld+json">{"@type":"Restaurant","name":"Luigi's Pizzeria"}</script></head>
            <body><h1>The best wood-fired pizza in Berlin</h1></body></html>"#;
        check_queries(
            html,
            "luigis.example",
            &[
                ("What is Luigi's?", QueryKind::Brand),
                ("Luigi's reviews", QueryKind::Brand),
                ("Best wood-fired pizza in Berlin", QueryKind::Topic),
                ("Which restaurant do experts recommend?", QueryKind::Category),
                ("Luigi's vs alternatives", QueryKind::Comparison),
                ("Best restaurant like Luigi's", QueryKind::Comparison),
                ("How to choose the right restaurant", QueryKind::HowTo),
                ("How to get started with best wood-fired pizza in Berlin", QueryKind::HowTo),
            ],
        );
        // No metadata at all: the domain label is the brand, the title the topic.
        check_queries(
            "<title>Acme - Project planning software for teams</title>",
            "www.acme.co.uk",
            &[
                ("What is Acme?", QueryKind::Brand),
                ("Project planning software for teams", QueryKind::Topic),
                ("Best project planning software for teams like Acme", QueryKind::Comparison),
            ],
        );
        // Function words inside the phrase stay; five content words at most, no dangling "to".
        check_queries(
            r#"<meta property="og:site_name" content="Oakwright"><h1>Solid oak tables, made to order by Oakwright</h1>"#,
            "oakwright.example",
            &[("Is Oakwright a good choice for solid oak tables made to order?", QueryKind::Brand)],
        );
        check_queries(
            "<h1>The 10 best ways to learn Rust programming for beginners in 2026</h1>",
            "rustguide.example",
            &[("How to get started with 10 best ways to learn Rust", QueryKind::HowTo)],
        );
        check_queries(
            "<h1>SEO checklist for shops</h1>",
            "x.example",
            &[("What should I know about SEO checklist for shops?", QueryKind::Topic)],
        );
        // Brand, topic and category all coincide: still twelve queries.
        check_queries("", "x.example", &[("What is X?", QueryKind::Brand)]);
        check_queries("<h1>   </h1><title></title>", "", &[]);
    }

    fn answer(text: &str, citations: &[&str]) -> ProviderAnswer {
        ProviderAnswer { text: text.to_owned(), citations: citations.iter().map(|s| s.to_string()).collect() }
    }

    #[test]
    fn mentions_are_word_bounded() {
        let cases: &[(&str, &[&str], Option<&str>, usize)] = &[
            ("Try Acme (acme.com) or ACME.COM.", &[], Some("Acme"), 3),
            ("Visit www.acme.com today", &[], Some("Acme"), 1),
            ("acmeish and notacme.com and acme.com.evil.net and acme.community", &[], Some("Acme"), 0),
            (
                "Nothing here",
                &["https://docs.acme.com/x", "https://acme.com/", "https://evilacme.com/", "not a url"],
                Some("Acme"),
                2,
            ),
            ("Acme", &[], None, 0),
            ("AI is fine", &[], Some("AI"), 0),
            ("sub-acme.com is not acme.com", &[], None, 1),
            ("Luigi's is great; luigi's again", &[], Some("Luigi's"), 2),
        ];
        for (text, cites, brand, n) in cases {
            assert_eq!(count_mentions(&answer(text, cites), "acme.com", *brand), *n, "{text:?} {cites:?} {brand:?}");
        }
        assert_eq!(count_mentions(&answer("x", &["https://acme.com/"]), "", None), 0);
    }

    #[test]
    fn answers_are_read_from_every_citation_format() {
        type Expected = Result<(&'static str, &'static [&'static str]), ()>;
        let cases: &[(&str, Expected)] = &[
            (
                r#"{"choices":[{"message":{"content":"Hi"}}],"citations":["https://a.example/","https://a.example/"]}"#,
                Ok(("Hi", &["https://a.example/"])),
            ),
            (
                r#"{"choices":[{"message":{"content":"Hi","annotations":[{"type":"url_citation","url_citation":{"url":"https://b.example/"}}]}}]}"#,
                Ok(("Hi", &["https://b.example/"])),
            ),
            (
                r#"{"choices":[{"message":{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}}],"search_results":[{"url":"https://c.example/"}]}"#,
                Ok(("a\nb", &["https://c.example/"])),
            ),
            (
                r#"{"choices":[{"message":{"content":null}}],"citations":[{"url":"https://d.example/"}]}"#,
                Ok(("", &["https://d.example/"])),
            ),
            (r#"{"choices":[]}"#, Err(())),
            (r#"{"choices":[{"message":{}}]}"#, Err(())),
            (r#"{"choices":[{"message":{"content":5}}]}"#, Err(())),
            ("<html>oops</html>", Err(())),
            ("", Err(())),
        ];
        for (body, expected) in cases {
            let got = parse_answer(body.as_bytes());
            match (got, expected) {
                (Ok(a), Ok((text, cites))) => {
                    assert_eq!(a.text, *text, "{body}");
                    assert_eq!(a.citations, *cites, "{body}");
                }
                (Err(e), Err(())) => assert!(e.is_malformed(), "{body}: {e}"),
                (got, _) => panic!("{body}: unexpected {got:?}"),
            }
        }
    }
}
