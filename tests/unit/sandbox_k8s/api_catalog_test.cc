// The compiled-in API catalog: current with the real spec, and what it says about kinds.

#include "sandbox/kubernetes/api_catalog.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sandbox/kubernetes/api_catalog_text.h"

namespace strata::sandbox::k8s {
namespace {

std::string ReadAll(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// scripts/k8s_api_catalog.py run again on ../shared's swagger.json must write the
// committed file byte for byte, and the binary must hold that file.
TEST(ApiCatalogTest, CommittedCatalogIsCurrent) {
  std::filesystem::path source = STRATA_SOURCE_DIR;
  std::filesystem::path swagger = std::filesystem::path(STRATA_SHARED_DIR) / "testdata/k8s-openapi/swagger.json";
  ASSERT_TRUE(std::filesystem::exists(swagger)) << swagger;
  std::filesystem::path out = std::filesystem::temp_directory_path() / ("k8s-catalog-" + std::to_string(::getpid()) + ".json");
  std::string command = "python3 '" + (source / "scripts/k8s_api_catalog.py").string() + "' '" + swagger.string() +
                        "' '" + out.string() + "'";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  std::string regenerated = ReadAll(out);
  std::filesystem::remove(out);
  std::string committed = ReadAll(source / "sandbox/kubernetes/api_catalog.json");
  EXPECT_TRUE(regenerated == committed)
      << "sandbox/kubernetes/api_catalog.json is stale: run scripts/k8s_api_catalog.py";
  EXPECT_TRUE(std::string(ApiCatalogText()) == committed) << "the compiled-in catalog differs from the file";
}

TEST(ApiCatalogTest, BuiltInKinds) {
  const ApiCatalog& catalog = ApiCatalog::BuiltIn();
  const ResourceType* deployments = catalog.Find("apps", "v1", "deployments");
  ASSERT_NE(deployments, nullptr);
  EXPECT_EQ(deployments->kind, "Deployment");
  EXPECT_TRUE(deployments->namespaced);
  EXPECT_TRUE(deployments->status_subresource);
  EXPECT_EQ(deployments->short_names, std::vector<std::string>{"deploy"});
  EXPECT_EQ(deployments->verbs, (std::vector<std::string>{"create", "delete", "deletecollection", "get", "list",
                                                          "patch", "update", "watch"}));
  EXPECT_EQ(deployments->definition, "io.k8s.api.apps.v1.Deployment");
  const ResourceType* namespaces = catalog.Find("", "v1", "namespaces");
  ASSERT_NE(namespaces, nullptr);
  EXPECT_FALSE(namespaces->namespaced);
  const ResourceType* crds = catalog.Find("apiextensions.k8s.io", "v1", "customresourcedefinitions");
  ASSERT_NE(crds, nullptr);
  EXPECT_EQ(crds->short_names, (std::vector<std::string>{"crd", "crds"}));
  const ResourceType* configmaps = catalog.Find("", "v1", "configmaps");
  ASSERT_NE(configmaps, nullptr);
  EXPECT_FALSE(configmaps->status_subresource);
}

TEST(ApiCatalogTest, AlphaAndOffByDefaultVersionsAreNotServed) {
  const ApiCatalog& catalog = ApiCatalog::BuiltIn();
  for (const ApiGroup& g : catalog.groups())
    for (const GroupVersion& gv : g.versions) {
      EXPECT_EQ(gv.version.find("alpha"), std::string::npos) << g.name << "/" << gv.version;
      EXPECT_FALSE(g.name == "storage.k8s.io" && gv.version == "v1beta1");
    }
  EXPECT_EQ(catalog.Find("resource.k8s.io", "v1alpha3", "resourceslices"), nullptr);
  // autoscaling prefers v2 over v1.
  for (const ApiGroup& g : catalog.groups()) {
    if (g.name == "autoscaling") {
      EXPECT_EQ(g.versions.front().version, "v2");
    }
  }
}

TEST(ApiCatalogTest, DefinitionsKeepTheMergeMarkersAndDropDescriptions) {
  const Json& defs = ApiCatalog::BuiltIn().definitions();
  const Json& pod_spec = defs.at("io.k8s.api.core.v1.PodSpec");
  EXPECT_FALSE(pod_spec.contains("description"));
  const Json& containers = pod_spec.at("properties").at("containers");
  EXPECT_EQ(containers.at("x-kubernetes-list-type"), "map");
  EXPECT_EQ(containers.at("x-kubernetes-list-map-keys"), Json::array({"name"}));
  EXPECT_EQ(containers.at("items").at("$ref"), "#/definitions/io.k8s.api.core.v1.Container");
  EXPECT_FALSE(containers.contains("description"));
  EXPECT_EQ(defs.at("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta").at("properties").at("finalizers").at(
                "x-kubernetes-list-type"),
            "set");
}

}  // namespace
}  // namespace strata::sandbox::k8s
