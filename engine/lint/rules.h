#pragma once
// The rule table (one row per rule: id, severity, what it finds, why, the fix) and the rule
// families, one file each: rules_duplicates.cc, rules_kubernetes.cc, rules_node_groups.cc,
// rules_autoscaler.cc, rules_karpenter.cc, rules_instance_types.cc, rules_aws_refs.cc,
// rules_iam.cc, rules_workloads.cc, rules_queues.cc. A family reads the model and reports through LintContext.

#include <string>
#include <vector>

#include "engine/lint/locate.h"
#include "engine/lint/model.h"

namespace strata::lint {

struct RuleInfo {
  const char* id;
  Severity severity;
  const char* what;  // what it finds
  const char* why;   // the mistake it comes from
  const char* fix;   // the default one-line fix
};

//! Every rule, in the order the README lists them.
const std::vector<RuleInfo>& Rules();
//! The rule named `id`, or null.
const RuleInfo* FindRule(const std::string& id);

class LintContext {
 public:
  LintContext(const ProjectModel& model, Locator& locator) : model_(model), locator_(locator) {}

  const ProjectModel& model() const { return model_; }
  //! Reports `rule` at `path` of `inst`'s value; an empty `hint` takes the rule's fix.
  void Report(const std::string& rule, const Instance& inst, const Path& path, std::string message, std::string hint = "");
  //! Reports `rule` at `path` inside Kubernetes object `object`.
  void Report(const std::string& rule, const KubeObject& object, const Path& path, std::string message,
              std::string hint = "");
  //! Reports `rule` at the key that `path`'s last step names (a Secret's data key).
  void ReportKey(const std::string& rule, const KubeObject& object, const Path& path, std::string message);
  //! Reports `rule` at line `line` (0-based) of the multi-line string at `path`.
  void ReportLine(const std::string& rule, const KubeObject& object, const Path& path, int line, std::string message);
  std::vector<Finding>& findings() { return findings_; }

 private:
  void ReportAt(const std::string& rule, const Instance& inst, SourceRange range, std::string message, std::string hint);

  const ProjectModel& model_;
  Locator& locator_;
  std::vector<Finding> findings_;
};

//! One object (or record, or rule) managed twice: Kubernetes objects, Route 53 records,
//! security group rules.
void CheckDuplicates(LintContext& ctx);
//! Kubernetes objects: deprecated API versions, host ports, undeclared namespaces, service
//! accounts and ConfigMap keys, static AWS keys, requests no node group can hold.
void CheckKubernetes(LintContext& ctx);
//! EKS node groups: spot markers on on-demand groups, node-template tags, GPU types, AZs,
//! versions.
void CheckNodeGroups(LintContext& ctx);
//! The cluster-autoscaler's flags and priority expander against the node groups.
void CheckAutoscaler(LintContext& ctx);
//! Karpenter's node classes: a discovery tag naming no cluster of the project.
void CheckKarpenter(LintContext& ctx);
//! Instance types that do not exist, wherever one is written; pods placed on types no group launches.
void CheckInstanceTypes(LintContext& ctx);
//! Values pasted where a reference belongs: ARNs and ids of what the project manages, images
//! of another region's or account's registry.
void CheckAwsReferences(LintContext& ctx);
//! Workloads given a queue that no IAM policy they can use lets them touch.
void CheckIam(LintContext& ctx);
//! Deprecated managed policies attached; efs-ap StorageClasses no policy lets make access points.
void CheckIamPolicies(LintContext& ctx);
//! What containers run: duplicate device plugins, untagged images, removed CLI commands.
void CheckWorkloads(LintContext& ctx);
//! Queues made beside a runner's queue pattern that the pattern does not match.
void CheckQueues(LintContext& ctx);

}  // namespace strata::lint
