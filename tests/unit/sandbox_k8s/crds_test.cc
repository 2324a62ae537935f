// The order Kubernetes gives a CRD's versions (discovery's preferred version first): GA
// before beta before alpha, higher major first, then higher minor; names that are not
// Kubernetes versions last, by name.
#include "sandbox/kubernetes/crds.h"

#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace strata::sandbox::k8s {
namespace {

TEST(CrdVersionOrderTest, KubernetesVersionPriority) {
  std::vector<std::string> versions = {"v1alpha1", "foo", "v1beta1", "v2", "v11alpha2", "v1", "v1beta2", "v3beta1", "bar",
                                       "v1beta", "vbeta1"};
  std::sort(versions.begin(), versions.end(), VersionBefore);
  EXPECT_EQ(versions, (std::vector<std::string>{"v2", "v1", "v3beta1", "v1beta2", "v1beta1", "v11alpha2", "v1alpha1",
                                                "bar", "foo", "v1beta", "vbeta1"}));
}

}  // namespace
}  // namespace strata::sandbox::k8s
