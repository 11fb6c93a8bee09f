-- Politeness shared by every crawl of every replica (docs/API.md, "Site crawl",
-- "Politeness"). On SQLite one process runs the service, so its crawls pace hosts in
-- memory; the tables exist on both databases so that the schemas stay the same.
--
-- host_slots: one row per request in flight to a host, at most 4 per host (slot 0 to 3).
-- A replica takes a free slot, or one whose expires_at (milliseconds since the Unix epoch)
-- has passed, and deletes its row when the request has ended; a replica killed mid-request
-- leaves its rows, which any replica takes over once they expire.
CREATE TABLE host_slots (
    host       TEXT NOT NULL,
    slot       INTEGER NOT NULL,
    holder     TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    PRIMARY KEY (host, slot)
) WITHOUT ROWID;
CREATE INDEX host_slots_expiry ON host_slots (expires_at);

-- host_pacing: when the next request to a host may start (milliseconds since the Unix
-- epoch): moved on by a robots.txt Crawl-delay at each start, and held back by a 429 or
-- 503 answer (its Retry-After, or an exponential back-off). Rows long past are deleted.
CREATE TABLE host_pacing (
    host    TEXT PRIMARY KEY NOT NULL,
    next_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX host_pacing_next ON host_pacing (next_at);
