#include "providers/kubernetes/manifest/readiness.h"

#include <fmt/format.h>

#include "providers/kubernetes/client/json_fields.h"

namespace strata::kubernetes {
namespace {

using Json = nlohmann::json;

ReadinessState Ready() { return {}; }
ReadinessState Waiting(std::string message) { return {Readiness::InProgress, std::move(message)}; }
ReadinessState Failed(std::string message) { return {Readiness::Failed, std::move(message)}; }

const Json& Field(const Json& j, const char* key) {
  static const Json kNull;
  if (!j.is_object()) return kNull;
  auto it = j.find(key);
  return it == j.end() ? kNull : *it;
}

long Int(const Json& j, const char* key, long fallback = 0) {
  const Json& v = Field(j, key);
  return v.is_number() ? v.get<long>() : fallback;
}

// The status of condition `type` ("True", "False", "Unknown"), its reason, or nullopt when absent.
std::optional<std::pair<std::string, std::string>> Condition(const Json& object, const std::string& type) {
  const Json& conditions = Field(Field(object, "status"), "conditions");
  if (!conditions.is_array()) return std::nullopt;
  for (const Json& c : conditions) {
    if (StringAt(c, "type") == type) return std::make_pair(StringAt(c, "status"), StringAt(c, "reason"));
  }
  return std::nullopt;
}

bool ConditionIs(const Json& object, const std::string& type, const std::string& status) {
  auto c = Condition(object, type);
  return c && c->first == status;
}

// A spec change the controller has not seen yet.
std::optional<ReadinessState> GenerationPending(const Json& object) {
  const Json& status = Field(object, "status");
  const Json& observed = Field(status, "observedGeneration");
  long generation = Int(Field(object, "metadata"), "generation", 0);
  if (observed.is_number() && observed.get<long>() < generation) {
    return Waiting(fmt::format("generation {} not yet observed (observed {})", generation, observed.get<long>()));
  }
  return std::nullopt;
}

ReadinessState DeploymentState(const Json& d) {
  const Json& status = Field(d, "status");
  long want = Int(Field(d, "spec"), "replicas", 1);
  long updated = Int(status, "updatedReplicas"), ready = Int(status, "readyReplicas"),
       available = Int(status, "availableReplicas");
  if (!Field(status, "observedGeneration").is_number()) return Waiting("the deployment controller has not seen it yet");
  auto progressing = Condition(d, "Progressing");
  if (progressing && progressing->second == "ProgressDeadlineExceeded") {
    return Failed("rollout exceeded its progress deadline (condition Progressing: ProgressDeadlineExceeded)");
  }
  if (updated < want) return Waiting(fmt::format("{}/{} replicas updated", updated, want));
  if (ready < want) return Waiting(fmt::format("{}/{} replicas ready", ready, want));
  if (available < want) return Waiting(fmt::format("{}/{} replicas available", available, want));
  if (Int(status, "replicas", want) > want) return Waiting(fmt::format("{} old replicas terminating", Int(status, "replicas") - want));
  if (progressing && progressing->second != "NewReplicaSetAvailable") {
    return Waiting("condition Progressing is " + progressing->second);
  }
  if (want > 0 && !ConditionIs(d, "Available", "True")) return Waiting("condition Available is not True");
  return Ready();
}

ReadinessState DaemonSetState(const Json& ds) {
  const Json& status = Field(ds, "status");
  if (!Field(status, "observedGeneration").is_number() && !status.contains("desiredNumberScheduled")) {
    return Waiting("the daemonset controller has not seen it yet");
  }
  long desired = Int(status, "desiredNumberScheduled");
  if (desired == 0) return Ready();
  long updated = Int(status, "updatedNumberScheduled"), available = Int(status, "numberAvailable");
  if (updated < desired) return Waiting(fmt::format("{}/{} pods updated", updated, desired));
  if (available < desired) return Waiting(fmt::format("{}/{} pods available", available, desired));
  return Ready();
}

ReadinessState StatefulSetState(const Json& ss) {
  const Json& status = Field(ss, "status");
  long want = Int(Field(ss, "spec"), "replicas", 1);
  long ready = Int(status, "readyReplicas"), updated = Int(status, "updatedReplicas", Int(status, "currentReplicas"));
  if (!Field(status, "observedGeneration").is_number()) return Waiting("the statefulset controller has not seen it yet");
  if (ready < want) return Waiting(fmt::format("{}/{} replicas ready", ready, want));
  if (updated < want) return Waiting(fmt::format("{}/{} replicas updated", updated, want));
  std::string current = StringAt(status, "currentRevision"), update = StringAt(status, "updateRevision");
  if (!update.empty() && current != update) return Waiting("revision " + update + " not rolled out yet");
  return Ready();
}

ReadinessState JobState(const Json& job) {
  if (ConditionIs(job, "Failed", "True")) {
    auto c = Condition(job, "Failed");
    return Failed("the job failed" + (c->second.empty() ? std::string() : " (" + c->second + ")"));
  }
  if (ConditionIs(job, "Complete", "True")) return Ready();
  return Waiting(fmt::format("{} succeeded, {} active", Int(Field(job, "status"), "succeeded"),
                             Int(Field(job, "status"), "active")));
}

ReadinessState CrdState(const Json& crd) {
  if (ConditionIs(crd, "NamesAccepted", "False")) return Failed("its names were not accepted (condition NamesAccepted is False)");
  if (ConditionIs(crd, "Established", "True")) return Ready();
  return Waiting("condition Established is not True");
}

ReadinessState LoadBalancerState(const Json& object) {
  const Json& ingress = Field(Field(Field(object, "status"), "loadBalancer"), "ingress");
  if (ingress.is_array() && !ingress.empty()) return Ready();
  return Waiting("no load-balancer address yet");
}

// "status.phase" → the value there, printed (strings bare), or nullopt.
std::optional<std::string> ValueAt(const Json& object, const std::string& path) {
  const Json* at = &object;
  size_t start = 0;
  while (start <= path.size()) {
    size_t dot = path.find('.', start);
    std::string part = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (at->is_array()) {
      char* end = nullptr;
      unsigned long index = std::strtoul(part.c_str(), &end, 10);
      if (part.empty() || *end != '\0' || index >= at->size()) return std::nullopt;
      at = &(*at)[index];
    } else {
      const Json& next = Field(*at, part.c_str());
      if (next.is_null()) return std::nullopt;
      at = &next;
    }
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return at->is_string() ? at->get<std::string>() : at->dump();
}

}  // namespace

ReadinessState RolloutState(const Json& object, bool binds_on_first_consumer) {
  if (auto pending = GenerationPending(object)) return *pending;
  std::string kind = StringAt(object, "kind");
  std::string group = StringAt(object, "apiVersion");
  group = group.find('/') == std::string::npos ? "" : group.substr(0, group.find('/'));
  const Json& status = Field(object, "status");
  if (group == "apps" && kind == "Deployment") return DeploymentState(object);
  if (group == "apps" && kind == "DaemonSet") return DaemonSetState(object);
  if (group == "apps" && kind == "StatefulSet") return StatefulSetState(object);
  if (group == "batch" && kind == "Job") return JobState(object);
  if (group == "apiextensions.k8s.io" && kind == "CustomResourceDefinition") return CrdState(object);
  if (group.empty() && kind == "Namespace") {
    return StringAt(status, "phase") == "Active" ? Ready() : Waiting("phase is " + StringAt(status, "phase"));
  }
  if (group.empty() && kind == "PersistentVolumeClaim") {
    std::string phase = StringAt(status, "phase");
    if (phase == "Bound") return Ready();
    if (phase == "Lost") return Failed("the claim lost its volume (phase Lost)");
    if (phase == "Pending" && binds_on_first_consumer) return Ready();
    return Waiting("phase is " + (phase.empty() ? std::string("not set") : phase));
  }
  if (group.empty() && kind == "Service") {
    if (StringAt(Field(object, "spec"), "type") == "LoadBalancer") return LoadBalancerState(object);
    return Ready();
  }
  if (group == "networking.k8s.io" && kind == "Ingress") return LoadBalancerState(object);
  return Ready();
}

ReadinessState WaitState(const Json& object, const WaitFor& wait, bool binds_on_first_consumer) {
  if (wait.rollout) {
    ReadinessState rollout = RolloutState(object, binds_on_first_consumer);
    if (rollout.readiness != Readiness::Ready) return rollout;
  }
  if (wait.condition) {
    auto c = Condition(object, wait.condition->first);
    if (!c || c->first != wait.condition->second) {
      return Waiting(fmt::format("condition {} is {} (waiting for {})", wait.condition->first,
                                 c ? c->first : std::string("absent"), wait.condition->second));
    }
  }
  for (const auto& [path, want] : wait.fields) {
    auto have = ValueAt(object, path);
    if (!have || *have != want) {
      return Waiting(fmt::format("{} is {} (waiting for {})", path, have ? *have : std::string("not set"), want));
    }
  }
  return Ready();
}

}  // namespace strata::kubernetes
