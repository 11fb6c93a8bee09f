//! Deciding the approval gate of a fix run (approve_fixes, docs/API.md "Workflow runs"):
//! which moves are refused before the store is asked, and what a decision answers. The
//! decision itself is one store transaction ([`super::Workflows::decide`]) that checks the
//! gate is still pending.

use std::fmt::Display;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use vocab::{ApprovalId, WorkflowId};

use crate::{RunState, WorkflowRun};

/// The answer to an approval gate.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    JsonSchema,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::Display,
    strum::VariantArray,
)]
#[strum(serialize_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    /// The run finishes its fix plan.
    Approved,
    /// The run ends in the rejected state.
    Rejected,
}

impl Decision {
    /// The decision as the store records it.
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// Where the run stands once the decision is recorded: the store finishes the gate step
    /// (and skips what a rejection leaves) with the decision.
    pub fn state_after(self) -> RunState {
        match self {
            Decision::Approved => RunState::Running,
            Decision::Rejected => RunState::Rejected,
        }
    }
}

/// Result: the decision and where the run stands now.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Decided {
    /// The run.
    #[schemars(with = "String")]
    pub run_id: WorkflowId,
    /// The gate.
    #[schemars(with = "String")]
    pub approval_id: ApprovalId,
    /// The decision taken.
    pub decision: Decision,
    /// running after an approval, rejected after a rejection.
    pub state: RunState,
}

/// Why a decision is refused; nothing was changed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GateRefusal {
    /// The run has no such gate.
    #[error("{0}")]
    NotFound(String),
    /// The gate or the run is past deciding, or another decision came first.
    #[error("{0}")]
    Conflict(String),
}

impl GateRefusal {
    /// The machine-readable code: `not_found` or `conflict`.
    pub fn code(&self) -> crate::ErrorCode {
        match self {
            GateRefusal::NotFound(_) => crate::ErrorCode::NotFound,
            GateRefusal::Conflict(_) => crate::ErrorCode::Conflict,
        }
    }

    /// Another decision of `approval_id` came first (`e`, the store's refusal).
    pub fn lost_race(approval_id: &ApprovalId, e: impl Display) -> GateRefusal {
        GateRefusal::Conflict(format!("Approval {approval_id} could not be decided: {e}. Nothing was changed."))
    }
}

/// Whether gate `approval_id` of `run` can be decided now: it exists, is pending, and the
/// run waits for it.
///
/// # Errors
/// The refusal, with the sentence that explains it.
pub fn check_gate(run: &WorkflowRun, approval_id: &ApprovalId) -> Result<(), GateRefusal> {
    let run_id = &run.id;
    let Some(gate) = run.approvals.iter().find(|a| a.id == *approval_id) else {
        // Quoted as text (`Debug` of the `&str`, not of the id type): clients read it.
        let quoted = approval_id.as_str();
        return Err(GateRefusal::NotFound(format!("Run {run_id} has no approval gate {quoted:?}.")));
    };
    if gate.state != "pending" {
        return Err(GateRefusal::Conflict(format!(
            "Approval {approval_id} was already decided ({}); the run is {}. Nothing was changed.",
            gate.decision.as_deref().unwrap_or("decided"),
            run.state
        )));
    }
    if run.state != RunState::AwaitingApproval {
        return Err(GateRefusal::Conflict(format!(
            "Run {run_id} is {}, not awaiting approval. Nothing was changed.",
            run.state
        )));
    }
    Ok(())
}

#[cfg(test)]
mod name_tests {
    use super::Decision;
    use strum::VariantArray as _;

    #[test]
    fn decisions_round_trip_by_their_stored_names() {
        let names: Vec<&str> = Decision::VARIANTS.iter().map(|d| d.as_str()).collect();
        assert_eq!(names, ["approved", "rejected"]);
        for &d in Decision::VARIANTS {
            assert_eq!(d.as_str().parse::<Decision>().ok(), Some(d));
            assert_eq!(serde_json::to_value(d).ok(), Some(serde_json::Value::from(d.as_str())));
        }
    }
}
