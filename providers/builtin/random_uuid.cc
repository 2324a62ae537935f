// random_uuid (hashicorp/random): a random UUID in `result` and `id`, made once at create;
// a change of keepers replaces it. Import: the UUID (Terraform's format; upper-case hex is
// written back in lower case).
#include <cctype>

#include "providers/builtin/resource_type.h"

namespace strata {
namespace {

using namespace attrs;

//! "8-4-4-4-12" hex digits, lower-cased; empty when `text` is not a UUID.
std::string CanonicalUuid(const std::string& text) {
  if (text.size() != 36) return "";
  std::string out = text;
  for (size_t i = 0; i < out.size(); ++i) {
    bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash ? out[i] != '-' : !std::isxdigit(static_cast<unsigned char>(out[i]))) return "";
    out[i] = char(std::tolower(static_cast<unsigned char>(out[i])));
  }
  return out;
}

class RandomUuid : public BuiltinResourceType {
 public:
  using BuiltinResourceType::BuiltinResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema("random_uuid", {{"keepers", Optional("map(string)", true)}, {"result", Computed("string")}});
  }

  CreateRecovery Recovery() const override { return CreateRecovery::StateOnly; }

  ApplyResult Create(const OperationContext&, const Value& planned) override {
    return {State(planned, env_.random->Uuid()), {}};
  }

  ApplyResult Import(const OperationContext&, const std::string& id) override {
    std::string uuid = CanonicalUuid(id);
    if (uuid.empty()) {
      return {{}, Error("Invalid import id", "\"" + id + "\" is not a UUID (8-4-4-4-12 hexadecimal digits).")};
    }
    return {State(Value::Object({}), uuid), {}};
  }

 private:
  Value State(Value v, const std::string& uuid) const {
    v = With(v, "result", Value::String(uuid));
    v = With(v, "id", Value::String(uuid));
    return Normalize(CachedSchema(), v);
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewRandomUuid(BuiltinEnv env) {
  return std::make_unique<RandomUuid>(std::move(env));
}

}  // namespace strata
