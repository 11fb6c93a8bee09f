//! The prompts agents can ask for (docs/API.md, the agent-tool endpoint): ready-made
//! requests that tell an agent which tools to call, in which order, and how to present the
//! result. The texts and their argument checks live here; the server maps them to the
//! protocol's prompt types.

use std::collections::BTreeMap;

use crate::fixes::{DEFAULT_TOP_N, MAX_TOP_N};

/// Longest argument value a prompt accepts; longer values are refused rather than echoed.
pub const MAX_ARGUMENT_CHARS: usize = 2048;

/// One argument of a prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArgumentInfo {
    /// Its name.
    pub name: &'static str,
    /// What it is.
    pub description: &'static str,
    /// Whether the prompt needs it.
    pub required: bool,
}

/// What a prompt is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PromptInfo {
    /// Its name.
    pub name: &'static str,
    /// What it asks for.
    pub description: &'static str,
    /// Its arguments, in order.
    pub arguments: &'static [ArgumentInfo],
}

const fn arg(name: &'static str, description: &'static str, required: bool) -> ArgumentInfo {
    ArgumentInfo { name, description, required }
}

/// Every prompt, in a fixed order.
pub const PROMPTS: [PromptInfo; 4] = [
    PromptInfo {
        name: "audit_website",
        description: "Audit a web page for SEO and explain the results with a prioritised action plan.",
        arguments: &[
            arg("url", "Absolute http or https URL of the page", true),
            arg(
                "focus",
                "Optional area to concentrate on: technical, content, performance, or a free-text topic",
                false,
            ),
        ],
    },
    PromptInfo {
        name: "explain_seo_issue",
        description: "Explain an SEO issue (an audit rule id or an issue title) in plain words, with how to fix it.",
        arguments: &[arg("issue", "A rule id such as meta-description-missing, or an issue title", true)],
    },
    PromptInfo {
        name: "prioritize_seo_fixes",
        description: "Rank a page's SEO problems by expected gain and produce ready-to-apply fixes for the top ones.",
        arguments: &[
            arg("url", "Absolute http or https URL of the page", true),
            arg("maxItems", "How many fixes to produce, 1 to 20 (default 5)", false),
        ],
    },
    PromptInfo {
        name: "analyze_ai_visibility",
        description:
            "Assess how well a site can be found and cited by AI assistants and AI search, and what to change.",
        arguments: &[arg("url", "Absolute http or https URL of the page (usually the home page)", true)],
    },
];

/// A rendered prompt: one user message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    /// What this instance of the prompt is.
    pub description: String,
    /// The user message.
    pub text: String,
}

/// Why a prompt could not be rendered: an unknown prompt, or the argument that is missing
/// or unusable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct PromptError(String);

type Args = BTreeMap<String, String>;

fn required<'a>(args: &'a Args, name: &str) -> Result<&'a str, PromptError> {
    let value = args.get(name).map(|v| v.trim()).unwrap_or("");
    if value.is_empty() {
        return Err(PromptError(format!("argument {name} is required")));
    }
    if value.chars().count() > MAX_ARGUMENT_CHARS {
        return Err(PromptError(format!("argument {name} is longer than {MAX_ARGUMENT_CHARS} characters")));
    }
    Ok(value)
}

fn optional<'a>(args: &'a Args, name: &str) -> Result<Option<&'a str>, PromptError> {
    match args.get(name).map(|v| v.trim()) {
        None | Some("") => Ok(None),
        Some(_) => required(args, name).map(Some),
    }
}

fn url(args: &Args) -> Result<&str, PromptError> {
    let url = required(args, "url")?;
    let lower = url.to_ascii_lowercase();
    let has_host = ["http://", "https://"].iter().any(|s| lower.starts_with(s) && lower.len() > s.len());
    if !has_host || url.chars().any(char::is_whitespace) {
        return Err(PromptError(format!("url must be an absolute http or https URL, got {url:?}")));
    }
    Ok(url)
}

fn user(description: String, text: String) -> Rendered {
    Rendered { description, text }
}

/// Renders a prompt from its arguments.
pub fn render(name: &str, args: &Args) -> Result<Rendered, PromptError> {
    match name {
        "audit_website" => audit_website(args),
        "explain_seo_issue" => explain_seo_issue(args),
        "prioritize_seo_fixes" => prioritize_seo_fixes(args),
        "analyze_ai_visibility" => analyze_ai_visibility(args),
        _ => Err(PromptError(format!("unknown prompt {name:?}"))),
    }
}
fn audit_website(args: &Args) -> Result<Rendered, PromptError> {
    let url = url(args)?;
    let focus = optional(args, "focus")?;
    let group =
        focus.map(str::to_ascii_lowercase).filter(|f| ["technical", "content", "performance"].contains(&f.as_str()));
    let focus_text = match (focus, &group) {
        (_, Some(g)) => format!(
            "\n\nFocus on the {g} group: call get_audit_methodology with category \"{g}\" to see its rules, and \
             discuss only issues whose category belongs to it (mention the others in one line)."
        ),
        (Some(topic), None) => format!(
            "\n\nThe user is most interested in: {topic}. Give issues related to that topic first, and use \
             get_seo_concept to explain the terms involved."
        ),
        (None, None) => String::new(),
    };
    let text = format!(
        "Audit the web page {url} for SEO with the seo-audit tools.\n\n\
         1. Call get_site_info with url {url}. If the page is not reachable, answers a non-2xx status, or is not \
         indexable (noindex, robots.txt block), say so first: nothing else matters until that is fixed.\n\
         2. Call seo_audit with url {url} for the score and the full list of issues.\n\
         3. Call get_opportunities with url {url} to rank the issues by expected gain.\n\
         4. For any issue whose meaning is not obvious, call get_seo_concept with its id.\n\n\
         Report: the score (percentage) and what it means; the critical issues; the top five opportunities, each \
         with what is wrong, why it matters and the concrete change; then the remaining warnings briefly. Quote \
         rule ids so the user can look them up. Do not invent findings the tools did not report.{focus_text}"
    );
    Ok(user(format!("SEO audit of {url}"), text))
}

fn explain_seo_issue(args: &Args) -> Result<Rendered, PromptError> {
    let issue = required(args, "issue")?;
    let text = format!(
        "Explain the SEO issue \"{issue}\" to a website owner who is not an SEO specialist.\n\n\
         1. Call get_seo_concept with concept \"{issue}\". If it answers found: false, call it again with the best \
         of its suggestions, or with the key term of the issue title.\n\
         2. If the result lists relatedRules, call get_audit_methodology to quote the exact threshold and severity \
         of those rules.\n\n\
         Answer in three short parts: what it is (one or two sentences), why it matters for search and for \
         visitors, and how to fix it step by step, with a code example when the fix is markup. Mention related \
         concepts the owner should check next."
    );
    Ok(user(format!("Explanation of {issue}"), text))
}

fn prioritize_seo_fixes(args: &Args) -> Result<Rendered, PromptError> {
    let url = url(args)?;
    let max_items = match optional(args, "maxItems")? {
        None => DEFAULT_TOP_N,
        Some(v) => match v.parse::<u64>() {
            Ok(n) if (1..=MAX_TOP_N).contains(&n) => n,
            _ => return Err(PromptError(format!("maxItems must be an integer from 1 to {MAX_TOP_N}, got {v:?}"))),
        },
    };
    let text = format!(
        "Decide which SEO fixes matter most for {url} and prepare them.\n\n\
         1. Call get_opportunities with url {url}: issues ranked by priority score (rule weight, impact and \
         effort).\n\
         2. Call generate_fixes with url {url} and topN {max_items} for ready-to-apply code for the top issues.\n\
         3. Where a fix needs context, call get_seo_concept with the rule id.\n\n\
         Present at most {max_items} items in priority order. For each: the rule id and title, why it is ranked \
         there (impact, effort, weight), the fix exactly as generated (code block), where to put it, and how to \
         verify it (re-run seo_audit or detect_regressions). End with the expected score gain if all are applied, \
         stated as an estimate."
    );
    Ok(user(format!("Top {max_items} SEO fixes for {url}"), text))
}

fn analyze_ai_visibility(args: &Args) -> Result<Rendered, PromptError> {
    let url = url(args)?;
    let text = format!(
        "Assess how visible {url} is to AI assistants and AI search engines (ChatGPT, Claude, Perplexity, Google \
         AI Overviews).\n\n\
         1. Call get_site_info with url {url}: is the page reachable and indexable, and what does robots.txt say?\n\
         2. Call scan_ai_visibility with url {url}: a deterministic 0-100 score for the four AI-visibility \
         pillars, the checks behind each pillar, every known AI crawler with the robots.txt line that decides it, \
         and recommendations.\n\
         3. Call check_ai_readiness with url {url} for the llms.txt report (present, valid, its issues) and the \
         page's semantic HTML (landmarks, heading outline).\n\
         4. Read the resource svc://data-sources for the AI crawlers this service knows and what each is used for, \
         and call get_seo_concept for \"ai-crawlers\", \"llms-txt\" and \"geo\" to ground your advice.\n\n\
         Report in four parts matching the pillars of scan_ai_visibility: llms.txt (present and valid?), AI bot \
         access (which crawlers robots.txt blocks, and whether that is deliberate: training vs search vs user \
         fetch), answer structure (question-shaped headings, direct answers, lists, semantic HTML), and entity \
         clarity (Organization structured data, consistent name, sameAs links). For each, give the pillar's score, \
         what you found, what to change, and a snippet where useful (auto_fix_batch writes snippets for issues \
         you name). Quote only what the tools reported."
    );
    Ok(user(format!("AI visibility of {url}"), text))
}

#[cfg(test)]
mod tests {
    use super::*;
    use audit_core::rules::content::TitleMissing;
    use audit_core::Rule;

    fn args(pairs: &[(&str, &str)]) -> Args {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn every_listed_prompt_renders_with_its_required_arguments() {
        for p in PROMPTS {
            let given: Vec<(&str, &str)> = p
                .arguments
                .iter()
                .filter(|a| a.required)
                .map(|a| (a.name, if a.name == "url" { "https://e.example/" } else { TitleMissing.meta().id }))
                .collect();
            let rendered = render(p.name, &args(&given)).unwrap_or_else(|e| panic!("{}: {e}", p.name));
            assert!(!rendered.text.is_empty() && !rendered.description.is_empty());
        }
    }

    #[test]
    fn unusable_arguments_are_named() {
        let err = |name: &str, pairs: &[(&str, &str)]| render(name, &args(pairs)).map(|_| ()).unwrap_err().to_string();
        assert_eq!(err("audit_website", &[]), "argument url is required");
        assert_eq!(
            err("audit_website", &[("url", "ftp://e")]),
            "url must be an absolute http or https URL, got \"ftp://e\""
        );
        assert_eq!(
            err("prioritize_seo_fixes", &[("url", "https://e.example/"), ("maxItems", "0")]),
            "maxItems must be an integer from 1 to 20, got \"0\""
        );
        let long = "a".repeat(MAX_ARGUMENT_CHARS + 1);
        assert_eq!(
            err("explain_seo_issue", &[("issue", &long)]),
            format!("argument issue is longer than {MAX_ARGUMENT_CHARS} characters")
        );
        assert_eq!(err("nope", &[]), "unknown prompt \"nope\"");
    }
}
