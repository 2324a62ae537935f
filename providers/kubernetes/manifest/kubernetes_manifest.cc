// kubernetes_manifest: one Kubernetes object of any kind (Terraform's name), applied with
// server-side apply under Strata's field manager.
//
// State: `manifest` as written; `object`, the part of the live object Strata's manager owns
// (so a field another manager owns never shows as drift, and a field Strata owns that
// someone changed does); `owned_fields`, that manager's FieldsV1 after the last apply (the
// fields whose conflicts are drift to take back); `id`, the import id.
//
// Plan asks the server (dryRun=All) when it can, so defaults, validation errors and conflicts
// appear at plan time; when the cluster cannot be asked yet (the provider's settings are
// unknown), the kind is not served yet (its CRD comes in this apply) or the namespace does
// not exist yet, the object is planned from the manifest alone.
//
// Crash promise: the object's name is its natural key; an interrupted create is found by
// reading it back, and it is ours when Strata's field manager has an Apply entry on it.

#include <chrono>

#include <fmt/format.h>

#include "engine/value/json.h"
#include "providers/kubernetes/manifest/await.h"
#include "providers/kubernetes/manifest/manifest_types.h"
#include "providers/kubernetes/manifest/object_reader.h"
#include "providers/kubernetes/manifest/ordering.h"
#include "providers/kubernetes/manifest/owned_fields.h"
#include "providers/kubernetes/manifest/server_side_apply.h"

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

// A Secret's manifest and object hold its data: marked sensitive so plans, logs and
// outputs mask them.
Value MaskSecret(const ObjectRef& ref, Value v) {
  if (ref.kind != "Secret" || !SplitApiVersion(ref.api_version).first.empty()) return v;
  return v.MarkSensitive();
}

// The live object as a manifest for import: what the server sets is left out.
Json ManifestFromLive(Json live) {
  live.erase("status");
  if (live.contains("metadata")) {
    Json& m = live["metadata"];
    for (const char* key : {"managedFields", "uid", "resourceVersion", "generation", "creationTimestamp",
                            "deletionTimestamp", "deletionGracePeriodSeconds", "selfLink"}) {
      m.erase(key);
    }
    if (m.contains("annotations")) {
      m["annotations"].erase("kubectl.kubernetes.io/last-applied-configuration");
      if (m["annotations"].empty()) m.erase("annotations");
    }
  }
  return live;
}

// `v` with what the cluster answered: the part of `live` that `fields` (Strata's manager's
// FieldsV1) covers, those fields, and the object's id.
Value WithLiveObject(Value v, const Json& live, const Json& fields, const ObjectRef& ref) {
  v = With(v, "object", JsonToValue(OwnedObject(live, fields)));
  v = With(v, "owned_fields", Value::String(fields.is_null() ? "{}" : fields.dump()));
  return With(v, "id", Value::String(ref.Id()));
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

class KubernetesManifest : public ResourceType {
 public:
  explicit KubernetesManifest(std::shared_ptr<KubeSession> session) : session_(std::move(session)) {}

  ResourceSchema Schema() const override {
    return ManagedSchema(
        "kubernetes_manifest",
        {{"manifest", Required("any")},
         {"field_manager", Optional("object({name=optional(string), force_conflicts=optional(bool)})")},
         {"delete_propagation", Optional("string")},
         {"wait", Optional("any")},
         {"timeouts", Optional("object({create=optional(string), update=optional(string), delete=optional(string)})")},
         {"object", Computed("any")},
         {"owned_fields", Computed("string")}});
  }

  CreateRecovery Recovery() const override { return CreateRecovery::NaturalKey; }

  int OrderingClass(const Value& value) const override {
    Value manifest = Get(value, "manifest");
    Value api_version = Get(manifest, "apiVersion"), kind = Get(manifest, "kind");
    if (!api_version.IsKnown() || !kind.IsKnown() || !api_version.IsString() || !kind.IsString()) {
      return OrderingClassOf("", "");  // not known yet: among the custom resources
    }
    return OrderingClassOf(SplitApiVersion(api_version.AsString()).first, kind.AsString());
  }
  std::vector<std::string> RecoveryKey() const override { return {"manifest"}; }

  Diagnostics Validate(const Value& config) const override {
    Value manifest = Get(config, "manifest");
    if (manifest.IsWhollyKnown() && !manifest.IsNull()) {
      auto ref = RefOf(ValueToJson(manifest));
      if (!ref.ok()) return Diag("Invalid Kubernetes manifest", ref.error());
      if (ValueToJson(manifest)["metadata"].contains("managedFields")) {
        return Diag("Invalid Kubernetes manifest", "metadata.managedFields is the server's: remove it from the manifest.");
      }
    }
    Diagnostics diags;
    ParseWait(Get(config, "wait"), diags);
    ParseTimeouts(Get(config, "timeouts"), diags);
    if (diags.HasErrors()) return diags;
    std::string propagation = GetString(config, "delete_propagation");
    if (!propagation.empty() && propagation != "Background" && propagation != "Foreground" && propagation != "Orphan") {
      return Diag("Invalid delete_propagation", "delete_propagation must be Background (the default), Foreground or Orphan, not \"" + propagation + "\".");
    }
    return {};
  }

  PlanResult Plan(const OperationContext& ctx, const Value& prior, const Value& proposed,
                  const Value& config) const override {
    PlanResult result;
    if (proposed.IsNull()) return result;  // destroy
    Value manifest = Get(proposed, "manifest");
    Value planned = proposed;
    if (!manifest.IsWhollyKnown()) return Unknowns(planned, prior, result);
    Json manifest_json = ValueToJson(manifest);
    auto ref = RefOf(manifest_json);
    if (!ref.ok()) {
      result.diags = Diag("Invalid Kubernetes manifest", ref.error());
      return result;
    }
    if (!prior.IsNull()) {
      auto before = RefOf(ValueToJson(Get(prior, "manifest")));
      if (before.ok() && Identity(*before) != Identity(*ref)) result.requires_replace.push_back(AttrPath::Of("manifest"));
    }
    bool replacing = !result.requires_replace.empty();
    if (!session_->Reachable()) {
      if (!prior.IsNull() && !replacing && Get(prior, "manifest").Equals(manifest)) {
        planned = With(planned, "object", Get(prior, "object"));
        planned = With(planned, "owned_fields", Get(prior, "owned_fields"));
        planned = With(planned, "id", Get(prior, "id"));
        result.planned = MaskSecret(*ref, planned);
        return result;
      }
      return Unknowns(planned, prior, result, ref->Id());
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
        return Unknowns(planned, prior, result, ref->Id());
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
    result.planned = MaskSecret(*ref, planned);
    return result;
  }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override { return Apply(ctx, Value(), planned); }

  ApplyResult Update(const OperationContext& ctx, const Value& prior, const Value& planned) override {
    return Apply(ctx, prior, planned);
  }

  ReadResult Read(const OperationContext& ctx, const Value& prior) override {
    ReadResult result;
    if (!session_->Reachable()) {
      result.state = prior;
      return result;
    }
    Json manifest = ValueToJson(Get(prior, "manifest"));
    auto ref = RefOf(manifest);
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
    result.state = With(prior, "object", JsonToValue(OwnedObject(*live, owned)));
    result.state = MaskSecret(*ref, result.state);
    return result;
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
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

  ApplyResult Import(const OperationContext& ctx, const std::string& id) override {
    ApplyResult result;
    if (!session_->Reachable()) {
      result.diags = NotConnected();
      return result;
    }
    auto ref = ParseObjectId(id);
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
    Value state = Value::Object({{"manifest", JsonToValue(ManifestFromLive(*live))}});
    state = WithLiveObject(state, *live, ManagerFields(*live, "strata"), *ref);
    result.state = MaskSecret(*ref, Normalize(Schema(), state));
    return result;
  }

 protected:
  ReadResult FindCreated(const OperationContext& ctx, const Value& planned) override {
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
                                      ref->Describe(), manager, ref->Id()));
      return result;
    }
    result.state = WithLiveObject(planned, *live, fields, *ref);
    return result;
  }

 private:
  PlanResult& Unknowns(Value planned, const Value& prior, PlanResult& result, const std::string& id = "") const {
    planned = With(planned, "object", Value::Unknown());
    planned = With(planned, "owned_fields", Value::Unknown());
    planned = With(planned, "id", id.empty() ? (prior.IsNull() ? Value::Unknown() : Get(prior, "id")) : Value::String(id));
    result.planned = planned;
    return result;
  }

  // A create must not take over an object someone else made (server-side apply would
  // merge into it silently): an object at the name is fine only when Strata's manager
  // applied it (a create whose answer was lost, or state that was reset).
  Diagnostics NotSomeoneElses(const OperationContext& ctx, const ObjectRef& ref, const std::string& manager) const {
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
                            ref.Describe(), manager, ref.Id()));
    return diags;
  }

  // The object `v`'s manifest names, when the cluster can be asked; else nullopt with why in
  // `diags` (`invalid` is the summary for a manifest that names no object).
  std::optional<ObjectRef> ClusterObjectOf(const Value& v, const char* invalid, Diagnostics& diags) const {
    if (!session_->Reachable()) {
      diags = NotConnected();
      return std::nullopt;
    }
    auto ref = RefOf(ValueToJson(Get(v, "manifest")));
    if (!ref.ok()) {
      diags = Diag(invalid, ref.error());
      return std::nullopt;
    }
    return *ref;
  }

  static Diagnostics NotConnected() {
    return Diag("Kubernetes cluster not reachable",
                "The kubernetes provider's settings were not known when it was configured; they must be known "
                "when objects are applied, read or deleted.");
  }

  ApplyResult Apply(const OperationContext& ctx, const Value& prior, const Value& planned) {
    ApplyResult result;
    if (!session_->Reachable()) {
      result.diags = NotConnected();
      return result;
    }
    ManagerSettings manager = ManagerOf(planned);
    Json manifest = ValueToJson(Get(planned, "manifest"));
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
    WaitFor wait = ParseWait(Get(planned, "wait"), waited);
    if (!wait.Nothing()) {
      Timeouts timeouts = ParseTimeouts(Get(planned, "timeouts"), waited);
      AwaitReady(*session_, ctx, answer->resource, answer->ref, wait, prior.IsNull() ? timeouts.create : timeouts.update,
                 waited, answer->object);
    }
    result.diags = waited;
    Value state = WithLiveObject(planned, answer->object, ManagerFields(answer->object, manager.name), answer->ref);
    result.state = MaskSecret(answer->ref, state);
    return result;
  }

  // A CRD applied just now changes what its group-versions serve.
  void ForgetServedKinds(const ApplyOutcome& applied) const {
    if (applied.ref.kind != "CustomResourceDefinition") return;
    const Json& spec = applied.object.value("spec", Json::object());
    std::string group = spec.value("group", "");
    for (const Json& v : spec.value("versions", Json::array())) {
      session_->discovery->Forget(group + "/" + v.value("name", ""));
    }
  }

  std::shared_ptr<KubeSession> session_;
};

}  // namespace

std::unique_ptr<ResourceType> NewKubernetesManifest(std::shared_ptr<KubeSession> session) {
  return std::make_unique<KubernetesManifest>(std::move(session));
}

}  // namespace strata::kubernetes
