#pragma once
// metadata.managedFields read and written as kube-apiserver does: one entry per manager
// identity — (manager, operation, subresource) for appliers, the same plus apiVersion for
// Update entries — each with the set of fields it owns. Entries are written sorted as
// Kubernetes sorts them (operation, then time in seconds, manager, apiVersion, subresource);
// entries with an empty set are dropped.

#include <string>
#include <vector>

#include "engine/base/result.h"
#include "providers/kubernetes/fieldpath/set.h"
#include "sandbox/kubernetes/merge/object_type.h"

namespace strata::sandbox::k8s {

struct ManagedFieldsEntry {
  std::string manager;
  std::string operation;  // "Apply" or "Update"
  std::string api_version;
  std::string time;  // RFC 3339; empty when unknown
  std::string subresource;
  kubernetes::fieldpath::Set fields;

  //! The same manager identity (what kube-apiserver keys its entries by).
  bool SameManager(const ManagedFieldsEntry& other) const;
};

//! The entries of object.metadata.managedFields (none when absent). An error when an entry
//! is malformed: an operation other than Apply/Update, a fieldsType other than FieldsV1, or
//! fieldsV1 that does not parse.
base::Result<std::vector<ManagedFieldsEntry>, std::string> DecodeManagedFields(const Json& object);

//! The managedFields array for `entries`: sorted, empty sets dropped, each entry as
//! {manager, operation, apiVersion, time, fieldsType: "FieldsV1", fieldsV1, subresource}
//! (time and subresource only when set).
Json EncodeManagedFields(std::vector<ManagedFieldsEntry> entries);

//! The fields kube-apiserver never records for anyone: apiVersion, kind, metadata itself,
//! and metadata's name, namespace, uid, resourceVersion, generation, creationTimestamp,
//! selfLink, clusterName, managedFields (its stripMetaManager). Removed with
//! Set::Difference, so metadata's other members stay.
const kubernetes::fieldpath::Set& StrippedFields();

}  // namespace strata::sandbox::k8s
