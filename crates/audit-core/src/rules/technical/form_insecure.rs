//! A form sends what a visitor typed to the URL it submits to (HTML's "form submission"): its
//! `action` resolved against the base URL, or the page's own URL when `action` is missing or
//! empty. Forms with `method="dialog"` only close a dialog and send nothing, and are left out;
//! a button's own `formaction` is not read (it overrides the form's target for that button
//! only). On an https page, a form that submits to an `http:` URL sends its data in the clear
//! (browsers warn before sending it); on an http page, every form does, and browsers mark the
//! page "Not secure" as soon as the visitor types into it.

use crate::page::Form;
use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct FormInsecure;

static META: RuleMeta = RuleMeta {
    id: "form-insecure",
    name: "Forms send their data over https",
    category: Category::Technical,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 95,
    weight: 1,
    threshold: "a <form> that submits to an http:// URL, or any form on an http page",
    why: "What a visitor types into such a form travels unencrypted: browsers mark the page \"Not secure\" while they type and warn before sending it, and visitors leave.",
    fail_example: "<form action=\"http://example.com/subscribe\" method=\"post\">",
    pass_example: "<form action=\"https://example.com/subscribe\" method=\"post\">",
    reference: "https://developer.chrome.com/blog/chrome-86-mixed-forms",
    phrases: &["insecure form", "form http", "form action http", "mixed form", "form not secure"],
    excluded: &[],
    glossary: &["https"],
};

/// The forms that submit something, each with whether it sends its data over plain http.
fn forms(page: &Page) -> Vec<(&Form, bool)> {
    let page_http = page.parsed_url().is_some_and(|u| u.scheme() == "http");
    page.forms
        .iter()
        .filter(|f| f.method != "dialog")
        .map(|f| (f, page_http || f.url.as_deref().is_some_and(util::is_http_url)))
        .collect()
}

impl Rule for FormInsecure {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let all = forms(page);
        if all.is_empty() {
            return Outcome::NotApplicable;
        }
        let insecure: Vec<&Form> = all.iter().filter(|(_, http)| *http).map(|(f, _)| *f).collect();
        let Some(first) = insecure.first() else { return Outcome::Pass };
        let mut target = first.url.clone().unwrap_or_default();
        let description = if page.parsed_url().is_some_and(|u| u.scheme() == "http") {
            // The page itself is the problem: even a form that submits to https can be altered
            // on its way to the visitor.
            target = page.final_url.clone();
            let n = insecure.len();
            let to_http = insecure.iter().filter(|f| f.url.as_deref().is_some_and(util::is_http_url)).count();
            format!(
                "The page is served over plain http: browsers mark it \"Not secure\" as visitors type into its {n} form{}, and anyone on the network can read or change the page{}.",
                if n == 1 { "" } else { "s" },
                match to_http {
                    0 => String::new(),
                    k if k == n => ", and what the forms send".to_string(),
                    k => format!(", and what {k} of the forms send"),
                }
            )
        } else {
            format!(
                "{} of {} forms submit to plain http:// URLs: what visitors type leaves the secure page unencrypted, and browsers warn before sending it.",
                insecure.len(),
                all.len()
            )
        };
        Outcome::Fail(
            Finding::new("Form sends its data over http", description)
                .current(target.clone())
                .suggested(util::with_https(&target))
                .at(page, insecure.iter().map(|f| f.spot)),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        let mut targets: Vec<(String, String)> = Vec::new();
        for (form, _) in c.page.map(forms).unwrap_or_default().into_iter().filter(|(_, http)| *http) {
            let Some(url) = form.url.as_deref() else { continue };
            if targets.len() == 10 {
                break;
            }
            if !targets.iter().any(|(u, _)| u == url) {
                targets.push((url.to_string(), form.method.clone()));
            }
        }
        if targets.is_empty() {
            let given = c.current_token().filter(|v| v.starts_with("http://")).map(str::to_string);
            targets.push((given.unwrap_or_else(|| "https://TODO: the form action, with https".into()), "post".into()));
        }
        let code = targets
            .iter()
            .map(|(u, method)| {
                format!(
                    "<form action=\"{}\" method=\"{}\">\n  <!-- the form's fields and buttons, as they are -->\n</form>",
                    attr(&util::with_https(u)),
                    attr(method)
                )
            })
            .collect::<Vec<_>>()
            .join("\n");
        FixTemplate::some(
            FixKind::Html,
            Difficulty::Easy,
            code,
            "Serve the page over https and give each form an https action (check that the target answers over https first); keep each form's other attributes and its fields as they are.",
        )
    }
}
