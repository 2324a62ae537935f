#pragma once
// The kubernetes provider block's connection settings (Terraform's kubernetes provider
// names them so), and the connection they come to: the explicit settings alone (the EKS
// path: host, cluster_ca_certificate and a token from data aws_eks_cluster_auth), or a
// kubeconfig context with the explicit settings written over it.
//
// Where a kubeconfig comes from: config_path / config_paths when written, else the
// KUBECONFIG variable. ~/.kube/config is never read unless named: a stage must not reach
// whatever cluster the machine's user last switched to.

#include <optional>
#include <string>
#include <vector>

#include "engine/value/value.h"
#include "providers/kubernetes/config/kubeconfig.h"

namespace strata::kubernetes {

struct ConnectionSettings {
  std::string host;
  std::string cluster_ca_certificate;  // PEM
  std::string token;
  std::string client_certificate;  // PEM
  std::string client_key;          // PEM
  std::string tls_server_name;
  bool insecure = false;
  std::vector<std::string> config_paths;  // config_path first, then config_paths
  std::string config_context;
};

//! Reads the provider block (an object; null when there is none). The caller checks
//! IsWhollyKnown first: a block with unknown values is planned without a cluster.
ConnectionSettings ParseConnectionSettings(const Value& block);

//! The connection: with config paths (or KUBECONFIG, given as `kubeconfig_env`), the
//! context's connection with every explicit setting written over it; otherwise the explicit
//! settings, which then need a host. Without a CA the system's roots are trusted. Problems
//! go to `diags`: no host and no kubeconfig, a kubeconfig that does not load or resolve, a
//! host that is not an http(s) URL.
std::optional<KubeConnection> ResolveConnection(const ConnectionSettings& settings,
                                                const std::optional<std::string>& kubeconfig_env, Diagnostics& diags);

}  // namespace strata::kubernetes
