//! The one table of AI crawlers, and their access under a robots.txt.

use serde::Serialize;

use crate::robots::{get_path_params_query, Group, MatchedGroup, Robots};

/// What an operator uses a crawler's fetches for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Purpose {
    /// Collects content to train models (or controls whether fetched content may be).
    Training,
    /// Indexes content for an AI search or answer engine.
    Search,
    /// Fetches a page because a user asked an assistant about it.
    UserFetch,
}

/// One AI crawler, as a site names it in robots.txt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AiBot {
    /// The robots.txt user-agent token, e.g. `GPTBot`.
    pub name: &'static str,
    /// Who runs it.
    pub operator: &'static str,
    /// What its fetches are for.
    pub purpose: Purpose,
    /// One of the three crawlers the AI-readiness check names ([`NAMED_BOTS`]).
    pub named: bool,
}

const fn bot(name: &'static str, operator: &'static str, purpose: Purpose) -> AiBot {
    AiBot { name, operator, purpose, named: false }
}

const fn named(name: &'static str, operator: &'static str, purpose: Purpose) -> AiBot {
    AiBot { name, operator, purpose, named: true }
}

use Purpose::{Search, Training, UserFetch};

/// Every AI crawler the scan reports, the three named ones first.
///
/// Tokens are those the operators document for robots.txt. Every token is made of
/// `[A-Za-z_-]` only, because a robots.txt matcher compares nothing else (see
/// [`crate::is_valid_user_agent`]); crawlers whose token holds a digit or a space
/// cannot be addressed reliably and are left out. `Google-Extended` and
/// `Applebot-Extended` fetch nothing themselves: they are the tokens that control
/// whether content fetched by the search crawlers may train models.
pub const AI_BOTS: &[AiBot] = &[
    named("GPTBot", "OpenAI", Training),
    named("ClaudeBot", "Anthropic", Training),
    named("PerplexityBot", "Perplexity", Search),
    bot("OAI-SearchBot", "OpenAI", Search),
    bot("ChatGPT-User", "OpenAI", UserFetch),
    bot("anthropic-ai", "Anthropic", Training),
    bot("Claude-SearchBot", "Anthropic", Search),
    bot("Claude-User", "Anthropic", UserFetch),
    bot("Claude-Web", "Anthropic", UserFetch),
    bot("Perplexity-User", "Perplexity", UserFetch),
    bot("Google-Extended", "Google", Training),
    bot("GoogleOther", "Google", Training),
    bot("Applebot-Extended", "Apple", Training),
    bot("CCBot", "Common Crawl", Training),
    bot("Bytespider", "ByteDance", Training),
    bot("Meta-ExternalAgent", "Meta", Training),
    bot("Meta-ExternalFetcher", "Meta", UserFetch),
    bot("FacebookBot", "Meta", Training),
    bot("Amazonbot", "Amazon", Search),
    bot("cohere-ai", "Cohere", UserFetch),
    bot("cohere-training-data-crawler", "Cohere", Training),
    bot("DuckAssistBot", "DuckDuckGo", Search),
    bot("MistralAI-User", "Mistral AI", UserFetch),
    bot("Diffbot", "Diffbot", Training),
    bot("YouBot", "You.com", Search),
    bot("Timpibot", "Timpi", Training),
    bot("omgili", "Webz.io", Training),
    bot("ImagesiftBot", "ImageSift", Training),
    bot("PanguBot", "Huawei", Training),
];

/// The three crawlers named by the AI-readiness check.
pub const NAMED_BOTS: [&str; 3] = ["GPTBot", "ClaudeBot", "PerplexityBot"];

/// The table entry for a robots.txt token, compared case-insensitively.
pub fn find_bot(name: &str) -> Option<&'static AiBot> {
    AI_BOTS.iter().find(|b| b.name.eq_ignore_ascii_case(name))
}

/// One crawler's access to a path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "AiBotAccess", deny_unknown_fields))]
pub struct BotAccess {
    /// The robots.txt token, e.g. `GPTBot`.
    pub bot: &'static str,
    /// Who runs it.
    pub operator: &'static str,
    /// What its fetches are for.
    pub purpose: Purpose,
    /// Whether robots.txt forbids it the path.
    pub blocked: bool,
    /// The deciding rule, e.g. `Disallow: /`; `None` when no rule applies.
    pub rule: Option<String>,
}

/// The access of every crawler in [`AI_BOTS`] to `path` (a path or a URL), in table
/// order. Without a robots.txt (`None`: absent or not fetched) everything is allowed; an
/// unreachable one ([`Robots::unreachable`]) blocks everything. The same reading as
/// [`ai_crawlers`], in the shape of the readiness answer's `ai_bots`.
pub fn ai_bot_access(robots: Option<&Robots>, path: &str) -> Vec<BotAccess> {
    ai_crawlers(robots, path).iter().map(CrawlerVerdict::access).collect()
}

/// Whether robots.txt lets a crawler fetch the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "AiCrawlerAccess"))]
#[serde(rename_all = "snake_case")]
pub enum CrawlerAccess {
    /// robots.txt lets it fetch the page.
    Allowed,
    /// robots.txt forbids it the page.
    Blocked,
}

/// The `rule` of a crawler no rule decided for, in a group that applies to it.
pub const NO_RULE_MATCHED: &str = "no rule matched: allowed by default";
/// The `rule` of a crawler under a robots.txt with neither a group naming it nor a
/// `User-agent: *` group.
pub const NO_GROUP_APPLIES: &str = "no group names it and there is no User-agent: * group: allowed by default";
/// The `rule` of every crawler of a site without a robots.txt.
pub const NO_ROBOTS_TXT: &str = "no robots.txt: allowed by default";
/// The `rule` for `/robots.txt` itself, which every crawler may fetch.
pub const ROBOTS_TXT_ITSELF: &str = "/robots.txt itself is always allowed";

/// One crawler judged under robots.txt, with the group and the line that decided
/// (docs/API.md, "POST /api/ai-visibility-scan": `crawlers`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "AiCrawlerVerdict", deny_unknown_fields))]
pub struct CrawlerVerdict {
    /// The robots.txt token, e.g. `GPTBot`.
    pub bot: &'static str,
    /// Who runs it.
    pub operator: &'static str,
    /// What its fetches are for.
    pub purpose: Purpose,
    /// Whether robots.txt lets it fetch the page.
    pub verdict: CrawlerAccess,
    /// The user-agent line(s) of the group that decided, as robots.txt spells them and one
    /// per line (`User-agent: GPTBot`, or `User-agent: ClaudeBot\nUser-agent: CCBot`): the
    /// group naming the crawler, else the `User-agent: *` group. `null` when no group
    /// applies (no robots.txt, no group for it, or an unreachable file).
    pub group: Option<String>,
    /// 1-based line number in robots.txt of the deciding rule; `null` when no rule decided.
    #[cfg_attr(feature = "schema", schemars(range(min = 1)))]
    pub line: Option<usize>,
    /// The deciding rule as a robots.txt line (`Disallow: /`, longest match, `Allow` winning
    /// a tie), or why none decided: [`NO_RULE_MATCHED`], [`NO_GROUP_APPLIES`],
    /// [`NO_ROBOTS_TXT`], [`ROBOTS_TXT_ITSELF`], or for an unreachable robots.txt
    /// `robots.txt unreachable (<reason>): complete disallow (RFC 9309)`.
    #[cfg_attr(feature = "schema", schemars(length(min = 1)))]
    pub rule: String,
}

impl CrawlerVerdict {
    /// How robots.txt (`None`: the site has none) judges `bot` for `path` (a path or a URL).
    pub fn judge(bot: &'static AiBot, robots: Option<&Robots>, path: &str) -> CrawlerVerdict {
        let (allowed, group, line, rule) = match robots {
            None => (true, None, None, NO_ROBOTS_TXT.to_owned()),
            Some(robots) => {
                let verdict = robots.verdict(bot.name, path);
                let group = robots.deciding_group(&verdict).map(Group::agent_lines);
                let rule = match verdict.matched_rule {
                    Some(rule) => rule,
                    None if get_path_params_query(path) == "/robots.txt" => ROBOTS_TXT_ITSELF.to_owned(),
                    None if verdict.group == MatchedGroup::None => NO_GROUP_APPLIES.to_owned(),
                    None => NO_RULE_MATCHED.to_owned(),
                };
                (verdict.allowed, group, verdict.line, rule)
            }
        };
        CrawlerVerdict {
            bot: bot.name,
            operator: bot.operator,
            purpose: bot.purpose,
            verdict: if allowed { CrawlerAccess::Allowed } else { CrawlerAccess::Blocked },
            group,
            line,
            rule,
        }
    }

    /// Whether robots.txt forbids the crawler the page.
    pub fn blocked(&self) -> bool {
        self.verdict == CrawlerAccess::Blocked
    }

    /// The same verdict as a [`BotAccess`], whose `rule` is the deciding rule only: a
    /// robots.txt line, or the reason an unreachable file blocks everything (a block always
    /// has one); `None` when the crawler is allowed by default.
    pub fn access(&self) -> BotAccess {
        let decided = self.line.is_some() || self.blocked();
        BotAccess {
            bot: self.bot,
            operator: self.operator,
            purpose: self.purpose,
            blocked: self.blocked(),
            rule: decided.then(|| self.rule.clone()),
        }
    }
}

/// The verdict of every crawler in [`AI_BOTS`] for `path` (a path or a URL), in table
/// order; see [`CrawlerVerdict::judge`].
pub fn ai_crawlers(robots: Option<&Robots>, path: &str) -> Vec<CrawlerVerdict> {
    AI_BOTS.iter().map(|bot| CrawlerVerdict::judge(bot, robots, path)).collect()
}

/// The verdicts of the three [`NAMED_BOTS`], in that order.
pub fn named_crawlers(robots: Option<&Robots>, path: &str) -> Vec<CrawlerVerdict> {
    NAMED_BOTS.iter().filter_map(|name| find_bot(name)).map(|bot| CrawlerVerdict::judge(bot, robots, path)).collect()
}

/// The `robots_txt` object of the `/api/ai-readiness` response.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(deny_unknown_fields))]
pub struct RobotsTxtReport {
    /// Whether the site serves a robots.txt.
    pub present: bool,
    /// Why the site's robots.txt could not be read (e.g. `HTTP 503`), when it could not:
    /// every crawler then counts as blocked (RFC 9309 §2.3.1.4). Absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub unreachable: Option<String>,
    /// Every crawler of [`AI_BOTS`], in table order (in the readiness answer: the three
    /// [`NAMED_BOTS`]).
    #[cfg_attr(feature = "schema", schemars(length(min = 3, max = 3)))]
    pub ai_bots: Vec<BotAccess>,
    /// How many of them are blocked.
    #[cfg_attr(feature = "schema", schemars(range(max = 3)))]
    pub blocked_count: usize,
}

impl RobotsTxtReport {
    /// The report for `path` under `robots` (`None` when the site has no robots.txt).
    pub fn new(robots: Option<&Robots>, path: &str) -> RobotsTxtReport {
        let ai_bots = ai_bot_access(robots, path);
        let blocked_count = ai_bots.iter().filter(|a| a.blocked).count();
        let unreachable = robots.and_then(Robots::unreachable_reason).map(str::to_string);
        RobotsTxtReport { present: robots.is_some() && unreachable.is_none(), unreachable, ai_bots, blocked_count }
    }

    /// The access of the three [`NAMED_BOTS`], in that order.
    pub fn named(&self) -> impl Iterator<Item = &BotAccess> {
        NAMED_BOTS.iter().filter_map(|name| self.ai_bots.iter().find(|a| a.bot == *name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::robots::is_valid_user_agent;

    #[test]
    fn table_is_well_formed() {
        assert!(AI_BOTS.len() >= 20);
        for (i, bot) in AI_BOTS.iter().enumerate() {
            assert!(is_valid_user_agent(bot.name), "{} is matchable", bot.name);
            assert!(AI_BOTS[..i].iter().all(|b| !b.name.eq_ignore_ascii_case(bot.name)), "{} is unique", bot.name);
            assert_eq!(bot.named, NAMED_BOTS.contains(&bot.name), "{} flag", bot.name);
        }
        for name in NAMED_BOTS {
            assert!(find_bot(name).is_some_and(|b| b.named));
        }
        for required in [
            "OAI-SearchBot",
            "ChatGPT-User",
            "Google-Extended",
            "CCBot",
            "Applebot-Extended",
            "anthropic-ai",
            "Claude-User",
            "Claude-SearchBot",
            "Bytespider",
            "Meta-ExternalAgent",
            "Amazonbot",
            "cohere-ai",
            "Perplexity-User",
            "DuckAssistBot",
            "Diffbot",
            "YouBot",
            "MistralAI-User",
            "Timpibot",
            "omgili",
            "ImagesiftBot",
        ] {
            assert!(find_bot(required).is_some(), "{required} is in the table");
        }
    }

    fn check(robots_txt: Option<&str>, path: &str, expected: &[(&str, bool, Option<&str>)]) {
        let robots = robots_txt.map(|t| Robots::parse(t.as_bytes()));
        let access = ai_bot_access(robots.as_ref(), path);
        assert_eq!(access.len(), AI_BOTS.len());
        for (bot, blocked, rule) in expected {
            let a = access.iter().find(|a| a.bot == *bot).unwrap();
            assert_eq!((a.blocked, a.rule.as_deref()), (*blocked, *rule), "{bot} under {robots_txt:?} for {path}");
        }
    }

    #[test]
    fn access_follows_robots() {
        check(None, "/", &[("GPTBot", false, None), ("CCBot", false, None)]);
        check(Some(""), "/", &[("GPTBot", false, None)]);
        let txt = "User-agent: *\nDisallow: /admin\n\nUser-agent: GPTBot\nUser-agent: ccbot\nDisallow: /\n\nUser-agent: ClaudeBot\nAllow: /\n";
        check(
            Some(txt),
            "/",
            &[
                ("GPTBot", true, Some("Disallow: /")),
                ("CCBot", true, Some("Disallow: /")),
                ("ClaudeBot", false, Some("Allow: /")),
                ("PerplexityBot", false, None),
            ],
        );
        check(
            Some(txt),
            "https://example.com/admin/x",
            &[("PerplexityBot", true, Some("Disallow: /admin")), ("ClaudeBot", false, Some("Allow: /"))],
        );
        // A specific group without a matching rule shadows the `*` group.
        check(
            Some("User-agent: *\nDisallow: /\nUser-agent: GPTBot\nDisallow: /private\n"),
            "/",
            &[("GPTBot", false, None), ("OAI-SearchBot", true, Some("Disallow: /"))],
        );
    }

    #[test]
    fn report_counts_blocked_bots() {
        let robots = Robots::parse(b"User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n");
        let report = RobotsTxtReport::new(Some(&robots), "/");
        assert!(report.present);
        assert_eq!(report.blocked_count, 2);
        let named: Vec<(&str, bool)> = report.named().map(|a| (a.bot, a.blocked)).collect();
        assert_eq!(named, [("GPTBot", true), ("ClaudeBot", false), ("PerplexityBot", false)]);
        let absent = RobotsTxtReport::new(None, "/");
        assert_eq!((absent.present, absent.blocked_count, absent.ai_bots.len()), (false, 0, AI_BOTS.len()));
    }

    #[test]
    fn serialises_as_the_wire_shape() {
        let robots = Robots::parse(b"User-agent: GPTBot\nDisallow: /\n");
        let access = ai_bot_access(Some(&robots), "/");
        let json = serde_json::to_value(&access[0]).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"bot": "GPTBot", "operator": "OpenAI", "purpose": "training", "blocked": true, "rule": "Disallow: /"})
        );
    }
}
