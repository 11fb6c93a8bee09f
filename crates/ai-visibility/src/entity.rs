//! Who a page says it belongs to: JSON-LD entities, brand name, domain label. Shared by
//! the scan's entity-clarity pillar and geo-check's query generation.

use audit_core::Page;
use serde_json::{Map, Value};

/// Schema.org types that identify who stands behind a site. Sub-types of
/// `Organization` and `LocalBusiness` that sites commonly use are listed so a
/// `Restaurant` or a `Dentist` counts as well.
pub const ENTITY_TYPES: &[&str] = &[
    "Organization",
    "Corporation",
    "OnlineBusiness",
    "OnlineStore",
    "NGO",
    "EducationalOrganization",
    "GovernmentOrganization",
    "MedicalOrganization",
    "NewsMediaOrganization",
    "SportsOrganization",
    "Person",
    "LocalBusiness",
    "ProfessionalService",
    "Store",
    "Restaurant",
    "FoodEstablishment",
    "Hotel",
    "LodgingBusiness",
    "Dentist",
    "Physician",
    "MedicalClinic",
    "LegalService",
    "Attorney",
    "AutomotiveBusiness",
    "HomeAndConstructionBusiness",
    "HealthAndBeautyBusiness",
    "FinancialService",
    "RealEstateAgent",
    "TravelAgency",
];

/// Deepest JSON-LD nesting walked; real markup is far shallower, and hostile markup
/// must not cost unbounded recursion.
const MAX_DEPTH: usize = 16;

/// A type name without a schema.org prefix (`https://schema.org/Person` -> `Person`).
pub(crate) fn short_type(t: &str) -> &str {
    let t = t.trim();
    t.rsplit_once(['/', '#', ':']).map_or(t, |(_, name)| name)
}

/// Every JSON-LD object with an `@type`, in document order (nested ones and `@graph`
/// items included).
pub(crate) fn typed_nodes(page: &Page) -> Vec<&Map<String, Value>> {
    fn walk<'a>(v: &'a Value, depth: usize, out: &mut Vec<&'a Map<String, Value>>) {
        if depth > MAX_DEPTH {
            return;
        }
        match v {
            Value::Object(map) => {
                if map.contains_key("@type") {
                    out.push(map);
                }
                for child in map.values() {
                    walk(child, depth + 1, out);
                }
            }
            Value::Array(items) => items.iter().for_each(|i| walk(i, depth + 1, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for block in &page.json_ld {
        if let Some(v) = &block.value {
            walk(v, 0, &mut out);
        }
    }
    out
}

/// The `@type` names of a node, prefixes stripped.
pub(crate) fn node_types(node: &Map<String, Value>) -> Vec<&str> {
    match node.get("@type") {
        Some(Value::String(s)) => vec![short_type(s)],
        Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).map(short_type).collect(),
        _ => Vec::new(),
    }
}

fn is_entity_type(t: &str) -> bool {
    ENTITY_TYPES.iter().any(|e| e.eq_ignore_ascii_case(t))
}

/// JSON-LD nodes typed as one of [`ENTITY_TYPES`].
pub(crate) fn entity_nodes(page: &Page) -> Vec<&Map<String, Value>> {
    typed_nodes(page).into_iter().filter(|n| node_types(n).iter().any(|t| is_entity_type(t))).collect()
}

/// The first entity type the page declares, in JSON-LD or microdata.
pub(crate) fn entity_type(page: &Page) -> Option<String> {
    let json = entity_nodes(page).first().and_then(|n| node_types(n).into_iter().find(|t| is_entity_type(t)));
    let micro = || page.microdata_types.iter().map(|t| short_type(t)).find(|t| is_entity_type(t));
    json.or_else(micro).map(str::to_owned)
}

/// A node's `name`, trimmed, when it is a non-empty string.
pub(crate) fn node_name(node: &Map<String, Value>) -> Option<&str> {
    node.get("name").and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty())
}

/// The name the site goes by: `og:site_name`, else the name of the first organisation
/// in JSON-LD, else the name of a `WebSite` node, else the name of a `Person` (last,
/// because on articles a Person is usually the author, not the site). Only the part
/// before a title separator is kept (`LinkNaija | News` -> `LinkNaija`).
pub fn brand_name(page: &Page) -> Option<String> {
    let og = page.og.get("og:site_name").map(|s| s.trim()).filter(|s| !s.is_empty());
    let is_person = |n: &Map<String, Value>| node_types(n).iter().any(|t| t.eq_ignore_ascii_case("Person"));
    let organisation = || entity_nodes(page).into_iter().filter(|n| !is_person(n)).find_map(node_name);
    let website = || {
        typed_nodes(page)
            .into_iter()
            .filter(|n| node_types(n).iter().any(|t| t.eq_ignore_ascii_case("WebSite")))
            .find_map(node_name)
    };
    let person = || entity_nodes(page).into_iter().filter(|n| is_person(n)).find_map(node_name);
    let name = og.or_else(organisation).or_else(website).or_else(person)?;
    let first =
        [" | ", " - ", " – ", " — ", " · ", " :: "].iter().fold(name, |n, sep| n.split(sep).next().unwrap_or(n)).trim();
    let name = if first.is_empty() { name } else { first };
    Some(audit_core::text::collapse(name))
}

/// Every `sameAs` URL given on an entity node.
pub(crate) fn same_as(page: &Page) -> Vec<&str> {
    let mut out = Vec::new();
    for node in entity_nodes(page) {
        match node.get("sameAs") {
            Some(Value::String(s)) => out.push(s.as_str()),
            Some(Value::Array(items)) => out.extend(items.iter().filter_map(Value::as_str)),
            _ => {}
        }
    }
    out.retain(|u| audit_core::text::is_absolute_url(u));
    out
}

/// Second-level labels under which country-code domains register names (`example.co.uk`).
const SECOND_LEVEL: &[&str] = &["co", "com", "org", "net", "ac", "gov", "edu", "or", "ne", "go", "gv"];

/// A domain without `www.`, lower-case, without a trailing dot.
pub fn normalize_domain(domain: &str) -> String {
    let d = domain.trim().trim_end_matches('.').to_ascii_lowercase();
    d.strip_prefix("www.").map(str::to_owned).unwrap_or(d)
}

/// The label a brand is usually named by: `example` for `shop.example.co.uk`. A
/// heuristic without the public-suffix list: the label before the top-level domain,
/// or before a short second-level one under a two-letter country domain.
pub fn domain_label(domain: &str) -> String {
    let d = normalize_domain(domain);
    let labels: Vec<&str> = d.split('.').filter(|l| !l.is_empty()).collect();
    let pick = match labels.as_slice() {
        [] => "",
        [only] => only,
        [.., sld, second, tld] if tld.len() == 2 && SECOND_LEVEL.contains(second) => sld,
        [.., label, _tld] => label,
    };
    pick.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use audit_core::HttpFacts;

    fn page(head: &str) -> Page {
        Page::parse(
            "https://www.acme.com/",
            format!("<html><head>{head}</head><body></body></html>").as_bytes(),
            HttpFacts::default(),
        )
    }

    #[test]
    fn brand_from_og_entity_or_website() {
        let cases: &[(&str, Option<&str>)] = &[
            (r#"<meta property="og:site_name" content=" Acme  Tools ">"#, Some("Acme Tools")),
            (
                r#"<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"WebPage","name":"Home"},{"@type":["Thing","schema:Organization"],"name":"Acme Inc"}]}</script>"#,
                Some("Acme Inc"),
            ),
            (
                r#"<script type="application/ld+json">{"@type":"WebSite","name":"Acme Site"}</script>"#,
                Some("Acme Site"),
            ),
            (
                r#"<script type="application/ld+json">[{"@type":"NewsArticle","author":{"@type":"Person","name":"Jane Doe"}},{"@type":"WebSite","name":"Daily"}]</script>"#,
                Some("Daily"),
            ),
            (r#"<script type="application/ld+json">{"@type":"Person","name":"Jane Doe"}</script>"#, Some("Jane Doe")),
            (r#"<meta property="og:site_name" content="LinkNaija | Nigeria's news">"#, Some("LinkNaija")),
            (r#"<script type="application/ld+json">{"@type":"Organization","name":""}</script>"#, None),
            (r#"<script type="application/ld+json">not json</script>"#, None),
            ("", None),
        ];
        for (head, expected) in cases {
            assert_eq!(brand_name(&page(head)).as_deref(), *expected, "{head}");
        }
    }

    #[test]
    fn entity_type_and_same_as() {
        let p = page(
            r#"<script type="application/ld+json">{"@type":"Restaurant","name":"R","sameAs":["https://x.com/r","not a url"]}</script>"#,
        );
        assert_eq!(entity_type(&p).as_deref(), Some("Restaurant"));
        assert_eq!(same_as(&p), ["https://x.com/r"]);
        assert_eq!(entity_type(&page("")), None);
    }

    #[test]
    fn deep_nesting_is_bounded() {
        let deep = format!("{}{{\"@type\":\"Organization\",\"name\":\"Deep\"}}{}", "[".repeat(100), "]".repeat(100));
        let p = page(&format!(r#"<script type="application/ld+json">{deep}</script>"#));
        assert_eq!(brand_name(&p), None);
    }

    #[test]
    fn domain_labels() {
        for (domain, label) in [
            ("www.example.com", "example"),
            ("shop.example.co.uk", "example"),
            ("Example.DE.", "example"),
            ("localhost", "localhost"),
            ("a.b.example.org", "example"),
            ("", ""),
        ] {
            assert_eq!(domain_label(domain), label, "{domain}");
        }
    }
}
