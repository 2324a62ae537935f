#pragma once
// What happens to one object of one type as it is created, changed and deleted, whatever
// verb asked for it: kube's server-set metadata (uid, resourceVersion, creationTimestamp,
// generation, a namespace's status, a CRD's conditions), the checks of the object's
// metadata (name rules, namespace exists and is not terminating, resourceVersion
// preconditions), finalizers, and what a deletion takes with it (a namespace's contents, a
// CRD's objects). Writes nothing under dry run.

#include <string>

#include "sandbox/kubernetes/object_api.h"

namespace strata::sandbox::k8s {

class ObjectLifecycle {
 public:
  ObjectLifecycle(ObjectApiContext& ctx, const ResourceType& type) : ctx_(ctx), type_(type) {}

  //! A stored object as this type's version serves it (apiVersion and kind restated).
  Json AsServed(Json stored) const;

  //! Creates `object` in `url_namespace`; `manager` writes it (its managedFields already
  //! recorded when `applied`). Returns the object as stored. Throws KubeError.
  Json Create(Json object, const std::string& url_namespace, const std::string& manager, bool applied, bool dry_run);

  //! Replaces `live` by `next` (`subresource` "status" or ""): status kept from `live` on
  //! main-resource writes of kinds with a status subresource, resourceVersion checked,
  //! generation advanced when anything outside metadata and status changed. A write that
  //! changes nothing is answered with `live`, unwritten. Removing the last finalizer of an
  //! object being deleted deletes it.
  Json Update(const Json& live, Json next, const std::string& manager, const std::string& subresource, bool dry_run,
              bool applied = false);

  //! Deletes `live`: marked (deletionTimestamp) while it has finalizers, else erased with
  //! what it owns. Returns the object as last seen.
  Json Delete(Json live, bool dry_run);

 private:
  void CheckKind(const Json& object) const;
  void CheckNamespace(const std::string& ns, const std::string& name) const;
  void Validate(const Json& object) const;
  bool UsesGeneration() const;
  void Erase(const Json& object);
  //! Erases a namespace being deleted once nothing is left in it.
  void FinishNamespace(const std::string& ns);
  bool NamespaceEmpty(const std::string& ns) const;
  void DeleteNamespaceContents(const std::string& ns);

  ObjectApiContext& ctx_;
  const ResourceType& type_;
};

}  // namespace strata::sandbox::k8s
