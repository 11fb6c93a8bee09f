//! What every site rule file imports.

pub(crate) use audit_core::Severity;

pub(crate) use super::{
    answer, duplicates, each_external_link, each_link, each_page, follow_redirects, Answer, CrawledSite, DuplicateKey,
    Findings, Next, RedirectPath, Scan, ScanResult, SiteFinding, SiteResult, SiteRule, SiteRuleMeta,
};
pub(crate) use crate::page::CrawledPage;
