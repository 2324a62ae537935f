// random_integer (hashicorp/random): a whole number in [min, max], both inclusive. `result`
// and `id` (its decimal text) are made once at create; min, max, seed and keepers replace
// it. With `seed` the result is stable (see seeded_random.h: not Terraform's number for
// that seed). Import: "RESULT,MIN,MAX" or "RESULT,MIN,MAX,SEED" (Terraform's format).
#include <charconv>
#include <cmath>

#include "providers/builtin/resource_type.h"
#include "providers/builtin/seeded_random.h"

namespace strata {
namespace {

using namespace attrs;

//! A whole number in the range a double holds exactly.
bool IsWhole(double n) { return std::floor(n) == n && std::fabs(n) <= 9007199254740992.0; }

std::optional<int64_t> ParseWhole(const std::string& text) {
  int64_t n = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || ptr != text.data() + text.size() || !IsWhole(double(n))) return std::nullopt;
  return n;
}

class RandomInteger : public BuiltinResourceType {
 public:
  using BuiltinResourceType::BuiltinResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema("random_integer", {{"min", Required("number", true)},
                                            {"max", Required("number", true)},
                                            {"seed", Optional("string", true)},
                                            {"keepers", Optional("map(string)", true)},
                                            {"result", Computed("number")}});
  }

  Diagnostics Validate(const Value& config) const override {
    Diagnostics diags;
    auto min = GetNumber(config, "min"), max = GetNumber(config, "max");
    for (auto [name, n] : {std::pair{"min", min}, std::pair{"max", max}}) {
      if (n && !IsWhole(*n)) diags.Error("Invalid " + std::string(name), std::string(name) + " must be a whole number.");
    }
    if (min && max && *min > *max) {
      diags.Error("Invalid range", "min (" + FormatNumber(*min) + ") must be smaller than or equal to max (" +
                                       FormatNumber(*max) + ").");
    }
    return diags;
  }

  CreateRecovery Recovery() const override { return CreateRecovery::StateOnly; }

  ApplyResult Create(const OperationContext&, const Value& planned) override {
    Diagnostics diags = Validate(planned);
    if (diags.HasErrors()) return {{}, diags};
    auto min = int64_t(*GetNumber(planned, "min")), max = int64_t(*GetNumber(planned, "max"));
    auto random = builtin::RandomForSeed(GetString(planned, "seed"), env_.random);
    int64_t result = min + int64_t(random->Uniform(uint64_t(max - min) + 1));
    return {State(planned, result), {}};
  }

  ApplyResult Import(const OperationContext&, const std::string& id) override {
    std::vector<std::string> parts = SplitImportId(id);
    if (parts.size() != 3 && parts.size() != 4) {
      return {{}, Error("Invalid import id", "Use \"RESULT,MIN,MAX\" or \"RESULT,MIN,MAX,SEED\", not \"" + id + "\".")};
    }
    std::optional<int64_t> numbers[3];
    const char* names[3] = {"result", "min", "max"};
    for (int i = 0; i < 3; ++i) {
      numbers[i] = ParseWhole(parts[i]);
      if (!numbers[i]) {
        return {{}, Error("Invalid import id", "The " + std::string(names[i]) + " \"" + parts[i] +
                                                   "\" is not a whole number.")};
      }
    }
    Value v = Value::Object({{"min", Value::Number(double(*numbers[1]))}, {"max", Value::Number(double(*numbers[2]))}});
    if (parts.size() == 4) v = With(v, "seed", Value::String(parts[3]));
    return {State(v, *numbers[0]), {}};
  }

 private:
  Value State(Value v, int64_t result) const {
    v = With(v, "result", Value::Number(double(result)));
    v = With(v, "id", Value::String(std::to_string(result)));
    return Normalize(CachedSchema(), v);
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewRandomInteger(BuiltinEnv env) {
  return std::make_unique<RandomInteger>(std::move(env));
}

}  // namespace strata
