#pragma once
// What the https cluster endpoint answers: each EKS cluster's Kubernetes API server lives
// under /clusters/<name>/ (DescribeCluster's `endpoint`), served by the sandbox's
// Kubernetes API (sandbox/kubernetes/api_server.cc). Every request is authenticated first
// (AdmitClusterRequest: a client certificate from the sandbox CA or an EKS bearer token,
// admitted when it is an admin of the cluster; 401/403 otherwise). A path naming no cluster
// (kubectl's `get --raw /apis` drops the path of the server's URL) is served by the world's
// only cluster when it has one. Declared here so that the sandbox needs none of those
// layers' headers.

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

//! Registers the endpoint's handlers (every method, every path) on `server`. Requests run
//! one at a time under `auth.world_mutex`, each in its own world transaction, as the AWS
//! front end's do; `auth` (and the world) must outlive the server.
void ServeClusterEndpoint(httplib::Server& server, const ClusterEndpointAuth& auth);

//! True when `req` may use the cluster `cluster` ("" for a path naming none); otherwise
//! false with the 401, 403 or (no such cluster) 404 Status written to `res`. Defined by sandbox/kubernetes/auth/
//! (cluster_endpoint_auth.cc), which knows EKS clusters and tokens.
bool AdmitClusterRequest(const httplib::Request& req, const std::string& cluster, const ClusterEndpointAuth& auth,
                         httplib::Response& res);

}  // namespace strata::sandbox
