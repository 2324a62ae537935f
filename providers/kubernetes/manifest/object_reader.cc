#include "providers/kubernetes/manifest/object_reader.h"

#include <fmt/format.h>

#include "providers/kubernetes/manifest/server_side_apply.h"

namespace strata::kubernetes {
namespace {

// The resource serving `api_version`/`kind`, or an error in `diags` naming `what`.
std::optional<ResourceInfo> ServedResource(KubeSession& session, const OperationContext& ctx, const ObjectRef& ref,
                                           const std::string& what, Diagnostics& diags, bool* not_served = nullptr) {
  ApiError error;
  auto resource = ResourceFor(session, ctx, ref, std::chrono::milliseconds(0), error);
  if (resource) return resource;
  if (error.http_status != 0 || !error.message.empty()) {
    diags.Error("Kubernetes discovery failed", fmt::format("Looking up the kind of {}: {}", what, error.Describe()));
  } else {
    if (not_served) *not_served = true;
    diags.Error("Kind not served by the cluster",
                fmt::format("The cluster does not serve kind \"{}\" in \"{}\" (for {}): check apiVersion and kind "
                            "(`kubectl api-resources`); if its CustomResourceDefinition was deleted outside Strata, "
                            "remove what Strata made of it from state (`strata state rm`).",
                            ref.kind, ref.api_version, what));
  }
  return std::nullopt;
}

}  // namespace

std::optional<Json> ReadObject(KubeSession& session, const OperationContext& ctx, const ObjectRef& ref,
                               Diagnostics& diags, bool* kind_not_served) {
  auto resource = ServedResource(session, ctx, ref, ref.Describe(), diags, kind_not_served);
  if (!resource) return std::nullopt;
  ObjectRef target = WithNamespace(session, ref, *resource);
  auto answer = session.client->Call(ctx, GetRequest(ObjectPath(*resource, target.namespace_name, target.name)));
  if (answer.ok()) return *answer;
  if (answer.error().IsNotFound()) return std::nullopt;
  diags.Error("Kubernetes read failed", fmt::format("Reading {}: {}", target.Describe(), answer.error().Describe()));
  return std::nullopt;
}

std::optional<Json> ListObjects(KubeSession& session, const OperationContext& ctx, const ListQuery& query,
                                Diagnostics& diags) {
  ObjectRef ref{query.api_version, query.kind, query.namespace_name, ""};
  std::string what = fmt::format("{} {}", query.api_version, query.kind);
  auto resource = ServedResource(session, ctx, ref, what, diags);
  if (!resource) return std::nullopt;
  ApiRequest list;
  ResourceInfo collection = *resource;
  if (query.namespace_name.empty()) collection.namespaced = false;  // across namespaces: no namespace segment
  list.path = CollectionPath(collection, query.namespace_name);
  Json items = Json::array();
  std::string next;
  do {
    list.query.clear();
    if (!query.label_selector.empty()) list.query.emplace_back("labelSelector", query.label_selector);
    if (!query.field_selector.empty()) list.query.emplace_back("fieldSelector", query.field_selector);
    if (query.limit > 0) list.query.emplace_back("limit", std::to_string(query.limit - int(items.size())));
    if (!next.empty()) list.query.emplace_back("continue", next);
    auto answer = session.client->Call(ctx, list);
    if (!answer.ok()) {
      diags.Error("Kubernetes list failed", fmt::format("Listing {}: {}", what, answer.error().Describe()));
      return std::nullopt;
    }
    for (const Json& item : answer->value("items", Json::array())) items.push_back(item);
    next = answer->value("metadata", Json::object()).value("continue", "");
  } while (!next.empty() && (query.limit == 0 || int(items.size()) < query.limit));
  return items;
}

}  // namespace strata::kubernetes
