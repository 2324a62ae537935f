// kubernetes_manifest through the provider's public calls, against a scripted API server:
// plans by server-side dry run, the ownership rules for conflicts, planning without the
// cluster, a kind whose CRD comes later, creates that would take over someone else's
// object, refresh, delete.

#include <gtest/gtest.h>

#include "engine/value/json.h"
#include "fake_cluster.h"
#include "providers/kubernetes/kubernetes_provider.h"

namespace strata::kubernetes {
namespace {

using testing::FakeTransport;
using Json = nlohmann::json;

const std::string kObject = "/k/apis/apps/v1/namespaces/kube-system/deployments/ca";

Json Manifest(int replicas = 2) {
  Json m = Json::parse(R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"ca","namespace":"kube-system"},
    "spec":{"template":{"spec":{"containers":[{"name":"ca","image":"ca:1"}]}}}})");
  m["spec"]["replicas"] = replicas;
  return m;
}

// The object as the server answers an apply: defaults added, Strata's Apply entry.
std::string Answer(int replicas, const std::string& extra_manager = "") {
  Json managed = Json::parse(R"([{"manager":"strata","operation":"Apply","apiVersion":"apps/v1","fieldsType":"FieldsV1",
    "fieldsV1":{"f:spec":{"f:replicas":{},"f:template":{"f:spec":{"f:containers":{
      "k:{\"name\":\"ca\"}":{".":{},"f:name":{},"f:image":{}}}}}}}}])");
  if (!extra_manager.empty()) {
    managed.push_back(Json::parse(R"({"operation":"Update","apiVersion":"apps/v1","fieldsType":"FieldsV1",
      "fieldsV1":{"f:spec":{"f:paused":{}}}})"));
    managed.back()["manager"] = extra_manager;
  }
  Json object = Manifest(replicas);
  object["metadata"]["uid"] = "u-1";
  object["metadata"]["managedFields"] = managed;
  object["spec"]["strategy"] = {{"type", "RollingUpdate"}};  // a server default: nobody's field
  object["spec"]["paused"] = false;
  return object.dump();
}

const char* kNotFound = R"({"kind":"Status","status":"Failure","reason":"NotFound","code":404,"message":"not found"})";

std::string ConflictOn(const std::string& field, const std::string& manager) {
  Json cause = {{"reason", "FieldManagerConflict"}, {"message", "conflict with \"" + manager + "\""}, {"field", field}};
  Json status = {{"kind", "Status"}, {"status", "Failure"}, {"reason", "Conflict"}, {"code", 409},
                 {"message", "Apply failed with 1 conflict: conflict with \"" + manager + "\": " + field}};
  status["details"]["causes"] = Json::array({cause});
  return status.dump();
}

struct Fixture {
  std::shared_ptr<FakeTransport> server = std::make_shared<FakeTransport>();
  KubernetesProvider provider;
  OperationContext ctx;

  Fixture() : provider(testing::FakeClusterOptions(server)) {
    server->Answer("GET /k/apis/apps/v1", 200, testing::kAppsV1Resources);
  }
  Diagnostics Configure(Value host = Value::String("https://127.0.0.1:6443/k")) {
    return provider.Configure(ctx, Value::Object({{"host", host}, {"token", Value::String("t")}}));
  }
  static Value Config(const Json& manifest, Value wait = Value::Bool(false)) {
    return Value::Object({{"manifest", JsonToValue(manifest)}, {"wait", wait}});
  }
  PlanResult Plan(const Value& prior, const Value& config) {
    return provider.PlanResourceChange(ctx, "kubernetes_manifest", prior, config, config);
  }
  std::vector<aws::HttpRequest> Sent(const std::string& method) {
    std::vector<aws::HttpRequest> out;
    for (const auto& r : server->Requests()) {
      if (r.method == method) out.push_back(r);
    }
    return out;
  }
};

bool Has(const std::string& url, const std::string& part) { return url.find(part) != std::string::npos; }

TEST(KubernetesManifestTest, PlanDryRunsAndApplyAppliesWithStrataAsFieldManager) {
  Fixture f;
  ASSERT_FALSE(f.Configure().HasErrors());
  f.server->Answer("GET " + kObject, 404, kNotFound);
  f.server->Answer("PATCH " + kObject, 200, Answer(2));
  PlanResult plan = f.Plan(Value(), Fixture::Config(Manifest()));
  ASSERT_FALSE(plan.diags.HasErrors()) << plan.diags.items()[0].detail;
  auto patches = f.Sent("PATCH");
  ASSERT_EQ(patches.size(), 1u);
  EXPECT_TRUE(Has(patches[0].url, "dryRun=All"));
  EXPECT_TRUE(Has(patches[0].url, "fieldManager=strata"));
  EXPECT_TRUE(Has(patches[0].url, "fieldValidation=Strict"));
  EXPECT_FALSE(Has(patches[0].url, "force=true"));
  EXPECT_EQ(aws::FindHeader(patches[0].headers, "Content-Type").value_or(""), "application/apply-patch+yaml");
  // Only the fields Strata owns: no server default, no other manager's field.
  Json object = ValueToJson(attrs::Get(plan.planned, "object"));
  EXPECT_EQ(object["spec"]["replicas"], 2);
  EXPECT_FALSE(object["spec"].contains("strategy"));
  EXPECT_FALSE(object.contains("metadata"));
  EXPECT_EQ(attrs::GetString(plan.planned, "id"), "apiVersion=apps/v1,kind=Deployment,namespace=kube-system,name=ca");

  ApplyResult created = f.provider.CreateResource(f.ctx, "kubernetes_manifest", plan.planned);
  ASSERT_FALSE(created.diags.HasErrors()) << created.diags.items()[0].detail;
  patches = f.Sent("PATCH");
  ASSERT_EQ(patches.size(), 2u);
  EXPECT_FALSE(Has(patches[1].url, "dryRun"));
  EXPECT_TRUE(attrs::Get(created.state, "object").Equals(attrs::Get(plan.planned, "object")));
}

TEST(KubernetesManifestTest, AFieldAnotherManagerOwnsIsAConflictTheUserDecides) {
  Fixture f;
  ASSERT_FALSE(f.Configure().HasErrors());
  f.server->Answer("GET " + kObject, 404, kNotFound);
  f.server->Answer("PATCH " + kObject, 409, ConflictOn(".spec.replicas", "kubectl"));
  PlanResult plan = f.Plan(Value(), Fixture::Config(Manifest()));
  ASSERT_TRUE(plan.diags.HasErrors());
  EXPECT_EQ(plan.diags.items()[0].summary, "Field manager conflict");
  EXPECT_NE(plan.diags.items()[0].detail.find(".spec.replicas: conflict with \"kubectl\""), std::string::npos);
  EXPECT_NE(plan.diags.items()[0].detail.find("force_conflicts"), std::string::npos);
  EXPECT_EQ(f.Sent("PATCH").size(), 1u);  // never forced on its own
}

TEST(KubernetesManifestTest, AFieldStrataOwnedAndSomeoneChangedIsDriftTakenBack) {
  Fixture f;
  ASSERT_FALSE(f.Configure().HasErrors());
  f.server->Answer("PATCH " + kObject, 409, ConflictOn(".spec.replicas", "kubectl-edit"));
  f.server->Answer("PATCH " + kObject, 200, Answer(2));
  Value prior = Fixture::Config(Manifest());
  prior = attrs::With(prior, "owned_fields", Value::String(R"({"f:spec":{"f:replicas":{}}})"));
  prior = attrs::With(prior, "object", JsonToValue(Json{{"spec", {{"replicas", 5}}}}));
  PlanResult plan = f.Plan(prior, Fixture::Config(Manifest()));
  ASSERT_FALSE(plan.diags.HasErrors()) << plan.diags.items()[0].detail;
  ASSERT_EQ(plan.diags.items().size(), 1u);
  EXPECT_EQ(plan.diags.items()[0].summary, "Changed outside Strata");
  EXPECT_NE(plan.diags.items()[0].detail.find(".spec.replicas (changed by \"kubectl-edit\")"), std::string::npos);
  auto patches = f.Sent("PATCH");
  ASSERT_EQ(patches.size(), 2u);
  EXPECT_TRUE(Has(patches[1].url, "force=true"));
  EXPECT_EQ(ValueToJson(attrs::Get(plan.planned, "object"))["spec"]["replicas"], 2);  // put back
}

TEST(KubernetesManifestTest, UnknownProviderSettingsPlanFromTheManifestAlone) {
  Fixture f;
  Diagnostics configured = f.Configure(Value::Unknown());
  ASSERT_FALSE(configured.HasErrors());
  ASSERT_EQ(configured.items().size(), 1u);
  EXPECT_EQ(configured.items()[0].summary, "Kubernetes cluster not known yet");
  PlanResult plan = f.Plan(Value(), Fixture::Config(Manifest()));
  ASSERT_FALSE(plan.diags.HasErrors());
  EXPECT_TRUE(attrs::Get(plan.planned, "object").IsUnknown());
  EXPECT_EQ(attrs::GetString(plan.planned, "id"), "apiVersion=apps/v1,kind=Deployment,namespace=kube-system,name=ca");
  EXPECT_TRUE(f.server->Requests().empty());
}

TEST(KubernetesManifestTest, AKindWhoseCrdComesInThisApplyIsPlannedFromTheManifest) {
  Fixture f;
  ASSERT_FALSE(f.Configure().HasErrors());
  Json profile = {{"apiVersion", "kubeflow.org/v1"}, {"kind", "Profile"}, {"metadata", {{"name", "team"}}}};
  PlanResult plan = f.Plan(Value(), Fixture::Config(profile));  // /apis/kubeflow.org/v1 answers 404
  ASSERT_FALSE(plan.diags.HasErrors()) << plan.diags.items()[0].detail;
  EXPECT_TRUE(attrs::Get(plan.planned, "object").IsUnknown());
  EXPECT_TRUE(f.Sent("PATCH").empty());
}

TEST(KubernetesManifestTest, ACreateNeverTakesOverSomeoneElsesObject) {
  Fixture f;
  ASSERT_FALSE(f.Configure().HasErrors());
  Json theirs = Manifest();
  theirs["metadata"]["managedFields"] = Json::array({{{"manager", "kubectl-client-side-apply"}, {"operation", "Update"}}});
  f.server->Answer("GET " + kObject, 200, theirs.dump());
  PlanResult plan = f.Plan(Value(), Fixture::Config(Manifest()));
  ASSERT_TRUE(plan.diags.HasErrors());
  EXPECT_EQ(plan.diags.items()[0].summary, "Object already exists");
  EXPECT_TRUE(f.Sent("PATCH").empty());
}

TEST(KubernetesManifestTest, RefreshSeesOnlyOwnedFieldsAndAGoneObject) {
  Fixture f;
  ASSERT_FALSE(f.Configure().HasErrors());
  Value prior = attrs::With(Fixture::Config(Manifest()), "owned_fields", Value::String("{}"));
  f.server->Answer("GET " + kObject, 200, Answer(3, "kube-controller-manager"));
  f.server->Answer("GET " + kObject, 404, kNotFound);
  ReadResult read = f.provider.ReadResource(f.ctx, "kubernetes_manifest", prior);
  ASSERT_FALSE(read.diags.HasErrors());
  Json object = ValueToJson(attrs::Get(read.state, "object"));
  EXPECT_EQ(object["spec"]["replicas"], 3);
  EXPECT_FALSE(object["spec"].contains("paused"));  // another manager's
  ReadResult gone = f.provider.ReadResource(f.ctx, "kubernetes_manifest", prior);
  EXPECT_TRUE(gone.gone);
}

// A rolled-out Deployment as the server answers: generation observed, replicas available.
std::string RolledOut(int replicas) {
  Json object = Json::parse(Answer(replicas));
  object["metadata"]["generation"] = 1;
  object["status"] = {{"observedGeneration", 1}, {"replicas", replicas}, {"updatedReplicas", replicas},
                      {"readyReplicas", replicas}, {"availableReplicas", replicas}};
  object["status"]["conditions"] = Json::array({{{"type", "Available"}, {"status", "True"}}});
  return object.dump();
}

TEST(KubernetesManifestTest, AnObjectReadyAsAppliedIsNotReadAgainAndOneInProgressIsPolled) {
  auto soon = std::chrono::steady_clock::now() + std::chrono::seconds(20);  // never the 10 minutes
  Fixture f;
  f.ctx.deadline = soon;
  ASSERT_FALSE(f.Configure().HasErrors());
  f.server->Answer("GET " + kObject, 404, kNotFound);
  f.server->Answer("PATCH " + kObject, 200, RolledOut(2));
  PlanResult plan = f.Plan(Value(), Fixture::Config(Manifest(), Value()));  // wait: the rollout
  ASSERT_FALSE(plan.diags.HasErrors()) << plan.diags.items()[0].detail;
  int reads = f.server->Calls("GET " + kObject);
  ApplyResult created = f.provider.CreateResource(f.ctx, "kubernetes_manifest", plan.planned);
  ASSERT_FALSE(created.diags.HasErrors()) << created.diags.items()[0].detail;
  EXPECT_EQ(f.server->Calls("GET " + kObject), reads + 1) << "one read (whose object is it?), none to wait";

  Fixture g;
  g.ctx.deadline = soon;
  ASSERT_FALSE(g.Configure().HasErrors());
  g.server->Answer("GET " + kObject, 404, kNotFound);  // the plan's read, the create's check
  g.server->Answer("GET " + kObject, 404, kNotFound);
  g.server->Answer("GET " + kObject, 200, RolledOut(2));  // the wait's read
  g.server->Answer("PATCH " + kObject, 200, Answer(2));  // no status yet: in progress
  plan = g.Plan(Value(), Fixture::Config(Manifest(), Value()));
  ASSERT_FALSE(plan.diags.HasErrors()) << plan.diags.items()[0].detail;
  created = g.provider.CreateResource(g.ctx, "kubernetes_manifest", plan.planned);
  ASSERT_FALSE(created.diags.HasErrors()) << created.diags.items()[0].detail;
  EXPECT_EQ(g.server->Calls("GET " + kObject), 3);
}

TEST(KubernetesManifestTest, DeleteWaitsUntilTheObjectIsGone) {
  Fixture f;
  ASSERT_FALSE(f.Configure().HasErrors());
  f.server->Answer("DELETE " + kObject, 200, R"({"kind":"Status","status":"Success"})");
  f.server->Answer("GET " + kObject, 200, Answer(2));  // finalizers still running
  f.server->Answer("GET " + kObject, 404, kNotFound);
  DeleteResult deleted = f.provider.DeleteResource(f.ctx, "kubernetes_manifest", Fixture::Config(Manifest()));
  ASSERT_FALSE(deleted.diags.HasErrors()) << deleted.diags.items()[0].detail;
  auto deletes = f.Sent("DELETE");
  ASSERT_EQ(deletes.size(), 1u);
  EXPECT_NE(deletes[0].body.find("\"propagationPolicy\":\"Background\""), std::string::npos);
  EXPECT_EQ(f.server->Calls("GET " + kObject), 2);
}

TEST(KubernetesManifestTest, ManifestsWithoutIdentityAreRefused) {
  Fixture f;
  Diagnostics diags = f.provider.ValidateResourceConfig(f.ctx, ResourceMode::Managed, "kubernetes_manifest",
                                                        Fixture::Config(Json{{"apiVersion", "v1"}, {"kind", "ConfigMap"},
                                                                             {"metadata", {{"generateName", "x-"}}}}));
  ASSERT_TRUE(diags.HasErrors());
  EXPECT_NE(diags.items()[0].detail.find("generateName"), std::string::npos);
  Diagnostics wait = f.provider.ValidateResourceConfig(
      f.ctx, ResourceMode::Managed, "kubernetes_manifest",
      attrs::With(Fixture::Config(Manifest()), "timeouts", Value::Object({{"create", Value::String("soon")}})));
  ASSERT_TRUE(wait.HasErrors());
  EXPECT_NE(wait.items()[0].detail.find("timeouts.create \"soon\" is not a duration"), std::string::npos);
}

}  // namespace
}  // namespace strata::kubernetes
