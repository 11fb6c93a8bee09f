//! SEO experiments of a key owner, measured with audits (the run_experiment tool,
//! docs/API.md): creating one audits the page now and records the chosen metric as the
//! baseline; the report reads the newest stored audit of each page as the current value.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use url::Url;

use crate::keywords::on_store;
use crate::workflows::BACKGROUND_PATIENCE;
use crate::{App, AppError, StoredResult};

/// The metric when none is named.
pub const DEFAULT_METRIC: &str = "score";

/// Experiments one owner may hold at most (docs/SECURITY.md): each is kept with its
/// baseline audit, and its report re-reads the page's audits.
pub const MAX_EXPERIMENTS_PER_USER: usize = 100;

/// What run_experiment does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ExperimentAction {
    /// Record an experiment and its baseline.
    Create,
    /// Report every experiment.
    List,
}

/// An experiment to record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewExperiment {
    /// Short name.
    pub title: String,
    /// What the change should achieve.
    pub hypothesis: String,
    /// The page under test.
    pub url: Url,
    /// Kind of change (free text).
    pub experiment_type: Option<String>,
    /// The measured figure: `score`, `word_count` or a rule id.
    pub metric: String,
}

/// The arguments of the `run_experiment` agent tool.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ExperimentArgs {
    /// create or list
    pub action: ExperimentAction,
    /// Short name; required for create
    #[schemars(length(min = 1, max = 200))]
    pub title: Option<String>,
    /// What the change should achieve; required for create
    #[schemars(length(min = 1, max = 2000))]
    pub hypothesis: Option<String>,
    /// The page under test; required for create
    #[schemars(length(min = 1, max = 2048))]
    pub url: Option<String>,
    /// Kind of change, e.g. title-rewrite, schema-added, content-expansion
    #[schemars(length(max = 100))]
    pub experiment_type: Option<String>,
    /// Measured figure: score (default), word_count, or a rule id
    #[schemars(length(max = 100))]
    pub metric_target: Option<String>,
}

impl ExperimentArgs {
    /// The experiment `create` records (texts trimmed, blank ones absent; the metric
    /// [`DEFAULT_METRIC`] when none is named), or `None` for `list`.
    ///
    /// # Errors
    /// `missing_parameter` when `create` lacks its title, hypothesis or URL, or the URL's
    /// refusal naming the argument.
    pub fn new_experiment(&self) -> Result<Option<NewExperiment>, AppError> {
        if self.action != ExperimentAction::Create {
            return Ok(None);
        }
        let text = |arg: &Option<String>| arg.as_deref().map(str::trim).filter(|s| !s.is_empty()).map(str::to_string);
        let missing =
            || AppError::refused(crate::ErrorCode::MissingParameter, "create needs title, hypothesis and url.");
        let (Some(title), Some(hypothesis), Some(url)) = (text(&self.title), text(&self.hypothesis), &self.url) else {
            return Err(missing());
        };
        let url = crate::validate_url(url).map_err(|e| crate::crawl::argument_refusal(AppError::Fetch(e), "url"))?;
        Ok(Some(NewExperiment {
            title,
            hypothesis,
            experiment_type: text(&self.experiment_type),
            metric: text(&self.metric_target).unwrap_or_else(|| DEFAULT_METRIC.to_string()),
            url,
        }))
    }
}

/// Every experiment of the owner, after the action.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct ExperimentReport {
    /// The action that was carried out.
    pub action: ExperimentAction,
    /// The experiments, newest first.
    pub experiments: Vec<ExperimentView>,
}

/// One experiment with its baseline and current value.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExperimentView {
    /// The experiment's id.
    #[schemars(with = "String")]
    pub id: vocab::ExperimentId,
    /// Short name.
    pub title: String,
    /// What the change should achieve.
    pub hypothesis: String,
    /// The page under test.
    pub url: String,
    /// Kind of change, empty when not given.
    pub experiment_type: String,
    /// The measured figure.
    pub metric_target: String,
    /// The metric when the experiment was created.
    pub baseline: Measure,
    /// The metric on the newest audit of the page; null when there is none.
    pub current: Option<Measure>,
    /// `current - baseline`, rounded to two decimals; null without a current value.
    pub delta: Option<f64>,
    /// When the experiment was created (ISO 8601 UTC).
    #[schemars(with = "String")]
    pub created_at: vocab::Timestamp,
}

/// A metric's value on one audit.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Measure {
    /// The value.
    pub value: f64,
    /// When the page was audited (ISO 8601 UTC).
    #[schemars(with = "String")]
    pub audited_at: vocab::Timestamp,
}

impl App {
    /// Records an experiment of `owner`: audits the page now and keeps the metric as the
    /// baseline.
    ///
    /// # Errors
    /// `invalid_request` for a metric that names nothing (nothing is created), what the
    /// audit met, or the store's failure.
    pub async fn create_experiment(&self, owner: &crate::UserId, new: NewExperiment) -> Result<(), AppError> {
        if !is_metric(&new.metric) {
            return Err(AppError::refused(
                crate::ErrorCode::InvalidRequest,
                format!(
                    "metricTarget must be score, word_count or a rule id (see get_audit_methodology), not {:?}. \
                     Nothing was created.",
                    new.metric
                ),
            ));
        }
        let user = owner.to_string();
        let held = on_store(self, move |s| s.list_experiments(&user)).await?.len();
        if held >= MAX_EXPERIMENTS_PER_USER {
            return Err(AppError::refused(
                crate::ErrorCode::InvalidRequest,
                format!("An owner may hold at most {MAX_EXPERIMENTS_PER_USER} experiments. Nothing was created."),
            ));
        }
        let done = self.audit_background(&new.url, Some(owner), BACKGROUND_PATIENCE).await?;
        let baseline = done.stored.ok_or_else(|| AppError::internal("audit not stored"))?;
        let record = store::NewExperiment {
            user_id: owner.clone(),
            title: new.title,
            hypothesis: new.hypothesis,
            url: new.url.to_string(),
            experiment_type: new.experiment_type,
            baseline_value: Some(metric_value(&new.metric, &baseline)),
            metric_target: Some(new.metric),
            baseline_audit_id: Some(baseline.id.clone()),
        };
        on_store(self, move |s| s.create_experiment(record)).await?;
        Ok(())
    }

    /// Every experiment of `owner` with its baseline, current value and change.
    ///
    /// # Errors
    /// The store's failure.
    pub async fn experiment_report(
        &self,
        owner: &crate::UserId,
        action: ExperimentAction,
    ) -> Result<ExperimentReport, AppError> {
        let u = owner.to_string();
        let mut experiments = Vec::new();
        for exp in on_store(self, move |s| s.list_experiments(&u)).await? {
            let (key, base_id) = (exp.url.clone(), exp.baseline_audit_id.clone());
            let (latest, base) = on_store(self, move |s| {
                let base = match base_id {
                    Some(id) => Some(s.get_audit(&id)?),
                    None => None,
                };
                Ok((s.latest_audit_for_url(&key)?, base))
            })
            .await
            .unwrap_or((None, None));
            let metric = exp.metric_target.clone().unwrap_or_else(|| DEFAULT_METRIC.to_string());
            let baseline_value = exp.baseline_value.unwrap_or(0.0);
            let baseline_at = base.as_ref().map_or(exp.created_at, |b| b.created_at);
            let current =
                latest.as_ref().map(|a| Measure { value: metric_value(&metric, a), audited_at: a.created_at.into() });
            experiments.push(ExperimentView {
                id: exp.id,
                title: exp.title,
                hypothesis: exp.hypothesis,
                url: exp.url,
                experiment_type: exp.experiment_type.unwrap_or_default(),
                metric_target: metric,
                baseline: Measure { value: baseline_value, audited_at: baseline_at.into() },
                delta: current.as_ref().map(|c| round2(c.value - baseline_value)),
                current,
                created_at: exp.created_at.into(),
            });
        }
        Ok(ExperimentReport { action, experiments })
    }
}

fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

/// Whether `metric` names something [`metric_value`] can measure.
pub fn is_metric(metric: &str) -> bool {
    metric == "score" || metric == "word_count" || audit_core::rule_by_id(metric).is_some()
}

/// The metric of a stored audit: `score`, `word_count`, or a rule id (1 when the rule
/// does not fail on the page, 0 when it does).
pub fn metric_value(metric: &str, audit: &store::StoredAudit) -> f64 {
    let result = StoredResult::of(audit);
    match metric {
        "score" => audit.score as f64,
        "word_count" => result.result.page.word_count as f64,
        rule if result.fails(rule) => 0.0,
        _ => 1.0,
    }
}
