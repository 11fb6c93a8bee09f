//! The report of one audit as the seo_audit tool answers it: score, every failed check as
//! an issue, the main page facts and the ruleset (docs/API.md, the tools table).

use audit_core::{Level, Severity};
use schemars::JsonSchema;
use serde::Serialize;
use url::Url;

use crate::{App, AppError, Audited};

/// One audited page, stored like a REST audit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditReport {
    /// The URL as asked.
    pub url: String,
    /// The URL after redirects.
    pub final_url: String,
    /// The stored audit's id; null when storing failed.
    pub audit_id: Option<String>,
    /// When the page was audited (ISO 8601 UTC).
    pub scanned_at: String,
    /// The score.
    pub score: ScoreReport,
    /// Every failed check, most severe first.
    pub issues: Vec<Issue>,
    /// The main page facts.
    pub page: PageFacts,
    /// Version of the ruleset that scored the page.
    pub ruleset_version: String,
    /// Fingerprint of the ruleset.
    pub ruleset_fingerprint: String,
    /// A short reading of the result for assistants.
    pub ai_insights: String,
}

/// The score of an audit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ScoreReport {
    /// Weight of the passed rules.
    pub current: u32,
    /// Weight of the applicable rules.
    pub max: u32,
    /// `current` as a percentage of `max`.
    pub percentage: u32,
    /// Rules passed.
    pub passed: usize,
    /// Rules applicable.
    pub total: usize,
}

/// One failed check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Issue {
    /// The rule id.
    pub id: String,
    /// The rule's severity.
    #[serde(rename = "type")]
    pub kind: Severity,
    /// The audit category.
    pub category: String,
    /// What was found.
    pub title: String,
    /// Why it matters and what to do.
    pub description: String,
    /// Expected effect of fixing it.
    pub impact: Level,
    /// Expected work to fix it.
    pub effort: Level,
    /// 0 to 100: how sure the failure is a real problem.
    pub confidence: u8,
    /// The value found, when there is one.
    pub current_value: Option<String>,
    /// A better value, when the rule can suggest one.
    pub suggested_value: Option<String>,
}

/// The main facts of an audited page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PageFacts {
    /// The `<title>`.
    pub title: String,
    /// The meta description, when present.
    pub meta_description: Option<String>,
    /// The first `<h1>`.
    pub h1: String,
    /// Words of visible text.
    pub word_count: usize,
    /// HTTP status of the page.
    pub status_code: u16,
    /// The canonical URL, empty when absent.
    pub canonical: String,
    /// `<html lang>`, empty when absent.
    pub lang: String,
    /// The robots directives, empty when absent.
    pub robots: String,
}

impl App {
    /// Audits and stores `url` for a caller charged already ([`App::audit_charged`]) and
    /// reports it.
    ///
    /// # Errors
    /// `overloaded`, or what the audit met.
    pub async fn audit_report(&self, url: &Url, owner: Option<&str>) -> Result<AuditReport, AppError> {
        let done = self.audit_charged(url, owner).await?;
        Ok(AuditReport::of(url.as_str(), &done))
    }
}

impl AuditReport {
    /// The report of an audit of `url`, built from the result the audit path stored.
    pub fn of(url: &str, done: &Audited) -> AuditReport {
        let result = &done.result;
        let (s, p) = (&result.score, &result.page);
        let issues = result
            .recommendations
            .iter()
            .map(|r| Issue {
                id: r.id.clone(),
                kind: r.kind,
                category: r.category.to_string(),
                title: r.title.clone(),
                description: r.description.clone(),
                impact: r.impact,
                effort: r.effort,
                confidence: r.confidence,
                current_value: r.current_value.clone(),
                suggested_value: r.suggested_value.clone(),
            })
            .collect();
        AuditReport {
            url: url.to_string(),
            final_url: p.final_url.clone(),
            audit_id: done.stored.as_ref().map(|s| s.id.clone()),
            scanned_at: result.scanned_at.clone(),
            score: ScoreReport {
                current: s.current,
                max: s.max,
                percentage: s.percentage,
                passed: s.passed,
                total: s.total,
            },
            issues,
            page: PageFacts {
                title: p.title.clone(),
                meta_description: p.meta_description.clone(),
                h1: p.h1.clone(),
                word_count: p.word_count,
                status_code: p.status_code,
                canonical: p.canonical.clone(),
                lang: p.lang.clone(),
                robots: p.robots.clone(),
            },
            ruleset_version: s.ruleset_version.clone(),
            ruleset_fingerprint: s.ruleset_fingerprint.clone(),
            ai_insights: result.ai_insights.clone(),
        }
    }
}

/// `(rule id, fix code)` for every recommendation of a stored result (the report page's
/// fixes), filled from its page: the stored result has no parsed page, so the finding's own
/// value (a word count, a status, the blocking rule) is what the template may state as fact.
pub fn report_fixes(result: &audit_core::AuditResult) -> Vec<(String, String)> {
    let text = |s: &str| Some(s.to_string()).filter(|s| !s.is_empty());
    let page = &result.page;
    let context = autofix::FixContext {
        url: text(&page.final_url).or_else(|| text(&page.url)),
        title: text(&page.title),
        description: page.meta_description.as_deref().and_then(text),
        ..autofix::FixContext::default()
    };
    let mut fixes: Vec<(String, String)> = Vec::new();
    for rec in &result.recommendations {
        if rec.id.is_empty() || fixes.iter().any(|(known, _)| *known == rec.id) {
            continue;
        }
        let context = autofix::FixContext { current_value: rec.current_value.clone(), ..context.clone() };
        if let Some(fix) = autofix::fix_for_rule(&rec.id, Some(&context)) {
            fixes.push((rec.id.clone(), fix.fix));
        }
    }
    fixes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for s in [Severity::Critical, Severity::Warning, Severity::Notice] {
            assert_eq!(s.to_string().parse::<Severity>(), Ok(s));
        }
        for l in [Level::High, Level::Medium, Level::Low] {
            assert_eq!(l.to_string().parse::<Level>(), Ok(l));
        }
    }
}
