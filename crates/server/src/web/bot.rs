//! The page the user agent points to (`GET /bot`, docs/API.md): what SeoAuditBot is, what
//! it fetches and within which limits, how robots.txt applies to it, how to block it, and
//! who to contact, for webmasters who find it in their logs.
//!
//! A pure function of this instance's fetch settings, so the page states the limits and the
//! user agent the bot of this instance really uses. A complete HTML document with inline CSS
//! and no script or external asset, so it works under [`super::PAGE_CSP`]; every value
//! passes through [`escape_html`].

use std::fmt::Write as _;
use std::time::Duration;

use super::escape_html;

/// The robots.txt product token of the bot: the one scheduled monitoring matches, and the
/// name its user agent starts with.
pub const PRODUCT_TOKEN: &str = crate::scheduler::CRAWLER;

/// What the page says about this instance.
#[derive(Debug, Clone)]
pub struct BotFacts {
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
    /// Whether badge and report views of an unaudited domain queue an audit of its home page.
    pub badge_audits: bool,
}

impl BotFacts {
    /// The facts of the bot of a server running with `config`.
    pub fn new(server: &crate::Config) -> BotFacts {
        let config = server.fetch_config();
        BotFacts {
            user_agent: config.user_agent(),
            base_url: config.base_url.trim_end_matches('/').to_string(),
            connect_timeout: config.connect_timeout,
            total_timeout: config.total_timeout,
            max_body_bytes: config.max_body_bytes,
            max_redirects: config.max_redirects,
            text_timeout: config.text_timeout,
            text_max_bytes: config.text_max_bytes,
            monitor_interval_s: server.monitor_interval_s,
            badge_audits: !server.badge_audit_url.trim().is_empty(),
        }
    }
}

/// Renders the bot page.
pub fn render_bot_page(facts: &BotFacts) -> String {
    let token = PRODUCT_TOKEN;
    let base = escape_html(&facts.base_url);
    let mut main = String::with_capacity(8 * 1024);
    let _ = write!(
        main,
        r#"<h1>{token}</h1>
<p class="lead">{token} is the web client of <strong>seo-audit</strong>, an open-source SEO audit service. The instance at <a href="/">{base}</a> fetches a page when one of its users asks it to audit that page. It is not a search engine: it builds no index and does not crawl.</p>
<section aria-labelledby="ua-h"><h2 id="ua-h">How to recognise it</h2>
<dl class="facts"><div><dt>User agent</dt><dd><code>{ua}</code></dd></div><div><dt>robots.txt product token</dt><dd><code>{token}</code></dd></div></dl>
</section>
"#,
        ua = escape_html(&facts.user_agent),
    );
    let _ = write!(
        main,
        r#"<section aria-labelledby="what-h"><h2 id="what-h">What it fetches</h2>
<ul>
<li>The page a user of this instance asks it to audit (through its web page, its API or its agent-tool endpoint), following at most {redirects}.</li>
<li>The <code>/robots.txt</code> and <code>/llms.txt</code> of that page's site, read with the page (to report whether search engines may crawl it and how ready it is for AI assistants).</li>
<li>Competitor pages a user names to compare with their own.</li>
{badge}<li>Pages a user of this instance monitors, checked again every {interval}.</li>
<li>Webhook notifications (<code>POST</code>) to addresses that users of this instance registered.</li>
</ul>
<p>It never follows the links it finds on a page and fetches no address beyond those named above. It fetches only <code>http</code> and <code>https</code> addresses on the public internet.</p>
</section>
"#,
        redirects = plural(facts.max_redirects, "redirect"),
        interval = interval(facts.monitor_interval_s),
        badge = if facts.badge_audits { badge_item() } else { String::new() },
    );
    let _ = write!(
        main,
        r#"<section aria-labelledby="robots-h"><h2 id="robots-h">robots.txt</h2>
<p><strong>On-demand audits</strong> are made at the moment a person asks for them, and act for that person the way a browser does: they are not crawling, so robots.txt does not decide whether they happen. The audit does read robots.txt, to tell its user what search engines may crawl.</p>
<p><strong>Scheduled monitoring obeys robots.txt.</strong> Before each check the site's robots.txt is read and matched for the product token <code>{token}</code> (its own group, else <code>*</code>). When it disallows the page, or answers with a server error or not at all, the page is not fetched. A robots.txt answering 404 (or another 4xx) allows everything.</p>
</section>
"#,
    );
    let _ = write!(
        main,
        r#"<section aria-labelledby="limits-h"><h2 id="limits-h">Limits</h2>
<ul>
<li>{connect} to connect, {total} in all for a page, redirects included.</li>
<li>At most {body} of a page, after decompression; the rest is never read.</li>
<li>At most {redirects}, each checked again.</li>
<li>robots.txt and llms.txt: {text_time} and {text_size} each.</li>
</ul>
</section>
"#,
        connect = duration(facts.connect_timeout),
        total = duration(facts.total_timeout),
        body = bytes(facts.max_body_bytes),
        redirects = plural(facts.max_redirects, "redirect"),
        text_time = duration(facts.text_timeout),
        text_size = bytes(facts.text_max_bytes),
    );
    let _ = write!(
        main,
        r#"<section aria-labelledby="block-h"><h2 id="block-h">How to block it</h2>
<p>Add to your site's <code>/robots.txt</code>:</p>
<pre><code>User-agent: {token}
Disallow: /</code></pre>
<p>This stops scheduled monitoring of your site. Audits a person asks for are not crawling and are still made; to refuse those as well, answer requests whose <code>User-Agent</code> contains <code>{token}</code> with <code>403</code> at your server.</p>
</section>
<section aria-labelledby="contact-h"><h2 id="contact-h">Contact</h2>
<p>{token} is not one central service: seo-audit is open-source software, and every instance is run by its own operator. The requests you saw came from the instance at <a href="/">{base}</a> (the address in the user agent), and the operator of that instance is the contact for questions or complaints about them.</p>
</section>
"#,
    );
    super::report::document(
        &format!("{token}: the web client of this seo-audit instance"),
        &facts.base_url,
        &main,
        "",
        None,
    )
}

/// The list item about the badge's background audits.
fn badge_item() -> String {
    let rest = crate::badge_queue::BADGE_AUDIT_COOLDOWN.as_secs();
    let rest = if rest >= 60 && rest % 60 == 0 {
        plural(rest as usize / 60, "minute")
    } else {
        plural(rest as usize, "second")
    };
    format!(
        "<li>The home page of a domain whose score badge or report is viewed on this instance while it has no audit of that domain from the last 24 hours (at most once every {rest} per domain).</li>\n"
    )
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

fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
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

    #[test]
    fn the_default_bot_is_described_with_the_documented_limits() {
        let config = crate::Config { base_url: "https://audit.example".into(), ..crate::Config::default() };
        let page = render_bot_page(&BotFacts::new(&config));
        let ua = format!("SeoAuditBot/{} (+https://audit.example/bot)", env!("CARGO_PKG_VERSION"));
        assert!(page.contains(&format!("<code>{ua}</code>")), "{page}");
        for text in [
            "5 s to connect, 15 s in all",
            "At most 5 MiB of a page",
            "At most 5 redirects",
            "5 s and 500 KiB each",
            "User-agent: SeoAuditBot\nDisallow: /",
            "checked again every day",
            "at most once every 10 minutes per domain",
            "<code>SeoAuditBot</code>",
        ] {
            assert!(page.contains(text), "missing {text:?}");
        }
        assert!(!page.contains("<script"), "no script");
        assert!(!page.contains("src="), "no external or embedded asset");
    }

    #[test]
    fn configured_values_are_escaped() {
        let config = crate::Config {
            base_url: "https://a.example/<x>\"".into(),
            monitor_interval_s: 60,
            badge_audit_url: String::new(),
            ..crate::Config::default()
        };
        let page = render_bot_page(&BotFacts::new(&config));
        assert!(!page.contains("<x>"), "{page}");
        assert!(page.contains("https://a.example/&lt;x&gt;&quot;"), "{page}");
        assert!(page.contains("every 60 seconds"));
        assert!(!page.contains("score badge"), "background audits are off");
    }
}
