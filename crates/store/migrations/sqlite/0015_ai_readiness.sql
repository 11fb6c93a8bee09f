-- The AI-readiness answers (docs/API.md, "POST /api/ai-readiness"), kept in their bounded
-- stored form (docs/AI-VISIBILITY.md, "The report page") so that the report page can show
-- the newest public one of the audited page. A check made with a key is private to it, as
-- its audit is: `public` is fixed when the row is stored. Deleted with audits' ages
-- (retention).
CREATE TABLE ai_readiness (
    id          TEXT PRIMARY KEY NOT NULL,
    url         TEXT NOT NULL,
    final_url   TEXT NOT NULL,
    host        TEXT NOT NULL,
    path        TEXT NOT NULL,
    score       INTEGER NOT NULL,
    record_json TEXT NOT NULL,
    user_id     TEXT REFERENCES users (id) ON DELETE SET NULL,
    public      INTEGER NOT NULL CHECK (public IN (0, 1)),
    created_at  TEXT NOT NULL
);
-- The report page's lookup: the newest public answer of a page.
CREATE INDEX ai_readiness_public_page ON ai_readiness (host, path, created_at) WHERE public = 1;
-- Retention's sweep by age.
CREATE INDEX ai_readiness_created ON ai_readiness (created_at);
