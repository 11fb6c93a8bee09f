//! Subscriptions and deliveries as the REST routes answer them (the wire types of `api`;
//! docs/API.md, "Webhooks").

/// A subscription as listed.
pub fn wire_webhook(hook: &store::Webhook) -> api::Webhook {
    api::Webhook {
        id: hook.id.clone(),
        url: hook.url.clone(),
        events: hook.events.clone(),
        enabled: hook.enabled,
        created_at: hook.created_at.into(),
    }
}

/// A subscription just created: as listed, with its signing secret (shown this once).
pub fn wire_new(hook: store::Webhook) -> api::NewWebhook {
    let api::Webhook { id, url, events, enabled, created_at } = wire_webhook(&hook);
    api::NewWebhook { id, url, events, enabled, created_at, secret: hook.secret }
}

/// A delivery as the delivery log lists it.
pub fn wire_delivery(d: &store::LoggedDelivery) -> api::WebhookDelivery {
    api::WebhookDelivery {
        id: d.id.clone(),
        event_id: d.event_id.clone(),
        event: d.event.clone(),
        state: d.state.as_str(),
        attempts: d.attempts,
        last_status_code: d.last_status_code,
        last_error: d.last_error.clone(),
        next_attempt_at: d.next_attempt_at.map(vocab::Timestamp::from),
        created_at: d.created_at.into(),
        updated_at: d.updated_at.into(),
    }
}
