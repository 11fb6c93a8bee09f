-- The visible text of audited pages (what keyword history counts in), kept once per distinct
-- text: a page audited again unchanged (monitors, badges, CI runs) adds a reference, not
-- another copy of up to 64 KB. Audits stored before this migration keep their text inside
-- result_json (`page_text`); readers fall back to it.
CREATE TABLE page_texts (
    hash TEXT PRIMARY KEY NOT NULL, -- hex hash of text: SHA-256 when this was written, BLAKE3 since 2026-11-29 (audits.rs, text_key)
    text TEXT NOT NULL
);
ALTER TABLE audits ADD COLUMN text_hash TEXT REFERENCES page_texts (hash);
