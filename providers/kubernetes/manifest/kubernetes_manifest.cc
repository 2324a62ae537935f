// kubernetes_manifest: one Kubernetes object of any kind (Terraform's name), applied with
// server-side apply under Strata's field manager (manifest_resource.h: the code path every
// managed Kubernetes type shares).
//
// State: `manifest` as written; `object`, the part of the live object Strata's manager owns
// (so a field another manager owns never shows as drift, and a field Strata owns that
// someone changed does); `owned_fields`, that manager's FieldsV1 after the last apply (the
// fields whose conflicts are drift to take back); `id`, the import id.

#include "engine/value/json.h"
#include "providers/kubernetes/manifest/await.h"
#include "providers/kubernetes/manifest/manifest_resource.h"
#include "providers/kubernetes/manifest/manifest_types.h"

namespace strata::kubernetes {
namespace {

using namespace attrs;

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


class KubernetesManifest final : public ManifestResource {
 public:
  using ManifestResource::ManifestResource;

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

  std::vector<std::string> RecoveryKey() const override { return {"manifest"}; }

  Diagnostics Validate(const Value& config) const override {
    Value manifest = Get(config, "manifest");
    if (manifest.IsWhollyKnown() && !manifest.IsNull()) {
      auto ref = RefOf(ValueToJson(manifest));
      if (!ref.ok()) return Error("Invalid Kubernetes manifest", ref.error());
      if (ValueToJson(manifest)["metadata"].contains("managedFields")) {
        return Error("Invalid Kubernetes manifest", "metadata.managedFields is the server's: remove it from the manifest.");
      }
    }
    Diagnostics diags;
    ParseWait(Get(config, "wait"), diags);
    ParseTimeouts(Get(config, "timeouts"), diags);
    if (diags.HasErrors()) return diags;
    std::string propagation = GetString(config, "delete_propagation");
    if (!propagation.empty() && propagation != "Background" && propagation != "Foreground" && propagation != "Orphan") {
      return Error("Invalid delete_propagation", "delete_propagation must be Background (the default), Foreground or Orphan, not \"" + propagation + "\".");
    }
    return {};
  }

 protected:
  Value ManifestOf(const Value& v) const override { return Get(v, "manifest"); }
  Value WithAnswer(Value v, const Json& live, const Json& owned) const override {
    (void)live;
    return With(v, "object", JsonToValue(owned));
  }
  Value WithUnknowns(Value planned, const Value& prior) const override {
    (void)prior;
    return With(planned, "object", Value::Unknown());
  }
  Value WithPriorAnswer(Value planned, const Value& prior) const override {
    return With(planned, "object", Get(prior, "object"));
  }
  Value ImportedArguments(const Json& live) const override {
    return Value::Object({{"manifest", JsonToValue(ManifestFromLive(live))}});
  }
  WaitFor WaitOf(const Value& v, Diagnostics& diags) const override { return ParseWait(Get(v, "wait"), diags); }
  Value MovedArguments(const Json& manifest, const Json& seen, bool rollout) const override {
    (void)seen;
    Value args = Value::Object({{"manifest", JsonToValue(manifest)}});
    return rollout ? With(args, "wait", Value::Object({{"rollout", Value::Bool(true)}})) : args;
  }
  // `object`: the part of the live object Strata's manager owned when last seen.
  Json LastSeen(const Value& v) const override {
    Value object = Get(v, "object");
    return object.IsWhollyKnown() && object.IsMapping() ? ValueToJson(object.DeepUnmark())
                                                        : ManifestResource::LastSeen(v);
  }
  Value Masked(const ObjectRef& ref, Value v) const override { return MaskSecret(ref, std::move(v)); }
};

}  // namespace

std::unique_ptr<ResourceType> NewKubernetesManifest(std::shared_ptr<KubeSession> session) {
  return std::make_unique<KubernetesManifest>(std::move(session));
}

}  // namespace strata::kubernetes
