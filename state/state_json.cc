#include "state/state_json.h"

#include <ctime>

#include "engine/base/time_format.h"
#include "engine/value/json.h"
#include "state/sensitive_paths.h"

namespace strata::state {
namespace {

using nlohmann::json;

constexpr int kFormatVersion = 1;

json ValueJson(const Value& v, bool reveal, json& sensitive_paths) {
  SensitiveSplit split = SplitSensitive(v);
  for (const auto& p : split.paths) sensitive_paths.push_back(p);
  if (!reveal) return split.clear;
  return ValueToJson(v.DeepUnmark());
}

// Restores the marks from the listed paths.
Value MarkedValue(const json& value, const json& sensitive_paths) {
  std::vector<json> paths;
  std::vector<std::optional<json>> values;
  Value plain = JsonToValue(value);
  for (const auto& p : sensitive_paths) {
    if (!p.is_array()) continue;
    // Pull the subtree out of the plain value to re-insert it marked.
    const json* node = &value;
    bool found = true;
    for (const auto& step : p) {
      if (step.is_string() && node->is_object() && node->contains(step.get<std::string>())) {
        node = &(*node)[step.get<std::string>()];
      } else if (step.is_number_integer() && node->is_array() && step.get<size_t>() < node->size()) {
        node = &(*node)[step.get<size_t>()];
      } else {
        found = false;
        break;
      }
    }
    if (!found) continue;
    paths.push_back(p);
    values.push_back(*node);
  }
  return JoinSensitive(value, paths, values);
}

std::optional<int64_t> ParseTimestamp(const json& j) {
  if (j.is_number_integer()) return j.get<int64_t>();
  if (!j.is_string()) return std::nullopt;
  std::chrono::system_clock::time_point t;
  if (!base::ParseRfc3339(j.get<std::string>(), &t)) return std::nullopt;
  return std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
}

StateStatus Invalid(const std::string& what) { return StateStatus::Error(StateCode::InvalidArgument, what); }

}  // namespace

json StageStateToJson(const StageState& state, bool reveal_sensitive) {
  json out{{"format_version", kFormatVersion},
           {"stage", state.stage},
           {"lineage", state.lineage},
           {"serial", state.serial},
           {"secrets_masked", !reveal_sensitive},
           {"resources", json::array()},
           {"outputs", json::object()}};
  std::vector<const ResourceInstanceState*> objects;
  for (const auto& r : state.resources) objects.push_back(&r);
  for (const auto& r : state.deposed) objects.push_back(&r);
  for (const ResourceInstanceState* object : objects) {
    const ResourceInstanceState& r = *object;
    json paths = json::array();
    json attrs = ValueJson(r.attributes, reveal_sensitive, paths);
    out["resources"].push_back(json{{"address", r.addr.ToString()},
                                    {"mode", r.addr.resource.mode == ResourceMode::Data ? "data" : "managed"},
                                    {"type", r.addr.resource.type},
                                    {"provider", r.provider},
                                    {"status", ToString(r.status)},
                                    {"schema_version", r.schema_version},
                                    {"attributes", attrs},
                                    {"sensitive_attributes", paths},
                                    {"dependencies", r.dependencies},
                                    {"idempotency_token", r.idempotency_token},
                                    {"created_at", FormatTimestamp(r.created_at)},
                                    {"updated_at", FormatTimestamp(r.updated_at)}});
    if (!r.deposed.empty()) out["resources"].back()["deposed"] = r.deposed;
  }
  for (const auto& o : state.outputs) {
    bool masked = (o.sensitive || o.value.ContainsSensitive()) && !reveal_sensitive;
    json paths = json::array();
    json value = ValueJson(o.sensitive ? o.value.DeepUnmark() : o.value, reveal_sensitive, paths);
    out["outputs"][o.name] = json{{"value", masked && o.sensitive ? json(nullptr) : value}, {"sensitive", o.sensitive}};
    if (!paths.empty()) out["outputs"][o.name]["sensitive_attributes"] = paths;
  }
  return out;
}

StateResult<StageState> StageStateFromJson(const json& j) {
  if (!j.is_object()) return Invalid("the state file is not a JSON object");
  if (j.value("format_version", 0) != kFormatVersion) {
    return Invalid("the state file has format_version " + j.value("format_version", json(nullptr)).dump() +
                   "; this strata reads format_version " + std::to_string(kFormatVersion));
  }
  if (j.value("secrets_masked", false)) {
    return Invalid("the state file was pulled without -show-sensitive: its secrets are masked, and pushing it would "
                   "erase them. Pull it again with `strata state pull -show-sensitive`");
  }
  StageState state;
  state.exists = true;
  state.stage = j.value("stage", "");
  state.lineage = j.value("lineage", "");
  state.serial = j.value("serial", int64_t{0});
  if (!j.contains("resources") || !j["resources"].is_array()) return Invalid("the state file has no \"resources\" list");
  for (const auto& rj : j["resources"]) {
    if (!rj.is_object() || !rj.contains("address") || !rj["address"].is_string()) {
      return Invalid("a resource in the state file has no \"address\"");
    }
    std::string address = rj["address"].get<std::string>();
    AddrParseResult parsed = ParseResourceInstanceAddr(address);
    if (!parsed.addr) return Invalid("\"" + address + "\" in the state file is not a resource address: " + parsed.error);
    ResourceInstanceState r;
    r.addr = *parsed.addr;
    if (rj.value("mode", "managed") == "data") r.addr.resource.mode = ResourceMode::Data;
    r.provider = rj.value("provider", "");
    auto status = ParseResourceStatus(rj.value("status", "created"));
    if (!status) return Invalid(address + ": unknown status \"" + rj.value("status", "") + "\"");
    r.status = *status;
    r.schema_version = rj.value("schema_version", int64_t{0});
    r.attributes = MarkedValue(rj.value("attributes", json(nullptr)), rj.value("sensitive_attributes", json::array()));
    for (const auto& d : rj.value("dependencies", json::array())) {
      if (d.is_string()) r.dependencies.push_back(d.get<std::string>());
    }
    r.idempotency_token = rj.value("idempotency_token", "");
    r.created_at = ParseTimestamp(rj.value("created_at", json(nullptr))).value_or(0);
    r.updated_at = ParseTimestamp(rj.value("updated_at", json(nullptr))).value_or(0);
    r.deposed = rj.value("deposed", "");
    (r.deposed.empty() ? state.resources : state.deposed).push_back(std::move(r));
  }
  if (j.contains("outputs") && j["outputs"].is_object()) {
    for (const auto& [name, oj] : j["outputs"].items()) {
      OutputState o;
      o.name = name;
      o.sensitive = oj.value("sensitive", false);
      o.value = MarkedValue(oj.value("value", json(nullptr)), oj.value("sensitive_attributes", json::array()));
      if (o.sensitive) o.value = o.value.MarkSensitive();
      state.outputs.push_back(std::move(o));
    }
  }
  return state;
}

}  // namespace strata::state
