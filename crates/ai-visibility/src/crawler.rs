//! What the registry says of one AI crawler: its purpose class and whether it honours
//! robots.txt. The types live apart from the judging code of `bots.rs` so that the generated
//! table (`registry.rs`) and the code that reads it import in one direction only.

use serde::Serialize;

/// What an operator uses a crawler's fetches for: our purpose classes, which the scan
/// weighs differently (docs/AI-VISIBILITY.md, "Crawler classes").
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
    /// Browses and acts on pages for a user (an agent such as ChatGPT Agent).
    Agent,
    /// Fetches pages for a coding assistant (Claude Code, Cursor, ...).
    CodingAgent,
    /// Collects content for others or sells it (data providers, scraping services).
    Scraper,
    /// The operator documents no purpose.
    Unknown,
}

impl Purpose {
    /// Every class, in documentation order.
    pub const ALL: [Purpose; 7] = [
        Purpose::Search,
        Purpose::UserFetch,
        Purpose::Agent,
        Purpose::CodingAgent,
        Purpose::Training,
        Purpose::Scraper,
        Purpose::Unknown,
    ];

    /// The name on the wire (`user_fetch`, ...).
    pub fn key(self) -> &'static str {
        match self {
            Purpose::Training => "training",
            Purpose::Search => "search",
            Purpose::UserFetch => "user_fetch",
            Purpose::Agent => "agent",
            Purpose::CodingAgent => "coding_agent",
            Purpose::Scraper => "scraper",
            Purpose::Unknown => "unknown",
        }
    }

    /// A human description for documents.
    pub fn title(self) -> &'static str {
        match self {
            Purpose::Training => "model training",
            Purpose::Search => "AI search index",
            Purpose::UserFetch => "fetch on a user's request",
            Purpose::Agent => "agent acting for a user",
            Purpose::CodingAgent => "coding agent",
            Purpose::Scraper => "scraping or data resale",
            Purpose::Unknown => "undocumented",
        }
    }
}

/// Whether a crawler honours robots.txt, as the public list documents it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum RobotsCompliance {
    /// Documented to obey robots.txt.
    Yes,
    /// Documented to ignore it: a `Disallow` will not stop it.
    No,
    /// Nobody documents it either way.
    Unclear,
}

/// One AI crawler, as a site names it in robots.txt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AiBot {
    /// The robots.txt user-agent token, e.g. `GPTBot`: the product token a `User-agent:`
    /// line must carry to name it (for `Brightbot 1.0` of the upstream list, `Brightbot`).
    pub name: &'static str,
    /// Who runs it (`unknown` when nobody says).
    pub operator: &'static str,
    /// What its fetches are for.
    pub purpose: Purpose,
    /// Whether it honours robots.txt.
    pub respects_robots_txt: RobotsCompliance,
    /// The upstream list's function, as it words it.
    pub function: &'static str,
    /// The user agents of the upstream list this token stands for.
    pub user_agents: &'static [&'static str],
    /// Whether we checked its operator and purpose by hand (the table seo-audit kept before
    /// the registry).
    pub curated: bool,
    /// One of the three crawlers the AI-readiness check names ([`NAMED_BOTS`]).
    pub named: bool,
}

impl AiBot {
    /// Whether a robots.txt `Disallow` is documented not to stop it.
    pub fn ignores_robots_txt(&self) -> bool {
        self.respects_robots_txt == RobotsCompliance::No
    }
}
