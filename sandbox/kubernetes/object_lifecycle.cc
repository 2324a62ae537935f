#include "sandbox/kubernetes/object_lifecycle.h"

#include <set>
#include <utility>

#include "sandbox/kubernetes/api_catalog.h"
#include "sandbox/kubernetes/crds.h"
#include "sandbox/kubernetes/field_management.h"
#include "sandbox/kubernetes/kube_status.h"
#include "sandbox/kubernetes/names.h"

namespace strata::sandbox::k8s {
namespace {

constexpr const char* kModified =
    "the object has been modified; please apply your changes to the latest version and try again";

bool IsNamespace(const ResourceType& t) { return t.group.empty() && t.plural == "namespaces"; }
bool IsCrd(const ResourceType& t) {
  return t.group == "apiextensions.k8s.io" && t.plural == "customresourcedefinitions";
}

// The object without what the server manages itself: what a write "changes".
Json Comparable(Json object) {
  if (object.contains("metadata") && object["metadata"].is_object()) {
    object["metadata"].erase("resourceVersion");
    object["metadata"].erase("managedFields");
  }
  return object;
}

// Everything but metadata and status: a change here advances generation.
Json SpecPart(Json object) {
  object.erase("metadata");
  object.erase("status");
  return object;
}

// managedFields without their timestamps.
Json Ownership(const Json& object) {
  Json entries = object["metadata"].value("managedFields", Json::array());
  if (!entries.is_array()) return entries;
  for (Json& entry : entries)
    if (entry.is_object()) entry.erase("time");
  return entries;
}

bool HasFinalizers(const Json& object) {
  const Json& meta = object["metadata"];
  return meta.contains("finalizers") && meta["finalizers"].is_array() && !meta["finalizers"].empty();
}

}  // namespace

Json ObjectLifecycle::AsServed(Json stored) const {
  stored["apiVersion"] = type_.ApiVersion();
  stored["kind"] = type_.kind;
  return stored;
}

void ObjectLifecycle::CheckKind(const Json& object) const {
  std::string api_version = TextAt(object, "apiVersion"), kind = TextAt(object, "kind");
  if (!api_version.empty() && api_version != type_.ApiVersion())
    throw BadRequest("the API version in the data (" + api_version + ") does not match the expected API version (" +
                     type_.ApiVersion() + ")");
  if (!kind.empty() && kind != type_.kind)
    throw BadRequest("the kind in the data (" + kind + ") does not match the expected kind (" + type_.kind + ")");
}

void ObjectLifecycle::CheckNamespace(const std::string& ns, const std::string& name) const {
  if (!type_.namespaced) return;
  const ResourceType* ns_type = ctx_.types.Find("", "v1", "namespaces");
  std::optional<Json> found = ctx_.store.Get(*ns_type, "", ns);
  if (!found) throw NotFound("", "namespaces", ns);
  if ((*found)["metadata"].contains("deletionTimestamp")) throw NamespaceTerminating(type_, name, ns);
}

void ObjectLifecycle::Validate(const Json& object) const {
  const Json& meta = object["metadata"];
  std::string name = TextAt(meta, "name");
  std::vector<FieldCause> causes;
  for (const std::string& problem : NameProblems(NameRuleFor(type_.group, type_.kind), name))
    causes.push_back({"metadata.name", "FieldValueInvalid", "Invalid value: \"" + name + "\": " + problem});
  if (IsCrd(type_))
    for (FieldCause& c : CrdProblems(object)) causes.push_back(std::move(c));
  for (const char* map : {"labels", "annotations"}) {
    if (!meta.contains(map) || meta[map].is_null()) continue;
    bool strings = meta[map].is_object();
    if (strings)
      for (const auto& [k, v] : meta[map].items()) strings = strings && v.is_string();
    if (!strings)
      causes.push_back({std::string("metadata.") + map, "FieldValueInvalid",
                        "Invalid value: \"object\": must be a map of strings"});
  }
  if (!causes.empty()) throw Invalid(type_, name, causes);
}

bool ObjectLifecycle::UsesGeneration() const {
  // As kube's strategies: custom resources and CRDs always; built-in kinds with a spec
  // outside the core group (Deployments, Jobs, ...), and ReplicationControllers in it.
  if (type_.custom) return true;
  if (type_.group.empty()) return type_.kind == "ReplicationController";
  const Json& definitions = ApiCatalog::BuiltIn().definitions();
  auto it = definitions.find(type_.definition);
  return it != definitions.end() && it->contains("properties") && (*it)["properties"].contains("spec");
}

Json ObjectLifecycle::Create(Json object, const std::string& url_namespace, const std::string& manager, bool applied,
                             bool dry_run) {
  CheckKind(object);
  object["apiVersion"] = type_.ApiVersion();
  object["kind"] = type_.kind;
  if (!object.contains("metadata") || !object["metadata"].is_object()) object["metadata"] = Json::object();
  Json& meta = object["metadata"];
  if (type_.namespaced) {
    std::string body_ns = TextAt(meta, "namespace");
    if (!body_ns.empty() && body_ns != url_namespace)
      throw BadRequest("the namespace of the provided object does not match the namespace sent on the request");
    meta["namespace"] = url_namespace;
  } else {
    meta.erase("namespace");
  }
  if (TextAt(meta, "name").empty()) {
    std::string prefix = TextAt(meta, "generateName");
    if (prefix.empty())
      throw Invalid(type_, "", {{"metadata.name", "FieldValueRequired", "Required value: name or generateName is required"}});
    meta["name"] = prefix + ctx_.random_suffix(5);
  }
  std::string name = TextAt(meta, "name");
  CheckNamespace(url_namespace, name);
  Validate(object);
  if (ctx_.store.Get(type_, url_namespace, name)) throw AlreadyExists(type_, name);

  for (const char* server_set : {"uid", "resourceVersion", "creationTimestamp", "deletionTimestamp",
                                 "deletionGracePeriodSeconds", "generation"})
    meta.erase(server_set);
  meta["uid"] = ctx_.new_uid();
  meta["creationTimestamp"] = ctx_.now;
  if (UsesGeneration()) meta["generation"] = 1;
  if (type_.status_subresource && !IsNamespace(type_)) object.erase("status");
  if (IsNamespace(type_)) {  // as kube's admission: before the write is recorded
    meta["labels"] = meta.value("labels", Json::object());
    meta["labels"]["kubernetes.io/metadata.name"] = name;
  }
  if (!applied) object = RecordUpdateEntry(type_, nullptr, std::move(object), manager, ctx_.now);
  // What the server sets itself afterwards (kube's strategies), owned by no manager.
  if (IsNamespace(type_)) {
    object["spec"] = {{"finalizers", {"kubernetes"}}};
    object["status"] = {{"phase", "Active"}};
  }
  if (IsCrd(type_)) object = EstablishCrd(std::move(object), ctx_.now);
  if (dry_run) return object;
  object["metadata"]["resourceVersion"] = ctx_.store.NextResourceVersion();
  ctx_.store.Put(type_, object);
  return object;
}

Json ObjectLifecycle::Update(const Json& live, Json next, const std::string& manager, const std::string& subresource,
                             bool dry_run, bool applied) {
  CheckKind(next);
  next["apiVersion"] = type_.ApiVersion();
  next["kind"] = type_.kind;
  if (!next.contains("metadata") || !next["metadata"].is_object()) next["metadata"] = Json::object();
  Json& meta = next["metadata"];
  const Json& live_meta = live["metadata"];
  std::string name = TextAt(live_meta, "name");

  std::string rv = TextAt(meta, "resourceVersion");
  if (rv.empty() && type_.custom && !applied)
    throw Invalid(type_, name, {{"metadata.resourceVersion", "FieldValueInvalid",
                                 "Invalid value: 0x0: must be specified for an update"}});
  if (!rv.empty() && rv != TextAt(live_meta, "resourceVersion")) throw UpdateConflict(type_, name, kModified);

  // What the server keeps whatever the write says.
  for (const char* kept : {"name", "namespace", "uid", "creationTimestamp", "deletionTimestamp",
                           "deletionGracePeriodSeconds", "generation"}) {
    if (live_meta.contains(kept)) meta[kept] = live_meta[kept];
    else meta.erase(kept);
  }
  if (type_.status_subresource && subresource.empty()) {
    if (live.contains("status")) next["status"] = live["status"];
    else next.erase("status");
  }
  if (IsNamespace(type_)) {
    next["status"] = live.value("status", Json::object());
    meta["labels"] = meta.value("labels", Json::object());
    meta["labels"]["kubernetes.io/metadata.name"] = name;
  }
  if (IsCrd(type_)) {
    Validate(next);
    next = EstablishCrd(std::move(next), ctx_.now);
  } else {
    Validate(next);
  }
  if (live_meta.contains("generation") && SpecPart(live) != SpecPart(next))
    next["metadata"]["generation"] = live_meta["generation"].get<int64_t>() + 1;

  if (!applied) next = RecordUpdateEntry(type_, &live, std::move(next), manager, ctx_.now, subresource);
  // A write that changes neither the object nor who owns what (timestamps aside, as kube
  // ignores them) is no write: no new resourceVersion.
  if (Comparable(next) == Comparable(live) && Ownership(next) == Ownership(live)) return live;
  if (dry_run) return next;
  next["metadata"]["resourceVersion"] = ctx_.store.NextResourceVersion();
  if (next["metadata"].contains("deletionTimestamp") && !HasFinalizers(next)) {
    Erase(next);
    return next;
  }
  ctx_.store.Put(type_, next);
  return next;
}

Json ObjectLifecycle::Delete(Json live, bool dry_run) {
  Json& meta = live["metadata"];
  if (dry_run) {
    if (!meta.contains("deletionTimestamp")) meta["deletionTimestamp"] = ctx_.now;
    return live;
  }
  std::string name = TextAt(meta, "name"), ns = TextAt(meta, "namespace");
  if (IsNamespace(type_)) {
    DeleteNamespaceContents(name);
    if (!NamespaceEmpty(name)) {
      if (!meta.contains("deletionTimestamp")) {
        meta["deletionTimestamp"] = ctx_.now;
        meta["deletionGracePeriodSeconds"] = 0;
        live["status"]["phase"] = "Terminating";
        meta["resourceVersion"] = ctx_.store.NextResourceVersion();
        ctx_.store.Put(type_, live);
      }
      return live;
    }
    Erase(live);
    return live;
  }
  if (HasFinalizers(live)) {
    if (!meta.contains("deletionTimestamp")) {
      meta["deletionTimestamp"] = ctx_.now;
      meta["deletionGracePeriodSeconds"] = 0;
      meta["resourceVersion"] = ctx_.store.NextResourceVersion();
      ctx_.store.Put(type_, live);
    }
    return live;
  }
  Erase(live);
  return live;
}

void ObjectLifecycle::Erase(const Json& object) {
  const Json& meta = object["metadata"];
  std::string name = TextAt(meta, "name"), ns = TextAt(meta, "namespace");
  ctx_.store.Erase(type_, ns, name);
  if (IsCrd(type_)) {
    // The CRD's objects go with it (kube's CRD finalizer deletes them first).
    const Json& spec = object["spec"];
    std::string group = TextAt(spec, "group"), plural = TextAt(spec.value("names", Json::object()), "plural");
    for (const Json& cr : ctx_.store.ListResource(group, plural, ""))
      ctx_.store.EraseResource(group, plural, TextAt(cr["metadata"], "namespace"), TextAt(cr["metadata"], "name"));
  }
  if (type_.namespaced) FinishNamespace(ns);
}

void ObjectLifecycle::FinishNamespace(const std::string& ns) {
  const ResourceType* ns_type = ctx_.types.Find("", "v1", "namespaces");
  std::optional<Json> found = ctx_.store.Get(*ns_type, "", ns);
  if (!found || !(*found)["metadata"].contains("deletionTimestamp") || !NamespaceEmpty(ns)) return;
  ctx_.store.Erase(*ns_type, "", ns);
}

// Each namespaced resource once (all versions of a group/resource share their objects).
template <class Visit>
void ForEachNamespacedResource(const ApiTypes& types, Visit visit) {
  std::set<std::pair<std::string, std::string>> seen;
  for (const ApiGroup& g : types.groups())
    for (const GroupVersion& gv : g.versions)
      for (const ResourceType& r : gv.resources)
        if (r.namespaced && seen.emplace(r.group, r.plural).second && !visit(r)) return;
}

bool ObjectLifecycle::NamespaceEmpty(const std::string& ns) const {
  bool empty = true;
  ForEachNamespacedResource(ctx_.types, [&](const ResourceType& r) {
    empty = ctx_.store.List(r, ns).empty();
    return empty;
  });
  return empty;
}

void ObjectLifecycle::DeleteNamespaceContents(const std::string& ns) {
  ForEachNamespacedResource(ctx_.types, [&](const ResourceType& r) {
    ObjectLifecycle life(ctx_, r);
    for (Json& object : ctx_.store.List(r, ns)) life.Delete(std::move(object), /*dry_run=*/false);
    return true;
  });
}

}  // namespace strata::sandbox::k8s
