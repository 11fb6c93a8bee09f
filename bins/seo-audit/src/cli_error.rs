//! How the command line says what went wrong (docs/API.md, "Errors"): one line on stderr,
//! `error: CODE: Sentence.`, the sentence starting with a capital letter and ending with a
//! period, and a failure to reach the database said in words, not as the libraries' text.

use std::fmt;
use std::io;

use app::ErrorCode;

/// The exit status of a command that could not run (docs/API.md, "Command line audits for CI").
pub const EXIT_FAILED: u8 = 2;

/// The code a failed command names: an error code of the service, or one of the failures
/// only the command line meets (its own database and listener, a flag, a crawl that ended
/// `failed`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Code {
    /// An error code of the service (docs/API.md, "Errors").
    Api(ErrorCode),
    /// A flag's value the command refuses (`--sitemap` off the crawled site).
    InvalidParameter,
    /// The database cannot be reached or opened.
    DatabaseUnavailable,
    /// The database refused a request.
    DatabaseError,
    /// `serve` cannot bind its address.
    ListenFailed,
    /// The crawl ran and ended `failed` (no page answered 2xx).
    CrawlFailed,
}

impl Code {
    /// The code as the error line names it.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::Api(code) => code.as_str(),
            Code::InvalidParameter => "invalid_parameter",
            Code::DatabaseUnavailable => "database_unavailable",
            Code::DatabaseError => "database_error",
            Code::ListenFailed => "listen_failed",
            Code::CrawlFailed => "crawl_failed",
        }
    }

    /// The exit status of a command that failed with this code: the one place it is decided
    /// (docs/API.md, "Command line audits for CI"). Every failure is 2 ("could not run"), so
    /// that a CI step tells it from 1 (ran, below `--min-score`) whatever went wrong.
    pub fn exit_status(self) -> u8 {
        match self {
            Code::Api(_)
            | Code::InvalidParameter
            | Code::DatabaseUnavailable
            | Code::DatabaseError
            | Code::ListenFailed
            | Code::CrawlFailed => EXIT_FAILED,
        }
    }
}

impl From<ErrorCode> for Code {
    fn from(code: ErrorCode) -> Code {
        Code::Api(code)
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A failure of a command: its code and its sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CliError {
    /// The error code (`invalid_request`, `database_unavailable`, ...).
    pub code: Code,
    /// One sentence, as [`sentence`] writes it.
    pub message: String,
}

impl CliError {
    /// A failure with `code` and `message` (made a sentence).
    pub fn new(code: impl Into<Code>, message: impl fmt::Display) -> CliError {
        CliError { code: code.into(), message: sentence(&message.to_string()) }
    }

    /// A failure whose message is printed as written: the service's own sentence of a
    /// refused audit or crawl, or a line the command has always written so.
    pub fn verbatim(code: impl Into<Code>, message: impl Into<String>) -> CliError {
        CliError { code: code.into(), message: message.into() }
    }

    /// Prints the failure on stderr and returns the exit status of its code
    /// ([`Code::exit_status`]).
    pub fn report(&self) -> u8 {
        eprintln!("{self}");
        self.code.exit_status()
    }
}

/// Prints `error: CODE: MESSAGE` (the message as written) and returns the exit status of
/// `code`.
pub fn fail(code: impl Into<Code>, message: impl Into<String>) -> u8 {
    CliError::verbatim(code, message).report()
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "error: {}: {}", self.code, self.message)
    }
}

/// A value given on the command line or in the settings that the command refuses.
impl From<String> for CliError {
    fn from(message: String) -> CliError {
        CliError::new(ErrorCode::InvalidRequest, message)
    }
}

impl From<store::Error> for CliError {
    /// A database that cannot be reached or opened is `database_unavailable`, said in words
    /// (the refused connection, the missing file); a value the store refuses is
    /// `invalid_request`, an unknown id `not_found`; anything else the database said is
    /// `database_error`.
    fn from(e: store::Error) -> CliError {
        if e.is_unavailable() {
            let why = io_cause(&e).map_or_else(|| e.to_string(), |io| io_words(io).to_string());
            return CliError::new(Code::DatabaseUnavailable, format!("The database cannot be opened: {why}"));
        }
        if e.is_not_found() {
            return CliError::new(ErrorCode::NotFound, e);
        }
        if e.is_invalid() {
            return CliError::new(ErrorCode::InvalidRequest, e);
        }
        CliError::new(Code::DatabaseError, format!("The database refused the request: {e}"))
    }
}

impl From<server::ServeError> for CliError {
    fn from(e: server::ServeError) -> CliError {
        match e {
            server::ServeError::State(app::OpenError::Store(e)) => e.into(),
            server::ServeError::State(app::OpenError::Fetch(e)) => {
                CliError::new(ErrorCode::InvalidRequest, format!("The fetch settings are not valid: {e}"))
            }
            server::ServeError::Bind(e) => CliError::new(Code::ListenFailed, e),
            server::ServeError::TlsHalf { .. } | server::ServeError::Tls(_) => {
                CliError::new(ErrorCode::InvalidRequest, e)
            }
            other => CliError::new(ErrorCode::Internal, other),
        }
    }
}

/// The first I/O error in the source chain of `e`, where the failure comes from the system.
fn io_cause<'a>(e: &'a (dyn std::error::Error + 'static)) -> Option<&'a io::Error> {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(current) = source {
        if let Some(io) = current.downcast_ref::<io::Error>() {
            return Some(io);
        }
        source = current.source();
    }
    None
}

/// What an I/O error means for a database, in words.
fn io_words(e: &io::Error) -> &'static str {
    match e.kind() {
        io::ErrorKind::ConnectionRefused => {
            "the connection was refused: no database server accepts connections at that address and port. Check \
             --database (SEO_AUDIT_DATABASE_URL) and that the server runs"
        }
        io::ErrorKind::TimedOut => "the database server did not answer in time",
        io::ErrorKind::ConnectionReset | io::ErrorKind::ConnectionAborted | io::ErrorKind::UnexpectedEof => {
            "the database server closed the connection"
        }
        io::ErrorKind::HostUnreachable | io::ErrorKind::NetworkUnreachable => {
            "no network route leads to the database server"
        }
        io::ErrorKind::NotFound => "the file or its directory does not exist. Check --data (SEO_AUDIT_DATA)",
        io::ErrorKind::PermissionDenied => "this user may not read or write it. Check the permissions of --data",
        io::ErrorKind::ReadOnlyFilesystem => "it is on a read-only file system",
        io::ErrorKind::StorageFull => "the disk is full",
        _ => "the system refused it",
    }
}

/// `text` as a sentence: a capital first letter and a final period.
pub fn sentence(text: &str) -> String {
    let text = text.trim();
    if text.is_empty() {
        return String::new();
    }
    // A sentence that opens with a name (a setting such as `tls_cert`, a flag, a path) keeps
    // it as written: capitalised, it would no longer be the name the user types.
    let first_word = text.split_whitespace().next().unwrap_or_default();
    let is_name = first_word.contains(['_', '-', '/', '.', ':']) && first_word.len() > 1;
    let mut out: String = if is_name {
        text.to_string()
    } else {
        let mut chars = text.chars();
        chars.next().map(|first| first.to_uppercase().chain(chars).collect()).unwrap_or_default()
    };
    if !out.ends_with(['.', '!', '?']) {
        out.push('.');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_are_sentences_after_their_code() {
        assert_eq!(sentence("no such file: a.html"), "No such file: a.html.");
        assert_eq!(sentence("Done."), "Done.");
        assert_eq!(sentence("tls_cert is set without tls_key"), "tls_cert is set without tls_key.");
        assert_eq!(
            CliError::new(ErrorCode::InvalidRequest, "bad value").to_string(),
            "error: invalid_request: Bad value."
        );
        assert_eq!(
            CliError::verbatim(Code::InvalidParameter, "--sitemap x: y").to_string(),
            "error: invalid_parameter: --sitemap x: y"
        );
        let refused = io::Error::from(io::ErrorKind::ConnectionRefused);
        assert!(io_words(&refused).starts_with("the connection was refused"));
    }

    /// Every failure exits 2, and the codes only the command line has are not codes of the
    /// service written a second time.
    #[test]
    fn every_code_exits_2_and_is_named_once() {
        let own = [
            Code::InvalidParameter,
            Code::DatabaseUnavailable,
            Code::DatabaseError,
            Code::ListenFailed,
            Code::CrawlFailed,
        ];
        for code in ErrorCode::ALL.iter().map(|&c| Code::from(c)).chain(own) {
            assert_eq!(code.exit_status(), EXIT_FAILED, "{code}");
        }
        for code in own {
            assert!(!ErrorCode::NAMES.contains(&code.as_str()), "{code} is a code of the service");
        }
        assert_eq!(Code::from(ErrorCode::InvalidUrl).to_string(), "invalid_url");
    }
}
