//! The dispatcher without a socket: `handle` / `handle_with` called directly.

use bytes::Bytes;
use http_body_util::{BodyExt, Empty};
use server::{AppState, Ctx, HandlerFuture, Route};

fn state(dir: &tempfile::TempDir) -> AppState {
    AppState::new(server::Config { data: dir.path().to_path_buf(), ..server::Config::default() }).unwrap()
}

fn panics(_ctx: Ctx) -> HandlerFuture {
    Box::pin(async { panic!("secret detail of a bug") })
}

fn panics_later(_ctx: Ctx) -> HandlerFuture {
    Box::pin(async {
        tokio::task::yield_now().await;
        let v: Vec<u8> = Vec::new();
        let i = v.len() + 3;
        Ok(server::ok_json(&v[i]))
    })
}

fn tagged_get(_ctx: Ctx) -> HandlerFuture {
    Box::pin(async { Ok(tagged("get", "a body of some length")) })
}

fn tagged_head(_ctx: Ctx) -> HandlerFuture {
    Box::pin(async { Ok(tagged("head", "")) })
}

fn tagged(which: &'static str, body: &'static str) -> server::Response {
    let mut resp = server::ok_json(&body);
    resp.headers_mut().insert("x-handler", http::HeaderValue::from_static(which));
    resp
}

static OWN_HEAD: &[Route] = &[
    Route {
        method: http::Method::GET,
        path: "/own",
        handler: tagged_get,
        consumes_quota: false,
        doc: &api::ops::UNDOCUMENTED,
    },
    Route {
        method: http::Method::HEAD,
        path: "/own",
        handler: tagged_head,
        consumes_quota: false,
        doc: &api::ops::UNDOCUMENTED,
    },
    Route {
        method: http::Method::GET,
        path: "/borrowed",
        handler: tagged_get,
        consumes_quota: false,
        doc: &api::ops::UNDOCUMENTED,
    },
];

static PANICKY: &[Route] = &[
    Route {
        method: http::Method::GET,
        path: "/boom",
        handler: panics,
        consumes_quota: false,
        doc: &api::ops::UNDOCUMENTED,
    },
    Route {
        method: http::Method::GET,
        path: "/boom/{n}",
        handler: panics_later,
        consumes_quota: false,
        doc: &api::ops::UNDOCUMENTED,
    },
];

async fn call(table: &'static [Route], state: AppState, path: &str) -> (u16, http::HeaderMap, serde_json::Value) {
    let req = http::Request::get(path).body(Empty::<Bytes>::new()).unwrap();
    let resp = server::handle_with(table, state, req).await;
    let status = resp.status().as_u16();
    let headers = resp.headers().clone();
    let body = resp.into_body().collect().await.unwrap().to_bytes();
    (status, headers, serde_json::from_slice(&body).unwrap())
}

#[tokio::test]
async fn a_panicking_handler_answers_500_internal() {
    let dir = tempfile::tempdir().unwrap();
    for path in ["/boom", "/boom/1"] {
        let (status, headers, body) = call(PANICKY, state(&dir), path).await;
        assert_eq!(status, 500, "{path}");
        assert_eq!(body["error"]["code"], "internal");
        assert!(!body.to_string().contains("secret"), "{body}");
        assert!(headers.contains_key("x-request-id"));
        assert_eq!(headers["content-type"], server::JSON_CONTENT_TYPE);
    }
}

#[tokio::test]
async fn handle_routes_without_a_socket() {
    let dir = tempfile::tempdir().unwrap();
    let st = state(&dir);
    let (status, headers, body) = call(server::ROUTES, st.clone(), "/api/status").await;
    assert_eq!((status, body["status"].as_str()), (200, Some("ok")));
    assert!(headers.contains_key("x-request-id"));
    let (status, _, body) = call(server::ROUTES, st.clone(), "/nope").await;
    assert_eq!((status, body["error"]["code"].as_str()), (404, Some("not_found")));
    // A sane client request id is kept, a strange one replaced.
    let req = http::Request::get("/api/status").header("x-request-id", "abc-123").body(Empty::<Bytes>::new()).unwrap();
    assert_eq!(server::handle(st.clone(), req).await.headers()["x-request-id"], "abc-123");
    let req = http::Request::get("/api/status").header("x-request-id", "a b\"c").body(Empty::<Bytes>::new()).unwrap();
    assert_ne!(server::handle(st, req).await.headers()["x-request-id"], "a b\"c");
}

async fn answer(
    table: &'static [Route],
    state: AppState,
    method: http::Method,
    path: &str,
) -> (http::Response<()>, Bytes) {
    let req = http::Request::builder().method(method).uri(path).body(Empty::<Bytes>::new()).unwrap();
    let (parts, body) = server::handle_with(table, state, req).await.into_parts();
    (http::Response::from_parts(parts, ()), body.collect().await.unwrap().to_bytes())
}

#[tokio::test]
async fn head_answers_as_get_without_the_body() {
    let dir = tempfile::tempdir().unwrap();
    let st = state(&dir);
    for path in ["/api/status", "/bot", "/openapi.json", "/nope"] {
        // `/api/status` carries `latency_ms` and `uptime_s`, whose digit count can change
        // between two calls on a busy machine (the other tests of this binary run meanwhile):
        // its lengths are compared on the first of a few pairs of calls that agree on them.
        let mut lengths = Vec::new();
        for _ in 0..5 {
            let (get, get_body) = answer(server::ROUTES, st.clone(), http::Method::GET, path).await;
            let (head, head_body) = answer(server::ROUTES, st.clone(), http::Method::HEAD, path).await;
            assert_eq!(head.status(), get.status(), "{path}");
            assert!(head_body.is_empty(), "{path}");
            assert!(!get_body.is_empty(), "{path}");
            assert_eq!(head.headers().get("content-type"), get.headers().get("content-type"), "{path}");
            let head_length = head.headers()["content-length"].to_str().unwrap().to_string();
            if head_length == get_body.len().to_string() {
                lengths.clear();
                break;
            }
            lengths.push((head_length, get_body.len()));
        }
        assert!(lengths.is_empty(), "HEAD's content-length against GET's body length, {path}: {lengths:?}");
    }
    // The GET answer itself is untouched (hyper sets its length).
    let (get, _) = answer(server::ROUTES, st.clone(), http::Method::GET, "/api/status").await;
    assert!(get.headers().get("content-length").is_none());

    // A HEAD row of its own wins over the GET row; a path without one borrows GET's.
    let (own, body) = answer(OWN_HEAD, st.clone(), http::Method::HEAD, "/own").await;
    assert_eq!((own.headers()["x-handler"].to_str().unwrap(), body.len()), ("head", 0));
    let (borrowed, body) = answer(OWN_HEAD, st.clone(), http::Method::HEAD, "/borrowed").await;
    assert_eq!((borrowed.headers()["x-handler"].to_str().unwrap(), body.len()), ("get", 0));
    assert_eq!(borrowed.headers()["content-length"], "23");
    let (not_allowed, _) = answer(OWN_HEAD, st.clone(), http::Method::POST, "/own").await;
    assert_eq!((not_allowed.status().as_u16(), not_allowed.headers()["allow"].to_str().unwrap()), (405, "GET, HEAD"));

    // A panicking GET handler is a 500 for HEAD too, still without a body.
    let (boom, body) = answer(PANICKY, st, http::Method::HEAD, "/boom").await;
    assert_eq!(boom.status(), 500);
    assert!(body.is_empty());
    assert!(boom.headers()["content-length"].to_str().unwrap().parse::<usize>().unwrap() > 0);
}

#[tokio::test]
async fn unlisted_methods_on_mcp_get_its_json_rpc_405() {
    let dir = tempfile::tempdir().unwrap();
    let st = state(&dir);
    let (get, get_body) = answer(server::ROUTES, st.clone(), http::Method::GET, "/api/mcp").await;
    for method in ["PUT", "PATCH", "OPTIONS", "CONNECT", "SEARCH"] {
        let m = http::Method::from_bytes(method.as_bytes()).unwrap();
        let (resp, body) = answer(server::ROUTES, st.clone(), m, "/api/mcp").await;
        assert_eq!((resp.status().as_u16(), resp.headers()["allow"].to_str().unwrap()), (405, "POST"), "{method}");
        assert_eq!(body, get_body, "{method}");
        assert_eq!(resp.headers()["content-type"], get.headers()["content-type"]);
    }
    // Elsewhere an unlisted method is the REST 405.
    let (resp, body) = answer(server::ROUTES, st, http::Method::PUT, "/api/status").await;
    let body: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!((resp.status().as_u16(), body["error"]["code"].as_str()), (405, Some("method_not_allowed")));
    assert_eq!(resp.headers()["allow"], "GET, HEAD");
}
