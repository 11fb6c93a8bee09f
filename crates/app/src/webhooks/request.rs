//! The body of a webhook subscription request, checked and typed (docs/API.md,
//! "Webhooks"): what `POST /api/v1/webhooks` and `PATCH /api/v1/webhooks/{id}` accept.

use serde_json::json;

use crate::AppError;

/// The `enabled` switch of a subscription update (documented as [`api::WebhookUpdate`]);
/// other fields are ignored.
///
/// # Errors
/// `enabled` is absent or not a boolean.
pub fn update(body: api::WebhookUpdate) -> Result<bool, AppError> {
    Ok(body.enabled.required("enabled", "true or false")?)
}

/// The webhook URL rule of docs/API.md ("Webhooks"): an absolute `http://` or `https://`
/// URL, written with its scheme (nothing is guessed, unlike audit targets), whose host is a
/// dotted DNS name of valid labels (the rule of the badge's `domain`, which also admits
/// `localhost` so that the address guard can judge it) or an address literal, plus the
/// shape rules of every fetched URL (no credentials, at most 2048 bytes). Whether the host
/// may be reached is the address guard's business, not this function's.
pub fn webhook_url(raw: &str) -> Result<url::Url, AppError> {
    let invalid = |why: &str| {
        AppError::refused(
            crate::ErrorCode::InvalidUrl,
            format!(
                "The webhook URL {why}: it must be an absolute http:// or https:// URL whose host is a \
                 DNS name such as hooks.example.com or a public IP address."
            ),
        )
    };
    let text = raw.trim();
    let scheme_len = ["http://", "https://"]
        .iter()
        .find(|prefix| text.get(..prefix.len()).is_some_and(|head| head.eq_ignore_ascii_case(prefix)))
        .map(|prefix| prefix.len())
        .ok_or_else(|| invalid("does not start with http:// or https://"))?;
    if text.len() == scheme_len {
        return Err(invalid("has no host"));
    }
    let url = crate::validate_url(text).map_err(|e| match e {
        crate::FetchError::InvalidUrl(reason) => invalid(&format!("is not valid ({reason})")),
        other => AppError::from(other),
    })?;
    match url.host() {
        Some(url::Host::Domain(name)) if pages::badge::validate_domain(name).is_some() => Ok(url),
        Some(url::Host::Domain(_)) | None => Err(invalid("has no valid host name")),
        Some(url::Host::Ipv4(_) | url::Host::Ipv6(_)) => Ok(url),
    }
}

/// The URL (as sent) and the events of a subscription request (documented as
/// [`api::WebhookRequest`]): at least one event, each a known name.
///
/// # Errors
/// A field is missing or of the wrong type, or an event is unknown.
pub fn create(body: api::WebhookRequest) -> Result<(String, Vec<String>), AppError> {
    let url = body.url.required_text("url")?;
    let events = body.events.required("events", "an array of event names")?;
    let allowed = crate::WEBHOOK_EVENTS;
    if events.is_empty() {
        return Err(AppError::refused(
            crate::ErrorCode::InvalidRequest,
            "The field `events` must name at least one event.",
        )
        .with_details(json!({ "parameter": "events", "allowed": allowed })));
    }
    if let Some(unknown) = events.iter().find(|e| !allowed.contains(&e.as_str())) {
        return Err(AppError::refused(crate::ErrorCode::InvalidRequest, format!("Unknown event {unknown:?}."))
            .with_details(json!({ "parameter": "events", "allowed": allowed })));
    }
    Ok((url, events))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn parse_create(body: &Value) -> Result<(String, Vec<String>), AppError> {
        create(api::body::parse(body.to_string().as_bytes())?)
    }

    fn parse_update(body: &Value) -> Result<bool, AppError> {
        update(api::body::parse(body.to_string().as_bytes())?)
    }

    fn check(body: Value, expected: Result<usize, &str>) {
        let got = parse_create(&body).map(|(_, e)| e.len()).map_err(|e| e.code());
        assert_eq!(got, expected, "{body}");
    }

    #[test]
    fn create_bodies() {
        check(json!({"url": "https://h.example/", "events": ["audit.completed"]}), Ok(1));
        check(json!({"url": "https://h.example/", "events": ["monitor.alert", "workflow.completed"]}), Ok(2));
        check(json!({"url": "https://h.example/", "events": ["nope"]}), Err("invalid_request"));
        check(json!({"url": "https://h.example/", "events": []}), Err("invalid_request"));
        check(json!({"url": "https://h.example/", "events": "audit.completed"}), Err("invalid_request"));
        check(json!({"url": "https://h.example/", "events": [1]}), Err("invalid_request"));
        check(json!({"url": "https://h.example/"}), Err("missing_parameter"));
        check(json!({"events": ["audit.completed"]}), Err("missing_parameter"));
        check(json!({"url": " ", "events": ["audit.completed"]}), Err("missing_parameter"));
        check(json!({"url": 5, "events": ["audit.completed"]}), Err("invalid_request"));
        check(json!([]), Err("invalid_request"));
        let e = parse_create(&json!({"url": 5, "events": 1})).unwrap_err();
        assert_eq!(e.message(), "The field `url` must be a string.");
        let e = parse_create(&json!({"url": "https://h.example/", "events": [1]})).unwrap_err();
        assert_eq!(e.message(), "The field `events` must be an array of event names.");
        assert_eq!(e.details(), Some(json!({"parameter": "events"})));
        let e = parse_create(&json!(["https://h.example/"])).unwrap_err();
        assert_eq!(e.message(), "The request body must be a JSON object with `url` and `events`.");
    }

    #[test]
    fn update_bodies() {
        let check = |body: Value, expected: Result<bool, &str>| {
            assert_eq!(parse_update(&body).map_err(|e| e.code()), expected, "{body}");
        };
        check(json!({"enabled": false}), Ok(false));
        check(json!({"enabled": true, "other": 1}), Ok(true));
        check(json!({"enabled": "false"}), Err("invalid_request"));
        check(json!({"enabled": null}), Err("missing_parameter"));
        check(json!({}), Err("missing_parameter"));
        check(json!([true]), Err("invalid_request"));
        let e = parse_update(&json!({"enabled": 1})).unwrap_err();
        assert_eq!(e.message(), "The field `enabled` must be true or false.");
        let e = parse_update(&json!(true)).unwrap_err();
        assert_eq!(e.message(), "The request body must be a JSON object with `enabled`.");
    }

    #[test]
    fn webhook_urls_are_never_guessed() {
        for bad in [
            "..",
            "x",
            "{{7*7}}",
            "hooks.example.com/seo",
            "//hooks.example.com/",
            "http:hooks.example.com",
            "http:/hooks.example.com",
            "http://",
            "https://x/",
            "https://../",
            "https://{{7*7}}/",
            "https://a..b/",
            "https://-a.example/",
            "https://a.123/",
            "https://user:pw@hooks.example.com/",
            "ftp://hooks.example.com/",
            "javascript:alert(1)",
            "mailto:a@b.example",
        ] {
            let err = webhook_url(bad).expect_err(bad);
            assert_eq!(err.code(), "invalid_url", "{bad}: {err:?}");
            assert!(err.message().contains("http://"), "{}", err.message());
        }
        for (good, normalised) in [
            ("https://hooks.example.com/seo", "https://hooks.example.com/seo"),
            (" HTTPS://Hooks.Example.COM:8443/a?b=1 ", "https://hooks.example.com:8443/a?b=1"),
            ("http://hooks.example.com.", "http://hooks.example.com./"),
            ("http://203.0.113.9/hook", "http://203.0.113.9/hook"),
            ("http://[2001:db8::1]/hook", "http://[2001:db8::1]/hook"),
            ("http://localhost:9/", "http://localhost:9/"),
            ("https://xn--bcher-kva.example/", "https://xn--bcher-kva.example/"),
            ("https://bücher.example/", "https://xn--bcher-kva.example/"),
        ] {
            assert_eq!(
                webhook_url(good).map(|u| u.to_string()).map_err(|e| e.code()).as_deref(),
                Ok(normalised),
                "{good}"
            );
        }
    }
}
