//! Technology detection: which platforms, frameworks, libraries, analytics and hosts a page
//! shows (the `techStack` of the get_site_info agent tool). A table of signals, read from the
//! page facts, its HTML and its response headers; nothing is fetched.

use audit_core::Page;

/// Where a technology shows itself.
#[derive(Debug, Clone, Copy)]
enum Signal {
    /// `<meta name="generator">` contains this (lowercase).
    Generator(&'static str),
    /// A `<script src>` contains this (lowercase).
    Script(&'static str),
    /// The lowercased HTML contains this.
    Markup(&'static str),
    /// The response header (name) contains this value (lowercase); "" matches presence.
    Header(&'static str, &'static str),
}

use Signal::{Generator, Header, Markup, Script};

/// Technologies in the order they are reported: platforms, frameworks, libraries,
/// analytics, then hosting and servers. A technology is reported once, at its place here.
const TECH: &[(&str, &[Signal])] = &[
    (
        "WordPress",
        &[Generator("wordpress"), Markup("/wp-content/"), Markup("/wp-includes/"), Header("link", "api.w.org")],
    ),
    ("WooCommerce", &[Generator("woocommerce"), Script("woocommerce")]),
    ("Drupal", &[Generator("drupal"), Header("x-generator", "drupal"), Header("x-drupal-cache", "")]),
    ("Joomla", &[Generator("joomla")]),
    ("Shopify", &[Markup("cdn.shopify.com"), Header("x-shopid", ""), Header("x-shopify-stage", "")]),
    ("Wix", &[Generator("wix.com"), Markup("static.wixstatic.com"), Header("x-wix-request-id", "")]),
    ("Squarespace", &[Generator("squarespace"), Markup("static1.squarespace.com")]),
    ("Webflow", &[Generator("webflow"), Markup("data-wf-page")]),
    ("Ghost", &[Generator("ghost")]),
    ("Hugo", &[Generator("hugo")]),
    ("Jekyll", &[Generator("jekyll")]),
    ("Next.js", &[Script("/_next/"), Markup("__next_data__"), Header("x-powered-by", "next.js"), Generator("next.js")]),
    ("Nuxt", &[Script("/_nuxt/"), Markup("window.__nuxt__"), Markup("id=\"__nuxt\""), Generator("nuxt")]),
    ("Gatsby", &[Generator("gatsby"), Markup("id=\"___gatsby\"")]),
    ("SvelteKit", &[Script("/_app/immutable/"), Markup("data-sveltekit")]),
    ("Astro", &[Generator("astro"), Markup("<astro-island")]),
    ("React", &[Script("react.production"), Script("react-dom"), Script("/react@"), Markup("data-reactroot")]),
    (
        "Vue.js",
        &[
            Script("vue.min.js"),
            Script("vue.global"),
            Script("/vue@"),
            Markup("data-v-app"),
            Markup("data-server-rendered"),
        ],
    ),
    ("Angular", &[Markup("ng-version="), Script("angular.min.js"), Script("/angular@")]),
    ("jQuery", &[Script("jquery")]),
    ("Bootstrap", &[Script("bootstrap")]),
    (
        "Google Tag Manager",
        &[
            Script("googletagmanager.com/gtm.js"),
            Markup("googletagmanager.com/gtm.js"),
            Markup("googletagmanager.com/ns.html"),
        ],
    ),
    (
        "Google Analytics",
        &[
            Script("googletagmanager.com/gtag/js"),
            Script("google-analytics.com"),
            Markup("google-analytics.com/analytics.js"),
        ],
    ),
    ("Cloudflare", &[Header("server", "cloudflare"), Header("cf-ray", "")]),
    ("Vercel", &[Header("server", "vercel"), Header("x-vercel-id", "")]),
    ("Netlify", &[Header("server", "netlify"), Header("x-nf-request-id", "")]),
    ("Amazon CloudFront", &[Header("via", "cloudfront"), Header("x-amz-cf-id", "")]),
    ("Fastly", &[Header("x-fastly-request-id", ""), Header("via", "fastly")]),
    ("Varnish", &[Header("via", "varnish"), Header("x-varnish", "")]),
    ("nginx", &[Header("server", "nginx")]),
    ("Apache", &[Header("server", "apache")]),
    ("LiteSpeed", &[Header("server", "litespeed")]),
    ("Microsoft IIS", &[Header("server", "microsoft-iis")]),
    ("Express", &[Header("x-powered-by", "express")]),
    ("PHP", &[Header("x-powered-by", "php")]),
    ("ASP.NET", &[Header("x-powered-by", "asp.net"), Header("x-aspnet-version", "")]),
];

/// Technologies the page shows, in [`TECH`] order. `html` is the body, lowercased.
pub fn detect_tech(page: &Page, html: &str) -> Vec<String> {
    let generator = page.generator.as_deref().unwrap_or("").to_ascii_lowercase();
    let scripts: Vec<String> = page.script_srcs.iter().map(|s| s.to_ascii_lowercase()).collect();
    let seen = |signal: &Signal| match *signal {
        Generator(needle) => generator.contains(needle),
        Script(needle) => scripts.iter().any(|s| s.contains(needle)),
        Markup(needle) => html.contains(needle),
        Header(name, needle) => page.http.header_all(name).any(|v| v.to_ascii_lowercase().contains(needle)),
    };
    TECH.iter().filter(|(_, signals)| signals.iter().any(seen)).map(|(name, _)| name.to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use audit_core::HttpFacts;

    fn check(html: &str, headers: &[(&str, &str)], expected: &[&str]) {
        let mut http = HttpFacts::new().with_status(200);
        http.headers = headers.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect();
        let page = Page::parse("https://example.com/", html.as_bytes(), http);
        assert_eq!(detect_tech(&page, &html.to_ascii_lowercase()), expected, "{html} {headers:?}");
    }

    #[test]
    fn tech_stack() {
        check("<html><head><title>x</title></head></html>", &[], &[]);
        check(
            r#"<meta name="generator" content="WordPress 6.5"><script src="/wp-includes/js/jquery/jquery.min.js"></script>"#,
            &[("Server", "nginx/1.25")],
            &["WordPress", "jQuery", "nginx"],
        );
        check(
            r#"<script src="https://cdn.shopify.com/s/x.js"></script>"#,
            &[("cf-ray", "1")],
            &["Shopify", "Cloudflare"],
        );
        check(
            r#"<script id="__NEXT_DATA__" type="application/json">{}</script><script src="/_next/static/a.js"></script>"#,
            &[("x-vercel-id", "fra1"), ("server", "Vercel")],
            &["Next.js", "Vercel"],
        );
        check(
            r#"<div id="__nuxt"></div><script src="/_nuxt/app.js"></script>"#,
            &[("server", "Netlify")],
            &["Nuxt", "Netlify"],
        );
        check(r#"<meta name="generator" content="Gatsby 5"><div id="___gatsby"></div>"#, &[], &["Gatsby"]);
        check(r#"<app-root ng-version="17.0.0"></app-root>"#, &[("X-Powered-By", "Express")], &["Angular", "Express"]);
        check(
            r#"<script async src="https://www.googletagmanager.com/gtm.js?id=GTM-X"></script><script src="https://www.googletagmanager.com/gtag/js?id=G-1"></script>"#,
            &[("server", "Apache/2.4"), ("x-powered-by", "PHP/8.2")],
            &["Google Tag Manager", "Google Analytics", "Apache", "PHP"],
        );
        check(
            r#"<div data-v-app></div><script src="https://unpkg.com/vue@3/dist/vue.global.js"></script>"#,
            &[],
            &["Vue.js"],
        );
        check(
            r#"<div data-reactroot></div>"#,
            &[("via", "1.1 abc.cloudfront.net (CloudFront)")],
            &["React", "Amazon CloudFront"],
        );
    }
}
