#pragma once
// What every kubernetes resource and data source type shares once the provider is
// configured: the API client and its discovery cache, the default namespace — or the fact
// that the cluster cannot be asked yet because the provider block's values are unknown at
// plan time (the cluster is made in this stage, or by an earlier stage not yet applied).

#include <memory>
#include <string>

#include "providers/kubernetes/client/api_client.h"
#include "providers/kubernetes/client/discovery.h"

namespace strata::kubernetes {

struct KubeSession {
  std::unique_ptr<ApiClient> client;
  std::unique_ptr<Discovery> discovery;
  std::string default_namespace = "default";
  //! The provider block had unknown values: plans are made from the manifests alone.
  bool deferred = false;
  bool configured = false;

  //! True when the cluster can be asked (configured and not deferred).
  bool Reachable() const { return configured && !deferred && client != nullptr; }
};

}  // namespace strata::kubernetes
