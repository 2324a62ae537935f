// Field paths and sets of server-side apply: FieldsV1 exactly as Kubernetes writes it, the
// order of path elements, the human form of conflict paths, set algebra and extraction.
#include <gtest/gtest.h>

#include "providers/kubernetes/fieldpath/extract.h"
#include "providers/kubernetes/fieldpath/fields_v1.h"

namespace strata::kubernetes::fieldpath {
namespace {

// The Apply entry kubectl apply --server-side records for a one-container nginx Deployment
// (the shape of real clusters' managedFields: "." for map-list items and granular maps,
// the atomic selector a leaf, the port keyed by containerPort and its defaulted protocol).
constexpr const char* kDeploymentFields =
    R"({"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:replicas":{},"f:selector":{},)"
    R"("f:template":{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{)"
    R"("k:{\"name\":\"nginx\"}":{".":{},"f:image":{},"f:name":{},"f:ports":{)"
    R"("k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{}}}}}}}}})";

Path P(std::initializer_list<PathElement> elements) { return Path(elements); }
PathElement F(const char* name) { return PathElement::Field(name); }

TEST(FieldsV1Test, RoundTripsARealApplyEntryByteForByte) {
  auto set = FromFieldsV1Text(kDeploymentFields);
  ASSERT_TRUE(set.ok()) << set.error();
  EXPECT_EQ(ToFieldsV1Text(*set), kDeploymentFields);
  EXPECT_TRUE(set->Has(P({F("spec"), F("replicas")})));
  EXPECT_TRUE(set->Has(P({F("metadata"), F("labels")})));  // "." makes it a member
  EXPECT_FALSE(set->Has(P({F("spec")})));                    // a prefix only
  EXPECT_EQ(set->Size(), 11u);
}

TEST(FieldsV1Test, OrdersFieldsKeysValuesIndicesAsStructuredMergeDiff) {
  Set set;
  set.Insert(P({F("ports"), PathElement::Key({{"port", 8080}})}));
  set.Insert(P({F("ports"), PathElement::Key({{"port", 80}})}));
  set.Insert(P({F("finalizers"), PathElement::Value("b")}));
  set.Insert(P({F("finalizers"), PathElement::Value("a")}));
  set.Insert(P({F("x"), PathElement::Index(10)}));
  set.Insert(P({F("x"), PathElement::Index(2)}));
  set.Insert(P({F("x"), F("z")}));
  // Numbers compare as numbers (80 before 8080), unlike the keys' text; f: before i:.
  EXPECT_EQ(ToFieldsV1Text(set),
            R"({"f:finalizers":{"v:\"a\"":{},"v:\"b\"":{}},"f:ports":{"k:{\"port\":80}":{},"k:{\"port\":8080}":{}},)"
            R"("f:x":{"f:z":{},"i:2":{},"i:10":{}}})");
}

TEST(FieldsV1Test, KeysAreCompactSortedAndHtmlEscapedAsGoWritesThem) {
  const PathElement key = PathElement::Key({{"protocol", "TCP"}, {"containerPort", 80}});
  EXPECT_EQ(key.Serialize(), R"(k:{"containerPort":80,"protocol":"TCP"})");
  EXPECT_EQ(PathElement::Value("<a&b>").Serialize(), R"(v:"\u003ca\u0026b\u003e")");
  auto parsed = PathElement::Parse(R"(k:{"protocol":"TCP","containerPort":80})");
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(*parsed, key);
}

TEST(FieldsV1Test, RejectsMalformedKeysAndSkipsUnknownKinds) {
  EXPECT_FALSE(FromFieldsV1Text(R"({"k:{not json":{}})").ok());
  EXPECT_FALSE(FromFieldsV1Text(R"({"f:a":[]})").ok());
  EXPECT_FALSE(FromFieldsV1Text("not json").ok());
  auto set = FromFieldsV1Text(R"({"f:a":{},"z:future":{}})");
  ASSERT_TRUE(set.ok());
  EXPECT_EQ(ToFieldsV1Text(*set), R"({"f:a":{}})");
  EXPECT_EQ(ToFieldsV1Text(Set()), "{}");
}

TEST(PathStringTest, PrintsPathsAsKubernetesConflictMessagesDo) {
  EXPECT_EQ(PathString(MakeFieldPath({"spec", "replicas"})), ".spec.replicas");
  EXPECT_EQ(PathString(P({F("spec"), F("template"), F("spec"), F("containers"), PathElement::Key({{"name", "nginx"}}),
                          F("image")})),
            R"(.spec.template.spec.containers[name="nginx"].image)");
  EXPECT_EQ(PathString(P({F("ports"), PathElement::Key({{"containerPort", 80}, {"protocol", "TCP"}})})),
            R"(.ports[containerPort=80,protocol="TCP"])");
  EXPECT_EQ(PathString(P({F("metadata"), F("finalizers"), PathElement::Value("x")})), R"(.metadata.finalizers[="x"])");
  EXPECT_EQ(PathString(P({F("args"), PathElement::Index(0)})), ".args[0]");
}

TEST(SetTest, UnionDifferenceIntersectionFollowStructuredMergeDiff) {
  Set a, b;
  a.Insert(MakeFieldPath({"spec", "replicas"}));
  a.Insert(MakeFieldPath({"spec", "paused"}));
  a.Insert(MakeFieldPath({"metadata", "labels", "x"}));
  b.Insert(MakeFieldPath({"spec", "replicas"}));
  b.Insert(MakeFieldPath({"metadata"}));
  EXPECT_EQ(a.Intersection(b).Paths(), std::vector<Path>{MakeFieldPath({"spec", "replicas"})});
  // Difference removes members only: b's member "metadata" leaves a's labels alone.
  Set diff = a.Difference(b);
  EXPECT_TRUE(diff.Has(MakeFieldPath({"metadata", "labels", "x"})));
  EXPECT_FALSE(diff.Has(MakeFieldPath({"spec", "replicas"})));
  // RecursiveDifference removes what lies beneath.
  EXPECT_FALSE(a.RecursiveDifference(b).Has(MakeFieldPath({"metadata", "labels", "x"})));
  EXPECT_EQ(a.Union(b).Size(), 4u);
  EXPECT_TRUE(a.Difference(a).Empty());
}

TEST(ExtractTest, KeepsOnlyTheOwnedValues) {
  const Json object = Json::parse(R"({
    "metadata": {"name": "web", "labels": {"app": "web", "other": "x"}},
    "spec": {"replicas": 3, "paused": false,
             "ports": [{"port": 80, "protocol": "TCP", "name": "http"}, {"port": 443, "protocol": "TCP"}],
             "finalizers": ["a", "b"]}})");
  auto set = FromFieldsV1Text(
      R"({"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:replicas":{},)"
      R"("f:ports":{"k:{\"port\":80,\"protocol\":\"TCP\"}":{".":{},"f:port":{}}},"f:finalizers":{"v:\"b\"":{}}}})");
  ASSERT_TRUE(set.ok());
  EXPECT_EQ(ExtractFields(object, *set), Json::parse(R"({
    "metadata": {"labels": {"app": "web"}},
    "spec": {"replicas": 3, "ports": [{"port": 80}], "finalizers": ["b"]}})"));
  EXPECT_EQ(ExtractFields(object, Set()), Json::object());
}

}  // namespace
}  // namespace strata::kubernetes::fieldpath
