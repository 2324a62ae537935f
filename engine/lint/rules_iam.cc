// What the project's IAM allows and attaches.
// iam-missing-sqs-access: a workload given an SQS queue — a queue URL or ARN written into
// its env or a ConfigMap it reads, or a queue-named key (…QUEUE…, …SQS…) whose value is
// computed, in a deployment that declares aws_sqs_queue — that no IAM policy it can use
// lets touch a queue (sqs:SendMessage, sqs:ReceiveMessage, sqs:*): the reference's spot
// handler wrote to SQS from nodes whose role allowed no sqs:SendMessage. The policies it
// can use: its service account's IRSA role (the module holding a trust policy for
// system:serviceaccount:NS:SA) and the node roles (modules holding a trust for
// ec2.amazonaws.com). Which of the two directions the workload needs lint cannot tell, so
// either grant satisfies the rule; a role lint cannot find or read keeps it quiet.
// iam-missing-efs-access-point: an efs-ap StorageClass with no policy allowing
// elasticfilesystem:CreateAccessPoint. iam-deprecated-managed-policy: AmazonEC2RoleforSSM
// and the like attached.
#include <fmt/format.h>

#include <map>
#include <set>

#include "engine/lint/iam_grants.h"
#include "engine/lint/rules.h"

namespace strata::lint {
namespace {

const std::vector<std::string>& SqsGrants() {
  static const std::vector<std::string> grants = {"sqs:SendMessage", "sqs:ReceiveMessage", "sqs:*", "sqs:Send*",
                                                  "sqs:Receive*", "AmazonSQSFullAccess", "AdministratorAccess"};
  return grants;
}

bool SqsLiteral(const std::string& s) {
  return s.find("arn:aws:sqs:") != std::string::npos ||
         (s.find("https://sqs.") != std::string::npos && s.find(".amazonaws.com/") != std::string::npos);
}

bool QueueKey(const std::string& key) {
  std::string k = LowerCase(key);
  return k.find("queue") != std::string::npos || k.find("sqs") != std::string::npos;
}

// Whether the env value `v` named `key` hands the workload a queue.
bool GivesQueue(const std::string& key, const Value& v, bool declares_queues) {
  if (v.IsString()) return SqsLiteral(v.AsString());
  return !v.IsWhollyKnown() && declares_queues && QueueKey(key);
}

// "stage|module.x[\"k\"]." — the stage and module instance an IAM instance belongs to.
std::string IamScope(const Instance& inst) {
  std::string prefix = inst.address.substr(0, std::min(inst.address.size(), inst.address.rfind(inst.type)));
  if (prefix.size() >= 5 && prefix.compare(prefix.size() - 5, 5, "data.") == 0) prefix.resize(prefix.size() - 5);
  return inst.stage->name + "|" + prefix;
}

bool Mentions(const Value& v, const std::string& text, int depth = 0) {
  if (depth > 24 || !v.IsKnown()) return false;
  if (v.IsString()) return v.AsString().find(text) != std::string::npos;
  if (v.IsSequence()) {
    for (const auto& e : v.AsList()) {
      if (Mentions(e, text, depth + 1)) return true;
    }
  } else if (v.IsMapping()) {
    for (const auto& [k, e] : v.AsMap()) {
      if (Mentions(e, text, depth + 1)) return true;
    }
  }
  return false;
}

// The IAM instances in the scopes (module instances) where one of them mentions `trust`.
std::vector<const Instance*> TrustingScopes(const std::vector<const Instance*>& iam, const std::string& trust) {
  std::set<std::string> scopes;
  for (const Instance* inst : iam) {
    if (Mentions(*inst->value, trust)) scopes.insert(IamScope(*inst));
  }
  std::vector<const Instance*> out;
  for (const Instance* inst : iam) {
    if (scopes.count(IamScope(*inst))) out.push_back(inst);
  }
  return out;
}

struct QueueUse {
  Path path;  // the env entry, or envFrom entry, that hands the queue over
  std::string what;
};

// The ConfigMaps of the project by "component/ns/name".
std::map<std::string, const KubeObject*> ConfigMapsByName(const ProjectModel& model) {
  std::map<std::string, const KubeObject*> out;
  for (const auto& o : model.objects) {
    if (o.kind == "ConfigMap" && !o.typed) out.emplace(fmt::format("{}/{}/{}", o.instance->component, o.ns, o.name), &o);
  }
  return out;
}

std::vector<QueueUse> QueueUses(const KubeObject& o, const Path& spec_path, bool declares_queues,
                                const std::map<std::string, const KubeObject*>& maps) {
  std::vector<QueueUse> out;
  auto data_of = [&](const std::string& name) -> const Value* {
    auto it = maps.find(fmt::format("{}/{}/{}", o.instance->component, o.ns, name));
    return it == maps.end() ? nullptr : ValueAt(it->second->object, {"data"});
  };
  const Value* containers = ValueAt(o.object, Join(spec_path, {"containers"}));
  for (size_t i = 0; containers && containers->IsSequence() && i < containers->AsList().size(); ++i) {
    const Value& c = containers->AsList()[i];
    Path c_path = Join(spec_path, {"containers", i});
    const Value* env = ValueAt(c, {"env"});
    for (size_t j = 0; env && env->IsSequence() && j < env->AsList().size(); ++j) {
      const Value& e = env->AsList()[j];
      std::string name = StringAt(e, {"name"}).value_or("");
      const Value* value = ValueAt(e, {"value"});
      if (const Value* ref = ValueAt(e, {"valueFrom", "configMapKeyRef"})) {
        auto map = StringAt(*ref, {"name"});
        auto key = StringAt(*ref, {"key"});
        const Value* data = map ? data_of(*map) : nullptr;
        value = data && key ? ValueAt(*data, {*key}) : nullptr;
        if (key) name = *key;
      }
      if (value && GivesQueue(name, *value, declares_queues)) out.push_back({Join(c_path, {"env", j}), name});
    }
    const Value* from = ValueAt(c, {"envFrom"});
    for (size_t j = 0; from && from->IsSequence() && j < from->AsList().size(); ++j) {
      auto map = StringAt(from->AsList()[j], {"configMapRef", "name"});
      const Value* data = map ? data_of(*map) : nullptr;
      if (!data || !data->IsMapping()) continue;
      for (const auto& [key, value] : data->AsMap()) {
        if (GivesQueue(key, value, declares_queues)) {
          out.push_back({Join(c_path, {"envFrom", j}), fmt::format("{} of ConfigMap {}", key, *map)});
          break;
        }
      }
    }
  }
  return out;
}

// The IAM instances a pod of `o` running as service account `sa` can use; nullopt when its
// IRSA role cannot be found, or the project declares no role it could use at all.
std::optional<std::vector<const Instance*>> UsablePolicies(const ProjectModel& model, const KubeObject& o,
                                                           const std::string& sa, const std::vector<const Instance*>& iam) {
  std::vector<const Instance*> out = TrustingScopes(iam, "ec2.amazonaws.com");
  for (const auto& other : model.objects) {
    if (other.kind != "ServiceAccount" || other.typed || other.ns != o.ns || other.name != sa ||
        other.instance->component != o.instance->component) {
      continue;
    }
    if (!ValueAt(other.object, {"metadata", "annotations", "eks.amazonaws.com/role-arn"})) break;
    auto irsa = TrustingScopes(iam, fmt::format("system:serviceaccount:{}:{}", o.ns, sa));
    if (irsa.empty()) return std::nullopt;
    out.insert(out.end(), irsa.begin(), irsa.end());
  }
  if (out.empty()) return std::nullopt;  // no role of the project: the nodes come from elsewhere
  return out;
}

}  // namespace

void CheckIam(LintContext& ctx) {
  const ProjectModel& model = ctx.model();
  std::map<std::string, const KubeObject*> maps = ConfigMapsByName(model);
  std::map<int, std::vector<const Instance*>> iam;
  for (const auto& o : model.objects) {
    if (o.typed || o.kind == "ConfigMap") continue;
    int component = o.instance->component;
    bool declares_queues = !model.OfType("aws_sqs_queue", component).empty();
    for (const Path& spec_path : o.PodSpecs()) {
      std::vector<QueueUse> uses = QueueUses(o, spec_path, declares_queues, maps);
      if (uses.empty()) continue;
      if (!iam.count(component)) iam[component] = IamInstances(model, component);
      std::string sa = StringAt(o.object, Join(spec_path, {"serviceAccountName"})).value_or("default");
      auto usable = UsablePolicies(model, o, sa, iam[component]);
      if (!usable) continue;
      bool unknown = false;
      if (InstancesGrant(*usable, SqsGrants(), unknown) || unknown) continue;
      ctx.Report("iam-missing-sqs-access", o, uses.front().path,
                 fmt::format("{} is given a queue ({}), but neither its service account's IRSA role nor the node roles "
                             "allow sqs:SendMessage or sqs:ReceiveMessage",
                             o.Identity(), uses.front().what));
    }
  }
}

namespace {

// AWS managed policies AWS has replaced, and what replaces each.
const std::map<std::string, std::string>& DeprecatedPolicies() {
  static const std::map<std::string, std::string> policies = {
      {"AmazonEC2RoleforSSM", "attach AmazonSSMManagedInstanceCore instead"},
      {"AmazonEKSServicePolicy", "drop it: EKS clusters need only AmazonEKSClusterPolicy"},
  };
  return policies;
}

void DeprecatedManagedPolicies(LintContext& ctx) {
  for (const Instance& inst : ctx.model().instances) {
    if (inst.type.rfind("aws_iam_", 0) != 0) continue;
    for (const char* field : {"policy_arn", "managed_policy_arns", "policy_arns"}) {
      const Value* at = ValueAt(*inst.value, {field});
      if (!at) continue;
      std::vector<std::pair<Path, const Value*>> arns;
      if (at->IsSequence()) {
        for (size_t i = 0; i < at->AsList().size(); ++i) arns.push_back({{field, i}, &at->AsList()[i]});
      } else {
        arns.push_back({{field}, at});
      }
      for (const auto& [path, arn] : arns) {
        if (!arn->IsString() || arn->AsString().rfind("arn:aws", 0) != 0) continue;
        std::string name = arn->AsString().substr(arn->AsString().rfind('/') + 1);
        auto it = DeprecatedPolicies().find(name);
        if (it == DeprecatedPolicies().end()) continue;
        ctx.Report("iam-deprecated-managed-policy", inst, path,
                   fmt::format("{} is a managed policy AWS has deprecated", name), it->second);
      }
    }
  }
}

// A StorageClass of the EFS CSI driver in efs-ap mode makes an access point per claim: some
// policy of the deployment (the controller's IRSA role or the nodes') must allow it.
void EfsAccessPoints(LintContext& ctx) {
  std::set<int> checked;
  for (const KubeObject& o : ctx.model().objects) {
    if (o.typed || o.kind != "StorageClass" || StringAt(o.object, {"provisioner"}) != "efs.csi.aws.com") continue;
    if (StringAt(o.object, {"parameters", "provisioningMode"}) != "efs-ap") continue;
    int component = o.instance->component;
    if (!checked.insert(component).second) continue;
    bool unknown = false;
    if (InstancesGrant(IamInstances(ctx.model(), component),
                       {"elasticfilesystem:CreateAccessPoint", "elasticfilesystem:*", "AmazonEFSCSIDriverPolicy",
                        "AdministratorAccess"},
                       unknown) ||
        unknown) {
      continue;
    }
    ctx.Report("iam-missing-efs-access-point", o, {"parameters", "provisioningMode"},
               fmt::format("StorageClass {} provisions EFS access points, but no IAM policy of the deployment allows "
                           "elasticfilesystem:CreateAccessPoint: every claim stays Pending",
                           o.name));
  }
}

}  // namespace

void CheckIamPolicies(LintContext& ctx) {
  DeprecatedManagedPolicies(ctx);
  EfsAccessPoints(ctx);
}

}  // namespace strata::lint
