//! Routing over a static table, whatever its rows carry: path patterns with `{name}`
//! segments (OpenAPI syntax), 404 and 405 with the methods allowed, and `HEAD` answered by the
//! `GET` row of a path (RFC 9110 §9.1: a general-purpose server supports GET and HEAD;
//! [`without_body`] makes the answer).

use bytes::Bytes;
use http::{HeaderValue, Method};
use http_body_util::Full;

/// A row of a routing table: its method and path pattern.
pub trait Row: Sync + 'static {
    /// The method the row answers.
    fn method(&self) -> &Method;
    /// The path pattern; `{name}` matches one non-empty segment.
    fn path(&self) -> &'static str;
}

/// A matched row and the values of its `{name}` path segments.
pub type Match<R> = (&'static R, Vec<(&'static str, String)>);

/// Why no row answers a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Miss {
    /// No row has the path (404).
    NotFound,
    /// Rows have the path, with other methods (405): these, in table order, each once;
    /// `HEAD` follows `GET`.
    MethodNotAllowed(Vec<&'static str>),
}

/// Finds the row of `method` and `path` in `table`.
///
/// `HEAD` without a row of its own takes the `GET` row of the path. A path listed in
/// `other_methods_as` answers a method without a row of its own through its row of the
/// method named there, instead of a 405.
pub fn find<R: Row>(
    table: &'static [R],
    method: &Method,
    path: &str,
    other_methods_as: &[(&str, Method)],
) -> Result<Match<R>, Miss> {
    let mut allowed: Vec<&'static str> = Vec::new();
    let mut get_row = None;
    for r in table {
        if let Some(params) = match_path(r.path(), path) {
            if r.method() == method {
                return Ok((r, params));
            }
            if r.method() == Method::GET {
                allowed.extend(["GET", "HEAD"]);
                if get_row.is_none() {
                    get_row = Some((r, params));
                }
            } else {
                allowed.push(r.method().as_str());
            }
        }
    }
    if *method == Method::HEAD {
        if let Some(found) = get_row {
            return Ok(found);
        }
    }
    if allowed.is_empty() {
        return Err(Miss::NotFound);
    }
    let answered_as = other_methods_as.iter().find(|(p, _)| *p == path).map(|(_, m)| m);
    if let Some(other) = answered_as.filter(|m| *m != method) {
        if let Some(r) = table.iter().find(|r| r.method() == other && r.path() == path) {
            return Ok((r, Vec::new()));
        }
    }
    let mut unique: Vec<&'static str> = Vec::with_capacity(allowed.len());
    for m in allowed {
        if !unique.contains(&m) {
            unique.push(m);
        }
    }
    Err(Miss::MethodNotAllowed(unique))
}

/// Matches a path against a pattern; `{name}` segments capture.
pub fn match_path(pattern: &'static str, path: &str) -> Option<Vec<(&'static str, String)>> {
    let mut params = Vec::new();
    let mut pat = pattern.split('/');
    let mut got = path.split('/');
    loop {
        match (pat.next(), got.next()) {
            (None, None) => return Some(params),
            (Some(p), Some(g)) if p.starts_with('{') && p.ends_with('}') && !g.is_empty() => {
                params.push((&p[1..p.len() - 1], g.to_string()));
            }
            (Some(p), Some(g)) if p == g => {}
            _ => return None,
        }
    }
}

/// Turns the answer to a `GET` into the answer to a `HEAD`: the same status and headers,
/// `Content-Length` the length of the body the `GET` would have carried, and no body.
pub fn without_body(resp: &mut http::Response<Full<Bytes>>) {
    if let Some(len) = hyper::body::Body::size_hint(resp.body()).exact() {
        resp.headers_mut().insert(http::header::CONTENT_LENGTH, HeaderValue::from(len));
    }
    *resp.body_mut() = Full::new(Bytes::new());
}

#[cfg(test)]
mod tests {
    use super::*;

    struct R(Method, &'static str);

    impl Row for R {
        fn method(&self) -> &Method {
            &self.0
        }
        fn path(&self) -> &'static str {
            self.1
        }
    }

    static TABLE: &[R] = &[
        R(Method::GET, "/a"),
        R(Method::POST, "/a"),
        R(Method::POST, "/b/{id}"),
        R(Method::GET, "/rpc"),
        R(Method::POST, "/rpc"),
    ];

    fn check(method: Method, path: &str, expected: Result<(&Method, &str), Miss>) {
        let got = find(TABLE, &method, path, &[("/rpc", Method::GET)]).map(|(r, _)| (&r.0, r.1));
        assert_eq!(got, expected, "{method} {path}");
    }

    #[test]
    fn rows_are_found_or_refused() {
        check(Method::GET, "/a", Ok((&Method::GET, "/a")));
        check(Method::HEAD, "/a", Ok((&Method::GET, "/a")));
        check(Method::PUT, "/a", Err(Miss::MethodNotAllowed(vec!["GET", "HEAD", "POST"])));
        check(Method::HEAD, "/b/7", Err(Miss::MethodNotAllowed(vec!["POST"])));
        check(Method::GET, "/b/", Err(Miss::NotFound));
        check(Method::GET, "/c", Err(Miss::NotFound));
        check(Method::PUT, "/rpc", Ok((&Method::GET, "/rpc")));
        let (_, params) = find(TABLE, &Method::POST, "/b/7", &[]).unwrap();
        assert_eq!(params, vec![("id", "7".to_string())]);
    }

    #[test]
    fn path_patterns() {
        assert_eq!(match_path("/a/{id}", "/a/7"), Some(vec![("id", "7".to_string())]));
        assert_eq!(match_path("/a/{id}", "/a/"), None);
        assert_eq!(match_path("/a/{id}", "/a/7/b"), None);
        assert_eq!(match_path("/a", "/a"), Some(vec![]));
    }

    #[test]
    fn head_answers_carry_no_body() {
        let mut resp = http::Response::new(Full::new(Bytes::from_static(b"hello")));
        without_body(&mut resp);
        assert_eq!(resp.headers()[http::header::CONTENT_LENGTH], "5");
        assert_eq!(hyper::body::Body::size_hint(resp.body()).exact(), Some(0));
    }
}
