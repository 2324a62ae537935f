#pragma once
// When an applied object is ready, as kstatus (sigs.k8s.io/cli-utils) and Pulumi define it
// for the kinds that have a rollout, and what a user's `wait` asks for instead:
//  - any kind: metadata.generation not yet observed (status.observedGeneration) is in progress;
//  - Deployment: updated = ready = available = spec.replicas (default 1), Available True,
//    Progressing (when present) with reason NewReplicaSetAvailable;
//  - DaemonSet: desired scheduled = updated = available (0 desired is ready at once);
//  - StatefulSet: ready = updated = spec.replicas, currentRevision = updateRevision;
//  - Job: Complete True; Failed True fails;
//  - CustomResourceDefinition: Established True; NamesAccepted False fails;
//  - Namespace: phase Active;
//  - PersistentVolumeClaim: Bound, or Pending when its storage class binds on first consumer;
//  - Service of type LoadBalancer, Ingress: a load-balancer address in status;
//  - every other kind: ready once applied.

#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace strata::kubernetes {

enum class Readiness { Ready, InProgress, Failed };

struct ReadinessState {
  Readiness readiness = Readiness::Ready;
  //! What is awaited or what failed: "2/3 replicas available", "condition Established is False".
  std::string message;
};

//! What `wait` asks for: the kind's rollout (the default), a condition, field values, or nothing.
struct WaitFor {
  bool rollout = true;
  std::optional<std::pair<std::string, std::string>> condition;  //!< type, status ("True")
  //! Dotted paths ("status.phase") and the values they must have (a string, compared as printed).
  std::map<std::string, std::string> fields;

  bool Nothing() const { return !rollout && !condition && fields.empty(); }
};

//! The rollout rules above for `object` (as read back from the server).
//! `binds_on_first_consumer`: a PVC's storage class has volumeBindingMode WaitForFirstConsumer.
ReadinessState RolloutState(const nlohmann::json& object, bool binds_on_first_consumer = false);

//! RolloutState (when asked), then the condition and field checks of `wait`.
ReadinessState WaitState(const nlohmann::json& object, const WaitFor& wait, bool binds_on_first_consumer = false);

}  // namespace strata::kubernetes
