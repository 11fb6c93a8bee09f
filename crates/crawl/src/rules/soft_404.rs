use super::prelude::*;
use super::NEAR_DUPLICATE_THRESHOLDS;
use crate::page::signature_similarity;

/// The rule: its text is `META`, its check is below.
#[derive(Debug, Clone, Copy)]
pub struct Soft404;

static META: SiteRuleMeta = SiteRuleMeta {
    id: "soft-404",
    name: "Missing pages answer 404",
    severity: Severity::Warning,
    threshold: "a page answers 200 while its title or first <h1> says it was not found (`404`, \"page not found\", \
                \"does not exist\", or the same in German, French, Spanish, Italian or Dutch), or while its own text \
                is as similar to the site's own \"not found\" page as near duplicates are (`near_duplicate_threshold`, \
                90% by default): the crawl fetches one URL that never existed (`/seo-audit-404-` and 16 random hex \
                digits) at its start to see that page. A site that answers 200 for that URL is reported once: it has \
                no real 404s. The start page is never compared (a site that serves its home page for every unknown \
                URL is reported that once)",
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

    fn scan<'s>(&'s self, site: &'s dyn CrawledSite, out: &mut Findings) -> ScanResult<'s> {
        let probe = site.not_found_probe();
        if let Some(probe) = probe.filter(|p| p.status == Some(200)) {
            out.push(SiteFinding {
                url: probe.url.clone(),
                linked_from: None,
                detail: "HTTP 200 for a URL that never existed: the site answers no missing page with 404".to_string(),
            });
        }
        let threshold = site.near_duplicate_threshold().clamp(*NEAR_DUPLICATE_THRESHOLDS.start(), 100);
        let not_found_signature = probe.and_then(|p| Some((p.url.as_str(), p.content_signature?)));
        // The first page the crawl fetched is its start page: a site that serves its home page
        // for every unknown URL (a single-page application's fallback) would otherwise have its
        // home page reported as a soft 404; the site is reported once above instead.
        let mut first = true;
        each_page(move |page: &CrawledPage, out: &mut Findings| {
            let is_start = std::mem::take(&mut first);
            if page.status != Some(200) || !page.html {
                return Ok(());
            }
            let said = [("title", &page.title), ("h1", &page.h1)]
                .into_iter()
                .find_map(|(what, text)| Some((what, text.as_deref()?, says_not_found(text.as_deref()?)?)));
            let detail = if let Some((what, text, _)) = said {
                format!("HTTP 200, {what} \"{text}\"")
            } else if let (false, Some((probe_url, sig)), Some(own)) =
                (is_start, not_found_signature, page.content_signature)
            {
                let similarity = signature_similarity(sig, own);
                if similarity < threshold {
                    return Ok(());
                }
                format!("HTTP 200, {similarity}% similar to the site's own \"not found\" page ({probe_url})")
            } else {
                return Ok(());
            };
            out.push(SiteFinding { url: page.url.clone(), linked_from: site.first_inlink(&page.url)?, detail });
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{NotFoundProbe, SiteIndex};
    use crate::CrawledPage;

    /// A site that serves its home page for every unknown URL (a single-page application's
    /// fallback): the site is reported once, its home page is not, and an inner page with the
    /// same text is.
    #[test]
    fn a_catch_all_home_page_is_not_a_soft_404_but_the_site_is_reported() {
        let sig = 0x0123_4567_89ab_cdef_u64;
        let page = |path: &str, signature: u64| CrawledPage {
            url: format!("http://site.test{path}"),
            status: Some(200),
            html: true,
            title: Some(format!("Shop {path}")),
            content_signature: Some(signature),
            ..CrawledPage::default()
        };
        // Four bits differ: 93% similar, above the default 90%.
        let pages = vec![page("/", sig), page("/copy", sig ^ 0b1111), page("/other", !sig)];
        let sitemap = Default::default();
        let probe = NotFoundProbe {
            url: "http://site.test/seo-audit-404-00000000000000ff".into(),
            status: Some(200),
            content_signature: Some(sig),
        };
        let site = SiteIndex::new(&pages, &sitemap, false).with_not_found_probe(Some(probe.clone()));
        let mut out = Findings::default();
        Soft404.check(&site, &mut out).unwrap();
        let found: Vec<(String, String)> = out.into_vec().into_iter().map(|f| (f.url, f.detail)).collect();
        assert_eq!(
            found,
            vec![
                (
                    "http://site.test/copy".to_string(),
                    format!("HTTP 200, 93% similar to the site's own \"not found\" page ({})", probe.url)
                ),
                (
                    probe.url.clone(),
                    "HTTP 200 for a URL that never existed: the site answers no missing page with 404".into()
                ),
            ]
        );
        // A site whose unknown URLs answer 404 is not reported itself.
        let real = NotFoundProbe { status: Some(404), ..probe };
        let site = SiteIndex::new(&pages, &sitemap, false).with_not_found_probe(Some(real));
        let mut out = Findings::default();
        Soft404.check(&site, &mut out).unwrap();
        let urls: Vec<String> = out.into_vec().into_iter().map(|f| f.url).collect();
        assert_eq!(urls, ["http://site.test/copy"]);
    }

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
