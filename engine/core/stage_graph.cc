#include "engine/core/stage_graph.h"

#include <algorithm>
#include <functional>

#include <fmt/format.h>

#include "engine/config/names.h"
#include "engine/core/environment_refs.h"
#include "engine/core/provider_blocks.h"
#include "engine/core/schema_check.h"
#include "engine/expr/eval.h"

namespace strata {
namespace {

std::vector<std::string> Keys(const auto& map) {
  std::vector<std::string> out;
  for (const auto& [k, v] : map) out.push_back(k);
  return out;
}

// One reference site: an expression of a node, evaluated in a module's scope.
struct ReferenceSite {
  NodeId node;
  size_t module;              // the scope the expression is evaluated in
  const Expr* expr = nullptr;
  bool allow_each = false;    // each.* is valid (a for_each resource's body)
  bool allow_count = false;   // count.index is valid
};

class GraphBuilder {
 public:
  GraphBuilder(const GraphBuildInput& input, Diagnostics& diags) : input_(input), diags_(diags) {
    graph_ = std::make_unique<StageGraph>();
    graph_->stage = input.stage;
  }

  std::unique_ptr<StageGraph> Build() {
    // The steps, in order. A new behaviour is a new step.
    AddModule(input_.root.get(), ModulePath{}, -1, nullptr);
    CheckModuleInputs();
    CheckResourceSchemas();
    CheckProviderBlocks();
    ConnectReferences();
    ConnectDependsOn();
    ConnectProviders();
    ConnectModuleExpansions();
    ConnectImports();
    CheckCycles();
    return std::move(graph_);
  }

 private:
  NodeId AddNode(GraphNode node) {
    NodeId id = graph_->dag.AddNode();
    graph_->nodes.push_back(std::move(node));
    return id;
  }

  // One node per declaration of one kind, recorded in the module's table for that kind.
  template <typename Config>
  void AddNodes(size_t module, NodeKind kind, const std::map<std::string, Config>& declarations,
                std::map<std::string, NodeId> ModuleInstance::*table, const Config* GraphNode::*field) {
    for (const auto& entry : declarations) {
      GraphNode node{kind, module, entry.first, nullptr, nullptr, nullptr, nullptr, nullptr, entry.second.range};
      node.*field = &entry.second;
      NodeId id = AddNode(std::move(node));
      (graph_->modules[module].*table)[entry.first] = id;
    }
  }

  void AddModule(const ModuleConfig* config, ModulePath path, int parent, const ModuleCallConfig* call) {
    if (!config) return;
    size_t index = graph_->modules.size();
    graph_->modules.push_back({path, config, parent, call, {}, {}, {}, {}, {}, {}, {}, kNoNode});
    if (call) {
      GraphNode node{NodeKind::ModuleCall, index, call->name, nullptr, nullptr, nullptr, nullptr, nullptr, call->range};
      graph_->modules[index].expansion = AddNode(std::move(node));
    } else {
      for (const ImportConfig& import : config->imports) {
        GraphNode node{NodeKind::Import, index, "import", nullptr, nullptr, nullptr, nullptr, nullptr, import.range};
        node.import = &import;
        graph_->imports.push_back(AddNode(std::move(node)));
      }
    }
    AddNodes(index, NodeKind::Variable, config->variables, &ModuleInstance::variables, &GraphNode::variable);
    AddNodes(index, NodeKind::Local, config->locals, &ModuleInstance::locals, &GraphNode::local);
    AddNodes(index, NodeKind::Provider, config->providers, &ModuleInstance::providers, &GraphNode::provider);
    AddNodes(index, NodeKind::Resource, config->resources, &ModuleInstance::resources, &GraphNode::resource);
    AddNodes(index, NodeKind::Data, config->data, &ModuleInstance::data, &GraphNode::resource);
    AddNodes(index, NodeKind::Output, config->outputs, &ModuleInstance::outputs, &GraphNode::output);
    for (const auto& [name, c] : config->modules) {
      if (!c.module) continue;
      size_t child = graph_->modules.size();
      graph_->modules[index].children[name] = child;
      AddModule(c.module.get(), path.Child(name), static_cast<int>(index), &c);
    }
  }

  // Every node of a module waits for the module's instances to be known, and a module's
  // expansion for its caller's.
  void ConnectModuleExpansions() {
    for (NodeId id = 0; id < graph_->nodes.size(); ++id) {
      const GraphNode& n = graph_->nodes[id];
      const ModuleInstance& m = graph_->modules[n.module];
      if (n.kind == NodeKind::ModuleCall) {
        NodeId parent = graph_->modules[static_cast<size_t>(m.parent)].expansion;
        if (parent != kNoNode) graph_->dag.AddEdge(id, parent);
      } else if (m.expansion != kNoNode) {
        graph_->dag.AddEdge(id, m.expansion);
      }
    }
  }

  // The resource an import entry names waits for the entry (its ids and keys). An entry
  // naming nothing config declares is the planner's to judge: -generate-config-out writes it.
  void ConnectImports() {
    for (NodeId id : graph_->imports) {
      const ImportConfig& import = *graph_->nodes[id].import;
      std::optional<ResourceInstanceAddr> target = ImportTargetDeclaration(import.to_text);
      if (!target) {
        if (import.to) {
          diags_.Error("Invalid import address",
                       fmt::format("\"{}\" is not a resource instance address: write one such as aws_vpc.main, "
                                   "aws_subnet.private[\"${{each.key}}\"] or module.ng[\"gpu\"].aws_iam_role.this.",
                                   import.to_text),
                       import.to->range());
        }
        continue;
      }
      if (target->resource.mode != ResourceMode::Managed) {
        diags_.Error("Invalid import address", "Only managed resources can be imported, not data sources.", import.to->range());
        continue;
      }
      for (const ModuleInstance& m : graph_->modules) {
        if (!(m.path == target->module)) continue;
        auto it = m.resources.find(target->resource.name);
        if (it != m.resources.end() && graph_->nodes[it->second].resource->type == target->resource.type) {
          graph_->dag.AddEdge(it->second, id);
        }
      }
    }
  }

  // Inputs given to a module call must be its variables; required variables must be given.
  void CheckModuleInputs() {
    for (const auto& m : graph_->modules) {
      if (!m.call || m.config->has_errors) continue;  // its own errors are reported already
      for (const auto& [input, expr] : m.call->inputs) {
        if (m.config->variables.count(input)) continue;
        diags_.Error("Unsupported argument",
                     fmt::format("The module \"{}\" has no variable named \"{}\".{}", m.call->name, input,
                                 DidYouMean(input, Keys(m.config->variables))),
                     m.call->input_ranges.at(input));
      }
      for (const auto& [name, v] : m.config->variables) {
        if (v.default_value || m.call->inputs.count(name)) continue;
        diags_.Error("Missing required argument",
                     fmt::format("The module \"{}\" needs the input \"{}\" (declared at {}), which has no default.",
                                 m.call->name, name, v.range.ToString()),
                     m.call->range);
      }
    }
  }

  void CheckResourceSchemas() {
    if (!input_.schemas) return;
    for (const auto& n : graph_->nodes) {
      if (n.resource) CheckResourceAgainstSchema(*n.resource, *input_.schemas, diags_);
    }
  }

  void ConnectReferences() {
    for (const ReferenceSite& site : ReferenceSites()) {
      std::vector<Reference> refs = ReferencesOf(*site.expr);
      for (const auto& ref : refs) {
        for (NodeId target : Resolve(site, ref)) {
          // A variable's validation rules read the variable itself: not a dependency.
          if (target != site.node) graph_->dag.AddEdge(site.node, target);
        }
      }
    }
  }

  // Every expression of every node, with the module scope it is evaluated in.
  std::vector<ReferenceSite> ReferenceSites() {
    std::vector<ReferenceSite> sites;
    for (NodeId id = 0; id < graph_->nodes.size(); ++id) {
      const GraphNode& n = graph_->nodes[id];
      const ModuleInstance& m = graph_->modules[n.module];
      auto add = [&](const ExprRef& e, size_t module, bool each = false, bool count = false) {
        if (e) sites.push_back({id, module, e.get(), each, count});
      };
      switch (n.kind) {
        case NodeKind::Variable:
          if (m.call) {
            auto it = m.call->inputs.find(n.name);
            if (it != m.call->inputs.end()) {
              add(it->second, static_cast<size_t>(m.parent), m.call->for_each != nullptr, m.call->count != nullptr);
            }
          }
          for (const auto& rule : n.variable->validations) {
            add(rule.condition, n.module);
            add(rule.message, n.module);
          }
          break;
        case NodeKind::Local: add(n.local->value, n.module); break;
        case NodeKind::Provider: add(n.provider->settings, n.module); break;
        case NodeKind::Resource:
        case NodeKind::Data: {
          const ResourceConfig& r = *n.resource;
          add(r.count, n.module);
          add(r.for_each, n.module);
          add(r.properties, n.module, r.for_each != nullptr, r.count != nullptr);
          break;
        }
        case NodeKind::Output: add(n.output->value, n.module); break;
        case NodeKind::ModuleCall:
          add(m.call->count, static_cast<size_t>(m.parent));
          add(m.call->for_each, static_cast<size_t>(m.parent));
          break;
        case NodeKind::Import:
          add(n.import->for_each, n.module);
          add(n.import->to, n.module, n.import->for_each != nullptr);
          add(n.import->id, n.module, n.import->for_each != nullptr);
          break;
      }
    }
    return sites;
  }

  void Undeclared(const Reference& ref, const std::string& summary, const std::string& detail) {
    diags_.Error(summary, detail, ref.range);
  }

  const TraversalStep* AttrStep(const Reference& ref, size_t i, const char* what) {
    if (ref.steps.size() > i && ref.steps[i].kind == TraversalStep::Kind::Attr) return &ref.steps[i];
    Undeclared(ref, "Invalid reference", fmt::format("\"{}\" must be followed by {}, as in {}.", ref.root, what,
                                                     ref.root == "module" ? "module.eks.cluster_name" : ref.root + ".name"));
    return nullptr;
  }

  std::vector<NodeId> Lookup(const Reference& ref, const std::map<std::string, NodeId>& table, const std::string& name,
                             const char* kind, const char* prefix) {
    auto it = table.find(name);
    if (it != table.end()) return {it->second};
    Undeclared(ref, fmt::format("Reference to undeclared {}", kind),
               fmt::format("No {} named \"{}\" is declared in this module.{}", kind, name,
                           DidYouMean(name, Keys(table)).empty() ? "" : fmt::format(" Did you mean \"{}{}\"?", prefix, Suggest(name, Keys(table)))));
    return {};
  }

  // Resolves one reference to the nodes it depends on; reports what it cannot resolve.
  std::vector<NodeId> Resolve(const ReferenceSite& site, const Reference& ref) {
    const ModuleInstance& m = graph_->modules[site.module];
    const std::string& root = ref.root;
    if (root == "var") {
      const TraversalStep* s = AttrStep(ref, 0, "a variable name");
      return s ? Lookup(ref, m.variables, s->name, "input variable", "var.") : std::vector<NodeId>{};
    }
    if (root == "local") {
      const TraversalStep* s = AttrStep(ref, 0, "a local value name");
      return s ? Lookup(ref, m.locals, s->name, "local value", "local.") : std::vector<NodeId>{};
    }
    if (root == "data") {
      const TraversalStep* s = AttrStep(ref, 0, "a data source name");
      return s ? Lookup(ref, m.data, s->name, "data source", "data.") : std::vector<NodeId>{};
    }
    if (root == "module") return ResolveModule(m, ref);
    if (root == "stage") return ResolveStage(ref);
    if (root == "env") {
      if (auto invalid = InvalidEnvReference(ref)) Undeclared(ref, invalid->first, invalid->second);
      return {};
    }
    if (root == "each") {
      if (!site.allow_each) {
        Undeclared(ref, "Reference to \"each\" in context without for_each",
                   "each.key and each.value are only available in the properties of a resource or data source that sets "
                   "for_each, and in the inputs of a module call that sets it.");
      } else if (ref.steps.empty() || ref.steps[0].kind != TraversalStep::Kind::Attr ||
                 (ref.steps[0].name != "key" && ref.steps[0].name != "value")) {
        Undeclared(ref, "Invalid \"each\" attribute", "Use each.key or each.value.");
      }
      return {};
    }
    if (root == "count") {
      if (!site.allow_count) {
        Undeclared(ref, "Reference to \"count\" in non-counted context",
                   "count.index is only available in the properties of a resource or data source that sets count, and "
                   "in the inputs of a module call that sets it.");
      } else if (ref.steps.empty() || ref.steps[0].name != "index") {
        Undeclared(ref, "Invalid \"count\" attribute", "Use count.index.");
      }
      return {};
    }
    if (root == "path") {
      static const std::vector<std::string> kinds = {"module", "root", "cwd"};
      if (ref.steps.empty() || std::find(kinds.begin(), kinds.end(), ref.steps[0].name) == kinds.end()) {
        Undeclared(ref, "Invalid \"path\" attribute", "Use path.module, path.root or path.cwd.");
      }
      return {};
    }
    if (root == "self" || root == "terraform") {
      Undeclared(ref, fmt::format("\"{}\" is not supported", root),
                 root == "self" ? "self is not available here; refer to the resource by name."
                                : "Strata's workspaces are environments: write env.name for terraform.workspace.");
      return {};
    }
    auto it = m.resources.find(root);
    if (it != m.resources.end()) return {it->second};
    std::string hint;
    if (m.data.count(root)) {
      hint = fmt::format(" A data source \"{}\" exists: write data.{}.", root, root);
    } else {
      std::vector<std::string> names = Keys(m.resources);
      for (const char* r : {"var", "local", "data", "module", "stage", "each", "count", "path", "env"}) names.push_back(r);
      hint = DidYouMean(root, names);
    }
    Undeclared(ref, "Reference to undeclared resource",
               fmt::format("No resource named \"{}\" is declared in this module.{}", root, hint));
    return {};
  }

  std::vector<NodeId> ResolveModule(const ModuleInstance& m, const Reference& ref) {
    const TraversalStep* s = AttrStep(ref, 0, "a module name");
    if (!s) return {};
    auto it = m.children.find(s->name);
    if (it == m.children.end()) {
      Undeclared(ref, "Reference to undeclared module",
                 fmt::format("No module call named \"{}\" is declared in this module.{}", s->name, DidYouMean(s->name, Keys(m.children))));
      return {};
    }
    const ModuleInstance& child = graph_->modules[it->second];
    // module.ng["gpu"].role_arn: the output after the instance key.
    size_t output_step = child.Repeated() && ref.steps.size() >= 2 && ref.steps[1].kind != TraversalStep::Kind::Attr ? 2 : 1;
    if (child.Repeated() && output_step == 1 && ref.steps.size() >= 2) {
      diags_.Error("Missing module instance key",
                   fmt::format("module.{} has {}, so it is a {} of module instances: name one, as in module.{}{}.{}, or "
                               "use them all in a for expression.",
                               s->name, child.call->count ? "count" : "for_each", child.call->count ? "list" : "map", s->name,
                               child.call->count ? "[0]" : "[\"key\"]", ref.steps[1].name),
                   ref.steps[1].range);
      return {};
    }
    if (ref.steps.size() <= output_step || ref.steps[output_step].kind != TraversalStep::Kind::Attr) {
      std::vector<NodeId> all;
      for (const auto& [name, id] : child.outputs) all.push_back(id);
      if (child.expansion != kNoNode) all.push_back(child.expansion);
      return all;
    }
    const std::string& output = ref.steps[output_step].name;
    auto out = child.outputs.find(output);
    if (out != child.outputs.end()) return {out->second, child.expansion};
    if (child.config->has_errors) return {};
    diags_.Error("Unsupported attribute",
                 fmt::format("The module \"{}\" has no output named \"{}\".{}", s->name, output, DidYouMean(output, Keys(child.outputs))),
                 ref.steps[output_step].range);
    return {};
  }

  std::vector<NodeId> ResolveStage(const Reference& ref) {
    const TraversalStep* s = AttrStep(ref, 0, "a stage name");
    if (!s) return {};
    auto it = input_.stages.find(s->name);
    if (it == input_.stages.end()) {
      Undeclared(ref, "Reference to undeclared stage",
                 fmt::format("The project has no stage named \"{}\".{}", s->name, DidYouMean(s->name, Keys(input_.stages))));
      return {};
    }
    if (s->name == input_.stage) {
      Undeclared(ref, "Stage refers to itself", "A stage cannot read its own outputs; refer to the value directly.");
      return {};
    }
    if (ref.steps.size() < 2 || ref.steps[1].kind != TraversalStep::Kind::Attr) {
      Undeclared(ref, "Invalid reference", fmt::format("Name an output of the stage, as in stage.{}.cluster_name.", s->name));
      return {};
    }
    const StageCatalogEntry& entry = it->second;
    const std::string& output = ref.steps[1].name;
    if (entry.loaded && std::find(entry.outputs.begin(), entry.outputs.end(), output) == entry.outputs.end()) {
      diags_.Error("Unsupported attribute",
                   fmt::format("The stage \"{}\" declares no output named \"{}\".{}", s->name, output, DidYouMean(output, entry.outputs)),
                   ref.steps[1].range);
    }
    if (std::find(graph_->stage_dependencies.begin(), graph_->stage_dependencies.end(), s->name) == graph_->stage_dependencies.end()) {
      graph_->stage_dependencies.push_back(s->name);
    }
    return {};
  }

  void ConnectDependsOn() {
    for (NodeId id = 0; id < graph_->nodes.size(); ++id) {
      const GraphNode& n = graph_->nodes[id];
      const std::vector<DependsOnConfig>* deps = n.resource ? &n.resource->depends_on : n.output ? &n.output->depends_on : nullptr;
      if (deps) {
        for (const auto& d : *deps) {
          for (NodeId target : Resolve({id, n.module, nullptr}, d.ref)) graph_->dag.AddEdge(id, target);
        }
      }
      // A module call's depends_on holds back everything that module's variables feed.
      const ModuleInstance& m = graph_->modules[n.module];
      if (n.kind == NodeKind::Variable && m.call) {
        for (const auto& d : m.call->depends_on) {
          for (NodeId target : Resolve({id, static_cast<size_t>(m.parent), nullptr}, d.ref)) graph_->dag.AddEdge(id, target);
        }
      }
    }
  }

  // Every provider block configures a provider that exists, with that provider's settings.
  void CheckProviderBlocks() {
    if (!input_.schemas) return;
    for (const auto& m : graph_->modules) {
      for (const auto& [key, block] : m.config->providers) CheckProviderBlock(block, *input_.schemas, diags_);
      if (m.call) CheckProviderMapping(m);
    }
    CheckNoProvidersInRepeatedModules();
  }

  // A provider block inside a module called with count or for_each (or inside a module such
  // a module calls) would be configured once per instance, and its resources could not be
  // destroyed after the instance is gone: refused, as Terraform refuses it.
  void CheckNoProvidersInRepeatedModules() {
    for (const auto& m : graph_->modules) {
      if (m.config->providers.empty()) continue;
      for (int mi = static_cast<int>(&m - graph_->modules.data()); mi > 0; mi = graph_->modules[mi].parent) {
        const ModuleInstance& caller = graph_->modules[mi];
        if (!caller.Repeated()) continue;
        for (const auto& [key, block] : m.config->providers) {
          diags_.Error("Module is incompatible with count and for_each",
                       fmt::format("The provider block \"{}\" is declared inside {}, which {} makes with {}. Declare "
                                   "the block in the calling module and pass it in with providers: {{ {}: {} }}.",
                                   key, m.path.ToString(), caller.path.ToString(), caller.call->count ? "count" : "for_each",
                                   ProviderNameOfKey(key), key),
                       block.range);
        }
        break;
      }
    }
  }

  // A module call's providers: { aws: aws.us_east_1 } maps a name to a block of the same
  // provider that the caller can see.
  void CheckProviderMapping(const ModuleInstance& m) {
    for (const auto& [inner, outer] : m.call->providers) {
      if (!IsProviderKey(inner) || !IsProviderKey(outer)) continue;  // the loader reported it
      const SourceRange& at = m.call->provider_ranges.at(inner);
      if (ProviderNameOfKey(inner) != ProviderNameOfKey(outer)) {
        diags_.Error("Invalid provider reference",
                     fmt::format("The module \"{}\" is given the \"{}\" block for its \"{}\" provider: a provider "
                                 "can only be served by a block of the same provider.",
                                 m.call->name, outer, inner),
                     at);
      } else if (FindProviderBlock(*graph_, static_cast<size_t>(m.parent), outer) == kNoNode) {
        diags_.Error("Provider configuration not present",
                     fmt::format("The module \"{}\" is given the provider block \"{}\", which the calling module "
                                 "neither declares nor receives. Declare it under providers:.",
                                 m.call->name, outer),
                     at);
      }
    }
  }

  // Resources depend on the configuration of their provider in the nearest enclosing module:
  // the block their `provider:` names, else their type's provider's default block. A
  // `provider:` that names another provider, or no block at all, is an error: the resource
  // would otherwise be created with the wrong settings (another region).
  void ConnectProviders() {
    for (NodeId id = 0; id < graph_->nodes.size(); ++id) {
      const GraphNode& n = graph_->nodes[id];
      if (!n.resource) continue;
      const ResourceConfig& r = *n.resource;
      if (!r.provider.empty() && !IsProviderKey(r.provider)) continue;  // the loader reported it
      std::string key = ProviderKeyOf(r);
      if (!r.provider.empty() && ProviderNameOfKey(key) != ProviderOfType(r.type)) {
        diags_.Error("Invalid provider reference",
                     fmt::format("{} is of type {}, which provider \"{}\" serves; it cannot be configured by the "
                                 "\"{}\" block.",
                                 graph_->Label(id), r.type, ProviderOfType(r.type), key),
                     r.provider_range);
        continue;
      }
      NodeId block = FindProviderBlock(*graph_, n.module, key);
      if (block != kNoNode) graph_->dag.AddEdge(id, block);
      if (block == kNoNode && !r.provider.empty()) {
        diags_.Error("Provider configuration not present",
                     fmt::format("{} names the provider block \"{}\", but neither its module nor an enclosing one "
                                 "declares it. Declare it under providers: (e.g. {}: {{ region: us-east-1 }}), or "
                                 "remove provider: to use the default {} block.",
                                 graph_->Label(id), key, key, ProviderOfType(r.type)),
                     r.provider_range);
      }
    }
  }

  void CheckCycles() {
    for (const auto& cycle : graph_->dag.Cycles()) {
      std::string chain;
      for (NodeId n : cycle) {
        chain += fmt::format("  {} ({})\n    depends on\n", graph_->Label(n), graph_->nodes[n].range.ToString());
      }
      chain += fmt::format("  {} ({})", graph_->Label(cycle[0]), graph_->nodes[cycle[0]].range.ToString());
      diags_.Error("Dependency cycle",
                   fmt::format("These objects depend on each other in a loop, so none can be evaluated first:\n{}\n"
                               "Break the loop by removing one of these references.",
                               chain),
                   graph_->nodes[cycle[0]].range);
    }
  }

  const GraphBuildInput& input_;
  Diagnostics& diags_;
  std::unique_ptr<StageGraph> graph_;
};

}  // namespace

std::optional<ResourceInstanceAddr> ImportTargetDeclaration(const std::string& to_text) {
  // Index steps may hold ${...} (module.ng["${each.key}"]): dropped, as the declaration has none.
  std::string text;
  for (size_t i = 0; i < to_text.size(); ++i) {
    if (to_text[i] != '[') {
      text += to_text[i];
      continue;
    }
    size_t close = to_text.find(']', i);
    if (close == std::string::npos) return std::nullopt;
    i = close;
  }
  AddrParseResult r = ParseResourceInstanceAddr(text);
  if (!r.addr) return std::nullopt;
  return r.addr->ConfigAddr();
}

NodeId FindProviderBlock(const StageGraph& graph, size_t module, const std::string& key) {
  std::string name = key;
  for (int mi = static_cast<int>(module); mi >= 0; mi = graph.modules[mi].parent) {
    const ModuleInstance& m = graph.modules[mi];
    auto it = m.providers.find(name);
    if (it != m.providers.end()) return it->second;
    if (m.call) {
      auto mapped = m.call->providers.find(name);
      if (mapped != m.call->providers.end()) name = mapped->second;
    }
  }
  return kNoNode;
}

std::string ProviderKeyOf(const ResourceConfig& resource) {
  return resource.provider.empty() ? ProviderOfType(resource.type) : resource.provider;
}

std::string ProviderKeyOfRecord(const std::string& recorded, const std::string& type) {
  std::string key = recorded.substr(recorded.rfind('/') + 1);
  return key.empty() ? ProviderOfType(type) : key;
}

std::string ProviderOfType(const std::string& type) {
  static const std::vector<std::string> builtin = {"null_resource", "terraform_data", "random_id", "random_string",
                                                   "random_password", "local_file", "local_sensitive_file", "time_sleep", "exec"};
  if (std::find(builtin.begin(), builtin.end(), type) != builtin.end()) return "builtin";
  auto pos = type.find('_');
  return pos == std::string::npos ? type : type.substr(0, pos);
}

std::string StageGraph::Label(NodeId id) const {
  const GraphNode& n = nodes[id];
  std::string prefix = modules[n.module].path.ToString();
  if (!prefix.empty()) prefix += ".";
  switch (n.kind) {
    case NodeKind::Variable: return prefix + "var." + n.name;
    case NodeKind::Local: return prefix + "local." + n.name;
    case NodeKind::Provider: return prefix + "provider." + n.name;
    case NodeKind::Resource:
    case NodeKind::Data: return prefix + n.resource->Addr().ToString();
    case NodeKind::Output: return prefix + "output." + n.name;
    case NodeKind::ModuleCall: return modules[n.module].path.ToString();
    case NodeKind::Import: return "import (" + n.range.ToString() + ")";
  }
  return prefix + n.name;
}

std::unique_ptr<StageGraph> BuildStageGraph(const GraphBuildInput& input, Diagnostics& diags) {
  if (!input.root) return nullptr;
  return GraphBuilder(input, diags).Build();
}

}  // namespace strata
