-- PostgreSQL form of migrations/sqlite/0003_workflow_resumes.sql (conventions: 0001_init.sql).
--
-- How many times a workflow run was resumed after a restart interrupted it: a run is
-- resumed a bounded number of times, so a step that kills the process cannot loop forever.
ALTER TABLE workflow_runs ADD COLUMN resumes BIGINT NOT NULL DEFAULT 0;
