#pragma once
// The discovery documents, in the legacy (non-aggregated) formats every kubectl reads:
// /version (version.Info), /api (APIVersions), /apis (APIGroupList), /apis/<group>
// (APIGroup), /api/v1 and /apis/<group>/<version> (APIResourceList). kubectl asks for the
// aggregated v2 format first and falls back to these when the answer is plain JSON.

#include <string>

#include "sandbox/kubernetes/api_types.h"

namespace strata::sandbox::k8s {

//! The Kubernetes version the sandbox answers as (the catalog's: v1.31).
Json VersionInfo();
Json ApiVersions();
Json ApiGroupList(const ApiTypes& types);
//! The group's document, or null when the group is not served.
Json ApiGroupDocument(const ApiTypes& types, const std::string& group);
//! The resource list of group/version (group "" for /api/v1), or null when not served.
Json ApiResourceList(const ApiTypes& types, const std::string& group, const std::string& version);

}  // namespace strata::sandbox::k8s
