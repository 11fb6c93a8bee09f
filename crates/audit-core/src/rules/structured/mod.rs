//! Rules of this category: one file each.

mod structured_data_invalid_json;
mod structured_data_missing;
mod structured_data_no_context;
mod structured_data_recommended_properties;
mod structured_data_required_properties;
mod structured_data_retired_rich_result;

pub use structured_data_invalid_json::StructuredDataInvalidJson;
pub use structured_data_missing::StructuredDataMissing;
pub use structured_data_no_context::StructuredDataNoContext;
pub use structured_data_recommended_properties::StructuredDataRecommendedProperties;
pub use structured_data_required_properties::StructuredDataRequiredProperties;

use serde_json::{json, Map, Value};

use crate::fix::{json_ld_script, words_from_slug, Difficulty, FixCtx, FixKind, FixTemplate};
use crate::rules::util::trim_at_word;

/// The JSON-LD type that fits the page best, with its real name and URL.
fn main_json_ld(c: &FixCtx) -> Value {
    let types: Vec<String> =
        c.page.map(|p| p.json_ld_types().into_iter().map(str::to_string).collect()).unwrap_or_default();
    let og_type = c.page.and_then(|p| p.og.get("og:type").cloned()).unwrap_or_default().to_lowercase();
    let path = c.url.path().to_lowercase();
    let name = c.topic_or_todo("name of what the page is about");
    let url = c.url_or_todo();
    let site = c.site_name_or_todo();
    let origin = c.origin_or_todo();
    let description = c.description_or_written();
    let questions: Vec<String> = c
        .page
        .map(|p| {
            p.headings
                .iter()
                .filter(|h| h.level >= 2 && h.text.trim_end().ends_with('?'))
                .map(|h| h.text.clone())
                .collect()
        })
        .unwrap_or_default();
    let has = |t: &str| types.iter().any(|x| x == t);
    let mut v = if has("Product") || og_type.starts_with("product") || path.contains("/product") || path.contains("/p/")
    {
        json!({"@context": "https://schema.org", "@type": "Product", "name": name, "url": url,
               "offers": offer(&url)})
    } else if has("LocalBusiness")
        || path.contains("/contact")
        || path.contains("/kontakt")
        || path.contains("/location")
    {
        json!({"@context": "https://schema.org", "@type": "LocalBusiness", "name": site, "url": origin, "address": address()})
    } else if questions.len() >= 3 {
        let items: Vec<Value> = questions
            .iter()
            .take(20)
            .map(
                |q| json!({"@type": "Question", "name": q, "acceptedAnswer": {"@type": "Answer", "text": TODO_ANSWER}}),
            )
            .collect();
        json!({"@context": "https://schema.org", "@type": "FAQPage", "mainEntity": items})
    } else if c.url.path() == "/" {
        json!({"@context": "https://schema.org", "@type": "Organization", "name": site, "url": origin})
    } else {
        let mut a = json!({"@context": "https://schema.org", "@type": "Article", "headline": trim_at_word(&name, 110), "url": url,
                           "mainEntityOfPage": url, "publisher": {"@type": "Organization", "name": site}});
        if let Some(img) = c.first_image() {
            a["image"] = json!(img);
        }
        a
    };
    if let (Some(d), Some(obj)) = (description, v.as_object_mut()) {
        if obj.get("@type").and_then(Value::as_str) != Some("FAQPage") {
            obj.insert("description".into(), json!(d));
        }
    }
    v
}

/// Where an answer of an FAQ goes: the page shows it, the template cannot know it.
const TODO_ANSWER: &str = "TODO: the answer shown on the page";

/// An offer whose price, currency and availability only the shop knows.
fn offer(url: &str) -> Value {
    json!({"@type": "Offer", "url": url, "priceCurrency": "TODO: currency code, e.g. EUR", "price": "TODO: the price shown on the page, e.g. 49.90",
           "availability": "TODO: https://schema.org/InStock or https://schema.org/OutOfStock"})
}

/// A postal address for the owner to fill in.
fn address() -> Value {
    json!({"@type": "PostalAddress", "streetAddress": "TODO: street and number", "addressLocality": "TODO: town or city",
           "postalCode": "TODO: postal code", "addressCountry": "TODO: country code, e.g. DE"})
}

/// A BreadcrumbList from the URL path, when the page is below the home page.
fn breadcrumbs(c: &FixCtx) -> Option<Value> {
    let segments: Vec<String> = c.url.path_segments()?.filter(|s| !s.is_empty()).map(str::to_string).collect();
    if segments.is_empty() || !c.known_url {
        return None;
    }
    let mut items =
        vec![json!({"@type": "ListItem", "position": 1, "name": "Home", "item": format!("{}/", c.origin())})];
    let mut path = String::new();
    for (i, seg) in segments.iter().enumerate() {
        path.push('/');
        path.push_str(seg);
        let last = i + 1 == segments.len();
        let name = if last {
            c.topic_or_todo("name of the page")
        } else {
            words_from_slug(seg).unwrap_or_else(|| seg.clone())
        };
        let item = if last { c.url() } else { format!("{}{}/", c.origin(), path) };
        items.push(json!({"@type": "ListItem", "position": i + 2, "name": name, "item": item}));
    }
    Some(json!({"@context": "https://schema.org", "@type": "BreadcrumbList", "itemListElement": items}))
}

/// An existing JSON-LD item completed with the properties Google requires for its type.
fn complete(c: &FixCtx, mut map: Map<String, Value>) -> Value {
    let ty = match map.get("@type") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(a)) => a.iter().find_map(|x| x.as_str()).unwrap_or("").to_string(),
        _ => String::new(),
    };
    let name = c.topic_or_todo("name of what the page is about");
    let mut set = |k: &str, v: Value| {
        if map.get(k).is_none_or(Value::is_null) {
            map.insert(k.to_string(), v);
        }
    };
    match ty.as_str() {
        "Article" | "NewsArticle" | "BlogPosting" => set("headline", json!(trim_at_word(&name, 110))),
        "Product" => {
            set("name", json!(name));
            if !["offers", "review", "aggregateRating"].iter().any(|k| map.get(*k).is_some_and(|v| !v.is_null())) {
                map.insert("offers".into(), offer(&c.url_or_todo()));
            }
        }
        "Organization" => {
            set("name", json!(c.site_name_or_todo()));
            set("url", json!(c.origin_or_todo()));
        }
        "BreadcrumbList" => {
            if let Some(Value::Object(b)) = breadcrumbs(c) {
                if let Some(items) = b.get("itemListElement") {
                    set("itemListElement", items.clone());
                }
            }
        }
        "FAQPage" => set(
            "mainEntity",
            json!([{"@type": "Question", "name": "TODO: a question shown on the page", "acceptedAnswer": {"@type": "Answer", "text": TODO_ANSWER}}]),
        ),
        "LocalBusiness" => {
            set("name", json!(c.site_name_or_todo()));
            set("address", address());
        }
        _ => set("name", json!(name)),
    }
    if !map.contains_key("@context") {
        let mut out = Map::new();
        out.insert("@context".into(), json!("https://schema.org"));
        out.extend(map);
        return Value::Object(out);
    }
    Value::Object(map)
}
pub use structured_data_retired_rich_result::StructuredDataRetiredRichResult;

/// The page's first JSON-LD item completed with the properties Google requires for its type,
/// or the item that fits the page best: the fix of the required and the recommended
/// properties rules alike.
fn complete_or_main(c: &FixCtx) -> Option<FixTemplate> {
    let existing = c.page.and_then(|p| p.json_ld.iter().find_map(|b| b.value.clone()));
    let fixed = match existing {
        Some(Value::Object(map)) if map.contains_key("@type") => complete(c, map),
        _ => main_json_ld(c),
    };
    FixTemplate::some(
        FixKind::JsonLd,
        Difficulty::Medium,
        json_ld_script(&fixed),
        "The markup with the properties Google requires for this type filled in from the page; check every value (prices and ratings must match what the page shows).",
    )
}
