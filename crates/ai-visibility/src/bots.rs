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
    /// The deciding rule as a robots.txt line (`Disallow: /`; the longest match wins, `Allow`
    /// a tie), or why none decided: `no rule matched: allowed by default` (a group applies
    /// but none of its rules matches), `no group names it and there is no User-agent: *
    /// group: allowed by default`, `no robots.txt: allowed by default`, `/robots.txt itself
    /// is always allowed`, or, blocked, `robots.txt unreachable (<reason>): complete
    /// disallow (RFC 9309)`.
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

    /// (verdict, group, line, rule) of `bot` for `path` under `robots_txt`.
    fn judged(
        robots_txt: Option<&str>,
        bot: &str,
        path: &str,
    ) -> (CrawlerAccess, Option<String>, Option<usize>, String) {
        let robots = robots_txt.map(|t| Robots::parse(t.as_bytes()));
        let c = CrawlerVerdict::judge(find_bot(bot).unwrap(), robots.as_ref(), path);
        (c.verdict, c.group, c.line, c.rule)
    }

    fn expect(
        verdict: CrawlerAccess,
        group: Option<&str>,
        line: Option<usize>,
        rule: &str,
    ) -> (CrawlerAccess, Option<String>, Option<usize>, String) {
        (verdict, group.map(str::to_owned), line, rule.to_owned())
    }

    use CrawlerAccess::{Allowed, Blocked};

    #[test]
    fn the_group_naming_the_crawler_beats_the_star_group() {
        let txt = "User-agent: *\nDisallow: /\n\nUser-agent: GPTBot/1.1\nAllow: /\n\nUser-agent: Claude\nAllow: /\n";
        // `GPTBot/1.1` names GPTBot (the product token); its `Allow: /` wins although the `*`
        // group disallows everything.
        assert_eq!(
            judged(Some(txt), "GPTBot", "/a"),
            expect(Allowed, Some("User-agent: GPTBot/1.1"), Some(5), "Allow: /")
        );
        // `Claude` is another token than `ClaudeBot`: the `*` group decides for it.
        assert_eq!(
            judged(Some(txt), "ClaudeBot", "/a"),
            expect(Blocked, Some("User-agent: *"), Some(2), "Disallow: /")
        );
        // A named group without a matching rule still shadows `*`.
        let shadow = "User-agent: *\nDisallow: /\nUser-agent: CCBot\nDisallow: /private\n";
        assert_eq!(
            judged(Some(shadow), "CCBot", "/"),
            expect(Allowed, Some("User-agent: CCBot"), None, NO_RULE_MATCHED)
        );
        assert_eq!(judged(Some(shadow), "GPTBot", "/"), expect(Blocked, Some("User-agent: *"), Some(2), "Disallow: /"));
        // A group naming several crawlers is reported whole.
        let shared = "User-agent: ClaudeBot\nUser-agent: ccbot\nDisallow: /\n";
        assert_eq!(
            judged(Some(shared), "CCBot", "https://example.com/x"),
            expect(Blocked, Some("User-agent: ClaudeBot\nUser-agent: ccbot"), Some(3), "Disallow: /")
        );
    }

    #[test]
    fn the_longest_match_decides_and_allow_wins_a_tie() {
        let txt = "User-agent: GPTBot\nDisallow: /\nAllow: /blog\nDisallow: /blog/drafts\nAllow: /*.html$\nDisallow: /same\nAllow: /same\n";
        let g = Some("User-agent: GPTBot");
        assert_eq!(judged(Some(txt), "GPTBot", "/about"), expect(Blocked, g, Some(2), "Disallow: /"));
        assert_eq!(judged(Some(txt), "GPTBot", "/blog/post"), expect(Allowed, g, Some(3), "Allow: /blog"));
        assert_eq!(
            judged(Some(txt), "GPTBot", "/blog/drafts/x"),
            expect(Blocked, g, Some(4), "Disallow: /blog/drafts")
        );
        // `/*.html$` (8 bytes) is longer than `/blog` (5) but shorter than `/blog/drafts` (12).
        assert_eq!(judged(Some(txt), "GPTBot", "/blog/a.html"), expect(Allowed, g, Some(5), "Allow: /*.html$"));
        assert_eq!(
            judged(Some(txt), "GPTBot", "/blog/drafts/a.html"),
            expect(Blocked, g, Some(4), "Disallow: /blog/drafts")
        );
        assert_eq!(judged(Some(txt), "GPTBot", "/same/x"), expect(Allowed, g, Some(7), "Allow: /same"));
    }

    #[test]
    fn without_a_group_for_it_the_star_group_decides() {
        let txt = "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /admin\n";
        let star = Some("User-agent: *");
        assert_eq!(judged(Some(txt), "PerplexityBot", "/admin/x"), expect(Blocked, star, Some(5), "Disallow: /admin"));
        assert_eq!(judged(Some(txt), "PerplexityBot", "/"), expect(Allowed, star, None, NO_RULE_MATCHED));
        // Neither a group naming it nor a `*` group.
        let only_gpt = "User-agent: GPTBot\nDisallow: /\n";
        assert_eq!(judged(Some(only_gpt), "ClaudeBot", "/"), expect(Allowed, None, None, NO_GROUP_APPLIES));
        assert_eq!(judged(Some(""), "ClaudeBot", "/"), expect(Allowed, None, None, NO_GROUP_APPLIES));
    }

    #[test]
    fn without_a_robots_txt_everything_is_allowed_by_default() {
        assert_eq!(judged(None, "GPTBot", "/"), expect(Allowed, None, None, NO_ROBOTS_TXT));
        let all = ai_crawlers(None, "https://example.com/page");
        assert_eq!(all.len(), AI_BOTS.len());
        assert!(all.iter().all(|c| c.verdict == Allowed && c.rule == NO_ROBOTS_TXT && c.group.is_none()));
        // An unreachable robots.txt blocks everything, and says why.
        let down = Robots::unreachable("HTTP 503");
        let c = CrawlerVerdict::judge(find_bot("GPTBot").unwrap(), Some(&down), "/");
        assert_eq!(
            (c.verdict, c.group, c.line, c.rule.as_str()),
            (Blocked, None, None, "robots.txt unreachable (HTTP 503): complete disallow (RFC 9309)")
        );
        let robots = Robots::parse(b"User-agent: *\nDisallow: /\n");
        let c = CrawlerVerdict::judge(find_bot("GPTBot").unwrap(), Some(&robots), "https://example.com/robots.txt");
        assert_eq!((c.verdict, c.rule.as_str()), (Allowed, ROBOTS_TXT_ITSELF));
    }

    #[test]
    fn line_numbers_count_comments_blank_lines_and_every_line_ending() {
        let lf = "# robots.txt of example.com\n\n# AI crawlers\nUser-agent: GPTBot # OpenAI\n\n# everything\nDisallow: / # all of it\n\nUser-agent: *\n# nothing else\n\nDisallow: /tmp\n";
        let rows = [
            ("GPTBot", "/", expect(Blocked, Some("User-agent: GPTBot"), Some(7), "Disallow: /")),
            ("CCBot", "/tmp/x", expect(Blocked, Some("User-agent: *"), Some(12), "Disallow: /tmp")),
        ];
        let bom_crlf = format!("\u{feff}{}", lf.replace('\n', "\r\n"));
        for body in [lf.to_owned(), lf.replace('\n', "\r"), bom_crlf] {
            for (bot, path, expected) in &rows {
                assert_eq!(&judged(Some(&body), bot, path), expected, "{bot} in {body:?}");
            }
        }
    }

    #[test]
    fn bot_access_is_the_same_reading() {
        let txt =
            "User-agent: *\nDisallow: /admin\n\nUser-agent: GPTBot\nDisallow: /\n\nUser-agent: ClaudeBot\nAllow: /\n";
        for robots in [None, Some(Robots::parse(txt.as_bytes())), Some(Robots::unreachable("HTTP 500"))] {
            for path in ["/", "/admin/x"] {
                let crawlers = ai_crawlers(robots.as_ref(), path);
                let access = ai_bot_access(robots.as_ref(), path);
                assert_eq!(crawlers.len(), access.len());
                for (c, a) in crawlers.iter().zip(&access) {
                    assert_eq!((c.bot, c.blocked()), (a.bot, a.blocked));
                    // `rule` of the access is the crawler's rule exactly when a rule decided.
                    let decided = c.line.is_some() || robots.as_ref().is_some_and(|r| r.unreachable_reason().is_some());
                    assert_eq!(a.rule.as_deref(), decided.then_some(c.rule.as_str()), "{} {path}", c.bot);
                }
            }
        }
        let named: Vec<&str> = named_crawlers(None, "/").iter().map(|c| c.bot).collect();
        assert_eq!(named, NAMED_BOTS);
    }

    #[test]
    fn crawler_verdict_serialises_as_the_wire_shape() {
        let robots = Robots::parse(b"User-agent: *\nAllow: /\n\nUser-agent: GPTBot\nDisallow: /\n");
        let crawlers = ai_crawlers(Some(&robots), "/");
        assert_eq!(
            serde_json::to_value(&crawlers[0]).unwrap(),
            serde_json::json!({"bot": "GPTBot", "operator": "OpenAI", "purpose": "training", "verdict": "blocked",
                "group": "User-agent: GPTBot", "line": 5, "rule": "Disallow: /"})
        );
        let none = CrawlerVerdict::judge(find_bot("ChatGPT-User").unwrap(), None, "/");
        assert_eq!(
            serde_json::to_value(&none).unwrap(),
            serde_json::json!({"bot": "ChatGPT-User", "operator": "OpenAI", "purpose": "user_fetch", "verdict": "allowed",
                "group": null, "line": null, "rule": NO_ROBOTS_TXT})
        );
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
