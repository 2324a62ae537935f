#pragma once
// The kubernetes provider wired to a FakeTransport, as the provider-level tests use it: no
// KUBECONFIG, every connection to the fake, quick retries; and discovery's answer for
// apps/v1 (deployments).

#include <chrono>
#include <memory>

#include "fake_transport.h"
#include "providers/kubernetes/kubernetes_provider.h"

namespace strata::kubernetes::testing {

inline KubernetesProviderOptions FakeClusterOptions(std::shared_ptr<FakeTransport> server) {
  KubernetesProviderOptions o;
  o.kubeconfig_env = [] { return std::nullopt; };
  o.make_transport = [server](const KubeConnection&) { return server; };
  o.retry.base_delay = std::chrono::milliseconds(1);
  return o;
}

inline constexpr const char* kAppsV1Resources = R"({"kind":"APIResourceList","groupVersion":"apps/v1","resources":[
  {"name":"deployments","namespaced":true,"kind":"Deployment","verbs":["create","get","patch","delete"]}]})";

}  // namespace strata::kubernetes::testing
