//! HTTPS: a certificate chain and its private key, read from PEM files, as the rustls
//! configuration a [`crate::Listener`] serves with ([`crate::Listener::with_tls`]).
//!
//! ALPN offers `h2` then `http/1.1`; the connection then serves what the client chose
//! (hyper-util's auto builder reads the HTTP/2 preface either way). The crypto provider is
//! rustls's `ring`, the one the workspace's HTTP client already builds (no cmake or nasm).
//! The handshake is bounded by the connection's head deadline and counted against the
//! connection caps like any other connection (docs/SECURITY.md, "Connection bounds").

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tokio_rustls::rustls;
use tokio_rustls::rustls::pki_types::pem::{self, PemObject};
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};

/// The ALPN protocols offered, in order of preference.
pub const ALPN: [&[u8]; 2] = [b"h2", b"http/1.1"];

/// Why a certificate and key cannot be served. Each message is one line naming the file.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    /// A file could not be read.
    #[error("cannot read the TLS {what} {path}: {source}")]
    Read {
        /// `certificate` or `private key`.
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A file holds no PEM item of the kind wanted, or is not PEM.
    #[error("no {what} in {path}: {reason}")]
    Pem {
        /// What was looked for (`PEM certificate`, `PEM private key (PKCS#8, PKCS#1 or SEC1)`).
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// What the PEM reader found.
        reason: String,
    },
    /// The private key is not the certificate's.
    #[error("the TLS private key {key} does not belong to the certificate {cert}")]
    Mismatch {
        /// The certificate file.
        cert: PathBuf,
        /// The key file.
        key: PathBuf,
    },
    /// rustls refused the pair (an unsupported key type, a malformed certificate).
    #[error("cannot use the TLS certificate {cert} with the key {key}: {reason}")]
    Invalid {
        /// The certificate file.
        cert: PathBuf,
        /// The key file.
        key: PathBuf,
        /// rustls's reason.
        reason: String,
    },
}

/// A server certificate chain and key, ready to serve.
#[derive(Debug, Clone)]
pub struct Tls {
    config: Arc<rustls::ServerConfig>,
}

impl Tls {
    /// Reads a PEM certificate chain (the server's certificate first, then the
    /// intermediates) and a PEM private key (PKCS#8, PKCS#1 or SEC1), and checks that the
    /// key is the certificate's.
    pub fn from_pem_files(cert: &Path, key: &Path) -> Result<Tls, TlsError> {
        let read = |what: &'static str, path: &Path| {
            std::fs::read(path).map_err(|source| TlsError::Read { what, path: path.to_path_buf(), source })
        };
        let (cert_pem, key_pem) = (read("certificate", cert)?, read("private key", key)?);
        Tls::from_pem(&cert_pem, &key_pem, cert, key)
    }

    /// [`Tls::from_pem_files`] on the files' contents; `cert` and `key` name them in errors.
    pub fn from_pem(cert_pem: &[u8], key_pem: &[u8], cert: &Path, key: &Path) -> Result<Tls, TlsError> {
        const CERT: &str = "PEM certificate";
        const KEY: &str = "PEM private key (PKCS#8, PKCS#1 or SEC1)";
        let pem_error = |what: &'static str, path: &Path, e: pem::Error| TlsError::Pem {
            what,
            path: path.to_path_buf(),
            reason: match e {
                pem::Error::NoItemsFound => "the file holds none".to_string(),
                // The reader's other messages may quote a whole line of bytes.
                pem::Error::Base64Decode(_) => "bad base64 in a PEM section".to_string(),
                pem::Error::MissingSectionEnd { .. } => "a PEM section has no END line".to_string(),
                pem::Error::IllegalSectionStart { .. } => "a malformed BEGIN line".to_string(),
                other => other.to_string(),
            },
        };
        let chain = CertificateDer::pem_slice_iter(cert_pem)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| pem_error(CERT, cert, e))?;
        if chain.is_empty() {
            return Err(pem_error(CERT, cert, pem::Error::NoItemsFound));
        }
        let private = PrivateKeyDer::from_pem_slice(key_pem).map_err(|e| pem_error(KEY, key, e))?;
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let invalid = |e: rustls::Error| match e {
            rustls::Error::InconsistentKeys(rustls::InconsistentKeys::KeyMismatch) => {
                TlsError::Mismatch { cert: cert.to_path_buf(), key: key.to_path_buf() }
            }
            other => TlsError::Invalid { cert: cert.to_path_buf(), key: key.to_path_buf(), reason: other.to_string() },
        };
        let mut config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(invalid)?
            .with_no_client_auth()
            .with_single_cert(chain, private)
            .map_err(invalid)?;
        config.alpn_protocols = ALPN.iter().map(|p| p.to_vec()).collect();
        Ok(Tls { config: Arc::new(config) })
    }

    /// The acceptor of each connection's handshake.
    pub(crate) fn acceptor(&self) -> tokio_rustls::TlsAcceptor {
        tokio_rustls::TlsAcceptor::from(self.config.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chain_and_its_key_load_and_wrong_files_are_one_line_errors() {
        let dir = tempfile::tempdir().unwrap();
        let certs = test_support::tls::TestCerts::generate(dir.path());
        let tls = Tls::from_pem_files(&certs.chain, &certs.key).unwrap();
        assert_eq!(tls.config.alpn_protocols, [b"h2".to_vec(), b"http/1.1".to_vec()]);

        let missing = dir.path().join("missing.pem");
        let empty = dir.path().join("empty.pem");
        std::fs::write(&empty, "").unwrap();
        let garbled = dir.path().join("garbled.pem");
        std::fs::write(&garbled, "-----BEGIN CERTIFICATE-----\n%%%%\n-----END CERTIFICATE-----\n").unwrap();
        for (cert, key, wanted) in [
            (&certs.chain, &certs.other_key, "does not belong to the certificate"),
            (&missing, &certs.key, "cannot read the TLS certificate"),
            (&certs.chain, &missing, "cannot read the TLS private key"),
            (&empty, &certs.key, "no PEM certificate in"),
            (&garbled, &certs.key, "no PEM certificate in"),
            // The files given the wrong way round.
            (&certs.key, &certs.chain, "no PEM certificate in"),
            (&certs.chain, &certs.chain, "no PEM private key"),
        ] {
            let e = Tls::from_pem_files(cert, key).unwrap_err().to_string();
            assert!(e.contains(wanted), "{cert:?} {key:?}: {e}");
            assert!(!e.contains('\n'), "{e}");
        }
    }
}
