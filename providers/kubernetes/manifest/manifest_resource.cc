// ManifestResource: plan with a server-side dry run, apply, wait, read, delete, import and
// find an interrupted create — for every managed Kubernetes type (manifest_resource.h).
//
// Plan asks the server (dryRun=All) when it can, so defaults, validation errors and conflicts
// appear at plan time; when the cluster cannot be asked yet (the provider's settings are
// unknown), the kind is not served yet (its CRD comes in this apply) or the namespace does
// not exist yet, the object is planned from the manifest alone.

#include "providers/kubernetes/manifest/manifest_resource.h"

#include <chrono>

#include <fmt/format.h>

#include "engine/value/json.h"
#include "providers/kubernetes/manifest/await.h"
#include "providers/kubernetes/manifest/object_reader.h"
#include "providers/kubernetes/manifest/ordering.h"
#include "providers/kubernetes/manifest/owned_fields.h"

namespace strata::kubernetes {
namespace {

using namespace attrs;

struct ManagerSettings {
  std::string name = "strata";
  bool force_conflicts = false;
};

ManagerSettings ManagerOf(const Value& v) {
  ManagerSettings m;
  Value fm = Get(v, "field_manager");
  if (fm.IsNull() || !fm.IsKnown()) return m;
  m.name = GetString(fm, "name", "strata");
  m.force_conflicts = GetBool(fm, "force_conflicts", false);
  return m;
}

Json ParseFields(const Value& v) {
  std::string text = GetString(v, "owned_fields");
  if (text.empty()) return nullptr;
  Json j = Json::parse(text, nullptr, false);
  return j.is_discarded() ? Json(nullptr) : j;
}

// The identity that cannot change in place: group, kind, namespace, name.
std::string Identity(const ObjectRef& r) {
  return SplitApiVersion(r.api_version).first + "/" + r.kind + "/" + r.namespace_name + "/" + r.name;
}

Diagnostics Diag(const std::string& summary, const std::string& detail, bool warning = false) {
  Diagnostics d;
  if (warning) {
    d.Warning(summary, detail);
  } else {
    d.Error(summary, detail);
  }
  return d;
}

Diagnostics NotConnected() {
  return Diag("Kubernetes cluster not reachable",
              "The kubernetes provider's settings were not known when it was configured; they must be known "
              "when objects are applied, read or deleted.");
}

}  // namespace

int ManifestResource::OrderingClass(const Value& value) const {
  Value manifest = ManifestOf(value);
  Value api_version = Get(manifest, "apiVersion"), kind = Get(manifest, "kind");
  if (!api_version.IsKnown() || !kind.IsKnown() || !api_version.IsString() || !kind.IsString()) {
    return OrderingClassOf("", "");  // not known yet: among the custom resources
  }
  return OrderingClassOf(SplitApiVersion(api_version.AsString()).first, kind.AsString());
}

// `v` with what the cluster answered: the part of `live` that `fields` (Strata's manager's
// FieldsV1) covers, those fields, and the object's id.
Value ManifestResource::WithLiveObject(Value v, const Json& live, const Json& fields, const ObjectRef& ref) const {
  v = WithAnswer(v, live, OwnedObject(live, fields));
  v = With(v, "owned_fields", Value::String(fields.is_null() ? "{}" : fields.dump()));
  return With(v, "id", Value::String(ImportId(ref)));
}

PlanResult ManifestResource::Plan(const OperationContext& ctx, const Value& prior, const Value& proposed,
                                  const Value& config) const {
  PlanResult result;
  if (proposed.IsNull()) return result;  // destroy
  Value manifest = ManifestOf(proposed);
  Value planned = proposed;
  if (!manifest.IsWhollyKnown()) return Unknowns(planned, prior, result);
  Json manifest_json = ValueToJson(manifest);
  auto ref = RefOf(manifest_json);
  if (!ref.ok()) {
    result.diags = Diag("Invalid Kubernetes manifest", ref.error());
    return result;
  }
  if (!prior.IsNull()) {
    auto before = RefOf(ValueToJson(ManifestOf(prior)));
    if (before.ok() && Identity(*before) != Identity(*ref)) {
      result.requires_replace.push_back(AttrPath::Of(IdentityAttribute()));
    }
  }
  bool replacing = !result.requires_replace.empty();
  if (!session_->Reachable()) {
    if (!prior.IsNull() && !replacing && ManifestOf(prior).Equals(manifest)) {
      planned = WithPriorAnswer(planned, prior);
      planned = With(planned, "owned_fields", Get(prior, "owned_fields"));
      planned = With(planned, "id", Get(prior, "id"));
      result.planned = Masked(*ref, planned);
      return result;
    }
    return Unknowns(planned, prior, result, ImportId(*ref));
  }
  ManagerSettings manager = ManagerOf(config);
  if (prior.IsNull()) {
    result.diags = NotSomeoneElses(ctx, *ref, manager.name);
    if (result.diags.HasErrors()) return result;
  }
  ApplyRequest request{manifest_json, manager.name, manager.force_conflicts,
                       replacing ? Json() : ParseFields(prior), /*dry_run=*/true};
  ApplyAnswer answer = ServerSideApply(*session_, ctx, request);
  if (!answer.ok()) {
    const ApplyFailure& f = answer.error();
    if (f.problem == ApplyProblem::TypeNotServed || f.problem == ApplyProblem::NamespaceMissing) {
      ctx.Log(LogLevel::Info, ctx.address + ": planned from the manifest alone: " + f.detail);
      return Unknowns(planned, prior, result, ImportId(*ref));
    }
    result.diags = Diag(f.summary, f.detail);
    return result;
  }
  if (!answer->taken_back.empty()) {
    std::string fields;
    for (const std::string& f : answer->taken_back) fields += "\n  - " + f;
    result.diags = Diag("Changed outside Strata",
                        fmt::format("Fields Strata applied to {} were changed by another field manager; apply puts "
                                    "them back:{}",
                                    answer->ref.Describe(), fields),
                        /*warning=*/true);
  }
  planned = WithLiveObject(planned, answer->object, ManagerFields(answer->object, manager.name), answer->ref);
  result.planned = Masked(*ref, planned);
  return result;
}

ReadResult ManifestResource::Read(const OperationContext& ctx, const Value& prior) {
  ReadResult result;
  if (!session_->Reachable()) {
    result.state = prior;
    return result;
  }
  auto ref = RefOf(ValueToJson(ManifestOf(prior)));
  if (!ref.ok()) {
    result.diags = Diag("Invalid Kubernetes manifest in state", ref.error());
    return result;
  }
  auto live = ReadObject(*session_, ctx, *ref, result.diags);
  if (result.diags.HasErrors()) return result;
  if (!live) {
    result.gone = true;
    return result;
  }
  Json owned = UnionFields(ManagerFields(*live, ManagerOf(prior).name), ParseFields(prior));
  result.state = Masked(*ref, WithRead(prior, *live, OwnedObject(*live, owned)));
  return result;
}

DeleteResult ManifestResource::Delete(const OperationContext& ctx, const Value& prior) {
  DeleteResult result;
  std::optional<ObjectRef> ref = ClusterObjectOf(prior, "Invalid Kubernetes manifest in state", result.diags);
  if (!ref) return result;
  ApiError error;
  auto resource = ResourceFor(*session_, ctx, *ref, std::chrono::milliseconds(0), error);
  if (!resource) {
    if (error.http_status != 0 || !error.message.empty()) {
      result.diags = Diag("Kubernetes discovery failed", error.Describe());
    } else {
      result.diags = Diag("Kind no longer served",
                          fmt::format("The cluster no longer serves {} {} (its CustomResourceDefinition was "
                                      "deleted?), so {} cannot exist any more: nothing to delete.",
                                      ref->api_version, ref->kind, ref->Describe()),
                          /*warning=*/true);
    }
    return result;
  }
  ObjectRef target = WithNamespace(*session_, *ref, *resource);
  std::string propagation = GetString(prior, "delete_propagation", "Background");
  ApiRequest call;
  call.method = "DELETE";
  call.path = ObjectPath(*resource, target.namespace_name, target.name);
  call.content_type = "application/json";
  call.body = Json{{"kind", "DeleteOptions"}, {"apiVersion", "v1"}, {"propagationPolicy", propagation}}.dump();
  auto answer = session_->client->Call(ctx, call);
  if (!answer.ok() && !answer.error().IsNotFound()) {
    result.diags = Diag("Kubernetes delete failed", fmt::format("Deleting {}: {}", target.Describe(), answer.error().Describe()));
    return result;
  }
  AwaitGone(*session_, ctx, *resource, target, ParseTimeouts(Get(prior, "timeouts"), result.diags).remove,
            result.diags);
  return result;
}

// A namespaced object written without a namespace lives in "default" (Terraform's typed
// resources write it; a kubernetes_manifest may leave it out).
namespace {
bool MovedSameObject(const ObjectRef& a, const ObjectRef& b) {
  auto ns = [](const std::string& n) { return n.empty() ? std::string("default") : n; };
  return a.api_version == b.api_version && a.kind == b.kind && a.name == b.name &&
         ns(a.namespace_name) == ns(b.namespace_name);
}
}  // namespace

MoveResult ManifestResource::MoveFrom(const ResourceType* from_type, const MoveStateRequest& request) const {
  MoveResult result;
  const auto* from = dynamic_cast<const ManifestResource*>(from_type);
  if (from == nullptr) {
    result.diags = CannotMoveAcrossTypes(
        request, "only the Kubernetes types (kubernetes_manifest and the typed kubernetes_* resources) hold a "
                 "Kubernetes object");
    return result;
  }
  const Value& prior = request.from_state;
  Value manifest = from->ManifestOf(prior);
  if (!prior.IsMapping() || !manifest.IsWhollyKnown()) {
    result.diags = CannotMoveAcrossTypes(request, "its state holds no complete manifest (apply it first)");
    return result;
  }
  Json manifest_json = ValueToJson(manifest.DeepUnmark());
  auto ref = RefOf(manifest_json);
  if (!ref.ok()) {
    result.diags = CannotMoveAcrossTypes(request, "its state holds no valid manifest: " + ref.error());
    return result;
  }
  if (!Holds(*ref)) {
    result.diags = CannotMoveAcrossTypes(
        request, fmt::format("it holds {} {}, which {} does not", ref->api_version, ref->kind, request.to_type));
    return result;
  }
  std::string manager = ManagerOf(prior).name;
  if (manager != "strata" && !Schema().attributes.count("field_manager")) {
    result.diags = CannotMoveAcrossTypes(
        request, fmt::format("it applies under field manager \"{}\" and {} applies as \"strata\" (remove "
                             "field_manager from its configuration and apply before moving)",
                             manager, request.to_type));
    return result;
  }
  Json seen = from->LastSeen(prior);
  Diagnostics wait_diags;  // a wait in state was valid when it was applied
  Value state = MovedArguments(manifest_json, seen, from->WaitOf(prior, wait_diags).rollout);
  // The object as this type names it (a typed resource writes the namespace "default").
  auto moved = RefOf(ValueToJson(ManifestOf(state).DeepUnmark()));
  if (!moved.ok() || !MovedSameObject(*ref, *moved)) {
    result.diags = CannotMoveAcrossTypes(
        request, fmt::format("it holds {}, which {} would hold as {}", ref->Describe(), request.to_type,
                             moved.ok() ? moved->Describe() : moved.error()));
    return result;
  }
  state = WithLiveObject(state, seen, ParseFields(prior), *moved);
  if (!Get(prior, "timeouts").IsNull()) state = With(state, "timeouts", Get(prior, "timeouts"));
  result.state = Masked(*moved, Normalize(CachedSchema(), state));
  return result;
}

ApplyResult ManifestResource::Import(const OperationContext& ctx, const std::string& id) {
  ApplyResult result;
  if (!session_->Reachable()) {
    result.diags = NotConnected();
    return result;
  }
  auto ref = ParseImportId(id);
  if (!ref.ok()) {
    result.diags = Diag("Invalid import id", ref.error());
    return result;
  }
  auto live = ReadObject(*session_, ctx, *ref, result.diags);
  if (result.diags.HasErrors()) return result;
  if (!live) {
    result.diags = Diag("Object not found", fmt::format("{} does not exist in the cluster.", ref->Describe()));
    return result;
  }
  Value state = WithLiveObject(ImportedArguments(*live), *live, ManagerFields(*live, "strata"), *ref);
  result.state = Masked(*ref, Normalize(CachedSchema(), state));
  return result;
}

ReadResult ManifestResource::FindCreated(const OperationContext& ctx, const Value& planned) {
  ReadResult result;
  std::optional<ObjectRef> ref = ClusterObjectOf(planned, "Invalid Kubernetes manifest", result.diags);
  if (!ref) return result;
  auto live = ReadObject(*session_, ctx, *ref, result.diags);
  if (result.diags.HasErrors()) return result;
  if (!live) {
    result.gone = true;
    return result;
  }
  std::string manager = ManagerOf(planned).name;
  Json fields = ManagerFields(*live, manager);
  if (fields.is_null()) {
    result.not_ours = true;
    result.diags = Diag("Object exists but Strata did not apply it",
                        fmt::format("{} exists, but field manager \"{}\" never applied it: it was made by someone "
                                    "else. Strata will not take it over: delete it (kubectl delete) if it is a "
                                    "leftover, or name this object differently. (Its import id: {}.)",
                                    ref->Describe(), manager, ImportId(*ref)));
    return result;
  }
  result.state = WithLiveObject(planned, *live, fields, *ref);
  return result;
}

PlanResult& ManifestResource::Unknowns(Value planned, const Value& prior, PlanResult& result,
                                       const std::string& id) const {
  planned = WithUnknowns(planned, prior);
  planned = With(planned, "owned_fields", Value::Unknown());
  planned = With(planned, "id", id.empty() ? (prior.IsNull() ? Value::Unknown() : Get(prior, "id")) : Value::String(id));
  result.planned = planned;
  return result;
}

// A create must not take over an object someone else made (server-side apply would
// merge into it silently): an object at the name is fine only when Strata's manager
// applied it (a create whose answer was lost, or state that was reset).
Diagnostics ManifestResource::NotSomeoneElses(const OperationContext& ctx, const ObjectRef& ref,
                                              const std::string& manager) const {
  Diagnostics diags;
  bool not_served = false;
  std::optional<Json> live = ReadObject(*session_, ctx, ref, diags, &not_served);
  if (not_served) return {};  // a kind not served yet (its CRD comes in this apply) has no objects
  if (diags.HasErrors()) return diags;
  if (!live || !ManagerFields(*live, manager).is_null()) return {};
  diags.Error("Object already exists",
              fmt::format("{} already exists in the cluster, made by someone else (field manager \"{}\" never "
                          "applied it). Strata does not take over objects it did not make: delete it if it is a "
                          "leftover, or name this one differently. (Its import id: {}.)",
                          ref.Describe(), manager, ImportId(ref)));
  return diags;
}

// The object `v`'s manifest names, when the cluster can be asked; else nullopt with why in
// `diags` (`invalid` is the summary for a manifest that names no object).
std::optional<ObjectRef> ManifestResource::ClusterObjectOf(const Value& v, const char* invalid,
                                                           Diagnostics& diags) const {
  if (!session_->Reachable()) {
    diags = NotConnected();
    return std::nullopt;
  }
  auto ref = RefOf(ValueToJson(ManifestOf(v)));
  if (!ref.ok()) {
    diags = Diag(invalid, ref.error());
    return std::nullopt;
  }
  return *ref;
}

ApplyResult ManifestResource::Apply(const OperationContext& ctx, const Value& prior, const Value& planned) {
  ApplyResult result;
  if (!session_->Reachable()) {
    result.diags = NotConnected();
    return result;
  }
  ManagerSettings manager = ManagerOf(planned);
  Json manifest = ValueToJson(ManifestOf(planned));
  if (prior.IsNull()) {
    auto ref = RefOf(manifest);
    if (ref.ok()) result.diags = NotSomeoneElses(ctx, *ref, manager.name);
    if (result.diags.HasErrors()) return result;
  }
  ApplyRequest request{manifest, manager.name, manager.force_conflicts, ParseFields(prior), /*dry_run=*/false};
  ApplyAnswer answer = ServerSideApply(*session_, ctx, request);
  if (!answer.ok()) {
    result.diags = Diag(answer.error().summary, answer.error().detail);
    result.outcome_unknown = answer.error().outcome_unknown;
    return result;
  }
  ForgetServedKinds(*answer);
  Diagnostics waited;
  WaitFor wait = WaitOf(planned, waited);
  // The state holds the object as last seen: after the wait, its controllers' status
  // writes (a rollout) are in its resourceVersion, so a refresh right after finds nothing.
  Json seen = answer->object;
  if (!wait.Nothing()) {
    Timeouts timeouts = ParseTimeouts(Get(planned, "timeouts"), waited);
    Json ready = AwaitReady(*session_, ctx, answer->resource, answer->ref, wait,
                            prior.IsNull() ? timeouts.create : timeouts.update, waited, answer->object);
    if (ready.is_object()) seen = std::move(ready);
  }
  result.diags = waited;
  Value state = WithLiveObject(planned, seen, ManagerFields(seen, manager.name), answer->ref);
  result.state = Masked(answer->ref, state);
  return result;
}

// A CRD applied just now changes what its group-versions serve.
void ManifestResource::ForgetServedKinds(const ApplyOutcome& applied) const {
  if (applied.ref.kind != "CustomResourceDefinition") return;
  const Json& spec = applied.object.value("spec", Json::object());
  std::string group = spec.value("group", "");
  for (const Json& v : spec.value("versions", Json::array())) {
    session_->discovery->Forget(group + "/" + v.value("name", ""));
  }
}

}  // namespace strata::kubernetes
