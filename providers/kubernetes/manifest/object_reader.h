#pragma once
// Reading objects from the cluster for kubernetes_manifest's refresh, import and recovery and
// for the kubernetes_resource(s) data sources: the kind resolved by discovery (a kind the
// server does not serve is an error, never "not found"), then one GET or one LIST.

#include <optional>
#include <string>

#include "engine/diag/diagnostic.h"
#include "providers/kubernetes/client/kube_session.h"
#include "providers/kubernetes/client/object_ref.h"

namespace strata::kubernetes {

//! The live object, nullopt when it does not exist; errors go to `diags`. When
//! `kind_not_served` is given, a kind the server does not serve sets it (and is an error too).
std::optional<Json> ReadObject(KubeSession& session, const OperationContext& ctx, const ObjectRef& ref,
                               Diagnostics& diags, bool* kind_not_served = nullptr);

struct ListQuery {
  std::string api_version;
  std::string kind;
  std::string namespace_name;  //!< empty: every namespace (namespaced kinds)
  std::string label_selector;
  std::string field_selector;
  int limit = 0;  //!< 0: all (pages followed)
};

//! The items the query selects, in the server's order; errors go to `diags`.
std::optional<Json> ListObjects(KubeSession& session, const OperationContext& ctx, const ListQuery& query,
                                Diagnostics& diags);

}  // namespace strata::kubernetes
