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

// Resolves names for expressions of one instance of one module (and one repeated
// instance's each/count: a resource's, or a module call's for its inputs).
class StageEvaluation::NodeScope : public Scope {
 public:
  NodeScope(const StageEvaluation& eval, size_t module, size_t instance, const InstanceSpec* spec)
      : eval_(eval), module_(module), instance_(instance), spec_(spec) {}

  Value Resolve(const Reference& ref, size_t& consumed) override {
    const ModuleInstance& m = eval_.graph_.modules[module_];
    const std::string& root = ref.root;
    auto name = [&](size_t i) -> const std::string& { return ref.steps.at(i).name; };
    auto node = [&](const std::map<std::string, NodeId>& table, const std::string& key) -> Value {
      auto it = table.find(key);
      if (it == table.end()) throw MakeEvalError(ref.range, "Reference to undeclared name", ref.ToString() + " is not declared.");
      return eval_.ResultAt(it->second, instance_);
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
      if (!spec_ || spec_->kind != InstanceSpec::Each) {
        throw MakeEvalError(ref.range, "Reference to \"each\" in context without for_each", "each is only available with for_each.");
      }
      return ref.steps.empty() || name(0) == "key" ? spec_->each_key : spec_->each_value;
    }
    if (root == "count") {
      if (!spec_ || spec_->kind != InstanceSpec::Count) {
        throw MakeEvalError(ref.range, "Reference to \"count\" in non-counted context", "count.index needs count.");
      }
      return spec_->count_index;
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
  // module.x: the outputs of x's instance in this module instance, as an object; for a call
  // with count a list of such objects, with for_each a map of them by key.
  Value ModuleValue(const ModuleInstance& m, const Reference& ref, size_t& consumed) {
    auto it = m.children.find(ref.steps[0].name);
    if (it == m.children.end()) throw MakeEvalError(ref.range, "Reference to undeclared module", ref.ToString() + " is not declared.");
    const ModuleInstance& child = eval_.graph_.modules[it->second];
    const auto& instances = eval_.module_instances_[it->second];
    auto outputs_of = [&](size_t j) {
      ValueMap outputs;
      for (const auto& [name, id] : child.outputs) outputs.emplace(name, eval_.ResultAt(id, j));
      return Value::Object(std::move(outputs));
    };
    if (!child.Repeated()) {
      for (size_t j = 0; j < instances.size(); ++j) {
        if (instances[j].made_by.scope_instance != instance_) continue;
        if (ref.steps.size() >= 2 && ref.steps[1].kind == TraversalStep::Kind::Attr) {
          auto out = child.outputs.find(ref.steps[1].name);
          if (out != child.outputs.end()) {
            consumed = 2;
            return eval_.ResultAt(out->second, j);
          }
        }
        return outputs_of(j);
      }
      return Value::Object({});
    }
    ValueList list;
    ValueMap map;
    for (size_t j = 0; j < instances.size(); ++j) {
      const InstanceSpec& made = instances[j].made_by;
      if (made.scope_instance != instance_) continue;
      if (made.unknown_keys) return Value::Unknown();
      if (made.kind == InstanceSpec::Count) {
        list.push_back(outputs_of(j));
      } else {
        map.emplace(made.key.AsString(), outputs_of(j));
      }
    }
    return child.call->count ? Value::Tuple(std::move(list)) : Value::Object(std::move(map));
  }

  Value StageValue(const Reference& ref, size_t& consumed) {
    if (ref.steps.size() < 2) throw MakeEvalError(ref.range, "Invalid reference", "Name an output, as in stage.eks.cluster_name.");
    consumed = 2;
    if (!eval_.options_.stage_output) return Value::Unknown();
    return eval_.options_.stage_output(ref.steps[0].name, ref.steps[1].name, ref.range);
  }

  const StageEvaluation& eval_;
  size_t module_;
  size_t instance_;
  const InstanceSpec* spec_;
};

namespace {

// count and for_each are held to limits.max_instances: count: 1e12 would otherwise take all
// the memory before any other error could be reported.
bool WithinInstanceLimit(const LimitsSettings& limits, double instances, const std::string& what, const char* holder,
                         const SourceRange& at, Diagnostics& diags) {
  if (instances <= limits.max_instances) return true;
  std::string set_at =
      limits.max_instances_range.IsKnown() ? fmt::format(" (set at {})", limits.max_instances_range.ToString()) : "";
  diags.Error("Too many instances",
              fmt::format("{}, more than the {} instances {} may have{}. If so many are meant, raise "
                          "limits.max_instances in strata.yaml, as in limits: {{ max_instances: 50000 }}.",
                          what, limits.max_instances, holder, set_at),
              at);
  return false;
}

}  // namespace

StageEvaluation::StageEvaluation(const StageGraph& graph, const SchemaSource* schemas, EvaluateOptions options)
    : graph_(graph),
      schemas_(schemas),
      options_(std::move(options)),
      module_instances_(graph.modules.size()),
      results_(graph.nodes.size()),
      instances_(graph.nodes.size()) {
  if (!module_instances_.empty()) module_instances_[0].push_back({ModulePath{}, InstanceSpec{}});
  for (const auto& [address, id] : options_.imports) {
    if (AddrParseResult addr = ParseResourceInstanceAddr(address); addr.addr) imports_[address] = {*addr.addr, id, nullptr};
  }
}

const Value& StageEvaluation::ResultAt(NodeId id, size_t instance) const {
  static const Value kNull;
  const std::vector<Value>& values = results_[id];
  return instance < values.size() ? values[instance] : kNull;
}

std::vector<ModulePath> StageEvaluation::ModuleInstancePaths(size_t module) const {
  std::vector<ModulePath> paths;
  for (const ModuleInstanceState& m : module_instances_[module]) paths.push_back(m.path);
  return paths;
}

NodeId StageEvaluation::ProviderNodeOf(const GraphNode& n) const {
  return FindProviderBlock(graph_, n.module, ProviderKeyOf(*n.resource));
}

std::string StageEvaluation::ModuleDir(size_t module) const { return graph_.modules[module].config->dir; }

Value StageEvaluation::EvalExpr(const Expr& expr, size_t module, size_t instance, Diagnostics& diags,
                                const InstanceSpec* spec) const {
  NodeScope scope(*this, module, instance, spec);
  FunctionContext fctx;
  fctx.base_dir = ModuleDir(module);
  fctx.render_template = RenderTemplateFile;
  fctx.clock = options_.clock;
  fctx.plan_time = options_.plan_time;
  fctx.planning = options_.planning;
  EvalContext ctx(scope, FunctionTable::Standard(), std::move(fctx));
  return Evaluate(expr, ctx, diags);
}

Value StageEvaluation::EvaluateInModule(const Expr& expr, size_t module, Diagnostics& diags) const {
  return EvalExpr(expr, module, 0, diags);
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
  size_t instances = module_instances_[n.module].size();
  switch (n.kind) {
    case NodeKind::Variable: EvalVariable(id, n, local); break;
    case NodeKind::Local:
      for (size_t i = 0; i < instances && !local.HasErrors(); ++i) results_[id].push_back(EvalExpr(*n.local->value, n.module, i, local));
      break;
    case NodeKind::Provider:
      for (size_t i = 0; i < instances && !local.HasErrors(); ++i) {
        results_[id].push_back(n.provider->settings ? EvalExpr(*n.provider->settings, n.module, i, local) : Value::Object({}));
      }
      break;
    case NodeKind::Resource:
    case NodeKind::Data: EvalResource(id, n, local); break;
    case NodeKind::Output: EvalOutput(id, n, local); break;
    case NodeKind::ModuleCall: EvalModuleCall(n, local); break;
    case NodeKind::Import: EvalImport(n, local); break;
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

// A module's instances: its call's count / for_each evaluated in each instance of the caller.
void StageEvaluation::EvalModuleCall(const GraphNode& n, Diagnostics& diags) {
  const ModuleInstance& m = graph_.modules[n.module];
  size_t parent = static_cast<size_t>(m.parent);
  std::vector<ModuleInstanceState> made;
  for (size_t pi = 0; pi < module_instances_[parent].size(); ++pi) {
    std::optional<std::vector<InstanceSpec>> specs = Expand(m.call->count, m.call->for_each, parent, pi, "a module", diags);
    if (!specs) return;
    for (InstanceSpec& spec : *specs) {
      made.push_back({module_instances_[parent][pi].path.Child(m.call->name, spec.key), std::move(spec)});
    }
  }
  module_instances_[n.module] = std::move(made);
}

void StageEvaluation::EvalVariable(NodeId id, const GraphNode& n, Diagnostics& diags) {
  for (size_t i = 0; i < module_instances_[n.module].size() && !diags.HasErrors(); ++i) EvalVariableInstance(id, n, i, diags);
}

void StageEvaluation::EvalVariableInstance(NodeId id, const GraphNode& n, size_t instance, Diagnostics& diags) {
  const VariableConfig& decl = *n.variable;
  const ModuleInstance& m = graph_.modules[n.module];
  results_[id].resize(instance + 1);
  Value v;
  bool given = false;
  SourceRange where = decl.range;
  std::string source;
  if (m.call) {
    auto it = m.call->inputs.find(decl.name);
    if (it != m.call->inputs.end()) {
      const InstanceSpec& made_by = module_instances_[n.module][instance].made_by;
      v = EvalExpr(*it->second, static_cast<size_t>(m.parent), made_by.scope_instance, diags, &made_by);
      given = true;
      where = it->second->range();
      source = fmt::format("the input of {}", module_instances_[n.module][instance].path.ToString());
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
      v = EvalExpr(*decl.default_value, n.module, instance, diags);
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
  results_[id][instance] = v;
  for (const auto& rule : decl.validations) {
    Value ok = EvalExpr(*rule.condition, n.module, instance, diags);
    if (diags.HasErrors() || !ok.IsKnown()) continue;
    if (!ok.IsBool()) {
      diags.Error("Invalid validation condition", "The condition must produce true or false.", rule.condition->range());
      continue;
    }
    if (ok.AsBool()) continue;
    Value message = EvalExpr(*rule.message, n.module, instance, diags);
    std::string text = message.IsString() && !message.IsSensitive() ? message.AsString() : "(the message refers to a sensitive value)";
    diags.Error("Invalid value for variable",
                fmt::format("{}\n\nThis was checked by the validation rule at {}.", text, rule.range.ToString()), where);
  }
}

std::optional<std::vector<StageEvaluation::InstanceSpec>> StageEvaluation::Expand(const ExprRef& count_expr,
                                                                                 const ExprRef& for_each, size_t module,
                                                                                 size_t instance, const char* what,
                                                                                 Diagnostics& diags) const {
  std::vector<InstanceSpec> specs;
  if (count_expr) {
    Value c = EvalExpr(*count_expr, module, instance, diags);
    if (diags.HasErrors()) return std::nullopt;
    if (!c.IsKnown() && options_.unknown_repetition_once) return std::vector{UnknownInstances(InstanceSpec::Count, instance)};
    if (!c.IsKnown()) {
      diags.Error("Invalid count argument",
                  "The \"count\" value depends on values that cannot be determined until apply, so Strata cannot tell how "
                  "many instances to make. Use values known before apply (variables, locals), or apply the resources it "
                  "depends on first with -target.",
                  count_expr->range());
      return std::nullopt;
    }
    auto num = ConvertValue(c.DeepUnmark(), Type::Primitive(Type::Kind::Number));
    if (!num.ok() || !num.value.IsNumber() || num.value.AsExactNumber().Sign() < 0 ||
        !num.value.AsExactNumber().IsInteger()) {
      diags.Error("Invalid count argument", "count must be a whole number, zero or more.", count_expr->range());
      return std::nullopt;
    }
    double count = num.value.AsNumber();
    if (!WithinInstanceLimit(options_.limits, count, fmt::format("count is {}", FormatNumber(num.value.AsExactNumber())), what,
                             count_expr->range(), diags)) {
      return std::nullopt;
    }
    for (int64_t i = 0; i < static_cast<int64_t>(count); ++i) {
      specs.push_back({InstanceKey::Int(i), {}, {}, Value::Number(static_cast<double>(i)), InstanceSpec::Count, instance});
    }
    return specs;
  }
  if (for_each) {
    Value each = EvalExpr(*for_each, module, instance, diags);
    if (diags.HasErrors()) return std::nullopt;
    bool keys_known = each.IsKnown() && (each.IsMapping() || each.IsWhollyKnown());
    if (!keys_known && options_.unknown_repetition_once) return std::vector{UnknownInstances(InstanceSpec::Each, instance)};
    if (!keys_known) {
      diags.Error("Invalid for_each argument",
                  "The \"for_each\" keys depend on values that cannot be determined until apply, so Strata cannot tell "
                  "which instances to make. Use keys known before apply (for example names from variables), or apply the "
                  "resources they depend on first with -target.",
                  for_each->range());
      return std::nullopt;
    }
    if (each.IsSensitive()) {
      diags.Error("Invalid for_each argument", "Sensitive values cannot be used in for_each: the instance keys would be shown in plans.",
                  for_each->range());
      return std::nullopt;
    }
    size_t size = each.IsMapping() ? each.AsMap().size() : each.kind() == ValueKind::Set ? each.AsList().size() : 0;
    if (!WithinInstanceLimit(options_.limits, static_cast<double>(size), fmt::format("for_each has {} elements", size), what,
                             for_each->range(), diags)) {
      return std::nullopt;
    }
    if (each.IsMapping()) {
      for (const auto& [k, v] : each.AsMap()) {
        specs.push_back({InstanceKey::String(k), Value::String(k), v, {}, InstanceSpec::Each, instance});
      }
    } else if (each.kind() == ValueKind::Set) {
      for (const auto& v : each.AsList()) {
        if (!v.IsString()) {
          diags.Error("Invalid for_each set argument", "for_each over a set needs a set of strings.", for_each->range());
          return std::nullopt;
        }
        specs.push_back({InstanceKey::String(v.AsString()), v, v, {}, InstanceSpec::Each, instance});
      }
    } else {
      diags.Error("Invalid for_each argument",
                  fmt::format("for_each needs a map or a set of strings, got {}. For a list, use toset(...).", each.TypeName()),
                  for_each->range());
      return std::nullopt;
    }
    return specs;
  }
  specs.push_back({InstanceKey(), {}, {}, {}, InstanceSpec::Single, instance});
  return specs;
}

StageEvaluation::InstanceSpec StageEvaluation::UnknownInstances(InstanceSpec::Kind kind, size_t instance) {
  InstanceSpec spec;
  spec.kind = kind;
  spec.scope_instance = instance;
  spec.unknown_keys = true;
  (kind == InstanceSpec::Count ? spec.count_index : spec.each_key) = Value::Unknown();
  if (kind == InstanceSpec::Each) spec.each_value = Value::Unknown();
  return spec;
}

// Every instance of the resource in every instance of its module, evaluated together (so
// that they run side by side); the value references see in each module instance is a list
// (count), a map (for_each) or the one instance.
void StageEvaluation::EvalResource(NodeId id, const GraphNode& n, Diagnostics& diags) {
  const ResourceConfig& r = *n.resource;
  size_t module_instances = module_instances_[n.module].size();
  std::vector<InstanceSpec> specs;
  for (size_t mi = 0; mi < module_instances; ++mi) {
    std::optional<std::vector<InstanceSpec>> made = Expand(r.count, r.for_each, n.module, mi, "a resource", diags);
    if (!made) return;
    specs.insert(specs.end(), std::make_move_iterator(made->begin()), std::make_move_iterator(made->end()));
  }
  std::vector<Value> values = EvalInstances(id, n, specs, diags);
  std::vector<ValueList> lists(module_instances);
  std::vector<ValueMap> maps(module_instances);
  std::vector<Value> single(module_instances);
  std::vector<bool> unknown(module_instances, false);
  for (size_t i = 0; i < specs.size() && i < values.size(); ++i) {
    size_t mi = specs[i].scope_instance;
    if (specs[i].unknown_keys) {
      unknown[mi] = true;
    } else if (r.count) {
      lists[mi].push_back(std::move(values[i]));
    } else if (r.for_each) {
      maps[mi].emplace(specs[i].key.AsString(), std::move(values[i]));
    } else {
      single[mi] = std::move(values[i]);
    }
  }
  results_[id].resize(module_instances);
  for (size_t mi = 0; mi < module_instances; ++mi) {
    results_[id][mi] = unknown[mi] ? Value::Unknown() : r.count ? Value::Tuple(std::move(lists[mi])) : r.for_each ? Value::Object(std::move(maps[mi])) : std::move(single[mi]);
  }
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
  const ResourceSchema* schema = schemas_ ? schemas_->Find(r.mode, r.type) : nullptr;
  std::vector<Value> values(specs.size());
  std::vector<ResourceInstanceAddr> addrs(specs.size());
  for (size_t i = 0; i < specs.size(); ++i) {
    const InstanceSpec& spec = specs[i];
    Value props = r.properties ? EvalExpr(*r.properties, n.module, spec.scope_instance, diags, &spec) : Value::Object({});
    addrs[i] = ResourceInstanceAddr{module_instances_[n.module][spec.scope_instance].path, r.Addr(), spec.key};
    values[i] = schema ? ConformToSchema(r, *schema, props, addrs[i].ToString(), diags) : props;
  }
  if (schema && options_.on_instance && !diags.HasErrors()) {
    NodeId provider_node = ProviderNodeOf(n);
    // A provider block is never inside a repeated module (stage_graph refuses it): its
    // module has one instance.
    Value provider_config = provider_node != kNoNode ? ResultOf(provider_node) : Value::Null();
    std::vector<Diagnostics> local(specs.size());
    for (const std::vector<size_t>& batch : ClassBatches(addrs)) {
      std::atomic<size_t> next{0};
      auto work = [&] {
        for (size_t b = next++; b < batch.size(); b = next++) {
          size_t i = batch[b];
          InstanceHookInput in{id, &n, addrs[i], schema, values[i], provider_config, provider_node, ImportIdFor(addrs[i])};
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
  size_t instances = module_instances_[n.module].size();
  results_[id].resize(instances);
  if (!o.value) return;
  for (size_t i = 0; i < instances; ++i) {
    Value v = EvalExpr(*o.value, n.module, i, diags);
    if (diags.HasErrors()) return;
    if (v.ContainsSensitive() && !o.sensitive && graph_.modules[n.module].parent < 0) {
      diags.Error("Output refers to sensitive values",
                  fmt::format("The output \"{}\" shows a sensitive value. Add sensitive: true to the output to confirm that "
                              "it may be stored and passed on, or wrap the value in nonsensitive() if it is not secret.",
                              o.name),
                  o.value->range());
      return;
    }
    results_[id][i] = o.sensitive ? v.MarkSensitive() : v;
  }
}

// An import entry's targets: `to` and `id` for each of its for_each elements, known now.
void StageEvaluation::EvalImport(const GraphNode& n, Diagnostics& diags) {
  const ImportConfig& import = *n.import;
  if (!import.to || !import.id) return;  // the loader reported it
  std::optional<std::vector<InstanceSpec>> specs = Expand(ExprRef(), import.for_each, n.module, 0, "an import entry", diags);
  if (!specs) return;
  for (const InstanceSpec& spec : *specs) {
    Value to = EvalExpr(*import.to, n.module, 0, diags, &spec);
    Value id = EvalExpr(*import.id, n.module, 0, diags, &spec);
    if (diags.HasErrors()) return;
    if (spec.unknown_keys) continue;  // validate: the expressions are checked, the targets not known
    if (!to.IsKnown() || !to.IsString()) {
      diags.Error("Invalid import address", "The address to import to must be a string known before apply.", import.to->range());
      return;
    }
    AddrParseResult addr = ParseResourceInstanceAddr(to.AsString());
    if (!addr.addr) {
      diags.Error("Invalid import address", fmt::format("\"{}\" is not a resource instance address: {}.", to.AsString(), addr.error),
                  import.to->range());
      return;
    }
    if (!id.IsKnown() || id.IsNull()) {
      diags.Error("Invalid import id",
                  "The import id depends on values that cannot be determined until apply: use a value known before "
                  "apply (a literal, a variable, a data source).",
                  import.id->range());
      return;
    }
    if (id.IsSensitive() || !id.IsString()) {
      diags.Error("Invalid import id", id.IsSensitive() ? "The import id is shown in the plan, so it cannot be sensitive."
                                                        : "The import id must be a string.",
                  import.id->range());
      return;
    }
    std::lock_guard lock(imports_mutex_);
    auto [it, added] = imports_.emplace(addr.addr->ToString(), ImportTarget{*addr.addr, id.AsString(), &import});
    if (!added) {
      diags.Error("Duplicate import configuration",
                  fmt::format("{} is imported twice: here and at {}. One object can be imported to an address.",
                              addr.addr->ToString(), it->second.config->range.ToString()),
                  import.range);
      return;
    }
  }
}

std::optional<std::string> StageEvaluation::ImportIdFor(const ResourceInstanceAddr& addr) const {
  std::lock_guard lock(imports_mutex_);
  if (imports_.empty()) return std::nullopt;
  auto it = imports_.find(addr.ToString());
  return it == imports_.end() ? std::nullopt : std::optional<std::string>(it->second.id);
}

std::map<std::string, ImportTarget> StageEvaluation::Imports() const {
  std::lock_guard lock(imports_mutex_);
  return imports_;
}

std::map<std::string, Value> StageEvaluation::RootOutputs() const {
  std::map<std::string, Value> out;
  for (const auto& [name, id] : graph_.modules[0].outputs) out[name] = ResultOf(id);
  return out;
}

}  // namespace strata
