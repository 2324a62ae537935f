#pragma once
// Kubernetes' x509 client-certificate authentication, against the sandbox CA: a certificate
// the TLS client presented (the server asks for one optionally, cluster_tls.h) that chains
// to the CA and is meant for client authentication is the user named by its subject's CN,
// in the groups named by its O entries — as kube-apiserver's --client-ca-file does.

#include <optional>
#include <string>

#include <openssl/ssl.h>
#include <openssl/x509.h>

#include "sandbox/kubernetes/auth/cluster_access.h"

namespace strata::sandbox::k8s_auth {

struct ClientCertificateCheck {
  bool presented = false;        //!< the connection carries a client certificate
  std::optional<KubeUser> user;  //!< set when it verified
  std::string reason;            //!< why it did not verify
};

//! Checks the client certificate of the TLS connection `ssl` (nullptr: not TLS) against
//! `ca` at the current time. Also adds system:authenticated to the user's groups.
ClientCertificateCheck VerifyClientCertificate(const SSL* ssl, X509* ca);

//! The same for a certificate in hand (tests, and connections already unwrapped).
ClientCertificateCheck VerifyCertificate(X509* cert, X509* ca);

}  // namespace strata::sandbox::k8s_auth
