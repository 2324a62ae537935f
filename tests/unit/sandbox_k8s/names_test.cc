// Object names under kube's three rules, with kube's messages.

#include "sandbox/kubernetes/names.h"

#include <gtest/gtest.h>

namespace strata::sandbox::k8s {
namespace {

TEST(NamesTest, Subdomain) {
  EXPECT_TRUE(NameProblems(NameRule::Dns1123Subdomain, "web").empty());
  EXPECT_TRUE(NameProblems(NameRule::Dns1123Subdomain, "crontabs.stable.example.com").empty());
  EXPECT_TRUE(NameProblems(NameRule::Dns1123Subdomain, "0abc-1").empty());
  for (const char* bad : {"Web", "-web", "web-", "a..b", "", "a_b", ".a"})
    EXPECT_FALSE(NameProblems(NameRule::Dns1123Subdomain, bad).empty()) << bad;
  auto problems = NameProblems(NameRule::Dns1123Subdomain, "Foo");
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0],
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and "
            "must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
            "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
  EXPECT_EQ(NameProblems(NameRule::Dns1123Subdomain, std::string(254, 'a'))[0], "must be no more than 253 characters");
}

TEST(NamesTest, LabelForNamespaces) {
  EXPECT_EQ(NameRuleFor("", "Namespace"), NameRule::Dns1123Label);
  EXPECT_TRUE(IsNamespaceName("kube-system"));
  EXPECT_FALSE(IsNamespaceName("a.b"));
  EXPECT_FALSE(IsNamespaceName(std::string(64, 'a')));
  auto problems = NameProblems(NameRule::Dns1123Label, std::string(64, 'a'));
  EXPECT_EQ(problems[0], "must be no more than 63 characters");
}

TEST(NamesTest, Dns1035ForServices) {
  EXPECT_EQ(NameRuleFor("", "Service"), NameRule::Dns1035Label);
  EXPECT_EQ(NameRuleFor("apps", "Deployment"), NameRule::Dns1123Subdomain);
  EXPECT_TRUE(NameProblems(NameRule::Dns1035Label, "web-1").empty());
  EXPECT_FALSE(NameProblems(NameRule::Dns1035Label, "1web").empty());
}

TEST(NamesTest, PathSegmentForRbac) {
  for (const char* kind : {"Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding"})
    EXPECT_EQ(NameRuleFor("rbac.authorization.k8s.io", kind), NameRule::PathSegment) << kind;
  EXPECT_TRUE(NameProblems(NameRule::PathSegment, "system:metrics-server").empty());
  EXPECT_TRUE(NameProblems(NameRule::PathSegment, "metrics-server:system:auth-delegator").empty());
  EXPECT_EQ(NameProblems(NameRule::PathSegment, "..")[0], "may not be '..'");
  EXPECT_EQ(NameProblems(NameRule::PathSegment, "a/b")[0], "may not contain '/'");
  EXPECT_EQ(NameProblems(NameRule::PathSegment, "a%b")[0], "may not contain '%'");
}

}  // namespace
}  // namespace strata::sandbox::k8s
