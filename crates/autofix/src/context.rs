//! The page context as the API receives it; the fixes read it resolved, as a
//! [`FixCtx`] of audit-core.

use audit_core::fix::{FixCtx, Given};
use audit_core::Page;
use serde::Deserialize;

/// What the caller knows about the page an issue was found on. Every field is optional; the
/// parsed page, when there is one, fills what the others leave out.
#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "AutoFixContext", transform = document_snake_alias))]
#[serde(rename_all = "camelCase", default)]
pub struct FixContext<'a> {
    pub url: Option<String>,
    pub title: Option<String>,
    /// The page's meta description, when it has one.
    pub description: Option<String>,
    /// Text of the page (or its first paragraph): the source of written descriptions.
    pub text: Option<String>,
    /// What the audit found on the page for this issue: its finding's `current_value` (the
    /// word count for `thin-content`, the status for `http-status-error`, the title that is
    /// too long, the first image without alt...). Templates state such a fact only when it is
    /// known from here or from the page; otherwise they leave it out. Accepted as
    /// `currentValue` or `current_value`.
    #[serde(alias = "current_value")]
    pub current_value: Option<String>,
    /// The parsed page, set by the server when it audited the page itself.
    #[serde(skip)]
    pub page: Option<&'a Page>,
}

/// An audit issue as the auto-fix endpoint receives it (docs/API.md, "POST /api/auto-fix-batch").
/// Every field is optional.
#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "AutoFixIssue", transform = crate::context::document_snake_alias))]
#[serde(rename_all = "camelCase", default)]
pub struct Issue<'a> {
    /// The rule id, when the caller has it (`meta-description-missing`).
    pub id: Option<String>,
    pub title: Option<String>,
    pub description: Option<String>,
    pub recommendation: Option<String>,
    pub category: Option<String>,
    /// What the audit found (a recommendation's `current_value`: the word count, the status,
    /// the title that is too long...). Templates use it to state the fact; it wins over
    /// `context.currentValue`. Accepted as `currentValue` or `current_value`.
    #[serde(alias = "current_value")]
    pub current_value: Option<String>,
    pub context: Option<FixContext<'a>>,
}

/// Lists `current_value`, the alias `currentValue` is also accepted under, in a schema.
#[cfg(feature = "schema")]
pub(crate) fn document_snake_alias(schema: &mut schemars::Schema) {
    let Some(props) = schema.get_mut("properties").and_then(serde_json::Value::as_object_mut) else {
        return;
    };
    if let Some(camel) = props.get("currentValue").cloned() {
        let mut alias = camel;
        alias["description"] = "Same as `currentValue`.".into();
        props.insert("current_value".into(), alias);
    }
}

/// The context a rule's fix reads, from what the caller gave.
pub(crate) fn fix_ctx<'a>(ctx: Option<&FixContext<'a>>) -> FixCtx<'a> {
    let mut given = Given::new();
    if let Some(c) = ctx {
        given.url = c.url.as_deref();
        given.title = c.title.as_deref();
        given.description = c.description.as_deref();
        given.text = c.text.as_deref();
        given.current_value = c.current_value.as_deref();
    }
    FixCtx::new(ctx.and_then(|c| c.page), given)
}
