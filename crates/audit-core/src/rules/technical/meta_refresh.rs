//! A `<meta http-equiv="refresh">` a browser acts on ([`Page::meta_refresh`]: the first one
//! whose `content` is a valid refresh, wherever it is in the document, read as HTML's
//! "shared declarative refresh steps" read it). One inside `<noscript>` is left out: a
//! browser running scripts never sees it, and it is the usual fallback for visitors without
//! them (twitter.com's pages send those to a no-script router that way). With a URL it is a redirect made by the page:
//! Google follows an immediate one as a permanent redirect and a delayed one as a temporary
//! redirect, and other crawlers may not follow it at all, so a server redirect is the fix.
//! Without one it reloads the page every so many seconds, which WCAG 2.2.1 asks visitors be
//! able to turn off. Screaming Frog ("Meta Refresh") and Sitebulb report both. A notice: the
//! commonest case on real sites, the immediate redirect of a static site's alias page (Hugo
//! writes one for every `aliases` entry; flink.apache.org has 263), is followed by Google as
//! a permanent redirect, and costs a fetch and a parse where a server redirect costs neither.
//!
//! The HTTP `Refresh` header does the same ([`Page::refresh`]): browsers read it with the
//! pragma's steps, before the document, and then act on no `<meta>` refresh; it is reported
//! the same way, named as the header.

use crate::rules::prelude::*;
use crate::RefreshPragma;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct MetaRefresh;

static META: RuleMeta = RuleMeta {
    id: "meta-refresh",
    name: "Page neither redirects nor reloads by meta refresh",
    category: Category::Technical,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Medium,
    confidence: 95,
    weight: 1,
    threshold: "a <meta http-equiv=\"refresh\"> a browser acts on, or an HTTP Refresh header",
    why: "A meta refresh redirect is slower than a server redirect and weaker for search engines (Google takes a delayed one as temporary; other crawlers may not follow it); a timed reload moves the page under its readers and screen readers.",
    fail_example: "<meta http-equiv=\"refresh\" content=\"0; url=https://example.com/new\">",
    pass_example: "the server answers 301 with Location: https://example.com/new",
    reference: "https://developers.google.com/search/docs/crawling-indexing/301-redirects#metarefresh",
    phrases: &["meta refresh", "refresh redirect", "http equiv refresh", "refresh header"],
    excluded: &[],
    glossary: &["301-redirect"],
};

impl Rule for MetaRefresh {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let Some(refresh) = page.refresh() else { return Outcome::Pass };
        let with = if refresh.header { "a Refresh header" } else { "a meta refresh" };
        // A refresh to `#part` scrolls within the page, once: no redirect, no reload.
        if refresh.url.as_deref().is_some_and(|u| u.trim_start().starts_with('#')) {
            return Outcome::Pass;
        }
        let s = refresh.seconds;
        let after =
            if s == 0 { "at once".to_string() } else { format!("after {s} second{}", if s == 1 { "" } else { "s" }) };
        let finding = match target(page, &refresh) {
            Some(to) => {
                let how = if s == 0 {
                    "Google follows it as a permanent redirect, other crawlers may not"
                } else {
                    "Google takes a delayed one as a temporary redirect and may keep this URL indexed"
                };
                Finding::new(
                    format!("Page redirects with {with}"),
                    format!("The page sends visitors to {to} {after} with {with}: {how}. Redirect on the server with a 301 instead."),
                )
                .current(to.clone())
                .suggested(format!("301 redirect to {to}"))
            }
            None => Finding::new(
                format!("Page reloads itself with {with}"),
                format!(
                    "The page reloads itself {} with {with}: readers lose their place and cannot stop it. Update what changes with a script, or let readers reload.",
                    if s == 0 { "as soon as it loads, without end".to_string() } else { format!("every {s} second{}", if s == 1 { "" } else { "s" }) }
                ),
            )
            .current(if refresh.header { format!("Refresh: {s}") } else { format!("content=\"{s}\"") })
            .suggested("no automatic reload"),
        };
        Outcome::Fail(finding.at(page, Some(refresh.spot)))
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        let refresh = c.page.and_then(Page::refresh);
        let target = c.page.zip(refresh.as_ref()).and_then(|(page, refresh)| target(page, refresh));
        match &refresh {
            Some(refresh) if refresh.header && target.is_none() => {
                return FixTemplate::some(
                    FixKind::ServerConfig,
                    Difficulty::Medium,
                    "# nginx: remove the header where it is added (add_header Refresh ...), or drop it from the upstream's answer\nproxy_hide_header Refresh;\n\n# Apache (.htaccess)\nHeader unset Refresh",
                    "Remove the timed reload; if part of the page must stay current (scores, prices), update that part with a script, or offer a button to reload.",
                );
            }
            Some(_) if target.is_none() => {
                return FixTemplate::some(
                    FixKind::Html,
                    Difficulty::Medium,
                    "<!-- remove the <meta http-equiv=\"refresh\"> from the page's <head> -->",
                    "Remove the timed reload; if part of the page must stay current (scores, prices), update that part with a script, or offer a button to reload.",
                );
            }
            _ => {}
        }
        let remove = if refresh.as_ref().is_some_and(|r| r.header) {
            "the Refresh header from the answer"
        } else {
            "the <meta http-equiv=\"refresh\"> (and any script redirect) from the page"
        };
        // Without the page, the finding's target (an address) or stand-ins marked TODO.
        let target = target.or_else(|| {
            c.current_token().filter(|v| url::Url::parse(v).is_ok_and(|u| u.has_host())).map(str::to_string)
        });
        let path = if c.known_url { c.url.path().to_string() } else { "/old-address".to_string() };
        let mut todo = String::new();
        if !c.known_url {
            todo.push_str("# TODO: replace /old-address with the path of the page that redirects\n");
        }
        let target = target.unwrap_or_else(|| {
            todo.push_str(&format!("# TODO: replace {}/new-address with the address to redirect to\n", c.origin()));
            format!("{}/new-address", c.origin())
        });
        FixTemplate::some(
            FixKind::ServerConfig,
            Difficulty::Medium,
            format!("{todo}# nginx: answer the old address with a permanent redirect\nlocation = {path} {{\n    return 301 {target};\n}}\n\n# Apache (.htaccess): this address only, not the paths below it\nRedirectMatch 301 ^{}$ {target}", regex_escape(&path)),
            format!("Redirect on the server with a 301 and remove {remove}; link to the new address directly."),
        )
    }
}

/// Where the page's refresh goes, resolved; `None` when it reloads the page itself (no URL,
/// or the page's own).
fn target(page: &Page, refresh: &RefreshPragma) -> Option<String> {
    let written = refresh.url.as_deref()?;
    let to = page.resolve(written).unwrap_or_else(|| written.to_string());
    (!util::same_url(&to, &page.final_url)).then_some(to)
}

/// A path as a regular expression that matches it alone (Apache's `RedirectMatch`).
fn regex_escape(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for c in path.chars() {
        if "\\.+*?()|[]{}^$".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}
