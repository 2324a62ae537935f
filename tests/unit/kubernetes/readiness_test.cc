// The readiness rules, one kind at a time, with objects shaped as controllers leave them.

#include <gtest/gtest.h>

#include "providers/kubernetes/manifest/readiness.h"

namespace strata::kubernetes {
namespace {

using Json = nlohmann::json;

Readiness Of(const char* object, bool first_consumer = false) {
  return RolloutState(Json::parse(object), first_consumer).readiness;
}

TEST(KubernetesReadinessTest, Deployment) {
  const char* rolling = R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"generation":2},
    "spec":{"replicas":3},"status":{"observedGeneration":2,"replicas":3,"updatedReplicas":3,"readyReplicas":2,"availableReplicas":2,
    "conditions":[{"type":"Progressing","status":"True","reason":"ReplicaSetUpdated"}]}})";
  auto state = RolloutState(Json::parse(rolling));
  EXPECT_EQ(state.readiness, Readiness::InProgress);
  EXPECT_EQ(state.message, "2/3 replicas ready");
  const char* done = R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"generation":2},
    "spec":{"replicas":3},"status":{"observedGeneration":2,"replicas":3,"updatedReplicas":3,"readyReplicas":3,"availableReplicas":3,
    "conditions":[{"type":"Progressing","status":"True","reason":"NewReplicaSetAvailable"},{"type":"Available","status":"True"}]}})";
  EXPECT_EQ(Of(done), Readiness::Ready);
  const char* unobserved = R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"generation":3},
    "spec":{"replicas":3},"status":{"observedGeneration":2,"updatedReplicas":3,"readyReplicas":3,"availableReplicas":3}})";
  EXPECT_EQ(RolloutState(Json::parse(unobserved)).message, "generation 3 not yet observed (observed 2)");
  const char* stuck = R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"generation":1},"spec":{},
    "status":{"observedGeneration":1,"conditions":[{"type":"Progressing","status":"False","reason":"ProgressDeadlineExceeded"}]}})";
  EXPECT_EQ(Of(stuck), Readiness::Failed);
  EXPECT_EQ(Of(R"({"apiVersion":"apps/v1","kind":"Deployment","spec":{"replicas":1}})"), Readiness::InProgress);  // no status yet
}

TEST(KubernetesReadinessTest, DaemonSetWithNothingToScheduleIsReadyAtOnce) {
  EXPECT_EQ(Of(R"({"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"generation":1},
    "status":{"observedGeneration":1,"desiredNumberScheduled":0}})"), Readiness::Ready);
  EXPECT_EQ(Of(R"({"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"generation":1},
    "status":{"observedGeneration":1,"desiredNumberScheduled":2,"updatedNumberScheduled":2,"numberAvailable":1}})"),
            Readiness::InProgress);
  EXPECT_EQ(Of(R"({"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"generation":1},
    "status":{"observedGeneration":1,"desiredNumberScheduled":2,"updatedNumberScheduled":2,"numberAvailable":2}})"),
            Readiness::Ready);
}

TEST(KubernetesReadinessTest, StatefulSetWaitsForItsRevision) {
  EXPECT_EQ(Of(R"({"apiVersion":"apps/v1","kind":"StatefulSet","spec":{"replicas":2},"status":{"observedGeneration":1,
    "readyReplicas":2,"updatedReplicas":2,"currentRevision":"a","updateRevision":"b"}})"), Readiness::InProgress);
  EXPECT_EQ(Of(R"({"apiVersion":"apps/v1","kind":"StatefulSet","spec":{"replicas":2},"status":{"observedGeneration":1,
    "readyReplicas":2,"updatedReplicas":2,"currentRevision":"b","updateRevision":"b"}})"), Readiness::Ready);
}

TEST(KubernetesReadinessTest, JobCompletesOrFails) {
  EXPECT_EQ(Of(R"({"apiVersion":"batch/v1","kind":"Job","status":{"active":1}})"), Readiness::InProgress);
  EXPECT_EQ(Of(R"({"apiVersion":"batch/v1","kind":"Job","status":{"conditions":[{"type":"Complete","status":"True"}]}})"),
            Readiness::Ready);
  auto failed = RolloutState(Json::parse(
      R"({"apiVersion":"batch/v1","kind":"Job","status":{"conditions":[{"type":"Failed","status":"True","reason":"BackoffLimitExceeded"}]}})"));
  EXPECT_EQ(failed.readiness, Readiness::Failed);
  EXPECT_EQ(failed.message, "the job failed (BackoffLimitExceeded)");
}

TEST(KubernetesReadinessTest, CrdNamespacePvcServiceIngress) {
  EXPECT_EQ(Of(R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","status":{}})"), Readiness::InProgress);
  EXPECT_EQ(Of(R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
    "status":{"conditions":[{"type":"NamesAccepted","status":"True"},{"type":"Established","status":"True"}]}})"), Readiness::Ready);
  EXPECT_EQ(Of(R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
    "status":{"conditions":[{"type":"NamesAccepted","status":"False"}]}})"), Readiness::Failed);
  EXPECT_EQ(Of(R"({"apiVersion":"v1","kind":"Namespace","status":{"phase":"Active"}})"), Readiness::Ready);
  EXPECT_EQ(Of(R"({"apiVersion":"v1","kind":"Namespace","status":{"phase":"Terminating"}})"), Readiness::InProgress);
  EXPECT_EQ(Of(R"({"apiVersion":"v1","kind":"PersistentVolumeClaim","status":{"phase":"Pending"}})"), Readiness::InProgress);
  EXPECT_EQ(Of(R"({"apiVersion":"v1","kind":"PersistentVolumeClaim","status":{"phase":"Pending"}})", true), Readiness::Ready);
  EXPECT_EQ(Of(R"({"apiVersion":"v1","kind":"PersistentVolumeClaim","status":{"phase":"Bound"}})"), Readiness::Ready);
  EXPECT_EQ(Of(R"({"apiVersion":"v1","kind":"Service","spec":{"type":"ClusterIP"}})"), Readiness::Ready);
  EXPECT_EQ(Of(R"({"apiVersion":"v1","kind":"Service","spec":{"type":"LoadBalancer"},"status":{"loadBalancer":{}}})"),
            Readiness::InProgress);
  EXPECT_EQ(Of(R"({"apiVersion":"networking.k8s.io/v1","kind":"Ingress",
    "status":{"loadBalancer":{"ingress":[{"hostname":"k8s-x.elb.amazonaws.com"}]}}})"), Readiness::Ready);
  EXPECT_EQ(Of(R"({"apiVersion":"v1","kind":"ConfigMap","data":{}})"), Readiness::Ready);
}

TEST(KubernetesReadinessTest, WaitForConditionsAndFields) {
  Json object = Json::parse(R"({"apiVersion":"example.com/v1","kind":"Notebook",
    "status":{"phase":"Running","readyReplicas":1,"conditions":[{"type":"Ready","status":"False"}]}})");
  WaitFor condition;
  condition.rollout = false;
  condition.condition.emplace("Ready", "True");  // not operator= (GCC 12 warns -Wmaybe-uninitialized at -O1)
  auto waiting = WaitState(object, condition);
  EXPECT_EQ(waiting.readiness, Readiness::InProgress);
  EXPECT_EQ(waiting.message, "condition Ready is False (waiting for True)");
  WaitFor fields;
  fields.fields = {{"status.phase", "Running"}, {"status.readyReplicas", "1"}, {"status.conditions.0.type", "Ready"}};
  EXPECT_EQ(WaitState(object, fields).readiness, Readiness::Ready);
  fields.fields["status.phase"] = "Done";
  EXPECT_EQ(WaitState(object, fields).message, "status.phase is Running (waiting for Done)");
  WaitFor nothing;
  nothing.rollout = false;
  EXPECT_TRUE(nothing.Nothing());
}

}  // namespace
}  // namespace strata::kubernetes
