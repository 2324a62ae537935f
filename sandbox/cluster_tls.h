#pragma once
// The sandbox's certificate authority and the certificate of its cluster endpoint.
// The CA (EC P-256, ten years) is made once and kept in the world's settings, so clients
// and kubeconfigs that trust it keep working across restarts; the endpoint's certificate
// (127.0.0.1 and localhost) is issued afresh by that CA at every start.

#include <memory>
#include <string>

#include <openssl/evp.h>
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

}  // namespace strata::sandbox
