#pragma once
// The "kubernetes" provider: objects applied to a cluster with server-side apply. Its block
// holds the connection (config/connection.h): the EKS path (host, cluster_ca_certificate,
// token from data aws_eks_cluster_auth), client certificates, or a kubeconfig context.

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "providers/kubernetes/client/kube_session.h"
#include "providers/typed_provider.h"

namespace strata::kubernetes {

struct KubernetesProviderOptions {
  //! KUBECONFIG as the provider sees it; the default reads the process environment.
  std::function<std::optional<std::string>()> kubeconfig_env;
  RetryPolicy retry;
  //! The HTTP transport for a connection; the default is libcurl's (MakeTransport). Tests
  //! script the server with their own.
  std::function<std::shared_ptr<aws::HttpTransport>(const KubeConnection&)> transport;
};

class KubernetesProvider final : public TypedProvider {
 public:
  explicit KubernetesProvider(KubernetesProviderOptions options = {});
  std::string Name() const override { return "kubernetes"; }
  //! Resolves the connection. A block with values unknown at plan time configures the
  //! provider "deferred" (a warning says so): objects are planned as creates from their
  //! manifests without contacting the cluster.
  Diagnostics Configure(const OperationContext& ctx, const Value& config) override;

 protected:
  ResourceSchema SettingsSchema() const override;
  Diagnostics NotReady() const override;

 private:
  KubernetesProviderOptions options_;
  std::shared_ptr<KubeSession> session_;
};

}  // namespace strata::kubernetes
