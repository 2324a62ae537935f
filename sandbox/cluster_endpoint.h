#pragma once
// What the https cluster endpoint answers: EKS clusters' API servers live under
// /clusters/<name>/. Every request is authenticated first (AdmitClusterRequest: a client
// certificate from the sandbox CA or an EKS bearer token, admitted when it is an admin of
// the cluster; 401/403 otherwise). Until the Kubernetes API is served there, an admitted
// request gets a Kubernetes-shaped 404 Status. Paths naming no cluster are authenticated as
// well (client certificates only: tokens are made for one cluster); kubectl sends some
// there, as `get --raw /version` drops the path of the server's URL.

#include <mutex>
#include <string>

#include <httplib.h>
#include <openssl/x509.h>

#include "sandbox/settings.h"

namespace strata::sandbox {

class World;

//! What authenticating a cluster request needs from the sandbox.
struct ClusterEndpointAuth {
  World& world;
  std::mutex& world_mutex;  //!< guards `world`
  const SandboxSettings& settings;
  X509* ca_cert;  //!< the sandbox CA, which client certificates must chain to
};

//! Registers the endpoint's handlers (every method, every path) on `server`; `auth` must
//! outlive it.
void ServeClusterEndpoint(httplib::Server& server, const ClusterEndpointAuth& auth);

//! True when `req` may use the cluster `cluster` ("" for a path naming none); otherwise
//! false with the 401, 403 or (no such cluster) 404 Status written to `res`. Defined by sandbox/kubernetes/auth/
//! (cluster_endpoint_auth.cc), which knows EKS clusters and tokens.
bool AdmitClusterRequest(const httplib::Request& req, const std::string& cluster, const ClusterEndpointAuth& auth,
                         httplib::Response& res);

}  // namespace strata::sandbox
