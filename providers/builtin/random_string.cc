// random_string and random_password: `length` characters from the enabled classes (upper,
// lower, numeric, special — all on by default; `override_special` replaces the special
// set), with at least min_upper/min_lower/min_numeric/min_special of each. Generated once
// at create, stable afterwards; any argument change (keepers included) replaces it.
// random_password differs only in marking `result` sensitive, its id being "none", and a
// bcrypt_hash attribute (base::Bcrypt, cost 10 as Terraform's random provider). Import: the id
// is the result (Terraform's format).
#include <algorithm>

#include "engine/base/bcrypt.h"
#include "providers/builtin/resource_type.h"

namespace strata {
namespace {

using namespace attrs;

constexpr const char* kUpper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
constexpr const char* kLower = "abcdefghijklmnopqrstuvwxyz";
constexpr const char* kNumeric = "0123456789";
constexpr const char* kSpecial = "!@#$%&*()-_=+[]{}<>:?";

class RandomString : public BuiltinResourceType {
 public:
  RandomString(BuiltinEnv env, bool password) : BuiltinResourceType(std::move(env)), password_(password) {}

  ResourceSchema Schema() const override {
    std::map<std::string, AttributeSchema> attrs = {
        {"length", Required("number", true)},
        {"keepers", Optional("map(string)", true)},
        {"special", OptionalComputed("bool", true)},
        {"upper", OptionalComputed("bool", true)},
        {"lower", OptionalComputed("bool", true)},
        {"numeric", OptionalComputed("bool", true)},
        {"number", OptionalComputed("bool", true)},  // deprecated spelling of numeric
        {"min_special", OptionalComputed("number", true)},
        {"min_upper", OptionalComputed("number", true)},
        {"min_lower", OptionalComputed("number", true)},
        {"min_numeric", OptionalComputed("number", true)},
        {"override_special", Optional("string", true)},
        {"result", Computed("string", password_)}};
    if (password_) attrs["bcrypt_hash"] = Computed("string", true);
    return ManagedSchema(password_ ? "random_password" : "random_string", std::move(attrs));
  }

  Diagnostics Validate(const Value& config) const override {
    auto length = GetNumber(config, "length");
    if (length && *length < 1) {
      return Error("Invalid length", "length must be at least 1.");
    }
    double mins = 0;
    for (const char* m : {"min_upper", "min_lower", "min_numeric", "min_special"}) {
      auto v = GetNumber(config, m);
      if (v && *v < 0) return Error("Invalid " + std::string(m), std::string(m) + " cannot be negative.");
      if (v) mins += *v;
    }
    if (length && mins > *length) {
      return Error("Invalid length",
                   "length (" + FormatNumber(*length) +
                       ") must be at least the sum of min_upper, min_lower, min_numeric and "
                       "min_special (" + FormatNumber(mins) + ").");
    }
    return {};
  }

  CreateRecovery Recovery() const override { return CreateRecovery::StateOnly; }

  ApplyResult Create(const OperationContext&, const Value& planned) override {
    Value v = ApplyDefaults(planned);
    Diagnostics diags = Validate(v);
    if (diags.HasErrors()) return {{}, diags};
    size_t length = static_cast<size_t>(*GetNumber(v, "length"));
    std::string specials = GetString(v, "override_special");
    if (Get(v, "override_special").IsNull()) specials = kSpecial;

    std::string chars;
    if (GetBool(v, "upper", true)) chars += kUpper;
    if (GetBool(v, "lower", true)) chars += kLower;
    if (GetBool(v, "numeric", true)) chars += kNumeric;
    if (GetBool(v, "special", true)) chars += specials;

    // As the Terraform provider: the minimums first (from each class's set), the rest from
    // every enabled class, then shuffled.
    std::string result;
    auto pick = [&](const std::string& from, size_t count) {
      for (size_t i = 0; i < count && !from.empty(); ++i) {
        result += from[env_.random->Uniform(from.size())];
      }
    };
    pick(kLower, size_t(GetNumber(v, "min_lower").value_or(0)));
    pick(kUpper, size_t(GetNumber(v, "min_upper").value_or(0)));
    pick(kNumeric, size_t(GetNumber(v, "min_numeric").value_or(0)));
    pick(specials, size_t(GetNumber(v, "min_special").value_or(0)));
    if (result.size() < length) {
      if (chars.empty()) {
        return {{}, Error("No characters to choose from",
                          "Enable at least one of upper, lower, numeric and special.")};
      }
      pick(chars, length - result.size());
    }
    for (size_t i = result.size(); i > 1; --i) {
      std::swap(result[i - 1], result[env_.random->Uniform(i)]);
    }
    return {State(v, result), {}};
  }

  ApplyResult Import(const OperationContext&, const std::string& id) override {
    Value v = ApplyDefaults(Value::Object({{"length", Value::Number(double(id.size()))}}));
    return {State(v, id), {}};
  }

 protected:
  Value ApplyDefaults(const Value& in) const override {
    Value v = in;
    // `number` is the deprecated name of `numeric`; as in Terraform both are kept equal.
    if (Get(v, "numeric").IsNull() && !Get(v, "number").IsNull()) v = With(v, "numeric", Get(v, "number"));
    for (const char* b : {"special", "upper", "lower", "numeric"}) {
      if (Get(v, b).IsNull()) v = With(v, b, Value::Bool(true));
    }
    if (Get(v, "number").IsNull()) v = With(v, "number", Get(v, "numeric"));
    for (const char* m : {"min_special", "min_upper", "min_lower", "min_numeric"}) {
      if (Get(v, m).IsNull()) v = With(v, m, Value::Number(0));
    }
    return v;
  }

 private:
  Value State(Value v, const std::string& result) const {
    v = With(v, "result", Value::String(result));
    v = With(v, "id", Value::String(password_ ? "none" : result));
    if (password_) v = With(v, "bcrypt_hash", Value::String(base::Bcrypt(*env_.random, result)));
    return Normalize(CachedSchema(), v);
  }

  bool password_;
};

}  // namespace

std::unique_ptr<ResourceType> NewRandomString(BuiltinEnv env) {
  return std::make_unique<RandomString>(std::move(env), false);
}

std::unique_ptr<ResourceType> NewRandomPassword(BuiltinEnv env) {
  return std::make_unique<RandomString>(std::move(env), true);
}

}  // namespace strata
