use super::prelude::*;
use super::redirect_change;

/// The rule: its text is `META`, its check is below.
#[derive(Debug, Clone, Copy)]
pub struct ExternalLinkRedirect;

static META: SiteRuleMeta = SiteRuleMeta {
    id: "external-link-redirect",
    name: "Links to other sites point at final URLs",
    severity: Severity::Notice,
    threshold: "a link to another site answers a redirect (3xx) and, after its redirects, a page that is no error \
                (under 400; a chain that ends in an error is `broken-external-link`'s). The links are those \
                `broken-external-link` checks, with its budget, guard and time limit; the finding gives the whole \
                chain, and says when it only moves to https, only adds or removes the final slash, or only adds or \
                removes `www.`. Off with `--no-external` or `external_links: false`",
    why: "Each redirect is one more request before the visitor sees the page, and a link that redirects today may \
          break when the other site moves again; linking to the final URL avoids both. A redirect to a login or \
          consent page is worth a look too: the link may not lead where it says.",
    fail_example: "/resources links to http://other.example/guide, which answers 301 to https://other.example/guide",
    pass_example: "every link to another site answers 2xx at the URL written",
    reference: "https://developers.google.com/search/docs/crawling-indexing/301-redirects",
    phrases: &[],
    excluded: &[],
    glossary: &["301-redirect"],
};

impl SiteRule for ExternalLinkRedirect {
    fn meta(&self) -> &'static SiteRuleMeta {
        &META
    }

    fn scan<'s>(&'s self, site: &'s dyn CrawledSite, _: &mut Findings) -> ScanResult<'s> {
        each_external_link(site, |e| &e.redirected, detail)
    }
}

/// The chain as checked, and the one site-wide change it makes when it makes only one (from
/// the URL linked to the last redirect's target).
fn detail(url: &str, chain: &str) -> String {
    let last_target =
        chain.rsplit_once(", HTTP ").and_then(|(redirects, _)| redirects.rsplit_once(" to ")).map(|(_, to)| to);
    match last_target.and_then(|to| redirect_change(url, to)) {
        Some(change) => format!("{chain} ({change})"),
        None => chain.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_detail_names_a_single_site_wide_change() {
        assert_eq!(
            detail("http://o.test/a", "HTTP 301 to https://o.test/a, HTTP 200"),
            "HTTP 301 to https://o.test/a, HTTP 200 (only moves to https)"
        );
        assert_eq!(
            detail("https://o.test/a", "HTTP 301 to https://o.test/a/, HTTP 200"),
            "HTTP 301 to https://o.test/a/, HTTP 200 (only adds the final slash)"
        );
        assert_eq!(
            detail("https://o.test/a", "HTTP 302 to https://login.o.test/?next=/a, HTTP 200"),
            "HTTP 302 to https://login.o.test/?next=/a, HTTP 200"
        );
        // Two hops that end where one change would have led: judged from the first URL to
        // the last target.
        assert_eq!(
            detail("http://o.test/a", "HTTP 301 to https://o.test/a/, HTTP 301 to https://o.test/a, HTTP 200"),
            "HTTP 301 to https://o.test/a/, HTTP 301 to https://o.test/a, HTTP 200 (only moves to https)"
        );
    }
}
