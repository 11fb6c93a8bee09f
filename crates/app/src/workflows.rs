//! Workflow runs of the agent tools: persisted steps, an approval gate, recovery after a
//! restart (docs/API.md, "Workflow runs").
//!
//! A run is created `queued` by workflow_execute with all its steps `pending`; [`Workflows::start`]
//! runs them in a background task (`running`). The fix intent stops at an approval gate
//! (`awaiting_approval`, webhook `workflow.awaiting_approval`); approve_fixes decides it in
//! one store transaction and, when approved, [`Workflows::resume`] finishes the plan. Every step's
//! status, timing and result are written as it happens, so workflow_status reads the
//! store only, and a new process knows what the old one did: [`Workflows::recover`] resumes runs left
//! `queued`/`running` from the step that was cut short (steps are idempotent: audits are
//! stored anew, monitors are found or made, plans are recomputed), at most
//! [`store::MAX_RESUMES`] times; after that a run is `failed` with reason `interrupted`.
//! Runs waiting for approval keep waiting; their state is all in the store.
//!
//! Several replicas may share one database (docs/ARCHITECTURE.md, "Replicas"): a run is
//! driven by the replica that holds its lease (taken with the run, renewed while it is
//! driven, given up at its gate or its end), and every replica sweeps now and then
//! ([`Workflows::spawn_sweeper`]) for `queued`/`running` runs whose lease ran out, which it
//! adopts exactly as a restart recovers them (the same [`store::MAX_RESUMES`] bound).
//!
//! ```text
//! queued -> running -> completed
//!              |  \-> failed (step, reason)
//!              v
//!      awaiting_approval -(approved)-> running -> completed
//!              \--------(rejected)-> rejected
//! ```
//!
//! Also here: [`App::audit_and_store`], the audit every background job (runs, monitors,
//! keyword tracking, experiments) makes for a key owner.

use serde_json::json;
use url::Url;

mod approve;
pub mod steps;
mod view;
pub use approve::{check_gate, Decided, Decision, GateRefusal};
pub use steps::Step;
pub use view::{ApprovalView, PendingApproval, RunError, RunList, RunSummary, RunView, Started, StepView};

/// The arguments of the `workflow_execute` agent tool.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ExecuteArgs {
    /// What the run does
    pub intent: store::Intent,
    /// Absolute http or https URL of the page
    #[schemars(length(min = 1, max = 2048))]
    pub url: String,
    /// Competitor page; required by the competitor intent
    #[schemars(length(min = 1, max = 2048))]
    pub competitor_url: Option<String>,
    /// How many issues the fix plan covers (1 to 20, default 5)
    #[serde(default)]
    pub top_n: crate::fixes::TopN,
}

/// The run the `workflow_execute` agent tool asks for on behalf of `user_id`: the page's URL
/// and, for the competitor intent, the competitor's, checked as audits check theirs.
///
/// # Errors
/// A URL's refusal naming its argument, or `missing_parameter` when the competitor intent
/// has no `competitorUrl`.
pub fn tool_run(user_id: UserId, args: ExecuteArgs) -> Result<store::NewRun, crate::AppError> {
    let argument = |raw: &str, name: &str| {
        crate::validate_url(raw).map_err(|e| crate::crawl::argument_refusal(crate::AppError::Fetch(e), name))
    };
    let url = argument(&args.url, "url")?;
    let competitor_url = match (args.intent, args.competitor_url) {
        (store::Intent::Competitor, None) => {
            let message = "The competitor intent needs competitorUrl.";
            return Err(crate::AppError::refused(crate::ErrorCode::MissingParameter, message));
        }
        (store::Intent::Competitor, Some(raw)) => Some(argument(&raw, "competitorUrl")?.to_string()),
        _ => None,
    };
    Ok(store::NewRun {
        user_id: Some(user_id),
        intent: args.intent,
        url: url.to_string(),
        competitor_url,
        top_n: u32::try_from(args.top_n.0).ok(),
    })
}

use vocab::{ApprovalId, UserId, WorkflowId};

use crate::monitors::Monitors;
use crate::{App, AppError, Comparison, StoredResult};

/// Steps of each intent, in order.
pub fn steps_of(intent: store::Intent) -> &'static [Step] {
    use store::Intent;
    match intent {
        Intent::Audit => &[Step::Audit, Step::Summarize],
        Intent::Analyze => &[Step::Audit, Step::Opportunities],
        Intent::Fix => &[Step::Audit, Step::FixPlan, Step::Approval, Step::Finalize],
        Intent::Monitor => &[Step::Audit, Step::RegisterMonitor],
        Intent::Competitor => &[Step::Audit, Step::AuditCompetitor, Step::Compare],
    }
}

/// How long a workflow step or monitor check waits for a place in the audit queue, holding
/// none, before it fails with `overloaded`.
pub const BACKGROUND_PATIENCE: std::time::Duration = std::time::Duration::from_secs(10 * 60);

impl App {
    /// Fetches, audits and stores `url` for `user_id` through the one audit path as
    /// background work (admitted only while the audit queue is less than half full,
    /// deferred holding no place for up to [`BACKGROUND_PATIENCE`], then `overloaded`), and
    /// fires `audit.completed`. Returns the stored row and the engine's audit (whose page
    /// facts fill fix templates).
    ///
    /// # Errors
    /// What the audit met (monitors and workflow steps decide on the variants), or an
    /// internal error when the audit could not be stored.
    pub async fn audit_and_store(
        &self,
        url: &Url,
        user_id: &UserId,
    ) -> Result<(store::StoredAudit, audit_core::Audit), AppError> {
        let done = self.audit_background(url, Some(user_id), BACKGROUND_PATIENCE).await?;
        let stored = done.stored.ok_or_else(|| AppError::internal("audit not stored"))?;
        Ok((stored, done.audit.into_inner()))
    }
}

/// Runs `GET /api/v1/workflows` lists at most.
pub const RUN_LIST_LIMIT: usize = 100;

/// The step a run is at: its running step, else (a run not yet ended) its first step not
/// finished, which is the approval gate of a run awaiting approval; `None` once the run
/// ended.
pub fn current_step(run: &store::WorkflowRun) -> Option<&str> {
    use store::StepStatus;
    if let Some(step) = run.steps.iter().find(|s| s.status == StepStatus::Running) {
        return Some(&step.name);
    }
    if run.state.is_terminal() {
        return None;
    }
    run.steps.iter().find(|s| s.status == StepStatus::Pending).map(|s| s.name.as_str())
}

/// A run as `GET /api/v1/workflows` lists it.
pub fn wire_summary(run: &store::WorkflowRun) -> api::WorkflowSummary {
    api::WorkflowSummary {
        id: run.id.clone(),
        intent: run.intent.as_str().to_string(),
        url: run.url.clone(),
        state: run.state.as_str().to_string(),
        current_step: current_step(run).map(str::to_string),
        created_at: run.created_at.into(),
        updated_at: run.updated_at.into(),
    }
}

fn step(idx: usize, name: Step, status: store::StepStatus) -> store::WorkflowStep {
    store::WorkflowStep {
        idx: u32::try_from(idx).unwrap_or(u32::MAX),
        name: name.to_string(),
        status,
        started_at: None,
        finished_at: None,
        result_json: None,
    }
}

/// The workflow engine: plans runs, drives them in background tasks, resumes them after
/// their gate or a restart. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Workflows {
    app: App,
    monitors: Monitors,
    /// This engine's name on the leases of the runs it drives, unique per process.
    worker: std::sync::Arc<str>,
}

enum StepOutcome {
    /// The step's result, as stored JSON.
    Done(String),
    /// Open an approval gate with this summary.
    Gate(String),
}

impl Workflows {
    /// The engine over `app`; `monitors` registers the monitor intent's monitors.
    pub fn new(app: App, monitors: Monitors) -> Workflows {
        let worker = format!("{}-{}", std::process::id(), uuid::Uuid::new_v4());
        Workflows { app, monitors, worker: worker.into() }
    }

    /// The end of a lease taken now.
    fn lease_until(&self) -> time::OffsetDateTime {
        time::OffsetDateTime::now_utc() + self.app.lease
    }

    /// Writes the `pending` steps of a new run.
    ///
    /// # Errors
    /// The store failed.
    pub async fn plan(&self, run: &store::WorkflowRun) -> Result<(), AppError> {
        let id = run.id.clone();
        let steps: Vec<store::WorkflowStep> =
            steps_of(run.intent).iter().enumerate().map(|(i, &n)| step(i, n, store::StepStatus::Pending)).collect();
        self.app
            .db(move |s| {
                for st in &steps {
                    s.put_step(&id, st)?;
                }
                Ok(())
            })
            .await
    }

    /// Creates a run, writes its planned steps and starts it in the background.
    ///
    /// # Errors
    /// The store failed (nothing runs then).
    pub async fn create(&self, new: store::NewRun) -> Result<store::WorkflowRun, AppError> {
        let (worker, until) = (self.worker.clone(), self.lease_until());
        let run = self.app.db(move |s| s.create_claimed_run(new, &worker, until)).await?;
        self.plan(&run).await?;
        self.start(run.id.clone());
        Ok(run)
    }

    /// Run `id` with its steps and approvals (`Err(store)` for an unknown id is the store's
    /// not-found, which the caller tells apart with `is_not_found`).
    ///
    /// # Errors
    /// The database could not be read at all.
    pub async fn run(&self, id: WorkflowId) -> Result<store::Result<store::WorkflowRun>, AppError> {
        self.app.db(move |s| Ok(s.get_run(&id))).await
    }

    /// Run `run_id` when it belongs to `user_id` (workflow_status); another owner's run is
    /// refused exactly as an unknown one (`not_found`).
    ///
    /// # Errors
    /// `not_found`, or the database could not be read.
    pub async fn owned_run(&self, user_id: &UserId, run_id: &WorkflowId) -> Result<store::WorkflowRun, AppError> {
        // The id is quoted as text (`Debug` of the `&str`, not of the id type): the sentence
        // is what clients read.
        let not_found = || {
            AppError::refused(
                crate::ErrorCode::NotFound,
                format!("No workflow run {:?} of this API key's owner.", run_id.as_str()),
            )
        };
        match self.run(run_id.clone()).await? {
            Ok(run) if run.user_id.as_ref() == Some(user_id) => Ok(run),
            Ok(_) => Err(not_found()),
            Err(e) if e.is_not_found() => Err(not_found()),
            Err(e) => Err(e.into()),
        }
    }

    /// The runs of `user_id`, newest first, at most `limit`.
    ///
    /// # Errors
    /// The store failed.
    pub async fn owned_runs(&self, user_id: UserId, limit: usize) -> Result<Vec<store::WorkflowRun>, AppError> {
        self.app.db(move |s| s.list_runs(&user_id, limit)).await
    }

    /// Decides gate `approval_id` of `user_id`'s run `run_id` (approve_fixes): every invalid
    /// move (unknown run or gate, a run not waiting, a gate already decided, a lost race) is
    /// refused with `not_found` or `conflict` and changes nothing.
    ///
    /// # Errors
    /// Those refusals, or the database could not be reached.
    pub async fn approve(
        &self,
        user_id: &UserId,
        run_id: WorkflowId,
        approval_id: ApprovalId,
        decision: Decision,
    ) -> Result<Decided, AppError> {
        let run = self.owned_run(user_id, &run_id).await?;
        let refused = |r: GateRefusal| AppError::refused(r.code(), r.to_string());
        check_gate(&run, &approval_id).map_err(refused)?;
        let decided = self.decide(run_id.clone(), approval_id.clone(), decision.as_str()).await?;
        // Lost a race with another decision: the transaction changed nothing.
        decided.map_err(|e| refused(GateRefusal::lost_race(&approval_id, e)))?;
        Ok(Decided { run_id, approval_id, decision, state: decision.state_after() })
    }

    /// Decides approval `approval_id` of run `run_id` (`approved` or `rejected`) in one
    /// transaction, and resumes the run when it was approved. The inner error is a lost race
    /// (another decision came first): nothing was changed then.
    ///
    /// # Errors
    /// The database could not be reached.
    pub async fn decide(
        &self,
        run_id: WorkflowId,
        approval_id: ApprovalId,
        decision: &'static str,
    ) -> Result<store::Result<()>, AppError> {
        let (rid, worker, until) = (run_id.clone(), self.worker.clone(), self.lease_until());
        let decided =
            self.app.db(move |s| Ok(s.decide_approval_claimed(&rid, &approval_id, decision, &worker, until))).await?;
        if decided.is_ok() && decision == "approved" {
            self.resume(run_id);
        }
        Ok(decided.map(drop))
    }

    /// Runs a queued run in the background.
    pub fn start(&self, run_id: WorkflowId) {
        let engine = self.clone();
        tokio::spawn(async move {
            let id = run_id.clone();
            if let Err(e) = engine.app.db(move |s| s.set_run_state(&id, store::RunState::Running)).await {
                tracing::error!(run = %run_id, error = %e, "run not started");
                return;
            }
            engine.drive_leased(&run_id).await;
        });
    }

    /// Finishes a run this engine holds the lease of: one whose gate it approved (its state
    /// is `running` again), or one it adopted.
    pub fn resume(&self, run_id: WorkflowId) {
        let engine = self.clone();
        tokio::spawn(async move { engine.drive_leased(&run_id).await });
    }

    /// At start-up: runs left `queued` or `running` by a process that is gone are resumed
    /// from the step that was cut short, or failed with reason `interrupted` once they have
    /// been resumed [`store::MAX_RESUMES`] times (the store decides both in one
    /// transaction). On SQLite this process is alone on its database, so every such run is
    /// taken at once; on PostgreSQL other replicas may be driving theirs, so only runs whose
    /// lease ran out are (the sweep takes the others when theirs do).
    pub async fn recover(&self) {
        let alone = !self.app.store.is_postgres();
        self.adopt(alone).await;
    }

    /// Starts the sweep of this replica: every half lease, `queued`/`running` runs whose
    /// lease ran out (their replica died or hung) are adopted like [`Workflows::recover`]
    /// adopts them. Stops when `stop` turns true.
    pub fn spawn_sweeper(&self, stop: tokio::sync::watch::Receiver<bool>) {
        let engine = self.clone();
        crate::lease::spawn_sweeper(self.app.lease / 2, stop, move || {
            let engine = engine.clone();
            async move { engine.adopt(false).await }
        });
    }

    /// Adopts the runs whose lease ran out (`all`: every run left in flight) and drives the
    /// resumed ones.
    async fn adopt(&self, all: bool) {
        let (worker, until) = (self.worker.clone(), self.lease_until());
        let expired_at = (!all).then(time::OffsetDateTime::now_utc);
        let recovered = match self.app.db(move |s| s.adopt_runs(&worker, expired_at, until)).await {
            Ok(r) => r,
            Err(e) => {
                tracing::error!(error = %e, "interrupted runs not recovered");
                return;
            }
        };
        for id in recovered.failed {
            tracing::warn!(run = %id, "workflow run interrupted too often: marked failed");
        }
        for id in recovered.resumed {
            tracing::info!(run = %id, "workflow run interrupted (a restart, or a replica gone): resumed");
            self.resume(id);
        }
    }

    /// [`Workflows::drive`] under this engine's lease on the run: renewed while the run is
    /// driven, given up when it ends or waits at its gate.
    async fn drive_leased(&self, run_id: &str) {
        let (app, id, worker, lease) = (self.app.clone(), run_id.to_string(), self.worker.clone(), self.app.lease);
        let heartbeat = crate::lease::Heartbeat::start(lease, move || {
            let (app, id, worker) = (app.clone(), id.clone(), worker.clone());
            async move {
                let until = time::OffsetDateTime::now_utc() + lease;
                app.db(move |s| s.renew_run_lease(&id, &worker, until)).await.ok()
            }
        });
        self.drive(run_id, &heartbeat).await;
        heartbeat.stop().await;
        let (id, worker) = (run_id.to_string(), self.worker.clone());
        if let Err(e) = self.app.db(move |s| s.release_run(&id, &worker)).await {
            tracing::warn!(run = %run_id, error = %e, "run lease not given up (it runs out)");
        }
    }

    /// Runs every `pending` step in order until the run ends or reaches its gate, or until
    /// the run's lease turns out to be another replica's (this one was too slow to renew
    /// it, and the other adopted the run).
    async fn drive(&self, run_id: &str, lease: &crate::lease::Heartbeat) {
        let app = &self.app;
        let id = run_id.to_string();
        let Ok(run) = app.db(move |s| s.get_run(&id)).await else { return };
        let owner = run.user_id.clone().unwrap_or_default();
        for st in run.steps.iter().filter(|s| s.status == store::StepStatus::Pending) {
            if lease.lost() {
                tracing::warn!(run = %run_id, "workflow run adopted by another replica: stopped here");
                return;
            }
            let mut current = st.clone();
            current.status = store::StepStatus::Running;
            current.started_at = Some(vocab::Timestamp::now());
            if self.put(run_id, &current).await.is_err() {
                return;
            }
            // Results of earlier steps, as stored (a resumed run reads what the gate approved).
            let id = run_id.to_string();
            let Ok(fresh) = app.db(move |s| s.get_run(&id)).await else { return };
            let outcome = match current.name.parse::<Step>() {
                Ok(name) => self.run_step(&fresh, &owner, name).await,
                Err(_) => Err(format!("unknown step {}", current.name)),
            };
            if lease.lost() {
                tracing::warn!(run = %run_id, "workflow run adopted by another replica: stopped here");
                return;
            }
            app.observer().workflow_step();
            current.finished_at = Some(vocab::Timestamp::now());
            match outcome {
                Ok(StepOutcome::Done(result)) => {
                    current.status = store::StepStatus::Completed;
                    current.result_json = Some(result);
                    if self.put(run_id, &current).await.is_err() {
                        return;
                    }
                }
                Ok(StepOutcome::Gate(summary)) => {
                    // The gate, its step and the `workflow.awaiting_approval` event are
                    // written in one transaction: a receiver told about the gate finds the
                    // step written.
                    let mut gate_step = current.clone();
                    gate_step.status = store::StepStatus::Running;
                    gate_step.finished_at = None;
                    let (id, intent, url) = (run_id.to_string(), run.intent, run.url.clone());
                    let gate = move |approval: &store::Approval| {
                        let mut step = gate_step.clone();
                        let output = steps::GateOutput { approval_id: approval.id.clone(), summary: summary.clone() };
                        step.result_json = steps::to_json(&output).ok();
                        let data = json!({
                            "runId": &id, "approvalId": approval.id, "intent": intent, "url": &url,
                            "summary": &summary,
                        });
                        (step, data)
                    };
                    let id = run_id.to_string();
                    match app.db(move |s| s.open_approval_with_event(&id, gate)).await {
                        Ok((_, enqueued)) => app.events.enqueued(&enqueued),
                        Err(e) => return self.fail(run_id, &current, &e.message()).await,
                    }
                    return;
                }
                Err(reason) => return self.fail(run_id, &current, &reason).await,
            }
        }
        // The state and its `workflow.completed` event are written in one transaction.
        let id = run_id.to_string();
        let data = json!({ "runId": run_id, "intent": run.intent, "url": run.url, "state": "completed" });
        let completed = app
            .db(move |s| s.set_run_state_with_event(&id, store::RunState::Completed, "workflow.completed", data))
            .await;
        if let Ok(enqueued) = completed {
            app.events.enqueued(&enqueued);
        }
    }

    async fn put(&self, run_id: &str, st: &store::WorkflowStep) -> Result<(), AppError> {
        let (id, st) = (run_id.to_string(), st.clone());
        let r = self.app.db(move |s| s.put_step(&id, &st)).await;
        if let Err(e) = &r {
            tracing::error!(run = %run_id, error = %e, "workflow step not written");
        }
        r
    }

    async fn fail(&self, run_id: &str, st: &store::WorkflowStep, reason: &str) {
        let mut failed = st.clone();
        failed.status = store::StepStatus::Failed;
        failed.finished_at = Some(vocab::Timestamp::now());
        failed.result_json = steps::to_json(&steps::FailedOutput { error: reason.to_string() }).ok();
        let _ = self.put(run_id, &failed).await;
        let (id, name, reason) = (run_id.to_string(), st.name.clone(), reason.to_string());
        if let Err(e) = self.app.db(move |s| s.fail_run(&id, &name, &reason)).await {
            tracing::error!(run = %run_id, error = %e, "run failure not recorded");
        }
    }

    /// Audits `raw` for the run's owner and returns the stored audit with its parsed result.
    async fn audit_step(&self, raw: &str, owner: &UserId) -> Result<(store::StoredAudit, StoredResult), String> {
        let url = fetch::validate_url(raw).map_err(|e| AppError::from(e).reason())?;
        let (stored, _) = self.app.audit_and_store(&url, owner).await.map_err(|e| e.reason())?;
        let result = StoredResult::of(&stored);
        Ok((stored, result))
    }

    async fn run_step(&self, run: &store::WorkflowRun, owner: &UserId, name: Step) -> Result<StepOutcome, String> {
        use steps::{output_of, to_json};
        let app = &self.app;
        let top_n = run.top_n.unwrap_or(crate::fixes::DEFAULT_TOP_N as u32).clamp(1, 20) as usize;
        let done = |json: Result<String, String>| json.map(StepOutcome::Done);
        match name {
            Step::Audit => {
                let (stored, result) = self.audit_step(&run.url, owner).await?;
                done(to_json(&steps::AuditOutput::of(&stored, &result)))
            }
            Step::AuditCompetitor => {
                let competitor = run.competitor_url.clone().ok_or("the run has no competitor URL")?;
                let (stored, result) = self.audit_step(&competitor, owner).await?;
                done(to_json(&steps::AuditOutput::of(&stored, &result)))
            }
            Step::Summarize => {
                let audit_id = output_of::<steps::AuditOutput>(run, Step::Audit)?.audit_id;
                let stored = app.db(move |s| s.get_audit(&audit_id)).await.map_err(|e| e.reason())?;
                let result = StoredResult::of(&stored);
                // Failed checks, most severe first (the audit's own order).
                let pick = |r: &audit_core::Recommendation| steps::TopIssue {
                    id: r.id.clone(),
                    kind: r.kind,
                    title: r.title.clone(),
                    impact: r.impact,
                    effort: r.effort,
                };
                done(to_json(&steps::SummaryOutput {
                    score: stored.score,
                    summary: result.result.ai_insights.clone(),
                    issues: steps::Issues::of(&result),
                    top_issues: result.result.recommendations.iter().take(5).map(pick).collect(),
                }))
            }
            Step::Opportunities | Step::FixPlan => {
                // What get_opportunities and generate_fixes answer, from the same functions:
                // the page is audited again (and stored) because the fix templates read its
                // facts, which a stored result does not keep.
                let url = fetch::validate_url(&run.url).map_err(|e| AppError::from(e).reason())?;
                let (stored, audit) = app.audit_and_store(&url, owner).await.map_err(|e| e.reason())?;
                let audit_id = stored.id;
                done(if name == Step::Opportunities {
                    to_json(&steps::PlannedOutput {
                        plan: crate::opportunities::opportunities(url.as_str(), &audit),
                        audit_id,
                    })
                } else {
                    to_json(&steps::PlannedOutput {
                        plan: crate::fixes::fix_plan(url.as_str(), &audit, top_n),
                        audit_id,
                    })
                })
            }
            Step::Approval => {
                let n = output_of::<steps::StoredPlan>(run, Step::FixPlan)?.fixes.len();
                Ok(StepOutcome::Gate(format!(
                    "Approve the fix plan of {n} fix{} for {} (see results.fix_plan).",
                    if n == 1 { "" } else { "es" },
                    run.url
                )))
            }
            Step::Finalize => {
                let plan = output_of::<steps::StoredPlan>(run, Step::FixPlan)?;
                let decided = run.approvals.iter().rev().find_map(|a| a.decided_at);
                done(to_json(&steps::FinalizeOutput { approved: true, approved_at: decided, fixes: plan.fixes }))
            }
            Step::RegisterMonitor => {
                let (monitor, created) = self.monitors.ensure(owner, &run.url).await.map_err(|e| e.reason())?;
                done(to_json(&steps::MonitorOutput {
                    monitor_id: monitor.id,
                    interval_seconds: monitor.interval_s,
                    created,
                }))
            }
            Step::Compare => {
                let site = output_of::<steps::AuditOutput>(run, Step::Audit)?.audit_id;
                let competitor = output_of::<steps::AuditOutput>(run, Step::AuditCompetitor)?.audit_id;
                let (ra, rb) = app
                    .db(move |s| Ok((s.get_audit(&site)?, s.get_audit(&competitor)?)))
                    .await
                    .map_err(|e| e.reason())?;
                // The one comparison, as compare_competitors makes it.
                let diff = Comparison::of(&StoredResult::of(&ra).result, &StoredResult::of(&rb).result);
                done(to_json(&steps::CompareOutput {
                    site_score: i64::from(diff.scores.0),
                    competitor_score: i64::from(diff.scores.1),
                    // The comparison's delta is the competitor's score minus the site's.
                    score_delta: -diff.score_delta(),
                    site_wins: diff.failing_only_in_b,
                    competitor_wins: diff.failing_only_in_a,
                }))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_execute_tools_run_needs_a_competitor_for_the_competitor_intent() {
        let args = |v: serde_json::Value| serde_json::from_value::<ExecuteArgs>(v).unwrap();
        let refusal = |v| match tool_run("u1".into(), args(v)) {
            Err(crate::AppError::Refused(r)) => (r.code.as_str(), r.message),
            other => panic!("{other:?}"),
        };
        let (code, message) = refusal(json!({ "intent": "competitor", "url": "a.example" }));
        assert_eq!((code, message.as_str()), ("missing_parameter", "The competitor intent needs competitorUrl."));
        let (code, message) = refusal(json!({ "intent": "audit", "url": "ftp://a.example/" }));
        assert_eq!(code, "invalid_url");
        assert!(message.ends_with(" (argument url)."), "{message}");
        let run = tool_run(
            "u1".into(),
            args(json!({ "intent": "competitor", "url": "a.example", "competitorUrl": "b.example" })),
        );
        let run = run.unwrap();
        assert_eq!(
            (run.url.as_str(), run.competitor_url.as_deref()),
            ("https://a.example/", Some("https://b.example/"))
        );
        assert_eq!((run.user_id.as_deref(), run.top_n), (Some("u1"), Some(5)));
        let run = tool_run("u1".into(), args(json!({ "intent": "audit", "url": "a.example", "competitorUrl": "b" })));
        assert_eq!(run.unwrap().competitor_url, None, "only the competitor intent reads it");
    }

    #[test]
    fn every_intent_has_steps() {
        use strum::VariantArray as _;
        for &intent in store::Intent::VARIANTS {
            assert!(!steps_of(intent).is_empty(), "{intent}");
        }
        assert!(steps_of(store::Intent::Fix).contains(&Step::Approval));
    }
}
