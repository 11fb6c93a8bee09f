//! `seo-audit users ...`, `seo-audit keys ...`, `seo-audit migrate`: administration of the
//! database under `--data`. Whatever a script captures goes to stdout alone (a user id, a
//! key); explanations go to stderr.

use std::time::Duration;

use store::{NewKey, Store, Tier};
use time::OffsetDateTime;

use crate::cli_error::CliError;
use crate::Global;

#[derive(Debug, clap::Subcommand)]
pub enum UsersCommand {
    /// Create a user; prints its id alone on stdout.
    Create {
        /// Account tier: free or pro.
        #[arg(long, default_value = "free", value_parser = parse_tier)]
        tier: Tier,
    },
}

#[derive(Debug, clap::Subcommand)]
pub enum KeysCommand {
    /// Create a key; prints the key alone on stdout (it is shown only this once).
    Create {
        /// A label for the key.
        #[arg(long)]
        name: String,
        /// Tier: free or pro.
        #[arg(long, default_value = "free", value_parser = parse_tier)]
        tier: Tier,
        /// Comma list of scopes: audit, mcp, webhooks.
        #[arg(long, default_value = "audit,mcp")]
        scopes: String,
        /// Lifetime, e.g. 90d, 12h, 30m, 2w; never expires without it.
        #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
        expires_in: Option<Duration>,
        /// Owner; without it a new user of the tier is created.
        #[arg(long, value_name = "ID")]
        user: Option<String>,
        /// Requests per minute (at least 1), overriding the tier's limit.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
        rate_limit: Option<u32>,
        /// Pages per site crawl (at least 1), overriding the tier's cap (the `[max_pages]`
        /// settings) for this key alone.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
        max_pages: Option<u32>,
    },
    /// Change a key's own limits (it keeps its secret, tier and scopes).
    Set {
        /// Key id or prefix.
        id_or_prefix: String,
        /// Pages per site crawl (at least 1) for this key alone, or `tier` for its tier's cap
        /// again. Crawls started from now on use it.
        #[arg(long, value_name = "N|tier", value_parser = parse_max_pages)]
        max_pages: PagesCap,
    },
    /// List live keys (never their secrets).
    List {
        /// Only the keys of this user.
        #[arg(long, value_name = "ID")]
        user: Option<String>,
        /// JSON lines instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Disable a key (it answers 403 until enabled again).
    Disable {
        /// Key id or prefix.
        id_or_prefix: String,
    },
    /// Enable a disabled key.
    Enable {
        /// Key id or prefix.
        id_or_prefix: String,
    },
    /// Revoke a key for good (it becomes unknown: 401).
    Revoke {
        /// Key id or prefix.
        id_or_prefix: String,
    },
}

/// A key's pages per crawl as `keys set` takes it: its own, or its tier's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PagesCap {
    /// The key's own cap.
    Own(u32),
    /// The tier's cap (the key's own removed).
    Tier,
}

fn parse_max_pages(s: &str) -> Result<PagesCap, String> {
    match s {
        "tier" => Ok(PagesCap::Tier),
        _ => match s.parse::<u32>() {
            Ok(n) if n >= 1 => Ok(PagesCap::Own(n)),
            _ => Err(format!("{s:?} is neither a whole number of at least 1 nor `tier`")),
        },
    }
}

fn parse_tier(s: &str) -> Result<Tier, String> {
    store::parse_tier(s).map_err(|e| e.to_string())
}

/// `90d`, `12h`, `30m`, `45s`, `2w` (a bare number is days).
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let split = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let (num, unit) = s.split_at(split);
    let n: u64 = num.parse().map_err(|_| format!("{s:?} is not a duration like 90d, 12h or 30m"))?;
    let secs = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" | "" => 86_400,
        "w" => 7 * 86_400,
        _ => return Err(format!("unknown unit {unit:?} in {s:?} (use s, m, h, d or w)")),
    };
    if n == 0 {
        return Err("the duration must be positive".into());
    }
    n.checked_mul(secs).map(Duration::from_secs).ok_or_else(|| format!("{s:?} is too long"))
}

fn open(global: &Global) -> Result<Store, CliError> {
    open_with_config(global).map(|(store, _)| store)
}

/// The store and the settings it was opened with (tier limits are configuration).
fn open_with_config(global: &Global) -> Result<(Store, server::Config), CliError> {
    let config = global.load_config()?;
    let (store, _) = Store::open_database(&config.database(), store::StoreOptions::default())?;
    Ok((store, config))
}

/// Prints `error: CODE: Sentence.` (docs/API.md, "Errors") and returns the exit status.
fn fail(e: impl Into<CliError>) -> u8 {
    e.into().report()
}

pub fn users(cmd: UsersCommand, global: &Global) -> u8 {
    let store = match open(global) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    match cmd {
        UsersCommand::Create { tier } => match store.create_user(tier) {
            Ok(user) => {
                println!("{}", user.id);
                eprintln!("created user {} (tier {})", user.id, user.tier);
                0
            }
            Err(e) => fail(e),
        },
    }
}

pub fn keys(cmd: KeysCommand, global: &Global) -> u8 {
    let (store, config) = match open_with_config(global) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    match cmd {
        KeysCommand::Create { name, tier, scopes, expires_in, user, rate_limit, max_pages } => {
            let scopes = match store::parse_scopes(&scopes) {
                Ok(s) => s,
                Err(e) => return fail(e),
            };
            let mut new = NewKey::new(name, tier);
            new.scopes = scopes;
            new.user_id = user.map(Into::into);
            new.rate_limit = rate_limit;
            new.max_pages = max_pages;
            new.expires_at = expires_in.map(|d| OffsetDateTime::now_utc() + d);
            match store.create_key(new) {
                Ok((plaintext, key)) => {
                    println!("{plaintext}");
                    eprintln!(
                        "created key {} ({}) for user {}: tier {}, scopes {}, {} requests/min, {} pages a crawl, \
                         expires {}",
                        key.id,
                        key.key_prefix,
                        key.user_id,
                        key.tier,
                        key.scopes.join(","),
                        key.rate_limit_or(config.rate_limits.for_tier(key.tier)),
                        config.max_pages.for_key(Some(&key)),
                        key.expires_at.map_or_else(|| "never".to_string(), store::format_rfc3339),
                    );
                    eprintln!("the key is shown only now; only its SHA-256 is stored");
                    0
                }
                Err(e) => fail(e),
            }
        }
        KeysCommand::List { user, json } => match store.list_keys(user.as_deref()) {
            Ok(keys) => {
                if json {
                    for k in &keys {
                        let mut v = serde_json::to_value(k).unwrap_or_default();
                        v["user_id"] = serde_json::json!(k.user_id);
                        v["tier"] = serde_json::json!(k.tier.as_str());
                        // The limit the service applies: the key's own, else its tier's as configured.
                        v["rate_limit"] = serde_json::json!(k.rate_limit_or(config.rate_limits.for_tier(k.tier)));
                        // The same for pages per crawl: the key's own cap, else its tier's.
                        v["max_pages"] = serde_json::json!(config.max_pages.for_key(Some(k)));
                        println!("{v}");
                    }
                } else {
                    let now = OffsetDateTime::now_utc();
                    let rows: Vec<Vec<String>> = keys
                        .iter()
                        .map(|k| {
                            let state = if !k.enabled {
                                "disabled"
                            } else if k.is_expired(now) {
                                "expired"
                            } else {
                                "enabled"
                            };
                            vec![
                                k.id.to_string(),
                                k.key_prefix.clone(),
                                k.tier.to_string(),
                                k.scopes.join(","),
                                k.rate_limit_or(config.rate_limits.for_tier(k.tier)).to_string(),
                                config.max_pages.for_key(Some(k)).to_string(),
                                state.to_string(),
                                k.expires_at.map_or_else(|| "never".to_string(), store::format_rfc3339),
                                k.name.clone(),
                            ]
                        })
                        .collect();
                    use crate::table::Align::{Left, Right};
                    let header = [
                        ("ID", Left),
                        ("PREFIX", Left),
                        ("TIER", Left),
                        ("SCOPES", Left),
                        ("RPM", Right),
                        ("PAGES", Right),
                        ("STATE", Left),
                        ("EXPIRES", Left),
                        ("NAME", Left),
                    ];
                    print!("{}", crate::table::render(&header, &rows));
                }
                0
            }
            Err(e) => fail(e),
        },
        KeysCommand::Set { id_or_prefix, max_pages } => {
            let own = match max_pages {
                PagesCap::Own(n) => Some(n),
                PagesCap::Tier => None,
            };
            match store.set_key_max_pages(&id_or_prefix, own) {
                Ok(key) => {
                    let source = if own.is_some() { "its own" } else { "its tier's" };
                    eprintln!(
                        "key {} ({}): {} pages a crawl ({source})",
                        key.id,
                        key.key_prefix,
                        config.max_pages.for_key(Some(&key))
                    );
                    0
                }
                Err(e) => fail(e),
            }
        }
        KeysCommand::Disable { id_or_prefix } => report(store.set_enabled(&id_or_prefix, false), "disabled"),
        KeysCommand::Enable { id_or_prefix } => report(store.set_enabled(&id_or_prefix, true), "enabled"),
        KeysCommand::Revoke { id_or_prefix } => report(store.revoke(&id_or_prefix), "revoked"),
    }
}

fn report(result: store::Result<store::KeyRecord>, what: &str) -> u8 {
    match result {
        Ok(key) => {
            eprintln!("{what} key {} ({})", key.id, key.key_prefix);
            0
        }
        Err(e) => fail(e),
    }
}

pub fn migrate(global: &Global) -> u8 {
    let config = match global.load_config() {
        Ok(c) => c,
        Err(e) => return fail(e),
    };
    match Store::open_database(&config.database(), store::StoreOptions::default()) {
        Ok((store, applied)) => match store.schema_version() {
            Ok(version) => {
                let now = match applied.as_slice() {
                    [] => "already up to date".to_string(),
                    [one] => format!("applied migration {one} now"),
                    [first, .., last] => format!("applied migrations {first} to {last} now"),
                };
                eprintln!("database {} at schema version {version} ({now})", store.describe());
                0
            }
            Err(e) => fail(e),
        },
        Err(e) => fail(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(s: &str, expected: Option<u64>) {
        assert_eq!(parse_duration(s).ok().map(|d| d.as_secs()), expected, "{s}");
    }

    #[test]
    fn durations() {
        check("90d", Some(90 * 86_400));
        check("12h", Some(12 * 3600));
        check("30m", Some(1800));
        check("45s", Some(45));
        check("2w", Some(14 * 86_400));
        check("7", Some(7 * 86_400));
        check("0d", None);
        check("d", None);
        check("5y", None);
        check("-1d", None);
        check("99999999999999999999d", None);
    }
}
