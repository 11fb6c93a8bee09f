//! track_keywords: on-page keyword tracking of the key owner. For each keyword: whether it
//! appears in the title, h1, meta description and URL of the target page, and how often in
//! its visible text (whole words, case-insensitive), from every stored audit that kept the
//! page text (audits made by the agent tools, monitors and workflows). Never a rank.

use mcp_protocol::ToolResult;
use serde_json::{json, Map, Value};

use super::workflow_execute::owner;
use super::{from_api_error, string_arg, tool_error, url_arg, ToolEnv};
use crate::error::ApiError;
use crate::mcp::tools::KEYWORD_NOTE;
use crate::state::AppState;

/// Audits read per keyword for its history, newest first.
pub const HISTORY_AUDITS: usize = 20;
/// Most keywords one owner may track.
pub const MAX_KEYWORDS: usize = 100;

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: &Map<String, Value>) -> ToolResult {
    let user_id = match owner(env) {
        Ok(u) => u,
        Err(e) => return e,
    };
    let action = string_arg(args, "action").unwrap_or_default().to_string();
    let keyword = string_arg(args, "keyword").map(str::trim).filter(|k| !k.is_empty()).map(str::to_string);
    let state = env.state;
    match action.as_str() {
        "add" => {
            let Some(keyword) = keyword else { return tool_error("missing_parameter", "add needs keyword.") };
            if string_arg(args, "targetUrl").is_none() {
                return tool_error("missing_parameter", "add needs targetUrl.");
            }
            let url = match url_arg(args, "targetUrl") {
                Ok(u) => u,
                Err(e) => return e,
            };
            // Refused before anything is fetched when the owner is at the limit; the page is
            // audited (once, when no stored audit kept its text) before the keyword is stored,
            // so a page that cannot be audited leaves nothing tracked.
            if let Err(e) = room_for(state, &user_id, &keyword, url.as_str()).await {
                return e;
            }
            let key = url.to_string();
            let audits = state.db(move |s| s.audits_for_url(&key, HISTORY_AUDITS)).await.unwrap_or_default();
            if !audits.iter().any(|a| text_of(a).is_some()) {
                if let Err(e) = state.app.audit_and_store(&url, &user_id).await.map_err(ApiError::from) {
                    return from_api_error(e, url.as_str());
                }
            }
            let (u, k, t) = (user_id.clone(), keyword.clone(), url.to_string());
            let added = state
                .db(move |s| {
                    let list = s.list_keywords(&u)?;
                    if list.iter().any(|x| x.keyword.eq_ignore_ascii_case(&k) && x.target_url == t) {
                        return Ok(Ok(()));
                    }
                    if list.len() >= MAX_KEYWORDS {
                        return Ok(Err(()));
                    }
                    s.add_keyword(&u, &k, &t).map(|_| Ok(()))
                })
                .await;
            match added {
                Ok(Ok(())) => {}
                Ok(Err(())) => return too_many(),
                Err(e) => return from_api_error(e, "keyword"),
            }
        }
        "remove" => {
            let Some(keyword) = keyword else { return tool_error("missing_parameter", "remove needs keyword.") };
            let (u, k) = (user_id.clone(), keyword.clone());
            match state.db(move |s| Ok(s.remove_keyword(&u, &k))).await {
                Ok(Ok(_)) => {}
                Ok(Err(e)) if e.is_not_found() => {
                    return tool_error("not_found", format!("The keyword {keyword:?} is not tracked."))
                }
                Ok(Err(e)) => return from_api_error(e.into(), "keyword"),
                Err(e) => return from_api_error(e, "keyword"),
            }
        }
        "list" => {}
        other => return tool_error("invalid_request", format!("action must be add, remove or list, not {other:?}.")),
    }
    let u = user_id.clone();
    let tracked = match state.db(move |s| s.list_keywords(&u)).await {
        Ok(t) => t,
        Err(e) => return from_api_error(e, "keywords"),
    };
    let mut keywords = Vec::new();
    for kw in tracked {
        let key = kw.target_url.clone();
        let audits = state.db(move |s| s.audits_for_url(&key, HISTORY_AUDITS)).await.unwrap_or_default();
        let points: Vec<(String, Value)> = audits
            .iter()
            .filter_map(|a| {
                text_of(a)
                    .map(|(result, text)| (store::format_rfc3339(a.created_at), measure(&kw.keyword, &result, &text)))
            })
            .collect();
        let latest = points.first().map_or(Value::Null, |(_, m)| m.clone());
        // Oldest first, so the history reads as a timeline.
        let history: Vec<Value> = points
            .iter()
            .rev()
            .map(|(at, m)| json!({ "auditedAt": at, "bodyCount": m["bodyCount"], "inTitle": m["inTitle"], "inH1": m["inH1"] }))
            .collect();
        keywords.push(json!({
            "keyword": kw.keyword,
            "targetUrl": kw.target_url,
            "trackedSince": store::format_rfc3339(kw.created_at),
            "latest": latest,
            "history": history,
        }));
    }
    ToolResult::success(json!({ "action": action, "keywords": keywords, "note": KEYWORD_NOTE }))
}

/// The parsed result and kept text of a stored audit, when it kept the text.
fn text_of(audit: &store::StoredAudit) -> Option<(app::StoredResult, String)> {
    let mut result = app::StoredResult::of(audit);
    let text = result.page_text.take()?;
    Some((result, text))
}

/// Presence in title, h1, description and URL, and the body count, of one keyword.
fn measure(keyword: &str, result: &app::StoredResult, text: &str) -> Value {
    let page = &result.result.page;
    let has = |v: &str| count(v, keyword) > 0;
    // In a URL, words are separated by `-`, `_`, `/` or `.`; spaces in the keyword match them.
    let address = if page.final_url.is_empty() { &page.url } else { &page.final_url };
    let url = address.replace(['-', '_', '/', '.', '+'], " ");
    json!({
        "inTitle": has(&page.title),
        "inH1": has(&page.h1),
        "inDescription": has(page.meta_description.as_deref().unwrap_or_default()),
        "inUrl": count(&url, keyword) > 0,
        "bodyCount": count(text, keyword),
    })
}

/// Occurrences of `needle` in `haystack` as whole words, case-insensitive, not overlapping.
pub fn count(haystack: &str, needle: &str) -> u64 {
    let hay: Vec<char> = haystack.chars().flat_map(char::to_lowercase).collect();
    let pat: Vec<char> =
        needle.split_whitespace().collect::<Vec<_>>().join(" ").chars().flat_map(char::to_lowercase).collect();
    if pat.is_empty() || pat.len() > hay.len() {
        return 0;
    }
    let word = |c: Option<&char>| c.is_some_and(|c| c.is_alphanumeric());
    let (mut n, mut i) = (0, 0);
    while i + pat.len() <= hay.len() {
        if hay[i..i + pat.len()] == pat[..]
            && !word(i.checked_sub(1).and_then(|j| hay.get(j)))
            && !word(hay.get(i + pat.len()))
        {
            n += 1;
            i += pat.len();
        } else {
            i += 1;
        }
    }
    n
}

fn too_many() -> ToolResult {
    tool_error("invalid_request", format!("An owner may track at most {MAX_KEYWORDS} keywords."))
}

/// `Err` (the tool's answer) when the owner tracks [`MAX_KEYWORDS`] keywords already and
/// this one is not among them.
async fn room_for(state: &AppState, user_id: &str, keyword: &str, target: &str) -> Result<(), ToolResult> {
    let u = user_id.to_string();
    let list = state.db(move |s| s.list_keywords(&u)).await.map_err(|e| from_api_error(e, "keyword"))?;
    let tracked = list.iter().any(|x| x.keyword.eq_ignore_ascii_case(keyword) && x.target_url == target);
    if !tracked && list.len() >= MAX_KEYWORDS {
        return Err(too_many());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(hay: &str, needle: &str, expected: u64) {
        assert_eq!(count(hay, needle), expected, "{needle:?} in {hay:?}");
    }

    #[test]
    fn word_bounded_counts() {
        check("Oak table, oak chair. OAK!", "oak", 3);
        check("oaken oaks cloak", "oak", 0);
        check("solid oak furniture and oak  furniture", "oak furniture", 1);
        check("oak furniture, Oak Furniture", "oak   furniture", 2);
        check("Ärger und ärger", "ärger", 2);
        check("", "oak", 0);
        check("oak", "", 0);
        check("aaa", "aa", 0);
        check("aa aa", "aa", 2);
    }
}
