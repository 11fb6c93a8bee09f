//! A blocking server on threads, for tests that have no async runtime.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// A site served by [`thread_site`].
pub struct ThreadSite {
    pub port: u16,
    /// Answers of status 200 written out whole.
    pub served: Arc<AtomicUsize>,
}

/// Serves on 127.0.0.1, one thread per connection and one request per connection: reads the
/// request head (its first 4 KiB) and asks `answer` for a status and an HTML body, written with
/// `Content-Length` and `Connection: close`. `answer` may sleep (a slow page); `None` closes
/// the connection without an answer.
pub fn thread_site<F>(answer: F) -> ThreadSite
where
    F: Fn(&str) -> Option<(u16, String)> + Send + Sync + 'static,
{
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
    let port = listener.local_addr().expect("local addr").port();
    let served = Arc::new(AtomicUsize::new(0));
    let counter = served.clone();
    let answer = Arc::new(answer);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let (answer, counter) = (answer.clone(), counter.clone());
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                let n = stream.read(&mut buf).unwrap_or(0);
                let head = String::from_utf8_lossy(&buf[..n]).to_string();
                let Some((status, body)) = answer(&head) else { return };
                let reason = match status {
                    200 => "OK",
                    404 => "Not Found",
                    _ => "X",
                };
                let out = format!(
                    "HTTP/1.1 {status} {reason}\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\n\
                     Connection: close\r\n\r\n",
                    body.len()
                );
                if stream.write_all(out.as_bytes()).and_then(|()| stream.write_all(body.as_bytes())).is_ok()
                    && status == 200
                {
                    counter.fetch_add(1, Ordering::SeqCst);
                }
            });
        }
    });
    ThreadSite { port, served }
}
