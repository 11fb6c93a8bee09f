use crate::sql::{args, Db, Row};
use serde::Serialize;
use time::OffsetDateTime;
use vocab::{ApprovalId, Timestamp, UserId, WorkflowId};

use crate::clock::{self, format_rfc3339, ser};
use crate::db::{new_id, Store};
use crate::error::{Error, Result};

/// Intents of `workflow_execute` (docs/API.md, "Workflow runs").
/// What a workflow run does (docs/API.md, "Workflow runs"). Stored and shown by its
/// snake_case name.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::Display,
    strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Intent {
    /// Audit the page and summarise it.
    Audit,
    /// Audit, then rank the opportunities.
    Analyze,
    /// Audit, plan fixes, wait for approval, then finalise the plan.
    Fix,
    /// Audit and register a monitor.
    Monitor,
    /// Audit the page and a competitor and compare them.
    Competitor,
}

impl Intent {
    /// The stored and shown name.
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// Where one step of a run stands. Stored and shown by its snake_case name.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    schemars::JsonSchema,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::Display,
    strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum StepStatus {
    /// Not started.
    Pending,
    /// Started (a restart resumes a run from its running step).
    Running,
    /// Finished with a result.
    Completed,
    /// Failed; the run failed with it.
    Failed,
    /// Left out because the run ended before it (a rejected gate).
    Skipped,
}

impl StepStatus {
    /// The stored and shown name.
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}
/// Reason recorded for runs cut short by a restart and not resumed.
pub const INTERRUPTED: &str = "interrupted";
/// How many times a run cut short by a restart is resumed before it is failed with
/// [`INTERRUPTED`]: a step that kills the process must not restart it forever.
pub const MAX_RESUMES: u32 = 2;
/// Name of the approval-gate step.
pub const GATE_STEP: &str = "approval";

/// State of a workflow run (docs/API.md, "Workflow runs"):
/// `queued -> running -> awaiting_approval -> completed`, or `rejected`, or `failed`.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    schemars::JsonSchema,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::Display,
    strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum RunState {
    /// Created, not started.
    Queued,
    /// Steps are executing.
    Running,
    /// Paused at an approval gate.
    AwaitingApproval,
    /// Finished successfully.
    Completed,
    /// An approval gate was rejected.
    Rejected,
    /// A step failed (or the run was interrupted by a restart).
    Failed,
}

impl RunState {
    /// The stored and serialised name.
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// No further transition leaves this state.
    pub fn is_terminal(self) -> bool {
        matches!(self, RunState::Completed | RunState::Rejected | RunState::Failed)
    }
}

/// A run to create (state `queued`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewRun {
    /// Owner.
    pub user_id: Option<UserId>,
    /// What the run does.
    pub intent: Intent,
    /// Target URL.
    pub url: String,
    /// Competitor URL (intent `competitor`).
    pub competitor_url: Option<String>,
    /// Number of fixes asked for.
    pub top_n: Option<u32>,
}

/// One step of a run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WorkflowStep {
    /// Position in the run, from 0.
    pub idx: u32,
    /// Step name (`audit`, `rank`, `fix_plan`, ...).
    pub name: String,
    /// Where the step stands.
    pub status: StepStatus,
    /// When it started.
    pub started_at: Option<Timestamp>,
    /// When it finished.
    pub finished_at: Option<Timestamp>,
    /// Its result as JSON text.
    pub result_json: Option<String>,
}

/// An approval gate of a run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Approval {
    /// UUID (the `approvalId` of `approve_fixes`).
    pub id: ApprovalId,
    /// The run it gates.
    pub run_id: WorkflowId,
    /// `pending` or `decided`.
    pub state: String,
    /// `approved` or `rejected` once decided.
    pub decision: Option<String>,
    /// When it was decided.
    pub decided_at: Option<Timestamp>,
}

/// A stored run with its steps and approval gates.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WorkflowRun {
    /// UUID (the `runId`).
    pub id: WorkflowId,
    /// Owner.
    pub user_id: Option<UserId>,
    /// What the run does.
    pub intent: Intent,
    /// Target URL.
    pub url: String,
    /// Competitor URL.
    pub competitor_url: Option<String>,
    /// Number of fixes asked for.
    pub top_n: Option<u32>,
    /// Current state.
    pub state: RunState,
    /// Step that failed.
    pub error_step: Option<String>,
    /// Why it failed.
    pub error_reason: Option<String>,
    /// Creation time.
    #[serde(serialize_with = "ser::ts")]
    pub created_at: OffsetDateTime,
    /// Last change.
    #[serde(serialize_with = "ser::ts")]
    pub updated_at: OffsetDateTime,
    /// Steps in order.
    pub steps: Vec<WorkflowStep>,
    /// Approval gates, oldest first.
    pub approvals: Vec<Approval>,
    /// Times the run was resumed after a restart cut it short.
    pub resumes: u32,
}

/// What [`Store::recover_interrupted_runs`] did with the runs a previous process left
/// `queued` or `running`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Recovered {
    /// Put back to `running` with their interrupted step `pending` again: run them.
    pub resumed: Vec<WorkflowId>,
    /// Resumed [`MAX_RESUMES`] times already: now `failed` with reason [`INTERRUPTED`].
    pub failed: Vec<WorkflowId>,
}

const RUN_COLUMNS: &str = "id, user_id, intent, url, competitor_url, top_n, state, error_step, \
                           error_reason, created_at, updated_at, resumes";

type RawRun = (
    WorkflowId,
    Option<UserId>,
    String,
    String,
    Option<String>,
    Option<u32>,
    String,
    Option<String>,
    Option<String>,
    String,
    String,
    u32,
);

fn run_from_row(row: &Row<'_>) -> Result<RawRun> {
    Ok((
        row.get(0)?,
        row.get(1)?,
        row.get(2)?,
        row.get(3)?,
        row.get(4)?,
        row.get(5)?,
        row.get(6)?,
        row.get(7)?,
        row.get(8)?,
        row.get(9)?,
        row.get(10)?,
        row.get(11)?,
    ))
}

fn load_run(conn: &Db<'_>, id: &str) -> Result<WorkflowRun> {
    let raw = conn
        .query_opt(&format!("SELECT {RUN_COLUMNS} FROM workflow_runs WHERE id = ?1"), args![id], run_from_row)?
        .ok_or_else(|| Error::not_found("workflow run", id))?;
    let (id, user_id, intent, url, competitor_url, top_n, state, error_step, error_reason, c, u, resumes) = raw;
    const T: &str = "workflow_runs";
    let mut stmt = conn.prepare(
        "SELECT idx, name, status, started_at, finished_at, result_json FROM workflow_steps \
         WHERE run_id = ?1 ORDER BY idx",
    )?;
    let raw_steps = stmt
        .query_map(args![&id], |row| {
            Ok((
                row.get::<u32>(0)?,
                row.get::<String>(1)?,
                row.get::<String>(2)?,
                row.get(3)?,
                row.get(4)?,
                row.get(5)?,
            ))
        })?
        .collect::<Result<Vec<_>>>()?;
    let mut steps = Vec::with_capacity(raw_steps.len());
    for (idx, name, status, started_at, finished_at, result_json) in raw_steps {
        let status = status.parse().map_err(|_| Error::corrupt(T, format!("bad step status {status:?}")))?;
        steps.push(WorkflowStep { idx, name, status, started_at, finished_at, result_json });
    }
    let mut stmt = conn.prepare(
        "SELECT id, run_id, state, decision, decided_at FROM approvals WHERE run_id = ?1 \
         ORDER BY rowid",
    )?;
    let approvals = stmt.query_map(args![&id], approval_from_row)?.collect::<Result<Vec<_>>>()?;
    Ok(WorkflowRun {
        state: state.parse().map_err(|_| Error::corrupt(T, format!("bad state {state:?}")))?,
        intent: intent.parse().map_err(|_| Error::corrupt(T, format!("bad intent {intent:?}")))?,
        id,
        user_id,
        url,
        competitor_url,
        top_n,
        error_step,
        error_reason,
        created_at: clock::decode(T, &c),
        updated_at: clock::decode(T, &u),
        resumes,
        steps,
        approvals,
    })
}

fn approval_from_row(row: &Row<'_>) -> Result<Approval> {
    Ok(Approval {
        id: row.get(0)?,
        run_id: row.get(1)?,
        state: row.get(2)?,
        decision: row.get(3)?,
        decided_at: row.get(4)?,
    })
}

fn update_state(conn: &Db<'_>, id: &str, state: RunState) -> Result<()> {
    let n = conn.execute(
        "UPDATE workflow_runs SET state = ?2, updated_at = ?3 WHERE id = ?1",
        args![id, state.as_str(), clock::now_rfc3339()],
    )?;
    if n == 0 {
        return Err(Error::not_found("workflow run", id));
    }
    Ok(())
}

impl Store {
    /// Creates a run in state `queued`.
    pub fn create_run(&self, new: NewRun) -> Result<WorkflowRun> {
        self.create_run_inner(new, None)
    }

    /// [`Store::create_run`] with the run's lease taken by `worker` until `lease_until` in
    /// the same statement: no sweep of another replica adopts it while its steps are being
    /// planned and run (docs/ARCHITECTURE.md, "Replicas").
    pub fn create_claimed_run(&self, new: NewRun, worker: &str, lease_until: OffsetDateTime) -> Result<WorkflowRun> {
        self.create_run_inner(new, Some((worker, lease_until)))
    }

    fn create_run_inner(&self, new: NewRun, claim: Option<(&str, OffsetDateTime)>) -> Result<WorkflowRun> {
        let id = new_id();
        let now = clock::now_rfc3339();
        let (worker, until) = (claim.map(|c| c.0), claim.map(|c| format_rfc3339(c.1)));
        self.write(|tx| {
            tx.execute(
                "INSERT INTO workflow_runs (id, user_id, intent, url, competitor_url, top_n, \
                 state, created_at, updated_at, claimed_by, claimed_until) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'queued', ?7, ?7, ?8, ?9)",
                args![id, new.user_id, new.intent.as_str(), new.url, new.competitor_url, new.top_n, now, worker, until],
            )?;
            load_run(tx, &id)
        })
    }

    /// Extends `worker`'s lease on run `id` to `lease_until` (the driver's heartbeat);
    /// `false` when the worker no longer holds it (another replica adopted the run after the
    /// lease ran out, or the run left `queued`/`running`): the worker must stop driving it.
    pub fn renew_run_lease(&self, id: &str, worker: &str, lease_until: OffsetDateTime) -> Result<bool> {
        self.write_each(|db| crate::lease::RUNS.renew(db, id, worker, lease_until))
    }

    /// Gives up `worker`'s lease on run `id` (the run ended or waits for approval).
    pub fn release_run(&self, id: &str, worker: &str) -> Result<()> {
        self.write_each(|db| crate::lease::RUNS.release(db, id, worker))
    }

    /// Who holds run `id`'s lease and until when (`None`: nobody).
    pub fn run_lease(&self, id: &str) -> Result<Option<(String, OffsetDateTime)>> {
        self.read(|db| crate::lease::RUNS.holder(db, id))
    }

    /// The run with its steps and approvals, or [`Error::NotFound`].
    pub fn get_run(&self, id: &str) -> Result<WorkflowRun> {
        self.read(|conn| load_run(conn, id))
    }

    /// Moves a run to `state` (the engine owns the transition rules).
    pub fn set_run_state(&self, id: &str, state: RunState) -> Result<()> {
        self.write_each(|conn| update_state(conn, id, state))
    }

    /// [`Store::set_run_state`] that writes the run owner's webhook `event` (one of
    /// [`crate::WEBHOOK_EVENTS`], such as `workflow.completed`) with `data` into the outbox
    /// in the same transaction. A run without an owner fires nothing.
    pub fn set_run_state_with_event(
        &self,
        id: &str,
        state: RunState,
        event: &str,
        data: serde_json::Value,
    ) -> Result<crate::Enqueued> {
        self.write(|tx| {
            update_state(tx, id, state)?;
            match crate::webhooks::owner_of(tx, "workflow_runs", id)? {
                Some(owner) => crate::webhooks::enqueue_event(tx, &owner, event, &data, OffsetDateTime::now_utc()),
                None => Ok(crate::Enqueued::default()),
            }
        })
    }

    /// Marks a run failed at `step` for `reason`.
    pub fn fail_run(&self, id: &str, step: &str, reason: &str) -> Result<()> {
        let n = self.write_each(|conn| {
            conn.execute(
                "UPDATE workflow_runs SET state = 'failed', error_step = ?2, error_reason = ?3, \
                 updated_at = ?4 WHERE id = ?1",
                args![id, step, reason, clock::now_rfc3339()],
            )
        })?;
        if n == 0 {
            return Err(Error::not_found("workflow run", id));
        }
        Ok(())
    }

    /// Writes (or rewrites) step `step.idx` of a run.
    pub fn put_step(&self, run_id: &str, step: &WorkflowStep) -> Result<()> {
        self.write(|tx| put_step_row(tx, run_id, step))
    }

    /// Opens an approval gate and puts the run in `awaiting_approval`, in one transaction.
    pub fn open_approval(&self, run_id: &str) -> Result<Approval> {
        let id = new_id();
        self.write(|tx| {
            update_state(tx, run_id, RunState::AwaitingApproval)?;
            tx.execute("INSERT INTO approvals (id, run_id, state) VALUES (?1, ?2, 'pending')", args![id, run_id])?;
            Ok(Approval {
                id: ApprovalId::from(id.as_str()),
                run_id: run_id.into(),
                state: "pending".into(),
                decision: None,
                decided_at: None,
            })
        })
    }

    /// [`Store::open_approval`] that also, in the same transaction, writes the gate step and
    /// the owner's `workflow.awaiting_approval` webhook event, both built by `gate` from the
    /// new approval: a receiver told about the gate finds the step written, and a crash
    /// leaves either all of it or none.
    pub fn open_approval_with_event(
        &self,
        run_id: &str,
        gate: impl Fn(&Approval) -> (WorkflowStep, serde_json::Value),
    ) -> Result<(Approval, crate::Enqueued)> {
        let id = new_id();
        self.write(|tx| {
            update_state(tx, run_id, RunState::AwaitingApproval)?;
            tx.execute("INSERT INTO approvals (id, run_id, state) VALUES (?1, ?2, 'pending')", args![id, run_id])?;
            let approval = Approval {
                id: ApprovalId::from(id.as_str()),
                run_id: run_id.into(),
                state: "pending".into(),
                decision: None,
                decided_at: None,
            };
            let (step, data) = gate(&approval);
            put_step_row(tx, run_id, &step)?;
            let enqueued = match crate::webhooks::owner_of(tx, "workflow_runs", run_id)? {
                Some(owner) => crate::webhooks::enqueue_event(
                    tx,
                    &owner,
                    "workflow.awaiting_approval",
                    &data,
                    OffsetDateTime::now_utc(),
                )?,
                None => crate::Enqueued::default(),
            };
            Ok((approval, enqueued))
        })
    }

    /// Decides a pending gate (`approved` or `rejected`) and moves the run to `running` or
    /// `rejected`, in one transaction. A gate can be decided once.
    pub fn decide_approval(&self, run_id: &str, approval_id: &str, decision: &str) -> Result<Approval> {
        self.decide_approval_inner(run_id, approval_id, decision, None)
    }

    /// [`Store::decide_approval`] that, when the gate is approved, gives the run's lease to
    /// `worker` until `lease_until` in the same transaction: the approving replica drives
    /// the rest of the run, and no sweep adopts it meanwhile.
    pub fn decide_approval_claimed(
        &self,
        run_id: &str,
        approval_id: &str,
        decision: &str,
        worker: &str,
        lease_until: OffsetDateTime,
    ) -> Result<Approval> {
        self.decide_approval_inner(run_id, approval_id, decision, Some((worker, lease_until)))
    }

    fn decide_approval_inner(
        &self,
        run_id: &str,
        approval_id: &str,
        decision: &str,
        claim: Option<(&str, OffsetDateTime)>,
    ) -> Result<Approval> {
        let (worker, until) = (claim.map(|c| c.0), claim.map(|c| format_rfc3339(c.1)));
        let next = match decision {
            "approved" => RunState::Running,
            "rejected" => RunState::Rejected,
            other => return Err(Error::invalid("decision", format!("{other:?} is not approved or rejected"))),
        };
        self.write(|tx| {
            let approval = tx
                .query_opt(
                    "SELECT id, run_id, state, decision, decided_at FROM approvals \
                     WHERE id = ?1 AND run_id = ?2",
                    args![approval_id, run_id],
                    approval_from_row,
                )?
                .ok_or_else(|| Error::not_found("approval", approval_id))?;
            if approval.state != "pending" {
                return Err(Error::invalid("approval", "already decided"));
            }
            let at = Timestamp::now();
            tx.execute(
                "UPDATE approvals SET state = 'decided', decision = ?2, decided_at = ?3 WHERE id = ?1",
                args![approval_id, decision, at],
            )?;
            update_state(tx, run_id, next)?;
            if next == RunState::Running {
                tx.execute(
                    "UPDATE workflow_runs SET claimed_by = ?2, claimed_until = ?3 WHERE id = ?1",
                    args![run_id, worker, until],
                )?;
            }
            // The gate step ends with the decision; a rejected run skips what is left.
            tx.execute(
                "UPDATE workflow_steps SET status = 'completed', finished_at = ?3 \
                 WHERE run_id = ?1 AND name = ?2 AND status = 'running'",
                args![run_id, GATE_STEP, at],
            )?;
            if next == RunState::Rejected {
                tx.execute(
                    "UPDATE workflow_steps SET status = 'skipped' WHERE run_id = ?1 AND status = 'pending'",
                    args![run_id],
                )?;
            }
            Ok(Approval {
                state: "decided".into(),
                decision: Some(decision.to_owned()),
                decided_at: Some(at),
                ..approval
            })
        })
    }

    /// Runs of a user, newest first, at most `limit`.
    pub fn list_runs(&self, user_id: &str, limit: usize) -> Result<Vec<WorkflowRun>> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.read(|conn| {
            let mut stmt = conn.prepare(
                "SELECT id FROM workflow_runs WHERE user_id = ?1 \
                 ORDER BY created_at DESC, rowid DESC LIMIT ?2",
            )?;
            let ids = stmt.query_map(args![user_id, limit], |row| row.get::<String>(0))?.collect::<Result<Vec<_>>>()?;
            ids.iter().map(|id| load_run(conn, id)).collect()
        })
    }

    /// At start-up, in one transaction: every run a previous process left `queued` or
    /// `running` is resumed (state `running`, the step that was running `pending` again, its
    /// count of resumes raised) unless it was resumed [`MAX_RESUMES`] times already; then it
    /// is `failed` with reason [`INTERRUPTED`] at the step that was cut short. Runs awaiting
    /// approval keep waiting. For a process alone on its database: leases are not looked at
    /// (and the resumed runs hold none); replicas use [`Store::adopt_runs`].
    pub fn recover_interrupted_runs(&self) -> Result<Recovered> {
        self.write(|tx| adopt(tx, None, None))
    }

    /// [`Store::recover_interrupted_runs`] for one of several replicas: only the `queued` or
    /// `running` runs whose lease ran out before `expired_at` (or that nobody holds) are
    /// adopted, and each resumed run's lease goes to `worker` until `lease_until` in the same
    /// transaction. `expired_at: None` adopts every such run whatever its lease (a process
    /// alone on its database, at start-up). On PostgreSQL the runs are taken with
    /// `FOR UPDATE SKIP LOCKED`, so replicas sweeping at once adopt disjoint runs.
    pub fn adopt_runs(
        &self,
        worker: &str,
        expired_at: Option<OffsetDateTime>,
        lease_until: OffsetDateTime,
    ) -> Result<Recovered> {
        let until = format_rfc3339(lease_until);
        let expired = expired_at.map(format_rfc3339);
        // "9999" sorts after every RFC 3339 timestamp: every lease counts as run out.
        self.write(|tx| adopt(tx, Some((worker, &until)), Some(expired.as_deref().unwrap_or("9999"))))
    }
}

/// The recovery of [`Store::recover_interrupted_runs`] and [`Store::adopt_runs`]: runs
/// `queued` or `running` (whose lease ran out before `expired_at`, when given) are resumed
/// with `claim` as their lease, or failed with [`INTERRUPTED`].
fn adopt(tx: &Db<'_>, claim: Option<(&str, &str)>, expired_at: Option<&str>) -> Result<Recovered> {
    let mut sql = String::from("SELECT id, resumes FROM workflow_runs WHERE state IN ('queued', 'running')");
    if expired_at.is_some() {
        sql.push_str(" AND (claimed_until IS NULL OR claimed_until <= ?1)");
    }
    sql.push_str(" ORDER BY rowid");
    if tx.is_postgres() {
        sql.push_str(" FOR UPDATE SKIP LOCKED");
    }
    let read = |row: &Row<'_>| Ok((row.get::<WorkflowId>(0)?, row.get::<u32>(1)?));
    let runs = match expired_at {
        Some(at) => tx.query_map(&sql, args![at], read)?,
        None => tx.query_map(&sql, args![], read)?,
    };
    let (worker, until) = (claim.map(|c| c.0), claim.map(|c| c.1));
    let now = clock::now_rfc3339();
    let mut out = Recovered::default();
    for (id, resumes) in runs {
        if resumes < MAX_RESUMES {
            tx.execute(
                "UPDATE workflow_steps SET status = 'pending', started_at = NULL, finished_at = NULL, \
                 result_json = NULL WHERE run_id = ?1 AND status = 'running'",
                args![id],
            )?;
            tx.execute(
                "UPDATE workflow_runs SET state = 'running', resumes = resumes + 1, updated_at = ?2, \
                 claimed_by = ?3, claimed_until = ?4 WHERE id = ?1",
                args![id, now, worker, until],
            )?;
            out.resumed.push(id);
            continue;
        }
        let cut: Option<String> = tx.query_opt(
            "SELECT name FROM workflow_steps WHERE run_id = ?1 AND status IN ('running', 'pending') \
                 ORDER BY status = 'pending', idx LIMIT 1",
            args![id],
            |row| row.get(0),
        )?;
        if let Some(name) = &cut {
            tx.execute(
                "UPDATE workflow_steps SET status = 'failed', finished_at = ?3, result_json = ?4 \
                 WHERE run_id = ?1 AND name = ?2",
                args![id, name, now, serde_json::json!({ "error": INTERRUPTED }).to_string()],
            )?;
        }
        tx.execute(
            "UPDATE workflow_runs SET state = 'failed', error_step = ?2, error_reason = ?3, updated_at = ?4, \
             claimed_by = NULL, claimed_until = NULL WHERE id = ?1",
            args![id, cut.as_deref().unwrap_or("start"), INTERRUPTED, now],
        )?;
        out.failed.push(id);
    }
    Ok(out)
}

fn put_step_row(tx: &Db<'_>, run_id: &str, step: &WorkflowStep) -> Result<()> {
    tx.execute(
        "INSERT INTO workflow_steps (run_id, idx, name, status, started_at, finished_at, \
         result_json) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) \
         ON CONFLICT (run_id, idx) DO UPDATE SET name = excluded.name, \
         status = excluded.status, started_at = excluded.started_at, \
         finished_at = excluded.finished_at, result_json = excluded.result_json",
        args![run_id, step.idx, step.name, step.status.as_str(), step.started_at, step.finished_at, step.result_json],
    )
    .map_err(|e| if e.is_constraint_violation() { Error::not_found("workflow run", run_id) } else { e })?;
    update_state_time(tx, run_id)
}

fn update_state_time(conn: &Db<'_>, run_id: &str) -> Result<()> {
    conn.execute(
        "UPDATE workflow_runs SET updated_at = ?2 WHERE id = ?1",
        args![run_id, format_rfc3339(OffsetDateTime::now_utc())],
    )?;
    Ok(())
}
