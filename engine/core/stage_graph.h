#pragma once
// The dependency graph of one stage: a node per variable, local, provider configuration,
// resource, data source and output of every module, and one per module call (its count /
// for_each: which instances of the module exist), with edges from references and depends_on.
// Built by an ordered list of named steps (see BuildStageGraph). The graph is of
// declarations: a module called with count or for_each has one set of nodes, which the
// evaluator runs once per instance.

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/config/module.h"
#include "engine/config/project.h"
#include "engine/diag/diagnostic.h"
#include "engine/graph/dag.h"
#include "engine/value/schema.h"

namespace strata {

//! ModuleCall: a module's expansion into instances, evaluated in the caller's scope; every
//! node of the module depends on it. Import: a root import entry (its targets and ids); the
//! resource it names depends on it.
enum class NodeKind { Variable, Local, Provider, Resource, Data, Output, ModuleCall, Import };

struct GraphNode {
  NodeKind kind;
  size_t module = 0;  // index into StageGraph::modules
  std::string name;
  const VariableConfig* variable = nullptr;
  const LocalConfig* local = nullptr;
  const ProviderConfig* provider = nullptr;
  const ResourceConfig* resource = nullptr;  // also data sources
  const OutputConfig* output = nullptr;
  SourceRange range;
  const ImportConfig* import = nullptr;
};

//! One module in the stage's tree: the root (index 0) or a module call's child. A call with
//! count or for_each is still one entry here (its path has no instance keys); the evaluator
//! knows its instances.
struct ModuleInstance {
  ModulePath path;
  const ModuleConfig* config = nullptr;
  int parent = -1;
  const ModuleCallConfig* call = nullptr;  // the call in the parent that made this module
  std::map<std::string, NodeId> variables, locals, providers, resources, data, outputs;
  std::map<std::string, size_t> children;
  NodeId expansion = kNoNode;  // the ModuleCall node (none for the root)

  //! Whether the call makes a collection of instances (count or for_each).
  bool Repeated() const { return call && (call->count || call->for_each); }
};

//! What a stage knows of the project's other stages (for ${stage.S.X} checks).
struct StageCatalogEntry {
  std::string name;
  size_t order = 0;
  std::vector<std::string> outputs;  // declared output names (empty if the stage failed to load)
  bool loaded = false;
};

struct StageGraph {
  std::string stage;
  std::vector<ModuleInstance> modules;
  std::vector<GraphNode> nodes;
  Dag dag;
  //! The root module's import entries, in order.
  std::vector<NodeId> imports;
  //! For ${stage.S.X}: the stages this stage reads from.
  std::vector<std::string> stage_dependencies;

  //! "var.region", "module.eks.local.tags", "aws_vpc.vpc", "output.cluster_name" ...
  std::string Label(NodeId id) const;
};

struct GraphBuildInput {
  std::string stage;
  std::shared_ptr<const ModuleConfig> root;
  const SchemaSource* schemas = nullptr;
  std::map<std::string, StageCatalogEntry> stages;  // the project's stages, by name
};

//! Builds the graph and reports every problem found: undeclared references ("did you
//! mean"), bad module inputs, unknown resource types and attributes, and cycles (each as a
//! chain of addresses with positions).
std::unique_ptr<StageGraph> BuildStageGraph(const GraphBuildInput& input, Diagnostics& diags);

//! The provider a resource type belongs to: the text before the first '_' ("aws_vpc" →
//! "aws"); "builtin" for the built-in types.
std::string ProviderOfType(const std::string& type);

//! The name of the provider block a resource is configured by: its `provider:` ("aws" or
//! an alias block "aws.us_east_1"), else its type's provider.
std::string ProviderKeyOf(const ResourceConfig& resource);

//! The declaration an import entry's `to` names (module keys and the instance key, which
//! may be ${...}, left out), or nullopt when the text is no address.
std::optional<ResourceInstanceAddr> ImportTargetDeclaration(const std::string& to_text);

//! The provider block named `key` that serves module instance `module`: its own, else the
//! one its caller serves it with — through the call's `providers:` mapping when it maps
//! `key`, else under the same name — up to the root; kNoNode when there is none.
NodeId FindProviderBlock(const StageGraph& graph, size_t module, const std::string& key);

//! The provider block name recorded with an instance in plans and state ("strata/aws",
//! "strata/aws.us_east_1" → "aws", "aws.us_east_1"); `type`'s provider when none is recorded.
std::string ProviderKeyOfRecord(const std::string& recorded, const std::string& type);

}  // namespace strata
