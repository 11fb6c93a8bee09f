//! The parts of the connection bounds (docs/SECURITY.md, "Connection bounds") that the
//! accept loop of [`crate::serve`] puts together: how many sockets the server holds, per
//! client and in all, and how long a socket may stay without a request.
//!
//! hyper bounds a request head only once its first byte has arrived, and HTTP/2 and idle
//! keep-alive connections not at all; a client could hold sockets (and file descriptors)
//! for ever by sending nothing. Each accepted socket therefore gets:
//! - a [`Permit`] of the [`Admission`] counts (global and per client IP), or is closed at
//!   once;
//! - an [`Activity`] record the service updates, which [`Activity::verdict`] turns into a
//!   deadline: a complete first request head within the head timeout of the accept, then
//!   no more than the idle timeout without a request in flight.
//!
//! The accept loop itself backs off when `accept` fails ([`AcceptBackoff`]) and logs one
//! line per interval, not one per failure.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Interval of the HTTP/2 PING frames the server sends to learn whether the peer is still
/// there (a peer gone without a FIN would otherwise hold a stream until its handler ends).
pub const H2_KEEPALIVE_INTERVAL: Duration = Duration::from_secs(20);
/// Time a peer gets to answer such a PING before its connection is closed.
pub const H2_KEEPALIVE_TIMEOUT: Duration = Duration::from_secs(20);
/// Requests one HTTP/2 connection may have open at once (hyper's default is 200): each may
/// be receiving a body, so a connection's share of the body budget grows with it; browsers
/// open far fewer for one page (docs/SECURITY.md, "Request bodies").
pub const H2_MAX_STREAMS: u32 = 32;
/// Bytes of one request's body a client may send before the server reads them (the HTTP/2
/// stream window; hyper's default is 1 MiB).
pub const H2_STREAM_WINDOW: u32 = 64 * 1024;
/// Bytes of all the request bodies of one connection a client may send before the server
/// reads them (the HTTP/2 connection window): what hyper itself buffers per connection.
pub const H2_CONNECTION_WINDOW: u32 = 256 * 1024;
/// Connections the kernel may hold for the server before it accepts them (the listen
/// backlog; tokio's and mio's default is 1,024, and Linux caps it at `net.core.somaxconn`,
/// 4,096 by default). When the queue is full the kernel drops a new client's SYN, and that
/// client waits a 1 s retransmission before it tries again: a burst of 2,000 connections
/// from one client (each then closed at accept by the per-IP cap) made another client's
/// `/api/status` wait 1 to 2 s (docs/SECURITY.md, "Connection bounds").
pub const LISTEN_BACKLOG: u32 = 4096;
/// Time a connection asked to close (idle, or the server shutting down) gets to close
/// cleanly (HTTP/2 GOAWAY) before it is cut, once no request of it is in flight.
pub const CLOSE_WAIT: Duration = Duration::from_secs(1);
/// File descriptors kept for everything but client connections (the database, target
/// fetches, webhook deliveries) when the connection cap is derived from the file limit.
pub const FD_RESERVE: u64 = 256;
/// At most one log line per this interval about failing accepts, and one about refused
/// connections.
pub const LOG_INTERVAL: Duration = Duration::from_secs(10);
/// First pause after a failed `accept`; it doubles at each further failure.
const BACKOFF_MIN: Duration = Duration::from_millis(10);
/// Longest pause after a failed `accept`: connections waiting in the kernel's backlog are
/// taken at most this late once descriptors are free again.
const BACKOFF_MAX: Duration = Duration::from_secs(1);

/// Raises the soft limit of open files to the hard limit (Unix) and returns the limit now
/// in force, `None` where it cannot be read. Every client socket costs a descriptor, and
/// distributions start services with a soft limit (often 1024) far below what the hard
/// limit allows.
pub fn raise_fd_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        match rlimit::increase_nofile_limit(u64::MAX) {
            Ok(limit) => Some(limit),
            Err(e) => {
                tracing::warn!(error = %e, "cannot raise the open-file limit");
                rlimit::getrlimit(rlimit::Resource::NOFILE).ok().map(|(soft, _)| soft)
            }
        }
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// The global connection cap in force: the configured one (0: none), never more than the
/// file limit leaves after [`FD_RESERVE`] (half of it for a small limit), so that client
/// sockets alone cannot exhaust the descriptors the rest of the service needs.
pub fn effective_max_connections(configured: usize, fd_limit: Option<u64>) -> usize {
    let configured = if configured == 0 { usize::MAX } else { configured };
    let Some(limit) = fd_limit else { return configured };
    let reserve = FD_RESERVE.min(limit / 2);
    let by_fds = usize::try_from(limit.saturating_sub(reserve)).unwrap_or(usize::MAX).max(1);
    configured.min(by_fds)
}

/// Why a connection was refused at accept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// The server holds its maximum of connections.
    Total,
    /// The client IP holds its maximum of connections.
    PerIp,
}

/// Counts of open connections, global and per client IP.
#[derive(Debug)]
pub struct Admission {
    max_total: usize,
    /// 0: no per-IP cap.
    max_per_ip: usize,
    /// Peers without a per-IP cap: the trusted reverse proxies, which carry many clients.
    exempt: Vec<IpAddr>,
    /// Bits of an IPv6 address that name one client.
    ipv6_prefix: u8,
    counts: Mutex<Counts>,
}

#[derive(Debug, Default)]
struct Counts {
    total: usize,
    per_ip: HashMap<IpAddr, usize>,
}

/// One admitted connection; its counts are released when it is dropped.
#[derive(Debug)]
pub struct Permit {
    admission: Arc<Admission>,
    /// The per-IP entry counted, if any.
    key: Option<IpAddr>,
}

impl Admission {
    /// Caps of `max_total` connections, `max_per_ip` per client (0: none), `exempt` peers
    /// counted only globally.
    /// An IPv4-mapped IPv6 peer counts as its IPv4 address, and an IPv6 client as its
    /// network of `ipv6_prefix` bits (1 to 128): one subscriber usually holds a whole /64.
    pub fn new(max_total: usize, max_per_ip: usize, exempt: Vec<IpAddr>, ipv6_prefix: u8) -> Arc<Admission> {
        let exempt = exempt.into_iter().map(|ip| client_network(ip, 128).0).collect();
        Arc::new(Admission {
            max_total: max_total.max(1),
            max_per_ip,
            exempt,
            ipv6_prefix,
            counts: Mutex::new(Counts::default()),
        })
    }

    /// Connections open now.
    pub fn open(&self) -> usize {
        self.lock().total
    }

    /// Counts a new connection from `peer`, or refuses it.
    pub fn admit(self: &Arc<Self>, peer: IpAddr) -> Result<Permit, Refused> {
        // The peer itself (an IPv4-mapped address as its IPv4 client), then its network.
        let peer = client_network(peer, 128).0;
        let key =
            (self.max_per_ip > 0 && !self.exempt.contains(&peer)).then(|| client_network(peer, self.ipv6_prefix).0);
        let mut counts = self.lock();
        if counts.total >= self.max_total {
            return Err(Refused::Total);
        }
        if let Some(key) = key {
            let n = counts.per_ip.entry(key).or_insert(0);
            if *n >= self.max_per_ip {
                return Err(Refused::PerIp);
            }
            *n += 1;
        }
        counts.total += 1;
        Ok(Permit { admission: self.clone(), key })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Counts> {
        self.counts.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        let mut counts = self.admission.lock();
        counts.total = counts.total.saturating_sub(1);
        if let Some(key) = self.key {
            if let Some(n) = counts.per_ip.get_mut(&key) {
                *n -= 1;
                if *n == 0 {
                    counts.per_ip.remove(&key);
                }
            }
        }
    }
}

/// The network a client at `ip` counts as, and its prefix length: an IPv4 address is itself
/// (/32); an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, a dual-stack listener's peer) is that
/// IPv4 address; any other IPv6 address is its first `ipv6_prefix` bits (clamped to 1..=128),
/// the rest cleared, since one subscriber commonly holds a whole /64 and could otherwise take
/// a fresh share with every address of it. The connection caps count clients this way, and a
/// service can count its own quotas alike.
pub fn client_network(ip: IpAddr, ipv6_prefix: u8) -> (IpAddr, u8) {
    match ip {
        IpAddr::V4(v4) => (IpAddr::V4(v4), 32),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => (IpAddr::V4(v4), 32),
            None => {
                let prefix = ipv6_prefix.clamp(1, 128);
                let mask = u128::MAX << (128 - u32::from(prefix));
                (IpAddr::V6(std::net::Ipv6Addr::from(u128::from(v6) & mask)), prefix)
            }
        },
    }
}

/// What the service did on one connection, read by the connection's watchdog.
#[derive(Debug)]
pub struct Activity {
    opened: Instant,
    /// Whether a complete request head has arrived (the service was called).
    started: AtomicBool,
    /// Requests whose handler is running.
    in_flight: AtomicUsize,
    /// When the last handler finished, in milliseconds after `opened`.
    last_done_ms: AtomicU64,
}

/// A request in flight on a connection; dropped when its handler ends.
#[derive(Debug)]
pub struct InFlight(Arc<Activity>);

/// What the watchdog of a connection does next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Nothing before this instant; look again then.
    Until(Instant),
    /// No complete request head within the head timeout of the accept: cut the socket
    /// (there is no request to answer).
    NoHead,
    /// No request in flight for the idle timeout: close (GOAWAY for HTTP/2).
    Idle,
}

impl Activity {
    /// A connection accepted at `opened`.
    pub fn new(opened: Instant) -> Arc<Activity> {
        Arc::new(Activity {
            opened,
            started: AtomicBool::new(false),
            in_flight: AtomicUsize::new(0),
            last_done_ms: AtomicU64::new(0),
        })
    }

    /// When the connection was accepted.
    pub fn opened(&self) -> Instant {
        self.opened
    }

    /// Marks a request whose head is complete; the returned guard ends it.
    pub fn begin(self: &Arc<Self>) -> InFlight {
        self.in_flight.fetch_add(1, Ordering::SeqCst);
        self.started.store(true, Ordering::SeqCst);
        InFlight(self.clone())
    }

    /// Requests of the connection whose handler is running.
    pub fn in_flight(&self) -> usize {
        self.in_flight.load(Ordering::SeqCst)
    }

    /// The deadline of the connection at `now`. A request's time counts as activity only
    /// while its handler runs: writing the answer out to a client that does not read is
    /// idle time, so a slow reader is bounded by the idle timeout too.
    ///
    /// The instant returned is when to ask again: no deadline can fall before it, whatever
    /// requests come meanwhile (a first request ending at once is idle `idle_timeout`
    /// later, possibly before the head deadline), so a watchdog that sleeps until then and
    /// asks again is never late.
    pub fn verdict(&self, now: Instant, head_timeout: Duration, idle_timeout: Duration) -> Verdict {
        if !self.started.load(Ordering::SeqCst) {
            let due = self.opened + head_timeout;
            return if now >= due { Verdict::NoHead } else { Verdict::Until(due.min(now + idle_timeout)) };
        }
        if self.in_flight() > 0 {
            return Verdict::Until(now + idle_timeout);
        }
        let due = self.opened + Duration::from_millis(self.last_done_ms.load(Ordering::SeqCst)) + idle_timeout;
        if now >= due {
            Verdict::Idle
        } else {
            Verdict::Until(due)
        }
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let done = u64::try_from(self.0.opened.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.0.last_done_ms.fetch_max(done, Ordering::SeqCst);
        self.0.in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

/// At most one log line per [`LOG_INTERVAL`] about a kind of event, counting the events
/// it does not log.
#[derive(Debug)]
pub struct LogThrottle {
    last_line: Option<Instant>,
    unlogged: u64,
}

impl LogThrottle {
    /// A throttle that lets its first event through.
    pub fn new() -> LogThrottle {
        LogThrottle { last_line: None, unlogged: 0 }
    }

    /// Counts an event; `Some(n)` when a line is due now, `n` being the events since the
    /// previous line (this one included).
    pub fn event(&mut self, now: Instant) -> Option<u64> {
        self.unlogged += 1;
        if self.last_line.is_some_and(|at| now.duration_since(at) < LOG_INTERVAL) {
            return None;
        }
        self.last_line = Some(now);
        Some(std::mem::take(&mut self.unlogged))
    }

    /// Events counted but not yet logged; resets the count.
    pub fn take_unlogged(&mut self) -> u64 {
        std::mem::take(&mut self.unlogged)
    }
}

impl Default for LogThrottle {
    fn default() -> Self {
        LogThrottle::new()
    }
}

/// The pause after each failed `accept` (doubling from 10 ms to 1 s) and its log: the
/// usual cause is a full descriptor table, which a tight retry loop only makes worse, and
/// which one log line per failure would turn into a flood.
#[derive(Debug)]
pub struct AcceptBackoff {
    pause: Duration,
    failures: u64,
    log: LogThrottle,
}

impl AcceptBackoff {
    /// No failure yet.
    pub fn new() -> AcceptBackoff {
        AcceptBackoff { pause: BACKOFF_MIN, failures: 0, log: LogThrottle::new() }
    }

    /// A failed accept: logs when a line is due and returns how long to pause.
    pub fn failed(&mut self, error: &std::io::Error) -> Duration {
        self.failures += 1;
        let pause = self.pause;
        if let Some(failures) = self.log.event(Instant::now()) {
            tracing::warn!(
                error = %error,
                failures,
                pause_ms = u64::try_from(pause.as_millis()).unwrap_or(u64::MAX),
                "accept failed; backing off (at most one such line per {} s)",
                LOG_INTERVAL.as_secs()
            );
        }
        self.pause = (self.pause * 2).min(BACKOFF_MAX);
        pause
    }

    /// A successful accept: ends a run of failures, with a line saying how many there were.
    pub fn succeeded(&mut self) {
        if self.failures > 0 {
            let unlogged = self.log.take_unlogged();
            tracing::warn!(failures = self.failures, unlogged, "accepting connections again");
            *self = AcceptBackoff::new();
        }
    }
}

impl Default for AcceptBackoff {
    fn default() -> Self {
        AcceptBackoff::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn network(ip: &str, prefix: u8) -> (String, u8) {
        let (net, bits) = client_network(ip.parse().unwrap(), prefix);
        (net.to_string(), bits)
    }

    #[test]
    fn ipv6_clients_count_as_their_prefix() {
        let n = |s: &str, p: u8| (s.to_string(), p);
        // IPv4 is the address itself, whatever the IPv6 prefix.
        assert_eq!(network("203.0.113.7", 64), n("203.0.113.7", 32));
        assert_eq!(network("203.0.113.7", 1), n("203.0.113.7", 32));
        // IPv4-mapped IPv6 is the IPv4 address (a dual-stack socket shows IPv4 this way).
        assert_eq!(network("::ffff:203.0.113.7", 64), n("203.0.113.7", 32));
        assert_eq!(network("::ffff:cb00:7107", 48), n("203.0.113.7", 32));
        // Every address of a /64 is one network; the next /64 is another.
        assert_eq!(network("2001:db8:1:2:aaaa:bbbb:cccc:dddd", 64), n("2001:db8:1:2::", 64));
        assert_eq!(network("2001:db8:1:2::1", 64), n("2001:db8:1:2::", 64));
        assert_eq!(network("2001:db8:1:3::1", 64), n("2001:db8:1:3::", 64));
        // Other prefixes, on and off nibble boundaries, and the clamps.
        assert_eq!(network("2001:db8:1:2ff::1", 56), n("2001:db8:1:200::", 56));
        assert_eq!(network("2001:db8:abcd:ffff::1", 48), n("2001:db8:abcd::", 48));
        assert_eq!(network("2001:db8:0:ffff::1", 63), n("2001:db8:0:fffe::", 63));
        assert_eq!(network("2001:db8::1", 128), n("2001:db8::1", 128));
        assert_eq!(network("2001:db8::1", 200), n("2001:db8::1", 128));
        assert_eq!(network("ffff::1", 0), n("8000::", 1));
        assert_eq!(network("::1", 64), n("::", 64));
    }

    #[test]
    fn caps_count_per_ip_and_in_all() {
        let a = Admission::new(3, 2, vec!["10.0.0.9".parse().unwrap()], 64);
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        let p1 = a.admit(ip("10.0.0.1")).unwrap();
        let p2 = a.admit(ip("::ffff:10.0.0.1")).unwrap();
        assert_eq!(a.admit(ip("10.0.0.1")).unwrap_err(), Refused::PerIp);
        let p3 = a.admit(ip("10.0.0.2")).unwrap();
        assert_eq!(a.admit(ip("10.0.0.3")).unwrap_err(), Refused::Total);
        drop(p1);
        assert_eq!(a.open(), 2);
        let p4 = a.admit(ip("10.0.0.1")).unwrap();
        drop((p2, p3, p4));
        assert_eq!(a.open(), 0);
        assert!(a.lock().per_ip.is_empty());
        // Exempt peers (trusted proxies) only count globally.
        let held: Vec<Permit> = (0..3).map(|_| a.admit(ip("10.0.0.9")).unwrap()).collect();
        assert_eq!(a.admit(ip("10.0.0.9")).unwrap_err(), Refused::Total);
        drop(held);
        // One IPv6 /64 is one client.
        let v6a = a.admit(ip("2001:db8:1:2::1")).unwrap();
        let v6b = a.admit(ip("2001:db8:1:2:ffff::7")).unwrap();
        assert_eq!(a.admit(ip("2001:db8:1:2::3")).unwrap_err(), Refused::PerIp);
        let other = a.admit(ip("2001:db8:1:3::1")).unwrap();
        drop((v6a, v6b, other));
        // 0: no per-IP cap.
        let a = Admission::new(5, 0, Vec::new(), 64);
        let held: Vec<Permit> = (0..5).map(|_| a.admit(ip("10.0.0.1")).unwrap()).collect();
        assert_eq!(a.admit(ip("10.0.0.1")).unwrap_err(), Refused::Total);
        drop(held);
    }

    #[test]
    fn the_file_limit_bounds_the_connection_cap() {
        assert_eq!(effective_max_connections(10_000, Some(20_000)), 10_000);
        assert_eq!(effective_max_connections(10_000, Some(1024)), 1024 - FD_RESERVE as usize);
        assert_eq!(effective_max_connections(10_000, Some(300)), 150);
        assert_eq!(effective_max_connections(0, Some(4096)), 4096 - FD_RESERVE as usize);
        assert_eq!(effective_max_connections(7, None), 7);
        assert_eq!(effective_max_connections(0, None), usize::MAX);
        assert_eq!(effective_max_connections(10, Some(0)), 1);
    }

    #[test]
    fn verdicts_follow_the_requests() {
        let t0 = Instant::now();
        let (head, idle) = (Duration::from_secs(1), Duration::from_secs(5));
        let a = Activity::new(t0);
        assert_eq!(a.verdict(t0, head, idle), Verdict::Until(t0 + head));
        assert_eq!(a.verdict(t0 + head, head, idle), Verdict::NoHead);
        // An idle timeout shorter than the head timeout: ask again before the head
        // deadline, since a request may come and go meanwhile.
        assert_eq!(a.verdict(t0, idle, head), Verdict::Until(t0 + head));
        let req = a.begin();
        // A request in flight: never idle, however long it runs.
        let late = t0 + Duration::from_secs(60);
        assert_eq!(a.verdict(late, head, idle), Verdict::Until(late + idle));
        drop(req);
        let Verdict::Until(due) = a.verdict(t0, head, idle) else { panic!("not idle yet") };
        assert!(due >= t0 + idle, "{due:?}");
        assert_eq!(a.verdict(due, head, idle), Verdict::Idle);
    }

    #[test]
    fn one_log_line_per_interval() {
        let mut log = LogThrottle::new();
        let t0 = Instant::now();
        assert_eq!(log.event(t0), Some(1));
        for i in 1..100 {
            assert_eq!(log.event(t0 + Duration::from_millis(i)), None);
        }
        assert_eq!(log.event(t0 + LOG_INTERVAL), Some(100));
        assert_eq!(log.event(t0 + LOG_INTERVAL), None);
        assert_eq!(log.take_unlogged(), 1);
    }

    #[test]
    fn backoff_doubles_to_its_maximum() {
        let mut b = AcceptBackoff::new();
        let e = std::io::Error::other("EMFILE");
        let pauses: Vec<Duration> = (0..10).map(|_| b.failed(&e)).collect();
        assert_eq!(pauses[0], BACKOFF_MIN);
        assert_eq!(pauses[1], BACKOFF_MIN * 2);
        assert_eq!(pauses[9], BACKOFF_MAX);
        b.succeeded();
        assert_eq!(b.failed(&e), BACKOFF_MIN);
    }
}
