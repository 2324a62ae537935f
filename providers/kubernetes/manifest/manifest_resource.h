#pragma once
// The one code path every managed Kubernetes type goes through: a manifest planned with a
// server-side dry run, applied with server-side apply under Strata's field manager (the
// ownership rule of server_side_apply.h), waited for (await.h), read back as the part of the
// live object that manager owns, deleted and awaited gone, imported by Terraform's ids.
//
// What differs between kubernetes_manifest and Terraform's typed resources
// (kubernetes_deployment, ...) is only how a state value holds its manifest and the answer:
// the hooks below. Both keep `owned_fields` (the manager's FieldsV1 after the last apply)
// and `id` in state, and may have `field_manager`, `delete_propagation` and `timeouts`.
//
// Crash promise: the object's name is its natural key; an interrupted create is found by
// reading it back, and it is ours when Strata's field manager has an Apply entry on it.

#include <memory>
#include <optional>
#include <string>

#include "engine/value/json.h"
#include "providers/kubernetes/client/kube_session.h"
#include "providers/kubernetes/manifest/readiness.h"
#include "providers/kubernetes/manifest/server_side_apply.h"
#include "providers/resource_type.h"

namespace strata::kubernetes {

class ManifestResource : public ResourceType {
 public:
  explicit ManifestResource(std::shared_ptr<KubeSession> session) : session_(std::move(session)) {}

  CreateRecovery Recovery() const override { return CreateRecovery::NaturalKey; }
  int OrderingClass(const Value& value) const override;
  PlanResult Plan(const OperationContext& ctx, const Value& prior, const Value& proposed,
                  const Value& config) const override;
  ApplyResult Create(const OperationContext& ctx, const Value& planned) override { return Apply(ctx, Value(), planned); }
  ApplyResult Update(const OperationContext& ctx, const Value& prior, const Value& planned) override {
    return Apply(ctx, prior, planned);
  }
  ReadResult Read(const OperationContext& ctx, const Value& prior) override;
  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override;
  ApplyResult Import(const OperationContext& ctx, const std::string& id) override;
  //! A move between two Kubernetes types of the same object (kubernetes_deployment ↔
  //! kubernetes_manifest, kubernetes_deployment → kubernetes_deployment_v1): the source's
  //! manifest, owned fields and last-seen server metadata in this type's attributes, with
  //! `timeouts` and the rollout wait carried; the cluster is not asked. Refused when `from`
  //! is not a Kubernetes type, when this type cannot hold the source's kind, when the
  //! object's identity (apiVersion, kind, namespace, name) would change, or when the source
  //! applies under a field manager this type cannot name.
  MoveResult MoveFrom(const ResourceType* from, const MoveStateRequest& request) const override;

 protected:
  ReadResult FindCreated(const OperationContext& ctx, const Value& planned) override;

  //! The manifest a config, plan or state value describes (it may hold unknowns).
  virtual Value ManifestOf(const Value& v) const = 0;
  //! `v` with the server's answer for the object: `live` (as applied, dry-run or read) and
  //! the part Strata's manager owns, `owned` (OwnedObject of `live` and `fields`).
  virtual Value WithAnswer(Value v, const Json& live, const Json& owned) const = 0;
  //! The state Read makes of `prior` and the object as it is now (the default: WithAnswer).
  virtual Value WithRead(Value prior, const Json& live, const Json& owned) const {
    return WithAnswer(std::move(prior), live, owned);
  }
  //! `planned` with what only the server can tell unknown (the object is planned from the
  //! manifest alone); `prior` is null on create.
  virtual Value WithUnknowns(Value planned, const Value& prior) const = 0;
  //! `planned` with prior's answer (the cluster cannot be asked and the manifest is unchanged).
  virtual Value WithPriorAnswer(Value planned, const Value& prior) const = 0;
  //! The state of an imported object before WithAnswer: the arguments that describe `live`.
  virtual Value ImportedArguments(const Json& live) const = 0;
  //! The arguments of this type that describe `manifest` (a move's target), before
  //! WithAnswer; `rollout` is whether the source waited for rollouts.
  virtual Value MovedArguments(const Json& manifest, const Json& seen, bool rollout) const = 0;
  //! The object as state `v` last saw it, for a move: at least the manifest, with the
  //! server's metadata where the state keeps it.
  virtual Json LastSeen(const Value& v) const { return ValueToJson(ManifestOf(v).DeepUnmark()); }
  //! Whether this type can hold an object of `ref`'s apiVersion and kind.
  virtual bool Holds(const ObjectRef& ref) const {
    (void)ref;
    return true;
  }
  //! What an apply waits for (errors in `diags`).
  virtual WaitFor WaitOf(const Value& v, Diagnostics& diags) const = 0;
  //! The object's import id, kept as `id` (kubernetes_manifest: "apiVersion=v1,kind=...").
  virtual std::string ImportId(const ObjectRef& ref) const { return ref.Id(); }
  //! The object an import id names.
  virtual base::Result<ObjectRef, std::string> ParseImportId(const std::string& id) const {
    return ParseObjectId(id);
  }
  //! The attribute whose change of the object's identity (group, kind, namespace, name)
  //! replaces it.
  virtual const char* IdentityAttribute() const { return "manifest"; }
  //! `v` marked sensitive where the object holds secrets (kubernetes_manifest: a Secret).
  virtual Value Masked(const ObjectRef& ref, Value v) const {
    (void)ref;
    return v;
  }

  std::shared_ptr<KubeSession> session_;

 private:
  Value WithLiveObject(Value v, const Json& live, const Json& fields, const ObjectRef& ref) const;
  PlanResult& Unknowns(Value planned, const Value& prior, PlanResult& result, const std::string& id = "") const;
  Diagnostics NotSomeoneElses(const OperationContext& ctx, const ObjectRef& ref, const std::string& manager) const;
  std::optional<ObjectRef> ClusterObjectOf(const Value& v, const char* invalid, Diagnostics& diags) const;
  ApplyResult Apply(const OperationContext& ctx, const Value& prior, const Value& planned);
  void ForgetServedKinds(const ApplyOutcome& applied) const;
};

}  // namespace strata::kubernetes
