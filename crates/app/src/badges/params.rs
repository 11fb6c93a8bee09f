//! The query of `GET /api/widget` (docs/API.md, "GET /api/widget"), checked and typed.

use pages::badge::{self, BadgeSize, Color};
use serde_json::json;

use crate::AppError;

/// What `GET /api/widget` answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BadgeFormat {
    /// `svg` (the default).
    Svg,
    /// `iframe`.
    Iframe,
}

/// The validated query of `GET /api/widget`.
#[derive(Debug)]
pub struct BadgeParams {
    /// The domain, as [`badge::validate_domain`] normalises it.
    pub domain: String,
    /// `color` (default [`badge::DEFAULT_COLOR`]).
    pub color: Color,
    /// `size`.
    pub size: BadgeSize,
    /// `format`.
    pub format: BadgeFormat,
}

impl BadgeParams {
    /// Reads the parameters through `get`; unknown parameters are ignored (cache busters).
    ///
    /// # Errors
    /// A parameter is missing or malformed.
    pub fn parse(get: impl Fn(&str) -> Option<String>) -> Result<BadgeParams, AppError> {
        let raw =
            get("domain").filter(|d| !d.trim().is_empty()).ok_or_else(|| AppError::missing_parameter("domain"))?;
        let domain = badge::validate_domain(&raw).ok_or_else(|| {
            invalid(
                "domain",
                "The parameter `domain` must be a host name such as example.com (no scheme, path or port).",
            )
        })?;
        let color = match get("color") {
            None => badge::DEFAULT_COLOR,
            Some(c) => badge::parse_color(&c).ok_or_else(|| {
                invalid("color", "The parameter `color` must be six hex digits without `#`, such as 10b981.")
            })?,
        };
        let size = match get("size") {
            None => BadgeSize::default(),
            Some(s) => BadgeSize::parse(&s).ok_or_else(|| {
                invalid("size", "The parameter `size` must be `small`, `medium` or `large`.")
                    .with_details(json!({ "parameter": "size", "allowed": ["small", "medium", "large"] }))
            })?,
        };
        let format = match get("format").as_deref() {
            None | Some("svg") => BadgeFormat::Svg,
            Some("iframe") => BadgeFormat::Iframe,
            Some(_) => {
                return Err(invalid("format", "The parameter `format` must be `svg` or `iframe`.")
                    .with_details(json!({ "parameter": "format", "allowed": ["svg", "iframe"] })))
            }
        };
        Ok(BadgeParams { domain, color, size, format })
    }
}

fn invalid(parameter: &str, message: &str) -> AppError {
    AppError::refused(crate::ErrorCode::InvalidRequest, message).with_details(json!({ "parameter": parameter }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(query: &[(&str, &str)], expected: Result<(&str, &str, &str, BadgeFormat), &str>) {
        let got = BadgeParams::parse(|name| query.iter().find(|(k, _)| *k == name).map(|(_, v)| v.to_string()))
            .map(|p| (p.domain, p.color.css(), p.size.name(), p.format))
            .map_err(|e| e.code());
        let expected = expected.map(|(d, c, s, f)| (d.to_string(), c.to_string(), s, f));
        assert_eq!(got, expected, "{query:?}");
    }

    #[test]
    fn badge_parameters() {
        use BadgeFormat::*;
        check(&[("domain", "Example.COM")], Ok(("example.com", "#10b981", "medium", Svg)));
        check(
            &[("domain", "example.com."), ("color", "FF0000"), ("size", "large"), ("format", "iframe")],
            Ok(("example.com", "#ff0000", "large", Iframe)),
        );
        check(&[("domain", "a.example"), ("format", "svg"), ("v", "2")], Ok(("a.example", "#10b981", "medium", Svg)));
        check(&[], Err("missing_parameter"));
        check(&[("domain", "  ")], Err("missing_parameter"));
        check(&[("domain", "https://example.com/")], Err("invalid_request"));
        check(&[("domain", "example.com:8080")], Err("invalid_request"));
        check(&[("domain", "1.2.3.4")], Err("invalid_request"));
        check(&[("domain", "ex ample.com")], Err("invalid_request"));
        check(&[("domain", "a.example"), ("color", "#10b981")], Err("invalid_request"));
        check(&[("domain", "a.example"), ("color", "fff")], Err("invalid_request"));
        check(&[("domain", "a.example"), ("color", "")], Err("invalid_request"));
        check(&[("domain", "a.example"), ("size", "huge")], Err("invalid_request"));
        check(&[("domain", "a.example"), ("size", "Small")], Err("invalid_request"));
        check(&[("domain", "a.example"), ("format", "png")], Err("invalid_request"));
    }
}
