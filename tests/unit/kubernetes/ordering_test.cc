// The ordering classes of Kubernetes kinds, through the provider's public OrderingClass.

#include <gtest/gtest.h>

#include "providers/kubernetes/kubernetes_provider.h"

namespace strata::kubernetes {
namespace {

int ClassOf(const std::string& api_version, const std::string& kind) {
  KubernetesProvider provider;  // never configured: classes need no cluster
  Value manifest = Value::Object({{"apiVersion", Value::String(api_version)}, {"kind", Value::String(kind)}});
  return provider.OrderingClass("kubernetes_manifest", Value::Object({{"manifest", manifest}}));
}

TEST(KubernetesOrderingTest, WhatOthersNeedComesFirst) {
  EXPECT_EQ(ClassOf("v1", "Namespace"), ClassOf("apiextensions.k8s.io/v1", "CustomResourceDefinition"));
  EXPECT_LT(ClassOf("v1", "Namespace"), ClassOf("rbac.authorization.k8s.io/v1", "ClusterRole"));
  EXPECT_LT(ClassOf("rbac.authorization.k8s.io/v1", "ClusterRole"), ClassOf("v1", "ServiceAccount"));
  EXPECT_LT(ClassOf("v1", "ServiceAccount"), ClassOf("v1", "Service"));
  EXPECT_LT(ClassOf("v1", "ConfigMap"), ClassOf("apps/v1", "Deployment"));
  EXPECT_LT(ClassOf("v1", "Service"), ClassOf("apps/v1", "DaemonSet"));
  EXPECT_LT(ClassOf("apps/v1", "Deployment"), ClassOf("kubeflow.org/v1", "Notebook"));  // operators before their resources
  EXPECT_LT(ClassOf("kubeflow.org/v1", "Notebook"),
            ClassOf("admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration"));
  // A kind of the same name in another group is not the built-in one.
  EXPECT_EQ(ClassOf("example.com/v1", "Namespace"), ClassOf("example.com/v1", "Widget"));
  // Unknown kinds and unknown manifests go with the custom resources.
  KubernetesProvider provider;
  EXPECT_EQ(provider.OrderingClass("kubernetes_manifest", Value::Object({{"manifest", Value::Unknown()}})),
            ClassOf("example.com/v1", "Widget"));
}

}  // namespace
}  // namespace strata::kubernetes
