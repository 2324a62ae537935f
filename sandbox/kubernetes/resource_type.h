#pragma once
// One kind of object the sandbox's Kubernetes API serves at one group/version: what
// discovery says about it and what the object handlers need (scope, verbs, subresources,
// where its schema comes from).

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace strata::sandbox::k8s {

using Json = nlohmann::json;

struct ResourceType {
  std::string group;     //!< "" for the core group
  std::string version;   //!< "v1"
  std::string kind;      //!< "Deployment"
  std::string plural;    //!< "deployments": the resource name in URLs
  std::string singular;  //!< "deployment"
  bool namespaced = true;
  std::vector<std::string> verbs;  //!< kube's verb names, sorted
  std::vector<std::string> short_names;
  std::vector<std::string> categories;
  bool status_subresource = false;  //!< /status served; writes to the object leave status alone
  //! /scale served (autoscaling/v1 Scale over spec.replicas): Deployments, ReplicaSets,
  //! StatefulSets, ReplicationControllers.
  bool scale_subresource = false;
  //! Built-ins: the swagger definition of the kind ("io.k8s.api.apps.v1.Deployment").
  std::string definition;
  //! Custom resources: true, with the CRD version's openAPIV3Schema (null when none).
  bool custom = false;
  Json schema;

  //! "apps/v1", or "v1" for the core group.
  std::string ApiVersion() const { return group.empty() ? version : group + "/" + version; }
  //! "deployments.apps", or "configmaps": how kube names the type in messages.
  std::string GroupResource() const { return group.empty() ? plural : plural + "." + group; }
  bool Allows(const std::string& verb) const {
    for (const std::string& v : verbs)
      if (v == verb) return true;
    return false;
  }
};

}  // namespace strata::sandbox::k8s
