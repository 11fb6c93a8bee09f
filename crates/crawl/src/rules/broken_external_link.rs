use super::prelude::*;

/// The rule: its text is `META`, its check is below.
#[derive(Debug, Clone, Copy)]
pub struct BrokenExternalLink;

static META: SiteRuleMeta = SiteRuleMeta {
    id: "broken-external-link",
    name: "Links to other sites reach a page",
    severity: Severity::Warning,
    threshold: "a link to another site answers 4xx or 5xx (after its redirects), or gets no answer (the name does \
                not resolve, the connection or TLS fails). Each external URL is checked once per crawl with HEAD, \
                then GET where HEAD is refused (405, 501, or the connection reset), through the address guard (an \
                inner address is never fetched), at most 2 at once per host and 10 s per check, within a budget of \
                external URLs per crawl (500 on the command line, `--external-budget`; the service: one per page of \
                `max_pages`, at most 500). What was not checked (budget spent, refused by the guard, out of time, \
                or no other site answered at all: the checks of 3 hosts or more got no answer and none \
                answered, as on a machine without a network) is counted in the crawl's summary \
                (`external_links`), never reported as broken. Off with \
                `--no-external` or `external_links: false`",
    why: "A link that leads visitors to an error page on another site is a dead end: it costs their trust and tells \
          search engines the page is not kept up to date.",
    fail_example: "/resources links to https://other.example/guide, which answers 404",
    pass_example: "every link to another site answers 2xx, or redirects to a page that does",
    reference: "https://developers.google.com/search/docs/crawling-indexing/http-network-errors",
    phrases: &[],
    excluded: &[],
    glossary: &["http-status-code"],
};

impl SiteRule for BrokenExternalLink {
    fn meta(&self) -> &'static SiteRuleMeta {
        &META
    }

    fn scan<'s>(&'s self, site: &'s dyn CrawledSite, _: &mut Findings) -> ScanResult<'s> {
        each_external_link(site, |e| &e.broken, |_, answer| answer.to_string())
    }
}
