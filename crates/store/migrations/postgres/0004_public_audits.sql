-- PostgreSQL form of migrations/sqlite/0004_public_audits.sql (conventions: 0001_init.sql).
--
-- Audits made with a key are private to that key: the public report page and the badge show
-- only audits made without one (anonymous requests, the badge's background queue). The flag
-- is fixed when the audit is stored, so that removing an owner (user_id set to NULL) never
-- makes its audits public. Audits stored before had no such rule: those without an owner
-- stay public, as they were.
ALTER TABLE audits ADD COLUMN public BIGINT NOT NULL DEFAULT 0 CHECK (public IN (0, 1));
UPDATE audits SET public = 1 WHERE user_id IS NULL;
-- The badge's and the report's lookup: the newest public audit of a host.
CREATE INDEX audits_public_host ON audits (host, created_at) WHERE public = 1;
