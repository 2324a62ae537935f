// random_shuffle (hashicorp/random): `result` is a random permutation of `input`, or
// `result_count` elements drawn from successive permutations (longer than the input when
// asked). Made once at create; input, result_count, seed and keepers replace it. The id is
// "-", as Terraform's. With `seed` the order is stable (see seeded_random.h: not the order
// Terraform gives for that seed). No import, as in Terraform.
#include "providers/builtin/resource_type.h"
#include "providers/builtin/seeded_random.h"

namespace strata {
namespace {

using namespace attrs;

//! Go's rand.Perm: the inside-out Fisher-Yates shuffle of 0..n-1.
std::vector<size_t> Permutation(base::RandomSource& random, size_t n) {
  std::vector<size_t> out(n);
  for (size_t i = 0; i < n; ++i) {
    size_t j = size_t(random.Uniform(i + 1));
    out[i] = out[j];
    out[j] = i;
  }
  return out;
}

class RandomShuffle : public BuiltinResourceType {
 public:
  using BuiltinResourceType::BuiltinResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema("random_shuffle", {{"input", Required("list(string)", true)},
                                            {"result_count", Optional("number", true)},
                                            {"seed", Optional("string", true)},
                                            {"keepers", Optional("map(string)", true)},
                                            {"result", Computed("list(string)")}});
  }

  Diagnostics Validate(const Value& config) const override {
    auto count = GetNumber(config, "result_count");
    if (count && (*count < 0 || *count != double(int64_t(*count)))) {
      return Error("Invalid result_count", "result_count must be a whole number, 0 or more.");
    }
    return {};
  }

  CreateRecovery Recovery() const override { return CreateRecovery::StateOnly; }

  ApplyResult Create(const OperationContext&, const Value& planned) override {
    Diagnostics diags = Validate(planned);
    if (diags.HasErrors()) return {{}, diags};
    std::vector<std::string> input = GetStringList(planned, "input");
    size_t count = size_t(GetNumber(planned, "result_count").value_or(double(input.size())));
    std::vector<std::string> result;
    if (!input.empty()) {
      auto random = builtin::RandomForSeed(GetString(planned, "seed"), env_.random);
      while (result.size() < count) {
        for (size_t i : Permutation(*random, input.size())) {
          if (result.size() == count) break;
          result.push_back(input[i]);
        }
      }
    }
    Value state = With(planned, "result", StringListValue(result));
    return {Normalize(CachedSchema(), With(state, "id", Value::String("-"))), {}};
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewRandomShuffle(BuiltinEnv env) {
  return std::make_unique<RandomShuffle>(std::move(env));
}

}  // namespace strata
