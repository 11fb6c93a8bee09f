//! Two pages audited with the same ruleset and compared through the one comparison
//! ([`crate::Comparison`]): what got worse or better between a baseline and a current page
//! (detect_regressions), and which of a site's page and a competitor's wins per category
//! (compare_competitors). docs/API.md, the tools table.

use audit_core::Category;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{json, Value};
use url::Url;

use crate::{App, AppError, Audited, Comparison};

/// Which of two pages an audit failed on.
#[derive(Debug)]
pub enum PairError {
    /// The first page (the baseline, or the site).
    First(AppError),
    /// The second page (the current page, or the competitor).
    Second(AppError),
}

/// What changed between a baseline page and a current one.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Regressions {
    /// The reference page.
    pub baseline_url: String,
    /// The page compared with it.
    pub current_url: String,
    /// Score percentage of the baseline.
    pub baseline_score: u32,
    /// Score percentage of the current page.
    pub current_score: u32,
    /// `currentScore - baselineScore`.
    pub score_delta: i64,
    /// A rule newly fails, a finding is new (an element the baseline did not have), or the
    /// score fell.
    pub regressed: bool,
    /// Findings in each state, the current page's against the baseline's, matched by rule
    /// and element as `GET /api/v1/audits/{id}/compare` matches them.
    pub counts: audit_core::baseline::Counts,
    /// The current page's findings, each `new` or `unchanged`, then the baseline's that are
    /// `resolved`; each element with its own state (docs/API.md, "Comparing two audits").
    pub findings: Vec<api::compare::ComparedFinding>,
    /// Rule ids failing on the current page only, in id order.
    pub newly_failing: Vec<String>,
    /// Rule ids that failed on the baseline and pass on the current page.
    pub newly_passing: Vec<String>,
    /// Page facts that differ.
    pub changed_facts: Vec<ChangedFact>,
}

/// One page fact that differs between the two pages.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct ChangedFact {
    /// The fact's name in the REST audit result's `page` (`title`, `word_count`, `og.title`, ...).
    pub field: String,
    /// Its value on the baseline.
    pub baseline: Value,
    /// Its value on the current page.
    pub current: Value,
}

/// Which page wins a comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Winner {
    /// The user's page.
    Site,
    /// The competitor's page.
    Competitor,
    /// Neither.
    Tie,
}

impl Winner {
    fn of(site: u32, competitor: u32) -> Winner {
        match site.cmp(&competitor) {
            std::cmp::Ordering::Greater => Winner::Site,
            std::cmp::Ordering::Less => Winner::Competitor,
            std::cmp::Ordering::Equal => Winner::Tie,
        }
    }
}

/// A site's page against a competitor's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CompetitorComparison {
    /// The user's page.
    pub url: String,
    /// The competitor's page.
    pub competitor_url: String,
    /// Score percentages.
    pub score: PairScore,
    /// Which page scores higher.
    pub winner: Winner,
    /// Percentage per audit category that applies to either page.
    pub categories: Vec<CategoryScore>,
    /// Rule ids the site passes and the competitor fails.
    pub site_wins: Vec<String>,
    /// Rule ids the competitor passes and the site fails.
    pub competitor_wins: Vec<String>,
}

/// The score percentage of each page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub struct PairScore {
    /// The user's page.
    pub site: u32,
    /// The competitor's page.
    pub competitor: u32,
}

/// One category's percentage on each page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct CategoryScore {
    /// The audit category.
    pub category: String,
    /// The user's page.
    pub site: u32,
    /// The competitor's page.
    pub competitor: u32,
    /// Which page scores higher in it.
    pub winner: Winner,
}

impl App {
    /// Audits `a` and `b` at once for a caller charged already.
    ///
    /// # Errors
    /// The first failure, naming its page.
    pub async fn audit_pair(
        &self,
        a: &Url,
        b: &Url,
        owner: Option<&crate::UserId>,
    ) -> Result<(Audited, Audited), PairError> {
        match tokio::join!(self.audit_charged(a, owner), self.audit_charged(b, owner)) {
            (Ok(a), Ok(b)) => Ok((a, b)),
            (Err(e), _) => Err(PairError::First(e)),
            (_, Err(e)) => Err(PairError::Second(e)),
        }
    }

    /// Audits a baseline and a current page and reports what changed.
    ///
    /// # Errors
    /// The first failure, naming its page.
    pub async fn detect_regressions(
        &self,
        baseline: &Url,
        current: &Url,
        owner: Option<&crate::UserId>,
    ) -> Result<Regressions, PairError> {
        let (b, c) = self.audit_pair(baseline, current, owner).await?;
        Ok(regressions(baseline.as_str(), &b, current.as_str(), &c))
    }

    /// Audits a site's page and a competitor's and compares them.
    ///
    /// # Errors
    /// The first failure, naming its page.
    pub async fn compare_competitors(
        &self,
        site: &Url,
        competitor: &Url,
        owner: Option<&crate::UserId>,
    ) -> Result<CompetitorComparison, PairError> {
        let (s, c) = self.audit_pair(site, competitor, owner).await?;
        Ok(compare_competitors(site.as_str(), &s, competitor.as_str(), &c))
    }
}

/// The facts compared, named as the REST audit result's `page` names them (`og.title`: the
/// `title` of `page.og`), read from that page summary.
fn facts(done: &Audited) -> Vec<(&'static str, Value)> {
    let p = &done.result.page;
    vec![
        ("title", json!(p.title)),
        ("meta_description", json!(p.meta_description)),
        ("h1", json!(p.h1)),
        ("canonical", json!(p.canonical)),
        ("word_count", json!(p.word_count)),
        ("status_code", json!(p.status_code)),
        ("robots", json!(p.robots)),
        ("lang", json!(p.lang)),
        ("og.title", json!(p.og.title)),
        ("og.description", json!(p.og.description)),
        ("og.image", json!(p.og.image)),
    ]
}

/// What changed from `baseline` to `current`.
pub fn regressions(baseline_url: &str, baseline: &Audited, current_url: &str, current: &Audited) -> Regressions {
    let diff = Comparison::of(&baseline.result, &current.result);
    // Both results were just made by this engine: they serialise.
    let (counts, findings) =
        crate::audit_compare::compare_results(&current.result, &baseline.result).unwrap_or_default();
    let changed_facts = facts(baseline)
        .into_iter()
        .zip(facts(current))
        .filter(|((_, b), (_, c))| b != c)
        .map(|((field, baseline), (_, current))| ChangedFact { field: field.to_string(), baseline, current })
        .collect();
    Regressions {
        baseline_url: baseline_url.to_string(),
        current_url: current_url.to_string(),
        baseline_score: diff.scores.0,
        current_score: diff.scores.1,
        score_delta: diff.score_delta(),
        regressed: diff.regressed() || counts.new > 0,
        counts,
        findings,
        newly_failing: diff.failing_only_in_b,
        newly_passing: diff.fixed_in_b,
        changed_facts,
    }
}

/// `site` against `competitor`.
pub fn compare_competitors(
    site_url: &str,
    site: &Audited,
    competitor_url: &str,
    competitor: &Audited,
) -> CompetitorComparison {
    // A category with no applicable rule on one side counts as fully passed there, as the
    // overall score does for a page where nothing applies; categories that apply to
    // neither page are left out.
    let categories = Category::ALL
        .iter()
        .filter_map(|&cat| {
            let (s, c) = match (site.audit.category_score(cat), competitor.audit.category_score(cat)) {
                (None, None) => return None,
                (s, c) => (s.unwrap_or(100), c.unwrap_or(100)),
            };
            Some(CategoryScore { category: cat.as_str().to_string(), site: s, competitor: c, winner: Winner::of(s, c) })
        })
        .collect();
    // The one comparison: a site "wins" a rule that fails on the competitor only.
    let diff = Comparison::of(&site.result, &competitor.result);
    let (s, c) = diff.scores;
    CompetitorComparison {
        url: site_url.to_string(),
        competitor_url: competitor_url.to_string(),
        score: PairScore { site: s, competitor: c },
        winner: Winner::of(s, c),
        categories,
        site_wins: diff.failing_only_in_b,
        competitor_wins: diff.failing_only_in_a,
    }
}
