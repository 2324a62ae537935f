#include "state/sensitive_paths.h"

#include <optional>

#include "engine/value/json.h"

namespace strata::state {
namespace {

void Split(const Value& v, nlohmann::json& path, SensitiveSplit& out, nlohmann::json& clear, bool exact) {
  auto to_json = [exact](const Value& x) { return exact ? ValueToExactJson(x) : ValueToJson(x); };
  if (v.IsSensitive()) {
    out.paths.push_back(path);
    out.values.push_back(to_json(v.DeepUnmark()));
    clear = nullptr;
    return;
  }
  if (!v.ContainsSensitive()) {
    clear = to_json(v);
    return;
  }
  if (v.IsSequence()) {
    clear = nlohmann::json::array();
    int64_t i = 0;
    for (const auto& e : v.AsList()) {
      path.push_back(i++);
      nlohmann::json child;
      Split(e, path, out, child, exact);
      clear.push_back(std::move(child));
      path.erase(path.size() - 1);
    }
    return;
  }
  // A mapping (scalars cannot contain marks without carrying one).
  clear = nlohmann::json::object();
  for (const auto& [k, e] : v.AsMap()) {
    path.push_back(k);
    nlohmann::json child;
    Split(e, path, out, child, exact);
    clear[k] = std::move(child);
    path.erase(path.size() - 1);
  }
}

// Returns `v` with the node at path[depth...] replaced by `leaf`; unchanged if the path does
// not fit `v`'s shape.
Value SetAt(const Value& v, const nlohmann::json& path, size_t depth, const Value& leaf) {
  if (depth == path.size()) return leaf;
  const auto& step = path[depth];
  if (step.is_number_integer() && v.IsSequence()) {
    auto i = step.get<int64_t>();
    if (i < 0 || static_cast<size_t>(i) >= v.AsList().size()) return v;
    ValueList items = v.AsList();
    items[static_cast<size_t>(i)] = SetAt(items[static_cast<size_t>(i)], path, depth + 1, leaf);
    return Value::Tuple(std::move(items)).MarkSensitive(v.IsSensitive());
  }
  if (step.is_string() && v.IsMapping()) {
    ValueMap items = v.AsMap();
    auto it = items.find(step.get<std::string>());
    if (it == items.end()) return v;
    it->second = SetAt(it->second, path, depth + 1, leaf);
    return Value::Object(std::move(items)).MarkSensitive(v.IsSensitive());
  }
  return v;
}

}  // namespace

SensitiveSplit SplitSensitive(const Value& value, bool exact_numbers) {
  SensitiveSplit out;
  nlohmann::json path = nlohmann::json::array();
  Split(value, path, out, out.clear, exact_numbers);
  return out;
}

Value JoinSensitive(const nlohmann::json& clear, const std::vector<nlohmann::json>& paths,
                    const std::vector<std::optional<nlohmann::json>>& values) {
  Value v = JsonToValue(clear);
  for (size_t i = 0; i < paths.size(); ++i) {
    Value leaf = (i < values.size() && values[i]) ? JsonToValue(*values[i]) : Value::Null();
    v = SetAt(v, paths[i], 0, leaf.MarkSensitive());
  }
  return v;
}

Value MaskedValue(const nlohmann::json& clear, const std::vector<nlohmann::json>& paths) {
  return JoinSensitive(clear, paths, {});
}

}  // namespace strata::state
