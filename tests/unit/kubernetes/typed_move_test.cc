// Moves between a typed Kubernetes resource and kubernetes_manifest (Terraform's
// MoveResourceState) through the provider's public call, on a provider never configured:
// the same object's state converted both ways with nothing sent to a cluster, secrets kept
// sensitive, and the moves that cannot keep the object refused with both addresses named.

#include <gtest/gtest.h>

#include "engine/value/json.h"
#include "fake_cluster.h"
#include "providers/kubernetes/kubernetes_provider.h"

namespace strata::kubernetes {
namespace {

using Json = nlohmann::json;

struct MoveFixture {
  std::shared_ptr<testing::FakeTransport> server = std::make_shared<testing::FakeTransport>();
  KubernetesProvider provider{testing::FakeClusterOptions(server)};

  MoveResult Move(const std::string& from_type, const Value& state, const std::string& to_type) {
    MoveStateRequest request{from_type + ".a", to_type + ".b", "strata/kubernetes", from_type, 0, state, to_type};
    MoveResult moved = provider.MoveResourceState(request);
    EXPECT_TRUE(server->Requests().empty());  // a move never asks the cluster
    return moved;
  }
};

// A kubernetes_manifest's state after an apply: Strata's manager owned all of `manifest`.
Value ManifestState(const Json& manifest, const Json& fields, const std::string& id) {
  return Value::Object({{"manifest", JsonToValue(manifest)},
                        {"object", JsonToValue(manifest)},
                        {"owned_fields", Value::String(fields.dump())},
                        {"id", Value::String(id)}});
}

std::string Describe(const Diagnostics& diags) {
  return diags.items().empty() ? "" : diags.items()[0].summary + ": " + diags.items()[0].detail;
}

Json ManifestOf(const Value& state) { return ValueToJson(attrs::Get(state, "manifest").DeepUnmark()); }

const Json kDeployment = Json::parse(R"({"apiVersion":"apps/v1","kind":"Deployment",
  "metadata":{"name":"web","namespace":"apps","labels":{"app":"web"}},
  "spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},
    "template":{"metadata":{"labels":{"app":"web"}},
      "spec":{"containers":[{"name":"web","image":"nginx:1","ports":[{"containerPort":80}]}]}}}})");
const Json kDeploymentFields = Json::parse(R"({"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:replicas":{},
  "f:selector":{},"f:template":{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:containers":{
  "k:{\"name\":\"web\"}":{".":{},"f:name":{},"f:image":{},"f:ports":{"k:{\"containerPort\":80}":{".":{},
  "f:containerPort":{}}}}}}}}})");

TEST(KubernetesTypedMoveTest, ADeploymentMovesBetweenManifestAndTypedAndBack) {
  MoveFixture f;
  Value manifest_state = ManifestState(kDeployment, kDeploymentFields, "apiVersion=apps/v1,kind=Deployment,namespace=apps,name=web");
  manifest_state = attrs::With(manifest_state, "wait", Value::Object({{"rollout", Value::Bool(true)}}));
  manifest_state = attrs::With(manifest_state, "timeouts", Value::Object({{"create", Value::String("3m")}}));
  MoveResult typed = f.Move("kubernetes_manifest", manifest_state, "kubernetes_deployment");
  ASSERT_FALSE(typed.diags.HasErrors()) << Describe(typed.diags);
  Value metadata = attrs::FirstBlock(typed.state, "metadata");
  EXPECT_EQ(attrs::GetString(metadata, "name"), "web");
  EXPECT_EQ(attrs::GetString(metadata, "namespace"), "apps");
  Value spec = attrs::FirstBlock(typed.state, "spec");
  EXPECT_EQ(ValueToJson(attrs::Get(spec, "replicas")), Json(2));
  Value pod = attrs::FirstBlock(attrs::FirstBlock(spec, "template"), "spec");
  EXPECT_EQ(attrs::GetString(attrs::Blocks(pod, "container").at(0), "image"), "nginx:1");
  EXPECT_EQ(attrs::GetString(typed.state, "id"), "apps/web");  // Terraform's id of the typed resource
  EXPECT_EQ(Json::parse(attrs::GetString(typed.state, "owned_fields")), kDeploymentFields);
  EXPECT_TRUE(attrs::GetBool(typed.state, "wait_for_rollout", false));
  EXPECT_EQ(attrs::GetString(attrs::Get(typed.state, "timeouts"), "create"), "3m");

  // Back: the same manifest, the same owned fields, kubernetes_manifest's id.
  MoveResult back = f.Move("kubernetes_deployment", typed.state, "kubernetes_manifest");
  ASSERT_FALSE(back.diags.HasErrors()) << Describe(back.diags);
  EXPECT_EQ(ManifestOf(back.state), kDeployment) << ManifestOf(back.state).dump();
  Json owned = kDeployment;  // `object`: the part Strata's manager owns, as a refresh reads it
  owned.erase("apiVersion");
  owned.erase("kind");
  owned["metadata"].erase("name");
  owned["metadata"].erase("namespace");
  EXPECT_EQ(ValueToJson(attrs::Get(back.state, "object").DeepUnmark()), owned);
  EXPECT_EQ(attrs::GetString(back.state, "id"), "apiVersion=apps/v1,kind=Deployment,namespace=apps,name=web");
  EXPECT_EQ(Json::parse(attrs::GetString(back.state, "owned_fields")), kDeploymentFields);
  EXPECT_TRUE(attrs::GetBool(attrs::Get(back.state, "wait"), "rollout", false));
}

TEST(KubernetesTypedMoveTest, TheServersMetadataKeptInTypedStateIsCarried) {
  MoveFixture f;
  MoveResult typed = f.Move("kubernetes_manifest", ManifestState(kDeployment, kDeploymentFields, "x"),
                            "kubernetes_deployment_v1");
  ASSERT_FALSE(typed.diags.HasErrors()) << Describe(typed.diags);
  // A typed state as an apply leaves it: the server's resource_version, uid and generation.
  ValueList metadata = attrs::Get(typed.state, "metadata").AsList();
  metadata[0] = attrs::With(attrs::With(attrs::With(metadata[0], "resource_version", Value::String("41")), "uid",
                                        Value::String("u-1")),
                            "generation", Value::Number(3));
  Value state = attrs::With(typed.state, "metadata", Value::List(metadata));
  // To the other spelling of the same kind: the metadata stays.
  MoveResult renamed = f.Move("kubernetes_deployment_v1", state, "kubernetes_deployment");
  ASSERT_FALSE(renamed.diags.HasErrors()) << Describe(renamed.diags);
  Value moved = attrs::FirstBlock(renamed.state, "metadata");
  EXPECT_EQ(attrs::GetString(moved, "resource_version"), "41");
  EXPECT_EQ(attrs::GetString(moved, "uid"), "u-1");
}

TEST(KubernetesTypedMoveTest, AConfigMapWithoutANamespaceIsTheDefaultNamespacesObject) {
  MoveFixture f;
  Json config_map = Json::parse(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cfg"},
    "data":{"a":"1","b":"two"}})");
  Json fields = Json::parse(R"({"f:data":{"f:a":{},"f:b":{}}})");
  MoveResult typed =
      f.Move("kubernetes_manifest", ManifestState(config_map, fields, "apiVersion=v1,kind=ConfigMap,name=cfg"),
             "kubernetes_config_map");
  ASSERT_FALSE(typed.diags.HasErrors()) << Describe(typed.diags);
  EXPECT_EQ(ValueToJson(attrs::Get(typed.state, "data")), config_map["data"]);
  EXPECT_EQ(attrs::GetString(typed.state, "id"), "default/cfg");
  MoveResult back = f.Move("kubernetes_config_map", typed.state, "kubernetes_manifest");
  ASSERT_FALSE(back.diags.HasErrors()) << Describe(back.diags);
  Json expected = config_map;
  expected["metadata"]["namespace"] = "default";  // as Terraform's typed resource writes it
  EXPECT_EQ(ManifestOf(back.state), expected);
}

TEST(KubernetesTypedMoveTest, AClusterScopedBindingKeepsItsRoleRefAndSubjects) {
  MoveFixture f;
  Json binding = Json::parse(R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRoleBinding",
    "metadata":{"name":"viewers"},
    "roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"view"},
    "subjects":[{"kind":"ServiceAccount","name":"reader","namespace":"apps"}]})");
  Json fields = Json::parse(R"({"f:roleRef":{},"f:subjects":{}})");
  MoveResult typed = f.Move("kubernetes_manifest", ManifestState(binding, fields, "x"), "kubernetes_cluster_role_binding");
  ASSERT_FALSE(typed.diags.HasErrors()) << Describe(typed.diags);
  EXPECT_EQ(attrs::GetString(typed.state, "id"), "viewers");  // cluster-scoped: the name alone
  EXPECT_EQ(attrs::GetString(attrs::FirstBlock(typed.state, "role_ref"), "name"), "view");
  Value subject = attrs::Blocks(typed.state, "subject").at(0);
  EXPECT_EQ(attrs::GetString(subject, "namespace"), "apps");
  MoveResult back = f.Move("kubernetes_cluster_role_binding", typed.state, "kubernetes_manifest");
  ASSERT_FALSE(back.diags.HasErrors()) << Describe(back.diags);
  EXPECT_EQ(ManifestOf(back.state), binding) << ManifestOf(back.state).dump();
  EXPECT_EQ(attrs::GetString(back.state, "id"), "apiVersion=rbac.authorization.k8s.io/v1,kind=ClusterRoleBinding,name=viewers");
}

TEST(KubernetesTypedMoveTest, ASecretsDataStaysSensitiveBothWays) {
  MoveFixture f;
  Json secret = Json::parse(R"({"apiVersion":"v1","kind":"Secret","metadata":{"name":"db","namespace":"apps"},
    "type":"Opaque","data":{"password":"aHVudGVyMg=="}})");
  Json fields = Json::parse(R"({"f:type":{},"f:data":{"f:password":{}}})");
  MoveResult typed = f.Move("kubernetes_manifest", ManifestState(secret, fields, "x"), "kubernetes_secret");
  ASSERT_FALSE(typed.diags.HasErrors()) << Describe(typed.diags);
  Value data = attrs::Get(typed.state, "data");
  EXPECT_TRUE(data.IsSensitive());
  EXPECT_EQ(ValueToJson(data.DeepUnmark()), Json({{"password", "hunter2"}}));  // Terraform's data: the text
  MoveResult back = f.Move("kubernetes_secret", typed.state, "kubernetes_manifest");
  ASSERT_FALSE(back.diags.HasErrors()) << Describe(back.diags);
  EXPECT_TRUE(back.state.ContainsSensitive());
  EXPECT_TRUE(attrs::Get(back.state.DeepUnmark(), "manifest").IsKnown());
  EXPECT_TRUE(attrs::Get(back.state, "manifest").IsSensitive() || back.state.IsSensitive());
  EXPECT_EQ(ManifestOf(back.state)["data"]["password"], "aHVudGVyMg==");
}

TEST(KubernetesTypedMoveTest, MovesThatWouldNotKeepTheObjectAreRefused) {
  MoveFixture f;
  Json config_map = Json::parse(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cfg","namespace":"apps"}})");
  Value state = ManifestState(config_map, Json::object(), "x");
  MoveResult kind = f.Move("kubernetes_manifest", state, "kubernetes_deployment");
  ASSERT_TRUE(kind.diags.HasErrors());
  std::string text = Describe(kind.diags);
  EXPECT_NE(text.find("kubernetes_manifest.a"), std::string::npos) << text;
  EXPECT_NE(text.find("kubernetes_deployment.b"), std::string::npos) << text;
  EXPECT_NE(text.find("v1 ConfigMap"), std::string::npos) << text;
  EXPECT_NE(text.find("import"), std::string::npos) << text;  // what to do instead

  MoveResult other = f.Move("aws_vpc", Value::Object({{"id", Value::String("vpc-1")}}), "kubernetes_manifest");
  ASSERT_TRUE(other.diags.HasErrors());
  EXPECT_NE(Describe(other.diags).find("only the Kubernetes types"), std::string::npos) << Describe(other.diags);

  Value managed = attrs::With(state, "field_manager", Value::Object({{"name", Value::String("ci")}}));
  MoveResult manager = f.Move("kubernetes_manifest", managed, "kubernetes_config_map");
  ASSERT_TRUE(manager.diags.HasErrors());
  EXPECT_NE(Describe(manager.diags).find("field manager \"ci\""), std::string::npos) << Describe(manager.diags);
}

TEST(KubernetesTypedMoveTest, ImportTakesTheNameAloneForAClusterScopedKind) {
  MoveFixture f;
  f.server->Answer("GET /k/apis/rbac.authorization.k8s.io/v1", 200,
                   R"({"kind":"APIResourceList","groupVersion":"rbac.authorization.k8s.io/v1","resources":[
                      {"name":"clusterrolebindings","singularName":"clusterrolebinding","namespaced":false,
                       "kind":"ClusterRoleBinding","verbs":["get","patch","delete"]}]})");
  f.server->Answer("GET /k/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/viewers", 200,
                   R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRoleBinding",
                      "metadata":{"name":"viewers","uid":"u-9","resourceVersion":"7"},
                      "roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"view"}})");
  OperationContext ctx;
  ASSERT_FALSE(f.provider
                   .Configure(ctx, Value::Object({{"host", Value::String("https://127.0.0.1:6443/k")},
                                                  {"token", Value::String("t")}}))
                   .HasErrors());
  ApplyResult imported = f.provider.ImportResource(ctx, "kubernetes_cluster_role_binding_v1", "viewers");
  ASSERT_FALSE(imported.diags.HasErrors()) << Describe(imported.diags);
  EXPECT_EQ(attrs::GetString(imported.state, "id"), "viewers");
  EXPECT_EQ(attrs::GetString(attrs::FirstBlock(imported.state, "metadata"), "uid"), "u-9");
  EXPECT_EQ(attrs::GetString(attrs::FirstBlock(imported.state, "role_ref"), "name"), "view");
  ApplyResult refused = f.provider.ImportResource(ctx, "kubernetes_cluster_role_binding_v1", "apps/viewers");
  ASSERT_TRUE(refused.diags.HasErrors());
  EXPECT_NE(Describe(refused.diags).find("cluster-scoped"), std::string::npos) << Describe(refused.diags);
}

}  // namespace
}  // namespace strata::kubernetes
