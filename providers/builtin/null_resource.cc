// null_resource: does nothing; `triggers` (any change) replaces it. Terraform's semantics:
// the id is a random non-negative integer, there is no import.
#include "providers/builtin/resource_type.h"

namespace strata {
namespace {

using namespace attrs;

class NullResource : public BuiltinResourceType {
 public:
  using BuiltinResourceType::BuiltinResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema("null_resource", {{"triggers", Optional("map(string)", true)}});
  }

  CreateRecovery Recovery() const override { return CreateRecovery::StateOnly; }

  ApplyResult Create(const OperationContext&, const Value& planned) override {
    uint64_t n = env_.random->Uniform(uint64_t(1) << 62);
    return {Normalize(CachedSchema(), With(planned, "id", Value::String(std::to_string(n)))), {}};
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewNullResource(BuiltinEnv env) {
  return std::make_unique<NullResource>(std::move(env));
}

}  // namespace strata
