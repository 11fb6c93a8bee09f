use super::prelude::*;

/// The rule: its text is `META`, its check is below.
#[derive(Debug, Clone, Copy)]
pub struct Soft404;

static META: SiteRuleMeta = SiteRuleMeta {
    id: "soft-404",
    name: "Missing pages answer 404",
    severity: Severity::Warning,
    threshold: "a page answers 200 while its title or first <h1> says it was not found (`404`, \"page not found\", \
                \"does not exist\", or the same in German, French, Spanish, Italian or Dutch)",
    why: "A \"not found\" page that answers 200 is crawled and may be indexed as a thin page; search engines report \
          it as a soft 404, and the links to it look fine to every tool that reads the status only.",
    fail_example: "/old-offer answers 200 with the title \"Page not found\"",
    pass_example: "/old-offer answers 404 (or 410), or redirects to a page that replaces it",
    reference: "https://developers.google.com/search/docs/crawling-indexing/http-network-errors#soft-404-errors",
    phrases: &[],
    excluded: &[],
    glossary: &["http-status-code", "indexability"],
};

/// What a "not found" page says, lower case: the phrases of the error pages of common
/// servers and content systems.
const PHRASES: &[&str] = &[
    "not found",
    "cannot be found",
    "can't be found",
    "can’t be found",
    "could not be found",
    "couldn't be found",
    "does not exist",
    "doesn't exist",
    "no longer exists",
    "no longer available",
    "nicht gefunden",
    "existiert nicht",
    "page introuvable",
    "n'existe pas",
    "no encontrada",
    "no encontrado",
    "no existe",
    "non trovata",
    "non esiste",
    "niet gevonden",
    "bestaat niet",
];

/// The phrase or the `404` of `text` that says the page was not found.
fn says_not_found(text: &str) -> Option<&'static str> {
    let lower = text.to_lowercase();
    // `404` as a word of its own: not a model number such as `4040` or `A404`.
    let is_404 = lower.split(|c: char| !c.is_alphanumeric()).any(|w| w == "404");
    if is_404 {
        return Some("404");
    }
    PHRASES.iter().copied().find(|p| lower.contains(p))
}

impl SiteRule for Soft404 {
    fn meta(&self) -> &'static SiteRuleMeta {
        &META
    }

    fn check(&self, site: &dyn CrawledSite, out: &mut Findings) -> SiteResult<()> {
        site.pages(&mut |page| {
            if page.status != Some(200) || !page.html {
                return Ok(());
            }
            let said = [("title", &page.title), ("h1", &page.h1)]
                .into_iter()
                .find_map(|(what, text)| Some((what, text.as_deref()?, says_not_found(text.as_deref()?)?)));
            if let Some((what, text, _)) = said {
                out.push(SiteFinding {
                    url: page.url.clone(),
                    linked_from: site.first_inlink(&page.url)?,
                    detail: format!("HTTP 200, {what} \"{text}\""),
                });
            }
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_says_not_found() {
        assert_eq!(says_not_found("Error 404 | Shop"), Some("404"));
        assert_eq!(says_not_found("404"), Some("404"));
        assert_eq!(says_not_found("Page Not Found"), Some("not found"));
        assert_eq!(says_not_found("Seite nicht gefunden"), Some("nicht gefunden"));
        assert_eq!(says_not_found("Oops! That page can’t be found."), Some("can’t be found"));
        assert_eq!(says_not_found("Peugeot 4040 spare parts"), None);
        assert_eq!(says_not_found("A404 road works"), None);
        assert_eq!(says_not_found("Found: the best boots"), None);
    }
}
