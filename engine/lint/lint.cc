#include "engine/lint/lint.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "engine/lint/rules.h"

namespace strata::lint {
namespace {

constexpr Severity kError = Severity::Error;
constexpr Severity kWarning = Severity::Warning;

// Whether a `# lint:ignore RULE` comment (several rules separated by commas or spaces) on the
// finding's line or the line above silences it.
bool Silenced(const Finding& f, Locator& lines) {
  if (!f.range.IsKnown()) return false;
  for (int line : {f.range.start.line, f.range.start.line - 1}) {
    std::string text = lines.Line(f.range.file, line);
    size_t at = text.find("lint:ignore");
    if (at == std::string::npos || text.rfind('#', at) == std::string::npos) continue;
    std::string rest = text.substr(at + std::string("lint:ignore").size());
    std::replace(rest.begin(), rest.end(), ',', ' ');
    std::istringstream words(rest);
    for (std::string word; words >> word;) {
      if (word == f.rule) return true;
    }
  }
  return false;
}

}  // namespace

const char* SeverityName(Severity severity) { return severity == Severity::Error ? "error" : "warning"; }

const std::vector<RuleInfo>& Rules() {
  static const std::vector<RuleInfo> rules = {
      {"k8s-duplicate-object", kError, "two resources (in one stage or two) manage the same Kubernetes kind/namespace/name",
       "two ClusterRoleBindings with one name in one stage (kubeflow-eks reference)",
       "keep one owner: delete the other declaration or rename one object"},
      {"route53-duplicate-record", kError, "two resources manage the same Route 53 record (zone, name, type)",
       "a DNS record managed by two stages at once (kubeflow-eks reference)",
       "let one stage own the record; pass what the other knows to it as an output"},
      {"sg-duplicate-rule", kError, "two resources declare the same security group rule",
       "the same port opened by two stages: the second create fails with a duplicate rule",
       "declare the rule once"},
      {"k8s-deprecated-api", kError, "an apiVersion the cluster's Kubernetes version no longer serves",
       "apps/v1beta2 and extensions/v1beta1 DaemonSets, a v1beta1 CRD (other-platforms 1, 3, 4)",
       "use the apiVersion the message names"},
      {"k8s-hostport-conflict", kError, "two DaemonSets claim the same host port",
       "two DaemonSets claiming the same host port (kubeflow-eks reference); two device plugins (other-platforms 1)",
       "drop one DaemonSet or move one to another hostPort"},
      {"k8s-undeclared-namespace", kWarning, "an object in a namespace the project never declares (when it declares some)",
       "the spot handler's service account landed outside namespace zip (other-platforms 1)",
       "declare the Namespace, or fix the namespace's name"},
      {"k8s-undeclared-service-account", kWarning,
       "a workload runs as a ServiceAccount the project never declares in its namespace (when it declares some)",
       "SA spark never created; the handler's SA in another namespace (other-platforms 1)",
       "declare the ServiceAccount in the workload's namespace, or fix serviceAccountName"},
      {"k8s-undeclared-configmap-key", kWarning,
       "a container reads a ConfigMap key (or ConfigMap) the project never declares (when it declares ConfigMaps)",
       "the handler reads aws.zip.region, absent from ConfigMap region-config (other-platforms 1)",
       "add the key to the ConfigMap's data, or fix the key's name"},
      {"k8s-static-aws-keys", kWarning, "AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY in a Secret or a container's env",
       "personal keys copied into Secrets and env (other-platforms 2)",
       "give the service account an IRSA role (eks.amazonaws.com/role-arn) and drop the keys"},
      {"nodegroup-spot-on-ondemand", kError, "spot labels or the spot taint on an ON_DEMAND node group",
       "on-demand GPU groups carrying spot labels and taint, copied kubelet args (kubeflow-eks reference)",
       "remove the spot label/taint, or make the group SPOT"},
      {"nodegroup-template-mismatch", kError,
       "a cluster-autoscaler node-template tag that disagrees with the group's labels or taints",
       "a taint tag with key dedicated and no effect; template labels missing on the nodes (other-platforms 2, 3)",
       "derive the node-template tags from the group's labels and taints"},
      {"nodegroup-gpu-count-mix", kError, "a node group mixing instance types with different GPU counts",
       "p3.2xlarge..p3.16xlarge (1 to 8 GPUs) in one group: one template cannot model them (other-platforms 3)",
       "one group per GPU count"},
      {"nodegroup-spot-gpu-single-az", kWarning, "a spot GPU group with one instance type in one subnet and no other group offering it",
       "UnfulfillableCapacity, fixed only by recreating the cluster (other-platforms 2)",
       "list more instance types or subnets, or add an on-demand group of the type"},
      {"nodegroup-version-older", kWarning, "a node group's Kubernetes version or release older than the cluster's",
       "a GPU AMI of an older Kubernetes version than the cluster (kubeflow-eks reference)",
       "set the group's version to the cluster's (or leave it unset)"},
      {"autoscaler-discovery", kWarning,
       "cluster-autoscaler discovery tags matching no cluster of the project, or only the shared enabled tag",
       "discovery on k8s.io/cluster-autoscaler/enabled alone adopts other clusters' groups; a renamed cluster stops scale-up (other-platforms 2, 3)",
       "discover with k8s.io/cluster-autoscaler/enabled,k8s.io/cluster-autoscaler/<cluster name>"},
      {"autoscaler-iam", kWarning,
       "a cluster-autoscaler whose deployment has no IAM policy granting autoscaling:SetDesiredCapacity",
       "nothing granted the autoscaler its ASG permissions (kubeflow-eks reference)",
       "give its service account an IRSA role allowing autoscaling:SetDesiredCapacity and TerminateInstanceInAutoScalingGroup"},
      {"autoscaler-nodes-bounds", kWarning, "a --nodes=min:max:name flag whose bounds disagree with the node group's sizes",
       "flag maxima 7/3 against ASG max 10 (other-platforms 1)",
       "use the group's min_size:max_size, or auto-discovery"},
      {"autoscaler-priority-unknown-group", kWarning, "a priority-expander entry whose pattern names no node group",
       "ASG names pasted by hand into the priority ConfigMap (other-platforms 1)",
       "build the priorities from the node groups (their names or ASG names), not pasted text"},
      {"karpenter-discovery", kError,
       "a Karpenter node class whose karpenter.sh/discovery selector names no EKS cluster of the project",
       "AWSNodeTemplate discovering ai-usw2 in cluster ai-us-west-2 (other-platforms 1)",
       "select by the cluster's name (from the cluster resource or stage output), or by subnet and group ids"},
      {"k8s-exceeds-node-capacity", kError, "a container requests more CPU or GPUs than any node group's instance type has",
       "a job asking 32 CPUs of 16-vCPU nodes (other-platforms 4)",
       "lower the request, or add a node group of a larger instance type"},
      {"aws-unknown-instance-type", kError,
       "an instance type whose family lint knows but which that family does not come in (types of unknown families are not judged)",
       "p3.4xlarge in the device plugin's instance-type affinity (other-platforms 1)",
       "use a size the family comes in (the message names the nearest)"},
      {"k8s-instance-type-not-offered", kWarning,
       "pods placed (node affinity, nodeSelector) on an instance type that no node group, launch template or Karpenter requirement of the project launches",
       "the type list written twice, in the ASGs and in the device plugin's affinity, drifting apart (other-platforms 3)",
       "place pods by a label the groups set (nvidia.com/gpu.present, a group label), not by a list of types"},
      {"aws-pasted-arn", kWarning,
       "a literal ARN or id of a kind the project itself manages or looks up (Cognito user pool, ACM certificate, SQS queue)",
       "certificate ARN, user pool ARN, client id and domain pasted into the KfDef (other-platforms 1)",
       "pass the value by reference (${module.X.arn}, ${stage.S.output}) instead of writing it out"},
      {"aws-pasted-arn-mismatch", kError,
       "literal ARNs in one resource or Kubernetes object that disagree on account or region, or with the stage's region",
       "Cognito and ACM values differing inside the KfDef (other-platforms 1)",
       "take every value from the one deployment that makes it, by reference"},
      {"k8s-image-foreign-registry", kWarning,
       "a container image in an ECR registry of another region than the stage's, or of an account the project names nowhere else",
       "the handler's image in another account's eu-west-1 registry (other-platforms 1)",
       "pull from your own account's registry in the stage's region (copy the image there)"},
      {"iam-missing-sqs-access", kWarning,
       "a workload given an SQS queue (in its env or ConfigMap) that neither its IRSA role nor the node roles allow to send or receive",
       "no sqs:SendMessage for nodes: the spot handler could not write to its queue (other-platforms 1)",
       "give its service account an IRSA role allowing sqs:SendMessage (or ReceiveMessage) on the queue's ARN"},
      {"sqs-queue-outside-match", kWarning,
       "a queue made in the stage of a ConfigMap's QUEUE_MATCH pattern whose name the pattern does not match",
       "the client wrote to sqs_kmutch, outside the runners' ^sqs_StudioML_.*$ (other-platforms 2)",
       "name the queue inside the pattern (build both from one prefix variable), or widen the pattern"},
      {"nodegroup-unknown-cluster", kError, "a node group whose cluster_name names no EKS cluster of the project",
       "group m5spot's file named cluster ml-us-west-2 in a project of ai-us-west-2 (other-platforms 1)",
       "take the cluster's name by reference (${aws_eks_cluster.X.name}, ${stage.S.cluster_name})"},
      {"k8s-duplicate-device-plugin", kWarning,
       "two DaemonSets running the NVIDIA device plugin on the same nodes (not told apart by nodeSelector)",
       "two device plugins: the module's and Kubeflow's own (other-platforms 1)",
       "keep one device plugin"},
      {"k8s-image-latest-tag", kWarning, "a container image tagged latest, or with no tag",
       "etcd:latest, pytorch-cpu:latest: nodes pull different code over time (other-platforms 4)",
       "pin a version tag (or a digest)"},
      {"k8s-removed-aws-cli-command", kWarning, "a container command running aws ecr get-login, which AWS CLI v2 removed",
       "the ECR pull-secret CronJob's aws ecr get-login (other-platforms 2)",
       "use aws ecr get-login-password | docker login --password-stdin, or the node role's ECR read access"},
      {"iam-deprecated-managed-policy", kWarning, "an AWS managed policy AWS has deprecated attached (AmazonEC2RoleforSSM, ...)",
       "AmazonEC2RoleforSSM on every node group (other-platforms 3)",
       "attach the replacement the message names"},
      {"iam-missing-efs-access-point", kWarning,
       "an EFS CSI StorageClass in efs-ap mode while no IAM policy of the deployment allows elasticfilesystem:CreateAccessPoint",
       "efs-ap StorageClass with no IAM to create access points (other-platforms 4)",
       "give the EFS CSI controller an IRSA role with AmazonEFSCSIDriverPolicy, or provision statically"},
  };
  return rules;
}

const RuleInfo* FindRule(const std::string& id) {
  for (const auto& rule : Rules()) {
    if (id == rule.id) return &rule;
  }
  return nullptr;
}

void LintContext::Report(const std::string& rule, const Instance& inst, const Path& path, std::string message,
                         std::string hint) {
  ReportAt(rule, inst, locator_.Locate(inst, path), std::move(message), std::move(hint));
}

void LintContext::ReportKey(const std::string& rule, const KubeObject& object, const Path& path, std::string message) {
  ReportAt(rule, *object.instance, locator_.Locate(*object.instance, Join(object.base, path), true), std::move(message), "");
}

void LintContext::ReportLine(const std::string& rule, const KubeObject& object, const Path& path, int line,
                             std::string message) {
  ReportAt(rule, *object.instance, locator_.LocateLine(*object.instance, Join(object.base, path), line), std::move(message),
           "");
}

void LintContext::ReportAt(const std::string& rule, const Instance& inst, SourceRange range, std::string message,
                           std::string hint) {
  const RuleInfo* info = FindRule(rule);
  Finding f;
  f.rule = rule;
  f.severity = info ? info->severity : Severity::Warning;
  f.stage = inst.stage->name;
  f.address = inst.address;
  f.range = std::move(range);
  f.message = std::move(message);
  f.hint = hint.empty() && info ? info->fix : std::move(hint);
  findings_.push_back(std::move(f));
}

void LintContext::Report(const std::string& rule, const KubeObject& object, const Path& path, std::string message,
                         std::string hint) {
  Report(rule, *object.instance, Join(object.base, path), std::move(message), std::move(hint));
}

std::vector<Finding> RunLint(const ProjectConfig& project, const std::vector<LintStage>& stages, Diagnostics& diags) {
  std::set<std::string> disabled;
  for (size_t i = 0; i < project.lint.disable.size(); ++i) {
    const std::string& id = project.lint.disable[i];
    if (!FindRule(id)) {
      std::vector<std::string> ids;
      for (const auto& rule : Rules()) ids.push_back(rule.id);
      diags.Error("Unknown lint rule", fmt::format("lint.disable names \"{}\", which is no rule. The rules: {}.", id,
                                                   fmt::join(ids, ", ")),
                  i < project.lint.disable_ranges.size() ? project.lint.disable_ranges[i] : SourceRange{});
      continue;
    }
    disabled.insert(id);
  }
  ProjectModel model = BuildModel(stages);
  Locator locator;
  LintContext ctx(model, locator);
  CheckDuplicates(ctx);
  CheckKubernetes(ctx);
  CheckNodeGroups(ctx);
  CheckAutoscaler(ctx);
  CheckKarpenter(ctx);
  CheckInstanceTypes(ctx);
  CheckAwsReferences(ctx);
  CheckIam(ctx);
  CheckIamPolicies(ctx);
  CheckWorkloads(ctx);
  CheckQueues(ctx);
  std::vector<Finding> out;
  for (auto& f : ctx.findings()) {
    if (disabled.count(f.rule) || Silenced(f, locator)) continue;
    out.push_back(std::move(f));
  }
  std::stable_sort(out.begin(), out.end(), [](const Finding& a, const Finding& b) {
    return std::tie(a.range.file, a.range.start.line, a.range.start.column, a.rule) <
           std::tie(b.range.file, b.range.start.line, b.range.start.column, b.rule);
  });
  return out;
}

void AppendAsDiagnostics(const std::vector<Finding>& findings, bool strict, Diagnostics& diags) {
  for (const auto& f : findings) {
    Diagnostic d;
    d.severity = strict && f.severity == Severity::Error ? strata::Severity::Error : strata::Severity::Warning;
    d.summary = fmt::format("{}: {}", f.rule, f.message);
    d.detail = fmt::format("Fix: {}. (strata lint rule {}; silence it with `# lint:ignore {}` on the line, or "
                           "lint: {{ disable: [{}] }} in strata.yaml.)",
                           f.hint, f.rule, f.rule, f.rule);
    d.subject = f.range;
    d.address = f.address;
    diags.Add(std::move(d));
  }
}

}  // namespace strata::lint
