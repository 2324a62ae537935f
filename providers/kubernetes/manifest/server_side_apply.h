#pragma once
// One server-side apply of a manifest, as kubernetes_manifest plans (dryRun=All) and applies
// it: the object's resource found by discovery, the namespace defaulted, the PATCH sent with
// Strata's field manager — and a conflict with another field manager resolved by the rule
// Strata keeps: a field Strata applied before and someone changed since (kubectl edit, a
// patch) is drift, taken back (force); a field Strata never owned that another manager owns
// is a conflict the user must decide (force_conflicts), never taken silently.

#include <optional>
#include <set>
#include <string>

#include "providers/kubernetes/client/kube_session.h"
#include "providers/kubernetes/client/object_ref.h"

namespace strata::kubernetes {

struct ApplyRequest {
  Json manifest;
  std::string field_manager = "strata";
  bool force_conflicts = false;
  //! The fields Strata's manager owned after the last apply (FieldsV1; null: none), whose
  //! conflicts are drift to take back.
  Json owned_before;
  bool dry_run = false;
};

struct ApplyOutcome {
  //! The object as the server answered (after apply, or as it would be for a dry run).
  Json object;
  ObjectRef ref;  //!< with the namespace as applied
  ResourceInfo resource;
  //! Fields taken back from other managers (drift): ".spec.replicas (kubectl-edit)".
  std::vector<std::string> taken_back;
};

enum class ApplyProblem {
  None,
  TypeNotServed,   //!< discovery does not know the kind (its CRD may come in this apply)
  NamespaceMissing,  //!< the namespace does not exist (it may come in this apply)
  Conflict,        //!< another field manager owns fields Strata never owned
  Failed,          //!< any other refusal or transport failure
};

struct ApplyFailure {
  ApplyProblem problem = ApplyProblem::Failed;
  std::string summary;
  std::string detail;
  bool outcome_unknown = false;
};

using ApplyAnswer = base::Result<ApplyOutcome, ApplyFailure>;

//! Applies (or dry-runs) `request` through `session` (which must be Reachable()).
ApplyAnswer ServerSideApply(KubeSession& session, const OperationContext& ctx, const ApplyRequest& request);

//! The resource serving `ref`'s kind, waiting up to `patience` for it to appear (a CRD applied
//! just before is served once Established). nullopt with `error` empty: not served.
std::optional<ResourceInfo> ResourceFor(KubeSession& session, const OperationContext& ctx, const ObjectRef& ref,
                                        std::chrono::milliseconds patience, ApiError& error);

//! `ref` with the namespace the server will use: the session's default for a namespaced kind
//! that names none; none for a cluster-scoped kind.
ObjectRef WithNamespace(const KubeSession& session, ObjectRef ref, const ResourceInfo& resource);

//! The FieldsV1 of `manager`'s Apply entry in `object`'s managedFields (null when none).
Json ManagerFields(const Json& object, const std::string& manager);

}  // namespace strata::kubernetes
