#include "sandbox/kubernetes/field_management.h"

#include <optional>

#include "providers/kubernetes/fieldpath/path_element.h"

#include "sandbox/kubernetes/merge/conflict_status.h"
#include "sandbox/kubernetes/merge/openapi_schemas.h"
#include "sandbox/kubernetes/merge/server_side_apply.h"

namespace strata::sandbox::k8s {
namespace {

// The built-in kinds' schemas, from the compiled-in catalog's definitions (swagger's
// format), built on first use.
const OpenApiSchemas& BuiltInSchemas() {
  static const OpenApiSchemas schemas = [] {
    auto loaded = OpenApiSchemas::FromSwagger(Json{{"definitions", ApiCatalog::BuiltIn().definitions()}});
    if (!loaded.ok()) throw std::runtime_error("the API catalog's definitions: " + loaded.error());
    return std::move(loaded).value();
  }();
  return schemas;
}

// The type a write to `type` merges by. Kinds with a status subresource reset status on
// their main resource: it is never recorded there and keeps its live value.
ObjectType TypeOf(const ResourceType& type) {
  const OpenApiSchemas& schemas = BuiltInSchemas();
  ObjectType object_type = type.custom ? schemas.ForCustomResource(type.schema)
                                       : schemas.Lookup(type.definition).value_or(ObjectType::Untyped());
  return type.status_subresource ? object_type.WithStatusReset() : object_type;
}

// `object` with the subresource of `manager`'s Update entries `from` renamed `to` ("": none).
Json MarkEntries(Json object, const std::string& manager, const std::string& from, const std::string& to) {
  if (!object.contains("metadata") || !object["metadata"].contains("managedFields")) return object;
  Json& entries = object["metadata"]["managedFields"];
  if (!entries.is_array()) return object;
  for (Json& entry : entries) {
    if (!entry.is_object() || entry.value("manager", "") != manager || entry.value("operation", "") != "Update" ||
        entry.value("subresource", "") != from)
      continue;
    if (to.empty()) entry.erase("subresource");
    else entry["subresource"] = to;
  }
  return object;
}

}  // namespace

std::string UpdateManager(const std::string& field_manager, const std::string& user_agent) {
  if (!field_manager.empty()) return field_manager;
  std::string program = user_agent.substr(0, user_agent.find('/'));
  return program.empty() ? "unknown" : program;
}

Json RecordUpdateEntry(const ResourceType& type, const Json* live, Json updated, const std::string& manager,
                       const std::string& now, const std::string& subresource) {
  if (subresource != "status" || !type.status_subresource)
    return RecordUpdate(TypeOf(type), live, std::move(updated), manager, type.ApiVersion(), now);
  // The merge library keys Update entries without their subresource: the manager's status
  // entry is named as a main-resource one while it records, then named again.
  const std::string kMain = "(main resource)";
  std::optional<Json> unmarked;
  if (live) unmarked = MarkEntries(MarkEntries(*live, manager, "", kMain), manager, "status", "");
  updated = MarkEntries(MarkEntries(std::move(updated), manager, "", kMain), manager, "status", "");
  kubernetes::fieldpath::Set spec;
  spec.Insert(kubernetes::fieldpath::MakeFieldPath({"spec"}));
  ObjectType status_type = (type.custom ? BuiltInSchemas().ForCustomResource(type.schema)
                                        : BuiltInSchemas().Lookup(type.definition).value_or(ObjectType::Untyped()))
                               .WithResetFields(std::move(spec));
  Json recorded = RecordUpdate(status_type, unmarked ? &*unmarked : nullptr, std::move(updated), manager,
                               type.ApiVersion(), now);
  return MarkEntries(MarkEntries(std::move(recorded), manager, "", "status"), manager, kMain, "");
}

Json ServerSideApply(const ResourceType& type, const Json* live, const Json& config, const std::string& manager,
                     bool force, const std::string& now) {
  ApplyOutcome outcome = ServerSideApply(TypeOf(type), live, config, manager, force, now);
  if (!outcome.error.empty()) throw BadRequest(outcome.error);
  if (!outcome.conflicts.empty()) throw KubeError(ConflictStatus(outcome.conflicts));
  return std::move(outcome.object);
}

}  // namespace strata::sandbox::k8s
