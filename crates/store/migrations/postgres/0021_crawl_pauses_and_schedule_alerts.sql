-- PostgreSQL form of migrations/sqlite/0021_crawl_pauses_and_schedule_alerts.sql
-- (conventions: 0001_init.sql).
--
-- pause_reason, paused_at, resumes_at: the pause for errors under way (NULL otherwise);
-- error_pauses: the pauses taken so far.
ALTER TABLE crawls ADD COLUMN pause_reason TEXT COLLATE "C";
ALTER TABLE crawls ADD COLUMN paused_at TEXT COLLATE "C";
ALTER TABLE crawls ADD COLUMN resumes_at TEXT COLLATE "C";
ALTER TABLE crawls ADD COLUMN error_pauses BIGINT NOT NULL DEFAULT 0 CHECK (error_pauses >= 0);

-- An alert of a monitor or of a crawl schedule (exactly one), with its owner.
ALTER TABLE alerts ADD COLUMN user_id TEXT COLLATE "C" REFERENCES users (id) ON DELETE CASCADE;
UPDATE alerts SET user_id = m.user_id FROM monitors m WHERE m.id = alerts.monitor_id;
ALTER TABLE alerts ALTER COLUMN user_id SET NOT NULL;
ALTER TABLE alerts ALTER COLUMN monitor_id DROP NOT NULL;
ALTER TABLE alerts ADD COLUMN schedule_id TEXT COLLATE "C" REFERENCES crawl_schedules (id) ON DELETE CASCADE;
ALTER TABLE alerts ADD COLUMN crawl_id TEXT COLLATE "C";
ALTER TABLE alerts ADD CONSTRAINT alerts_one_source CHECK ((monitor_id IS NULL) <> (schedule_id IS NULL));
CREATE INDEX alerts_schedule ON alerts (schedule_id, created_at);
CREATE INDEX alerts_user ON alerts (user_id, created_at, id);
