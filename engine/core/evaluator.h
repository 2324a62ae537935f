#pragma once
// Evaluates every node of a stage graph in dependency order (variables, locals, provider
// settings, resource and data properties with count/for_each expansion, outputs), with
// bounded parallelism. Before apply, attributes only providers know are unknown.

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "engine/addr/addr.h"
#include "engine/base/clock.h"
#include "engine/config/project.h"
#include "engine/core/stage_graph.h"
#include "engine/core/variables.h"
#include "engine/graph/walker.h"
#include "engine/value/schema.h"

namespace strata {

//! One expanded instance of a resource or data source.
struct InstanceValue {
  ResourceInstanceAddr addr;
  Value value;
};

//! What the instance hook (plan, apply) gets for each resource or data source instance.
struct InstanceHookInput {
  NodeId node = 0;
  const GraphNode* graph_node = nullptr;
  ResourceInstanceAddr addr;
  const ResourceSchema* schema = nullptr;
  //! The instance's properties converted to the schema (unset attributes absent or null).
  Value config;
  //! The settings of the provider block that configures it (nearest enclosing module);
  //! null when there is none.
  Value provider_config;
  NodeId provider_node = kNoNode;
  //! An import entry names this instance: the id of the object to take into state when
  //! state has none.
  std::optional<std::string> import_id;
};

//! One object an import entry (or one of its for_each elements) takes into state.
struct ImportTarget {
  ResourceInstanceAddr addr;
  std::string id;
  const ImportConfig* config = nullptr;
};

struct EvaluateOptions {
  int parallelism = 10;
  std::map<std::string, RootVariableValue> root_variables;
  std::string project_dir;  // path.root's parent; path.cwd
  std::string stage_dir;    // path.root
  std::string environment = "default";  // env.name (environment_refs.h)
  //! Reads ${stage.S.X}. Returns unknown when the stage has no state yet (validate),
  //! or throws EvalError with a message saying which stage to apply first.
  std::function<Value(const std::string& stage, const std::string& output, const SourceRange& range)> stage_output;
  //! Plan and apply: called for every resource and data source instance once its config is
  //! evaluated, from walker threads (must be thread-safe). Returns the value references to
  //! the instance see (planned value, new state). Problems go to `diags`: an error fails
  //! the node, and the walk skips what depends on it. Unset: the planned value with
  //! computed attributes unknown (validate, console).
  std::function<Value(const InstanceHookInput& input, Diagnostics& diags)> on_instance;
  //! The ordering class of an instance (ordering_classes.h): a resource's instances go to
  //! on_instance class by class, lowest first, each class's side by side. Unset: one batch.
  std::function<int(const ResourceInstanceAddr& addr)> instance_class;
  //! Stops the walk from starting new nodes (SIGINT during apply).
  const std::atomic<bool>* stop = nullptr;
  //! Imports asked for outside the configuration (`strata import ADDRESS ID`): address → id.
  std::map<std::string, std::string> imports;
  //! strata.yaml's limits (count and for_each are held to max_instances).
  LimitsSettings limits;
  //! The time functions' surroundings, handed to every call (FunctionContext says what each
  //! means): timestamp()'s clock, plantimestamp()'s value, and whether this is a plan.
  const base::Clock* clock = nullptr;
  std::optional<base::Clock::TimePoint> plan_time;
  bool planning = false;
  //! validate, lint and console (Terraform's validate): a count or for_each whose value is
  //! not known yet (a stage not applied, a resource not created) makes one instance whose
  //! key, count.index, each.key and each.value are unknown, so that its body is still
  //! checked, and references to the resource see an unknown value. Unset (plan, apply):
  //! such a count or for_each is an error.
  bool unknown_repetition_once = false;
};

class StageEvaluation {
 public:
  StageEvaluation(const StageGraph& graph, const SchemaSource* schemas, EvaluateOptions options);

  //! Walks the graph; every problem goes to `diags`.
  void Run(Diagnostics& diags);
  //! Each node's walk status after Run (Skipped: a dependency failed; Pending: stopped).
  const std::vector<WalkStatus>& NodeStatus() const { return status_; }

  const StageGraph& graph() const { return graph_; }
  //! A node's value in the first instance of its module: for nodes of modules that have one
  //! instance (the root, provider blocks); null when the module has none.
  const Value& ResultOf(NodeId id) const { return ResultAt(id, 0); }
  const std::vector<InstanceValue>& InstancesOf(NodeId id) const { return instances_[id]; }
  //! The instances of graph module `module` after Run (module.ng["gpu"], ...): one for a
  //! call without count or for_each in each instance of its caller.
  std::vector<ModulePath> ModuleInstancePaths(size_t module) const;
  //! What the import entries name, by address (after Run).
  std::map<std::string, ImportTarget> Imports() const;
  //! The root module's outputs (sensitive ones keep their mark).
  std::map<std::string, Value> RootOutputs() const;
  //! Evaluates an expression in module `module`'s scope (its first instance) after Run (the console).
  Value EvaluateInModule(const Expr& expr, size_t module, Diagnostics& diags) const;

 private:
  class NodeScope;
  friend class NodeScope;

  //! One instance of a repeated thing (a resource's instance or a module's): its key, its
  //! each/count values, and the instance of the module whose scope made it.
  struct InstanceSpec {
    InstanceKey key;
    Value each_key, each_value, count_index;
    enum Kind { Single, Count, Each } kind = Single;
    size_t scope_instance = 0;  // index into module_instances_ of the module evaluated in
    //! Stands for the instances of a count/for_each not known yet (unknown_repetition_once):
    //! no key, unknown each/count values.
    bool unknown_keys = false;
  };
  //! One instance of a module: its full path and how its caller made it (for its inputs).
  struct ModuleInstanceState {
    ModulePath path;
    InstanceSpec made_by;  // scope_instance: the caller's instance
  };

  bool Visit(NodeId id);
  const Value& ResultAt(NodeId id, size_t instance) const;
  Value EvalExpr(const Expr& expr, size_t module, size_t instance, Diagnostics& diags,
                 const InstanceSpec* spec = nullptr) const;
  //! The instances count or for_each make in one instance of `module` (one Single when
  //! neither is set); nullopt after an error.
  std::optional<std::vector<InstanceSpec>> Expand(const ExprRef& count, const ExprRef& for_each, size_t module,
                                                  size_t instance, const char* what, Diagnostics& diags) const;
  static InstanceSpec UnknownInstances(InstanceSpec::Kind kind, size_t instance);
  void EvalModuleCall(const GraphNode& n, Diagnostics& diags);
  void EvalVariable(NodeId id, const GraphNode& n, Diagnostics& diags);
  void EvalVariableInstance(NodeId id, const GraphNode& n, size_t instance, Diagnostics& diags);
  void EvalResource(NodeId id, const GraphNode& n, Diagnostics& diags);
  std::vector<Value> EvalInstances(NodeId id, const GraphNode& n, const std::vector<InstanceSpec>& specs, Diagnostics& diags);
  std::vector<std::vector<size_t>> ClassBatches(const std::vector<ResourceInstanceAddr>& addrs) const;
  void EvalOutput(NodeId id, const GraphNode& n, Diagnostics& diags);
  void EvalImport(const GraphNode& n, Diagnostics& diags);
  std::optional<std::string> ImportIdFor(const ResourceInstanceAddr& addr) const;
  std::string ModuleDir(size_t module) const;
  NodeId ProviderNodeOf(const GraphNode& n) const;

  const StageGraph& graph_;
  const SchemaSource* schemas_;
  EvaluateOptions options_;
  //! Per graph module, its instances (the root's one is there from the start; a module's
  //! are filled in by its ModuleCall node, which every node of the module waits for).
  std::vector<std::vector<ModuleInstanceState>> module_instances_;
  //! Per node, its value in each instance of its module (same order as module_instances_).
  std::vector<std::vector<Value>> results_;
  std::vector<std::vector<InstanceValue>> instances_;
  std::vector<WalkStatus> status_;
  mutable std::mutex imports_mutex_;
  std::map<std::string, ImportTarget> imports_;
  std::mutex diags_mutex_;
  Diagnostics* diags_ = nullptr;
};

}  // namespace strata
