//! Agent discovery documents, validated: the AI catalog (`/.well-known/ai-catalog.json`),
//! an MCP server card, an A2A agent card, an API catalog (RFC 9727) and OAuth
//! protected-resource metadata (RFC 9728). Pure: callers fetch the documents and hand the
//! bodies in; every problem is a [`DocFinding`] with the JSON path it concerns.

use serde::Serialize;
use serde_json::Value;

/// Which discovery document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum DocKind {
    /// The AI catalog, `/.well-known/ai-catalog.json`.
    AiCatalog,
    /// An MCP server card, `/.well-known/mcp.json`.
    McpServerCard,
    /// An A2A agent card, `/.well-known/agent-card.json`.
    A2aAgentCard,
    /// An API catalog (RFC 9727), `/.well-known/api-catalog`.
    ApiCatalog,
    /// OAuth protected-resource metadata (RFC 9728), `/.well-known/oauth-protected-resource`.
    ProtectedResource,
}

impl DocKind {
    /// Every kind, in report order.
    pub const ALL: [DocKind; 5] = [
        DocKind::AiCatalog,
        DocKind::McpServerCard,
        DocKind::A2aAgentCard,
        DocKind::ApiCatalog,
        DocKind::ProtectedResource,
    ];

    /// The document's name for people.
    pub fn title(self) -> &'static str {
        match self {
            DocKind::AiCatalog => "AI catalog",
            DocKind::McpServerCard => "MCP server card",
            DocKind::A2aAgentCard => "A2A agent card",
            DocKind::ApiCatalog => "API catalog",
            DocKind::ProtectedResource => "OAuth protected-resource metadata",
        }
    }

    /// The well-known path agents look at.
    pub fn well_known_path(self) -> &'static str {
        match self {
            DocKind::AiCatalog => "/.well-known/ai-catalog.json",
            DocKind::McpServerCard => "/.well-known/mcp.json",
            DocKind::A2aAgentCard => "/.well-known/agent-card.json",
            DocKind::ApiCatalog => "/.well-known/api-catalog",
            DocKind::ProtectedResource => "/.well-known/oauth-protected-resource",
        }
    }

    /// Validates a body of this kind.
    pub fn validate(self, body: &str) -> Vec<DocFinding> {
        let value: Value = match serde_json::from_str(body) {
            Ok(v) => v,
            Err(e) => return vec![DocFinding::error("", format!("not JSON: {e}"))],
        };
        if !value.is_object() {
            return vec![DocFinding::error("", "the document is no JSON object")];
        }
        let mut f = Vec::new();
        match self {
            DocKind::AiCatalog => ai_catalog(&value, &mut f),
            DocKind::McpServerCard => mcp_server_card(&value, &mut f),
            DocKind::A2aAgentCard => a2a_agent_card(&value, &mut f),
            DocKind::ApiCatalog => api_catalog(&value, &mut f),
            DocKind::ProtectedResource => protected_resource(&value, &mut f),
        }
        f
    }
}

/// One problem of a discovery document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(deny_unknown_fields))]
pub struct DocFinding {
    /// `error` (agents cannot use the document as it is) or `warning`.
    pub severity: &'static str,
    /// Where: a JSON path such as `entries[2].identifier`; empty for the whole document.
    pub path: String,
    /// What is wrong, in a sentence.
    pub message: String,
}

impl DocFinding {
    fn error(path: impl Into<String>, message: impl Into<String>) -> DocFinding {
        DocFinding { severity: "error", path: path.into(), message: message.into() }
    }

    fn warning(path: impl Into<String>, message: impl Into<String>) -> DocFinding {
        DocFinding { severity: "warning", path: path.into(), message: message.into() }
    }
}

fn non_empty_str<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str).filter(|s| !s.trim().is_empty())
}

fn require_str(v: &Value, at: &str, key: &str, f: &mut Vec<DocFinding>) {
    if non_empty_str(v, key).is_none() {
        f.push(DocFinding::error(join(at, key), format!("`{key}` is required: a non-empty string")));
    }
}

fn join(at: &str, key: &str) -> String {
    if at.is_empty() {
        key.to_owned()
    } else {
        format!("{at}.{key}")
    }
}

fn string_array(v: &Value, at: &str, key: &str, required: bool, f: &mut Vec<DocFinding>) {
    match v.get(key) {
        None if !required => {}
        Some(Value::Array(items)) if items.iter().all(|i| i.as_str().is_some_and(|s| !s.trim().is_empty())) => {
            if required && items.is_empty() {
                f.push(DocFinding::error(join(at, key), format!("`{key}` lists nothing")));
            }
        }
        _ => f.push(DocFinding::error(join(at, key), format!("`{key}` is required: an array of non-empty strings"))),
    }
}

/// `urn:air:<publisher>:<namespace>:<name>`, each part non-empty and free of whitespace.
pub fn is_air_urn(id: &str) -> bool {
    let Some(rest) = id.strip_prefix("urn:air:") else { return false };
    let parts: Vec<&str> = rest.split(':').collect();
    parts.len() == 3 && parts.iter().all(|p| !p.is_empty() && !p.chars().any(char::is_whitespace))
}

fn ai_catalog(v: &Value, f: &mut Vec<DocFinding>) {
    require_str(v, "", "specVersion", f);
    let Some(entries) = v.get("entries").and_then(Value::as_array) else {
        f.push(DocFinding::error("entries", "`entries` is required: an array of catalog entries"));
        return;
    };
    if entries.is_empty() {
        f.push(DocFinding::warning("entries", "the catalog lists no entry"));
    }
    let mut seen = std::collections::HashSet::new();
    for (i, e) in entries.iter().enumerate() {
        let at = format!("entries[{i}]");
        if !e.is_object() {
            f.push(DocFinding::error(at, "an entry is a JSON object"));
            continue;
        }
        match e.get("identifier").and_then(Value::as_str) {
            Some(id) if is_air_urn(id) => {
                if !seen.insert(id.to_owned()) {
                    f.push(DocFinding::error(join(&at, "identifier"), format!("`{id}` is listed twice")));
                }
            }
            Some(id) => f.push(DocFinding::error(
                join(&at, "identifier"),
                format!("`{id}` is no `urn:air:<publisher>:<namespace>:<name>`"),
            )),
            None => f.push(DocFinding::error(join(&at, "identifier"), "`identifier` is required")),
        }
        require_str(e, &at, "displayName", f);
        require_str(e, &at, "type", f);
        match (e.get("url"), e.get("data")) {
            (Some(_), Some(_)) => {
                f.push(DocFinding::error(at.clone(), "an entry has exactly one of `url` and `data`, not both"))
            }
            (None, None) => f.push(DocFinding::error(at.clone(), "an entry has exactly one of `url` and `data`")),
            (Some(u), None) => {
                if !u
                    .as_str()
                    .is_some_and(|u| url::Url::parse(u).is_ok_and(|u| u.scheme() == "https" || u.scheme() == "http"))
                {
                    f.push(DocFinding::error(join(&at, "url"), "`url` is an absolute http(s) URL"));
                }
            }
            (None, Some(_)) => {}
        }
        string_array(e, &at, "representativeQueries", true, f);
        let identity = e.get("trustManifest").and_then(|t| t.get("identity"));
        if identity.is_none_or(Value::is_null) {
            f.push(DocFinding::error(join(&at, "trustManifest.identity"), "`trustManifest.identity` is required"));
        }
    }
}

/// The MCP server card: the registry's `server.json` shape (`name`, `version`, `remotes` of
/// `{type, url}`), or the older `serverInfo` + `transport` shape.
fn mcp_server_card(v: &Value, f: &mut Vec<DocFinding>) {
    let info = v.get("serverInfo").filter(|i| i.is_object()).unwrap_or(v);
    let at = if std::ptr::eq(info, v) { "" } else { "serverInfo" };
    require_str(info, at, "name", f);
    require_str(info, at, "version", f);
    let http = |t: &str| matches!(t, "streamable-http" | "sse");
    let absolute = |u: &str| url::Url::parse(u).is_ok_and(|u| u.scheme() == "https" || u.scheme() == "http");
    if let Some(remotes) = v.get("remotes") {
        let Some(remotes) = remotes.as_array().filter(|r| !r.is_empty()) else {
            f.push(DocFinding::error("remotes", "`remotes` is a non-empty array of `{type, url}`"));
            return;
        };
        for (i, r) in remotes.iter().enumerate() {
            let at = format!("remotes[{i}]");
            if !non_empty_str(r, "type").is_some_and(http) {
                f.push(DocFinding::error(join(&at, "type"), "`type` is `streamable-http` or `sse`"));
            }
            if !non_empty_str(r, "url").is_some_and(absolute) {
                f.push(DocFinding::error(join(&at, "url"), "`url` is an absolute http(s) URL"));
            }
        }
        return;
    }
    match v.get("transport") {
        Some(t) if t.is_object() => {
            match non_empty_str(t, "type") {
                Some(ty) if http(ty) || ty == "stdio" => {}
                Some(other) => f.push(DocFinding::error(
                    "transport.type",
                    format!("`{other}` is no MCP transport (streamable-http, sse or stdio)"),
                )),
                None => f.push(DocFinding::error("transport.type", "`type` is required")),
            }
            if non_empty_str(t, "type") != Some("stdio") {
                require_str(t, "transport", "endpoint", f);
            }
        }
        _ => f.push(DocFinding::error("remotes", "`remotes` (or `transport`) is required: where to reach the server")),
    }
}

/// The A2A agent card: 1.0 (`supportedInterfaces` of `{url, protocolBinding}`) or 0.x (`url`).
fn a2a_agent_card(v: &Value, f: &mut Vec<DocFinding>) {
    for key in ["name", "description", "version"] {
        require_str(v, "", key, f);
    }
    match v.get("supportedInterfaces") {
        Some(Value::Array(interfaces)) => {
            for (i, it) in interfaces.iter().enumerate() {
                require_str(it, &format!("supportedInterfaces[{i}]"), "url", f);
                require_str(it, &format!("supportedInterfaces[{i}]"), "protocolBinding", f);
            }
            if interfaces.is_empty() && v.get("url").is_none() {
                f.push(DocFinding::warning("supportedInterfaces", "no interface: A2A clients have nothing to call"));
            }
        }
        Some(_) => f.push(DocFinding::error("supportedInterfaces", "`supportedInterfaces` is an array")),
        None => require_str(v, "", "url", f),
    }
    if !v.get("capabilities").is_some_and(Value::is_object) {
        f.push(DocFinding::error("capabilities", "`capabilities` is required: an object"));
    }
    string_array(v, "", "defaultInputModes", true, f);
    string_array(v, "", "defaultOutputModes", true, f);
    match v.get("skills").and_then(Value::as_array) {
        Some(skills) => {
            for (i, s) in skills.iter().enumerate() {
                let at = format!("skills[{i}]");
                for key in ["id", "name", "description"] {
                    require_str(s, &at, key, f);
                }
                string_array(s, &at, "tags", true, f);
            }
        }
        None => f.push(DocFinding::error("skills", "`skills` is required: an array")),
    }
}

fn api_catalog(v: &Value, f: &mut Vec<DocFinding>) {
    let Some(sets) = v.get("linkset").and_then(Value::as_array) else {
        f.push(DocFinding::error("linkset", "`linkset` is required (RFC 9264 JSON linkset, RFC 9727)"));
        return;
    };
    if sets.is_empty() {
        f.push(DocFinding::error("linkset", "the API catalog lists no API"));
    }
    for (i, set) in sets.iter().enumerate() {
        let at = format!("linkset[{i}]");
        let Some(obj) = set.as_object() else {
            f.push(DocFinding::error(at, "a link context is a JSON object"));
            continue;
        };
        require_str(set, &at, "anchor", f);
        let mut relations = 0;
        for (rel, targets) in obj.iter().filter(|(k, _)| k.as_str() != "anchor") {
            relations += 1;
            let ok = targets
                .as_array()
                .is_some_and(|t| !t.is_empty() && t.iter().all(|t| non_empty_str(t, "href").is_some()));
            if !ok {
                f.push(DocFinding::error(join(&at, rel), format!("`{rel}` is an array of link targets with `href`")));
            }
        }
        if relations == 0 {
            f.push(DocFinding::error(at, "no link relation (`service-desc`, `service-doc`, `item` ...)"));
        }
    }
}

fn protected_resource(v: &Value, f: &mut Vec<DocFinding>) {
    match non_empty_str(v, "resource") {
        Some(r) if url::Url::parse(r).is_ok_and(|u| u.scheme() == "https" && u.fragment().is_none()) => {}
        Some(r) => {
            f.push(DocFinding::error("resource", format!("`{r}` is no https URL without a fragment (RFC 9728)")))
        }
        None => f.push(DocFinding::error("resource", "`resource` is required (RFC 9728)")),
    }
    for key in ["authorization_servers", "scopes_supported", "bearer_methods_supported"] {
        string_array(v, "", key, false, f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors(kind: DocKind, body: &str) -> Vec<String> {
        kind.validate(body).into_iter().filter(|f| f.severity == "error").map(|f| f.path).collect()
    }

    #[test]
    fn ai_catalog_checks() {
        let good = r#"{"specVersion": "1.0", "entries": [{"identifier": "urn:air:acme:tools:search",
            "displayName": "Acme search", "type": "mcp-server", "url": "https://acme.example/mcp",
            "representativeQueries": ["find a widget"], "trustManifest": {"identity": "did:web:acme.example"}}]}"#;
        assert_eq!(errors(DocKind::AiCatalog, good), Vec::<String>::new());
        let bad = r#"{"entries": [{"identifier": "urn:air:acme:search", "type": "", "url": "x", "data": {},
            "representativeQueries": "q"}, {"identifier": "urn:air:a:b:c", "displayName": "C", "type": "t",
            "url": "/relative", "representativeQueries": ["q"], "trustManifest": {}}]}"#;
        assert_eq!(
            errors(DocKind::AiCatalog, bad),
            [
                "specVersion",
                "entries[0].identifier",
                "entries[0].displayName",
                "entries[0].type",
                "entries[0]",
                "entries[0].representativeQueries",
                "entries[0].trustManifest.identity",
                "entries[1].url",
                "entries[1].trustManifest.identity"
            ]
        );
        assert_eq!(errors(DocKind::AiCatalog, "<html>"), [""]);
        assert!(is_air_urn("urn:air:acme:tools:search") && !is_air_urn("urn:air:acme::x"));
    }

    #[test]
    fn mcp_a2a_api_catalog_and_protected_resource() {
        let card = r#"{"serverInfo": {"name": "seo-audit", "version": "1"},
            "transport": {"type": "streamable-http", "endpoint": "https://a.example/mcp"}}"#;
        assert!(DocKind::McpServerCard.validate(card).is_empty());
        let registry = r#"{"name": "a", "version": "1", "remotes": [{"type": "streamable-http", "url": "https://a.example/mcp"}]}"#;
        assert!(DocKind::McpServerCard.validate(registry).is_empty());
        assert_eq!(
            errors(DocKind::McpServerCard, r#"{"transport": {"type": "carrier-pigeon"}}"#),
            ["name", "version", "transport.type", "transport.endpoint"]
        );
        assert_eq!(
            errors(
                DocKind::McpServerCard,
                r#"{"name": "a", "version": "1", "remotes": [{"type": "ws", "url": "/mcp"}]}"#
            ),
            ["remotes[0].type", "remotes[0].url"]
        );
        let agent = r#"{"name": "A", "description": "d", "url": "https://a.example/a2a", "version": "1",
            "capabilities": {}, "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"],
            "skills": [{"id": "s", "name": "S", "description": "d", "tags": ["seo"]}]}"#;
        assert!(DocKind::A2aAgentCard.validate(agent).is_empty());
        assert_eq!(errors(DocKind::A2aAgentCard, r#"{"name": "A", "skills": [{"id": "s"}]}"#).len(), 9);
        let v1 = r#"{"name": "A", "description": "d", "version": "1", "supportedInterfaces": [{"url": "https://a.example/a2a"}],
            "capabilities": {}, "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"], "skills": []}"#;
        assert_eq!(errors(DocKind::A2aAgentCard, v1), ["supportedInterfaces[0].protocolBinding"]);
        let apis = r#"{"linkset": [{"anchor": "https://a.example/api", "service-desc": [{"href": "https://a.example/openapi.json"}]}]}"#;
        assert!(DocKind::ApiCatalog.validate(apis).is_empty());
        assert_eq!(
            errors(DocKind::ApiCatalog, r#"{"linkset": [{"service-doc": [{}]}]}"#),
            ["linkset[0].anchor", "linkset[0].service-doc"]
        );
        assert!(DocKind::ProtectedResource
            .validate(r#"{"resource": "https://a.example/mcp", "authorization_servers": ["https://id.example"]}"#)
            .is_empty());
        assert_eq!(
            errors(DocKind::ProtectedResource, r#"{"resource": "http://a.example/#x", "scopes_supported": "a"}"#),
            ["resource", "scopes_supported"]
        );
    }
}
