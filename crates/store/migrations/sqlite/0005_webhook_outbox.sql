-- The webhook outbox: one row per delivery of an event to a subscription, written in the
-- transaction of the change that fires the event, so that neither a crash nor a restart
-- loses a delivery (docs/API.md, "Webhooks"). The dispatcher claims due rows for a while
-- (claimed_by, claimed_until: a lease, so the claim of a process that died expires), makes
-- one attempt, and writes the outcome with the attempt's delivery-log row.
--
-- state: 'pending' (waiting, in flight or waiting for a retry), 'delivered' (a 2xx answer),
-- 'failed' (attempts exhausted or a target that will never be allowed), 'dropped' (refused
-- at enqueue time by the pending bounds; see the `dropped:` row of the delivery log).
-- payload is the exact JSON body every attempt sends; event_id is its "id" and the
-- x-webhook-id header, shared by the event's rows.
CREATE TABLE webhook_outbox (
    id              TEXT PRIMARY KEY NOT NULL,
    event_id        TEXT NOT NULL,
    webhook_id      TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    user_id         TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    event           TEXT NOT NULL,
    payload         TEXT NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_attempt_at TEXT NOT NULL,
    state           TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed', 'dropped')),
    claimed_by      TEXT,
    claimed_until   TEXT,
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL,
    UNIQUE (event_id, webhook_id)
);
-- What is due, in order; what one subscription holds (its bound); finished rows to prune.
CREATE INDEX webhook_outbox_due ON webhook_outbox (next_attempt_at) WHERE state = 'pending';
CREATE INDEX webhook_outbox_held ON webhook_outbox (webhook_id, next_attempt_at) WHERE state = 'pending';
CREATE INDEX webhook_outbox_finished ON webhook_outbox (updated_at) WHERE state <> 'pending';
