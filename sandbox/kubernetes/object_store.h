#pragma once
// Where one cluster's Kubernetes objects live: the sandbox World, kind "k8s:<cluster>", id
// "<group>/<resource>/<namespace>/<name>" (namespace empty for cluster-scoped objects),
// objects stored as served (metadata included). Also the cluster's resourceVersion
// counter, a world setting, so versions only grow across restarts.
//
// Like the World, used inside the server's transaction for one request.

#include <optional>
#include <string>
#include <vector>

#include "sandbox/kubernetes/resource_type.h"
#include "sandbox/world.h"

namespace strata::sandbox::k8s {

class ObjectStore {
 public:
  ObjectStore(World& world, std::string cluster) : world_(world), cluster_(std::move(cluster)) {}

  const std::string& cluster() const { return cluster_; }
  std::optional<Json> Get(const ResourceType& type, const std::string& ns, const std::string& name) const;
  //! Objects of `type` (any version: stored by group and resource), in namespace `ns` or,
  //! with `ns` empty, in every namespace; by namespace, then name (kube's key order).
  std::vector<Json> List(const ResourceType& type, const std::string& ns) const;
  //! List's objects in every namespace whose text member at `json_path` ("$.spec.type")
  //! is `value`: what a controller watching a few of many objects reads on every request.
  std::vector<Json> ListWhere(const ResourceType& type, const std::string& json_path, const std::string& value) const;
  void Put(const ResourceType& type, const Json& object);
  bool Erase(const ResourceType& type, const std::string& ns, const std::string& name);
  //! Objects of group/plural regardless of the version they were written through.
  std::vector<Json> ListResource(const std::string& group, const std::string& plural, const std::string& ns) const;
  bool EraseResource(const std::string& group, const std::string& plural, const std::string& ns,
                     const std::string& name);

  //! The next resourceVersion of the cluster ("1", "2", ...), recorded.
  std::string NextResourceVersion();
  //! The last resourceVersion given out ("0" before any), for lists.
  std::string CurrentResourceVersion() const;

  //! The controllers' bookkeeping beside the objects (world kind "k8s-controllers:<cluster>"),
  //! small documents by key, never served.
  std::optional<Json> GetRecord(const std::string& key) const;
  void PutRecord(const std::string& key, const Json& record);
  void EraseRecord(const std::string& key);
  std::vector<std::string> RecordKeys() const;

 private:
  std::string Kind() const { return "k8s:" + cluster_; }

  World& world_;
  std::string cluster_;
};

}  // namespace strata::sandbox::k8s
