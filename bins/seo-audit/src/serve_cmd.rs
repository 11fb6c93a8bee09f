//! `seo-audit serve`: the HTTP service until SIGINT or SIGTERM.

use std::io::Write;
use std::net::{IpAddr, SocketAddr};

use crate::Global;

/// Exit status when the service could not start.
pub const EXIT_FAILED: u8 = 2;

#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// Address and port to listen on (port 0: any free port) [default: 127.0.0.1:8080].
    #[arg(long, env = "SEO_AUDIT_LISTEN", value_name = "ADDR")]
    pub listen: Option<SocketAddr>,
    /// Let the address guard through for ADDR (IP, CIDR or host name); for local
    /// development and tests only. Repeatable.
    #[arg(long = "allow-target", value_name = "ADDR", env = "SEO_AUDIT_ALLOW_TARGETS", value_delimiter = ',')]
    pub allow_target: Vec<String>,
    /// Requests per minute for anonymous use [default: 10].
    #[arg(long, env = "SEO_AUDIT_RATE_LIMIT_ANONYMOUS", value_name = "N")]
    pub rate_limit_anonymous: Option<u32>,
    /// Audits in flight at once [default: 16].
    #[arg(long, env = "SEO_AUDIT_MAX_CONCURRENT_AUDITS", value_name = "N")]
    pub max_concurrent_audits: Option<usize>,
    /// Audits waiting for a slot before 503 overloaded [default: 64].
    #[arg(long, env = "SEO_AUDIT_AUDIT_QUEUE", value_name = "N")]
    pub audit_queue: Option<usize>,
    /// Connections open at once, server-wide; 0: only the open-file limit [default: 10000].
    #[arg(long, env = "SEO_AUDIT_MAX_CONNECTIONS", value_name = "N")]
    pub max_connections: Option<usize>,
    /// Connections open at once from one client IP; 0: no per-IP cap [default: 256].
    #[arg(long, env = "SEO_AUDIT_MAX_CONNECTIONS_PER_IP", value_name = "N")]
    pub max_connections_per_ip: Option<usize>,
    /// Milliseconds a connection may stay open with no request in flight [default: 60000].
    #[arg(long, env = "SEO_AUDIT_IDLE_TIMEOUT_MS", value_name = "MS")]
    pub idle_timeout_ms: Option<u64>,
    /// Milliseconds requests in flight get at shutdown before the process exits anyway
    /// [default: 30000].
    #[arg(long, env = "SEO_AUDIT_SHUTDOWN_GRACE_MS", value_name = "MS")]
    pub shutdown_grace_ms: Option<u64>,
    /// A reverse proxy whose X-Forwarded-For is believed. Repeatable.
    #[arg(long = "trusted-proxy", value_name = "IP", env = "SEO_AUDIT_TRUSTED_PROXIES", value_delimiter = ',')]
    pub trusted_proxy: Vec<IpAddr>,
    /// Prefix length an anonymous IPv6 client counts as, for quota and flood guard
    /// (1 to 128) [default: 64].
    #[arg(
        long,
        env = "SEO_AUDIT_ANONYMOUS_IPV6_PREFIX",
        value_name = "BITS",
        value_parser = clap::value_parser!(u8).range(1..=128)
    )]
    pub anonymous_ipv6_prefix: Option<u8>,
}

/// Runs the service and returns the process exit status.
pub async fn run(args: ServeArgs, global: &Global) -> u8 {
    init_logging();
    let mut config = match global.load_config() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_FAILED;
        }
    };
    if let Some(listen) = args.listen {
        config.listen = listen;
    }
    if !args.allow_target.is_empty() {
        config.allow_targets = args.allow_target;
    }
    if let Some(n) = args.rate_limit_anonymous {
        config.rate_limits.anonymous = n;
    }
    if let Some(n) = args.max_concurrent_audits {
        config.max_concurrent_audits = n;
    }
    if let Some(n) = args.audit_queue {
        config.audit_queue = n;
    }
    if let Some(n) = args.max_connections {
        config.max_connections = n;
    }
    if let Some(n) = args.max_connections_per_ip {
        config.max_connections_per_ip = n;
    }
    if let Some(ms) = args.idle_timeout_ms {
        config.idle_timeout_ms = ms;
    }
    if let Some(ms) = args.shutdown_grace_ms {
        config.shutdown_grace_ms = ms;
    }
    if !args.trusted_proxy.is_empty() {
        config.trusted_proxies = args.trusted_proxy;
    }
    if let Some(bits) = args.anonymous_ipv6_prefix {
        config.anonymous_ipv6_prefix = bits;
    }
    let server = match server::serve(config).await {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_FAILED;
        }
    };
    // Scripts wait for this exact line (docs/API.md, "Running the service"): print it once, and
    // only now that the socket accepts connections.
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "listening on http://{}", server.local_addr());
    let _ = out.flush();
    drop(out);
    server::shutdown_signal().await;
    tracing::info!("signal received");
    server.shutdown().await;
    0
}

/// Log lines go to stderr (stdout carries only the `listening on` line); the level comes
/// from `SEO_AUDIT_LOG` (an env-filter directive, default `info`).
fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("SEO_AUDIT_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    // Colour only on a terminal: log files and collectors get plain text.
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let _ = tracing_subscriber::fmt().with_env_filter(filter).with_ansi(ansi).with_writer(std::io::stderr).try_init();
}
