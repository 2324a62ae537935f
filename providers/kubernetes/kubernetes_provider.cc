#include "providers/kubernetes/kubernetes_provider.h"

#include <cstdlib>

#include "providers/kubernetes/client/credential_source.h"
#include "providers/kubernetes/config/connection.h"
#include "providers/kubernetes/manifest/manifest_types.h"
#include "providers/kubernetes/typed/typed_types.h"

namespace strata::kubernetes {

using attrs::Error;
using attrs::Optional;

namespace {

std::optional<std::string> ProcessKubeconfigEnv() {
  const char* v = std::getenv("KUBECONFIG");
  return v ? std::optional<std::string>(v) : std::nullopt;
}

}  // namespace

KubernetesProvider::KubernetesProvider(KubernetesProviderOptions options)
    : options_(std::move(options)), session_(std::make_shared<KubeSession>()) {
  if (!options_.kubeconfig_env) options_.kubeconfig_env = ProcessKubeconfigEnv;
  if (!options_.processes) options_.processes = PosixProcessRunner();
  if (!options_.clock) options_.clock = std::make_shared<base::SystemClock>();
  if (!options_.make_transport) options_.make_transport = MakeTransport;
  Add(NewKubernetesManifest(session_));
  for (auto& typed : NewKubernetesTypedResources(session_)) Add(std::move(typed));
  Add(NewKubernetesResourceData(session_));
  Add(NewKubernetesResourcesData(session_));
}

ResourceSchema KubernetesProvider::SettingsSchema() const {
  ResourceSchema s;
  s.type = "kubernetes";
  s.mode = ResourceMode::Managed;
  s.attributes = {
      {"host", Optional("string")},
      {"cluster_ca_certificate", Optional("string")},
      {"token", Optional("string")},
      {"client_certificate", Optional("string")},
      {"client_key", Optional("string")},
      {"tls_server_name", Optional("string")},
      {"insecure", Optional("bool")},
      {"config_path", Optional("string")},
      {"config_paths", Optional("list(string)")},
      {"config_context", Optional("string")},
  };
  s.attributes["token"].sensitive = true;
  s.attributes["client_key"].sensitive = true;
  return s;
}

Diagnostics KubernetesProvider::NotReady() const {
  if (session_->configured) return {};
  return Error("Provider not configured", "The kubernetes provider was used before Configure.");
}

Diagnostics KubernetesProvider::Configure(const OperationContext& ctx, const Value& config) {
  Diagnostics diags;
  if (!config.IsNull() && !config.IsWhollyKnown()) {
    session_->deferred = true;
    session_->configured = true;
    diags.Warning("Kubernetes cluster not known yet",
                  "The kubernetes provider's settings depend on values known only after apply (the cluster is "
                  "made in this stage, or by an earlier stage not applied yet): its objects are planned as "
                  "creates from their manifests alone, without asking the cluster for defaults or validation.");
    return diags;
  }
  ConnectionSettings settings = ParseConnectionSettings(config);
  std::optional<KubeConnection> connection = ResolveConnection(settings, options_.kubeconfig_env(), diags);
  if (!connection) return diags;
  if (!connection->tls_server_name.empty()) {
    diags.Error("tls_server_name is not supported yet",
                "Strata cannot yet check the API server's certificate against a name other than the host's: "
                "remove tls_server_name and use a host name the certificate names.");
    return diags;
  }
  ClientAuth auth;
  auth.make_transport = options_.make_transport;
  bool own_credentials = !connection->token.empty() || !connection->client_certificate_pem.empty();
  if (connection->exec && !own_credentials) {
    auto plugin = std::make_shared<ExecCredentialSource>(*connection->exec, *connection, options_.processes,
                                                         options_.clock);
    auto first = plugin->Get(ctx);
    if (!first) {
      diags.Error("Kubernetes credentials not available",
                  "The kubeconfig context \"" + connection->context + "\" gets its credentials from a command: " +
                      first.error());
      return diags;
    }
    connection->client_certificate_pem = first->client_certificate_pem;
    connection->client_key_pem = first->client_key_pem;
    auth.credentials = std::move(plugin);
  }
  session_->default_namespace = connection->namespace_name.empty() ? "default" : connection->namespace_name;
  auto transport = options_.make_transport(*connection);
  session_->client = std::make_unique<ApiClient>(*connection, transport, options_.retry, std::move(auth));
  session_->discovery = std::make_unique<Discovery>(*session_->client);
  session_->configured = true;
  return diags;
}

}  // namespace strata::kubernetes
