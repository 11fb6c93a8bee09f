//! AI visibility: how a site presents itself to AI crawlers and assistants.
//!
//! Pure engines, no I/O: callers fetch `/robots.txt` and `/llms.txt` and hand the
//! bodies in. Parsing never fails; oddities are data on the result.
//!
//! - [`Robots`]: a robots.txt parsed per RFC 9309 with the documented behaviour of
//!   Google's reference parser (groups, longest match, `Allow` wins ties, `*` and `$`,
//!   percent-encoding normalisation, BOM, CR/LF/CRLF, over-long lines, accepted typos).
//!   [`Robots::verdict`] answers for one user agent and URL and names the deciding
//!   rule; [`Robots::sitemaps`], [`Robots::crawl_delay`] and [`Robots::stats`] give the
//!   rest. Helpers from the reference: [`get_path_params_query`], [`escape_pattern`],
//!   [`is_valid_user_agent`].
//! - [`LlmsTxt`]: an llms.txt parsed and validated against the llmstxt.org format;
//!   [`LlmsTxt::valid`] is true when no [`Issue`] is an error, and
//!   [`LlmsTxt::report`] builds the `llms_txt` object of `/api/ai-readiness`
//!   ([`LlmsTxtReport`]).
//! - [`AI_BOTS`]: the one table of AI crawlers ([`AiBot`]: token, operator,
//!   [`Purpose`]); [`NAMED_BOTS`] are the three the interface names.
//!   [`ai_bot_access`] gives each one's [`BotAccess`] under a robots.txt, and
//!   [`RobotsTxtReport`] is the `robots_txt` object of `/api/ai-readiness`.
//!
//! ```
//! use ai_visibility::{ai_bot_access, LlmsTxt, Robots};
//!
//! let robots = Robots::parse(b"User-agent: *\nDisallow: /admin\n\nUser-agent: GPTBot\nDisallow: /\n");
//! assert!(!robots.is_allowed("GPTBot", "https://example.com/blog/post"));
//! assert!(robots.is_allowed("ClaudeBot", "/blog/post"));
//! assert_eq!(robots.verdict("ClaudeBot", "/admin/x").matched_rule.as_deref(), Some("Disallow: /admin"));
//!
//! let access = ai_bot_access(Some(&robots), "/");
//! let gpt = access.iter().find(|a| a.bot == "GPTBot").unwrap();
//! assert!(gpt.blocked);
//! assert_eq!(gpt.rule.as_deref(), Some("Disallow: /"));
//!
//! let llms = LlmsTxt::parse("# Example\n\n> What it is.\n\n## Docs\n\n- [Guide](https://example.com/guide.md): start here\n");
//! assert!(llms.valid());
//! assert_eq!(llms.sections[0].links[0].notes.as_deref(), Some("start here"));
//! ```

mod bots;
mod llms;
mod robots;

pub use bots::{ai_bot_access, find_bot, AiBot, BotAccess, Purpose, RobotsTxtReport, AI_BOTS, NAMED_BOTS};
pub use llms::{Issue, IssueCode, Link, LlmsTxt, LlmsTxtReport, Section, Severity};
pub use robots::{
    escape_pattern, get_path_params_query, is_valid_user_agent, AgentLine, Group, MatchedGroup, ParseStats, Robots,
    Rule, RuleKind, Verdict, MAX_LINE_LEN, MAX_ROBOTS_BYTES,
};
