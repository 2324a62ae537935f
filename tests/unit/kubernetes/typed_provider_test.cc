// A typed resource (kubernetes_deployment) through the provider's public calls, against a
// scripted API server: the manifest it plans and applies with server-side apply, the
// server's metadata in state, a refresh that sees only the fields Strata's manager owns,
// Terraform's import id, and a plan without the cluster.

#include <gtest/gtest.h>

#include "engine/value/json.h"
#include "fake_cluster.h"
#include "providers/kubernetes/kubernetes_provider.h"

namespace strata::kubernetes {
namespace {

using testing::FakeTransport;
using Json = nlohmann::json;

const std::string kWeb = "/k/apis/apps/v1/namespaces/apps/deployments/web";
const char* kGone = R"({"kind":"Status","status":"Failure","reason":"NotFound","code":404,"message":"not found"})";

// What a Terraform user writes (HCL turned into YAML): blocks as lists of one object.
Value TypedConfig(const std::string& image) {
  Json config = Json::parse(R"({
    "metadata": [{"name": "web", "namespace": "apps"}],
    "spec": [{"replicas": 2,
              "selector": [{"match_labels": {"app": "web"}}],
              "template": [{"metadata": [{"labels": {"app": "web"}}],
                            "spec": [{"container": [{"name": "web", "port": [{"container_port": 80}]}]}]}]}],
    "wait_for_rollout": false})");
  config["spec"][0]["template"][0]["spec"][0]["container"][0]["image"] = image;
  return JsonToValue(config);
}

// The server's answer to an apply of that Deployment: a default nobody owns, Strata's fields.
std::string Applied(const std::string& image) {
  Json object = Json::parse(R"({"apiVersion":"apps/v1","kind":"Deployment",
    "metadata":{"name":"web","namespace":"apps","uid":"u-1","resourceVersion":"5","generation":1},
    "spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},"strategy":{"type":"RollingUpdate"},
      "template":{"metadata":{"labels":{"app":"web"}},
        "spec":{"dnsPolicy":"ClusterFirst","containers":[{"name":"web","ports":[{"containerPort":80,"protocol":"TCP"}],
          "imagePullPolicy":"IfNotPresent"}]}}}})");
  object["spec"]["template"]["spec"]["containers"][0]["image"] = image;
  object["metadata"]["managedFields"] = Json::parse(R"([{"manager":"strata","operation":"Apply","apiVersion":"apps/v1",
    "fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:replicas":{},"f:selector":{},"f:template":{
      "f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{
        ".":{},"f:name":{},"f:image":{},"f:ports":{"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{},
        "f:protocol":{}}}}}}}}}}])");
  return object.dump();
}

struct TypedFixture {
  std::shared_ptr<FakeTransport> server = std::make_shared<FakeTransport>();
  KubernetesProvider provider;
  OperationContext ctx;

  TypedFixture() : provider(testing::FakeClusterOptions(server)) {
    server->Answer("GET /k/apis/apps/v1", 200, testing::kAppsV1Resources);
  }
  Diagnostics Configure(Value host = Value::String("https://127.0.0.1:6443/k")) {
    return provider.Configure(ctx, Value::Object({{"host", host}, {"token", Value::String("t")}}));
  }
  PlanResult Plan(const Value& prior, const Value& config) {
    return provider.PlanResourceChange(ctx, "kubernetes_deployment", prior, config, config);
  }
};

Value MetadataOf(const Value& v, const std::string& name) {
  return attrs::Get(attrs::FirstBlock(v, "metadata"), name);
}

TEST(KubernetesTypedProviderTest, PlansAppliesAndReadsBackThroughServerSideApply) {
  TypedFixture f;
  ASSERT_FALSE(f.Configure().HasErrors());
  f.server->Answer("GET " + kWeb, 404, kGone);  // the plan's look for someone else's object
  f.server->Answer("GET " + kWeb, 404, kGone);  // the create's
  f.server->Answer("GET " + kWeb, 200, Applied("nginx:2"));  // then someone changes the image
  f.server->Answer("PATCH " + kWeb, 200, Applied("nginx:1"));
  PlanResult plan = f.Plan(Value(), TypedConfig("nginx:1"));
  ASSERT_FALSE(plan.diags.HasErrors()) << plan.diags.items()[0].detail;
  ASSERT_FALSE(f.server->Requests().empty());
  // The dry run sent the manifest in Kubernetes' shape.
  Json sent;
  for (const auto& r : f.server->Requests()) {
    if (r.method == "PATCH") sent = Json::parse(r.body);
  }
  EXPECT_EQ(sent["kind"], "Deployment");
  EXPECT_EQ(sent["spec"]["template"]["spec"]["containers"][0]["ports"][0]["containerPort"], 80);
  // The protocol the configuration leaves out is Terraform's default, sent as the API server
  // would default it, so the port read back matches the plan.
  EXPECT_EQ(sent["spec"]["template"]["spec"]["containers"][0]["ports"][0]["protocol"], "TCP");
  EXPECT_EQ(sent["spec"]["selector"]["matchLabels"]["app"], "web");
  EXPECT_TRUE(MetadataOf(plan.planned, "uid").IsUnknown());  // a create: the uid is the server's
  EXPECT_EQ(attrs::GetString(plan.planned, "id"), "apps/web");

  ApplyResult created = f.provider.CreateResource(f.ctx, "kubernetes_deployment", plan.planned);
  ASSERT_FALSE(created.diags.HasErrors()) << created.diags.items()[0].detail;
  EXPECT_EQ(MetadataOf(created.state, "uid").AsString(), "u-1");
  EXPECT_EQ(MetadataOf(created.state, "resource_version").AsString(), "5");

  // A refresh: the typed attributes of the part Strata owns (no dnsPolicy, no strategy).
  ReadResult read = f.provider.ReadResource(f.ctx, "kubernetes_deployment", created.state);
  ASSERT_FALSE(read.diags.HasErrors()) << read.diags.items()[0].detail;
  Value spec = attrs::FirstBlock(read.state, "spec");
  EXPECT_TRUE(attrs::Get(spec, "strategy").IsNull());
  Value pod = attrs::FirstBlock(attrs::FirstBlock(spec, "template"), "spec");
  EXPECT_TRUE(attrs::Get(pod, "dns_policy").IsNull());
  Value container = attrs::Blocks(pod, "container").at(0);
  EXPECT_EQ(attrs::GetString(container, "image"), "nginx:2");
  EXPECT_TRUE(attrs::Get(container, "image_pull_policy").IsNull());
  // All of it is what the user's configuration with the new image says (with the defaults).
  ProviderSchema schema = f.provider.Schema();
  const Type& spec_type = schema.Find(ResourceMode::Managed, "kubernetes_deployment")->attributes.at("spec").type;
  Json with_default = ValueToJson(attrs::Get(TypedConfig("nginx:2"), "spec"));
  with_default[0]["template"][0]["spec"][0]["container"][0]["port"][0]["protocol"] = "TCP";
  ConversionResult converted = ConvertValue(JsonToValue(with_default), spec_type);
  ASSERT_TRUE(converted.ok()) << converted.error;
  Value expected = converted.value;
  EXPECT_TRUE(attrs::Get(read.state, "spec").Equals(expected)) << ValueToJson(attrs::Get(read.state, "spec")).dump();
}

TEST(KubernetesTypedProviderTest, UnknownProviderSettingsPlanFromTheAttributesAlone) {
  TypedFixture f;
  ASSERT_FALSE(f.Configure(Value::Unknown()).HasErrors());
  PlanResult plan = f.Plan(Value(), TypedConfig("nginx:1"));
  ASSERT_FALSE(plan.diags.HasErrors());
  EXPECT_EQ(attrs::GetString(plan.planned, "id"), "apps/web");
  EXPECT_TRUE(MetadataOf(plan.planned, "uid").IsUnknown());
  EXPECT_TRUE(attrs::Get(plan.planned, "owned_fields").IsUnknown());
  EXPECT_TRUE(f.server->Requests().empty());
}

TEST(KubernetesTypedProviderTest, ImportTakesTerraformsIds) {
  TypedFixture f;
  ASSERT_FALSE(f.Configure().HasErrors());
  f.server->Answer("GET " + kWeb, 200, Applied("nginx:1"));
  ApplyResult imported = f.provider.ImportResource(f.ctx, "kubernetes_deployment", "apps/web");
  ASSERT_FALSE(imported.diags.HasErrors()) << imported.diags.items()[0].detail;
  EXPECT_EQ(attrs::GetString(imported.state, "id"), "apps/web");
  EXPECT_EQ(MetadataOf(imported.state, "name").AsString(), "web");
  EXPECT_TRUE(attrs::GetBool(imported.state, "wait_for_rollout", false));
  ApplyResult refused = f.provider.ImportResource(f.ctx, "kubernetes_deployment", "web");
  ASSERT_TRUE(refused.diags.HasErrors());
  EXPECT_NE(refused.diags.items()[0].detail.find("namespace/name"), std::string::npos);
}

}  // namespace
}  // namespace strata::kubernetes
