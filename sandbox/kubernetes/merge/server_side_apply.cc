#include "sandbox/kubernetes/merge/server_side_apply.h"

#include <algorithm>

#include "sandbox/kubernetes/merge/managed_fields.h"
#include "sandbox/kubernetes/merge/typed_value.h"

namespace strata::sandbox::k8s {
namespace {

using fieldpath::Path;
using fieldpath::Set;

constexpr const char* kBeforeFirstApply = "before-first-apply";

Json WithoutManagedFields(Json object) {
  if (auto metadata = object.find("metadata"); metadata != object.end() && metadata->is_object()) {
    metadata->erase("managedFields");
  }
  return object;
}

void SetManagedFields(Json& object, std::vector<ManagedFieldsEntry> entries) {
  Json encoded = EncodeManagedFields(std::move(entries));
  if (!object["metadata"].is_object()) object["metadata"] = Json::object();
  if (encoded.empty()) {
    object["metadata"].erase("managedFields");
  } else {
    object["metadata"]["managedFields"] = std::move(encoded);
  }
}

// The value at a path of field names, or nullptr.
const Json* FindFieldPath(const Json& object, const Path& path) {
  const Json* node = &object;
  for (const auto& element : path) {
    if (element.kind() != fieldpath::PathElement::Kind::kField || !node->is_object()) return nullptr;
    auto it = node->find(element.field());
    if (it == node->end()) return nullptr;
    node = &*it;
  }
  return node;
}

// Puts the live values of the reset fields back (what the resource's strategy does after
// the merge): only field-name paths, which is all kube's reset fields are.
void RestoreResetFields(const ObjectType& type, const Json* live, Json& merged) {
  type.reset_fields().Iterate([&](const Path& path) {
    Json* parent = &merged;
    for (size_t i = 0; i + 1 < path.size(); ++i) {
      if (path[i].kind() != fieldpath::PathElement::Kind::kField || !parent->is_object()) return;
      parent = &(*parent)[path[i].field()];
    }
    if (path.back().kind() != fieldpath::PathElement::Kind::kField || !parent->is_object()) return;
    const Json* before = live ? FindFieldPath(*live, path) : nullptr;
    if (before) {
      (*parent)[path.back().field()] = *before;
    } else {
      parent->erase(path.back().field());
    }
  });
}

// structured-merge-diff's Updater.update for everyone but `self`: fields the write changed
// or added are conflicts (taken away when forced), fields it removed are released. Returns
// the conflicts; entries are only changed when there are none or `force`.
std::vector<Conflict> TakeChangedFields(std::vector<ManagedFieldsEntry>& entries, const ManagedFieldsEntry& self,
                                        const Comparison& comparison, bool force) {
  const Set changed = comparison.modified.Union(comparison.added);
  std::vector<Conflict> conflicts;
  std::vector<Set> conflict_sets(entries.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    if (entries[i].SameManager(self)) continue;
    conflict_sets[i] = entries[i].fields.Intersection(changed);
    conflict_sets[i].Iterate([&](const Path& path) {
      conflicts.push_back(Conflict{entries[i].manager, entries[i].operation, entries[i].api_version,
                                   entries[i].subresource, entries[i].time, path});
    });
  }
  if (!conflicts.empty() && !force) {
    std::stable_sort(conflicts.begin(), conflicts.end(),
                     [](const Conflict& a, const Conflict& b) { return a.manager < b.manager; });
    return conflicts;
  }
  for (size_t i = 0; i < entries.size(); ++i) {
    if (entries[i].SameManager(self)) continue;
    entries[i].fields = entries[i].fields.Difference(conflict_sets[i]).Difference(comparison.removed);
  }
  return {};
}

// The entry of `self`'s identity, added (with no fields) when missing.
ManagedFieldsEntry& EntryFor(std::vector<ManagedFieldsEntry>& entries, const ManagedFieldsEntry& self) {
  for (ManagedFieldsEntry& entry : entries) {
    if (entry.SameManager(self)) return entry;
  }
  return entries.emplace_back(self);
}

std::string ApiVersionOf(const Json& object) {
  auto it = object.find("apiVersion");
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The ownership of an Update by `manager`: what changed from `before` to `after`.
// Returns whether the manager's entry gained fields.
bool RecordChanges(const ObjectType& type, const Json* before, const Json& after, std::vector<ManagedFieldsEntry>& entries,
                   const ManagedFieldsEntry& self) {
  Comparison comparison = Compare(type.root(), before, &after);
  const Set& reset = type.reset_fields();
  comparison.added = comparison.added.RecursiveDifference(reset);
  comparison.modified = comparison.modified.RecursiveDifference(reset);
  comparison.removed = comparison.removed.RecursiveDifference(reset);
  TakeChangedFields(entries, self, comparison, /*force=*/true);
  // Newly present struct fields are not recorded as members (kube's typed objects always
  // have them): only what ToFieldSet would list.
  const Set owned = comparison.modified.Union(comparison.added)
                        .Intersection(ToFieldSet(type.root(), after))
                        .Difference(StrippedFields());
  ManagedFieldsEntry& entry = EntryFor(entries, self);
  entry.fields = entry.fields.Difference(comparison.removed).Union(owned);
  return !owned.Empty();
}

bool IsResetRequest(const Json& object) {
  const Json* list = FindFieldPath(object, fieldpath::MakeFieldPath({"metadata", "managedFields"}));
  return list && list->is_array() && list->size() == 1 && (*list)[0].is_object() && (*list)[0].empty();
}

}  // namespace

ApplyOutcome ServerSideApply(const ObjectType& type, const Json* live, const Json& config, const std::string& manager,
                             bool force, const std::string& now) {
  ApplyOutcome outcome;
  if (!config.is_object()) {
    outcome.error = "the applied configuration must be an object";
    return outcome;
  }
  if (const Json* managed = FindFieldPath(config, fieldpath::MakeFieldPath({"metadata", "managedFields"}));
      managed && !managed->is_null()) {
    outcome.error = "metadata.managedFields must be nil";
    return outcome;
  }
  std::vector<ManagedFieldsEntry> entries;
  if (live) {
    auto decoded = DecodeManagedFields(*live);
    if (!decoded.ok()) {
      outcome.error = "failed to decode managed fields: " + decoded.error();
      return outcome;
    }
    entries = std::move(*decoded);
  }
  const Json live_object = live ? WithoutManagedFields(*live) : Json::object();
  if (live && entries.empty()) {
    // An object nobody owns yet (created before managedFields, or reset): its content
    // becomes the "before-first-apply" manager's, so the first applier meets conflicts.
    ManagedFieldsEntry before{kBeforeFirstApply, "Update", ApiVersionOf(live_object), now, "", {}};
    RecordChanges(type, nullptr, live_object, entries, before);
  }

  ManagedFieldsEntry self{manager, "Apply", ApiVersionOf(config), now, "", {}};
  Json merged = Merge(type.root(), live_object, config);
  DropNulls(merged);
  const Set applied = ToFieldSet(type.root(), config).RecursiveDifference(type.reset_fields());

  // Fields this manager applied before and no longer applies go unless someone owns them.
  const ManagedFieldsEntry* previous = nullptr;
  for (const ManagedFieldsEntry& entry : entries) {
    if (entry.SameManager(self)) previous = &entry;
  }
  const bool had_entry = previous != nullptr;
  if (previous && !previous->fields.Empty()) {
    Set owned = applied;
    for (const ManagedFieldsEntry& entry : entries) {
      if (!entry.SameManager(self)) owned = owned.Union(entry.fields);
    }
    RemoveReleased(type.root(), merged, previous->fields, owned);
  }
  RestoreResetFields(type, live, merged);

  Comparison comparison = Compare(type.root(), live ? &live_object : nullptr, &merged);
  comparison.added = comparison.added.RecursiveDifference(type.reset_fields());
  comparison.modified = comparison.modified.RecursiveDifference(type.reset_fields());
  comparison.removed = comparison.removed.RecursiveDifference(type.reset_fields());
  outcome.conflicts = TakeChangedFields(entries, self, comparison, force);
  if (!outcome.conflicts.empty()) return outcome;

  outcome.changed = !live || merged != live_object;
  ManagedFieldsEntry& entry = EntryFor(entries, self);
  entry.fields = applied.Difference(StrippedFields());
  entry.api_version = self.api_version;
  if (outcome.changed || !had_entry || entry.time.empty()) entry.time = now;
  SetManagedFields(merged, std::move(entries));
  outcome.object = std::move(merged);
  return outcome;
}

Json RecordUpdate(const ObjectType& type, const Json* live, Json updated, const std::string& manager,
                  const std::string& api_version, const std::string& now) {
  std::vector<ManagedFieldsEntry> entries;
  if (!IsResetRequest(updated)) {
    auto own = DecodeManagedFields(updated);
    if (own.ok() && !own->empty()) {
      entries = std::move(*own);
    } else if (live) {
      auto from_live = DecodeManagedFields(*live);
      if (from_live.ok()) entries = std::move(*from_live);
    }
  }
  const Json live_object = live ? WithoutManagedFields(*live) : Json();
  updated = WithoutManagedFields(std::move(updated));

  ManagedFieldsEntry self{manager, "Update", api_version, "", "", {}};
  std::string previous_time;
  for (const ManagedFieldsEntry& entry : entries) {
    if (entry.SameManager(self)) previous_time = entry.time;
  }
  const bool gained = RecordChanges(type, live ? &live_object : nullptr, updated, entries, self);
  EntryFor(entries, self).time = gained ? now : previous_time;
  SetManagedFields(updated, std::move(entries));
  return updated;
}

}  // namespace strata::sandbox::k8s
