//! On-page keyword tracking of a key owner (the track_keywords tool, docs/API.md). For each
//! keyword: whether it appears in the title, h1, meta description and URL of the target page,
//! and how often in its visible text, from every stored audit that kept the page text (every
//! audit made through the one audit path, module `audit`). Never a rank. Words are compared
//! through the one text normaliser (crate `text`): whole words, case and diacritics folded, inflected forms
//! counted (`copper kettle` is found in `Copper Kettles`), and the forms found reported.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use url::Url;

use crate::{App, AppError, StoredResult};

/// Audits read per keyword for its history, newest first.
pub const HISTORY_AUDITS: usize = 20;
/// Most keywords one owner may track.
pub const MAX_KEYWORDS: usize = 100;
use crate::workflows::BACKGROUND_PATIENCE;

/// The note every answer carries, so that no agent mistakes presence counts for rank.
pub const KEYWORD_NOTE: &str = "On-page keyword tracking: presence and frequency of each keyword in the title, h1, \
     meta description, URL and body text of the target page, recorded at every audit. It does not measure \
     search-engine rank positions.";

/// What track_keywords does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum KeywordAction {
    /// Track a keyword on a page.
    Add,
    /// Stop tracking a keyword and delete its history.
    Remove,
    /// Report every tracked keyword.
    List,
}

/// The arguments of the `track_keywords` agent tool.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct KeywordArgs {
    /// add, remove or list
    pub action: KeywordAction,
    /// The keyword or phrase; required for add and remove
    #[schemars(length(min = 1, max = 100))]
    pub keyword: Option<String>,
    /// The page that should rank for it; required for add
    #[schemars(length(min = 1, max = 2048))]
    pub target_url: Option<String>,
}

/// What a `track_keywords` call changes before its report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeywordChange {
    /// Track `keyword` on `url`.
    Add {
        /// The keyword, trimmed.
        keyword: String,
        /// The page.
        url: Url,
    },
    /// Stop tracking `keyword`.
    Remove {
        /// The keyword, trimmed.
        keyword: String,
    },
    /// Nothing (list).
    Nothing,
}

impl KeywordArgs {
    /// The change the action asks for.
    ///
    /// # Errors
    /// `missing_parameter` when add or remove lacks its keyword, or add its target URL; the
    /// URL's refusal naming the argument.
    pub fn change(&self) -> Result<KeywordChange, AppError> {
        let missing = |message: &str| AppError::refused(crate::ErrorCode::MissingParameter, message);
        let keyword = self.keyword.as_deref().map(str::trim).filter(|s| !s.is_empty()).map(str::to_string);
        Ok(match self.action {
            KeywordAction::Add => {
                let keyword = keyword.ok_or_else(|| missing("The add action needs `keyword`."))?;
                let raw = self.target_url.as_deref().ok_or_else(|| missing("add needs targetUrl."))?;
                let url = crate::validate_url(raw)
                    .map_err(|e| crate::crawl::argument_refusal(AppError::Fetch(e), "targetUrl"))?;
                KeywordChange::Add { keyword, url }
            }
            KeywordAction::Remove => {
                KeywordChange::Remove { keyword: keyword.ok_or_else(|| missing("The remove action needs `keyword`."))? }
            }
            KeywordAction::List => KeywordChange::Nothing,
        })
    }
}

/// Every keyword the owner tracks, after the action.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct KeywordReport {
    /// The action that was carried out.
    pub action: KeywordAction,
    /// The tracked keywords, oldest first.
    pub keywords: Vec<TrackedKeyword>,
    /// What the figures mean (never a rank).
    pub note: String,
}

/// One tracked keyword and its history.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TrackedKeyword {
    /// The keyword or phrase.
    pub keyword: String,
    /// The page it is tracked on.
    pub target_url: String,
    /// When tracking began (ISO 8601 UTC).
    #[schemars(with = "String")]
    pub tracked_since: vocab::Timestamp,
    /// The newest audit's measure; null when no audit kept the page text.
    pub latest: Option<KeywordMeasure>,
    /// One point per audit, oldest first.
    pub history: Vec<KeywordPoint>,
}

/// Where a keyword appears on one audit of its page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct KeywordMeasure {
    /// In the `<title>`.
    pub in_title: bool,
    /// In the first `<h1>`.
    pub in_h1: bool,
    /// In the meta description.
    pub in_description: bool,
    /// In the URL (words separated by `-`, `_`, `/` or `.`).
    pub in_url: bool,
    /// Whole-word occurrences in the visible text, inflected forms included.
    pub body_count: u64,
    /// The forms the keyword was found in (title, h1, meta description, visible text),
    /// lower-cased, each once, in the order first met: `["copper kettles", "copper kettle"]`.
    pub forms: Vec<String>,
}

/// A keyword's measure at one audit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct KeywordPoint {
    /// When the page was audited (ISO 8601 UTC).
    #[schemars(with = "String")]
    pub audited_at: vocab::Timestamp,
    /// Whole-word occurrences in the visible text.
    pub body_count: u64,
    /// In the `<title>`.
    pub in_title: bool,
    /// In the first `<h1>`.
    pub in_h1: bool,
}

/// Runs a store call on the blocking pool (store calls block on disk and locks).
pub(crate) async fn on_store<T, F>(app: &App, f: F) -> Result<T, AppError>
where
    T: Send + 'static,
    F: FnOnce(&store::Store) -> store::Result<T> + Send + 'static,
{
    let store = app.store.clone();
    tokio::task::spawn_blocking(move || f(&store))
        .await
        .map_err(|e| AppError::internal(format!("store task failed: {e}")))?
        .map_err(AppError::from)
}

fn too_many() -> AppError {
    AppError::refused(crate::ErrorCode::InvalidRequest, format!("An owner may track at most {MAX_KEYWORDS} keywords."))
}

impl App {
    /// Tracks `keyword` on `target` for `owner`. Refused before anything is fetched when the
    /// owner tracks [`MAX_KEYWORDS`] others already; the page is audited (once, when no
    /// stored audit kept its text) before the keyword is stored, so a page that cannot be
    /// audited leaves nothing tracked. Tracking a keyword again changes nothing.
    ///
    /// # Errors
    /// The limit, what the audit met, or the store's failure.
    pub async fn add_keyword(&self, owner: &crate::UserId, keyword: &str, target: &Url) -> Result<(), AppError> {
        let (u, k, t) = (owner.to_string(), keyword.to_string(), target.to_string());
        let room = move |s: &store::Store| -> store::Result<Option<bool>> {
            let list = s.list_keywords(&u)?;
            let tracked = list.iter().any(|x| x.keyword.eq_ignore_ascii_case(&k) && x.target_url == t);
            Ok((tracked || list.len() < MAX_KEYWORDS).then_some(tracked))
        };
        if on_store(self, room.clone()).await?.is_none() {
            return Err(too_many());
        }
        let key = target.to_string();
        let audits =
            on_store(self, move |s| s.audits_with_text_for_url(&key, HISTORY_AUDITS)).await.unwrap_or_default();
        if !audits.into_iter().any(|(a, text)| text_of(&a, text).is_some()) {
            let done = self.audit_background(target, Some(owner), BACKGROUND_PATIENCE).await?;
            done.stored.ok_or_else(|| AppError::internal("audit not stored"))?;
        }
        let (u, k, t) = (owner.to_string(), keyword.to_string(), target.to_string());
        let added = on_store(self, move |s| match room(s)? {
            Some(true) => Ok(true),
            Some(false) => s.add_keyword(&u, &k, &t).map(|_| true),
            None => Ok(false),
        })
        .await?;
        if added {
            Ok(())
        } else {
            Err(too_many())
        }
    }

    /// Stops tracking `keyword` for `owner` and deletes its history.
    ///
    /// # Errors
    /// `not_found` when it is not tracked, or the store's failure.
    pub async fn remove_keyword(&self, owner: &crate::UserId, keyword: &str) -> Result<(), AppError> {
        let (u, k) = (owner.to_string(), keyword.to_string());
        match on_store(self, move |s| Ok(s.remove_keyword(&u, &k))).await? {
            Ok(_) => Ok(()),
            Err(e) if e.is_not_found() => {
                Err(AppError::refused(crate::ErrorCode::NotFound, format!("The keyword {keyword:?} is not tracked.")))
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Every keyword `owner` tracks, measured on the stored audits of its page.
    ///
    /// # Errors
    /// The store's failure.
    pub async fn keyword_report(
        &self,
        owner: &crate::UserId,
        action: KeywordAction,
    ) -> Result<KeywordReport, AppError> {
        let u = owner.to_string();
        let tracked = on_store(self, move |s| s.list_keywords(&u)).await?;
        let mut keywords = Vec::new();
        for kw in tracked {
            let key = kw.target_url.clone();
            let audits =
                on_store(self, move |s| s.audits_with_text_for_url(&key, HISTORY_AUDITS)).await.unwrap_or_default();
            let points: Vec<(vocab::Timestamp, KeywordMeasure)> = audits
                .into_iter()
                .filter_map(|(a, text)| {
                    text_of(&a, text).map(|(result, text)| {
                        (vocab::Timestamp::from(a.created_at), measure(&kw.keyword, &result, &text))
                    })
                })
                .collect();
            // Oldest first, so the history reads as a timeline.
            let history = points
                .iter()
                .rev()
                .map(|(at, m)| KeywordPoint {
                    audited_at: *at,
                    body_count: m.body_count,
                    in_title: m.in_title,
                    in_h1: m.in_h1,
                })
                .collect();
            keywords.push(TrackedKeyword {
                latest: points.first().map(|(_, m)| m.clone()),
                keyword: kw.keyword,
                target_url: kw.target_url,
                tracked_since: kw.created_at.into(),
                history,
            });
        }
        Ok(KeywordReport { action, keywords, note: KEYWORD_NOTE.to_string() })
    }
}

/// The parsed result and kept text of a stored audit, when it kept the text: in the text
/// table (`text`), or inside the result JSON for audits stored before it existed.
fn text_of(audit: &store::StoredAudit, text: Option<String>) -> Option<(StoredResult, String)> {
    let mut result = StoredResult::of(audit);
    let text = text.or_else(|| result.page_text.take())?;
    Some((result, text))
}

/// Presence in title, h1, description and URL, the body count and the forms found, of one
/// keyword, read in the page's language (`<html lang>`; English when unknown).
fn measure(keyword: &str, result: &StoredResult, text: &str) -> KeywordMeasure {
    let page = &result.result.page;
    let words = text::Normaliser::for_tag(Some(&page.lang));
    let mut forms: Vec<String> = Vec::new();
    let mut find = |field: &str| {
        let found = words.find_phrase(field, keyword);
        for m in &found {
            let form = m.form.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase();
            if !forms.contains(&form) {
                forms.push(form);
            }
        }
        found.len() as u64
    };
    let in_title = find(&page.title) > 0;
    let in_h1 = find(&page.h1) > 0;
    let in_description = find(page.meta_description.as_deref().unwrap_or_default()) > 0;
    let body_count = find(text);
    // In a URL, words are separated by `-`, `_`, `/` or `.`, which separate words anyway.
    let address = if page.final_url.is_empty() { &page.url } else { &page.final_url };
    let in_url = count_in(&words, address, keyword) > 0;
    KeywordMeasure { in_title, in_h1, in_description, in_url, body_count, forms }
}

fn count_in(words: &text::Normaliser, haystack: &str, needle: &str) -> u64 {
    words.find_phrase(haystack, needle).len() as u64
}

/// Occurrences of `needle` in `haystack` as whole words, not overlapping, with case,
/// diacritics and English inflection folded (`oak` counts `Oaks`, not `cloak`).
pub fn count(haystack: &str, needle: &str) -> u64 {
    count_in(&text::Normaliser::default(), haystack, needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tools_change_needs_its_keyword_and_page() {
        let args = |v: serde_json::Value| serde_json::from_value::<KeywordArgs>(v).unwrap();
        let refused = |v| match args(v).change() {
            Err(AppError::Refused(r)) => (r.code.as_str(), r.message),
            other => panic!("{other:?}"),
        };
        let missing = |m: &str| ("missing_parameter", m.to_string());
        assert_eq!(
            refused(serde_json::json!({ "action": "add", "targetUrl": "a.example" })),
            missing("The add action needs `keyword`.")
        );
        assert_eq!(refused(serde_json::json!({ "action": "add", "keyword": "oak" })), missing("add needs targetUrl."));
        assert_eq!(
            refused(serde_json::json!({ "action": "remove", "keyword": " " })),
            missing("The remove action needs `keyword`.")
        );
        let (code, message) =
            refused(serde_json::json!({ "action": "add", "keyword": "oak", "targetUrl": "ftp://a/" }));
        assert_eq!(code, "invalid_url");
        assert!(message.ends_with(" (argument targetUrl)."), "{message}");
        let add = args(serde_json::json!({ "action": "add", "keyword": " oak ", "targetUrl": "a.example" })).change();
        let url = Url::parse("https://a.example/").unwrap();
        assert_eq!(add.unwrap(), KeywordChange::Add { keyword: "oak".into(), url });
        assert_eq!(args(serde_json::json!({ "action": "list" })).change().unwrap(), KeywordChange::Nothing);
    }

    #[test]
    fn kept_text_comes_from_the_text_table_or_from_older_rows_json() {
        let row = crate::stored::test_row;
        let text = |a: &store::StoredAudit, t: Option<&str>| text_of(a, t.map(str::to_string)).map(|(_, t)| t);
        // Stored since page texts have their own table.
        assert_eq!(text(&row("{}"), Some("oak tables")).as_deref(), Some("oak tables"));
        // Stored before: the text sits inside the result JSON.
        let old = row(r#"{"page_text":"pine chairs"}"#);
        assert_eq!(text(&old, None).as_deref(), Some("pine chairs"));
        // Never kept (made before keyword history existed).
        assert_eq!(text(&row("{}"), None), None);
    }

    fn check(hay: &str, needle: &str, expected: u64) {
        assert_eq!(count(hay, needle), expected, "{needle:?} in {hay:?}");
    }

    #[test]
    fn word_bounded_counts() {
        check("Oak table, oak chair. OAK!", "oak", 3);
        // Inflected forms count (the plural), other words holding the letters do not.
        check("oaken oaks cloak", "oak", 1);
        check("copper kettles and a Copper Kettle", "copper kettle", 2);
        // Words are words whatever separates them on the page, as in the keyword.
        check("solid oak furniture and oak  furniture", "oak furniture", 2);
        check("oak furniture, Oak Furniture", "oak   furniture", 2);
        check("Ärger und ärger", "ärger", 2);
        check("", "oak", 0);
        check("oak", "", 0);
        check("aaa", "aa", 0);
        check("aa aa", "aa", 2);
    }
}
