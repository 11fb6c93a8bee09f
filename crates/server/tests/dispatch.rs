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

static PANICKY: &[Route] = &[
    Route { method: http::Method::GET, path: "/boom", handler: panics, consumes_quota: false },
    Route { method: http::Method::GET, path: "/boom/{n}", handler: panics_later, consumes_quota: false },
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
