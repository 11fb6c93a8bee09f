//! The threaded recording server: a blocking HTTP/1.1 server on threads of its own, for
//! tests that have no async runtime (the command-line tests drive a child process), that
//! answer from code that blocks (a page held until the test opens a gate), that count the
//! requests of each path or the requests in flight at once, or that stop a peer and start it
//! again on the same port.

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::raw::{Recorded, Reply};

type Answer = dyn Fn(&Recorded) -> Option<Reply> + Send + Sync;

struct Shared {
    answer: Box<Answer>,
    requests: Mutex<Vec<Recorded>>,
    served: Arc<AtomicUsize>,
    in_flight: AtomicUsize,
    max_in_flight: AtomicUsize,
}

/// The server: see the module documentation. One thread per connection and one request per
/// connection (`Connection: close`); bytes that are not HTTP (a TLS handshake) count as a
/// request with an empty method and path. Each request is recorded (method, path, headers, body,
/// when) before `answer` is asked for its [`Reply`]; `answer` may block (a slow page), and
/// `None` closes the connection without an answer. [`Reply::Reset`] closes it too (no RST
/// on this server). Stopping it ([`stop`]) closes its port; [`restart`] opens the same port
/// again, with the same answer and the same record. Otherwise it serves until the test
/// process ends.
///
/// [`stop`]: ThreadServer::stop
/// [`restart`]: ThreadServer::restart
pub struct ThreadServer {
    port: u16,
    shared: Arc<Shared>,
    running: Option<Arc<AtomicBool>>,
}

impl ThreadServer {
    /// Starts on 127.0.0.1 at a free port.
    pub fn start<F>(answer: F) -> ThreadServer
    where
        F: Fn(&Recorded) -> Option<Reply> + Send + Sync + 'static,
    {
        ThreadServer::start_on("127.0.0.1", answer)
    }

    /// Starts on loopback address `ip` (any of 127.0.0.0/8: another host name for
    /// what keys by host, such as a crawl's politeness) at a free port.
    pub fn start_on<F>(ip: &str, answer: F) -> ThreadServer
    where
        F: Fn(&Recorded) -> Option<Reply> + Send + Sync + 'static,
    {
        let shared = Arc::new(Shared {
            answer: Box::new(answer),
            requests: Mutex::new(Vec::new()),
            served: Arc::default(),
            in_flight: AtomicUsize::new(0),
            max_in_flight: AtomicUsize::new(0),
        });
        let listener = TcpListener::bind((ip, 0)).expect("bind loopback");
        let port = listener.local_addr().expect("local addr").port();
        let mut server = ThreadServer { port, shared, running: None };
        server.listen(listener);
        server
    }

    /// Its port on 127.0.0.1.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// `http://127.0.0.1:PORT{path}`.
    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{}", self.port, path)
    }

    /// The requests received so far, in order of arrival.
    pub fn requests(&self) -> Vec<Recorded> {
        self.shared.requests.lock().expect("lock").clone()
    }

    /// Requests that reached `path` (query included, as sent) so far.
    pub fn hits(&self, path: &str) -> usize {
        self.shared.requests.lock().expect("lock").iter().filter(|r| r.path == path).count()
    }

    /// Answers of status 200 written out whole so far.
    pub fn served(&self) -> usize {
        self.shared.served.load(Ordering::SeqCst)
    }

    /// The most requests that were in flight at once so far: received and not yet answered
    /// (from the end of a request's head to the moment its answer is ready, before it is
    /// written, so that a client that has read its answer and sent the next request is never
    /// counted twice).
    pub fn max_in_flight(&self) -> usize {
        self.shared.max_in_flight.load(Ordering::SeqCst)
    }

    /// The counter behind [`served`](ThreadServer::served), to watch from elsewhere.
    pub fn served_counter(&self) -> Arc<AtomicUsize> {
        self.shared.served.clone()
    }

    /// Closes the port: connections are refused until [`restart`](ThreadServer::restart).
    /// Connections already accepted are answered.
    pub fn stop(&mut self) {
        if let Some(running) = self.running.take() {
            running.store(false, Ordering::SeqCst);
            // Wakes the accept loop, which then drops the listener.
            let _ = TcpStream::connect(("127.0.0.1", self.port));
            // The port is closed once a connection is refused.
            for _ in 0..500 {
                if TcpStream::connect(("127.0.0.1", self.port)).is_err() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            panic!("port {} still open after stop", self.port);
        }
    }

    /// Listens on the same port again after [`stop`](ThreadServer::stop).
    pub fn restart(&mut self) {
        if self.running.is_none() {
            let listener = TcpListener::bind(("127.0.0.1", self.port)).expect("bind the same port again");
            self.listen(listener);
        }
    }

    fn listen(&mut self, listener: TcpListener) {
        let running = Arc::new(AtomicBool::new(true));
        self.running = Some(running.clone());
        let shared = self.shared.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                if !running.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let shared = shared.clone();
                std::thread::spawn(move || serve(stream, &shared));
            }
        });
    }
}

/// Reads one request (head and `Content-Length` body), records it, writes the answer.
fn serve(mut stream: TcpStream, shared: &Shared) {
    let Some(request) = read_request(&mut stream) else { return };
    shared.requests.lock().expect("lock").push(request.clone());
    let now = shared.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
    shared.max_in_flight.fetch_max(now, Ordering::SeqCst);
    let reply = (shared.answer)(&request);
    shared.in_flight.fetch_sub(1, Ordering::SeqCst);
    let Some(reply) = reply else { return };
    match reply {
        Reply::Full { status, headers, body } => {
            let reason = match status {
                200 => "OK",
                404 => "Not Found",
                _ => "X",
            };
            let mut out = format!("HTTP/1.1 {status} {reason}\r\n").into_bytes();
            for (name, value) in &headers {
                out.extend_from_slice(format!("{name}: {value}\r\n").as_bytes());
            }
            out.extend_from_slice(format!("Content-Length: {}\r\nConnection: close\r\n\r\n", body.len()).as_bytes());
            out.extend_from_slice(&body);
            if stream.write_all(&out).is_ok() && status == 200 {
                shared.served.fetch_add(1, Ordering::SeqCst);
            }
            let _ = stream.shutdown(Shutdown::Write);
        }
        Reply::Stall => std::thread::sleep(Duration::from_secs(60)),
        Reply::Reset => {}
        Reply::Endless { headers } => {
            let mut out = b"HTTP/1.1 200 OK\r\n".to_vec();
            for (name, value) in &headers {
                out.extend_from_slice(format!("{name}: {value}\r\n").as_bytes());
            }
            out.extend_from_slice(b"Connection: close\r\n\r\n");
            let block = vec![b'a'; 16 * 1024];
            if stream.write_all(&out).is_ok() {
                while stream.write_all(&block).is_ok() {}
            }
        }
        Reply::Raw { bytes, hold } => {
            let _ = stream.write_all(&bytes);
            std::thread::sleep(hold);
            let _ = stream.shutdown(Shutdown::Write);
        }
    }
}

fn read_request(stream: &mut TcpStream) -> Option<Recorded> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        let n = stream.read(&mut chunk).ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(pos) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break pos + 4;
        }
        // Not HTTP (a TLS handshake): recorded with an empty method and path, and answered.
        if !buf[0].is_ascii_uppercase() {
            let at = Instant::now();
            return Some(Recorded { method: String::new(), path: String::new(), headers: Vec::new(), body: buf, at });
        }
    };
    let at = Instant::now();
    let (method, path, headers) = crate::raw::parse_head(&buf[..head_end]);
    let length: usize =
        headers.iter().find(|(n, _)| n == "content-length").and_then(|(_, v)| v.parse().ok()).unwrap_or(0);
    let mut body = buf[head_end..].to_vec();
    while body.len() < length {
        let n = stream.read(&mut chunk).ok()?;
        if n == 0 {
            break;
        }
        body.extend_from_slice(&chunk[..n]);
    }
    Some(Recorded { method, path, headers, body, at })
}

/// A gate a test opens once: a [`ThreadServer`] answer that [`wait`](Gate::wait)s on it holds
/// its page until then (so that no timing decides what the test sees). Clones share the gate.
#[derive(Debug, Clone, Default)]
pub struct Gate(Arc<AtomicBool>);

impl Gate {
    /// Waits this long at most: a test that fails before it opens the gate does not leave
    /// the server's threads waiting for ever.
    const MAX_WAIT: Duration = Duration::from_secs(60);

    /// A closed gate.
    pub fn new() -> Gate {
        Gate::default()
    }

    /// Opens it: every wait ends.
    pub fn open(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// Blocks until it is open (or [`Gate::MAX_WAIT`] has passed).
    pub fn wait(&self) {
        let started = Instant::now();
        while !self.0.load(Ordering::SeqCst) && started.elapsed() < Gate::MAX_WAIT {
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}
