-- PostgreSQL form of migrations/sqlite/0017_host_pacing.sql (conventions: 0001_init.sql).
--
-- host_slots: one row per request in flight to a host (slot 0 to 3), taken when free or
-- expired (expires_at, milliseconds since the Unix epoch), deleted when the request ends.
-- host_pacing: when the next request to a host may start (Crawl-delay, Retry-After).
CREATE TABLE host_slots (
    host       TEXT COLLATE "C" NOT NULL,
    slot       BIGINT NOT NULL,
    holder     TEXT COLLATE "C" NOT NULL,
    expires_at BIGINT NOT NULL,
    PRIMARY KEY (host, slot)
);
CREATE INDEX host_slots_expiry ON host_slots (expires_at);

CREATE TABLE host_pacing (
    host    TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    next_at BIGINT NOT NULL
);
CREATE INDEX host_pacing_next ON host_pacing (next_at);
