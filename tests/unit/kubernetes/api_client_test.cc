// ApiClient and Discovery against a scripted transport: URLs under a server with a path,
// bearer tokens, Status errors read into ApiError, the retry rules (429 with Retry-After,
// 5xx only for calls safe to repeat, TLS never), and discovery's cache.

#include <gtest/gtest.h>

#include "fake_transport.h"
#include "providers/kubernetes/client/api_client.h"
#include "providers/kubernetes/client/discovery.h"
#include "providers/kubernetes/client/object_ref.h"

namespace strata::kubernetes {
namespace {

using testing::FakeTransport;

struct Fixture {
  std::shared_ptr<FakeTransport> transport = std::make_shared<FakeTransport>();
  ApiClient client;
  OperationContext ctx;
  Fixture() : client(Connection(), transport, FastRetries()) {}
  static KubeConnection Connection() {
    KubeConnection c;
    c.server = "https://127.0.0.1:6443/clusters/demo/";
    c.token = "k8s-aws-v1.secret";
    return c;
  }
  static RetryPolicy FastRetries() {
    RetryPolicy r;
    r.base_delay = std::chrono::milliseconds(1);
    r.max_delay = std::chrono::milliseconds(5);
    return r;
  }
};

const char* kNotFound =
    R"({"kind":"Status","apiVersion":"v1","status":"Failure","message":"deployments.apps \"x\" not found",)"
    R"("reason":"NotFound","details":{"name":"x","group":"apps","kind":"deployments"},"code":404})";

TEST(KubernetesApiClientTest, SendsUnderTheServerPathWithTheBearerToken) {
  Fixture f;
  f.transport->Answer("GET /clusters/demo/api/v1/namespaces/a%20b/configmaps/c", 200, R"({"kind":"ConfigMap"})");
  ApiRequest request = GetRequest("/api/v1/namespaces/" + UrlEncode("a b") + "/configmaps/c");
  request.query = {{"labelSelector", "app=x,tier in (a,b)"}};
  auto answer = f.client.Call(f.ctx, request);
  ASSERT_TRUE(answer.ok()) << answer.error().Describe();
  EXPECT_EQ((*answer)["kind"], "ConfigMap");
  auto sent = f.transport->Requests().at(0);
  EXPECT_EQ(sent.url,
            "https://127.0.0.1:6443/clusters/demo/api/v1/namespaces/a%20b/configmaps/c?labelSelector=app%3Dx%2Ctier%20in%20%28a%2Cb%29");
  EXPECT_EQ(aws::FindHeader(sent.headers, "Authorization").value_or(""), "Bearer k8s-aws-v1.secret");
}

TEST(KubernetesApiClientTest, ReadsStatusErrorsWithCauses) {
  Fixture f;
  f.transport->Answer(
      "PATCH /clusters/demo/apis/apps/v1/namespaces/d/deployments/x", 409,
      R"({"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Conflict","code":409,)"
      R"("message":"Apply failed with 1 conflict: conflict with \"kubectl\" using apps/v1: .spec.replicas",)"
      R"("details":{"causes":[{"reason":"FieldManagerConflict","message":"conflict with \"kubectl\" using apps/v1","field":".spec.replicas"}]}})");
  ApiRequest request;
  request.method = "PATCH";
  request.path = "/apis/apps/v1/namespaces/d/deployments/x";
  auto answer = f.client.Call(f.ctx, request);
  ASSERT_FALSE(answer.ok());
  EXPECT_TRUE(answer.error().IsFieldManagerConflict());
  ASSERT_EQ(answer.error().causes.size(), 1u);
  EXPECT_EQ(answer.error().causes[0].field, ".spec.replicas");
  EXPECT_EQ(f.transport->Calls("PATCH /clusters/demo/apis/apps/v1/namespaces/d/deployments/x"), 1);  // not retried
  EXPECT_NE(answer.error().Describe().find(".spec.replicas: conflict with \"kubectl\""), std::string::npos);
}

TEST(KubernetesApiClientTest, NotFoundIsAnErrorNotRetried) {
  Fixture f;
  f.transport->Answer("GET /clusters/demo/apis/apps/v1/namespaces/d/deployments/x", 404, kNotFound);
  auto answer = f.client.Call(f.ctx, GetRequest("/apis/apps/v1/namespaces/d/deployments/x"));
  ASSERT_FALSE(answer.ok());
  EXPECT_TRUE(answer.error().IsNotFound());
  EXPECT_EQ(answer.error().details_kind, "deployments");
  EXPECT_EQ(f.transport->Calls("GET /clusters/demo/apis/apps/v1/namespaces/d/deployments/x"), 1);
}

TEST(KubernetesApiClientTest, RetriesTooManyRequestsAfterRetryAfter) {
  Fixture f;
  const std::string route = "POST /clusters/demo/api/v1/namespaces";
  f.transport->Answer(route, 429, R"({"kind":"Status","reason":"TooManyRequests","code":429,"message":"slow down"})",
                      {{"Retry-After", "0"}});
  f.transport->Answer(route, 201, R"({"kind":"Namespace"})");
  ApiRequest request;
  request.method = "POST";
  request.path = "/api/v1/namespaces";
  request.idempotent = false;  // a 429 did nothing: retried all the same
  auto answer = f.client.Call(f.ctx, request);
  ASSERT_TRUE(answer.ok()) << answer.error().Describe();
  EXPECT_EQ(f.transport->Calls(route), 2);
}

TEST(KubernetesApiClientTest, ServerErrorsRetriedOnlyWhenSafe) {
  Fixture f;
  const std::string route = "POST /clusters/demo/api/v1/namespaces";
  f.transport->Answer(route, 503, "upstream unavailable");
  ApiRequest request;
  request.method = "POST";
  request.path = "/api/v1/namespaces";
  request.idempotent = false;
  auto answer = f.client.Call(f.ctx, request);
  ASSERT_FALSE(answer.ok());
  EXPECT_EQ(answer.error().http_status, 503);
  EXPECT_EQ(answer.error().message, "upstream unavailable");  // not a Status: the body quoted
  EXPECT_EQ(f.transport->Calls(route), 1);

  const std::string get = "GET /clusters/demo/api/v1/namespaces";
  f.transport->Answer(get, 503, "");
  auto listed = f.client.Call(f.ctx, GetRequest("/api/v1/namespaces"));
  ASSERT_FALSE(listed.ok());
  EXPECT_EQ(f.transport->Calls(get), Fixture::FastRetries().max_attempts);
}

TEST(KubernetesApiClientTest, RefusedConnectionNamesTheServerAndTlsIsNotRetried) {
  Fixture f;
  f.transport->Fail("GET /clusters/demo/version", aws::TransportError::Kind::Connect);
  auto answer = f.client.Call(f.ctx, GetRequest("/version"));
  ASSERT_FALSE(answer.ok());
  EXPECT_EQ(answer.error().http_status, 0);
  EXPECT_NE(answer.error().message.find("cannot reach the Kubernetes API server at https://127.0.0.1:6443/clusters/demo"),
            std::string::npos);
  EXPECT_EQ(f.transport->Calls("GET /clusters/demo/version"), Fixture::FastRetries().max_attempts);

  f.transport->Fail("GET /clusters/demo/api", aws::TransportError::Kind::Tls);
  auto tls = f.client.Call(f.ctx, GetRequest("/api"));
  ASSERT_FALSE(tls.ok());
  EXPECT_NE(tls.error().message.find("TLS"), std::string::npos);
  EXPECT_EQ(f.transport->Calls("GET /clusters/demo/api"), 1);
}

TEST(KubernetesApiClientTest, CancelledCallsStop) {
  Fixture f;
  f.ctx.cancellation.Cancel();
  auto answer = f.client.Call(f.ctx, GetRequest("/api"));
  ASSERT_FALSE(answer.ok());
  EXPECT_EQ(f.transport->Calls("GET /clusters/demo/api"), 0);
}

const char* kAppsV1 = R"({"kind":"APIResourceList","groupVersion":"apps/v1","resources":[
  {"name":"deployments","singularName":"deployment","namespaced":true,"kind":"Deployment","verbs":["create","get","patch","delete"]},
  {"name":"deployments/status","namespaced":true,"kind":"Deployment","verbs":["get","patch"]}]})";

TEST(KubernetesDiscoveryTest, FindsKindsAndCachesEachGroupVersion) {
  Fixture f;
  f.transport->Answer("GET /clusters/demo/apis/apps/v1", 200, kAppsV1);
  Discovery discovery(f.client);
  auto found = discovery.Find(f.ctx, "apps/v1", "Deployment");
  ASSERT_TRUE(found.ok());
  ASSERT_TRUE(found->has_value());
  EXPECT_EQ((*found)->resource, "deployments");
  EXPECT_TRUE((*found)->namespaced);
  EXPECT_EQ(ObjectPath(**found, "kube-system", "cluster-autoscaler"),
            "/apis/apps/v1/namespaces/kube-system/deployments/cluster-autoscaler");
  ASSERT_TRUE(discovery.Find(f.ctx, "apps/v1", "Deployment").ok());
  EXPECT_EQ(discovery.fetches(), 1);
}

TEST(KubernetesDiscoveryTest, AnUnlistedKindIsLookedForAgainAndAMissingGroupIsNotAnError) {
  Fixture f;
  const std::string route = "GET /clusters/demo/apis/example.com/v1";
  f.transport->Answer(route, 200, R"({"kind":"APIResourceList","resources":[]})");
  f.transport->Answer(route, 200,
                      R"({"kind":"APIResourceList","resources":[{"name":"widgets","namespaced":false,"kind":"Widget","verbs":["get"]}]})");
  Discovery discovery(f.client);
  auto before = discovery.Find(f.ctx, "example.com/v1", "Widget");
  ASSERT_TRUE(before.ok());
  EXPECT_FALSE(before->has_value());
  auto after = discovery.Find(f.ctx, "example.com/v1", "Widget");  // the CRD arrived meanwhile
  ASSERT_TRUE(after.ok());
  ASSERT_TRUE(after->has_value());
  EXPECT_FALSE((*after)->namespaced);
  EXPECT_EQ(ObjectPath(**after, "ignored", "w"), "/apis/example.com/v1/widgets/w");

  auto missing = discovery.Find(f.ctx, "nothing.io/v9", "Thing");  // 404 for the group: not served
  ASSERT_TRUE(missing.ok());
  EXPECT_FALSE(missing->has_value());
}

TEST(KubernetesDiscoveryTest, AServerThatCannotBeAskedIsAnError) {
  Fixture f;
  f.transport->Fail("GET /clusters/demo/api/v1", aws::TransportError::Kind::Connect);
  Discovery discovery(f.client);
  auto found = discovery.Find(f.ctx, "v1", "ConfigMap");
  EXPECT_FALSE(found.ok());
}

TEST(KubernetesObjectRefTest, ManifestsAndImportIds) {
  auto ref = RefOf(nlohmann::json::parse(R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"ca","namespace":"kube-system"}})"));
  ASSERT_TRUE(ref.ok());
  EXPECT_EQ(ref->Id(), "apiVersion=apps/v1,kind=Deployment,namespace=kube-system,name=ca");
  auto parsed = ParseObjectId(ref->Id());
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->Describe(), "apps/v1 Deployment kube-system/ca");
  EXPECT_EQ(ParseObjectId("apiVersion=v1,kind=Namespace,name=ml")->namespace_name, "");

  EXPECT_NE(RefOf(nlohmann::json::parse(R"({"kind":"X","metadata":{"name":"a"}})")).error().find("apiVersion"),
            std::string::npos);
  EXPECT_NE(RefOf(nlohmann::json::parse(R"({"apiVersion":"v1","kind":"Pod","metadata":{"generateName":"a-"}})"))
                .error()
                .find("generateName"),
            std::string::npos);
  EXPECT_NE(ParseObjectId("kind=Pod,name=x").error().find("expected"), std::string::npos);
  EXPECT_NE(ParseObjectId("apiVersion=v1,kind=Pod,nme=x").error().find("unknown key \"nme\""), std::string::npos);
}

}  // namespace
}  // namespace strata::kubernetes
