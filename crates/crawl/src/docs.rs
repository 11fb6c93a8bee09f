//! The "Site rules" section of `docs/RULES.md`, generated from [`SITE_RULES`].

use std::fmt::Write as _;

use crate::frontier::{DEFAULT_MAX_IN_FLIGHT, DEFAULT_MAX_KNOWN_URLS, MAX_CRAWL_DELAY, USER_AGENT_TOKEN};
use crate::page::{MAX_RECORDED_LINKS, MAX_RECORDED_LINK_BYTES};
use crate::rules::{chance_found, SiteRuleMeta, MAX_FINDINGS_PER_RULE, NEAR_DUPLICATE_SIMILARITY, SITE_RULES};
use crate::score::{site_score, worked_example, MIN_PENALTY_SHARE, SEVERITY_PENALTY};
use crate::sitemap::SitemapLimits;

/// How the crawl decides what it visits: the engine's choices and bounds, from its constants.
fn crawl_rules(out: &mut String) {
    let maps = SitemapLimits::default();
    let link_kib = MAX_RECORDED_LINK_BYTES / 1024;
    let _ = writeln!(out, "### What a crawl visits\n");
    let _ = writeln!(
        out,
        "- **One spelling per URL.** URLs are parsed as browsers do (the WHATWG URL standard): scheme and host \
         lower case, the scheme's default port dropped, an empty path made `/`, `.` and `..` segments \
         resolved, characters that must be percent-encoded encoded (existing escapes are kept as written). \
         The fragment, an empty query (`?`) and any user name or password are dropped. Only `http` and \
         `https` URLs are crawled.\n\
         - **Same site.** The start URL's host and port; `http` and `https` are one site, and so are a host \
         and its `www.` twin (`example.com` and `www.example.com`). Links elsewhere are recorded (they count \
         as the page's external links) and not crawled: only checked, once each, for `broken-external-link` \
         (HEAD, within the crawl's budget of external URLs); a redirect to another site is recorded, not followed.\n\
         - **Links followed.** `<a href>` links to the site, but not those with `rel` `nofollow`, `ugc` or \
         `sponsored`, nor any link of a page whose robots directives (meta or `X-Robots-Tag`) say `nofollow`: \
         Screaming Frog's default. Links not followed still count as inlinks of their target. The links of a page that answers other than 2xx are not followed. A page's \
         canonical, hreflang alternates and `rel=next`/`prev` pagination links on the site are fetched too \
         (they are not inlinks), so that `canonical-to-bad-url`, `hreflang-no-return-link` and \
         `pagination-broken` can judge them; so is where a page's refresh sends a browser (the HTTP `Refresh` \
         header's, else the first `<meta http-equiv=\"refresh\">` a browser acts on, outside `<noscript>`, \
         when it names another address: a static generator's page for a moved address, which Google follows \
         as a redirect), one click deeper and no inlink, as for a canonical (an HTTP redirect's target keeps \
         the depth of the URL that redirected), and only from a page that answered 2xx, whose links are \
         followed; the page itself is reported by `meta-refresh`, and a refresh target that answers an error \
         by `broken-internal-link`, as a broken link is.\n\
         - **Order and depth.** Breadth first: the start URL is click depth 0, a page its links reach depth 1, \
         and so on; a redirect's target keeps the depth of the URL that redirected. A URL's depth is its \
         shortest path whatever the requests in flight: no URL deeper than the shallowest one in flight is \
         fetched, and a queued URL reached by a shorter path (a redirect's target) takes the shorter depth. \
         URLs found only in sitemaps are fetched after every URL the links reach, and have no depth.\n\
         - **Options.** `max_pages` bounds the URLs fetched (the start URL, redirects and failures count); \
         `max_depth` the click depth followed; `include` patterns (regular expressions matched against the \
         path and query from its start, so a plain path is a prefix), when given, are the only URLs \
         visited, and URLs an `exclude` pattern matches are never visited (the start URL always is). URLs \
         outside them are listed as skipped with the reason. `strip_params` removes query parameters \
         (by name, `utm_*` prefix, or `*` for all) from every URL found before it is compared with those \
         known.\n\
         - **robots.txt.** Each host's `/robots.txt` is read before its first page and obeyed for the \
         `{USER_AGENT_TOKEN}` token; a disallowed URL is listed as skipped with the deciding line and never \
         fetched. A robots.txt that answers 4xx allows everything; one that answers 5xx or not at all \
         disallows everything (RFC 9309).\n\
         - **Politeness.** At most {DEFAULT_MAX_IN_FLIGHT} requests in flight per host (a host and its `www.` twin \
         share the limit; robots.txt and sitemap requests count among them, a sitemap read one at a time). A `Crawl-delay` for the token makes it one request at a time, that many seconds \
         apart (at most {} s; a longer delay is cut to it).\n\
         - **Sitemaps.** `/sitemap.xml` and every `Sitemap:` line of robots.txt on the site, sitemap indexes \
         (nested {} deep at most) and gzip. Bounds: {} MiB per file after gunzip, {} URLs read per file, {} \
         sitemap files and {} page URLs per crawl. A relative `<loc>` is resolved against the sitemap's URL, \
         and a relative `Sitemap:` line against robots.txt's (both reported: search engines ask for full \
         URLs). Every problem (a sitemap that does not answer 200, bad gzip, not well-formed, not a \
         sitemap, over a bound, a wrong namespace, a relative `<loc>` or `Sitemap:` line, an index loop) is a `sitemap-error` \
         finding naming the sitemap and the line. A missing `/sitemap.xml` that robots.txt does not name is \
         no error. The command line reads further sitemaps named with `--sitemap URL` (repeatable).\n\
         - **Bounds.** A crawl records at most {DEFAULT_MAX_KNOWN_URLS} distinct URLs (the service: 50 per page of `max_pages`); links to more are not recorded but counted (`links_not_queued`). \
         A page's record keeps its first {MAX_RECORDED_LINKS} distinct link targets (within {link_kib} KiB of JSON; \
         `outlinks_total` counts them all), and the crawl follows and counts as inlinks those only; inlinks are \
         kept for the URLs the crawl recorded, links to others counted (`links_to_unrecorded_urls`; docs/API.md, \
         \"What a crawl keeps\"). \
         A site rule lists at most {MAX_FINDINGS_PER_RULE} findings (the first in URL order); the others \
         are counted, not cut silently: each rule's result gives `total_findings` and `total_urls` (its \
         distinct affected URLs, all of them), with `truncated` true when it lists fewer, and the site \
         score counts every affected URL.\n\
         - **How the rules read the crawl.** From the store the crawl was written to, page by page and by \
         query (a page by URL, the links to a URL, pages sharing a title), not from the whole crawl in memory: \
         their memory does not grow with the pages crawled (docs/ARCHITECTURE.md, \"Site crawl: the site \
         rules over the store\").\n\
         - **Indexable.** The duplicate, near-copy, inlink, hreflang, sitemap and structured-data rules judge the \
         indexable pages: \
         answered 200 with HTML, without `noindex` (meta or `X-Robots-Tag`), and with no canonical or one naming \
         the page's own URL, as Screaming Frog reads them. The canonical is the head's first \
         `<link rel=\"canonical\">`, else the `Link` header's `rel=\"canonical\"` (when both are given and differ, \
         the page rule `canonical-header-conflict` says so). \
         A canonical naming another spelling of the page that \
         redirects back to it (`/docs/a` for `/docs/a/`, a site generator's trailing-slash setting) still names \
         another URL: the page is not counted as indexable, and `canonical-to-redirect` reports the canonical, \
         on every page of such a site at once; the duplicate rules see those pages once it is fixed.\n\
         - **A redirect in a finding.** A finding of the link, canonical, hreflang, pagination or sitemap rules \
         about a URL that redirects gives the status and the target; when the redirect only adds or removes the \
         final slash, only moves `http` to `https`, or only adds or removes `www.`, it says so (`HTTP 301 to https://example.org/docs/a/ (only adds the final slash)`): \
         that is one setting of the server or of the site's generator, and it shows under several rules at once \
         (links, canonicals, hreflang, sitemaps), often on every page.\n",
        MAX_CRAWL_DELAY.as_secs(),
        maps.max_index_depth,
        maps.max_bytes / (1024 * 1024),
        maps.max_urls,
        maps.max_sitemaps,
        maps.max_total_urls
    );
    list_mode(out);
    let _ = writeln!(out, "### The rules\n");
    let _ = writeln!(
        out,
        "Each rule has two small sites under `fixtures/sites/`: `crawl-ID-fail`, which it must fail with the \
         findings listed in its `_expect` file, and `crawl-ID-pass`, which it must pass. The tests of \
         `crates/crawl` crawl them end to end without a network (robots.txt, sitemaps, redirects and 404s \
         included) and audit every page with the page rules.\n"
    );
}

/// What a list-mode crawl fetches, and the rules it skips with why, from the rule table.
fn list_mode(out: &mut String) {
    let _ = writeln!(out, "### List mode\n");
    let _ = writeln!(
        out,
        "A list-mode crawl fetches a list of URLs of the site and nothing else (REST `urls`, the \
         `crawl_site` tool's `urls`, the command line's `--list FILE` or `--list SITEMAP-URL`): the start \
         URL first, then the list in its order, none with a click depth. Each page's links are recorded (they \
         are its outlinks and the listed pages' inlinks) but not followed; a redirect's target is recorded, \
         not fetched; no sitemap is read. The scope (`include`, `exclude`), robots.txt and politeness apply as \
         in any crawl. Every page rule runs on each HTML page, and the site rules run over the list's pages, \
         judging only what the list holds (a canonical or hreflang target outside the list is not judged), \
         except these, which need the whole site and are reported as skipped (`skipped: true`, no findings):\n"
    );
    for r in SITE_RULES {
        if let Some(why) = r.skipped_in_list_mode() {
            let _ = writeln!(out, "- `{}`: {why}.", r.meta().id);
        }
    }
    let _ = writeln!(out);
}

/// How precise the near-copy rules are: their signatures estimate a similarity, and the
/// table says how often a pair is found at each true value.
fn near_copies(out: &mut String) {
    let t = NEAR_DUPLICATE_SIMILARITY;
    let _ = writeln!(out, "\n### How alike near copies are\n");
    let _ = writeln!(
        out,
        "`near-duplicate-content` and `soft-404` compare pages by a 64-bit SimHash of their own text's runs of three \
         words: 8 bytes in each page's record, and a fixed size a page in the rule's memory (about 40 bytes), so \
         that a crawl of a million pages is compared in tens of megabytes. The similarity they report is the share \
         of the two signatures' bits that agree. It estimates the texts' similarity: for two texts whose runs (each \
         counted as often as it occurs) have a cosine similarity `c`, each bit differs with a probability of about \
         `acos(c) / π` (a test of `crates/crawl` holds the hash to it over 4,000 pairs of texts), so the reported \
         similarity scatters around an expected `100 × (1 − acos(c) / π)` (binomially, by about 4 points either \
         way). At the default threshold of {t}% a pair is found with these chances:\n"
    );
    let _ = writeln!(out, "| expected similarity | cosine of the texts' runs | chance the pair is found at {t}% |");
    let _ = writeln!(out, "|---|---|---|");
    for expected in [100u32, 99, 97, 95, 93, 90, 87, 85, 80, 75] {
        let cosine = (std::f64::consts::PI * (1.0 - f64::from(expected) / 100.0)).cos();
        let chance = chance_found(f64::from(expected), t) * 100.0;
        let _ = writeln!(out, "| {expected}% | {cosine:.4} | {chance:.1}% |");
    }
    let _ = writeln!(
        out,
        "\nSo a pair at 97% or more is almost always found and a pair below 80% rarely (a page with many \
         partners just below the threshold has a chance with each), and between the two the finding depends on \
         where the bits fall: a pair at 90% is found about one time in two. The check on real sites \
         (docs/PERFORMANCE.md, \"Real sites\") computes the exact similarity of each page's candidate pairs and \
         holds the crawl to this: it must find every page whose closest pair alone is found 99.7% of the time, \
         none whose pairs together are found less than 0.15% of the time, and of the pages between, as many as \
         their chances add up to, within four standard deviations."
    );
}

/// One site rule's section of `docs/RULES.md`, from its [`SiteRuleMeta`] alone.
pub fn site_rule_markdown(m: &SiteRuleMeta) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "\n### {}\n", m.id);
    let _ = writeln!(out, "{}.\n", m.name);
    let _ = writeln!(out, "- Severity `{}`", m.severity);
    let _ = writeln!(out, "- **What it checks:** fails when {}.", m.threshold.replace('<', "&lt;"));
    let _ = writeln!(out, "- **Why it matters:** {}", m.why);
    let _ = writeln!(out, "- **Fails:** {}", m.fail_example);
    let _ = writeln!(out, "- **Passes:** {}", m.pass_example);
    let _ = writeln!(out, "- **Reference:** <{}>", m.reference);
    out
}

/// Renders the "Site rules" section of `docs/RULES.md` (between its markers; a test of
/// this crate fails when it is stale, regenerate with
/// `UPDATE_DOCS=1 cargo test -p crawl --test it rules_doc::`).
pub fn site_rules_markdown() -> String {
    let mut out = String::new();
    let _ = writeln!(out, "## Site rules\n");
    let _ = writeln!(
        out,
        "A site crawl starts at a URL, follows the site's own links and reads its sitemaps, runs the page \
         rules above on every HTML page it fetches, then these {} rules over the whole set of pages, their \
         links and the site's sitemaps.\n",
        SITE_RULES.len()
    );
    crawl_rules(&mut out);
    let _ = writeln!(out, "| id | severity | fails when |\n|---|---|---|");
    for r in SITE_RULES {
        let m = r.meta();
        let _ = writeln!(out, "| [`{}`](#{}) | {} | {} |", m.id, m.id, m.severity, m.threshold.replace('<', "&lt;"));
    }
    for r in SITE_RULES {
        out.push_str(&site_rule_markdown(r.meta()));
    }
    near_copies(&mut out);
    let _ = writeln!(out, "\n### Site score\n");
    let penalties: Vec<String> = SEVERITY_PENALTY.iter().map(|(s, p)| format!("`{s}` {p}")).collect();
    let _ = writeln!(
        out,
        "The site score (0-100) is the mean of the page scores of the HTML pages the crawl audited, less a \
         penalty for each site rule that fails, rounded to the nearest integer (halves away from zero) and \
         kept within 0-100. A failing rule costs its severity's penalty ({}) times \
         `{MIN_PENALTY_SHARE} + {} × min(1, affected / crawled)`, where `affected` is the number of distinct \
         URLs in its findings and `crawled` the number of URLs the crawl fetched (answered or failed). A rule \
         that fails costs at least a quarter of its penalty however few URLs it affects, and all of it when \
         it affects every URL. A crawl that audited no page has no site score.\n",
        penalties.join(", "),
        1.0 - MIN_PENALTY_SHARE
    );
    let (scores, crawled, results) = worked_example();
    let score = site_score(scores.iter().copied(), crawled, &results).unwrap_or_else(|| unreachable!());
    let _ = writeln!(
        out,
        "Worked example: {crawled} URLs crawled, {} pages audited with a mean score of {}.",
        scores.len(),
        score.mean_page_score
    );
    for r in results.iter().filter(|r| !r.findings.is_empty()) {
        let p = score.penalties.iter().find(|(id, _)| *id == r.id).map_or(0.0, |(_, p)| *p);
        let base = SEVERITY_PENALTY.iter().find(|(s, _)| *s == r.severity).map_or(0.0, |(_, p)| *p);
        let _ = writeln!(
            out,
            "- `{}` ({}) affects {} URLs: {base} × ({MIN_PENALTY_SHARE} + {} × {}/{crawled}) = {p}",
            r.id,
            r.severity,
            r.affected(),
            1.0 - MIN_PENALTY_SHARE,
            r.affected()
        );
    }
    let _ = writeln!(
        out,
        "\nThe penalties sum to {}; {} − {} = {:.3}, and the site score is **{}**.",
        score.penalty,
        score.mean_page_score,
        score.penalty,
        score.mean_page_score - score.penalty,
        score.score
    );
    out
}
