-- Which process drives a workflow run, and until when (docs/ARCHITECTURE.md, "Replicas"):
-- the driver renews its lease while the run executes; any replica's sweep adopts a
-- `queued` or `running` run whose lease has run out (or that nobody holds: NULL). Runs
-- left in flight by an older build hold no lease, so they are adopted like today.
ALTER TABLE workflow_runs ADD COLUMN claimed_by TEXT;
ALTER TABLE workflow_runs ADD COLUMN claimed_until TEXT;
CREATE INDEX workflow_runs_lease ON workflow_runs (state, claimed_until);
