#pragma once
// Server-side apply and the managedFields bookkeeping of other writes, as kube-apiserver
// does them (structured-merge-diff's merge.Updater plus kube's field manager layers:
// stripped metadata, reset fields, before-first-apply). The three calls the sandbox's
// Kubernetes API makes: ServerSideApply for PATCH application/apply-patch+yaml,
// RecordUpdate for every other write (create, PUT, merge/JSON/strategic patch), and
// ConflictStatus (conflict_status.h) for the 409 body.
//
// Objects are JSON objects as stored (metadata.managedFields included). Nothing here reads
// a clock: the caller passes "now" as RFC 3339 ("2024-08-13T10:00:00Z").

#include <string>
#include <vector>

#include "providers/kubernetes/fieldpath/path_element.h"
#include "sandbox/kubernetes/merge/object_type.h"

namespace strata::sandbox::k8s {

//! A field the applied configuration would change that another manager owns.
struct Conflict {
  std::string manager;
  std::string operation;  // "Apply" or "Update"
  std::string api_version;
  std::string subresource;  // "" for the main resource
  std::string time;         // the other entry's time; "" when it has none
  kubernetes::fieldpath::Path path;
};

//! What an apply produced: the object to store, or why not.
struct ApplyOutcome {
  //! The merged object, metadata.managedFields updated (valid when ok()).
  Json object;
  //! Whether the object differs from the live one, managedFields not counted (false on a
  //! create only when the config is empty).
  bool changed = false;
  //! Non-empty: a 409 Conflict (ConflictStatus builds the body). Sorted by manager, then in
  //! each manager's path order.
  std::vector<Conflict> conflicts;
  //! Non-empty: the request is invalid (400 BadRequest), e.g. it sets metadata.managedFields.
  std::string error;

  bool ok() const { return error.empty() && conflicts.empty(); }
};

//! Applies `config` (a partial object: apiVersion, kind, metadata.name and the fields the
//! manager has an opinion about) for `manager` onto `live` (nullptr: the object does not
//! exist yet and is created).
//!
//! - The merge follows `type`; the manager's Apply entry becomes exactly the fields of
//!   `config` (stripped metadata and reset fields excepted), apiVersion config's, its time
//!   `now` when the object changed (kept otherwise).
//! - A field config changes (value differs, or newly set) that another entry owns is a
//!   conflict, unless `force`, which moves it to the applier. Setting the value a field
//!   already has makes the applier a co-owner.
//! - Fields the manager applied last time and no longer applies are removed when no other
//!   entry owns them (released otherwise).
//! - A live object without managedFields first gets a "before-first-apply" Update entry
//!   owning all it has, as kube-apiserver does.
//! - Reset fields (ObjectType::reset_fields, e.g. status) keep the live value.
ApplyOutcome ServerSideApply(const ObjectType& type, const Json* live, const Json& config, const std::string& manager,
                             bool force, const std::string& now);

//! The managedFields of a non-apply write: `updated` (the full new object) with an Update
//! entry for (`manager`, `api_version`) owning every field the write added or changed — taken
//! from the other entries — added to what that entry owned before; fields the write removed
//! are released by everyone. The entry's time becomes `now` when the write changed anything.
//!
//! Which managedFields the write starts from: `updated`'s own when it carries a non-empty,
//! valid list (a client may edit them); none when it is exactly `[{}]` (the reset); the
//! live object's otherwise (absent or `[]`: clients that do not know the field must not
//! erase it). `live` nullptr: a create.
Json RecordUpdate(const ObjectType& type, const Json* live, Json updated, const std::string& manager,
                  const std::string& api_version, const std::string& now);

}  // namespace strata::sandbox::k8s
