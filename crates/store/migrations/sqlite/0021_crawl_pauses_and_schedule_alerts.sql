-- A crawl paused because its site's recent answers were mostly errors says so while it waits
-- (docs/API.md, "Site crawl", "Politeness"): pause_reason (the same words as the summary's
-- stopped_for_errors), paused_at and resumes_at are set by the runner when the pause starts
-- and cleared when the crawl goes on or ends; error_pauses counts the pauses taken so far,
-- every run of the crawl together. On the crawl's row, so every replica reads them.
ALTER TABLE crawls ADD COLUMN pause_reason TEXT;
ALTER TABLE crawls ADD COLUMN paused_at TEXT;
ALTER TABLE crawls ADD COLUMN resumes_at TEXT;
ALTER TABLE crawls ADD COLUMN error_pauses INTEGER NOT NULL DEFAULT 0 CHECK (error_pauses >= 0);

-- A scheduled crawl's alerts are rows of the alerts table beside the monitors' (docs/API.md,
-- "Alerts"): an alert is raised by a monitor or by a crawl schedule (exactly one of
-- monitor_id and schedule_id; crawl_id is the schedule's run that raised it), and goes with
-- its monitor or schedule. user_id, the owner, is what the owner's alert list reads.
-- SQLite cannot make a column nullable in place: the table is made again, its rows copied
-- with their owner (the columns in the order PostgreSQL's ALTER TABLE gives them).
CREATE TABLE alerts_new (
    id          TEXT PRIMARY KEY NOT NULL,
    monitor_id  TEXT REFERENCES monitors (id) ON DELETE CASCADE,
    rule        TEXT NOT NULL,
    severity    TEXT NOT NULL,
    message     TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    user_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    schedule_id TEXT REFERENCES crawl_schedules (id) ON DELETE CASCADE,
    crawl_id    TEXT,
    CHECK ((monitor_id IS NULL) <> (schedule_id IS NULL))
);
INSERT INTO alerts_new (id, user_id, monitor_id, rule, severity, message, created_at)
    SELECT a.id, m.user_id, a.monitor_id, a.rule, a.severity, a.message, a.created_at
    FROM alerts a JOIN monitors m ON m.id = a.monitor_id ORDER BY a.rowid;
DROP TABLE alerts;
ALTER TABLE alerts_new RENAME TO alerts;
CREATE INDEX alerts_monitor ON alerts (monitor_id, created_at);
CREATE INDEX alerts_schedule ON alerts (schedule_id, created_at);
CREATE INDEX alerts_user ON alerts (user_id, created_at, id);
