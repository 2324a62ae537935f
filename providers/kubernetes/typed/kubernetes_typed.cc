// A typed resource: Terraform's attributes for one kind (typed_shape.h) over the manifest
// code path. State: the typed arguments (after a refresh, the part of the live object
// Strata's field manager owns, in Terraform's shape — so drift shows attribute by
// attribute), metadata's resource_version, uid and generation, the wait argument
// (wait_for_rollout, ...), `timeouts`, `owned_fields` and `id` (Terraform's import id:
// "namespace/name", or "name" for a cluster-scoped kind).

#include <fmt/format.h>

#include "engine/value/json.h"
#include "providers/attributes.h"
#include "providers/kubernetes/manifest/await.h"
#include "providers/kubernetes/manifest/manifest_resource.h"
#include "providers/kubernetes/manifest/owned_fields.h"
#include "providers/kubernetes/typed/terraform_names.h"
#include "providers/kubernetes/typed/typed_shape.h"
#include "providers/kubernetes/typed/typed_types.h"

namespace strata::kubernetes {
namespace {

using namespace attrs;

// `v` with metadata's server-set attributes replaced (the block's first object).
Value WithServerMetadata(const Value& v, const Value& resource_version, const Value& uid, const Value& generation) {
  Value metadata = Get(v, "metadata");
  if (!metadata.IsKnown() || !metadata.IsSequence() || metadata.AsList().empty()) return v;
  ValueList blocks = metadata.AsList();
  blocks[0] = With(With(With(blocks[0], "resource_version", resource_version), "uid", uid), "generation", generation);
  return With(v, "metadata", Value::List(std::move(blocks)));
}

Value LiveMeta(const Json& live, const char* key) {
  const Json& m = live.value("metadata", Json::object());
  return m.contains(key) ? JsonToValue(m[key]) : Value();
}

class KubernetesTyped final : public ManifestResource {
 public:
  KubernetesTyped(std::shared_ptr<KubeSession> session, std::string type_name, const TypedResourceKind& terraform,
                  std::shared_ptr<const TypedShape> shape)
      : ManifestResource(std::move(session)),
        type_name_(std::move(type_name)),
        terraform_(terraform),
        shape_holder_(std::move(shape)),
        shape_(*shape_holder_) {}

  ResourceSchema Schema() const override {
    std::map<std::string, AttributeSchema> attributes = shape_.Attributes();
    if (!terraform_.wait_argument.empty()) attributes[terraform_.wait_argument] = OptionalComputed("bool");
    attributes["timeouts"] =
        Optional("object({create=optional(string), update=optional(string), delete=optional(string)})");
    attributes["owned_fields"] = Computed("string");
    return ManagedSchema(type_name_.c_str(), std::move(attributes));
  }

  std::vector<std::string> RecoveryKey() const override { return {"metadata"}; }

  Diagnostics Validate(const Value& config) const override {
    Diagnostics diags;
    ParseTimeouts(Get(config, "timeouts"), diags);
    if (diags.HasErrors()) return diags;
    Value metadata = FirstBlock(config, "metadata");
    if (!Get(config, "metadata").IsKnown() || !metadata.IsKnown()) return diags;
    Value name = Get(metadata, "name");
    if (name.IsNull()) {
      bool generated = !Get(metadata, "generate_name").IsNull();
      return Error("metadata.name is required",
                   fmt::format("{} needs metadata {{ name }}{}: server-side apply names the object it applies.",
                               type_name_, generated ? " (generate_name is not supported)" : ""));
    }
    return diags;
  }

  PlanResult Plan(const OperationContext& ctx, const Value& prior, const Value& proposed,
                  const Value& config) const override {
    Value with_defaults = WithDefaults(proposed, config);
    PlanResult result = ManifestResource::Plan(ctx, prior, with_defaults, config);
    if (result.planned.IsNull() || result.diags.HasErrors()) return result;
    bool create = prior.IsNull() || !result.requires_replace.empty();
    if (create || !ManifestOf(prior).Equals(ManifestOf(with_defaults))) {
      // An apply that changes the object changes its version; a create gives it a uid.
      Value uid = create ? Value::Unknown() : Get(FirstBlock(prior, "metadata"), "uid");
      result.planned = WithServerMetadata(result.planned, Value::Unknown(), uid, Value::Unknown());
    }
    return result;
  }

 protected:
  Value ManifestOf(const Value& v) const override { return shape_.ToManifest(v); }

  Value WithAnswer(Value v, const Json& live, const Json& owned) const override {
    (void)owned;
    return WithServerMetadata(v, LiveMeta(live, "resourceVersion"), LiveMeta(live, "uid"),
                              LiveMeta(live, "generation"));
  }

  Value WithRead(Value prior, const Json& live, const Json& owned) const override {
    for (auto& [name, value] : shape_.FromObject(owned, live, prior)) prior = With(prior, name, value);
    return prior;
  }

  Value WithUnknowns(Value planned, const Value& prior) const override {
    Value uid = prior.IsNull() ? Value::Unknown() : Get(FirstBlock(prior, "metadata"), "uid");
    return WithServerMetadata(planned, Value::Unknown(), uid, Value::Unknown());
  }

  Value WithPriorAnswer(Value planned, const Value& prior) const override {
    Value meta = FirstBlock(prior, "metadata");
    return WithServerMetadata(planned, Get(meta, "resource_version"), Get(meta, "uid"), Get(meta, "generation"));
  }

  // An object Strata's field manager applied (a kubernetes_manifest taken over with
  // `removed` + `import`) is imported as the part that manager owns, so nothing changes;
  // anyone else's object as all of it, as Terraform imports.
  Value ImportedArguments(const Json& live) const override {
    Json fields = ManagerFields(live, "strata");
    Value state = Value::Object(shape_.FromObject(fields.is_null() ? live : OwnedObject(live, fields), live));
    if (!terraform_.wait_argument.empty()) state = With(state, terraform_.wait_argument, Value::Bool(terraform_.wait_default));
    return state;
  }

  // A move from another Kubernetes type: the manifest in Terraform's attributes, and the
  // wait argument true when the source waited for rollouts (else Terraform's default).
  Value MovedArguments(const Json& manifest, const Json& seen, bool rollout) const override {
    Value state = Value::Object(shape_.FromObject(manifest, seen));
    if (!terraform_.wait_argument.empty()) {
      state = With(state, terraform_.wait_argument, Value::Bool(rollout || terraform_.wait_default));
    }
    return state;
  }

  // The manifest with the server's metadata the state keeps (resource_version, uid, generation).
  Json LastSeen(const Value& v) const override {
    Json seen = ManifestResource::LastSeen(v);
    Value meta = FirstBlock(v, "metadata");
    for (auto [attr, key] : {std::pair{"resource_version", "resourceVersion"}, {"uid", "uid"}, {"generation", "generation"}}) {
      Value x = Get(meta, attr);
      if (x.IsKnown() && !x.IsNull()) seen["metadata"][key] = ValueToJson(x);
    }
    return seen;
  }

  bool Holds(const ObjectRef& ref) const override {
    return ref.api_version == shape_.kind().api_version && ref.kind == shape_.kind().kind;
  }

  WaitFor WaitOf(const Value& v, Diagnostics& diags) const override {
    (void)diags;
    WaitFor wait;
    wait.rollout = !terraform_.wait_argument.empty() && GetBool(v, terraform_.wait_argument, terraform_.wait_default);
    return wait;
  }

  const char* IdentityAttribute() const override { return "metadata"; }

  // Terraform's ids: "namespace/name", "name" for a cluster-scoped kind.
  std::string ImportId(const ObjectRef& ref) const override {
    return shape_.kind().namespaced ? ref.namespace_name + "/" + ref.name : ref.name;
  }

  base::Result<ObjectRef, std::string> ParseImportId(const std::string& id) const override {
    const CatalogKind& kind = shape_.kind();
    ObjectRef ref;
    ref.api_version = kind.api_version;
    ref.kind = kind.kind;
    size_t slash = id.find('/');
    if (kind.namespaced) {
      if (slash == std::string::npos || slash == 0 || slash + 1 == id.size() || id.find('/', slash + 1) != std::string::npos) {
        return fmt::format("{} is namespaced: its import id is \"namespace/name\" (e.g. \"default/{}\"), not \"{}\".",
                           type_name_, id.empty() ? "NAME" : id, id);
      }
      ref.namespace_name = id.substr(0, slash);
      ref.name = id.substr(slash + 1);
    } else {
      if (id.empty() || slash != std::string::npos) {
        return fmt::format("{} is cluster-scoped: its import id is the object's name alone, not \"{}\".",
                           type_name_, id);
      }
      ref.name = id;
    }
    return ref;
  }

 private:
  // Terraform's defaults: the wait argument, a namespaced kind's namespace "default", and
  // its schema's field defaults (a port's protocol).
  Value WithDefaults(Value v, const Value& config) const {
    v = shape_.WithFieldDefaults(v);
    if (!terraform_.wait_argument.empty() && Get(config, terraform_.wait_argument).IsNull()) {
      v = With(v, terraform_.wait_argument, Value::Bool(terraform_.wait_default));
    }
    Value metadata = Get(v, "metadata");
    if (shape_.kind().namespaced && metadata.IsKnown() && metadata.IsSequence() && !metadata.AsList().empty()) {
      ValueList blocks = metadata.AsList();
      if (blocks[0].IsKnown() && Get(blocks[0], "namespace").IsNull()) {
        blocks[0] = With(blocks[0], "namespace", Value::String("default"));
        v = With(v, "metadata", Value::List(std::move(blocks)));
      }
    }
    return v;
  }

  std::string type_name_;
  const TypedResourceKind& terraform_;
  std::shared_ptr<const TypedShape> shape_holder_;  // one per kind, shared by its spellings
  const TypedShape& shape_;
};

}  // namespace

std::vector<std::unique_ptr<ResourceType>> NewKubernetesTypedResources(std::shared_ptr<KubeSession> session) {
  std::vector<std::unique_ptr<ResourceType>> types;
  const TypedCatalog& catalog = BuiltinTypedCatalog();
  for (const TypedResourceKind& terraform : TypedResourceKinds()) {
    const CatalogKind* kind = catalog.Kind(terraform.kind);
    if (kind == nullptr) continue;  // the generator's KINDS and this table disagree: a test checks they do not
    auto shape = std::make_shared<const TypedShape>(catalog, *kind);
    for (const std::string& name : terraform.type_names) {
      types.push_back(std::make_unique<KubernetesTyped>(session, name, terraform, shape));
    }
  }
  return types;
}

}  // namespace strata::kubernetes
