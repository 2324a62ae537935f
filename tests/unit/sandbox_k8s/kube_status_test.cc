// Failures in kube-apiserver's exact Status shapes (k8s.io/apimachinery/pkg/api/errors).

#include "sandbox/kubernetes/kube_status.h"

#include <gtest/gtest.h>

namespace strata::sandbox::k8s {
namespace {

ResourceType Deployments() {
  ResourceType t;
  t.group = "apps";
  t.version = "v1";
  t.kind = "Deployment";
  t.plural = "deployments";
  return t;
}

ResourceType ConfigMaps() {
  ResourceType t;
  t.version = "v1";
  t.kind = "ConfigMap";
  t.plural = "configmaps";
  return t;
}

TEST(KubeStatusTest, NotFoundNamesTheObject) {
  Json s = NotFound("apps", "deployments", "web").status();
  EXPECT_EQ(s, Json::parse(R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
    "message":"deployments.apps \"web\" not found","reason":"NotFound",
    "details":{"name":"web","group":"apps","kind":"deployments"},"code":404})"));
  Json core = NotFound("", "namespaces", "nope").status();
  EXPECT_EQ(core["message"], "namespaces \"nope\" not found");
  EXPECT_EQ(core["details"], Json::parse(R"({"name":"nope","kind":"namespaces"})"));
}

TEST(KubeStatusTest, UnknownResourceTypeIsA404WithoutDetails) {
  Json s = UnknownResource().status();
  EXPECT_EQ(s["code"], 404);
  EXPECT_EQ(s["reason"], "NotFound");
  EXPECT_EQ(s["message"], "the server could not find the requested resource");
  EXPECT_EQ(s["details"], Json::object()) << "no name: a client tells it from a missing object by that";
}

TEST(KubeStatusTest, AlreadyExistsAndConflict) {
  Json exists = AlreadyExists(ConfigMaps(), "x").status();
  EXPECT_EQ(exists["code"], 409);
  EXPECT_EQ(exists["reason"], "AlreadyExists");
  EXPECT_EQ(exists["message"], "configmaps \"x\" already exists");
  Json conflict = UpdateConflict(Deployments(), "web", "the object has been modified; please apply your changes to the "
                                                 "latest version and try again")
                      .status();
  EXPECT_EQ(conflict["reason"], "Conflict");
  EXPECT_EQ(conflict["message"],
            "Operation cannot be fulfilled on deployments.apps \"web\": the object has been modified; please apply "
            "your changes to the latest version and try again");
  EXPECT_EQ(conflict["details"], Json::parse(R"({"name":"web","group":"apps","kind":"deployments"})"));
}

TEST(KubeStatusTest, InvalidListsItsCauses) {
  Json one = Invalid(ConfigMaps(), "Foo", {{"metadata.name", "FieldValueInvalid", "Invalid value: \"Foo\": bad"}}).status();
  EXPECT_EQ(one["code"], 422);
  EXPECT_EQ(one["reason"], "Invalid");
  EXPECT_EQ(one["message"], "ConfigMap \"Foo\" is invalid: metadata.name: Invalid value: \"Foo\": bad");
  EXPECT_EQ(one["details"], Json::parse(R"({"name":"Foo","kind":"ConfigMap","causes":[
    {"reason":"FieldValueInvalid","message":"Invalid value: \"Foo\": bad","field":"metadata.name"}]})"));
  Json two = Invalid(Deployments(), "w", {{"a", "FieldValueRequired", "Required value"}, {"b", "FieldValueInvalid", "x"}})
                 .status();
  EXPECT_EQ(two["message"], "Deployment.apps \"w\" is invalid: [a: Required value, b: x]");
  EXPECT_EQ(two["details"]["group"], "apps");
}

TEST(KubeStatusTest, NamespaceTerminatingIsForbidden) {
  Json s = NamespaceTerminating(ConfigMaps(), "x", "old").status();
  EXPECT_EQ(s["code"], 403);
  EXPECT_EQ(s["reason"], "Forbidden");
  EXPECT_EQ(s["message"],
            "configmaps \"x\" is forbidden: unable to create new content in namespace old because it is being terminated");
  EXPECT_EQ(s["details"]["causes"][0]["reason"], "NamespaceTerminating");
}

TEST(KubeStatusTest, MethodNotSupported) {
  Json s = MethodNotSupported(Deployments(), "watch").status();
  EXPECT_EQ(s["code"], 405);
  EXPECT_EQ(s["reason"], "MethodNotAllowed");
  EXPECT_EQ(s["message"], "watch is not supported on resources of kind \"deployments.apps\"");
}

}  // namespace
}  // namespace strata::sandbox::k8s
