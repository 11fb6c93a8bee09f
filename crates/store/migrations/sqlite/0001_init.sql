-- Accounts, API keys, stored audits and per-minute usage counters.
-- Timestamps are RFC 3339 UTC text with milliseconds ("2025-01-02T03:04:05.678Z"):
-- fixed width, so text order is time order and range queries can compare strings.

CREATE TABLE users (
    id         TEXT PRIMARY KEY NOT NULL,
    tier       TEXT NOT NULL CHECK (tier IN ('free', 'pro')),
    created_at TEXT NOT NULL
);

-- Only the SHA-256 of a key is stored; the plaintext is shown once at creation.
CREATE TABLE api_keys (
    id           TEXT PRIMARY KEY NOT NULL,
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    key_prefix   TEXT NOT NULL,
    key_hash     TEXT NOT NULL UNIQUE,
    scopes       TEXT NOT NULL DEFAULT '[]',
    tier         TEXT NOT NULL CHECK (tier IN ('free', 'pro')),
    rate_limit   INTEGER CHECK (rate_limit IS NULL OR rate_limit >= 0),
    enabled      INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
    revoked_at   TEXT,
    last_used_at TEXT,
    expires_at   TEXT,
    created_at   TEXT NOT NULL
);
CREATE INDEX api_keys_user ON api_keys (user_id);
CREATE INDEX api_keys_prefix ON api_keys (key_prefix);

CREATE TABLE audits (
    id              TEXT PRIMARY KEY NOT NULL,
    url             TEXT NOT NULL,
    final_url       TEXT NOT NULL,
    host            TEXT NOT NULL,
    path            TEXT NOT NULL,
    score           INTEGER NOT NULL,
    ruleset_version TEXT NOT NULL,
    result_json     TEXT NOT NULL,
    user_id         TEXT REFERENCES users (id) ON DELETE SET NULL,
    created_at      TEXT NOT NULL
);
CREATE INDEX audits_host ON audits (host, created_at);
CREATE INDEX audits_url ON audits (url, created_at);
CREATE INDEX audits_final_url ON audits (final_url, created_at);

-- One row per identity ("key:<id>" or "ip:<addr>") and minute since the Unix epoch.
CREATE TABLE usage_buckets (
    identity TEXT NOT NULL,
    minute   INTEGER NOT NULL,
    count    INTEGER NOT NULL,
    PRIMARY KEY (identity, minute)
) WITHOUT ROWID;
CREATE INDEX usage_buckets_minute ON usage_buckets (minute);
