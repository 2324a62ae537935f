// AdmitClusterRequest (sandbox/cluster_endpoint.h): the cluster endpoint's authentication,
// with the cluster EKS recorded and the sandbox's keys from the world. A path that names no
// cluster (cluster ""; kubectl's `get --raw /version` drops the server URL's path) can only
// be authenticated by a client certificate: a token is valid for one cluster, unknown here.

#include <chrono>

#include "sandbox/cluster_endpoint.h"
#include "sandbox/kubernetes/auth/authenticate.h"

namespace strata::sandbox {

bool AdmitClusterRequest(const httplib::Request& req, const std::string& cluster, const ClusterEndpointAuth& auth,
                         httplib::Response& res) {
  std::optional<k8s_auth::ClusterAccess> access;
  {
    std::lock_guard lock(auth.world_mutex);
    access = k8s_auth::LoadClusterAccess(auth.world, cluster, auth.settings.account_id);
  }
  k8s_auth::AuthContext ctx{k8s_auth::WorldKeyLookup(auth.world, auth.world_mutex, auth.settings), auth.ca_cert,
                            {auth.settings.host, "localhost"}, std::chrono::system_clock::now()};
  // A cluster that does not exist is not found, but only for a caller that authenticates:
  // the rest get the 401 any request without valid credentials gets.
  k8s_auth::AuthResult result =
      k8s_auth::Authenticate(req, access.value_or(k8s_auth::ClusterAccess{cluster, "us-east-1", "", false, {}}), ctx);
  if (!access && result.status != 401) {
    res.status = 404;
    res.set_content(k8s_auth::FailureStatusJson(404, "NotFound",
                                                cluster.empty() ? "the server could not find the requested resource"
                                                                : "the sandbox has no EKS cluster \"" + cluster + "\""),
                    "application/json");
    return false;
  }
  if (result.ok()) return true;
  res.status = result.status;
  res.set_content(result.status_json, "application/json");
  return false;
}

}  // namespace strata::sandbox
