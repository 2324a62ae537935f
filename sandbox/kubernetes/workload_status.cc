#include "sandbox/kubernetes/workload_status.h"
#include "sandbox/kubernetes/api_catalog.h"

#include <cstdint>
#include <cstdio>

namespace strata::sandbox::k8s {
namespace {

int64_t Generation(const Json& object) {
  const Json& g = MemberAt(MemberAt(object, "metadata"), "generation");
  return g.is_number_integer() ? g.get<int64_t>() : 1;
}

// kube's status structs omit zero counts (omitempty).
void SetCount(Json& status, const char* key, int64_t n) {
  if (n != 0) status[key] = n;
}

// 64-bit FNV-1a: names derived from a uid stay the same across processes.
uint64_t Hash(const std::string& text, uint64_t seed = 1469598103934665603ULL) {
  uint64_t h = seed;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

std::string Hex(uint64_t value, int digits) {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  for (int i = 0; i < digits; ++i) {
    out.insert(out.begin(), kDigits[value & 15]);
    value >>= 4;
  }
  return out;
}

// The pod-template-hash kube would give the template: 10 characters of kube's safe alphabet.
std::string TemplateHash(const Json& object) {
  static const std::string kSafe = "bcdfghjklmnpqrstvwxz2456789";
  uint64_t h = Hash(MemberAt(MemberAt(object, "spec"), "template").dump());
  std::string out;
  for (int i = 0; i < 10; ++i) {
    out += kSafe[h % kSafe.size()];
    h /= kSafe.size();
  }
  return out;
}

Json Condition(const std::string& type, const std::string& reason, const std::string& message,
               const std::string& time, bool with_update_time) {
  Json c = {{"type", type}, {"status", "True"}, {"reason", reason}, {"message", message}};
  if (with_update_time) c["lastUpdateTime"] = time;
  c["lastTransitionTime"] = time;
  return c;
}

bool LabelsMatch(const Json& selector, const Json& labels) {
  if (!selector.is_object()) return true;
  for (const auto& [key, value] : selector.items())
    if (!labels.is_object() || !labels.contains(key) || labels[key] != value) return false;
  return true;
}

}  // namespace

int64_t DesiredReplicas(const Json& object) {
  const Json& replicas = MemberAt(MemberAt(object, "spec"), "replicas");
  return replicas.is_number_integer() ? replicas.get<int64_t>() : 1;
}

Json RolledOutDeploymentStatus(const Json& deployment, const std::string& time) {
  int64_t n = DesiredReplicas(deployment);
  std::string replica_set = TextAt(MemberAt(deployment, "metadata"), "name") + "-" + TemplateHash(deployment);
  Json status = {{"observedGeneration", Generation(deployment)}};
  for (const char* key : {"replicas", "updatedReplicas", "readyReplicas", "availableReplicas"}) SetCount(status, key, n);
  status["conditions"] = {
      Condition("Available", "MinimumReplicasAvailable", "Deployment has minimum availability.", time, true),
      Condition("Progressing", "NewReplicaSetAvailable",
                "ReplicaSet \"" + replica_set + "\" has successfully progressed.", time, true)};
  return status;
}

Json RolledOutStatefulSetStatus(const Json& stateful_set) {
  int64_t n = DesiredReplicas(stateful_set);
  std::string revision = TextAt(MemberAt(stateful_set, "metadata"), "name") + "-" + TemplateHash(stateful_set);
  Json status = {{"observedGeneration", Generation(stateful_set)}, {"replicas", n}};
  for (const char* key : {"readyReplicas", "currentReplicas", "updatedReplicas", "availableReplicas"})
    SetCount(status, key, n);
  status["currentRevision"] = revision;
  status["updateRevision"] = revision;
  status["collisionCount"] = 0;
  return status;
}

Json RolledOutDaemonSetStatus(const Json& daemon_set, int64_t scheduled) {
  Json status = {{"observedGeneration", Generation(daemon_set)},
                 {"desiredNumberScheduled", scheduled},
                 {"currentNumberScheduled", scheduled},
                 {"numberMisscheduled", 0},
                 {"numberReady", scheduled}};
  SetCount(status, "updatedNumberScheduled", scheduled);
  SetCount(status, "numberAvailable", scheduled);
  return status;
}

Json CompletedJobStatus(const Json& job, const std::string& start_time, const std::string& completion_time) {
  const Json& completions = MemberAt(MemberAt(job, "spec"), "completions");
  int64_t n = completions.is_number_integer() ? completions.get<int64_t>() : 1;
  Json status = {{"startTime", start_time}, {"completionTime", completion_time}, {"ready", 0}, {"terminating", 0}};
  SetCount(status, "succeeded", n);
  status["uncountedTerminatedPods"] = Json::object();
  status["conditions"] = {
      {{"type", "SuccessCriteriaMet"}, {"status", "True"}, {"reason", "CompletionsReached"},
       {"message", "Reached expected number of succeeded pods"}, {"lastProbeTime", completion_time},
       {"lastTransitionTime", completion_time}},
      {{"type", "Complete"}, {"status", "True"}, {"reason", "CompletionsReached"},
       {"message", "Reached expected number of succeeded pods"}, {"lastProbeTime", completion_time},
       {"lastTransitionTime", completion_time}}};
  return status;
}

bool Tolerates(const Json& toleration, const Json& taint) {
  std::string effect = TextAt(toleration, "effect");
  if (!effect.empty() && effect != TextAt(taint, "effect")) return false;
  std::string key = TextAt(toleration, "key");
  std::string op = TextAt(toleration, "operator");
  if (op.empty()) op = "Equal";
  if (key.empty()) return op == "Exists";  // an empty key with Exists tolerates everything
  if (key != TextAt(taint, "key")) return false;
  if (op == "Exists") return true;
  return op == "Equal" && TextAt(toleration, "value") == TextAt(taint, "value");
}

bool Schedulable(const Json& pod_spec, const Json& node) {
  if (!LabelsMatch(MemberAt(pod_spec, "nodeSelector"), MemberAt(MemberAt(node, "metadata"), "labels"))) return false;
  const Json& taints = MemberAt(MemberAt(node, "spec"), "taints");
  if (!taints.is_array()) return true;
  const Json& tolerations = MemberAt(pod_spec, "tolerations");
  for (const Json& taint : taints) {
    std::string effect = TextAt(taint, "effect");
    if (effect != "NoSchedule" && effect != "NoExecute") continue;
    bool tolerated = false;
    if (tolerations.is_array())
      for (const Json& t : tolerations) tolerated = tolerated || Tolerates(t, taint);
    if (!tolerated) return false;
  }
  return true;
}

std::string ServiceLoadBalancerHost(const std::string& uid, const std::string& region) {
  // kube's service controller names the ELB "a" + the uid without dashes (32 characters).
  std::string name = "a";
  for (char c : uid)
    if (c != '-' && name.size() < 33) name += c;
  while (name.size() < 33) name += Hex(Hash(uid + name), 1);
  char digits[16];
  std::snprintf(digits, sizeof digits, "%010llu",
                static_cast<unsigned long long>(Hash(uid, 7) % 10000000000ULL));
  return name + "-" + digits + "." + region + ".elb.amazonaws.com";
}

std::string IngressLoadBalancerHost(const std::string& ns, const std::string& name, const std::string& uid,
                                    const std::string& region) {
  // The AWS load balancer controller: "k8s-" + namespace and name cut to 8 characters each.
  std::string host = "k8s-" + ns.substr(0, 8) + "-" + name.substr(0, 8) + "-" + Hex(Hash(uid), 10);
  return host + "." + "elb." + region + ".amazonaws.com";
}

}  // namespace strata::sandbox::k8s
