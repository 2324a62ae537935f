#pragma once
// The one entry point of the cluster endpoint's authentication and (for now) authorization:
// who a request is, and whether the cluster lets it in.
//
// As kube-apiserver on EKS: a client certificate that verifies against the sandbox CA
// (client_certificate.h) authenticates first; otherwise "Authorization: Bearer <token>" with
// an EKS token (eks_token_verifier.h). Neither: 401 with the Status kube-apiserver answers
// ({"message": "Unauthorized", "reason": "Unauthorized"}); the reason is in AuthResult for
// the server's log, never in the answer (the real server says no more either). An
// authenticated user that is not an admin of the cluster (cluster_access.h) gets 403
// Forbidden naming the user, the verb and the path.

#include <chrono>
#include <mutex>
#include <string>
#include <vector>

#include <httplib.h>
#include <openssl/x509.h>

#include "sandbox/kubernetes/auth/cluster_access.h"
#include "sandbox/kubernetes/auth/eks_token_verifier.h"
#include "sandbox/settings.h"

namespace strata::sandbox::k8s_auth {

//! What authentication needs besides the request.
struct AuthContext {
  //! The sandbox's access keys (WorldKeyLookup, or a fake in tests).
  AccessKeyLookup keys;
  //! The sandbox CA's certificate, which client certificates must chain to.
  X509* ca_cert = nullptr;
  //! Hosts that are the sandbox's own STS endpoint (see EksTokenOptions::own_sts_hosts).
  std::vector<std::string> own_sts_hosts;
  std::chrono::system_clock::time_point now;
};

struct AuthResult {
  //! 200: authenticated and admitted; 401 Unauthorized; 403 Forbidden.
  int status = 401;
  KubeUser user;            //!< who, when authenticated (also on 403)
  std::string status_json;  //!< the metav1.Status body for 401 and 403; empty on 200
  std::string reason;       //!< why not, for the log; empty on 200
  bool ok() const { return status == 200; }
};

//! Authenticates `req` (its TLS connection and headers) for `cluster`, then admits admins.
AuthResult Authenticate(const httplib::Request& req, const ClusterAccess& cluster, const AuthContext& ctx);

//! Authentication alone for the parts of a request (what Authenticate calls): `ssl` the
//! TLS connection (nullptr: none), `authorization` the Authorization header ("" if none).
AuthResult AuthenticateParts(const SSL* ssl, const std::string& authorization, const std::string& method,
                             const std::string& path, const ClusterAccess& cluster, const AuthContext& ctx);

//! The sandbox's keys in `world`, looked up under `world_mutex` (caller_identity.h). Both
//! must outlive the lookup.
AccessKeyLookup WorldKeyLookup(World& world, std::mutex& world_mutex, const SandboxSettings& settings);

//! A metav1.Status failure body: {"kind":"Status","apiVersion":"v1","metadata":{},
//! "status":"Failure","message":…,"reason":…,"code":…}.
std::string FailureStatusJson(int code, const std::string& reason, const std::string& message);

}  // namespace strata::sandbox::k8s_auth
