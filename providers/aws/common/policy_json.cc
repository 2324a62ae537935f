#include "providers/aws/common/policy_json.h"

#include <algorithm>
#include <vector>

#include <nlohmann/json.hpp>

namespace strata::aws {
namespace {

bool ParsePolicyJson(const std::string& text, nlohmann::json* out) {
  *out = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  return !out->is_discarded();
}

// The equivalences: ["x"] means "x", and the order of a list does not matter.
nlohmann::json CanonicalPolicy(const nlohmann::json& j) {
  if (j.is_object()) {
    nlohmann::json out = nlohmann::json::object();
    for (auto it = j.begin(); it != j.end(); ++it) out[it.key()] = CanonicalPolicy(it.value());
    return out;
  }
  if (j.is_array()) {
    if (j.size() == 1) return CanonicalPolicy(j[0]);
    std::vector<nlohmann::json> items;
    for (const auto& item : j) items.push_back(CanonicalPolicy(item));
    std::sort(items.begin(), items.end(),
              [](const nlohmann::json& a, const nlohmann::json& b) { return a.dump() < b.dump(); });
    return nlohmann::json(items);
  }
  return j;
}

}  // namespace

bool PolicyEquivalent(const std::string& a, const std::string& b) {
  nlohmann::json ja, jb;
  if (!ParsePolicyJson(a, &ja) || !ParsePolicyJson(b, &jb)) return a == b;
  return CanonicalPolicy(ja) == CanonicalPolicy(jb);
}

Value JsonDocumentForState(const std::string& remote, const Value& prior) {
  if (prior.IsString() && PolicyEquivalent(prior.AsString(), remote)) return prior;
  return Value::String(remote);
}

}  // namespace strata::aws
