// What a path under a cluster endpoint names.

#include "sandbox/kubernetes/request_path.h"

#include <gtest/gtest.h>

namespace strata::sandbox::k8s {
namespace {

TEST(RequestPathTest, CoreAndGroups) {
  auto p = ParseResourcePath("/api/v1/namespaces/default/configmaps/x");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->group, "");
  EXPECT_EQ(p->version, "v1");
  EXPECT_EQ(p->ns, "default");
  EXPECT_EQ(p->plural, "configmaps");
  EXPECT_EQ(p->name, "x");
  p = ParseResourcePath("/apis/apps/v1/namespaces/prod/deployments/web/status");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->group, "apps");
  EXPECT_EQ(p->subresource, "status");
  p = ParseResourcePath("/apis/apps/v1/deployments");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->ns, "");
  EXPECT_EQ(p->name, "");
}

TEST(RequestPathTest, NamespacesThemselves) {
  auto p = ParseResourcePath("/api/v1/namespaces");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->plural, "namespaces");
  p = ParseResourcePath("/api/v1/namespaces/prod");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->plural, "namespaces");
  EXPECT_EQ(p->name, "prod");
  EXPECT_EQ(p->ns, "");
  p = ParseResourcePath("/api/v1/namespaces/prod/status");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->plural, "namespaces");
  EXPECT_EQ(p->name, "prod");
  EXPECT_EQ(p->subresource, "status");
  p = ParseResourcePath("/api/v1/namespaces/prod/pods");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->plural, "pods");
  EXPECT_EQ(p->ns, "prod");
}

TEST(RequestPathTest, NotResources) {
  for (const char* path : {"/api", "/api/v1", "/apis", "/apis/apps", "/apis/apps/v1", "/version", "/openapi/v3",
                           "/api/v1/a/b/c/d"})
    EXPECT_FALSE(ParseResourcePath(path)) << path;
}

}  // namespace
}  // namespace strata::sandbox::k8s
