#include "providers/kubernetes/manifest/server_side_apply.h"

#include <thread>

#include <fmt/format.h>

#include "providers/kubernetes/manifest/owned_fields.h"

namespace strata::kubernetes {
namespace {

ApplyFailure Failure(ApplyProblem problem, std::string summary, std::string detail, bool outcome_unknown = false) {
  return ApplyFailure{problem, std::move(summary), std::move(detail), outcome_unknown};
}

// "conflict with \"kubectl-edit\" using apps/v1" → "kubectl-edit".
std::string ManagerOf(const StatusCause& cause) {
  auto open = cause.message.find('"');
  auto close = open == std::string::npos ? open : cause.message.find('"', open + 1);
  if (close == std::string::npos) return cause.message;
  return cause.message.substr(open + 1, close - open - 1);
}

std::string ConflictDetail(const ObjectRef& ref, const ApiError& error, const std::string& manager) {
  std::string fields;
  for (const StatusCause& c : error.causes) {
    if (c.type != "FieldManagerConflict") continue;
    fields += fmt::format("\n  - {}: {}", c.field, c.message);
  }
  return fmt::format(
      "Applying {} as field manager \"{}\" would change fields another field manager owns:{}\n"
      "Strata never applied these fields, so it does not take them over silently. Either remove them from the "
      "manifest (the other manager keeps them), set them to the live values (shared ownership), or set "
      "field_manager.force_conflicts = true to take them over.",
      ref.Describe(), manager, fields);
}

// Sends the apply PATCH; `force` as decided by the caller.
ApiResult<Json> SendApply(KubeSession& session, const OperationContext& ctx, const ApplyRequest& request,
                          const ResourceInfo& resource, const ObjectRef& ref, const Json& body, bool force) {
  ApiRequest call;
  call.method = "PATCH";
  call.path = ObjectPath(resource, ref.namespace_name, ref.name);
  call.query = {{"fieldManager", request.field_manager}, {"fieldValidation", "Strict"}};
  if (force) call.query.emplace_back("force", "true");
  if (request.dry_run) call.query.emplace_back("dryRun", "All");
  call.content_type = "application/apply-patch+yaml";  // JSON is YAML
  call.body = body.dump();
  call.idempotent = true;  // applying the same configuration twice changes nothing more
  return session.client->Call(ctx, call);
}

bool IsNamespaceMissing(const ApiError& error, const ObjectRef& ref) {
  return error.IsNotFound() && error.details_kind == "namespaces" && !ref.namespace_name.empty();
}

}  // namespace

Json ManagerFields(const Json& object, const std::string& manager) {
  const Json* entries = nullptr;
  if (object.contains("metadata") && object["metadata"].contains("managedFields")) {
    entries = &object["metadata"]["managedFields"];
  }
  if (entries == nullptr || !entries->is_array()) return nullptr;
  for (const Json& e : *entries) {
    if (e.value("manager", "") == manager && e.value("operation", "") == "Apply" && !e.contains("subresource")) {
      return e.value("fieldsV1", Json());
    }
  }
  return nullptr;
}

ObjectRef WithNamespace(const KubeSession& session, ObjectRef ref, const ResourceInfo& resource) {
  if (!resource.namespaced) {
    ref.namespace_name.clear();
  } else if (ref.namespace_name.empty()) {
    ref.namespace_name = session.default_namespace;
  }
  return ref;
}

std::optional<ResourceInfo> ResourceFor(KubeSession& session, const OperationContext& ctx, const ObjectRef& ref,
                                        std::chrono::milliseconds patience, ApiError& error) {
  auto until = OperationContext::Clock::now() + patience;
  while (true) {
    auto found = session.discovery->Find(ctx, ref.api_version, ref.kind);
    if (!found.ok()) {
      error = found.error();
      return std::nullopt;
    }
    if (*found || OperationContext::Clock::now() >= until || ctx.Cancelled() || ctx.DeadlinePassed()) return *found;
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
}

ApplyAnswer ServerSideApply(KubeSession& session, const OperationContext& ctx, const ApplyRequest& request) {
  auto ref = RefOf(request.manifest);
  if (!ref.ok()) return Failure(ApplyProblem::Failed, "Invalid Kubernetes manifest", ref.error());
  ApiError discovery_error;
  // A real apply waits a little for a kind whose CRD was just applied; a plan does not.
  auto patience = request.dry_run ? std::chrono::milliseconds(0) : std::chrono::milliseconds(30000);
  std::optional<ResourceInfo> resource = ResourceFor(session, ctx, *ref, patience, discovery_error);
  if (!resource) {
    if (discovery_error.http_status != 0 || !discovery_error.message.empty()) {
      return Failure(ApplyProblem::Failed, "Kubernetes discovery failed",
                     fmt::format("Looking up the kind of {}: {}", ref->Describe(), discovery_error.Describe()));
    }
    return Failure(ApplyProblem::TypeNotServed, "Kind not served by the cluster",
                   fmt::format("The cluster does not serve kind \"{}\" in \"{}\" (for {}). If its "
                               "CustomResourceDefinition is applied in this run it is planned from the manifest; "
                               "otherwise check apiVersion and kind (`kubectl api-resources`).",
                               ref->kind, ref->api_version, ref->Describe()));
  }
  ObjectRef target = WithNamespace(session, *ref, *resource);
  Json body = request.manifest;
  if (resource->namespaced) {
    body["metadata"]["namespace"] = target.namespace_name;
  } else if (body["metadata"].contains("namespace")) {
    body["metadata"].erase("namespace");
  }

  ApiResult<Json> answer = SendApply(session, ctx, request, *resource, target, body, request.force_conflicts);
  // A namespace made by another resource of this apply may still be on its way: a real apply
  // waits for it as long as for a kind.
  auto until = OperationContext::Clock::now() + patience;
  while (!answer.ok() && IsNamespaceMissing(answer.error(), target) && OperationContext::Clock::now() < until &&
         !ctx.Cancelled() && !ctx.DeadlinePassed()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    answer = SendApply(session, ctx, request, *resource, target, body, request.force_conflicts);
  }
  std::vector<std::string> taken_back;
  if (!answer.ok() && answer.error().IsFieldManagerConflict()) {
    // Drift on fields Strata owned before is taken back; anything else is the user's call.
    std::set<std::string> owned = FieldPaths(request.owned_before);
    for (const StatusCause& c : answer.error().causes) {
      if (c.type != "FieldManagerConflict") continue;
      if (!owned.count(c.field)) {
        return Failure(ApplyProblem::Conflict, "Field manager conflict",
                       ConflictDetail(target, answer.error(), request.field_manager));
      }
      taken_back.push_back(fmt::format("{} (changed by \"{}\")", c.field, ManagerOf(c)));
    }
    answer = SendApply(session, ctx, request, *resource, target, body, /*force=*/true);
  }
  if (!answer.ok()) {
    const ApiError& e = answer.error();
    if (IsNamespaceMissing(e, target)) {
      return Failure(ApplyProblem::NamespaceMissing, "Namespace not found",
                     fmt::format("The namespace \"{}\" of {} does not exist. Create it first (a Namespace "
                                 "manifest in this stage is applied before the objects in it).",
                                 target.namespace_name, target.Describe()));
    }
    return Failure(ApplyProblem::Failed, "Kubernetes apply failed",
                   fmt::format("Server-side apply of {}{} failed: {}", target.Describe(),
                               request.dry_run ? " (dry run)" : "", e.Describe()),
                   e.outcome_unknown);
  }
  return ApplyOutcome{*answer, target, *resource, std::move(taken_back)};
}

}  // namespace strata::kubernetes
