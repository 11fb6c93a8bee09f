//! The `invalid_url` rules: an http or https URL of at most [`MAX_URL_LEN`] bytes, without
//! credentials; a bare host gets `https://` (docs/API.md, "GET /api/v1/audit").

use url::Url;

use crate::{Error, MAX_URL_LEN};

/// Parses and checks a target URL as a user typed it.
///
/// Accepted: absolute `http` and `https` URLs with a host, no user name or password, at
/// most [`MAX_URL_LEN`] bytes (both as given and once normalised, since IDNA and percent
/// encoding can lengthen it). Surrounding whitespace is ignored.
///
/// A URL given without a scheme, such as `example.com/pricing` or `localhost:3000`, is
/// taken to mean `https://`: that is what people paste from an address bar, and https is
/// the scheme a site should be audited under. Text that names another scheme
/// (`ftp://`, `mailto:`, `javascript:`) is refused, never prefixed.
///
/// This is only about the URL's shape; whether the host may be connected to is the
/// [`crate::AddressGuard`]'s business and is checked at fetch time.
///
/// ```
/// let url = fetch::validate_url("example.com/pricing").unwrap();
/// assert_eq!(url.as_str(), "https://example.com/pricing");
/// assert!(fetch::validate_url("ftp://example.com/").unwrap_err().is_invalid_url());
/// ```
///
/// # Errors
/// [`Error::InvalidUrl`] naming the rule that was broken.
pub fn validate_url(input: &str) -> Result<Url, Error> {
    let input = input.trim();
    if input.is_empty() {
        return Err(invalid("it is empty"));
    }
    if input.len() > MAX_URL_LEN {
        return Err(too_long());
    }
    let url = match Url::parse(input) {
        Ok(url) if !looks_like_host_and_port(&url, input) => url,
        Ok(_) | Err(url::ParseError::RelativeUrlWithoutBase) => {
            Url::parse(&format!("https://{input}")).map_err(|e| invalid(&e.to_string()))?
        }
        Err(e) => return Err(invalid(&e.to_string())),
    };
    check_shape(&url)?;
    Ok(url)
}

/// The rules that every URL the fetcher visits must meet, whether typed by a user or
/// found in a `Location` header.
pub(crate) fn check_shape(url: &Url) -> Result<(), Error> {
    match url.scheme() {
        "http" | "https" => {}
        other => return Err(invalid(&format!("the scheme {other:?} is not http or https"))),
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(invalid("it contains a user name or password"));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(invalid("it has no host"));
    }
    if url.as_str().len() > MAX_URL_LEN {
        return Err(too_long());
    }
    Ok(())
}

/// `example.com:8080` parses as scheme `example.com` with path `8080`, and
/// `localhost:3000` as scheme `localhost`; both are a host and port without a scheme.
fn looks_like_host_and_port(url: &Url, input: &str) -> bool {
    let scheme = url.scheme();
    if scheme == "http" || scheme == "https" || input.contains("://") {
        return false;
    }
    let rest = &input[scheme.len().saturating_add(1).min(input.len())..];
    (scheme.contains('.') || scheme == "localhost") && rest.chars().next().is_some_and(|c| c.is_ascii_digit())
}

fn invalid(reason: &str) -> Error {
    Error::InvalidUrl(reason.to_string())
}

fn too_long() -> Error {
    Error::InvalidUrl(format!("it is longer than {MAX_URL_LEN} bytes"))
}
