#pragma once
// The sandbox's certificate authority, the certificate of its cluster endpoint, and the
// client certificates it gives kubectl. The CA (EC P-256, ten years) is made once and kept
// in the world's settings, so clients and kubeconfigs that trust it keep working across
// restarts; the endpoint's certificate (127.0.0.1 and localhost) is issued afresh by that
// CA at every start, and so are client certificates (each valid as long as the CA).

#include <memory>
#include <string>
#include <vector>

#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

namespace strata::sandbox {

class World;

struct X509Deleter {
  void operator()(X509* x) const { X509_free(x); }
};
struct EvpPkeyDeleter {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
using X509Ptr = std::unique_ptr<X509, X509Deleter>;
using EvpPkeyPtr = std::unique_ptr<EVP_PKEY, EvpPkeyDeleter>;

struct CertificateAuthority {
  X509Ptr cert;
  EvpPkeyPtr key;
  std::string cert_pem;
};

struct ServerCertificate {
  X509Ptr cert;
  EvpPkeyPtr key;
};

//! The world's CA (settings "cluster_ca_cert" / "cluster_ca_key"), made and stored when the
//! world has none (World::SettingsOnce: two sandboxes starting on a new world at once end
//! up with the same one); never replaced. Throws std::runtime_error when OpenSSL fails or
//! the stored CA is unreadable.
CertificateAuthority LoadOrCreateCa(World& world);

//! A one-year TLS server certificate for IP 127.0.0.1 and DNS localhost, signed by `ca`.
ServerCertificate IssueServerCertificate(const CertificateAuthority& ca);

//! A client certificate and its key, in PEM (what a kubeconfig's client-certificate-data
//! and client-key-data hold).
struct ClientCertificate {
  std::string cert_pem;
  std::string key_pem;
};

//! A one-year TLS client certificate (extendedKeyUsage clientAuth) signed by `ca`, with
//! subject CN `common_name` and one O per entry of `organizations`: what Kubernetes reads
//! as the user name and groups ("strata-sandbox-admin", {"system:masters"}).
ClientCertificate IssueClientCertificate(const CertificateAuthority& ca, const std::string& common_name,
                                         const std::vector<std::string>& organizations);

//! Makes a TLS server built on `ctx` ask clients for a certificate without requiring one
//! (as kube-apiserver does: bearer tokens work without one), naming `ca` as the issuer it
//! accepts. The handshake never fails over the certificate: whether a presented one is
//! valid is for the request's authentication to decide (a 401, as kube-apiserver answers
//! an untrusted one), see sandbox/kubernetes/auth/client_certificate.h.
void RequestOptionalClientCertificates(SSL_CTX* ctx, const CertificateAuthority& ca);

}  // namespace strata::sandbox
