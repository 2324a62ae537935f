#include "engine/plan/render_json.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <ctime>
#include <set>

#include <fmt/format.h>

#include "engine/base/time_format.h"

namespace strata {
namespace {

using json = nlohmann::ordered_json;

constexpr const char* kTerraformFormatVersion = "1.2";
constexpr const char* kTerraformVersion = "1.11.0";

json NumberJson(double n) {
  if (n == std::floor(n) && std::fabs(n) < 9.007199254740992e15) return static_cast<int64_t>(n);
  return n;
}

}  // namespace

json TypeJson(const Value& v) {
  switch (v.kind()) {
    case ValueKind::Null:
    case ValueKind::Unknown: return "dynamic";
    case ValueKind::Bool: return "bool";
    case ValueKind::Number: return "number";
    case ValueKind::String: return "string";
    case ValueKind::Tuple: {
      json elems = json::array();
      for (const auto& e : v.AsList()) elems.push_back(TypeJson(e));
      return json::array({"tuple", elems});
    }
    case ValueKind::List:
    case ValueKind::Set: {
      const char* k = v.kind() == ValueKind::List ? "list" : "set";
      return json::array({k, v.AsList().empty() ? json("dynamic") : TypeJson(v.AsList()[0])});
    }
    case ValueKind::Map: return json::array({"map", v.AsMap().empty() ? json("dynamic") : TypeJson(v.AsMap().begin()->second)});
    case ValueKind::Object: {
      json attrs = json::object();
      for (const auto& [k, e] : v.AsMap()) attrs[k] = TypeJson(e);
      return json::array({"object", attrs});
    }
  }
  return "dynamic";
}

namespace {

json IndexJson(const InstanceKey& key) {
  if (key.IsInt()) return key.AsInt();
  if (key.IsString()) return key.AsString();
  return nullptr;
}

const char* ModeName(ResourceMode m) { return m == ResourceMode::Data ? "data" : "managed"; }

//! The provider's source address, without the alias of the block that configures it
//! ("strata/aws.us_east_1" → "strata/aws"), as Terraform's provider_name.
std::string ProviderName(const std::string& provider) {
  size_t dot = provider.find('.', provider.rfind('/') + 1);
  return dot == std::string::npos ? provider : provider.substr(0, dot);
}

//! The provider's local name ("builtin" for "strata/builtin"), as Terraform keys
//! configuration.provider_config and provider_config_key.
std::string ProviderConfigKey(const ResourceInstanceChange& c) {
  return c.provider.substr(c.provider.rfind('/') + 1);
}

//! One resource in planned_values / prior_state / a state's values.
json StateResource(const ResourceInstanceAddr& addr, const std::string& provider, int64_t schema_version,
                   const Value& v) {
  json r = json::object();
  r["address"] = addr.ToString();
  r["mode"] = ModeName(addr.resource.mode);
  r["type"] = addr.resource.type;
  r["name"] = addr.resource.name;
  if (!addr.key.IsNone()) r["index"] = IndexJson(addr.key);
  r["provider_name"] = ProviderName(provider);
  r["schema_version"] = schema_version;
  r["values"] = KnownValueJson(v);
  r["sensitive_values"] = SensitiveAsBool(v);
  return r;
}

json StateResource(const ResourceInstanceChange& c, const Value& v) {
  return StateResource(c.addr, c.provider, c.schema_version, v);
}

//! A module tree of resources: root_module {resources, child_modules[{address, ...}]}.
struct ModuleNode {
  std::vector<std::pair<std::string, json>> resources;
  std::map<std::string, ModuleNode> children;  // by module address
};

// Terraform's order: resources, address, child_modules.
json ModuleJson(const ModuleNode& node, const std::string& address) {
  json m = json::object();
  auto resources = node.resources;
  std::stable_sort(resources.begin(), resources.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  if (!resources.empty()) {
    json arr = json::array();
    for (auto& [k, r] : resources) arr.push_back(std::move(r));
    m["resources"] = std::move(arr);
  }
  if (!address.empty()) m["address"] = address;
  if (!node.children.empty()) {
    json arr = json::array();
    for (const auto& [addr, child] : node.children) arr.push_back(ModuleJson(child, addr));
    m["child_modules"] = std::move(arr);
  }
  return m;
}

void AddToTree(ModuleNode& root, const ModulePath& path, std::string key, json r) {
  ModuleNode* node = &root;
  ModulePath prefix;
  for (const auto& step : path.steps) {
    prefix.steps.push_back(step);
    node = &node->children[prefix.ToString()];
  }
  node->resources.emplace_back(std::move(key), std::move(r));
}

//! configuration.root_module: resources and module_calls.<name>.module, recursively.
struct ConfigNode {
  std::vector<json> resources;
  std::map<std::string, ConfigNode> calls;
};

json ConfigJson(const ConfigNode& node) {
  json m = json::object();
  if (!node.resources.empty()) m["resources"] = node.resources;
  if (!node.calls.empty()) {
    json calls = json::object();
    for (const auto& [name, child] : node.calls) calls[name] = json{{"module", ConfigJson(child)}};
    m["module_calls"] = std::move(calls);
  }
  return m;
}

json ValuesOutputs(const std::vector<std::pair<std::string, std::pair<Value, bool>>>& outputs) {
  json o = json::object();
  for (const auto& [name, vs] : outputs) {
    const auto& [v, declared_sensitive] = vs;
    json e = json::object();
    e["sensitive"] = declared_sensitive || v.ContainsSensitive();
    if (v.IsWhollyKnown()) {
      e["type"] = TypeJson(v);
      e["value"] = KnownValueJson(v);
    }
    o[name] = std::move(e);
  }
  return o;
}

json OutputSensitive(const Value& v, bool declared) {
  if (declared) return true;
  return SensitiveAsBool(v);
}

using Changes = std::vector<const ResourceInstanceChange*>;  // sorted by address
using Outputs = std::vector<const OutputChange*>;             // sorted by name

// planned_values: the objects as they will be after apply (deleted ones absent).
json PlannedValuesJson(const Changes& changes, const Outputs& outputs) {
  json pv = json::object();
  std::vector<std::pair<std::string, std::pair<Value, bool>>> outs;
  for (const auto* o : outputs) {
    if (o->action != Action::Delete) outs.push_back({o->name, {o->after, o->sensitive}});
  }
  if (!outs.empty()) pv["outputs"] = ValuesOutputs(outs);
  ModuleNode root;
  for (const auto* c : changes) {
    if (c->action == Action::Delete || c->action == Action::Forget || c->after.IsNull()) continue;
    AddToTree(root, c->addr.module, c->addr.ToString(), StateResource(*c, c->after));
  }
  pv["root_module"] = ModuleJson(root, "");
  return pv;
}

// replace_paths: each path as a list of its steps (names and indexes).
json ReplacePathsJson(const std::vector<AttrPath>& paths) {
  json out = json::array();
  for (const auto& p : paths) {
    json steps = json::array();
    for (const auto& s : p.steps) {
      if (s.kind == PathStep::Kind::Index) steps.push_back(s.index);
      else steps.push_back(s.name);
    }
    out.push_back(std::move(steps));
  }
  return out;
}

// One entry of resource_changes. Strata's own reasons (an object gone, an interrupted
// create) have no Terraform spelling and are left out.
json ResourceChangeJson(const ResourceInstanceChange& c) {
  json r = json::object();
  r["address"] = c.addr.ToString();
  if (c.previous_addr) r["previous_address"] = c.previous_addr->ToString();
  if (!c.deposed.empty()) r["deposed"] = c.deposed;
  if (!c.addr.module.IsRoot()) r["module_address"] = c.addr.module.ToString();
  r["mode"] = ModeName(c.addr.resource.mode);
  r["type"] = c.addr.resource.type;
  r["name"] = c.addr.resource.name;
  if (!c.addr.key.IsNone()) r["index"] = IndexJson(c.addr.key);
  r["provider_name"] = ProviderName(c.provider);
  json ch = json::object();
  ch["actions"] = ActionJsonNames(c.action);
  Value before = c.action == Action::Create ? Value() : c.before;
  Value after = c.action == Action::Delete || c.action == Action::Forget ? Value() : c.after;
  ch["before"] = KnownValueJson(before);
  ch["after"] = KnownValueJson(after);
  ch["after_unknown"] = after.IsWhollyKnown() ? json::object() : UnknownAsBool(after);
  ch["before_sensitive"] = SensitiveAsBool(before);
  ch["after_sensitive"] = SensitiveAsBool(after);
  if (!c.requires_replace.empty()) ch["replace_paths"] = ReplacePathsJson(c.requires_replace);
  if (c.importing_id) ch["importing"] = json{{"id", *c.importing_id}};
  r["change"] = std::move(ch);
  if (c.action == Action::Forget) {
    r["action_reason"] = ActionReasonName(ActionReason::DeleteBecauseNoResourceConfig);
  } else if (c.reason != ActionReason::None && c.reason != ActionReason::RecreateBecauseGone &&
      c.reason != ActionReason::CreateAfterInterruption && c.reason != ActionReason::InterruptedCreate) {
    r["action_reason"] = ActionReasonName(c.reason);
  }
  return r;
}

json OutputChangesJson(const Outputs& outputs) {
  json oc = json::object();
  for (const auto* o : outputs) {
    json e = json::object();
    e["actions"] = ActionJsonNames(o->action);
    Value before = o->action == Action::Create ? Value() : o->before;
    Value after = o->action == Action::Delete ? Value() : o->after;
    e["before"] = KnownValueJson(before);
    if (after.IsWhollyKnown()) e["after"] = KnownValueJson(after);
    e["after_unknown"] = after.IsWhollyKnown() ? json(false) : UnknownAsBool(after);
    e["before_sensitive"] = OutputSensitive(before, o->sensitive);
    e["after_sensitive"] = OutputSensitive(after, o->sensitive);
    oc[o->name] = std::move(e);
  }
  return oc;
}

// prior_state: the objects as they were (every change with a prior object); none for a
// stage never applied that changes nothing it had.
std::optional<json> PriorStateJson(const Plan& plan, const Changes& changes, const Outputs& outputs,
                                   const JsonRenderOptions& options) {
  ModuleNode root;
  bool any = false;
  for (const auto* c : changes) {
    if (c->action == Action::Create || c->action == Action::Read || c->before.IsNull()) continue;
    json resource = StateResource(*c, c->before);
    if (!c->deposed.empty()) resource["deposed_key"] = c->deposed;  // Terraform's spelling in state values
    AddToTree(root, c->addr.module, c->addr.ToString(), std::move(resource));
    any = true;
  }
  std::vector<std::pair<std::string, std::pair<Value, bool>>> outs;
  for (const auto* o : outputs) {
    if (o->action != Action::Create && !o->before.IsNull()) outs.push_back({o->name, {o->before, o->sensitive}});
  }
  if (!any && outs.empty() && plan.prior_serial == 0) return std::nullopt;
  json ps = json::object();
  ps["format_version"] = "1.0";
  ps["terraform_version"] = kTerraformVersion;
  ps["strata_version"] = options.strata_version;
  json values = json::object();
  if (!outs.empty()) values["outputs"] = ValuesOutputs(outs);
  values["root_module"] = ModuleJson(root, "");
  ps["values"] = std::move(values);
  return ps;
}

// configuration: a minimal but valid shape (no expressions).
json ConfigurationJson(const Plan& plan, const Changes& changes, const Outputs& outputs) {
  json cfg = json::object();
  json providers = json::object();
  for (const auto* c : changes) {
    std::string key = ProviderConfigKey(*c);
    if (key.empty() || providers.contains(key)) continue;
    providers[key] = json{{"name", key}, {"full_name", c->provider}};
  }
  if (!providers.empty()) cfg["provider_config"] = std::move(providers);
  // Configuration is per module call, not per module instance: child modules sit under
  // module_calls.<name>.module, with addresses relative to the module.
  ConfigNode root;
  std::set<std::string> seen;
  for (const auto* c : changes) {
    if (c->action == Action::Delete) continue;
    ConfigNode* node = &root;
    std::string key;
    for (const auto& step : c->addr.module.steps) {
      node = &node->calls[step.name];
      key += "module." + step.name + ".";
    }
    key += c->addr.resource.ToString();
    if (!seen.insert(key).second) continue;
    json r = json::object();
    r["address"] = c->addr.resource.ToString();
    r["mode"] = ModeName(c->addr.resource.mode);
    r["type"] = c->addr.resource.type;
    r["name"] = c->addr.resource.name;
    r["provider_config_key"] = ProviderConfigKey(*c);
    r["expressions"] = json::object();
    r["schema_version"] = c->schema_version;
    node->resources.push_back(std::move(r));
  }
  json rm = ConfigJson(root);
  json outs = json::object();
  for (const auto* o : outputs) {
    if (o->action == Action::Delete) continue;
    json e = json::object();
    if (o->sensitive) e["sensitive"] = true;
    e["expression"] = json::object();
    outs[o->name] = std::move(e);
  }
  if (!outs.empty()) rm["outputs"] = std::move(outs);
  if (!plan.variables.empty()) {
    json vars = json::object();
    for (const auto& [name, v] : plan.variables) {
      json e = json::object();
      if (v.ContainsSensitive()) e["sensitive"] = true;
      vars[name] = std::move(e);
    }
    rm["variables"] = std::move(vars);
  }
  cfg["root_module"] = std::move(rm);
  return cfg;
}

}  // namespace

json UnknownAsBool(const Value& v) {
  if (v.IsUnknown()) return true;
  if (v.IsNull()) return false;
  if (v.IsSequence()) {
    json a = json::array();
    for (const auto& e : v.AsList()) a.push_back(UnknownAsBool(e));
    return a;
  }
  if (v.IsMapping()) {
    json o = json::object();
    for (const auto& [k, e] : v.AsMap()) {
      json b = UnknownAsBool(e);
      if (!(b.is_boolean() && !b.get<bool>())) o[k] = std::move(b);
    }
    return o;
  }
  return false;
}

json SensitiveAsBool(const Value& v) {
  if (v.IsSensitive()) return true;
  if (v.IsNull() || v.IsUnknown()) return false;
  if (v.IsSequence()) {
    json a = json::array();
    for (const auto& e : v.AsList()) a.push_back(SensitiveAsBool(e));
    return a;
  }
  if (v.IsMapping()) {
    json o = json::object();
    for (const auto& [k, e] : v.AsMap()) {
      json b = SensitiveAsBool(e);
      if (!(b.is_boolean() && !b.get<bool>())) o[k] = std::move(b);
    }
    return o;
  }
  return false;
}

json KnownValueJson(const Value& v) {
  switch (v.kind()) {
    case ValueKind::Null:
    case ValueKind::Unknown: return nullptr;
    case ValueKind::Bool: return v.AsBool();
    case ValueKind::Number: return NumberJson(v.AsNumber());
    case ValueKind::String: return v.AsString();
    case ValueKind::List:
    case ValueKind::Tuple:
    case ValueKind::Set: {
      json a = json::array();
      for (const auto& e : v.AsList()) a.push_back(KnownValueJson(e));
      return a;
    }
    case ValueKind::Map:
    case ValueKind::Object: {
      json o = json::object();
      for (const auto& [k, e] : v.AsMap()) {
        if (!e.IsUnknown()) o[k] = KnownValueJson(e);
      }
      return o;
    }
  }
  return nullptr;
}

json RenderStateJson(const StateView& state, const JsonRenderOptions& options) {
  json j = json::object();
  j["format_version"] = "1.0";
  if (state.resources.empty() && state.outputs.empty()) return j;  // Terraform's empty state: nothing else
  j["terraform_version"] = kTerraformVersion;
  j["strata_version"] = options.strata_version;
  json values = json::object();
  if (!state.outputs.empty()) {
    // Terraform's state outputs: sensitive, value, type (values in clear, as in the plan).
    json outs = json::object();
    for (const StateView::Output& o : state.outputs) {
      json e = json::object();
      e["sensitive"] = o.sensitive || o.value.ContainsSensitive();
      e["value"] = KnownValueJson(o.value);
      e["type"] = TypeJson(o.value);
      outs[o.name] = std::move(e);
    }
    values["outputs"] = std::move(outs);
  }
  ModuleNode root;
  for (const StateView::Resource& r : state.resources) {
    json e = StateResource(r.addr, r.provider, r.schema_version, r.values);
    if (r.tainted) e["tainted"] = true;
    if (!r.depends_on.empty()) e["depends_on"] = r.depends_on;
    AddToTree(root, r.addr.module, r.addr.ToString(), std::move(e));
  }
  values["root_module"] = ModuleJson(root, "");
  j["values"] = std::move(values);
  return j;
}

json RenderPlanJson(const Plan& plan, const JsonRenderOptions& options) {
  Changes changes;
  for (const auto& c : plan.changes) changes.push_back(&c);
  std::stable_sort(changes.begin(), changes.end(),
                   [](const auto* a, const auto* b) { return a->addr.ToString() < b->addr.ToString(); });
  Outputs outputs;
  for (const auto& o : plan.output_changes) outputs.push_back(&o);
  std::stable_sort(outputs.begin(), outputs.end(), [](const auto* a, const auto* b) { return a->name < b->name; });

  json j = json::object();
  j["format_version"] = kTerraformFormatVersion;
  j["terraform_version"] = kTerraformVersion;
  j["strata_version"] = options.strata_version;
  j["strata_environment"] = plan.environment;  // Strata's, as strata_version: not Terraform's
  if (!plan.variables.empty()) {
    json vars = json::object();
    for (const auto& [name, v] : plan.variables) vars[name] = json{{"value", KnownValueJson(v)}};
    j["variables"] = std::move(vars);
  }
  j["planned_values"] = PlannedValuesJson(changes, outputs);
  if (!changes.empty()) {
    json rc = json::array();
    for (const auto* c : changes) rc.push_back(ResourceChangeJson(*c));
    j["resource_changes"] = std::move(rc);
  }
  if (!outputs.empty()) j["output_changes"] = OutputChangesJson(outputs);
  if (std::optional<json> prior = PriorStateJson(plan, changes, outputs, options)) j["prior_state"] = std::move(*prior);
  j["configuration"] = ConfigurationJson(plan, changes, outputs);
  // Terraform's plan timestamp is when the plan began (plantimestamp()'s value).
  j["timestamp"] = !options.timestamp.empty() ? options.timestamp
                   : !plan.timestamp.empty()  ? plan.timestamp
                                              : base::FormatRfc3339(std::chrono::system_clock::now());
  j["applyable"] = !plan.errored && plan.HasChanges();
  j["complete"] = !plan.errored;
  j["errored"] = plan.errored;
  return j;
}

}  // namespace strata
