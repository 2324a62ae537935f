// Server-side apply on the sandbox's merge engine, typed by Kubernetes v1.31's own
// swagger.json (../shared/testdata/k8s-openapi): managedFields as kube-apiserver records
// them, conflicts, force, removal by omission, map-lists, sets, atomic lists and maps,
// custom resources without a schema, and the ownership of non-apply writes.
#include <chrono>
#include <filesystem>

#include <gtest/gtest.h>

#include "providers/kubernetes/fieldpath/fields_v1.h"
#include "sandbox/kubernetes/merge/conflict_status.h"
#include "sandbox/kubernetes/merge/managed_fields.h"
#include "sandbox/kubernetes/merge/openapi_schemas.h"
#include "sandbox/kubernetes/merge/server_side_apply.h"

namespace strata::sandbox::k8s {
namespace {

namespace fp = kubernetes::fieldpath;

constexpr const char* kT0 = "2024-08-13T10:00:00Z";
constexpr const char* kT1 = "2024-08-13T11:00:00Z";
constexpr const char* kT2 = "2024-08-13T12:00:00Z";

std::string SwaggerPath() {
  return (std::filesystem::path(STRATA_SHARED_DIR) / "testdata" / "k8s-openapi" / "swagger.json").string();
}

class ServerSideApplyTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto loaded = OpenApiSchemas::LoadSwaggerFile(SwaggerPath());
    ASSERT_TRUE(loaded.ok()) << loaded.error();
    schemas_ = new OpenApiSchemas(std::move(*loaded));
  }
  static void TearDownTestSuite() {
    delete schemas_;
    schemas_ = nullptr;
  }

  static ObjectType Type(const std::string& definition) {
    auto type = schemas_->Lookup(definition);
    EXPECT_TRUE(type.has_value()) << definition;
    return type.value_or(ObjectType::Untyped());
  }
  static ObjectType Deployment() { return Type("io.k8s.api.apps.v1.Deployment").WithStatusReset(); }

  // Applies and expects success.
  static Json Apply(const ObjectType& type, const Json* live, const std::string& config, const std::string& manager,
                    const std::string& now, bool force = false) {
    ApplyOutcome outcome = ServerSideApply(type, live, Json::parse(config), manager, force, now);
    EXPECT_TRUE(outcome.ok()) << outcome.error << (outcome.conflicts.empty() ? "" : ConflictStatus(outcome.conflicts).dump());
    return outcome.object;
  }

  // The fieldsV1 text of `manager`'s entry with `operation`, "" when there is none.
  static std::string Fields(const Json& object, const std::string& manager, const std::string& operation = "Apply") {
    for (const Json& entry : object["metadata"].value("managedFields", Json::array())) {
      if (entry["manager"] == manager && entry["operation"] == operation) {
        return fp::ToFieldsV1Text(*fp::FromFieldsV1(entry["fieldsV1"]));
      }
    }
    return "";
  }

  static OpenApiSchemas* schemas_;
};

OpenApiSchemas* ServerSideApplyTest::schemas_ = nullptr;

constexpr const char* kNginx = R"({
  "apiVersion": "apps/v1", "kind": "Deployment",
  "metadata": {"name": "nginx", "namespace": "default", "labels": {"app": "nginx"}},
  "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "nginx"}},
    "template": {"metadata": {"labels": {"app": "nginx"}},
      "spec": {"containers": [{"name": "nginx", "image": "nginx:1.27", "ports": [{"containerPort": 80}]}]}}}})";

TEST_F(ServerSideApplyTest, CreateRecordsTheApplyEntryAsKubectlSees) {
  const Json created = Apply(Deployment(), nullptr, kNginx, "kubectl", kT0);
  EXPECT_EQ(created["spec"]["replicas"], 2);
  const Json& entries = created["metadata"]["managedFields"];
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0]["manager"], "kubectl");
  EXPECT_EQ(entries[0]["operation"], "Apply");
  EXPECT_EQ(entries[0]["apiVersion"], "apps/v1");
  EXPECT_EQ(entries[0]["time"], kT0);
  EXPECT_EQ(entries[0]["fieldsType"], "FieldsV1");
  // What a real cluster records for this manifest: no name/namespace (stripped), no "." on
  // labels (a named field: only Update entries, which see the map added, carry it).
  EXPECT_EQ(Fields(created, "kubectl"),
            R"({"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:replicas":{},"f:selector":{},)"
            R"("f:template":{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:containers":{)"
            R"("k:{\"name\":\"nginx\"}":{".":{},"f:image":{},"f:name":{},"f:ports":{)"
            R"("k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{}}}}}}}}})");
}

TEST_F(ServerSideApplyTest, ReapplyingTheSameConfigChangesNothing) {
  const Json created = Apply(Deployment(), nullptr, kNginx, "kubectl", kT0);
  ApplyOutcome again = ServerSideApply(Deployment(), &created, Json::parse(kNginx), "kubectl", false, kT1);
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(again.changed);
  EXPECT_EQ(again.object, created);  // the time stays kT0
}

TEST_F(ServerSideApplyTest, FieldsNoLongerAppliedAreRemovedUnlessOthersOwnThem) {
  const ObjectType cm = Type("io.k8s.api.core.v1.ConfigMap");
  Json live = Apply(cm, nullptr, R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"a":"1","b":"2"}})",
                    "strata", kT0);
  live = Apply(cm, &live, R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"c":"3"}})", "other", kT1);
  live = Apply(cm, &live, R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"a":"1"}})", "strata", kT2);
  EXPECT_EQ(live["data"], Json::parse(R"({"a":"1","c":"3"})"));
  EXPECT_EQ(Fields(live, "strata"), R"({"f:data":{"f:a":{}}})");
  // Dropping every field: the manager's entry goes, the other's data stays.
  live = Apply(cm, &live, R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}})", "strata", kT2);
  EXPECT_EQ(live["data"], Json::parse(R"({"c":"3"})"));
  EXPECT_EQ(Fields(live, "strata"), "");
  EXPECT_EQ(live["metadata"]["name"], "c");
}

TEST_F(ServerSideApplyTest, SameValueIsSharedOwnershipNotAConflict) {
  Json live = Apply(Deployment(), nullptr, kNginx, "kubectl", kT0);
  live = Apply(Deployment(), &live, R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"nginx"},"spec":{"replicas":2}})",
               "hpa", kT1);
  EXPECT_EQ(Fields(live, "hpa"), R"({"f:spec":{"f:replicas":{}}})");
  EXPECT_NE(Fields(live, "kubectl").find("f:replicas"), std::string::npos);
  // kubectl stops applying replicas: hpa still owns it, so the value stays.
  Json without = Json::parse(kNginx);
  without["spec"].erase("replicas");
  live = Apply(Deployment(), &live, without.dump(), "kubectl", kT2);
  EXPECT_EQ(live["spec"]["replicas"], 2);
}

TEST_F(ServerSideApplyTest, ConflictWithAnotherApplierIsA409InKubernetesShape) {
  const Json live = Apply(Deployment(), nullptr, kNginx, "kubectl", kT0);
  ApplyOutcome outcome = ServerSideApply(
      Deployment(), &live,
      Json::parse(R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"nginx"},"spec":{"replicas":5}})"),
      "strata", false, kT1);
  ASSERT_EQ(outcome.conflicts.size(), 1u);
  EXPECT_EQ(outcome.conflicts[0].manager, "kubectl");
  EXPECT_EQ(outcome.conflicts[0].operation, "Apply");
  EXPECT_EQ(outcome.conflicts[0].time, kT0);
  EXPECT_EQ(ConflictStatus(outcome.conflicts), Json::parse(R"({
    "kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
    "message":"Apply failed with 1 conflict: conflict with \"kubectl\": .spec.replicas",
    "reason":"Conflict",
    "details":{"causes":[{"reason":"FieldManagerConflict","message":"conflict with \"kubectl\"","field":".spec.replicas"}]},
    "code":409})"));
}

TEST_F(ServerSideApplyTest, ConflictWithAnUpdaterNamesItsApiVersion) {
  const ObjectType type = Deployment();
  const Json live = Apply(type, nullptr, kNginx, "strata", kT0);
  Json scaled = live;
  scaled["spec"]["replicas"] = 4;
  scaled["spec"]["template"]["spec"]["containers"][0]["image"] = "nginx:1.28";
  const Json updated = RecordUpdate(type, &live, scaled, "kubectl-edit", "apps/v1", kT1);
  Json config = Json::parse(kNginx);
  config["spec"]["replicas"] = 3;
  ApplyOutcome outcome = ServerSideApply(type, &updated, config, "strata", false, kT2);
  ASSERT_EQ(outcome.conflicts.size(), 2u);
  EXPECT_EQ(ConflictStatus(outcome.conflicts)["message"],
            "Apply failed with 2 conflicts: conflicts with \"kubectl-edit\" using apps/v1:\n"
            "- .spec.replicas\n"
            "- .spec.template.spec.containers[name=\"nginx\"].image");
  EXPECT_EQ(ConflictStatus(outcome.conflicts)["details"]["causes"][1],
            Json::parse(R"({"reason":"FieldManagerConflict","message":"conflict with \"kubectl-edit\" using apps/v1",)"
                        R"("field":".spec.template.spec.containers[name=\"nginx\"].image"})"));
}

TEST_F(ServerSideApplyTest, ForceTakesOwnershipFromTheOthers) {
  const ObjectType type = Deployment();
  const Json live = Apply(type, nullptr, kNginx, "kubectl", kT0);
  const Json forced = Apply(
      type, &live, R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"nginx"},"spec":{"replicas":5}})",
      "strata", kT1, /*force=*/true);
  EXPECT_EQ(forced["spec"]["replicas"], 5);
  EXPECT_EQ(Fields(forced, "strata"), R"({"f:spec":{"f:replicas":{}}})");
  EXPECT_EQ(Fields(forced, "kubectl").find("f:replicas"), std::string::npos);
  EXPECT_EQ(forced["spec"]["template"]["spec"]["containers"][0]["image"], "nginx:1.27");
}

TEST_F(ServerSideApplyTest, MapListsMergeItemByKey) {
  const ObjectType type = Deployment();
  Json live = Apply(type, nullptr, kNginx, "kubectl", kT0);
  // A second manager adds a sidecar and a port on nginx: keyed merges, no conflict.
  live = Apply(type, &live, R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"nginx"},
    "spec":{"template":{"spec":{"containers":[
      {"name":"nginx","ports":[{"containerPort":9090,"protocol":"UDP"}]},
      {"name":"sidecar","image":"envoy"}]}}}})",
               "mesh", kT1);
  const Json& containers = live["spec"]["template"]["spec"]["containers"];
  ASSERT_EQ(containers.size(), 2u);
  EXPECT_EQ(containers[0]["image"], "nginx:1.27");
  EXPECT_EQ(containers[0]["ports"], Json::parse(R"([{"containerPort":80},{"containerPort":9090,"protocol":"UDP"}])"));
  EXPECT_EQ(containers[1]["name"], "sidecar");
  // The mesh stops applying: its sidecar and port go, kubectl's stay.
  live = Apply(type, &live, R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"nginx"}})", "mesh", kT2);
  EXPECT_EQ(live["spec"]["template"]["spec"]["containers"],
            Json::parse(R"([{"name":"nginx","image":"nginx:1.27","ports":[{"containerPort":80}]}])"));
}

TEST_F(ServerSideApplyTest, SetListsAreOwnedItemByItem) {
  const ObjectType cm = Type("io.k8s.api.core.v1.ConfigMap");
  Json live = Apply(cm, nullptr, R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","finalizers":["a.io/x"]}})",
                    "one", kT0);
  live = Apply(cm, &live, R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","finalizers":["b.io/y"]}})", "two",
               kT1);
  EXPECT_EQ(live["metadata"]["finalizers"], Json::parse(R"(["a.io/x","b.io/y"])"));
  EXPECT_EQ(Fields(live, "two"), R"({"f:metadata":{"f:finalizers":{"v:\"b.io/y\"":{}}}})");
  live = Apply(cm, &live, R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}})", "one", kT2);
  EXPECT_EQ(live["metadata"]["finalizers"], Json::parse(R"(["b.io/y"])"));
}

TEST_F(ServerSideApplyTest, AtomicListsAndMapsAreReplacedWhole) {
  const ObjectType type = Deployment();
  Json config = Json::parse(kNginx);
  config["spec"]["template"]["spec"]["containers"][0]["args"] = {"--a", "--b"};
  Json live = Apply(type, nullptr, config.dump(), "kubectl", kT0);
  EXPECT_NE(Fields(live, "kubectl").find(R"("f:args":{})"), std::string::npos);
  // LabelSelector is x-kubernetes-map-type: atomic: one owner, replaced as a whole.
  config["spec"]["selector"] = {{"matchLabels", {{"tier", "web"}}}};
  config["spec"]["template"]["spec"]["containers"][0]["args"] = {"--c"};
  live = Apply(type, &live, config.dump(), "kubectl", kT1);
  EXPECT_EQ(live["spec"]["selector"], Json::parse(R"({"matchLabels":{"tier":"web"}})"));
  EXPECT_EQ(live["spec"]["template"]["spec"]["containers"][0]["args"], Json::parse(R"(["--c"])"));
  // Another manager touching one argument conflicts on the whole list.
  ApplyOutcome outcome = ServerSideApply(type, &live, Json::parse(R"({"apiVersion":"apps/v1","kind":"Deployment",
    "metadata":{"name":"nginx"},"spec":{"template":{"spec":{"containers":[{"name":"nginx","args":["--d"]}]}}}})"),
                                         "other", false, kT2);
  ASSERT_EQ(outcome.conflicts.size(), 1u);
  EXPECT_EQ(fp::PathString(outcome.conflicts[0].path), R"(.spec.template.spec.containers[name="nginx"].args)");
}

TEST_F(ServerSideApplyTest, CustomResourceWithoutSchemaIsGranularWithAtomicLists) {
  const ObjectType type = schemas_->ForCustomResource(nullptr);
  Json live = Apply(type, nullptr, R"({"apiVersion":"example.io/v1","kind":"Widget","metadata":{"name":"w","labels":{"a":"b"}},
    "spec":{"size":{"cpu":1},"tags":["x","y"]}})",
                    "strata", kT0);
  EXPECT_EQ(Fields(live, "strata"),
            R"({"f:metadata":{"f:labels":{"f:a":{}}},"f:spec":{".":{},"f:size":{".":{},"f:cpu":{}},"f:tags":{}}})");
  live = Apply(type, &live, R"({"apiVersion":"example.io/v1","kind":"Widget","metadata":{"name":"w"},
    "spec":{"size":{"mem":2},"tags":["z"]}})",
               "other", kT1, /*force=*/true);
  EXPECT_EQ(live["spec"], Json::parse(R"({"size":{"cpu":1,"mem":2},"tags":["z"]})"));
}

TEST_F(ServerSideApplyTest, CustomResourceSchemaMarkersAreHonoured) {
  const ObjectType type = schemas_->ForCustomResource(Json::parse(R"({"type":"object","properties":{
    "spec":{"type":"object","properties":{
      "rules":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["id"],
               "items":{"type":"object","properties":{"id":{"type":"string"},"v":{"type":"integer"}}}},
      "config":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}}})"));
  Json live = Apply(type, nullptr, R"({"apiVersion":"e.io/v1","kind":"R","metadata":{"name":"r"},
    "spec":{"rules":[{"id":"a","v":1}],"config":{"k":"v"}}})",
                    "one", kT0);
  live = Apply(type, &live, R"({"apiVersion":"e.io/v1","kind":"R","metadata":{"name":"r"},"spec":{"rules":[{"id":"b","v":2}]}})",
               "two", kT1);
  EXPECT_EQ(live["spec"]["rules"], Json::parse(R"([{"id":"a","v":1},{"id":"b","v":2}])"));
  EXPECT_EQ(Fields(live, "two"), R"({"f:spec":{"f:rules":{"k:{\"id\":\"b\"}":{".":{},"f:id":{},"f:v":{}}}}})");
}

TEST_F(ServerSideApplyTest, RecordUpdateMovesChangedFieldsToTheWriter) {
  const ObjectType cm = Type("io.k8s.api.core.v1.ConfigMap");
  const Json live = Apply(cm, nullptr, R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"a":"1","b":"2"}})",
                          "strata", kT0);
  Json edited = live;
  edited["data"]["a"] = "changed";
  edited["data"]["n"] = "new";
  const Json updated = RecordUpdate(cm, &live, edited, "kubectl-edit", "v1", kT1);
  EXPECT_EQ(Fields(updated, "kubectl-edit", "Update"), R"({"f:data":{"f:a":{},"f:n":{}}})");
  EXPECT_EQ(Fields(updated, "strata"), R"({"f:data":{"f:b":{}}})");
  // Entries are sorted as kube sorts them: Apply before Update.
  EXPECT_EQ(updated["metadata"]["managedFields"][0]["operation"], "Apply");
  EXPECT_EQ(updated["metadata"]["managedFields"][1]["time"], kT1);
  // A write that changes nothing keeps the entry's time.
  const Json again = RecordUpdate(cm, &updated, updated, "kubectl-edit", "v1", kT2);
  EXPECT_EQ(again["metadata"]["managedFields"], updated["metadata"]["managedFields"]);
}

TEST_F(ServerSideApplyTest, RecordUpdateOnCreateOwnsEverythingButStrippedMetadata) {
  const ObjectType cm = Type("io.k8s.api.core.v1.ConfigMap");
  const Json created = RecordUpdate(
      cm, nullptr, Json::parse(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","labels":{"x":"y"}},"data":{"a":"1"}})"),
      "kubectl-create", "v1", kT0);
  EXPECT_EQ(Fields(created, "kubectl-create", "Update"), R"({"f:data":{".":{},"f:a":{}},"f:metadata":{"f:labels":{".":{},"f:x":{}}}})");
}

TEST_F(ServerSideApplyTest, ManagedFieldsResetOnlyWithOneEmptyEntry) {
  const ObjectType cm = Type("io.k8s.api.core.v1.ConfigMap");
  const Json live = Apply(cm, nullptr, R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"a":"1"}})",
                          "strata", kT0);
  Json reset = live;
  reset["metadata"]["managedFields"] = Json::parse("[{}]");
  EXPECT_FALSE(RecordUpdate(cm, &live, reset, "u", "v1", kT1)["metadata"].contains("managedFields"));
  Json empty = live;
  empty["metadata"]["managedFields"] = Json::array();
  EXPECT_EQ(Fields(RecordUpdate(cm, &live, empty, "u", "v1", kT1), "strata"), R"({"f:data":{"f:a":{}}})");
  Json absent = live;
  absent["metadata"].erase("managedFields");
  EXPECT_EQ(Fields(RecordUpdate(cm, &live, absent, "u", "v1", kT1), "strata"), R"({"f:data":{"f:a":{}}})");
}

TEST_F(ServerSideApplyTest, ApplyOntoAnUnownedObjectMeetsBeforeFirstApply) {
  const ObjectType cm = Type("io.k8s.api.core.v1.ConfigMap");
  const Json live = Json::parse(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"a":"1"}})");
  ApplyOutcome outcome =
      ServerSideApply(cm, &live, Json::parse(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"a":"2"}})"),
                      "strata", false, kT1);
  ASSERT_EQ(outcome.conflicts.size(), 1u);
  EXPECT_EQ(ConflictStatus(outcome.conflicts)["message"],
            "Apply failed with 1 conflict: conflict with \"before-first-apply\" using v1: .data.a");
}

TEST_F(ServerSideApplyTest, ConfigCarryingManagedFieldsIsRefused) {
  ApplyOutcome outcome = ServerSideApply(
      Deployment(), nullptr,
      Json::parse(R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"x","managedFields":[]}})"), "m", false,
      kT0);
  EXPECT_EQ(outcome.error, "metadata.managedFields must be nil");
  EXPECT_FALSE(ServerSideApply(Deployment(), nullptr, Json::array(), "m", false, kT0).ok());
}

TEST_F(ServerSideApplyTest, StatusIsResetOnKindsWithAStatusSubresource) {
  Json config = Json::parse(kNginx);
  config["status"] = {{"replicas", 7}};
  const Json created = Apply(Deployment(), nullptr, config.dump(), "kubectl", kT0);
  EXPECT_FALSE(created.contains("status"));
  EXPECT_EQ(Fields(created, "kubectl").find("f:status"), std::string::npos);
}

TEST_F(ServerSideApplyTest, ConflictTextMatchesKubernetesConflictTest) {
  // staging/src/k8s.io/apimachinery/pkg/util/managedfields/internal/conflict_test.go
  const Conflict update{"foo", "Update", "v1", "", "2001-02-03T04:05:06Z", fp::MakeFieldPath({"spec", "replicas"})};
  const Conflict apply{"bar", "Apply", "", "", "", fp::MakeFieldPath({"metadata", "labels", "app"})};
  const Conflict scale{"foo", "Update", "v1", "scale", "2001-02-03T04:05:06Z", fp::MakeFieldPath({"spec", "replicas"})};
  EXPECT_EQ(ConflictManagerText(update, true), R"("foo" using v1 at 2001-02-03T04:05:06Z)");
  EXPECT_EQ(ConflictManagerText(apply, true), R"("bar")");
  EXPECT_EQ(ConflictManagerText(scale, true), R"("foo" with subresource "scale" using v1 at 2001-02-03T04:05:06Z)");
  EXPECT_EQ(ConflictStatus({update, apply})["message"],
            "Apply failed with 2 conflicts: conflicts with \"bar\":\n- .metadata.labels.app\n"
            "conflicts with \"foo\" using v1:\n- .spec.replicas");
}

TEST_F(ServerSideApplyTest, SchemaFromSwaggerHasKubernetesMarkers) {
  const ObjectType deployment = Type("io.k8s.api.apps.v1.Deployment");
  const TypeNode* meta = deployment.root()->fields.at("metadata");
  EXPECT_EQ(meta->fields.at("labels")->kind, TypeNode::Kind::kObject);
  EXPECT_FALSE(meta->fields.at("labels")->atomic);
  EXPECT_EQ(meta->fields.at("finalizers")->list_type, ListType::kSet);
  EXPECT_EQ(meta->fields.at("ownerReferences")->list_type, ListType::kMap);
  EXPECT_EQ(meta->fields.at("ownerReferences")->keys, std::vector<std::string>{"uid"});
  const TypeNode* spec = deployment.root()->fields.at("spec");
  EXPECT_TRUE(spec->fields.at("selector")->atomic);
  const TypeNode* pod = spec->fields.at("template")->fields.at("spec");
  EXPECT_EQ(pod->fields.at("containers")->keys, std::vector<std::string>{"name"});
  EXPECT_EQ(pod->fields.at("containers")->items->fields.at("ports")->keys,
            (std::vector<std::string>{"containerPort", "protocol"}));
  const ObjectType service = Type("io.k8s.api.core.v1.Service");
  EXPECT_EQ(service.root()->fields.at("spec")->fields.at("ports")->keys, (std::vector<std::string>{"port", "protocol"}));
  const ObjectType cm = Type("io.k8s.api.core.v1.ConfigMap");
  EXPECT_EQ(cm.root()->fields.at("data")->elements->kind, TypeNode::Kind::kScalar);
  EXPECT_EQ(schemas_->DefinitionFor("apps", "v1", "Deployment"), "io.k8s.api.apps.v1.Deployment");
  EXPECT_EQ(schemas_->DefinitionFor("", "v1", "ConfigMap"), "io.k8s.api.core.v1.ConfigMap");
  EXPECT_FALSE(schemas_->Lookup("io.k8s.api.apps.v1.Nope").has_value());
  // Recursive definitions resolve (JSONSchemaProps refers to itself).
  EXPECT_TRUE(schemas_->Lookup("io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition"));
}

TEST(OpenApiSchemasLoadTest, LoadsTheFullSwaggerQuickly) {
  const auto start = std::chrono::steady_clock::now();
  auto loaded = OpenApiSchemas::LoadSwaggerFile(SwaggerPath());
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  ASSERT_TRUE(loaded->Lookup("io.k8s.api.apps.v1.Deployment"));
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
  std::printf("swagger.json loaded and Deployment typed in %lld ms\n", static_cast<long long>(ms));
  EXPECT_LT(ms, 5000);  // generous: sanitizer builds are slow; -O2 takes ~100 ms
  EXPECT_FALSE(OpenApiSchemas::LoadSwaggerFile("/nonexistent/swagger.json").ok());
}

}  // namespace
}  // namespace strata::sandbox::k8s
