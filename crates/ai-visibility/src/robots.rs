//! robots.txt parsing and matching per RFC 9309, following the behaviour of
//! Google's open-source reference parser (`robots.cc`) wherever the RFC leaves room.
//!
//! The reference is a streaming parser that answers one (user agent, URL) question
//! per parse. Here the file is parsed once into groups and every question is answered
//! from them; the grouping below is chosen so that the answers are identical.

use std::sync::Arc;

use audit_core::RobotsTxtProblem;
use serde::Serialize;

/// Bytes of one line the reference keeps; the rest of an over-long line is dropped.
///
/// The reference allocates `2083 * 8` bytes (eight maximal URLs) and keeps one for
/// the terminating NUL, so 16 663 bytes of content survive.
pub const MAX_LINE_LEN: usize = 2083 * 8 - 1;

/// Bytes of a robots.txt body that are read; Google documents a 500 KiB limit and
/// ignores what follows, which also bounds the work an adversarial file can cause.
pub const MAX_ROBOTS_BYTES: usize = 500 * 1024;

const UTF8_BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];

/// Whether a rule allows or disallows its pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RuleKind {
    /// `Allow:`
    Allow,
    /// `Disallow:` (and the typos the reference accepts for it)
    Disallow,
}

impl RuleKind {
    fn label(self) -> &'static str {
        match self {
            RuleKind::Allow => "Allow",
            RuleKind::Disallow => "Disallow",
        }
    }
}

/// One `Allow` or `Disallow` line of a group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    /// Allow or disallow.
    pub kind: RuleKind,
    /// The value as written (lossily decoded when it is not UTF-8).
    pub value: String,
    /// The value after [`escape_pattern`]: what is matched, and whose byte length is
    /// the rule's priority.
    pub pattern: String,
    /// 1-based line number in the file.
    pub line: usize,
    /// For an `Allow` ending in `/index.htm...`, the reference also tries the
    /// directory itself anchored with `$` (`/a/index.html` also allows `/a/`).
    index_fallback: Option<String>,
}

impl Rule {
    /// The rule as a robots.txt line, e.g. `Disallow: /private`.
    pub fn to_line(&self) -> String {
        format!("{}: {}", self.kind.label(), self.value)
    }

    /// Priority of this rule for `path` (the pattern length), or `None` when it does
    /// not match.
    fn priority(&self, path: &[u8]) -> Option<usize> {
        if pattern_matches(path, self.pattern.as_bytes()) {
            return Some(self.pattern.len());
        }
        let fallback = self.index_fallback.as_deref()?;
        pattern_matches(path, fallback.as_bytes()).then_some(fallback.len())
    }
}

/// One `User-agent:` line of a group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentLine {
    /// The value as written.
    pub value: String,
    /// The `[A-Za-z_-]+` prefix the reference matches against the crawler's name.
    pub token: String,
    /// `*`, or `*` followed by whitespace and anything (a Google extension).
    pub global: bool,
    /// 1-based line number in the file.
    pub line: usize,
    /// The value up to the first whitespace or `/`: the whole product token as written.
    product: String,
}

impl AgentLine {
    /// The line as robots.txt spells it, e.g. `User-agent: GPTBot` (the key normalised, the
    /// value as written).
    pub fn to_line(&self) -> String {
        format!("User-agent: {}", self.value)
    }

    fn parse(raw: &[u8], line: usize) -> AgentLine {
        let global = raw.first() == Some(&b'*') && raw.get(1).is_none_or(|&c| is_space(c));
        let token_len = raw.iter().take_while(|&&c| is_user_agent_char(c)).count();
        let product_len = raw.iter().take_while(|&&c| !is_space(c) && c != b'/').count();
        AgentLine {
            value: String::from_utf8_lossy(raw).into_owned(),
            token: String::from_utf8_lossy(&raw[..token_len]).into_owned(),
            global,
            line,
            product: String::from_utf8_lossy(&raw[..product_len]).into_owned(),
        }
    }

    /// Whether this line names `user_agent`.
    ///
    /// The reference compares the caller's name with the `[A-Za-z_-]+` prefix of the
    /// value only, so a crawler whose own name holds a digit (`MJ12bot`, `008`) could
    /// never be named: `User-agent: MJ12bot` becomes `MJ`. We also accept the whole
    /// product token as written; for names made of `[A-Za-z_-]` only (every AI crawler
    /// in [`crate::AI_BOTS`]) the answer is the reference's.
    fn names(&self, user_agent: &str) -> bool {
        // An empty token comes from a value such as `/` or `ツ`; it names nobody.
        if self.global || user_agent.is_empty() {
            return false;
        }
        (!self.token.is_empty() && self.token.eq_ignore_ascii_case(user_agent))
            || (!is_valid_user_agent(user_agent) && self.product.eq_ignore_ascii_case(user_agent))
    }
}

/// A group: consecutive user-agent lines and the rules that follow them.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// The user-agent lines, in file order.
    pub agents: Vec<AgentLine>,
    /// The allow and disallow rules, in file order.
    pub rules: Vec<Rule>,
    /// 1-based line of the first user-agent line.
    pub line: usize,
    /// `Content-Signal:` lines of the group, in file order.
    pub content_signals: Vec<ContentSignalLine>,
    /// `Crawl-delay` values with the number of agents declared before each, so that
    /// a delay applies to the agents listed above it only.
    crawl_delays: Vec<(usize, f64)>,
}

impl Group {
    fn new(line: usize) -> Group {
        Group { agents: Vec::new(), rules: Vec::new(), line, content_signals: Vec::new(), crawl_delays: Vec::new() }
    }

    /// The group's user-agent lines as robots.txt spells them, one per line (joined by
    /// `\n`), e.g. `User-agent: GPTBot\nUser-agent: CCBot`.
    pub fn agent_lines(&self) -> String {
        self.agents.iter().map(AgentLine::to_line).collect::<Vec<_>>().join("\n")
    }

    fn delay_for(&self, agent_index: usize) -> Option<f64> {
        self.crawl_delays.iter().find(|(declared, _)| agent_index < *declared).map(|(_, d)| *d)
    }
}

/// One `Content-Signal:` line (the Content Signals Policy a CDN writes into the robots.txt it
/// manages: `Content-Signal: search=yes, ai-train=no`). It belongs to the group it stands in,
/// like a rule; RFC 9309 parsers ignore it, and it stops no crawler: it states what the site
/// owner permits the content to be used for once fetched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContentSignalLine {
    /// 1-based line number in the file.
    pub line: usize,
    /// The value as written, e.g. `search=yes, ai-train=no`.
    pub value: String,
    /// Each `name=value` pair, names lower-cased, values as written (trimmed), in order.
    pub signals: Vec<(String, String)>,
    /// Pieces of the value that are no `name=value` pair.
    pub malformed: Vec<String>,
}

impl ContentSignalLine {
    fn parse(raw: &[u8], line: usize) -> ContentSignalLine {
        let value = String::from_utf8_lossy(raw).into_owned();
        let mut signals = Vec::new();
        let mut malformed = Vec::new();
        for piece in value.split([',', ';']).map(str::trim).filter(|p| !p.is_empty()) {
            match piece.split_once('=') {
                Some((name, v)) if !name.trim().is_empty() && !v.trim().is_empty() => {
                    signals.push((name.trim().to_ascii_lowercase(), v.trim().to_owned()))
                }
                _ => malformed.push(piece.to_owned()),
            }
        }
        ContentSignalLine { line, value, signals, malformed }
    }

    /// The value of signal `name` (lower case) on this line, the last one when repeated.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.signals.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// What the parser saw, with the counts the reference's test reporter keeps.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ParseStats {
    /// Lines read, counting a final line without a line ending.
    pub lines: usize,
    /// User-agent, allow, disallow and sitemap lines.
    pub valid_directives: usize,
    /// Key-value lines with any other key (including `Crawl-delay`).
    pub unknown_directives: usize,
    /// Line number of the last key-value line, valid or not (0 if none).
    pub last_line_seen: usize,
    /// Lines longer than [`MAX_LINE_LEN`] that were cut.
    pub truncated_lines: usize,
    /// Allow or disallow lines before any user-agent line; they apply to no one.
    pub rules_outside_groups: usize,
    /// Whether the body was longer than [`MAX_ROBOTS_BYTES`] and cut.
    pub truncated_body: bool,
}

/// Lines of a robots.txt kept as [`RobotsTxtProblem`]s at most (the audit's own type, so that
/// the audit of every page of a site shares the list); the rest are counted
/// ([`Robots::problems_total`]).
pub const MAX_LINE_PROBLEMS: usize = 50;

/// Which group decided a verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchedGroup {
    /// A group naming the user agent.
    Specific,
    /// The `*` group (no group names the user agent).
    Global,
    /// No group applies.
    None,
}

/// The answer to "may this user agent fetch this URL", with the reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// Whether fetching is allowed.
    pub allowed: bool,
    /// The rule that decided, e.g. `Disallow: /private`; `None` when no rule with a
    /// non-empty pattern matched (everything is allowed then).
    pub matched_rule: Option<String>,
    /// 1-based line of that rule.
    pub line: Option<usize>,
    /// Which kind of group applied.
    pub group: MatchedGroup,
    /// The index in [`Robots::groups`] of the group that decided ([`Robots::deciding_group`]):
    /// the group holding the deciding rule; when no rule decided, the first group that
    /// applied (the first naming the agent, else the first `*` group). `None` when no group
    /// applies (and for `/robots.txt` itself and an unreachable file).
    #[serde(skip)]
    pub group_index: Option<usize>,
}

/// A parsed robots.txt file. Parsing never fails: any byte sequence is a robots.txt,
/// and lines that make no sense are ignored (and counted in [`ParseStats`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Robots {
    groups: Vec<Group>,
    sitemaps: Vec<String>,
    agentmaps: Vec<String>,
    default_crawl_delay: Option<f64>,
    stats: ParseStats,
    unreachable: Option<String>,
    problems: Arc<[RobotsTxtProblem]>,
    problems_total: usize,
}

impl Robots {
    /// The robots.txt of a site whose file could not be read: it answered a server error
    /// (5xx) or did not answer at all. RFC 9309 §2.3.1.4: crawlers then assume complete
    /// disallow, so every verdict (but for `/robots.txt` itself) is "disallowed", and the
    /// deciding rule says why. `reason` is shown in it, e.g. `HTTP 503`.
    pub fn unreachable(reason: impl Into<String>) -> Robots {
        Robots { unreachable: Some(reason.into()), ..Robots::default() }
    }

    /// Why the file could not be read, for a [`Robots::unreachable`] site.
    pub fn unreachable_reason(&self) -> Option<&str> {
        self.unreachable.as_deref()
    }

    /// The lines search engines do not read as written, in order, at most
    /// [`MAX_LINE_PROBLEMS`] of them (one per line): a line that is no `key: value`, a key
    /// written without its colon or misspelt (Google accepts `Dissallow`, `User agent`,
    /// `Disallow /x`; other crawlers may not), a directive no search engine reads (`Noindex`,
    /// unsupported by Google since 2019) or an unknown one, a rule before any `User-agent`
    /// line, a `User-agent` without a name, a path that starts with neither `/` nor `*`, a
    /// `$` before the pattern's end, a `Sitemap` that is no absolute http(s) URL, a line cut
    /// at [`MAX_LINE_LEN`]. A body over [`MAX_ROBOTS_BYTES`] is in [`ParseStats`].
    pub fn problems(&self) -> &[RobotsTxtProblem] {
        &self.problems
    }

    /// The same list, shared: what each page's audit is handed
    /// ([`audit_core::RobotsTxtFact::with_problems`]) without a copy.
    pub fn shared_problems(&self) -> Arc<[RobotsTxtProblem]> {
        Arc::clone(&self.problems)
    }

    /// How many lines have a problem, kept or not.
    pub fn problems_total(&self) -> usize {
        self.problems_total
    }

    /// Parses a robots.txt body.
    pub fn parse(body: &[u8]) -> Robots {
        let mut builder = Builder::default();
        let truncated_body = body.len() > MAX_ROBOTS_BYTES;
        let body = &body[..body.len().min(MAX_ROBOTS_BYTES)];

        let mut line: Vec<u8> = Vec::with_capacity(256);
        let mut line_num = 0;
        let mut too_long = false;
        let mut bom_pos = 0;
        let mut last_was_cr = false;
        for &ch in body {
            // A BOM (or the start of one) is skipped only at the very beginning.
            if bom_pos < UTF8_BOM.len() {
                let is_bom = ch == UTF8_BOM[bom_pos];
                bom_pos += 1;
                if is_bom {
                    continue;
                }
            }
            bom_pos = UTF8_BOM.len();
            if ch != b'\n' && ch != b'\r' {
                if line.len() < MAX_LINE_LEN {
                    line.push(ch);
                } else {
                    too_long = true;
                }
                continue;
            }
            // The LF of a CRLF ends no extra (empty) line.
            let crlf_continuation = line.is_empty() && last_was_cr && ch == b'\n';
            if !crlf_continuation {
                line_num += 1;
                builder.line(line_num, &line, too_long);
            }
            line.clear();
            too_long = false;
            last_was_cr = ch == b'\r';
        }
        line_num += 1;
        builder.line(line_num, &line, too_long);

        let mut robots = builder.finish();
        robots.stats.lines = line_num;
        robots.stats.truncated_body = truncated_body;
        robots
    }

    /// Whether `user_agent` may fetch `url_or_path` (a full URL or a path; the URL is
    /// expected to be percent-encoded already, as the reference expects).
    pub fn is_allowed(&self, user_agent: &str, url_or_path: &str) -> bool {
        self.verdict(user_agent, url_or_path).allowed
    }

    /// The verdict for `user_agent` on `url_or_path`, with the deciding rule.
    ///
    /// `user_agent` is a product token such as `GPTBot`, compared case-insensitively
    /// with the `[A-Za-z_-]+` prefix of each user-agent line. Groups naming it are
    /// merged; only when none names it does the `*` group apply. The longest matching
    /// pattern wins and `Allow` wins a tie. `/robots.txt` itself is always allowed.
    pub fn verdict(&self, user_agent: &str, url_or_path: &str) -> Verdict {
        let path = get_path_params_query(url_or_path);
        if path == "/robots.txt" {
            return Verdict {
                allowed: true,
                matched_rule: None,
                line: None,
                group: MatchedGroup::None,
                group_index: None,
            };
        }
        if let Some(reason) = &self.unreachable {
            return Verdict {
                allowed: false,
                matched_rule: Some(format!("robots.txt unreachable ({reason}): complete disallow (RFC 9309)")),
                line: None,
                group: MatchedGroup::None,
                group_index: None,
            };
        }
        let path = path.as_bytes();

        let mut specific = Best::default();
        let mut global = Best::default();
        // The first group naming the agent, and the first `*` group.
        let mut first_specific = None;
        let mut first_global = None;
        for (index, group) in self.groups.iter().enumerate() {
            let best = if group.agents.iter().any(|a| a.names(user_agent)) {
                first_specific.get_or_insert(index);
                &mut specific
            } else if group.agents.iter().any(|a| a.global) {
                first_global.get_or_insert(index);
                &mut global
            } else {
                continue;
            };
            for rule in &group.rules {
                if let Some(priority) = rule.priority(path) {
                    best.offer(rule, priority, index);
                }
            }
        }

        // Mirrors `RobotsMatcher::disallow()`: a group naming the agent, even one
        // without rules, shadows the `*` group entirely.
        if specific.decides() {
            return specific.verdict(MatchedGroup::Specific);
        }
        let no_rule =
            |group, group_index| Verdict { allowed: true, matched_rule: None, line: None, group, group_index };
        if first_specific.is_some() {
            return no_rule(MatchedGroup::Specific, first_specific);
        }
        if global.decides() {
            return global.verdict(MatchedGroup::Global);
        }
        match first_global {
            Some(_) => no_rule(MatchedGroup::Global, first_global),
            None => no_rule(MatchedGroup::None, None),
        }
    }

    /// The groups that apply to `user_agent` (RFC 9309: every group naming it, else every
    /// `*` group), in file order.
    pub fn groups_for(&self, user_agent: &str) -> Vec<&Group> {
        let specific: Vec<&Group> =
            self.groups.iter().filter(|g| g.agents.iter().any(|a| a.names(user_agent))).collect();
        if !specific.is_empty() {
            return specific;
        }
        self.groups.iter().filter(|g| g.agents.iter().any(|a| a.global)).collect()
    }

    /// The `Content-Signal:` lines that apply to `user_agent`: those of the groups that apply
    /// to it ([`Robots::groups_for`]), in file order. A line before any group belongs to no
    /// group and applies to no one, as a rule there does (RFC 9309).
    pub fn content_signals_for(&self, user_agent: &str) -> Vec<&ContentSignalLine> {
        self.groups_for(user_agent).into_iter().flat_map(|g| &g.content_signals).collect()
    }

    /// The group that decided `verdict` (given by this file), see [`Verdict::group_index`].
    pub fn deciding_group(&self, verdict: &Verdict) -> Option<&Group> {
        self.groups.get(verdict.group_index?)
    }

    /// `Sitemap:` URLs in file order (they belong to no group).
    pub fn sitemaps(&self) -> &[String] {
        &self.sitemaps
    }

    /// `Agentmap:` URLs in file order: where the site's AI catalog is (they belong to no
    /// group, as `Sitemap:` lines do).
    pub fn agentmaps(&self) -> &[String] {
        &self.agentmaps
    }

    /// The groups in file order.
    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    /// What the parser saw.
    pub fn stats(&self) -> ParseStats {
        self.stats
    }

    /// The `Crawl-delay` (seconds) for `user_agent`. An extension outside RFC 9309:
    /// a delay applies to the user agents listed above it in its group; a delay before
    /// any group is the default for agents whose group sets none.
    pub fn crawl_delay(&self, user_agent: &str) -> Option<f64> {
        let mut named = false;
        for group in &self.groups {
            if let Some(i) = group.agents.iter().position(|a| a.names(user_agent)) {
                named = true;
                if let Some(delay) = group.delay_for(i) {
                    return Some(delay);
                }
            }
        }
        if !named {
            for group in &self.groups {
                if let Some(i) = group.agents.iter().position(|a| a.global) {
                    if let Some(delay) = group.delay_for(i) {
                        return Some(delay);
                    }
                }
            }
        }
        self.default_crawl_delay
    }

    /// Whether the file has no group at all (then everything is allowed).
    pub fn is_empty(&self) -> bool {
        self.groups.is_empty()
    }
}

/// The best match so far of one kind (allow or disallow) per scope.
#[derive(Default)]
struct Best<'a> {
    /// (priority, rule, index of its group)
    allow: Option<(usize, &'a Rule, usize)>,
    disallow: Option<(usize, &'a Rule, usize)>,
}

impl<'a> Best<'a> {
    fn offer(&mut self, rule: &'a Rule, priority: usize, group_index: usize) {
        let slot = match rule.kind {
            RuleKind::Allow => &mut self.allow,
            RuleKind::Disallow => &mut self.disallow,
        };
        // Strictly greater: among equal priorities the first rule in the file stays.
        if slot.is_none_or(|(p, _, _)| priority > p) {
            *slot = Some((priority, rule, group_index));
        }
    }

    fn priority(slot: Option<(usize, &Rule, usize)>) -> usize {
        slot.map_or(0, |(p, _, _)| p)
    }

    /// An empty pattern matches with priority 0, which decides nothing.
    fn decides(&self) -> bool {
        Self::priority(self.allow) > 0 || Self::priority(self.disallow) > 0
    }

    fn verdict(&self, group: MatchedGroup) -> Verdict {
        let disallowed = Self::priority(self.disallow) > Self::priority(self.allow);
        let winner = if disallowed { self.disallow } else { self.allow };
        // Called only when some rule decides, so the winner has a positive priority.
        let winner = winner.filter(|(p, _, _)| *p > 0);
        Verdict {
            allowed: !disallowed,
            matched_rule: winner.map(|(_, r, _)| r.to_line()),
            line: winner.map(|(_, r, _)| r.line),
            group,
            group_index: winner.map(|(_, _, g)| g),
        }
    }
}

enum Key {
    UserAgent,
    Allow,
    Disallow,
    Sitemap,
    Unknown,
}

#[derive(Default)]
struct Builder {
    groups: Vec<Group>,
    sitemaps: Vec<String>,
    agentmaps: Vec<String>,
    default_crawl_delay: Option<f64>,
    stats: ParseStats,
    problems: Vec<RobotsTxtProblem>,
    problems_total: usize,
}

impl Builder {
    fn line(&mut self, line_num: usize, line: &[u8], too_long: bool) {
        if too_long {
            self.stats.truncated_lines += 1;
        }
        if let Some((message, corrected)) = lint_line(line, too_long, !self.groups.is_empty()) {
            self.problems_total += 1;
            if self.problems.len() < MAX_LINE_PROBLEMS {
                let text = strip(line.split(|&c| c == b'#').next().unwrap_or_default());
                let text = short(String::from_utf8_lossy(text).into_owned());
                self.problems.push(RobotsTxtProblem::new(line_num, text, message, corrected));
            }
        }
        let Some((key, value)) = key_and_value(line) else {
            return;
        };
        self.stats.last_line_seen = line_num;
        match parse_key(key) {
            Key::UserAgent => {
                self.stats.valid_directives += 1;
                // A user-agent line after a rule starts a new group; consecutive
                // user-agent lines (with only unknown lines between) share one.
                let start_new = self.groups.last().is_none_or(|g| !g.rules.is_empty());
                if start_new {
                    self.groups.push(Group::new(line_num));
                }
                if let Some(group) = self.groups.last_mut() {
                    group.agents.push(AgentLine::parse(value, line_num));
                }
            }
            key @ (Key::Allow | Key::Disallow) => {
                self.stats.valid_directives += 1;
                let kind = if matches!(key, Key::Allow) { RuleKind::Allow } else { RuleKind::Disallow };
                let Some(group) = self.groups.last_mut() else {
                    self.stats.rules_outside_groups += 1;
                    return;
                };
                let pattern = escape_bytes(value);
                let index_fallback = match kind {
                    RuleKind::Allow => index_fallback(&pattern),
                    RuleKind::Disallow => None,
                };
                group.rules.push(Rule {
                    kind,
                    value: String::from_utf8_lossy(value).into_owned(),
                    pattern,
                    line: line_num,
                    index_fallback,
                });
            }
            Key::Sitemap => {
                self.stats.valid_directives += 1;
                self.sitemaps.push(String::from_utf8_lossy(value).into_owned());
            }
            Key::Unknown => {
                self.stats.unknown_directives += 1;
                // `Agentmap:` names the site's AI catalog; like `Sitemap:` it belongs to no
                // group.
                if key.eq_ignore_ascii_case(b"agentmap") {
                    self.agentmaps.push(String::from_utf8_lossy(value).into_owned());
                    return;
                }
                if key.eq_ignore_ascii_case(b"content-signal") {
                    // Before any group it applies to no one, as a rule there does.
                    match self.groups.last_mut() {
                        Some(group) => group.content_signals.push(ContentSignalLine::parse(value, line_num)),
                        None => self.stats.rules_outside_groups += 1,
                    }
                    return;
                }
                if starts_with_ignore_case(key, b"crawl-delay") {
                    let Some(delay) = parse_delay(value) else {
                        return;
                    };
                    match self.groups.last_mut() {
                        Some(group) => group.crawl_delays.push((group.agents.len(), delay)),
                        None => {
                            self.default_crawl_delay.get_or_insert(delay);
                        }
                    }
                }
            }
        }
    }

    fn finish(self) -> Robots {
        Robots {
            groups: self.groups,
            sitemaps: self.sitemaps,
            agentmaps: self.agentmaps,
            default_crawl_delay: self.default_crawl_delay,
            stats: self.stats,
            unreachable: None,
            problems: self.problems.into(),
            problems_total: self.problems_total,
        }
    }
}

/// The directives a robots.txt may hold besides the four search engines share: read by
/// some crawlers (Bing and Yandex read `Crawl-delay`; Yandex `Clean-param` and `Host`) or
/// by AI agents (`Content-Signal`, `Agentmap`), and ignored by the others without harm.
const OTHER_DIRECTIVES: &[&str] =
    &["crawl-delay", "clean-param", "host", "request-rate", "visit-time", "content-signal", "agentmap"];

/// What is wrong with one line, and the line as it should be written when that can be told;
/// `None` for a line read as written (a blank line or a comment too). `in_group`: whether a
/// `User-agent` line came before.
fn lint_line(line: &[u8], too_long: bool, in_group: bool) -> Option<(String, Option<String>)> {
    if too_long {
        return Some((format!("The line is longer than {MAX_LINE_LEN} bytes: the rest of it is ignored."), None));
    }
    // As the parser reads it: a NUL ends the line, `#` starts a comment.
    let content = line.split(|&c| c == 0).next().unwrap_or_default();
    let content = strip(content.split(|&c| c == b'#').next().unwrap_or_default());
    if content.is_empty() {
        return None;
    }
    let Some((key, value)) = key_and_value(content) else {
        return Some(("Not a `key: value` line: search engines ignore it.".into(), None));
    };
    // A key with white space in it (`Disallow /a:b`, `Sitemap https://…`): the colon after the
    // first word is missing, and the parser took the first colon of the value for it. `user
    // agent` is a spelling Google reads.
    let (key, value, colon_lost) = match key.iter().position(|&c| c == b' ' || c == b'\t') {
        Some(at) if !key.eq_ignore_ascii_case(b"user agent") => (&key[..at], strip(&content[at..]), true),
        _ => (key, value, false),
    };
    let text = |b: &[u8]| short(String::from_utf8_lossy(b).into_owned());
    let (name, value_text) = (text(key).to_ascii_lowercase(), text(value));
    let canonical = match parse_key(key) {
        Key::UserAgent => "User-agent",
        Key::Allow => "Allow",
        Key::Disallow => "Disallow",
        Key::Sitemap => "Sitemap",
        Key::Unknown if name == "noindex" || name == "nofollow" || name == "noarchive" => {
            return Some((
                format!("Google has not read `{}` in robots.txt since September 2019: use a robots meta tag or an X-Robots-Tag header on the pages instead.", text(key)),
                None,
            ));
        }
        Key::Unknown if OTHER_DIRECTIVES.contains(&name.as_str()) && !colon_lost => return None,
        Key::Unknown if OTHER_DIRECTIVES.contains(&name.as_str()) => {
            return Some((
                format!("The colon after `{}` is missing: search engines do not read the line as written.", text(key)),
                None,
            ));
        }
        Key::Unknown => {
            return Some((
                format!("`{}` is no robots.txt directive: search engines ignore the line.", text(key)),
                None,
            ));
        }
    };
    let is_rule = matches!(canonical, "Allow" | "Disallow");
    let bad_path = is_rule && !value.is_empty() && value[0] != b'/' && value[0] != b'*';
    // The value as it should be written: a rule's path from `/` (the path of a URL or of
    // `host/path` written in its place).
    let fixed = if bad_path { path_of(&value_text) } else { value_text.clone() };
    let has_colon = content.contains(&b':') && !colon_lost;
    if !has_colon || name != canonical.to_ascii_lowercase() {
        let how = if colon_lost {
            format!("The colon after `{}` is missing: search engines read the line otherwise than written", text(key))
        } else if has_colon {
            format!("`{}` is a misspelling of `{canonical}`: Google reads it as `{canonical}`, other crawlers may ignore the line", text(key))
        } else {
            format!("The colon is missing: Google reads it as `{canonical}`, other crawlers may ignore the line")
        };
        return Some((format!("{how}."), Some(format!("{canonical}: {fixed}"))));
    }
    match canonical {
        "User-agent" if value.is_empty() => Some((
            "A `User-agent` line without a name applies to no crawler: name the crawlers the group is for (`*` for all).".into(),
            None,
        )),
        "Allow" | "Disallow" if !in_group => Some((
            format!("No `User-agent` line comes before this `{canonical}`: it applies to no crawler; put it in the group of the crawlers it is for."),
            None,
        )),
        "Allow" | "Disallow" if bad_path => Some((
            "A path must start with `/` or `*`: as written it matches no URL.".into(),
            Some(format!("{canonical}: {fixed}")),
        )),
        "Allow" | "Disallow" if value.iter().position(|&c| c == b'$').is_some_and(|at| at + 1 != value.len()) => {
            Some((
                "`$` marks the end of a URL only as the pattern's last character; here it matches a literal `$`."
                    .into(),
                None,
            ))
        }
        "Sitemap" if !is_absolute_http_url(&value_text) => Some((
            "A `Sitemap` must be a full URL (`https://example.com/sitemap.xml`): search engines ignore a relative one."
                .into(),
            None,
        )),
        _ => None,
    }
}

/// Text of a problem cut to 200 bytes (at a character boundary): a line may be 16 KB.
fn short(mut text: String) -> String {
    if text.len() > 200 {
        let mut end = 200;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
    }
    text
}

/// A rule's path written without its leading `/`, as it should be: the path of a URL
/// (`https://example.com/a` is `/a`) or of `host/path` (`www.example.com/a`), else the value
/// with a `/` before it.
fn path_of(value: &str) -> String {
    let after_host = |rest: &str| rest.find('/').map_or_else(|| "/".to_string(), |at| rest[at..].to_string());
    if let Some(at) = value.find("://") {
        return after_host(&value[at + 3..]);
    }
    match value.split_once('/') {
        Some((host, _)) if host.contains('.') && !host.contains('*') => after_host(value),
        _ => format!("/{value}"),
    }
}

/// Whether a `Sitemap` value is an absolute `http` or `https` URL with a host.
fn is_absolute_http_url(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    let rest = lower.strip_prefix("https://").or_else(|| lower.strip_prefix("http://"));
    rest.is_some_and(|r| r.split(['/', '?', '#']).next().is_some_and(|host| !host.is_empty()))
}

fn parse_delay(value: &[u8]) -> Option<f64> {
    let delay: f64 = std::str::from_utf8(value).ok()?.trim().parse().ok()?;
    (delay.is_finite() && delay >= 0.0).then_some(delay)
}

/// `/a/index.html` -> `/a/$`, as the reference does for allow rules only.
fn index_fallback(pattern: &str) -> Option<String> {
    let slash = pattern.rfind('/')?;
    pattern[slash..].starts_with("/index.htm").then(|| format!("{}$", &pattern[..=slash]))
}

/// Splits `key: value` (or `key value` when the colon is forgotten), dropping the
/// comment and surrounding whitespace. `None` for blank lines and lines without a key.
fn key_and_value(line: &[u8]) -> Option<(&[u8], &[u8])> {
    // The reference handles lines as C strings: a NUL byte ends the line.
    let line = line.split(|&c| c == 0).next().unwrap_or_default();
    let line = line.split(|&c| c == b'#').next().unwrap_or_default();
    let line = strip(line);

    let sep = match line.iter().position(|&c| c == b':') {
        Some(sep) => sep,
        None => {
            // Google accepts whitespace instead of the colon, but only when the line
            // is exactly two runs of non-whitespace.
            let sep = line.iter().position(|&c| c == b' ' || c == b'\t')?;
            let rest = &line[sep..];
            let value_start = rest.iter().position(|&c| c != b' ' && c != b'\t').unwrap_or(rest.len());
            if rest[value_start..].iter().any(|&c| c == b' ' || c == b'\t') {
                return None;
            }
            sep
        }
    };
    let key = strip(&line[..sep]);
    if key.is_empty() {
        return None;
    }
    Some((key, strip(&line[sep + 1..])))
}

fn parse_key(key: &[u8]) -> Key {
    const USER_AGENT: &[&[u8]] = &[b"user-agent", b"useragent", b"user agent"];
    const DISALLOW: &[&[u8]] = &[b"disallow", b"dissallow", b"dissalow", b"disalow", b"diasllow", b"disallaw"];
    let any = |prefixes: &[&[u8]]| prefixes.iter().any(|p| starts_with_ignore_case(key, p));
    if any(USER_AGENT) {
        Key::UserAgent
    } else if starts_with_ignore_case(key, b"allow") {
        Key::Allow
    } else if any(DISALLOW) {
        Key::Disallow
    } else if any(&[b"sitemap", b"site-map"]) {
        Key::Sitemap
    } else {
        Key::Unknown
    }
}

fn starts_with_ignore_case(s: &[u8], prefix: &[u8]) -> bool {
    s.len() >= prefix.len() && s[..prefix.len()].eq_ignore_ascii_case(prefix)
}

/// C `isspace`: includes vertical tab and form feed, unlike `u8::is_ascii_whitespace`.
fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r')
}

fn strip(mut s: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = s {
        if !is_space(*first) {
            break;
        }
        s = rest;
    }
    while let [rest @ .., last] = s {
        if !is_space(*last) {
            break;
        }
        s = rest;
    }
    s
}

fn is_user_agent_char(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'-' || c == b'_'
}

/// Whether `user_agent` is a product token a crawler may obey rules for: non-empty
/// and made only of `[A-Za-z_-]`.
pub fn is_valid_user_agent(user_agent: &str) -> bool {
    !user_agent.is_empty() && user_agent.bytes().all(is_user_agent_char)
}

/// Normalises a rule pattern the way the reference does: `%xx` escapes get upper-case
/// hex digits, and every byte outside ASCII is percent-encoded (`á` -> `%C3%A1`).
pub fn escape_pattern(pattern: &str) -> String {
    escape_bytes(pattern.as_bytes())
}

fn escape_bytes(src: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < src.len() {
        let c = src[i];
        if c == b'%'
            && src.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
            && src.get(i + 2).is_some_and(u8::is_ascii_hexdigit)
        {
            out.push('%');
            out.push(char::from(src[i + 1].to_ascii_uppercase()));
            out.push(char::from(src[i + 2].to_ascii_uppercase()));
            i += 3;
            continue;
        }
        if c >= 0x80 {
            out.push('%');
            out.push(char::from(HEX[usize::from(c >> 4)]));
            out.push(char::from(HEX[usize::from(c & 0x0F)]));
        } else {
            out.push(char::from(c));
        }
        i += 1;
    }
    out
}

/// The path, parameters and query of a URL, without the fragment; `/` when there is
/// no path. Accepts full URLs, scheme-less URLs (`example.com/a`) and paths (`/a`).
/// The URL is not normalised or percent-encoded.
pub fn get_path_params_query(url: &str) -> String {
    let bytes = url.as_bytes();
    let find_from = |from: usize, set: &[u8]| {
        bytes.get(from..).and_then(|s| s.iter().position(|c| set.contains(c))).map(|p| p + from)
    };

    // Two leading slashes introduce a host (`//host/path`).
    let search_start = if url.starts_with("//") { 2 } else { 0 };
    let early_path = find_from(search_start, b"/?;");
    let protocol_end = url.get(search_start..).and_then(|s| s.find("://")).map(|p| p + search_start);
    // A `://` after the path has started (`/a?b=http://c`) is no scheme separator.
    let protocol_end = match (protocol_end, early_path) {
        (Some(p), Some(e)) if e < p => None,
        (p, _) => p,
    };
    let after_scheme = protocol_end.map_or(search_start, |p| p + 3);

    let Some(path_start) = find_from(after_scheme, b"/?;") else {
        return "/".to_owned();
    };
    let hash = find_from(search_start, b"#");
    if hash.is_some_and(|h| h < path_start) {
        return "/".to_owned();
    }
    let path = &url[path_start..hash.unwrap_or(url.len())];
    if path.starts_with('/') {
        path.to_owned()
    } else {
        format!("/{path}")
    }
}

/// Whether `path` matches a robots.txt pattern: a prefix match where `*` matches any
/// run of bytes and a final `$` anchors the end (a `$` elsewhere is literal).
///
/// The reference tracks every reachable position (O(pattern x path)); matching the
/// `*`-separated literals greedily, leftmost first, accepts exactly the same paths in
/// linear time for each literal.
fn pattern_matches(path: &[u8], pattern: &[u8]) -> bool {
    let (pattern, anchored) = match pattern.strip_suffix(b"$") {
        Some(p) => (p, true),
        None => (pattern, false),
    };
    let mut pieces = pattern.split(|&c| c == b'*');
    let first = pieces.next().unwrap_or_default();
    if !path.starts_with(first) {
        return false;
    }
    let rest: Vec<&[u8]> = pieces.collect();
    let Some((last, middle)) = rest.split_last() else {
        // No `*` at all: a prefix, or the whole path when anchored.
        return !anchored || path.len() == first.len();
    };
    let mut pos = first.len();
    for piece in middle {
        match memchr::memmem::find(&path[pos..], piece) {
            Some(at) => pos += at + piece.len(),
            None => return false,
        }
    }
    if anchored {
        path.len() >= pos + last.len() && path.ends_with(last)
    } else {
        memchr::memmem::find(&path[pos..], last).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each kind of problem line, and its twin read as written.
    #[test]
    fn problems_are_the_lines_not_read_as_written() {
        let problems = |body: &str| -> Vec<(usize, Option<String>)> {
            Robots::parse(body.as_bytes()).problems().iter().map(|p| (p.line, p.corrected.clone())).collect()
        };
        let ok = "# comment\n\nUser-agent: *\nDisallow: /private/\nAllow: /*.css$\nDisallow:\nCrawl-delay: 5\nContent-Signal: search=yes\nSitemap: https://example.com/sitemap.xml\n";
        assert_eq!(problems(ok), vec![]);
        // Misspelt and colon-less keys Google accepts.
        assert_eq!(problems("User-agent: *\nDissallow: /a"), vec![(2, Some("Disallow: /a".into()))]);
        assert_eq!(problems("User-agent: *\nDisalow: a/"), vec![(2, Some("Disallow: /a/".into()))], "both mended");
        assert_eq!(problems("Useragent: *\nDisallow: /a"), vec![(1, Some("User-agent: *".into()))]);
        assert_eq!(problems("User-agent: *\nDisallow /a"), vec![(2, Some("Disallow: /a".into()))]);
        assert_eq!(problems("user-agent: *\nDISALLOW: /a"), vec![], "keys are read in any case");
        // Lines no search engine reads.
        assert_eq!(problems("User-agent: *\nDisallow /a /b"), vec![(2, None)]);
        assert_eq!(problems("<html><body>Not found</body></html>"), vec![(1, None)]);
        assert_eq!(problems("User-agent: *\nNoindex: /tags/"), vec![(2, None)]);
        assert_eq!(problems("User-agent: *\nRequest-rate: 1/5\nFoo: bar"), vec![(3, None)]);
        // Rules that apply to no one or match no URL.
        assert_eq!(problems("Disallow: /a\nUser-agent: *"), vec![(1, None)]);
        assert_eq!(problems("User-agent:\nDisallow: /a"), vec![(1, None)]);
        // A colon-less line whose value holds a colon: the parser cut the key at that colon.
        assert_eq!(
            problems("Sitemap https://example.com/s.xml"),
            vec![(1, Some("Sitemap: https://example.com/s.xml".into()))]
        );
        assert_eq!(problems("User-agent: *\nDisallow /a:b"), vec![(2, Some("Disallow: /a:b".into()))]);
        assert_eq!(problems("User-agent: *\nCrawl-delay 5:00"), vec![(2, None)]);
        assert_eq!(problems("User agent: *\nDisallow: /a"), vec![(1, Some("User-agent: *".into()))]);
        // A URL or host/path written as a path: its path.
        assert_eq!(
            problems("User-agent: *\nAllow: https://example.com/a.css"),
            vec![(2, Some("Allow: /a.css".into()))]
        );
        assert_eq!(
            problems("User-agent: *\nDisallow: www.example.com/x.pdf$"),
            vec![(2, Some("Disallow: /x.pdf$".into()))]
        );
        assert_eq!(problems("User-agent: *\nDisallow: private/"), vec![(2, Some("Disallow: /private/".into()))]);
        assert_eq!(problems("User-agent: *\nDisallow: *.pdf"), vec![]);
        assert_eq!(problems("User-agent: *\nDisallow: /a$b"), vec![(2, None)]);
        // Sitemaps are full http(s) URLs.
        assert_eq!(problems("Sitemap: /sitemap.xml"), vec![(1, None)]);
        assert_eq!(problems("Sitemap: ftp://example.com/s.xml"), vec![(1, None)]);
        assert_eq!(problems("Sitemap: HTTPS://Example.com/s.xml"), vec![]);
        // A line cut at the length limit, and the count past the kept problems.
        let long = format!("User-agent: *\nDisallow: /{}", "a".repeat(MAX_LINE_LEN));
        assert_eq!(problems(&long), vec![(2, None)]);
        let many: String = (0..MAX_LINE_PROBLEMS + 7).map(|i| format!("Noindex: /{i}\n")).collect();
        let robots = Robots::parse(many.as_bytes());
        assert_eq!((robots.problems().len(), robots.problems_total()), (MAX_LINE_PROBLEMS, MAX_LINE_PROBLEMS + 7));
        // Every correction is a line read as written, and no text of a problem is long.
        let bad = "Dissallow: private/\nDisallow /a:b\nUseragent: *\nAllow: http://example.com/x\nSitemap https://e.com/s.xml\nUser-agent: *\nDisalow: a/\nDisallow: ";
        let long = format!("{bad}{}\nFoo{}: x", "b".repeat(5000), "o".repeat(5000));
        let robots = Robots::parse(long.as_bytes());
        assert!(robots.problems().len() >= 7, "{:?}", robots.problems());
        for p in robots.problems() {
            assert!(p.text.len() <= 200 && p.message.len() < 400, "{p:?}");
            if let Some(line) = &p.corrected {
                assert!(line.len() <= 220, "{p:?}");
                let again = Robots::parse(format!("User-agent: *\n{line}").as_bytes());
                assert_eq!(again.problems(), &[], "the correction of {p:?} is read as written");
            }
        }
        // The verdicts stay those of the reference: a misspelt key still counts.
        assert!(!Robots::parse(b"User-agent: *\nDissallow: /a").is_allowed("Googlebot", "/a"));
    }

    fn check_match(pattern: &str, path: &str, expected: bool) {
        assert_eq!(pattern_matches(path.as_bytes(), pattern.as_bytes()), expected, "pattern {pattern:?} on {path:?}");
    }

    #[test]
    fn wildcard_matching() {
        check_match("", "/anything", true);
        check_match("/", "/", true);
        check_match("/fish", "/fish.html", true);
        check_match("/fish", "/Fish", false);
        check_match("/fish$", "/fish", true);
        check_match("/fish$", "/fish/", false);
        check_match("/*.php$", "/a/b.php", true);
        check_match("/*.php$", "/a/b.php?x", false);
        check_match("/*.php$", "/.php", true);
        check_match("/a*a$", "/a", false);
        check_match("/a*a$", "/aa", true);
        check_match("/a*b*c", "/axxbyyc", true);
        check_match("/a*b*c", "/axxcyyb", false);
        check_match("*$", "/x", true);
        check_match("$", "/", false);
        check_match("/a$b", "/a$b", true);
        check_match("/a$b", "/ab", false);
        check_match("/**x", "/yx", true);
    }

    #[test]
    fn greedy_matches_reference_algorithm_on_small_alphabet() {
        // Exhaustive comparison with a transcription of the reference's position-set
        // algorithm over all short patterns and paths of a three-letter alphabet.
        fn reference(path: &[u8], pattern: &[u8]) -> bool {
            let mut pos = vec![0usize];
            for (i, &p) in pattern.iter().enumerate() {
                if p == b'$' && i + 1 == pattern.len() {
                    return pos.last() == Some(&path.len());
                }
                if p == b'*' {
                    let start = pos[0];
                    pos = (start..=path.len()).collect();
                } else {
                    pos = pos.iter().filter(|&&q| q < path.len() && path[q] == p).map(|q| q + 1).collect();
                    if pos.is_empty() {
                        return false;
                    }
                }
            }
            true
        }
        fn all(alphabet: &[u8], max: usize) -> Vec<Vec<u8>> {
            let mut out = vec![vec![]];
            let mut frontier = vec![vec![]];
            for _ in 0..max {
                let mut next = Vec::new();
                for s in &frontier {
                    for &c in alphabet {
                        let mut t: Vec<u8> = s.clone();
                        t.push(c);
                        next.push(t);
                    }
                }
                out.extend(next.iter().cloned());
                frontier = next;
            }
            out
        }
        let patterns = all(b"ab*$", 5);
        let paths = all(b"ab$", 5);
        for pattern in &patterns {
            for path in &paths {
                assert_eq!(
                    pattern_matches(path, pattern),
                    reference(path, pattern),
                    "pattern {:?} path {:?}",
                    String::from_utf8_lossy(pattern),
                    String::from_utf8_lossy(path)
                );
            }
        }
    }

    #[test]
    fn key_value_splitting() {
        fn check(line: &str, expected: Option<(&str, &str)>) {
            let got = key_and_value(line.as_bytes())
                .map(|(k, v)| (String::from_utf8_lossy(k).into_owned(), String::from_utf8_lossy(v).into_owned()));
            assert_eq!(got, expected.map(|(k, v)| (k.to_owned(), v.to_owned())), "{line:?}");
        }
        check("Disallow: /a # comment", Some(("Disallow", "/a")));
        check("  Allow :   /b  ", Some(("Allow", "/b")));
        check("disallow /c", Some(("disallow", "/c")));
        check("disallow /c d", None);
        check("# only a comment", None);
        check("", None);
        check(": /x", None);
        check("user agent: Foo", Some(("user agent", "Foo")));
        check("Disallow: /a\0garbage", Some(("Disallow", "/a")));
    }

    #[test]
    fn crawl_delay_applies_to_agents_above_it() {
        let robots = Robots::parse(b"Crawl-delay: 5\nUser-agent: A\nCrawl-delay: 60\nUser-agent: B\nUser-agent: *\nDisallow: /x\nCrawl-delay: 2\nUser-agent: C\nDisallow: /\n");
        assert_eq!(robots.crawl_delay("a"), Some(60.0));
        assert_eq!(robots.crawl_delay("B"), Some(2.0));
        assert_eq!(robots.crawl_delay("Other"), Some(2.0));
        assert_eq!(robots.crawl_delay("C"), Some(5.0));
        assert_eq!(Robots::parse(b"User-agent: *\nCrawl-delay: soon\n").crawl_delay("x"), None);
    }

    #[test]
    fn verdict_names_the_deciding_rule() {
        let robots = Robots::parse(
            b"User-agent: *\nDisallow: /private\nAllow: /private/ok\n\nUser-agent: GPTBot\nDisallow: /\n",
        );
        let v = robots.verdict("GPTBot", "https://example.com/page");
        assert_eq!(
            v,
            Verdict {
                allowed: false,
                matched_rule: Some("Disallow: /".into()),
                line: Some(6),
                group: MatchedGroup::Specific,
                group_index: Some(1),
            }
        );
        let v = robots.verdict("Other", "/private/ok/x");
        assert_eq!(
            v,
            Verdict {
                allowed: true,
                matched_rule: Some("Allow: /private/ok".into()),
                line: Some(3),
                group: MatchedGroup::Global,
                group_index: Some(0),
            }
        );
        let v = robots.verdict("Other", "/public");
        assert_eq!(
            v,
            Verdict {
                allowed: true,
                matched_rule: None,
                line: None,
                group: MatchedGroup::Global,
                group_index: Some(0)
            }
        );
        assert!(robots.is_allowed("GPTBot", "/robots.txt"));
        assert_eq!(robots.verdict("X", "/a").group, MatchedGroup::Global);
        assert_eq!(Robots::parse(b"").verdict("X", "/a").group, MatchedGroup::None);
    }

    #[test]
    fn verdict_names_the_deciding_group() {
        let robots = Robots::parse(
            b"# Sitemaps first\nSitemap: https://example.com/s.xml\n\nUser-agent: *\nDisallow: /private\n\n\
              User-agent: GPTBot\nUser-agent: CCBot # shares the group\nCrawl-delay: 3\nDisallow: /drafts\n\n\
              User-agent: gptbot\nDisallow: /\nAllow: /blog\n",
        );
        let group_of = |ua: &str, path: &str| {
            let v = robots.verdict(ua, path);
            let group = robots.deciding_group(&v).map(|g| (g.line, g.agent_lines()));
            (v.allowed, v.line, group)
        };
        let both = || Some((7, "User-agent: GPTBot\nUser-agent: CCBot".to_owned()));
        let second = || Some((12, "User-agent: gptbot".to_owned()));
        // Groups naming the agent are merged; the one holding the deciding rule is named.
        assert_eq!(group_of("GPTBot", "/drafts/a"), (false, Some(10), both()));
        assert_eq!(group_of("GPTBot", "/blog/a"), (true, Some(14), second()));
        assert_eq!(group_of("GPTBot", "/other"), (false, Some(13), second()));
        // A named group without a matching rule shadows `*`: the first one naming it decides.
        assert_eq!(group_of("CCBot", "/private/x"), (true, None, both()));
        assert_eq!(group_of("Other", "/private/x"), (false, Some(5), Some((4, "User-agent: *".to_owned()))));
        assert_eq!(group_of("Other", "/public"), (true, None, Some((4, "User-agent: *".to_owned()))));
        assert_eq!(robots.groups()[0].agents[0].line, 4);
        assert_eq!(robots.groups()[1].agents[1].line, 8);
        // No group applies; `/robots.txt` itself and an unreachable file name none.
        let only_other = Robots::parse(b"User-agent: Other\nDisallow: /\n");
        assert_eq!(only_other.verdict("GPTBot", "/").group_index, None);
        assert_eq!(robots.verdict("GPTBot", "/robots.txt").group_index, None);
        assert_eq!(Robots::unreachable("HTTP 503").verdict("GPTBot", "/").group_index, None);
    }

    #[test]
    fn limits_cut_long_lines_and_bodies() {
        let long = format!("User-agent: *\nDisallow: /{}/end\n", "a".repeat(MAX_LINE_LEN));
        let robots = Robots::parse(long.as_bytes());
        assert_eq!(robots.stats().truncated_lines, 1);
        assert_eq!(robots.groups()[0].rules[0].pattern.len(), MAX_LINE_LEN - "Disallow: ".len());

        let mut body = b"User-agent: *\n".to_vec();
        body.extend(std::iter::repeat_n(b'#', MAX_ROBOTS_BYTES));
        body.extend(b"\nDisallow: /\n");
        let robots = Robots::parse(&body);
        assert!(robots.stats().truncated_body);
        assert!(robots.is_allowed("Foo", "/x"));
    }

    #[test]
    fn never_panics_on_arbitrary_bytes() {
        // A fixed xorshift stream biased towards robots.txt syntax bytes.
        let alphabet = b"UuSsEeRr-AaGgNnTtDdIiLlOoWw:*$%#/ \t\r\n\x00\xEF\xBB\xBF\xC3\xA1\xFFa";
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        for round in 0..400 {
            let len = (round * 7) % 300;
            let mut body = Vec::with_capacity(len);
            for _ in 0..len {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                body.push(alphabet[(state % alphabet.len() as u64) as usize]);
            }
            let robots = Robots::parse(&body);
            let path = String::from_utf8_lossy(&body[..len.min(40)]).into_owned();
            let _ = robots.verdict("Foo", &path);
            let _ = robots.crawl_delay("Foo");
            let _ = get_path_params_query(&path);
        }
    }
}
