#pragma once
// CustomResourceDefinitions (apiextensions.k8s.io/v1): the types a CRD adds to the API,
// the checks kube makes before accepting one, and the status the sandbox gives it at once
// (NamesAccepted and Established, as a real API server does a moment later).

#include <string>
#include <vector>

#include "sandbox/kubernetes/kube_status.h"
#include "sandbox/kubernetes/resource_type.h"

namespace strata::sandbox::k8s {

//! One ResourceType per served version of `crd`, the storage version first.
std::vector<ResourceType> TypesOfCrd(const Json& crd);

//! What kube's CRD validation would refuse in `crd` (name = <plural>.<group>, scope,
//! versions with exactly one storage version, names): empty when acceptable.
std::vector<FieldCause> CrdProblems(const Json& crd);

//! `crd` with status.conditions NamesAccepted and Established True, acceptedNames and
//! storedVersions filled, as of `now` (RFC 3339).
Json EstablishCrd(Json crd, const std::string& now);

//! Orders versions as kube does: GA before beta before alpha, higher numbers first.
bool VersionBefore(const std::string& a, const std::string& b);

}  // namespace strata::sandbox::k8s
