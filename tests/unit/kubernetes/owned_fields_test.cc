// Reading FieldsV1 against objects: the part a manager owns, and its paths as Kubernetes
// prints them in conflicts.

#include <gtest/gtest.h>

#include "providers/kubernetes/manifest/owned_fields.h"

namespace strata::kubernetes {
namespace {

using Json = nlohmann::json;

const char* kDeployment = R"({
  "apiVersion": "apps/v1", "kind": "Deployment",
  "metadata": {"name": "ca", "namespace": "kube-system", "labels": {"app": "ca", "team": "ml"}},
  "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "ca"}},
           "template": {"spec": {"containers": [
              {"name": "sidecar", "image": "s:1"},
              {"name": "ca", "image": "ca:1.30", "ports": [{"containerPort": 8085, "protocol": "TCP"}]}]}}},
  "status": {"replicas": 3}})";

const char* kFields = R"({
  "f:metadata": {"f:labels": {"f:app": {}}},
  "f:spec": {"f:selector": {}, "f:template": {"f:spec": {"f:containers": {
     "k:{\"name\":\"ca\"}": {".": {}, "f:image": {}, "f:name": {},
        "f:ports": {"k:{\"containerPort\":8085,\"protocol\":\"TCP\"}": {".": {}, "f:containerPort": {}, "f:protocol": {}}}}}}}}})";

TEST(KubernetesOwnedFieldsTest, ProjectsTheOwnedPartOnly) {
  Json owned = OwnedObject(Json::parse(kDeployment), Json::parse(kFields));
  Json expected = Json::parse(R"({
    "metadata": {"labels": {"app": "ca"}},
    "spec": {"selector": {"matchLabels": {"app": "ca"}},
             "template": {"spec": {"containers": [
                {"name": "ca", "image": "ca:1.30", "ports": [{"containerPort": 8085, "protocol": "TCP"}]}]}}}})");
  EXPECT_EQ(owned, expected) << owned.dump(2);
  EXPECT_EQ(OwnedObject(Json::parse(kDeployment), nullptr), Json::object());
}

TEST(KubernetesOwnedFieldsTest, PathsPrintedAsKubernetesPrintsThem) {
  std::set<std::string> paths = FieldPaths(Json::parse(kFields));
  EXPECT_TRUE(paths.count(".metadata.labels.app"));
  EXPECT_TRUE(paths.count(".spec.selector"));
  EXPECT_TRUE(paths.count(".spec.template.spec.containers[name=\"ca\"].image"));
  EXPECT_TRUE(paths.count(".spec.template.spec.containers[name=\"ca\"].ports[containerPort=8085,protocol=\"TCP\"]"));
  EXPECT_FALSE(paths.count(".spec.replicas"));
  EXPECT_TRUE(FieldPaths(Json::parse(R"({"f:metadata":{"f:finalizers":{"v:\"a/b\"":{}}}})")).count(".metadata.finalizers[=\"a/b\"]"));
}

TEST(KubernetesOwnedFieldsTest, UnionMergesTries) {
  Json u = UnionFields(Json::parse(R"({"f:spec":{"f:replicas":{}}})"), Json::parse(R"({"f:spec":{"f:paused":{}},"f:data":{}})"));
  EXPECT_EQ(u, Json::parse(R"({"f:spec":{"f:replicas":{},"f:paused":{}},"f:data":{}})"));
  EXPECT_EQ(UnionFields(nullptr, Json::parse(R"({"f:a":{}})")), Json::parse(R"({"f:a":{}})"));
}

}  // namespace
}  // namespace strata::kubernetes
