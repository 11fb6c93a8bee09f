//! What every site rule file imports.

pub(crate) use audit_core::Severity;

pub(crate) use super::{
    answer, duplicates, Answer, CrawledSite, DuplicateKey, Findings, SiteFinding, SiteResult, SiteRule, SiteRuleMeta,
};
