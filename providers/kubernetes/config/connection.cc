#include "providers/kubernetes/config/connection.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "providers/attributes.h"

namespace strata::kubernetes {
namespace {

// Each explicit setting replaces what the kubeconfig context says.
void WriteOver(KubeConnection& c, const ConnectionSettings& s) {
  if (!s.host.empty()) c.server = s.host;
  if (!s.cluster_ca_certificate.empty()) c.ca_pem = s.cluster_ca_certificate;
  if (!s.token.empty()) {
    c.token = s.token;
    c.exec.reset();  // a token written in the block is the credential, not the plugin
  }
  if (!s.client_certificate.empty()) c.client_certificate_pem = s.client_certificate;
  if (!s.client_key.empty()) c.client_key_pem = s.client_key;
  if (!s.tls_server_name.empty()) c.tls_server_name = s.tls_server_name;
  if (s.insecure) c.insecure = true;
}

}  // namespace

ConnectionSettings ParseConnectionSettings(const Value& block) {
  using attrs::GetString;
  ConnectionSettings s;
  s.host = GetString(block, "host");
  s.cluster_ca_certificate = GetString(block, "cluster_ca_certificate");
  s.token = GetString(block, "token");
  s.client_certificate = GetString(block, "client_certificate");
  s.client_key = GetString(block, "client_key");
  s.tls_server_name = GetString(block, "tls_server_name");
  s.config_context = GetString(block, "config_context");
  s.insecure = attrs::GetBool(block, "insecure", false);
  if (std::string path = GetString(block, "config_path"); !path.empty()) s.config_paths.push_back(path);
  for (std::string& path : attrs::GetStringList(block, "config_paths")) {
    if (!path.empty()) s.config_paths.push_back(std::move(path));
  }
  return s;
}

std::optional<KubeConnection> ResolveConnection(const ConnectionSettings& settings,
                                                const std::optional<std::string>& kubeconfig_env, Diagnostics& diags) {
  std::vector<std::string> paths = settings.config_paths;
  bool written = !paths.empty();
  if (!written && settings.host.empty() && kubeconfig_env && !kubeconfig_env->empty()) {
    paths = KubeconfigPaths(kubeconfig_env, "");
  }
  KubeConnection connection;
  if (!paths.empty()) {
    std::optional<Kubeconfig> config = Kubeconfig::Load(paths, written, diags);
    if (!config) return std::nullopt;
    if (config->empty()) {
      diags.Error("Kubeconfig empty",
                  fmt::format("None of the kubeconfig files ({}) exists or defines a context: check KUBECONFIG, or "
                              "set config_path or host in the kubernetes provider block.",
                              fmt::join(paths, ":")));
      return std::nullopt;
    }
    std::optional<KubeConnection> resolved = config->Resolve(settings.config_context, diags);
    if (!resolved) return std::nullopt;
    connection = std::move(*resolved);
  } else if (settings.host.empty()) {
    diags.Error("Kubernetes provider has no connection",
                "Set host (with cluster_ca_certificate and token, e.g. from data aws_eks_cluster and "
                "aws_eks_cluster_auth), or config_path (and config_context) in the kubernetes provider block, or "
                "KUBECONFIG. ~/.kube/config is not read unless named, so that a stage never reaches whichever cluster "
                "the machine last used.");
    return std::nullopt;
  }
  WriteOver(connection, settings);
  if (connection.server.rfind("https://", 0) != 0 && connection.server.rfind("http://", 0) != 0) {
    diags.Error("Invalid Kubernetes host",
                fmt::format("\"{}\" is not an https:// URL: write the API server's address, e.g. the endpoint of "
                            "data aws_eks_cluster.",
                            connection.server));
    return std::nullopt;
  }
  return connection;
}

}  // namespace strata::kubernetes
