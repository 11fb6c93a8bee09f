//! The lines of the site's robots.txt that search engines do not read as written, found by
//! the caller's robots.txt reader (the service and the crawl use `ai-visibility`'s, which
//! reads the file as Google's parser does; docs/RULES.md lists what it reports) and handed
//! to the audit with the robots.txt verdict. Lighthouse's "robots.txt is valid", except
//! where Google reads a line Lighthouse calls invalid: a misspelt key Google accepts is
//! reported with what Google reads it as, `Noindex` as unsupported. A page audited without
//! its site (a local file) and a robots.txt that could not be read (`robots-txt-blocked`'s)
//! are left out.

use crate::page::RobotsTxtProblem;
use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct RobotsTxtInvalid;

static META: RuleMeta = RuleMeta {
    id: "robots-txt-invalid",
    name: "robots.txt is read as written",
    category: Category::Technical,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 90,
    weight: 1,
    threshold: "a line of robots.txt that search engines ignore or read otherwise than written",
    why: "A rule search engines ignore does not protect what it was written for, and one they read otherwise blocks or opens other URLs than intended.",
    fail_example: "Dissallow: private/",
    pass_example: "Disallow: /private/",
    reference: "https://developer.chrome.com/docs/lighthouse/seo/invalid-robots-txt",
    phrases: &["robots txt invalid", "invalid robots", "robots txt error", "robots txt syntax", "robots txt read written"],
    excluded: &["blocked", "disallows this", "ai crawler"],
    glossary: &["robots-txt"],
};

/// Problem lines a finding names at most.
const NAMED: usize = 10;

impl Rule for RobotsTxtInvalid {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let Some(robots) = page.http.robots_txt.as_ref().filter(|r| r.read) else { return Outcome::NotApplicable };
        let Some(first) = robots.problems.first() else { return Outcome::Pass };
        let n = robots.problems_total;
        // The named lines grouped by what is wrong with them, in the order first met.
        let named = &robots.problems[..robots.problems.len().min(NAMED)];
        let mut groups: Vec<(&str, Vec<&RobotsTxtProblem>)> = Vec::new();
        for p in named {
            match groups.iter_mut().find(|(m, _)| *m == p.message) {
                Some((_, lines)) => lines.push(p),
                None => groups.push((&p.message, vec![p])),
            }
        }
        let parts: Vec<String> = groups
            .iter()
            .map(|(message, lines)| {
                let numbers: Vec<String> = lines.iter().map(|p| p.line.to_string()).collect();
                let word = if lines.len() == 1 { "Line" } else { "Lines" };
                format!("{word} {} (`{}`): {message}", numbers.join(", "), lines[0].text)
            })
            .collect();
        let more = if n > named.len() { format!(" And {} more.", n - named.len()) } else { String::new() };
        Outcome::Fail(
            Finding::new(
                "robots.txt has lines search engines do not read as written",
                format!("{n} line{} of robots.txt. {}{more}", if n == 1 { "" } else { "s" }, parts.join(" ")),
            )
            .current(format!("line {}: {}", first.line, first.text))
            .suggested(corrected(page, first).unwrap_or_else(|| "remove the line".into())),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        let problems: &[RobotsTxtProblem] =
            c.page.and_then(|p| p.http.robots_txt.as_ref()).map_or(&[], |r| &r.problems[..]);
        let mut code = String::new();
        let mut said = "";
        for p in problems.iter().take(NAMED) {
            // What is wrong is said once for lines in a row with the same problem.
            if p.message != said {
                if !code.is_empty() {
                    code.push('\n');
                }
                code.push_str(&format!("# {}\n", p.message.replace('\n', " ")));
                said = &p.message;
            }
            match c.page.and_then(|page| corrected(page, p)) {
                Some(line) => code.push_str(&format!("{line}\n")),
                None => code.push_str(&format!("# remove line {}: {}\n", p.line, p.text)),
            }
        }
        if code.is_empty() {
            code = "User-agent: *\nDisallow: /TODO: the path to keep crawlers out of\n\nSitemap: https://TODO: your site/sitemap.xml\n"
                .to_string();
        }
        FixTemplate::some(
            FixKind::Robots,
            Difficulty::Easy,
            code.trim_end().to_string() + "\n",
            "Write each line of /robots.txt as `Key: value` with a key every crawler knows (User-agent, Allow, Disallow, Sitemap), paths from `/`, rules under a User-agent line and sitemaps as full URLs; replace the lines named here as shown, and test the file in Search Console's robots.txt report.",
        )
    }
}

/// The line as it should be written: the reader's correction, or for a relative `Sitemap`
/// the full URL on the page's own origin.
fn corrected(page: &Page, p: &RobotsTxtProblem) -> Option<String> {
    if let Some(line) = &p.corrected {
        return Some(line.clone());
    }
    let (key, value) = p.text.split_once(':')?;
    if !key.trim().eq_ignore_ascii_case("sitemap") {
        return None;
    }
    let value = value.trim();
    (value.starts_with('/') && !value.starts_with("//"))
        .then(|| page.parsed_url()?.join(value).ok())
        .flatten()
        .map(|u| format!("Sitemap: {u}"))
}
