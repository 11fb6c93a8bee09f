-- Webhooks, workflow runs, monitoring, keyword tracking, experiments and the
-- geo-check cache. Same timestamp convention as 0001.

CREATE TABLE webhooks (
    id         TEXT PRIMARY KEY NOT NULL,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    url        TEXT NOT NULL,
    events     TEXT NOT NULL DEFAULT '[]',
    secret     TEXT NOT NULL,
    enabled    INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
    created_at TEXT NOT NULL
);
CREATE INDEX webhooks_user ON webhooks (user_id);

CREATE TABLE webhook_deliveries (
    id          TEXT PRIMARY KEY NOT NULL,
    webhook_id  TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    event       TEXT NOT NULL,
    payload     TEXT NOT NULL,
    attempt     INTEGER NOT NULL CHECK (attempt >= 1),
    status_code INTEGER,
    error       TEXT,
    created_at  TEXT NOT NULL
);
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, created_at);

CREATE TABLE workflow_runs (
    id             TEXT PRIMARY KEY NOT NULL,
    user_id        TEXT REFERENCES users (id) ON DELETE CASCADE,
    intent         TEXT NOT NULL CHECK (intent IN ('audit', 'analyze', 'fix', 'monitor', 'competitor')),
    url            TEXT NOT NULL,
    competitor_url TEXT,
    top_n          INTEGER,
    state          TEXT NOT NULL CHECK (state IN ('queued', 'running', 'awaiting_approval', 'completed', 'rejected', 'failed')),
    error_step     TEXT,
    error_reason   TEXT,
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL
);
CREATE INDEX workflow_runs_state ON workflow_runs (state);
CREATE INDEX workflow_runs_user ON workflow_runs (user_id, created_at);

CREATE TABLE workflow_steps (
    run_id      TEXT NOT NULL REFERENCES workflow_runs (id) ON DELETE CASCADE,
    idx         INTEGER NOT NULL,
    name        TEXT NOT NULL,
    status      TEXT NOT NULL,
    started_at  TEXT,
    finished_at TEXT,
    result_json TEXT,
    PRIMARY KEY (run_id, idx)
);

CREATE TABLE approvals (
    id         TEXT PRIMARY KEY NOT NULL,
    run_id     TEXT NOT NULL REFERENCES workflow_runs (id) ON DELETE CASCADE,
    state      TEXT NOT NULL CHECK (state IN ('pending', 'decided')),
    decision   TEXT CHECK (decision IS NULL OR decision IN ('approved', 'rejected')),
    decided_at TEXT
);
CREATE INDEX approvals_run ON approvals (run_id);

CREATE TABLE monitors (
    id          TEXT PRIMARY KEY NOT NULL,
    user_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    url         TEXT NOT NULL,
    interval_s  INTEGER NOT NULL CHECK (interval_s > 0),
    next_run_at TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    UNIQUE (user_id, url)
);
CREATE INDEX monitors_next_run ON monitors (next_run_at);

CREATE TABLE alerts (
    id         TEXT PRIMARY KEY NOT NULL,
    monitor_id TEXT NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
    rule       TEXT NOT NULL,
    severity   TEXT NOT NULL,
    message    TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX alerts_monitor ON alerts (monitor_id, created_at);

CREATE TABLE keywords (
    id         TEXT PRIMARY KEY NOT NULL,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    keyword    TEXT NOT NULL,
    target_url TEXT NOT NULL,
    created_at TEXT NOT NULL,
    UNIQUE (user_id, keyword, target_url)
);

CREATE TABLE experiments (
    id                TEXT PRIMARY KEY NOT NULL,
    user_id           TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    title             TEXT NOT NULL,
    hypothesis        TEXT NOT NULL,
    url               TEXT NOT NULL,
    experiment_type   TEXT,
    metric_target     TEXT,
    baseline_audit_id TEXT REFERENCES audits (id) ON DELETE SET NULL,
    baseline_value    REAL,
    created_at        TEXT NOT NULL
);
CREATE INDEX experiments_user ON experiments (user_id, created_at);

CREATE TABLE geo_cache (
    domain      TEXT PRIMARY KEY NOT NULL,
    result_json TEXT NOT NULL,
    created_at  TEXT NOT NULL
);
