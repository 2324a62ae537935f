#pragma once
// The kubeconfig the sandbox gives kubectl: one cluster, user and context per EKS cluster
// whose API is served (DescribeCluster shows an endpoint: ACTIVE or UPDATING, or DELETING
// until gone), each trusting the sandbox CA and authenticating with a client certificate
// the CA issued in the group system:masters (cluster_tls.h) — an admin of every cluster.
// Names are the cluster names; the current context is the first cluster made.

#include <chrono>
#include <string>
#include <vector>

#include "sandbox/cluster_tls.h"
#include "sandbox/settings.h"

namespace strata::sandbox {

class World;

//! One served cluster, as DescribeCluster shows it.
struct ServedCluster {
  std::string name;
  std::string region;
  std::string endpoint;  //!< "https://127.0.0.1:<port>/clusters/<name>"
};

//! The clusters of `world` with an endpoint at `now`, oldest first, their endpoints on
//! `cluster_endpoint_base`. (Defined by the EKS service, which knows clusters' lives.)
std::vector<ServedCluster> ServedClusters(World& world, const SandboxSettings& settings,
                                          const std::string& cluster_endpoint_base,
                                          std::chrono::system_clock::time_point now);

//! The kubeconfig YAML for `clusters`, trusting `ca_pem`, as `client` (whose CN names the
//! users "<CN>@<cluster>").
std::string RenderKubeconfig(const std::vector<ServedCluster>& clusters, const std::string& ca_pem,
                             const ClientCertificate& client);

//! The user name and group of the kubeconfig's client certificate.
inline constexpr const char* kKubeconfigUser = "strata-sandbox-admin";
inline constexpr const char* kKubeconfigGroup = "system:masters";

//! Writes `text` to `path` with mode 0600 (it holds a private key) so that readers see the
//! old or the whole new file (a new file beside it renamed over it). False with `error`
//! saying what failed.
bool WritePrivateFile(const std::string& path, const std::string& text, std::string& error);

}  // namespace strata::sandbox
