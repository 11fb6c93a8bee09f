use super::prelude::*;

/// The rule: its text is `META`, its check is below.
#[derive(Debug, Clone, Copy)]
pub struct AiCrawlersBlockedAtEdge;

static META: SiteRuleMeta = SiteRuleMeta {
    id: "ai-crawlers-blocked-at-edge",
    name: "AI crawlers get the pages robots.txt lets them in",
    severity: Severity::Warning,
    threshold: "after its end, the crawl fetches a sample of its pages again (at most 5 HTML pages that answered 200 \
                and are not `noindex`, the start page first), each as a browser and as GPTBot, ClaudeBot and \
                PerplexityBot, one request at a time, through the address guard, within 20 s and counted in the \
                crawl's requests; a crawler is fetched only where robots.txt lets it in (a `Disallow` is the site's \
                choice, not an edge block), and nothing is fetched under a `Crawl-delay` for seo-audit. A page is \
                reported when the browser got it and a crawler got another status (403, 402 pay per crawl, 429, …), \
                a bot manager's challenge page, no answer, or less than half the browser's visible text (the \
                AI-readiness check's comparison, docs/AI-VISIBILITY.md)",
    why: "A CDN or firewall that turns AI crawlers away keeps the site out of AI answers and AI search even though \
          its robots.txt invites them; on part of a site (a directory, a template) it goes unnoticed, since every \
          browser and the site's own monitoring get the pages.",
    fail_example: "/blog/launch answers 200 to a browser and 403 to GPTBot, which robots.txt allows",
    pass_example: "every sampled page answers GPTBot, ClaudeBot and PerplexityBot as it answers a browser, or \
                   robots.txt disallows the crawlers the site wants out",
    reference: "https://developers.cloudflare.com/bots/additional-configurations/block-ai-bots/",
    phrases: &[],
    excluded: &[],
    glossary: &["ai-crawlers", "robots-txt"],
};

impl SiteRule for AiCrawlersBlockedAtEdge {
    fn meta(&self) -> &'static SiteRuleMeta {
        &META
    }

    fn check(&self, site: &dyn CrawledSite, out: &mut Findings) -> SiteResult<()> {
        for probe in site.edge_probes().iter().filter(|p| !p.blocked.is_empty()) {
            let each: Vec<String> = probe.blocked.iter().map(|(bot, evidence)| format!("{bot}: {evidence}")).collect();
            out.push(SiteFinding {
                url: probe.url.clone(),
                linked_from: site.first_inlink(&probe.url)?,
                detail: format!("AI crawlers turned away at the edge: {}", each.join("; ")),
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{EdgeProbe, SiteIndex, EDGE_PROBE_BOTS};
    use crate::CrawledPage;

    /// Only the pages some crawler was turned away from are reported, each once with every
    /// crawler's evidence; a page all crawlers got passes.
    #[test]
    fn pages_a_crawler_was_turned_away_from_are_reported() {
        let page = |path: &str| CrawledPage {
            url: format!("http://site.test{path}"),
            status: Some(200),
            html: true,
            ..CrawledPage::default()
        };
        let pages = vec![page("/"), page("/blog/a")];
        let sitemap = Default::default();
        let probes = vec![
            EdgeProbe { url: "http://site.test/".into(), blocked: vec![] },
            EdgeProbe {
                url: "http://site.test/blog/a".into(),
                blocked: vec![
                    ("GPTBot".into(), "status 403 Forbidden where the browser got 200".into()),
                    (
                        "ClaudeBot".into(),
                        "status 402 Payment Required (pay per crawl) where the browser got 200".into(),
                    ),
                ],
            },
        ];
        let site = SiteIndex::new(&pages, &sitemap, false).with_edge_probes(probes);
        let mut out = Findings::default();
        AiCrawlersBlockedAtEdge.check(&site, &mut out).unwrap();
        let found: Vec<(String, String)> = out.into_vec().into_iter().map(|f| (f.url, f.detail)).collect();
        assert_eq!(
            found,
            vec![(
                "http://site.test/blog/a".to_string(),
                "AI crawlers turned away at the edge: GPTBot: status 403 Forbidden where the browser got 200; \
                 ClaudeBot: status 402 Payment Required (pay per crawl) where the browser got 200"
                    .to_string()
            )]
        );
        // A crawl that checked no page finds nothing.
        let site = SiteIndex::new(&pages, &sitemap, false);
        let mut out = Findings::default();
        AiCrawlersBlockedAtEdge.check(&site, &mut out).unwrap();
        assert!(out.into_vec().is_empty());
    }

    /// The crawlers the crawl sends are those the AI-readiness check compares, under the
    /// same tokens, and the rule's text names each.
    #[test]
    fn the_sampled_crawlers_are_the_registry_s() {
        for bot in EDGE_PROBE_BOTS {
            assert!(ai_visibility::EDGE_BOTS.iter().any(|b| b.bot == *bot), "{bot}");
            assert!(META.threshold.contains(bot), "{bot}");
        }
        assert!(META.threshold.contains(&format!("at most {}", crate::rules::MAX_EDGE_SAMPLE)));
    }
}
