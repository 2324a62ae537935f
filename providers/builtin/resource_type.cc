#include "providers/builtin/resource_type.h"

namespace strata {

BuiltinEnv BuiltinEnv::Real() {
  return {SystemRandom(), SystemClock(), LocalFileSystem(), PosixProcessRunner()};
}

using namespace builtin;

ResourceSchema ResourceType::PublishedSchema() const {
  ResourceSchema schema = Schema();
  schema.create_recovery = Recovery();
  return schema;
}

ApplyResult ResourceType::CreateOrAdopt(const OperationContext& ctx, const Value& planned) {
  if (ctx.resume_interrupted_create) {
    ReadResult found = FindCreated(ctx, planned);
    if (found.diags.HasErrors()) return {Value(), found.diags};
    if (!found.gone && !found.state.IsNull()) {
      ctx.Progress("found the object the interrupted create made; adopting it");
      return AdoptFound(ctx, found, planned);
    }
  }
  ApplyResult created = Create(ctx, planned);
  if (!created.outcome_unknown || !created.state.IsNull() || !LooksForLostCreates()) return created;
  // The create's answer was lost: it may have made the object. Look for it now, by the
  // type's recovery, rather than leave it to the next run (a type whose API takes a client
  // token resends the same token there instead).
  ReadResult found = FindCreated(ctx, planned);
  if (found.diags.HasErrors() || found.gone || found.state.IsNull()) return created;
  ctx.Progress("the create's answer was lost, but the object it made was found; adopting it");
  return AdoptFound(ctx, found, planned);
}

bool ResourceType::LooksForLostCreates() const {
  CreateRecovery recovery = Recovery();
  return recovery == CreateRecovery::CreateTag || recovery == CreateRecovery::NaturalKey;
}

ApplyResult ResourceType::AdoptFound(const OperationContext& ctx, const ReadResult& found, const Value& planned) {
  ApplyResult adopted = Adopt(ctx, found.state, planned);
  adopted.diags.Append(found.diags);
  // A failed adjustment still leaves an object that exists: keep it (tainted by the engine).
  if (adopted.state.IsNull() && adopted.diags.HasErrors()) adopted.state = found.state;
  return adopted;
}

Value ResourceType::KnownFrom(const Value& planned, const Value& found) {
  // What the provider computes (ids, ARNs) is unknown in `planned`: the found object has it.
  Value target = planned;
  if (planned.IsMapping()) {
    for (const auto& [name, v] : planned.AsMap()) {
      if (v.IsUnknown()) target = With(target, name, Get(found, name));
    }
  }
  return target;
}

ReadResult ResourceType::FindCreated(const OperationContext& ctx, const Value& planned) {
  (void)ctx, (void)planned;
  return {Value(), true, {}};
}

Diagnostics ResourceType::Validate(const Value& config) const {
  (void)config;
  return {};
}

namespace {

bool SameValue(const Value& a, const Value& b) {
  if (a.IsNull() && b.IsNull()) return true;
  return a.Equals(b);
}

}  // namespace

PlanResult ResourceType::Plan(const OperationContext& ctx, const Value& prior,
                              const Value& proposed, const Value& config) const {
  (void)ctx;
  PlanResult result;
  if (proposed.IsNull()) return result;  // destroy
  const ResourceSchema schema = Schema();
  result.diags = Validate(config.IsNull() ? proposed : config);
  if (result.diags.HasErrors()) return result;

  auto set_by_user = [&](const std::string& name, const AttributeSchema& a) {
    if (!config.IsNull()) return !Get(config, name).IsNull();
    return a.optional && !Get(proposed, name).IsNull();
  };
  // The value a create would start from: computed attributes not set by the user reset.
  auto create_shape = [&]() {
    Value v = proposed;
    for (const auto& [name, a] : schema.attributes) {
      if (a.computed && !set_by_user(name, a)) v = With(v, name, Value());
    }
    v = ApplyDefaults(v);
    for (const auto& [name, a] : schema.attributes) {
      if (a.computed && Get(v, name).IsNull()) v = With(v, name, Value::Unknown());
    }
    return Normalize(schema, v);
  };

  if (prior.IsNull()) {
    result.planned = create_shape();
    return result;
  }
  Value planned = ApplyDefaults(proposed);
  for (const auto& [name, a] : schema.attributes) {
    if (a.force_new && !SameValue(Get(prior, name), Get(planned, name))) {
      result.requires_replace.push_back(AttrPath::Of(name));
    }
  }
  if (!result.requires_replace.empty()) {
    result.planned = create_shape();
    return result;
  }
  result.planned = Normalize(schema, PlanUpdate(prior, planned));
  return result;
}

ReadResult ResourceType::Read(const OperationContext& ctx, const Value& prior) {
  (void)ctx;
  return {prior, false, {}};
}

ApplyResult ResourceType::Update(const OperationContext& ctx, const Value& prior,
                                 const Value& planned) {
  (void)ctx, (void)prior;
  return {planned, {}};
}

DeleteResult ResourceType::Delete(const OperationContext& ctx, const Value& prior) {
  (void)ctx, (void)prior;
  return {};
}

ApplyResult ResourceType::Import(const OperationContext& ctx, const std::string& id) {
  (void)ctx, (void)id;
  ApplyResult result;
  result.diags = Error("Resource type cannot be imported",
                       "The " + Schema().type + " resource type does not support import.");
  return result;
}

namespace builtin {

Value Get(const Value& v, const std::string& name) {
  if (!v.IsMapping()) return Value();
  const ValueMap& m = v.AsMap();
  auto it = m.find(name);
  return it == m.end() ? Value() : it->second;
}

Value With(const Value& v, const std::string& name, Value value) {
  ValueMap m = v.IsMapping() ? v.AsMap() : ValueMap{};
  m[name] = std::move(value);
  return Value::Object(std::move(m));
}

std::string GetString(const Value& v, const std::string& name, const std::string& fallback) {
  Value a = Get(v, name);
  if (a.IsString()) return a.AsString();
  if (a.IsNumber()) return FormatNumber(a.AsNumber());
  if (a.IsBool()) return a.AsBool() ? "true" : "false";
  return fallback;
}

std::optional<double> GetNumber(const Value& v, const std::string& name) {
  Value a = Get(v, name);
  if (a.IsNumber()) return a.AsNumber();
  if (a.IsString()) {
    try {
      size_t used = 0;
      double d = std::stod(a.AsString(), &used);
      if (used == a.AsString().size()) return d;
    } catch (...) {
    }
  }
  return std::nullopt;
}

bool GetBool(const Value& v, const std::string& name, bool fallback) {
  Value a = Get(v, name);
  if (a.IsBool()) return a.AsBool();
  if (a.IsString()) {
    if (a.AsString() == "true") return true;
    if (a.AsString() == "false") return false;
  }
  return fallback;
}

std::map<std::string, std::string> GetStringMap(const Value& v, const std::string& name) {
  std::map<std::string, std::string> out;
  Value a = Get(v, name);
  if (!a.IsMapping()) return out;
  for (const auto& [k, item] : a.AsMap()) {
    Value holder = Value::Object({{"x", item}});
    out[k] = GetString(holder, "x");
  }
  return out;
}

std::vector<std::string> GetStringList(const Value& v, const std::string& name) {
  std::vector<std::string> out;
  Value a = Get(v, name);
  if (!a.IsSequence()) return out;
  for (const Value& item : a.AsList()) {
    out.push_back(GetString(Value::Object({{"x", item}}), "x"));
  }
  return out;
}

Value Normalize(const ResourceSchema& schema, const Value& v) {
  if (v.IsNull()) return v;
  ValueMap out;
  for (const auto& [name, a] : schema.attributes) {
    Value item = Get(v, name);
    if (a.sensitive && !item.IsNull()) item = item.MarkSensitive();
    out[name] = item;
  }
  return Value::Object(std::move(out));
}

Diagnostics Error(const std::string& summary, const std::string& detail) {
  Diagnostics d;
  d.Error(summary, detail);
  return d;
}

namespace {
Type T(const char* text) { return *ParseType(text).type; }
}  // namespace

AttributeSchema Required(const char* type, bool force_new) {
  AttributeSchema a;
  a.type = T(type);
  a.required = true;
  a.force_new = force_new;
  return a;
}

AttributeSchema Optional(const char* type, bool force_new) {
  AttributeSchema a;
  a.type = T(type);
  a.optional = true;
  a.force_new = force_new;
  return a;
}

AttributeSchema OptionalComputed(const char* type, bool force_new) {
  AttributeSchema a = Optional(type, force_new);
  a.computed = true;
  return a;
}

AttributeSchema Computed(const char* type, bool sensitive) {
  AttributeSchema a;
  a.type = T(type);
  a.computed = true;
  a.sensitive = sensitive;
  return a;
}

ResourceSchema ManagedSchema(const char* type, std::map<std::string, AttributeSchema> attributes) {
  ResourceSchema s;
  s.type = type;
  s.attributes = std::move(attributes);
  s.attributes["id"] = Computed("string");
  return s;
}

}  // namespace builtin
}  // namespace strata
