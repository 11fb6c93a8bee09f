//! Property tests of the robots.txt matcher (RFC 9309: longest match wins, `Allow` wins a
//! tie, a named group shadows `*`) and of the llms.txt parser: no input makes them panic.

use ai_visibility::{find_bot, CrawlerVerdict, LlmsTxt, Robots};
use proptest::prelude::*;

/// A product token as robots.txt names it.
fn user_agent() -> impl Strategy<Value = String> {
    prop_oneof![Just("GPTBot".to_string()), Just("Googlebot".to_string()), "[A-Za-z_-]{1,16}"]
}

/// A path without the pattern characters `*` and `$`, so it matches itself literally. It
/// never starts with `//`, which names an authority (see `double_slash_starts_an_authority`).
fn plain_path() -> impl Strategy<Value = String> {
    "/[A-Za-z0-9._~-]{1,10}(/[A-Za-z0-9._~-]{0,10}){0,3}/?(\\?[a-z]{1,4}=[a-z0-9]{0,4})?"
}

/// Lines that look like robots.txt, with the odd bytes real files contain.
fn robots_line() -> impl Strategy<Value = String> {
    prop_oneof![
        user_agent().prop_map(|ua| format!("User-agent: {ua}")),
        Just("User-agent: *".to_string()),
        "[ -~]{0,16}".prop_map(|p| format!("Disallow: {p}")),
        "[ -~]{0,16}".prop_map(|p| format!("Allow: {p}")),
        "[ -~]{0,8}".prop_map(|d| format!("Crawl-delay: {d}")),
        "[ -~]{0,24}".prop_map(|s| format!("Sitemap: {s}")),
        Just("# comment".to_string()),
        Just(String::new()),
        "\\PC{0,24}",
    ]
}

fn robots_body() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..1024),
        (prop::collection::vec(robots_line(), 0..24), prop::sample::select(vec!["\n", "\r\n", "\r"]))
            .prop_map(|(lines, eol)| lines.join(eol).into_bytes()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn robots_never_panics(body in robots_body(), ua in "\\PC{0,24}", path in "\\PC{0,48}") {
        let robots = Robots::parse(&body);
        let verdict = robots.verdict(&ua, &path);
        prop_assert_eq!(verdict.allowed, robots.is_allowed(&ua, &path));
        let _ = robots.crawl_delay(&ua);
        prop_assert_eq!(Robots::parse(&body), robots, "parsing is deterministic");
    }

    #[test]
    fn empty_robots_allows_everything(ua in user_agent(), path in "\\PC{0,48}") {
        prop_assert!(Robots::parse(b"").is_allowed(&ua, &path));
    }

    #[test]
    fn disallow_root_refuses_every_path_but_robots_txt(ua in user_agent(), path in plain_path()) {
        let robots = Robots::parse(b"User-agent: *\nDisallow: /\n");
        prop_assert_eq!(robots.is_allowed(&ua, &path), path == "/robots.txt", "{}", path);
        prop_assert!(robots.is_allowed(&ua, "/robots.txt"));
    }

    #[test]
    fn allowing_the_exact_path_wins(ua in user_agent(), path in plain_path()) {
        // Longer than `/`, so the longest match decides for it.
        let robots = Robots::parse(format!("User-agent: *\nDisallow: /\nAllow: {path}\n").as_bytes());
        prop_assert!(robots.is_allowed(&ua, &path), "{}", path);
    }

    #[test]
    fn allow_wins_a_tie(ua in user_agent(), path in plain_path()) {
        let robots = Robots::parse(format!("User-agent: *\nDisallow: {path}\nAllow: {path}\n").as_bytes());
        prop_assert!(robots.is_allowed(&ua, &path), "{}", path);
        let reversed = Robots::parse(format!("User-agent: *\nAllow: {path}\nDisallow: {path}\n").as_bytes());
        prop_assert!(reversed.is_allowed(&ua, &path), "{}", path);
    }

    #[test]
    fn longer_disallow_beats_shorter_allow(ua in user_agent(), path in plain_path(), extra in "[a-z]{1,6}") {
        let longer = format!("{path}{extra}");
        let robots = Robots::parse(format!("User-agent: *\nAllow: {path}\nDisallow: {longer}\n").as_bytes());
        prop_assert!(!robots.is_allowed(&ua, &longer) || longer == "/robots.txt", "{}", longer);
    }

    #[test]
    fn a_named_group_shadows_the_star_group(ua in user_agent(), path in plain_path()) {
        let robots = Robots::parse(format!("User-agent: *\nDisallow: /\n\nUser-agent: {ua}\nAllow: /\n").as_bytes());
        prop_assert!(robots.is_allowed(&ua, &path), "{} {}", ua, path);
    }

    /// A crawler verdict is the matcher's verdict, and its line is a rule line of the group
    /// it names, spelt as the file spells it.
    #[test]
    fn crawler_verdicts_point_at_the_file(
        lines in prop::collection::vec(prop_oneof![
            prop::sample::select(vec!["GPTBot", "gptbot", "ClaudeBot", "CCBot", "*", "Other"])
                .prop_map(|ua| format!("User-agent: {ua}")),
            "/[a-c*$]{0,4}".prop_map(|p| format!("Disallow: {p}")),
            "/[a-c*$]{0,4}".prop_map(|p| format!("Allow: {p}  # why")),
            Just("# comment".to_string()),
            Just(String::new()),
        ], 0..20),
        path in "/[a-c]{0,5}",
    ) {
        let text = lines.join("\n");
        let robots = Robots::parse(text.as_bytes());
        for name in ["GPTBot", "ClaudeBot", "CCBot", "PerplexityBot"] {
            let c = CrawlerVerdict::judge(find_bot(name).unwrap(), Some(&robots), &path);
            let v = robots.verdict(name, &path);
            prop_assert_eq!(c.blocked(), !v.allowed);
            let group = robots.deciding_group(&v);
            prop_assert_eq!(c.group.clone(), group.map(|g| g.agent_lines()));
            if let Some(n) = c.line {
                let written = lines[n - 1].split('#').next().unwrap().trim();
                prop_assert_eq!(written, c.rule.as_str());
                prop_assert!(group.unwrap().rules.iter().any(|r| r.line == n));
                for agent in &group.unwrap().agents {
                    prop_assert_eq!(lines[agent.line - 1].as_str(), agent.to_line());
                }
            } else {
                prop_assert!(!c.blocked(), "a block always names its rule: {:?}", c);
            }
        }
    }

    #[test]
    fn llms_txt_never_panics_and_is_deterministic(text in prop_oneof![
        "\\PC{0,512}",
        prop::collection::vec(prop_oneof![
            "# [ -~]{0,16}".prop_map(String::from),
            "> [ -~]{0,16}".prop_map(String::from),
            "## [ -~]{0,16}".prop_map(String::from),
            "- \\[[ -~]{0,8}\\]\\([ -~]{0,16}\\)(: [ -~]{0,8})?".prop_map(String::from),
            "\\PC{0,24}".prop_map(String::from),
        ], 0..24).prop_map(|lines| lines.join("\n")),
    ]) {
        let parsed = LlmsTxt::parse(&text);
        prop_assert_eq!(&parsed, &LlmsTxt::parse(&text));
        let report = parsed.report("https://example.com/llms.txt");
        prop_assert!(serde_json::to_string(&report).is_ok());
    }
}

/// Found by `allowing_the_exact_path_wins` with paths such as `//`: like the reference
/// matcher's `GetPathParamsQuery`, a leading `//` starts a network-path reference, so `//`
/// is host-only (path `/`) and `//x/y` has the path `/y`. `Allow: //` therefore does not
/// apply to it, and `Disallow: /` does. Reference behaviour, kept as it is.
#[test]
fn double_slash_starts_an_authority() {
    let robots = Robots::parse(b"User-agent: *\nDisallow: /\nAllow: //\nAllow: /y\n");
    assert!(!robots.is_allowed("GPTBot", "//"));
    assert!(robots.is_allowed("GPTBot", "//x/y"));
    assert_eq!(ai_visibility::get_path_params_query("//x/y"), "/y");
}
