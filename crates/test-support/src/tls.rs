//! Certificates for HTTPS tests: a certificate authority made for the test, and server
//! certificates it signs for 127.0.0.1 and localhost, as PEM files the way an operator
//! gets them (the server's certificate, then the chain up to the root).

use std::path::{Path, PathBuf};

use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair};

/// A test certificate authority and one server certificate it signed for `127.0.0.1`,
/// `::1` and `localhost`, written as PEM files in a directory.
#[derive(Debug)]
pub struct TestCerts {
    /// The root a client trusts (PEM), and nothing else.
    pub root_pem: String,
    /// The server's certificate followed by the root: a chain file.
    pub chain: PathBuf,
    /// The server's private key (PKCS#8 PEM).
    pub key: PathBuf,
    /// The key of another certificate: does not match `chain`.
    pub other_key: PathBuf,
}

impl TestCerts {
    /// Generates the authority and the server certificate and writes `chain.pem`,
    /// `key.pem` and `other-key.pem` into `dir`.
    pub fn generate(dir: &Path) -> TestCerts {
        let mut ca = CertificateParams::new(Vec::<String>::new()).expect("CA parameters");
        ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        ca.distinguished_name.push(DnType::CommonName, "seo-audit test root");
        let ca = CertifiedIssuer::self_signed(ca, KeyPair::generate().expect("CA key")).expect("CA certificate");

        let names = vec!["127.0.0.1".to_string(), "::1".to_string(), "localhost".to_string()];
        let key = KeyPair::generate().expect("server key");
        let server = CertificateParams::new(names).expect("server parameters").signed_by(&key, &ca).expect("signed");

        let other_key = KeyPair::generate().expect("other key");
        let write = |name: &str, text: String| {
            let path = dir.join(name);
            std::fs::write(&path, text).expect("write a PEM file");
            path
        };
        TestCerts {
            root_pem: ca.pem(),
            chain: write("chain.pem", format!("{}{}", server.pem(), ca.pem())),
            key: write("key.pem", key.serialize_pem()),
            other_key: write("other-key.pem", other_key.serialize_pem()),
        }
    }

    /// A client that trusts only the test root (not the system's roots), offering HTTP/2
    /// and HTTP/1.1 by ALPN.
    pub fn client(&self) -> reqwest::ClientBuilder {
        let root = reqwest::Certificate::from_pem(self.root_pem.as_bytes()).expect("root PEM");
        reqwest::Client::builder().no_proxy().tls_built_in_root_certs(false).add_root_certificate(root)
    }
}
