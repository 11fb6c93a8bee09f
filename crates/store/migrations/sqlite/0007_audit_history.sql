-- An owner's audits read back newest first, paged by (created_at, id) (docs/API.md,
-- "GET /api/v1/audits"): the listing walks this index instead of sorting the owner's rows.
CREATE INDEX audits_user ON audits (user_id, created_at, id);
