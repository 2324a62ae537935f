#pragma once
// The object verbs of one cluster's Kubernetes API, for any kind (built-in or CRD):
// get, list (label and field selectors, across namespaces), create, replace (optimistic
// concurrency on resourceVersion), patch (merge, JSON, and strategic read as merge;
// server-side apply), delete (finalizers; a namespace takes its contents with it, a CRD
// its objects), deletecollection, and the status and scale subresources. Watches are not
// served (the server answers them with an empty watch). Server-set metadata (uid,
// resourceVersion, creationTimestamp, generation) and `dryRun=All` on every write.
//
// Runs inside the server's world transaction for one request; failures are thrown as
// KubeError (kube_status.h) and the server rolls the transaction back.

#include <functional>
#include <map>
#include <string>

#include "sandbox/kubernetes/api_types.h"
#include "sandbox/kubernetes/object_store.h"
#include "sandbox/kubernetes/request_path.h"

namespace strata::sandbox::k8s {

struct KubeRequest {
  std::string method;  //!< "GET", "POST", "PUT", "PATCH", "DELETE"
  ResourcePath path;
  std::multimap<std::string, std::string> query;  //!< decoded
  std::string content_type;                       //!< without parameters
  std::string body;
  std::string user_agent;

  //! The query parameter `name`, or "" when absent.
  std::string Query(const std::string& name) const;
};

struct KubeResponse {
  int status = 200;
  Json body;  //!< sent as JSON; a string body is sent as it is, typed `content_type`
  std::string content_type = "text/plain; charset=utf-8";
};

//! What the verbs need from the world beyond the store: the time and fresh uids.
struct ObjectApiContext {
  ObjectStore& store;
  const ApiTypes& types;
  std::string now;                         //!< RFC 3339, for timestamps
  std::function<std::string()> new_uid;    //!< a fresh UUID
  std::function<std::string(size_t)> random_suffix;  //!< generateName's suffix
};

//! Answers one request for a resource path. Throws KubeError.
KubeResponse HandleObjectRequest(ObjectApiContext& ctx, const KubeRequest& request);

//! Creates the namespaces every cluster has (default, kube-system, kube-public,
//! kube-node-lease) when missing.
void EnsureDefaultNamespaces(ObjectApiContext& ctx);

}  // namespace strata::sandbox::k8s
