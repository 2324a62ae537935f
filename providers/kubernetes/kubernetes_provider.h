#pragma once
// The "kubernetes" provider: objects applied to a cluster with server-side apply. Its block
// holds the connection (config/connection.h): the EKS path (host, cluster_ca_certificate,
// token from data aws_eks_cluster_auth), client certificates, or a kubeconfig context —
// whose user may get its credentials from an exec plugin (client/exec_credential.h).

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "engine/base/clock.h"
#include "providers/kubernetes/client/kube_session.h"
#include "providers/process/process_runner.h"
#include "providers/typed_provider.h"

namespace strata::kubernetes {

struct KubernetesProviderOptions {
  //! KUBECONFIG as the provider sees it; the default reads the process environment.
  std::function<std::optional<std::string>()> kubeconfig_env;
  RetryPolicy retry;
  //! Runs exec credential plugins; default posix_spawn (PosixProcessRunner).
  std::shared_ptr<ProcessRunner> processes;
  //! Judges a plugin credential's expiry; default the system clock.
  std::shared_ptr<base::Clock> clock;
  //! Builds the client's transport; default MakeTransport (libcurl). Tests give a fake.
  TransportFactory make_transport;
};

class KubernetesProvider final : public TypedProvider {
 public:
  explicit KubernetesProvider(KubernetesProviderOptions options = {});
  std::string Name() const override { return "kubernetes"; }
  //! Resolves the connection. A block with values unknown at plan time configures the
  //! provider "deferred" (a warning says so): objects are planned as creates from their
  //! manifests without contacting the cluster. A kubeconfig user with an exec plugin (and no
  //! token or client certificate of its own, which win as in client-go) runs the plugin
  //! here once: its failure is this call's error, and a client certificate it gives is the
  //! one the transport presents.
  Diagnostics Configure(const OperationContext& ctx, const Value& config) override;

 protected:
  ResourceSchema SettingsSchema() const override;
  Diagnostics NotReady() const override;

 private:
  KubernetesProviderOptions options_;
  std::shared_ptr<KubeSession> session_;
};

}  // namespace strata::kubernetes
