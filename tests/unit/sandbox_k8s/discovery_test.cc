// Discovery and the OpenAPI documents kubectl reads, from the built-in catalog plus CRDs.

#include "sandbox/kubernetes/discovery.h"

#include <gtest/gtest.h>

#include "sandbox/kubernetes/openapi.h"
#include "sandbox/world.h"

namespace strata::sandbox::k8s {
namespace {

Json Names(const Json& resources) {
  Json names = Json::array();
  for (const Json& r : resources) names.push_back(r["name"]);
  return names;
}

bool Contains(const Json& array, const Json& value) {
  return std::find(array.begin(), array.end(), value) != array.end();
}

class DiscoveryTest : public ::testing::Test {
 protected:
  DiscoveryTest() : world_(World::Open("")), store_(*world_, "demo") {}
  std::unique_ptr<World> world_;
  ObjectStore store_;
};

TEST_F(DiscoveryTest, LegacyDocuments) {
  ApiTypes types = ApiTypes::Load(store_);
  EXPECT_EQ(ApiVersions()["versions"], Json::array({"v1"}));
  Json groups = ApiGroupList(types);
  EXPECT_EQ(groups["kind"], "APIGroupList");
  Json group_names = Names(groups["groups"]);
  EXPECT_TRUE(Contains(group_names, "apps"));
  EXPECT_FALSE(Contains(group_names, "")) << "the core group is /api's";
  Json apps = ApiResourceList(types, "apps", "v1");
  EXPECT_EQ(apps["groupVersion"], "apps/v1");
  EXPECT_TRUE(Contains(Names(apps["resources"]), "deployments"));
  EXPECT_TRUE(Contains(Names(apps["resources"]), "deployments/status"));
  Json core = ApiResourceList(types, "", "v1");
  EXPECT_EQ(core["groupVersion"], "v1");
  EXPECT_TRUE(ApiResourceList(types, "apps", "v1beta1").is_null());
  EXPECT_TRUE(ApiGroupDocument(types, "nope.example.com").is_null());
  Json autoscaling = ApiGroupDocument(types, "autoscaling");
  EXPECT_EQ(autoscaling["preferredVersion"]["version"], "v2");
  EXPECT_EQ(VersionInfo()["minor"], "31");
}

TEST_F(DiscoveryTest, CrdsAddTheirGroupAtOnce) {
  world_->Begin();
  ResourceType crds = *ApiCatalog::BuiltIn().Find("apiextensions.k8s.io", "v1", "customresourcedefinitions");
  store_.Put(crds, Json::parse(R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
    "metadata":{"name":"widgets.example.com"},
    "spec":{"group":"example.com","scope":"Cluster","names":{"plural":"widgets","kind":"Widget"},
      "versions":[{"name":"v1beta1","served":true,"storage":false},{"name":"v1","served":true,"storage":true},
                  {"name":"v2alpha1","served":false,"storage":false}]}})"));
  world_->Commit();
  ApiTypes types = ApiTypes::Load(store_);
  Json group = ApiGroupDocument(types, "example.com");
  ASSERT_FALSE(group.is_null());
  EXPECT_EQ(group["preferredVersion"]["version"], "v1") << "GA before beta";
  EXPECT_EQ(group["versions"].size(), 2u) << "unserved versions are not listed";
  Json resources = ApiResourceList(types, "example.com", "v1")["resources"];
  ASSERT_EQ(resources.size(), 1u);
  EXPECT_EQ(resources[0]["kind"], "Widget");
  EXPECT_EQ(resources[0]["namespaced"], false);
  EXPECT_EQ(resources[0]["singularName"], "widget");
}

TEST_F(DiscoveryTest, OpenApiDocumentsAnnounceFieldValidation) {
  ApiTypes types = ApiTypes::Load(store_);
  Json root = OpenApiDocument(types, "/openapi/v3");
  ASSERT_TRUE(root["paths"].contains("apis/apps/v1"));
  EXPECT_EQ(root["paths"]["apis/apps/v1"]["serverRelativeURL"], "/openapi/v3/apis/apps/v1");
  Json apps = OpenApiDocument(types, "/openapi/v3/apis/apps/v1");
  const Json& patch = apps["paths"]["/apis/apps/v1/namespaces/{namespace}/deployments/{name}"]["patch"];
  EXPECT_EQ(patch["x-kubernetes-group-version-kind"]["kind"], "Deployment");
  EXPECT_TRUE(Contains(Names(patch["parameters"]), "fieldValidation"));
  EXPECT_TRUE(OpenApiDocument(types, "/openapi/v3/apis/nope/v1").is_null());
  std::string proto = OpenApiV2Protobuf(types);
  ASSERT_GT(proto.size(), 5u);
  EXPECT_EQ(proto.substr(0, 5), std::string("\x0a\x03" "2.0", 5)) << "Document.swagger (field 1) first";
  EXPECT_NE(proto.find("/apis/apps/v1/namespaces/{namespace}/deployments/{name}"), std::string::npos);
  EXPECT_NE(proto.find("group: \"apps\"\nkind: \"Deployment\"\nversion: \"v1\"\n"), std::string::npos);
}

}  // namespace
}  // namespace strata::sandbox::k8s
