//! Slashes in a row in the URL's path (`/guides//cast-iron`): servers usually answer the same
//! page for both forms, so the site has two URLs for one page, and a relative link resolved
//! against such a URL can go deeper with each click. The URL is the page's final one; a
//! `//` in the query or the fragment is no path and passes.

use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct UrlMultipleSlashes;

static META: RuleMeta = RuleMeta {
    id: "url-multiple-slashes",
    name: "URL path has no repeated slashes",
    category: Category::Technical,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Medium,
    confidence: 80,
    weight: 1,
    threshold: "two or more slashes in a row in the path",
    why: "A path with // is usually a second address of the same page (a template joining parts with one slash too many): search engines crawl and index both, and relative links resolved against it multiply.",
    fail_example: "https://example.com/guides//cast-iron",
    pass_example: "https://example.com/guides/cast-iron",
    reference: "https://developers.google.com/search/docs/crawling-indexing/url-structure",
    phrases: &["double slash", "multiple slashes", "repeated slash"],
    excluded: &[],
    glossary: &["url-structure"],
};

impl Rule for UrlMultipleSlashes {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let Some(url) = page.parsed_url() else { return Outcome::NotApplicable };
        // `mailto:`, `data:` and other URLs without a host have no path of folders.
        if url.cannot_be_a_base() || !url.path().contains("//") {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "URL has repeated slashes",
                "The URL's path has slashes in a row; link to the form with single slashes and redirect this one to it.",
            )
            .current(url.path().to_string())
            .suggested(collapse(url.path())),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        // nginx merges slashes before it matches a location (`merge_slashes`, on by default),
        // so the one-address redirect of the other URL rules would match the clean address
        // too and loop: the request line as sent is matched instead, and the redirect is built
        // from its parts as sent (still percent-encoded: `$uri` is decoded, and would turn
        // `%2F` into a slash and `%0D%0A` into a header line). Each redirect drops one run of
        // slashes, so a path with several runs takes one redirect each.
        let known = c.known_url.then(|| c.url.clone()).filter(|u| u.path().contains("//"));
        let clean_url =
            known.as_ref().map_or_else(|| "TODO: the page's address with single slashes".to_string(), clean);
        FixTemplate::some(
            FixKind::ServerConfig,
            Difficulty::Medium,
            format!(
                "# nginx, in the server block: a path sent with slashes in a row goes to its single-slash form\nif ($request_uri ~ \"^([^?]*?)//+(.*)$\") {{\n    return 301 $1/$2;\n}}\n\n# Apache (.htaccess)\nRewriteEngine On\nRewriteCond %{{THE_REQUEST}} \"^\\S+\\s([^?\\s]*?)//+(\\S*)\"\nRewriteRule ^ %1/%2 [R=301,L,NE]\n\n# and in the page's <head>\n# <link rel=\"canonical\" href=\"{clean_url}\">"
            ),
            "Redirect every address with repeated slashes to its single-slash form permanently, and fix the template or link that writes the extra slash.",
        )
    }
}

/// A path with each run of slashes made one.
fn collapse(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for ch in path.chars() {
        if !(ch == '/' && out.ends_with('/')) {
            out.push(ch);
        }
    }
    out
}

/// The address with single slashes in its path.
fn clean(url: &url::Url) -> String {
    let mut u = url.clone();
    let path = collapse(u.path());
    u.set_path(&path);
    u.to_string()
}
