-- How many times a workflow run was resumed after a restart interrupted it: a run is
-- resumed a bounded number of times, so a step that kills the process cannot loop forever.
ALTER TABLE workflow_runs ADD COLUMN resumes INTEGER NOT NULL DEFAULT 0;
