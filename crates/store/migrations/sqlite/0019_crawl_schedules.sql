-- Scheduled crawls (docs/API.md, "Scheduled crawls"): a key owner's crawl of a site, run
-- daily or weekly at a time of day (UTC). A due schedule is claimed for one run by one
-- replica (claimed_by, claimed_until: a lease, as workflow runs and crawls hold one,
-- docs/ARCHITECTURE.md, "Replicas"); the run's crawl is queued and the schedule moved to
-- its next time in one transaction, so a run starts once whatever the replicas.
--
-- Each run is compared with the schedule's previous completed run (baseline_crawl_id)
-- once it has ended; compared_crawl_id is the newest run so judged, so that a run's end is
-- judged (and alerted on) once. key_id is the key that made the schedule: each run is
-- charged to it, as a crawl started with it is.
CREATE TABLE crawl_schedules (
    id                TEXT PRIMARY KEY NOT NULL,
    user_id           TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    key_id            TEXT NOT NULL,
    url               TEXT NOT NULL,
    options_json      TEXT NOT NULL,
    frequency         TEXT NOT NULL CHECK (frequency IN ('daily', 'weekly')),
    weekday           INTEGER CHECK (weekday >= 0 AND weekday <= 6),
    minute_of_day     INTEGER NOT NULL CHECK (minute_of_day >= 0 AND minute_of_day <= 1439),
    score_drop        INTEGER NOT NULL CHECK (score_drop > 0),
    state             TEXT NOT NULL CHECK (state IN ('active', 'paused')),
    next_run_at       TEXT NOT NULL,
    runs              INTEGER NOT NULL DEFAULT 0,
    last_run_at       TEXT,
    last_crawl_id     TEXT,
    last_error        TEXT,
    compared_crawl_id TEXT,
    baseline_crawl_id TEXT,
    last_change_json  TEXT,
    last_alert_json   TEXT,
    created_at        TEXT NOT NULL,
    claimed_by        TEXT,
    claimed_until     TEXT
);
CREATE INDEX crawl_schedules_user ON crawl_schedules (user_id, created_at);
CREATE INDEX crawl_schedules_due ON crawl_schedules (state, next_run_at);
