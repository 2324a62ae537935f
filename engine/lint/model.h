#pragma once
// What the rules look at: every managed resource instance of every stage with its evaluated
// value, and the Kubernetes objects they hold (kubernetes_manifest's manifest, a typed
// kubernetes_* resource's identity), read once for all rules.

#include <map>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "engine/lint/lint.h"
#include "engine/value/value.h"

namespace strata::lint {

//! A step into a value: an attribute name or a list index.
using PathStep = std::variant<std::string, size_t>;
using Path = std::vector<PathStep>;

//! `v` at `path`, or null when a step is missing (or crosses an unknown).
const Value* ValueAt(const Value& v, const Path& path);
//! A known string at `path` of `v`, else nullopt.
std::optional<std::string> StringAt(const Value& v, const Path& path);
//! A known number at `path`, else nullopt.
std::optional<double> NumberAt(const Value& v, const Path& path);
Path Join(const Path& a, const Path& b);
std::string LowerCase(std::string s);

//! One managed resource instance of a stage, after evaluation.
struct Instance {
  const LintStage* stage = nullptr;
  const GraphNode* node = nullptr;
  std::string type;
  std::string address;  // module.x.aws_y.z["k"]
  const Value* value = nullptr;
  //! The stage's component: stages linked by ${stage.S.X} (either way, transitively) share
  //! one. "Declared anywhere in the project" means in the same component: a project of
  //! independent stages (modules/strata.yaml's examples) is several deployments.
  int component = 0;
};

//! One Kubernetes object a resource manages.
struct KubeObject {
  const Instance* instance = nullptr;
  Path base;       // where the object is in the instance's value: {"manifest"}, or {} when typed
  Value object;    // the manifest (typed resources: only their identity is read)
  bool typed = false;
  std::string api_version, kind, name;
  std::string ns;  // as written, or "default" for a namespaced kind that names none; "" when cluster-scoped
  //! "Kind/namespace/name" (Kind/name when cluster-scoped): the object whoever manages it.
  std::string Identity() const;
  //! The paths (relative to the object) of every pod spec in it — a mapping with a
  //! `containers` list: a Deployment's template, a CronJob's, a Pod's spec, a custom resource's
  //! replica templates (ElasticJob, PyTorchJob). A typed resource's is in Terraform's shape
  //! (`spec[0].template[0].spec[0]`, `container`, `host_port`): rules read it through
  //! PodFields (rules_kubernetes.cc) or not at all.
  std::vector<Path> PodSpecs() const;
};

//! Whether a kind of Kubernetes' own is cluster-scoped (Namespace, ClusterRole, ...).
bool ClusterScopedKind(const std::string& kind);

//! The project as the rules see it.
struct ProjectModel {
  std::vector<Instance> instances;
  //! Data source instances (aws_iam_policy_document, ...), for rules that read what they say.
  std::vector<Instance> data;
  std::vector<KubeObject> objects;
  //! Per component, the Kubernetes version ("1.30") its (first) aws_eks_cluster states.
  std::map<int, std::string> cluster_versions;
  //! Per stage name, the region its (root, unaliased) aws provider states, when known.
  std::map<std::string, std::string> stage_regions;

  std::optional<std::string> ClusterVersion(int component) const;
  //! The AWS region of `inst`'s stage, when known.
  std::optional<std::string> Region(const Instance& inst) const;
  std::vector<const Instance*> OfType(const std::string& type) const;
  //! The instances of `type` in stages of `component`.
  std::vector<const Instance*> OfType(const std::string& type, int component) const;
  //! The components of the project's stages.
  std::set<int> Components() const;
};

ProjectModel BuildModel(const std::vector<LintStage>& stages);

}  // namespace strata::lint
