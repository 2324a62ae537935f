#pragma once
// Who wrote which fields of an object (metadata.managedFields) and server-side apply: the
// seam between the object verbs and the structured-merge library (sandbox/kubernetes/merge/).
// Every write that is not an apply records an "Update" entry for its field manager; an
// apply merges the applied configuration by the type's schema (the built-in catalog's
// definitions, or the CRD version's openAPIV3Schema).

#include <string>

#include "sandbox/kubernetes/api_catalog.h"
#include "sandbox/kubernetes/kube_status.h"

namespace strata::sandbox::k8s {

//! The field manager of a non-apply write: the `fieldManager` parameter, else the
//! User-Agent's program name ("kubectl" from "kubectl/v1.32.4 (linux/amd64) ..."), as kube
//! derives it.
std::string UpdateManager(const std::string& field_manager, const std::string& user_agent);

//! `updated` with managedFields recording that `manager` wrote the fields it changed
//! relative to `live` (nullptr on create). `subresource` "status" (a write to /status of a
//! kind with a status subresource): the entry records the status fields and is marked
//! subresource "status", as kube keeps a controller's status writes apart.
Json RecordUpdateEntry(const ResourceType& type, const Json* live, Json updated, const std::string& manager,
                       const std::string& now, const std::string& subresource = "");

//! Server-side apply of `config` over `live` (nullptr: the object does not exist yet):
//! the merged object with managedFields. Throws KubeError 409 (kube's FieldManagerConflict
//! Status) on conflicts unless `force`, and 400/422 for configurations apply refuses.
Json ServerSideApply(const ResourceType& type, const Json* live, const Json& config, const std::string& manager,
                     bool force, const std::string& now);

}  // namespace strata::sandbox::k8s
