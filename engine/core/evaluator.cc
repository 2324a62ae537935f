#include "engine/core/evaluator.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "engine/core/environment_refs.h"
#include "engine/core/schema_check.h"
#include "engine/expr/eval.h"
#include "engine/expr/parser.h"
#include "engine/expr/template_file.h"
#include "engine/graph/walker.h"

namespace strata {

// Resolves names for expressions of one module (and one resource instance's each/count).
class StageEvaluation::NodeScope : public Scope {
 public:
  NodeScope(const StageEvaluation& eval, size_t module, const Value* each_key, const Value* each_value, const Value* count_index)
      : eval_(eval), module_(module), each_key_(each_key), each_value_(each_value), count_index_(count_index) {}

  Value Resolve(const Reference& ref, size_t& consumed) override {
    const ModuleInstance& m = eval_.graph_.modules[module_];
    const std::string& root = ref.root;
    auto name = [&](size_t i) -> const std::string& { return ref.steps.at(i).name; };
    auto node = [&](const std::map<std::string, NodeId>& table, const std::string& key) -> Value {
      auto it = table.find(key);
      if (it == table.end()) throw MakeEvalError(ref.range, "Reference to undeclared name", ref.ToString() + " is not declared.");
      return eval_.results_[it->second];
    };
    if (ref.steps.empty() &&
        (root == "var" || root == "local" || root == "data" || root == "module" || root == "stage" || root == "path")) {
      throw MakeEvalError(ref.range, "Invalid reference", fmt::format("\"{}\" must be followed by a name.", root));
    }
    consumed = 1;
    if (root == "var") return node(m.variables, name(0));
    if (root == "local") return node(m.locals, name(0));
    if (root == "data") return node(m.data, name(0));
    if (root == "module") return ModuleValue(m, ref, consumed);
    if (root == "stage") return StageValue(ref, consumed);
    if (root == "env") return EnvReferenceValue(ref, eval_.options_.environment);
    if (root == "each") {
      if (!each_key_) throw MakeEvalError(ref.range, "Reference to \"each\" in context without for_each", "each is only available with for_each.");
      return ref.steps.empty() || name(0) == "key" ? *each_key_ : *each_value_;
    }
    if (root == "count") {
      if (!count_index_) throw MakeEvalError(ref.range, "Reference to \"count\" in non-counted context", "count.index needs count.");
      return *count_index_;
    }
    if (root == "path") {
      if (name(0) == "module") return Value::String(eval_.ModuleDir(module_));
      if (name(0) == "root") return Value::String(eval_.options_.stage_dir);
      if (name(0) == "cwd") return Value::String(eval_.options_.project_dir);
      throw MakeEvalError(ref.range, "Invalid \"path\" attribute", "Use path.module, path.root or path.cwd.");
    }
    consumed = 0;
    return node(m.resources, root);
  }

 private:
  Value ModuleValue(const ModuleInstance& m, const Reference& ref, size_t& consumed) {
    auto it = m.children.find(ref.steps[0].name);
    if (it == m.children.end()) throw MakeEvalError(ref.range, "Reference to undeclared module", ref.ToString() + " is not declared.");
    const ModuleInstance& child = eval_.graph_.modules[it->second];
    if (ref.steps.size() >= 2 && ref.steps[1].kind == TraversalStep::Kind::Attr) {
      auto out = child.outputs.find(ref.steps[1].name);
      if (out != child.outputs.end()) {
        consumed = 2;
        return eval_.results_[out->second];
      }
    }
    ValueMap outputs;
    for (const auto& [name, id] : child.outputs) outputs.emplace(name, eval_.results_[id]);
    return Value::Object(std::move(outputs));
  }

  Value StageValue(const Reference& ref, size_t& consumed) {
    if (ref.steps.size() < 2) throw MakeEvalError(ref.range, "Invalid reference", "Name an output, as in stage.eks.cluster_name.");
    consumed = 2;
    if (!eval_.options_.stage_output) return Value::Unknown();
    return eval_.options_.stage_output(ref.steps[0].name, ref.steps[1].name, ref.range);
  }

  const StageEvaluation& eval_;
  size_t module_;
  const Value* each_key_;
  const Value* each_value_;
  const Value* count_index_;
};

namespace {

// count and for_each are held to limits.max_instances: count: 1e12 would otherwise take all
// the memory before any other error could be reported.
bool WithinInstanceLimit(const LimitsSettings& limits, double instances, const std::string& what, const SourceRange& at,
                         Diagnostics& diags) {
  if (instances <= limits.max_instances) return true;
  std::string set_at =
      limits.max_instances_range.IsKnown() ? fmt::format(" (set at {})", limits.max_instances_range.ToString()) : "";
  diags.Error("Too many instances",
              fmt::format("{}, more than the {} instances a resource may have{}. If so many are meant, raise "
                          "limits.max_instances in strata.yaml, as in limits: {{ max_instances: 50000 }}.",
                          what, limits.max_instances, set_at),
              at);
  return false;
}

}  // namespace

StageEvaluation::StageEvaluation(const StageGraph& graph, const SchemaSource* schemas, EvaluateOptions options)
    : graph_(graph), schemas_(schemas), options_(std::move(options)), results_(graph.nodes.size()), instances_(graph.nodes.size()) {}

NodeId StageEvaluation::ProviderNodeOf(const GraphNode& n) const {
  return FindProviderBlock(graph_, n.module, ProviderKeyOf(*n.resource));
}

std::string StageEvaluation::ModuleDir(size_t module) const { return graph_.modules[module].config->dir; }

Value StageEvaluation::EvalExpr(const Expr& expr, size_t module, Diagnostics& diags, const Value* each_key,
                                const Value* each_value, const Value* count_index) const {
  NodeScope scope(*this, module, each_key, each_value, count_index);
  FunctionContext fctx;
  fctx.base_dir = ModuleDir(module);
  fctx.render_template = RenderTemplateFile;
  EvalContext ctx(scope, FunctionTable::Standard(), std::move(fctx));
  return Evaluate(expr, ctx, diags);
}

Value StageEvaluation::EvaluateInModule(const Expr& expr, size_t module, Diagnostics& diags) const {
  return EvalExpr(expr, module, diags);
}

void StageEvaluation::Run(Diagnostics& diags) {
  diags_ = &diags;
  WalkOptions options;
  options.parallelism = options_.parallelism;
  options.stop = options_.stop;
  status_ = WalkDag(graph_.dag, options, [this](NodeId id) { return Visit(id); });
  diags_ = nullptr;
}

bool StageEvaluation::Visit(NodeId id) {
  const GraphNode& n = graph_.nodes[id];
  Diagnostics local;
  switch (n.kind) {
    case NodeKind::Variable: EvalVariable(id, n, local); break;
    case NodeKind::Local: results_[id] = EvalExpr(*n.local->value, n.module, local); break;
    case NodeKind::Provider: results_[id] = n.provider->settings ? EvalExpr(*n.provider->settings, n.module, local) : Value::Object({}); break;
    case NodeKind::Resource:
    case NodeKind::Data: EvalResource(id, n, local); break;
    case NodeKind::Output: EvalOutput(id, n, local); break;
  }
  std::string label = graph_.Label(id);
  bool ok = !local.HasErrors();
  std::lock_guard lock(diags_mutex_);
  for (Diagnostic d : local) {
    if (d.address.empty() && (n.kind == NodeKind::Resource || n.kind == NodeKind::Data)) d.address = label;
    diags_->Add(std::move(d));
  }
  return ok;
}

void StageEvaluation::EvalVariable(NodeId id, const GraphNode& n, Diagnostics& diags) {
  const VariableConfig& decl = *n.variable;
  const ModuleInstance& m = graph_.modules[n.module];
  Value v;
  bool given = false;
  SourceRange where = decl.range;
  std::string source;
  if (m.call) {
    auto it = m.call->inputs.find(decl.name);
    if (it != m.call->inputs.end()) {
      v = EvalExpr(*it->second, static_cast<size_t>(m.parent), diags);
      given = true;
      where = it->second->range();
      source = fmt::format("the input of module \"{}\"", m.call->name);
    }
  } else if (auto it = options_.root_variables.find(decl.name); it != options_.root_variables.end()) {
    v = it->second.value;
    given = true;
    if (it->second.range.IsKnown()) where = it->second.range;
    source = it->second.source;
  }
  if (diags.HasErrors()) return;
  if (!given || (v.IsNull() && !decl.nullable)) {
    if (decl.default_value) {
      v = EvalExpr(*decl.default_value, n.module, diags);
    } else if (!given) {
      diags.Error("No value for required variable",
                  fmt::format("The variable \"{}\" has no default, so a value must be given: -var {}=VALUE, a -var-file, or "
                              "the environment variable STRATA_VAR_{}.",
                              decl.name, decl.name, decl.name),
                  decl.range);
      return;
    } else {
      diags.Error("Required variable not set", fmt::format("The variable \"{}\" is not nullable, but {} gave null.", decl.name, source), where);
      return;
    }
  }
  if (decl.type) {
    ConversionResult c = ConvertValue(v, *decl.type);
    if (!c.ok()) {
      diags.Error("Invalid value for input variable",
                  fmt::format("The value for \"{}\"{} is not a {}: {}.", decl.name, source.empty() ? "" : " from " + source,
                              decl.type->ToString(), c.error),
                  where);
      return;
    }
    v = c.value;
  }
  if (decl.sensitive) v = v.MarkSensitive();
  results_[id] = v;
  for (const auto& rule : decl.validations) {
    Value ok = EvalExpr(*rule.condition, n.module, diags);
    if (diags.HasErrors() || !ok.IsKnown()) continue;
    if (!ok.IsBool()) {
      diags.Error("Invalid validation condition", "The condition must produce true or false.", rule.condition->range());
      continue;
    }
    if (ok.AsBool()) continue;
    Value message = EvalExpr(*rule.message, n.module, diags);
    std::string text = message.IsString() && !message.IsSensitive() ? message.AsString() : "(the message refers to a sensitive value)";
    diags.Error("Invalid value for variable",
                fmt::format("{}\n\nThis was checked by the validation rule at {}.", text, rule.range.ToString()), where);
  }
}

void StageEvaluation::EvalResource(NodeId id, const GraphNode& n, Diagnostics& diags) {
  const ResourceConfig& r = *n.resource;
  std::vector<InstanceSpec> specs;
  if (r.count) {
    Value c = EvalExpr(*r.count, n.module, diags);
    if (diags.HasErrors()) return;
    if (!c.IsKnown()) {
      diags.Error("Invalid count argument",
                  "The \"count\" value depends on values that cannot be determined until apply, so Strata cannot tell how "
                  "many instances to make. Use values known before apply (variables, locals), or apply the resources it "
                  "depends on first with -target.",
                  r.count->range());
      return;
    }
    auto num = ConvertValue(c.DeepUnmark(), Type::Primitive(Type::Kind::Number));
    if (!num.ok() || !num.value.IsNumber() || num.value.AsNumber() < 0 ||
        num.value.AsNumber() != std::floor(num.value.AsNumber())) {
      diags.Error("Invalid count argument", "count must be a whole number, zero or more.", r.count->range());
      return;
    }
    double count = num.value.AsNumber();
    if (!WithinInstanceLimit(options_.limits, count, fmt::format("count is {}", FormatNumber(count)), r.count->range(), diags)) {
      return;
    }
    for (int64_t i = 0; i < static_cast<int64_t>(count); ++i) {
      specs.push_back({InstanceKey::Int(i), {}, {}, Value::Number(static_cast<double>(i)), InstanceSpec::Count});
    }
    ValueList items;
    for (Value& v : EvalInstances(id, n, specs, diags)) items.push_back(std::move(v));
    results_[id] = Value::Tuple(std::move(items));
    return;
  }
  if (r.for_each) {
    Value each = EvalExpr(*r.for_each, n.module, diags);
    if (diags.HasErrors()) return;
    bool keys_known = each.IsKnown() && (each.IsMapping() || each.IsWhollyKnown());
    if (!keys_known) {
      diags.Error("Invalid for_each argument",
                  "The \"for_each\" keys depend on values that cannot be determined until apply, so Strata cannot tell "
                  "which instances to make. Use keys known before apply (for example names from variables), or apply the "
                  "resources they depend on first with -target.",
                  r.for_each->range());
      return;
    }
    if (each.IsSensitive()) {
      diags.Error("Invalid for_each argument", "Sensitive values cannot be used in for_each: the instance keys would be shown in plans.",
                  r.for_each->range());
      return;
    }
    size_t size = each.IsMapping() ? each.AsMap().size() : each.kind() == ValueKind::Set ? each.AsList().size() : 0;
    if (!WithinInstanceLimit(options_.limits, static_cast<double>(size), fmt::format("for_each has {} elements", size),
                             r.for_each->range(), diags)) {
      return;
    }
    if (each.IsMapping()) {
      for (const auto& [k, v] : each.AsMap()) specs.push_back({InstanceKey::String(k), Value::String(k), v, {}, InstanceSpec::Each});
    } else if (each.kind() == ValueKind::Set) {
      for (const auto& v : each.AsList()) {
        if (!v.IsString()) {
          diags.Error("Invalid for_each set argument", "for_each over a set needs a set of strings.", r.for_each->range());
          return;
        }
        specs.push_back({InstanceKey::String(v.AsString()), v, v, {}, InstanceSpec::Each});
      }
    } else {
      diags.Error("Invalid for_each argument",
                  fmt::format("for_each needs a map or a set of strings, got {}. For a list, use toset(...).", each.TypeName()),
                  r.for_each->range());
      return;
    }
    std::vector<Value> values = EvalInstances(id, n, specs, diags);
    ValueMap items;
    for (size_t i = 0; i < specs.size(); ++i) items.emplace(specs[i].key.AsString(), std::move(values[i]));
    results_[id] = Value::Object(std::move(items));
    return;
  }
  specs.push_back({InstanceKey(), {}, {}, {}, InstanceSpec::Single});
  results_[id] = EvalInstances(id, n, specs, diags)[0];
}

// The instances' indexes grouped by ordering class, lowest class first (one group when no
// class is known).
std::vector<std::vector<size_t>> StageEvaluation::ClassBatches(const std::vector<ResourceInstanceAddr>& addrs) const {
  std::map<int, std::vector<size_t>> by_class;
  for (size_t i = 0; i < addrs.size(); ++i) {
    by_class[options_.instance_class ? options_.instance_class(addrs[i]) : 0].push_back(i);
  }
  std::vector<std::vector<size_t>> batches;
  for (auto& [cls, members] : by_class) batches.push_back(std::move(members));
  return batches;
}

// Evaluates each instance's properties in order, then hands them to the instance hook, up
// to `parallelism` at once: a counted resource's instances are independent of each other,
// and apply runs their provider calls side by side.
std::vector<Value> StageEvaluation::EvalInstances(NodeId id, const GraphNode& n, const std::vector<InstanceSpec>& specs,
                                                  Diagnostics& diags) {
  const ResourceConfig& r = *n.resource;
  const ModuleInstance& m = graph_.modules[n.module];
  const ResourceSchema* schema = schemas_ ? schemas_->Find(r.mode, r.type) : nullptr;
  std::vector<Value> values(specs.size());
  std::vector<ResourceInstanceAddr> addrs(specs.size());
  for (size_t i = 0; i < specs.size(); ++i) {
    const InstanceSpec& spec = specs[i];
    bool each = spec.kind == InstanceSpec::Each, counted = spec.kind == InstanceSpec::Count;
    Value props = r.properties ? EvalExpr(*r.properties, n.module, diags, each ? &spec.each_key : nullptr,
                                          each ? &spec.each_value : nullptr, counted ? &spec.count_index : nullptr)
                               : Value::Object({});
    addrs[i] = ResourceInstanceAddr{m.path, r.Addr(), spec.key};
    values[i] = schema ? ConformToSchema(r, *schema, props, addrs[i].ToString(), diags) : props;
  }
  if (schema && options_.on_instance && !diags.HasErrors()) {
    NodeId provider_node = ProviderNodeOf(n);
    Value provider_config = provider_node != kNoNode ? results_[provider_node] : Value::Null();
    std::vector<Diagnostics> local(specs.size());
    for (const std::vector<size_t>& batch : ClassBatches(addrs)) {
      std::atomic<size_t> next{0};
      auto work = [&] {
        for (size_t b = next++; b < batch.size(); b = next++) {
          size_t i = batch[b];
          InstanceHookInput in{id, &n, addrs[i], schema, values[i], provider_config, provider_node};
          values[i] = options_.on_instance(in, local[i]);
        }
      };
      size_t threads = std::min<size_t>(batch.size(), static_cast<size_t>(std::max(1, options_.parallelism)));
      std::vector<std::thread> pool;
      for (size_t t = 1; t < threads; ++t) pool.emplace_back(work);
      work();
      for (auto& t : pool) t.join();
    }
    for (const Diagnostics& d : local) diags.Append(d);
  } else if (schema) {
    for (Value& v : values) v = PlannedInstanceValue(*schema, v);
  }
  for (size_t i = 0; i < specs.size(); ++i) instances_[id].push_back({addrs[i], values[i]});
  return values;
}

void StageEvaluation::EvalOutput(NodeId id, const GraphNode& n, Diagnostics& diags) {
  const OutputConfig& o = *n.output;
  if (!o.value) return;
  Value v = EvalExpr(*o.value, n.module, diags);
  if (diags.HasErrors()) return;
  if (v.ContainsSensitive() && !o.sensitive && graph_.modules[n.module].parent < 0) {
    diags.Error("Output refers to sensitive values",
                fmt::format("The output \"{}\" shows a sensitive value. Add sensitive: true to the output to confirm that it may "
                            "be stored and passed on, or wrap the value in nonsensitive() if it is not secret.",
                            o.name),
                o.value->range());
    return;
  }
  results_[id] = o.sensitive ? v.MarkSensitive() : v;
}

std::map<std::string, Value> StageEvaluation::RootOutputs() const {
  std::map<std::string, Value> out;
  for (const auto& [name, id] : graph_.modules[0].outputs) out[name] = results_[id];
  return out;
}

}  // namespace strata
