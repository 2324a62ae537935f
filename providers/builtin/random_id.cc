// random_id: `byte_length` random bytes, published as base64 (URL-safe and standard), hex
// and decimal, each with `prefix` in front; `id` is the unprefixed URL-safe base64.
// Generated once at create; any argument change (keepers included) replaces it.
// Import: "B64URL" or "PREFIX,B64URL" (Terraform's format).
#include <algorithm>

#include "engine/base/base64.h"
#include "engine/base/hex.h"
#include "providers/builtin/resource_type.h"

namespace strata {
namespace {

using namespace attrs;

//! The big-endian bytes as an unsigned decimal number.
std::string Decimal(const std::string& bytes) {
  std::vector<uint8_t> digits;  // little-endian base 10
  for (unsigned char b : bytes) {
    unsigned carry = b;
    for (auto& d : digits) {
      unsigned v = d * 256u + carry;
      d = static_cast<uint8_t>(v % 10);
      carry = v / 10;
    }
    while (carry) {
      digits.push_back(static_cast<uint8_t>(carry % 10));
      carry /= 10;
    }
  }
  if (digits.empty()) return "0";
  std::string out;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) out += char('0' + *it);
  return out;
}

class RandomId : public BuiltinResourceType {
 public:
  using BuiltinResourceType::BuiltinResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema("random_id", {{"byte_length", Required("number", true)},
                                       {"prefix", Optional("string", true)},
                                       {"keepers", Optional("map(string)", true)},
                                       {"b64_url", Computed("string")},
                                       {"b64_std", Computed("string")},
                                       {"hex", Computed("string")},
                                       {"dec", Computed("string")}});
  }

  Diagnostics Validate(const Value& config) const override {
    auto n = GetNumber(config, "byte_length");
    if (n && (*n < 1 || *n != static_cast<double>(static_cast<long long>(*n)))) {
      return Error("Invalid byte_length", "byte_length must be a whole number of at least 1.");
    }
    return {};
  }

  CreateRecovery Recovery() const override { return CreateRecovery::StateOnly; }

  ApplyResult Create(const OperationContext&, const Value& planned) override {
    auto n = GetNumber(planned, "byte_length");
    if (!n || *n < 1) return {{}, Error("Invalid byte_length", "byte_length must be at least 1.")};
    return {State(planned, env_.random->Bytes(static_cast<size_t>(*n))), {}};
  }

  ApplyResult Import(const OperationContext&, const std::string& id) override {
    std::string prefix, b64 = id;
    if (size_t comma = id.find(','); comma != std::string::npos) {
      prefix = id.substr(0, comma);
      b64 = id.substr(comma + 1);
    }
    auto bytes = base::Base64Decode(b64, base::Base64Input::kLenient);
    if (!bytes || bytes->empty()) {
      return {{}, Error("Invalid import id", "\"" + b64 + "\" is not URL-safe base64.")};
    }
    Value config = Value::Object({{"byte_length", Value::Number(double(bytes->size()))}});
    if (!prefix.empty()) config = With(config, "prefix", Value::String(prefix));
    return {State(config, *bytes), {}};
  }

 private:
  Value State(Value v, const std::string& bytes) const {
    std::string prefix = GetString(v, "prefix");
    std::string id = base::Base64Encode(bytes, base::Base64Alphabet::kUrlSafe, /*pad=*/false);
    v = With(v, "id", Value::String(id));
    v = With(v, "b64_url", Value::String(prefix + id));
    v = With(v, "b64_std", Value::String(prefix + base::Base64Encode(bytes)));
    v = With(v, "hex", Value::String(prefix + base::HexEncode(bytes)));
    v = With(v, "dec", Value::String(prefix + Decimal(bytes)));
    return Normalize(CachedSchema(), v);
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewRandomId(BuiltinEnv env) {
  return std::make_unique<RandomId>(std::move(env));
}

}  // namespace strata
