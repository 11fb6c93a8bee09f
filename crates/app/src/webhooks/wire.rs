//! Subscriptions and deliveries as the REST routes answer them (the wire types of `api`;
//! docs/API.md, "Webhooks").

/// A subscription as listed.
pub fn wire_webhook(hook: &store::Webhook) -> api::Webhook {
    api::Webhook {
        id: hook.id.clone(),
        url: hook.url.clone(),
        events: hook.events.clone(),
        enabled: hook.enabled,
        created_at: store::format_rfc3339(hook.created_at),
    }
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
        next_attempt_at: d.next_attempt_at.map(store::format_rfc3339),
        created_at: store::format_rfc3339(d.created_at),
        updated_at: store::format_rfc3339(d.updated_at),
    }
}
