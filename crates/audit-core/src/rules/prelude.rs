//! What every rule file imports.

pub(crate) use crate::fix::{attr, Difficulty, FixCtx, FixKind, FixTemplate};
pub(crate) use crate::page::{Link, LinkKind, Page};
pub(crate) use crate::rule::{Category, Finding, Level, Outcome, Rule, RuleMeta, Severity};
pub(crate) use crate::rules::util;
