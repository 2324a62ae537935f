#pragma once
// Evaluates every node of a stage graph in dependency order (variables, locals, provider
// settings, resource and data properties with count/for_each expansion, outputs), with
// bounded parallelism. Before apply, attributes only providers know are unknown.

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/addr/addr.h"
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
  //! strata.yaml's limits (count and for_each are held to max_instances).
  LimitsSettings limits;
};

class StageEvaluation {
 public:
  StageEvaluation(const StageGraph& graph, const SchemaSource* schemas, EvaluateOptions options);

  //! Walks the graph; every problem goes to `diags`.
  void Run(Diagnostics& diags);
  //! Each node's walk status after Run (Skipped: a dependency failed; Pending: stopped).
  const std::vector<WalkStatus>& NodeStatus() const { return status_; }

  const StageGraph& graph() const { return graph_; }
  const Value& ResultOf(NodeId id) const { return results_[id]; }
  const std::vector<InstanceValue>& InstancesOf(NodeId id) const { return instances_[id]; }
  //! The root module's outputs (sensitive ones keep their mark).
  std::map<std::string, Value> RootOutputs() const;
  //! Evaluates an expression in module `module`'s scope after Run (the console).
  Value EvaluateInModule(const Expr& expr, size_t module, Diagnostics& diags) const;

 private:
  class NodeScope;
  friend class NodeScope;

  bool Visit(NodeId id);
  Value EvalExpr(const Expr& expr, size_t module, Diagnostics& diags, const Value* each_key = nullptr,
                 const Value* each_value = nullptr, const Value* count_index = nullptr) const;
  void EvalVariable(NodeId id, const GraphNode& n, Diagnostics& diags);
  void EvalResource(NodeId id, const GraphNode& n, Diagnostics& diags);
  //! One instance to make of a resource: its key and its each/count values.
  struct InstanceSpec {
    InstanceKey key;
    Value each_key, each_value, count_index;
    enum Kind { Single, Count, Each } kind = Single;
  };
  std::vector<Value> EvalInstances(NodeId id, const GraphNode& n, const std::vector<InstanceSpec>& specs, Diagnostics& diags);
  std::vector<std::vector<size_t>> ClassBatches(const std::vector<ResourceInstanceAddr>& addrs) const;
  void EvalOutput(NodeId id, const GraphNode& n, Diagnostics& diags);
  std::string ModuleDir(size_t module) const;
  NodeId ProviderNodeOf(const GraphNode& n) const;

  const StageGraph& graph_;
  const SchemaSource* schemas_;
  EvaluateOptions options_;
  std::vector<Value> results_;
  std::vector<std::vector<InstanceValue>> instances_;
  std::vector<WalkStatus> status_;
  std::mutex diags_mutex_;
  Diagnostics* diags_ = nullptr;
};

}  // namespace strata
