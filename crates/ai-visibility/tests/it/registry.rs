//! The crawler registry: `data/ai-crawlers.json` (what `scripts/ai-crawlers.py` wrote from the
//! upstream list) and the Rust table [`AI_BOTS`] generated beside it say the same thing.

use ai_visibility::{
    Purpose, RobotsCompliance, AI_BOTS, NAMED_BOTS, REGISTRY_COMMIT, REGISTRY_DATE, UPSTREAM_USER_AGENTS,
};
use serde_json::Value;

fn data() -> Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/ai-crawlers.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn purpose(key: &str) -> Purpose {
    *Purpose::ALL.iter().find(|p| p.key() == key).unwrap_or_else(|| panic!("unknown class {key}"))
}

fn compliance(key: &str) -> RobotsCompliance {
    match key {
        "yes" => RobotsCompliance::Yes,
        "no" => RobotsCompliance::No,
        "unclear" => RobotsCompliance::Unclear,
        other => panic!("unknown robots.txt compliance {other}"),
    }
}

#[test]
fn the_table_is_the_data_file() {
    let data = data();
    assert_eq!(data["commit"], REGISTRY_COMMIT);
    assert_eq!(data["date"], REGISTRY_DATE);
    assert_eq!(REGISTRY_COMMIT.len(), 40);
    assert_eq!(data["upstream_user_agents"].as_u64(), Some(UPSTREAM_USER_AGENTS as u64));
    let rows = data["crawlers"].as_array().unwrap();
    assert_eq!(rows.len(), AI_BOTS.len());
    let mut user_agents = 0;
    for (row, bot) in rows.iter().zip(AI_BOTS) {
        assert_eq!(row["token"], bot.name);
        assert_eq!(row["operator"], bot.operator, "{}", bot.name);
        assert_eq!(purpose(row["purpose"].as_str().unwrap()), bot.purpose, "{}", bot.name);
        assert_eq!(compliance(row["respects_robots_txt"].as_str().unwrap()), bot.respects_robots_txt, "{}", bot.name);
        assert_eq!(row["curated"].as_bool(), Some(bot.curated), "{}", bot.name);
        let agents: Vec<&str> = row["user_agents"].as_array().unwrap().iter().map(|a| a.as_str().unwrap()).collect();
        assert_eq!(agents, bot.user_agents, "{}", bot.name);
        user_agents += agents.len();
    }
    // Every user agent of the upstream list is in the registry, under exactly one token.
    assert_eq!(user_agents, UPSTREAM_USER_AGENTS);
}

#[test]
fn every_class_is_populated_and_the_named_bots_lead() {
    let names: Vec<&str> = AI_BOTS.iter().take(3).map(|b| b.name).collect();
    assert_eq!(names, NAMED_BOTS);
    for purpose in Purpose::ALL {
        assert!(AI_BOTS.iter().any(|b| b.purpose == purpose), "no crawler of class {}", purpose.key());
    }
    let ignoring: Vec<&str> = AI_BOTS.iter().filter(|b| b.ignores_robots_txt()).map(|b| b.name).collect();
    assert!(ignoring.contains(&"Bytespider") && ignoring.contains(&"Perplexity-User"), "{ignoring:?}");
    // The crawlers the edge-blocking comparison impersonates are all in it.
    for name in ["GPTBot", "OAI-SearchBot", "ChatGPT-User", "ClaudeBot", "Claude-User", "PerplexityBot", "CCBot"] {
        assert!(ai_visibility::find_bot(name).is_some(), "{name}");
    }
    assert!(AI_BOTS.len() >= 150, "{}", AI_BOTS.len());
}
