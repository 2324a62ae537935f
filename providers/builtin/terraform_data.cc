// terraform_data: Terraform's built-in replacement for null_resource. `input` is stored and
// copied to `output` on apply (so `output` is unknown in a plan that changes `input`);
// a change to `triggers_replace` replaces the instance. The id is a UUID; import takes it.
#include "providers/builtin/resource_type.h"

namespace strata {
namespace {

using namespace attrs;

class TerraformData : public BuiltinResourceType {
 public:
  using BuiltinResourceType::BuiltinResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema("terraform_data", {{"input", Optional("any")},
                                            {"output", Computed("any")},
                                            {"triggers_replace", Optional("any", true)}});
  }

  PlanResult Plan(const OperationContext& ctx, const Value& prior, const Value& proposed,
                  const Value& config) const override {
    PlanResult result = ResourceType::Plan(ctx, prior, proposed, config);
    // Output always mirrors input: null stays null even when it is otherwise unknown.
    if (!result.planned.IsNull() && Get(result.planned, "input").IsNull()) {
      result.planned = With(result.planned, "output", Value());
    }
    return result;
  }

  CreateRecovery Recovery() const override { return CreateRecovery::StateOnly; }

  ApplyResult Create(const OperationContext&, const Value& planned) override {
    Value state = With(planned, "id", Value::String(env_.random->Uuid()));
    state = With(state, "output", Get(planned, "input"));
    return {Normalize(CachedSchema(), state), {}};
  }

  ApplyResult Update(const OperationContext&, const Value& prior, const Value& planned) override {
    Value state = With(planned, "id", Get(prior, "id"));
    state = With(state, "output", Get(planned, "input"));
    return {Normalize(CachedSchema(), state), {}};
  }

  ApplyResult Import(const OperationContext&, const std::string& id) override {
    return {Normalize(CachedSchema(), Value::Object({{"id", Value::String(id)}})), {}};
  }

 protected:
  Value PlanUpdate(const Value& prior, const Value& planned) const override {
    if (Get(prior, "input").Equals(Get(planned, "input"))) return planned;
    if (Get(prior, "input").IsNull() && Get(planned, "input").IsNull()) return planned;
    return With(planned, "output", Value::Unknown());
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewTerraformData(BuiltinEnv env) {
  return std::make_unique<TerraformData>(std::move(env));
}

}  // namespace strata
