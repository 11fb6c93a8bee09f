//! The page the user agent points to (`GET /bot`, docs/API.md): what the bot is, what it
//! fetches and within which limits, how robots.txt applies to it, how to block it, and who
//! to contact, for webmasters who find it in their logs.
//!
//! A function of this instance's fetch settings ([`BotFacts`], which the server fills from
//! its configuration), so the page states the limits and the user agent the bot of this
//! instance really uses. A complete HTML document with inline CSS and no script or external
//! asset, so it works under [`crate::PAGE_CSP`].

use std::time::Duration;

use maud::{html, Markup};

use crate::plural;

/// What the page says about this instance.
#[derive(Debug, Clone)]
pub struct BotFacts {
    /// The robots.txt product token of the bot: the one scheduled monitoring matches, and
    /// the name its user agent starts with.
    pub product_token: String,
    /// The exact `User-Agent` the bot sends.
    pub user_agent: String,
    /// The public address of this instance (the one in the user agent).
    pub base_url: String,
    /// Longest wait for a connection, per hop.
    pub connect_timeout: Duration,
    /// Longest time for a whole page fetch, redirects included.
    pub total_timeout: Duration,
    /// Largest page body after decompression.
    pub max_body_bytes: usize,
    /// Most redirects followed.
    pub max_redirects: usize,
    /// Longest time for robots.txt and llms.txt.
    pub text_timeout: Duration,
    /// Largest robots.txt or llms.txt.
    pub text_max_bytes: usize,
    /// Seconds between two scheduled checks of a monitored page.
    pub monitor_interval_s: u64,
    /// Most requests a site crawl has in flight to one host.
    pub crawl_in_flight: usize,
    /// The longest `Crawl-delay` a site crawl honours (a longer one is cut to it).
    pub crawl_max_delay: Duration,
    /// When badge and report views of an unaudited domain queue an audit of its home page:
    /// how long a domain then rests before the next one. `None` when they do not.
    pub badge_audits: Option<Duration>,
}

/// Renders the bot page.
pub fn render_bot_page(facts: &BotFacts) -> String {
    let token = facts.product_token.as_str();
    let base = facts.base_url.trim_end_matches('/');
    let redirects = plural(facts.max_redirects, "redirect");
    let main = html! {
        h1 { (token) } "\n"
        p class="lead" {
            (token) " is the web client of " strong { "seo-audit" } ", an open-source SEO audit service. The instance at "
            a href="/" { (base) }
            " fetches a page when one of its users asks it to audit that page, and crawls a site when one of its users asks it to audit that whole site. It is not a search engine: it builds no index, and it crawls no site nobody asked about."
        } "\n"
        section aria-labelledby="ua-h" {
            h2 id="ua-h" { "How to recognise it" } "\n"
            dl class="facts" {
                div { dt { "User agent" } dd { code { (facts.user_agent) } } }
                div { dt { "robots.txt product token" } dd { code { (token) } } }
            } "\n"
        } "\n"
        section aria-labelledby="what-h" {
            h2 id="what-h" { "What it fetches" } "\n"
            ul {
                "\n"
                li {
                    "The page a user of this instance asks it to audit (through its web page, its API or its agent-tool endpoint), following at most "
                    (redirects) "."
                } "\n"
                li {
                    "The " code { "/robots.txt" } " and " code { "/llms.txt" }
                    " of that page's site, read with the page (to report whether search engines may crawl it and how ready it is for AI assistants)."
                } "\n"
                li {
                    "The pages of a site a user asks it to crawl: it starts at the address given, follows the links it finds on that site's own pages and reads the site's sitemaps, and audits each page it reaches. It stays on that site (its "
                    code { "www." } " twin included) and stops at the user's page limit."
                } "\n"
                li {
                    "For an AI-readiness check a user asks for, on that page's site: " code { "/llms-full.txt" }
                    ", the first three links of its llms.txt, the agent discovery documents (" code { "/.well-known/ai-catalog.json" }
                    " and the other well-known ones, and those the page or robots.txt points to), the page as markdown, and the page again with a browser's user agent and with the user agents of eleven AI crawlers, to tell the user whether the site's server or CDN turns those crawlers away. At most 26 requests, one at a time."
                } "\n"
                li { "Competitor pages a user names to compare with their own." } "\n"
                @if let Some(rest) = facts.badge_audits { (badge_item(rest)) "\n" }
                li { "Pages a user of this instance monitors, checked again every " (interval(facts.monitor_interval_s)) "." } "\n"
                li {
                    "Webhook notifications (" code { "POST" } ") to addresses that users of this instance registered."
                } "\n"
            } "\n"
            p {
                "Outside a site crawl it never follows the links it finds on a page, and it fetches no address beyond those named above. It fetches only "
                code { "http" } " and " code { "https" } " addresses on the public internet."
            } "\n"
        } "\n"
        section aria-labelledby="robots-h" {
            h2 id="robots-h" { "robots.txt" } "\n"
            p {
                strong { "On-demand audits" }
                " are made at the moment a person asks for them, and act for that person the way a browser does: they are not crawling, so robots.txt does not decide whether they happen. The audit does read robots.txt, to tell its user what search engines may crawl."
            } "\n"
            p {
                strong { "Site crawls obey robots.txt." }
                " The crawl reads the site's robots.txt first and matches it for the product token " code { (token) }
                " (its own group, else " code { "*" } "): a disallowed address is never fetched, and a "
                code { "Crawl-delay" } " is honoured between requests (up to " (duration(facts.crawl_max_delay)) "). Without one it has at most "
                (facts.crawl_in_flight) " requests in flight to your server at a time."
            } "\n"
            p {
                strong { "Scheduled monitoring obeys robots.txt." }
                " Before each check the site's robots.txt is read and matched for the product token " code { (token) }
                " (its own group, else " code { "*" } "). When it disallows the page, or answers with a server error or not at all, the page is not fetched. A robots.txt answering 404 (or another 4xx) allows everything."
            } "\n"
        } "\n"
        section aria-labelledby="limits-h" {
            h2 id="limits-h" { "Limits" } "\n"
            ul {
                "\n"
                li { (duration(facts.connect_timeout)) " to connect, " (duration(facts.total_timeout)) " in all for a page, redirects included." } "\n"
                li { "At most " (bytes(facts.max_body_bytes)) " of a page, after decompression; the rest is never read." } "\n"
                li { "At most " (redirects) ", each checked again." } "\n"
                li { "robots.txt and llms.txt: " (duration(facts.text_timeout)) " and " (bytes(facts.text_max_bytes)) " each." } "\n"
            } "\n"
        } "\n"
        section aria-labelledby="block-h" {
            h2 id="block-h" { "How to block it" } "\n"
            p { "Add to your site's " code { "/robots.txt" } ":" } "\n"
            pre { code { "User-agent: " (token) "\nDisallow: /" } } "\n"
            p {
                "This stops site crawls and scheduled monitoring of your site. Audits a person asks for are not crawling and are still made; to refuse those as well, answer requests whose "
                code { "User-Agent" } " contains " code { (token) } " with " code { "403" } " at your server."
            } "\n"
        } "\n"
        section aria-labelledby="contact-h" {
            h2 id="contact-h" { "Contact" } "\n"
            p {
                (token) " is not one central service: seo-audit is open-source software, and every instance is run by its own operator. The requests you saw came from the instance at "
                a href="/" { (base) }
                " (the address in the user agent), and the operator of that instance is the contact for questions or complaints about them."
            } "\n"
        } "\n"
    };
    crate::frame::document(
        &format!("{token}: the web client of this seo-audit instance"),
        &facts.base_url,
        main,
        html! {},
        None,
    )
}

/// The list item about the badge's background audits, which rest `rest` per domain.
fn badge_item(rest: Duration) -> Markup {
    let rest = rest.as_secs();
    let rest = if rest >= 60 && rest % 60 == 0 {
        plural(rest as usize / 60, "minute")
    } else {
        plural(rest as usize, "second")
    };
    html! {
        li {
            "The home page of a domain whose score badge or report is viewed on this instance while it has no audit of that domain from the last 24 hours (at most once every "
            (rest) " per domain)."
        }
    }
}

/// `5 s`, `800 ms`.
fn duration(d: Duration) -> String {
    let ms = d.as_millis();
    if ms >= 1000 && ms % 1000 == 0 {
        format!("{} s", ms / 1000)
    } else {
        format!("{ms} ms")
    }
}

/// `5 MiB`, `500 KiB`, `1000 bytes`.
fn bytes(n: usize) -> String {
    const KIB: usize = 1024;
    const MIB: usize = 1024 * 1024;
    if n >= MIB && n % MIB == 0 {
        format!("{} MiB", n / MIB)
    } else if n >= KIB && n % KIB == 0 {
        format!("{} KiB", n / KIB)
    } else {
        plural(n, "byte")
    }
}

/// `day`, `6 hours`, `90 seconds`.
fn interval(seconds: u64) -> String {
    match seconds {
        86_400 => "day".to_string(),
        s if s >= 86_400 && s % 86_400 == 0 => format!("{} days", s / 86_400),
        3_600 => "hour".to_string(),
        s if s >= 3_600 && s % 3_600 == 0 => format!("{} hours", s / 3_600),
        s => plural(usize::try_from(s).unwrap_or(usize::MAX), "second"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_read_naturally() {
        assert_eq!(duration(Duration::from_secs(5)), "5 s");
        assert_eq!(duration(Duration::from_millis(800)), "800 ms");
        assert_eq!(duration(Duration::from_millis(1500)), "1500 ms");
        assert_eq!(bytes(5 * 1024 * 1024), "5 MiB");
        assert_eq!(bytes(500 * 1024), "500 KiB");
        assert_eq!(bytes(1000), "1000 bytes");
        assert_eq!(bytes(1), "1 byte");
        assert_eq!(interval(86_400), "day");
        assert_eq!(interval(2 * 86_400), "2 days");
        assert_eq!(interval(3_600), "hour");
        assert_eq!(interval(90), "90 seconds");
        assert_eq!(plural(1, "redirect"), "1 redirect");
    }
}
