//! Auto-fix: ready-to-use code for each audit issue, filled in from the page.
//!
//! - [`fix_issue`] turns one [`Issue`] (rule `id`, or only `title`/`description`/
//!   `recommendation`/`category`, plus an optional [`FixContext`]) into a [`Fix`], serialised
//!   as `{issueTitle, fix, type, difficulty, ruleId, explanation, placeholders}`.
//!   [`fix_batch`] does a batch, one fix per issue in the same order.
//! - A value the page does not give is never invented: the snippet holds a `TODO:` text in
//!   its place (`content="TODO: describe what this page offers..."`) and
//!   [`Fix::placeholders`] lists each ([`placeholders`] finds them).
//! - Every rule of `audit_core::RULES` has a template ([`template_ids`]), so does every site
//!   rule of `crawl::SITE_RULES` that offers a fix, plus a few for issues other engines report
//!   ([`EXTRA_TEMPLATES`]: blocked AI crawlers, llms.txt, HSTS...).
//!   [`fix_for_rule`] renders one by id.
//! - Templates fill in the page's own values: a description from its first paragraph (at
//!   most 160 characters, cut at a word), a title of at most 60, JSON-LD of the fitting type
//!   with the real name and URL, its canonical URL, the robots.txt lines that let a named
//!   crawler in. Values are escaped for HTML attributes and JSON.
//! - Templates state a fact about the page (word count, status, the blocking rule) only when
//!   it is known: from the parsed page or the issue's `current_value`
//!   ([`FixContext::current_value`], [`Issue::current_value`]); otherwise they leave it out.
//! - Issues without an id get a template only when they name its problem: a template id in
//!   their text, or one of its phrases in their title ([`match_rule`]); an issue that names
//!   none gets an honest generic `text` fix, never an error.
//!
//! ```
//! use audit_core::rules::technical::CanonicalMissing;
//! use audit_core::Rule;
//! use autofix::{fix_batch, FixContext, FixKind, Issue};
//!
//! let issues = vec![
//!     Issue { title: Some("Missing meta description".into()), context: Some(FixContext {
//!         url: Some("https://example.com/oak-chairs".into()),
//!         text: Some("Our oak chairs are made by hand in Bavaria from local wood, oiled with natural oils and built to last for generations of family dinners and long evenings.".into()),
//!         ..FixContext::default() }), ..Issue::default() },
//!     Issue { id: Some(CanonicalMissing.meta().id.into()), context: Some(FixContext {
//!         url: Some("https://example.com/oak-chairs".into()), ..FixContext::default() }), ..Issue::default() },
//!     Issue { title: Some("Something nobody has a template for".into()), ..Issue::default() },
//! ];
//! let fixes = fix_batch(&issues);
//! assert!(fixes[0].fix.starts_with("<meta name=\"description\" content=\"Our oak chairs are made by hand"));
//! assert_eq!(fixes[1].fix, "<link rel=\"canonical\" href=\"https://example.com/oak-chairs\">");
//! assert_eq!(fixes[2].kind, FixKind::Text);
//! assert_eq!(fixes[2].rule_id, None);
//! ```

mod context;
mod extra;
mod fix;
mod matching;

pub use audit_core::fix::{Difficulty, FixKind, EXAMPLE_URL};
pub use context::{FixContext, Issue};
pub use extra::{template_ids, FixOnly, EXTRA_TEMPLATES};
pub use fix::{fix_batch, fix_for_rule, fix_issue, placeholders, Fix, Placeholder, MAX_BATCH, TODO_MARK};
pub use matching::{match_rule, match_text, RuleMatch, ID_MATCH_SCORE};
