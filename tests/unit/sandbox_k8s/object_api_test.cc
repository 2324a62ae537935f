// The object verbs against an in-memory world: server-set metadata, namespaces, optimistic
// concurrency, patches, finalizers, CRDs, selectors and dry runs.

#include "sandbox/kubernetes/object_api.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "sandbox/kubernetes/kube_status.h"
#include "sandbox/world.h"

namespace strata::sandbox::k8s {
namespace {

class ObjectApiTest : public ::testing::Test {
 protected:
  ObjectApiTest() : world_(World::Open("")), store_(*world_, "demo") {
    world_->Begin();
    Reload();
    EnsureDefaultNamespaces(*ctx_);
  }
  ~ObjectApiTest() override { world_->Commit(); }

  void Reload() {
    types_ = std::make_unique<ApiTypes>(ApiTypes::Load(store_));
    ctx_ = std::make_unique<ObjectApiContext>(ObjectApiContext{
        store_, *types_, "2026-11-25T10:00:00Z", [this] { return "uid-" + std::to_string(++uids_); },
        [](size_t n) { return std::string(n, 'x'); }});
  }

  KubeResponse Call(const std::string& method, const std::string& path, const Json& body = nullptr,
                    const std::string& content_type = "application/json", const std::string& query = "") {
    KubeRequest req;
    req.method = method;
    req.path = *ParseResourcePath(path);
    req.content_type = content_type;
    req.body = body.is_null() ? "" : body.dump();
    req.user_agent = "kubectl/v1.32.4 (linux/amd64) kubernetes/abc";
    size_t start = 0;
    while (start < query.size()) {
      size_t amp = query.find('&', start);
      std::string pair = query.substr(start, amp == std::string::npos ? std::string::npos : amp - start);
      size_t eq = pair.find('=');
      req.query.emplace(pair.substr(0, eq), eq == std::string::npos ? "" : pair.substr(eq + 1));
      if (amp == std::string::npos) break;
      start = amp + 1;
    }
    KubeResponse response = HandleObjectRequest(*ctx_, req);
    Reload();  // as the server does per request: CRDs created now are served next
    return response;
  }

  // The Status of a refused call.
  Json Refused(const std::string& method, const std::string& path, const Json& body = nullptr,
               const std::string& content_type = "application/json", const std::string& query = "") {
    try {
      Call(method, path, body, content_type, query);
    } catch (const KubeError& e) {
      return e.status();
    }
    ADD_FAILURE() << method << " " << path << " was not refused";
    return nullptr;
  }

  static Json ConfigMap(const std::string& name, Json data = {{"k", "v"}}) {
    return {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", name}}}, {"data", data}};
  }

  std::unique_ptr<World> world_;
  ObjectStore store_;
  std::unique_ptr<ApiTypes> types_;
  std::unique_ptr<ObjectApiContext> ctx_;
  int uids_ = 0;
};

TEST_F(ObjectApiTest, DefaultNamespacesExistAndAreActive) {
  KubeResponse list = Call("GET", "/api/v1/namespaces");
  std::vector<std::string> names;
  for (const Json& ns : list.body["items"]) {
    names.push_back(ns["metadata"]["name"]);
    EXPECT_EQ(ns["status"]["phase"], "Active");
  }
  EXPECT_EQ(names, (std::vector<std::string>{"default", "kube-node-lease", "kube-public", "kube-system"}))
      << "in key order, as etcd lists them";
  EXPECT_EQ(list.body["kind"], "NamespaceList");
}

TEST_F(ObjectApiTest, CreateSetsServerMetadata) {
  KubeResponse created = Call("POST", "/api/v1/namespaces/default/configmaps", ConfigMap("app"));
  EXPECT_EQ(created.status, 201);
  const Json& meta = created.body["metadata"];
  EXPECT_EQ(meta["namespace"], "default");
  EXPECT_EQ(meta["creationTimestamp"], "2026-11-25T10:00:00Z");
  EXPECT_TRUE(meta["uid"].is_string());
  EXPECT_TRUE(meta["resourceVersion"].is_string());
  EXPECT_FALSE(meta.contains("generation")) << "ConfigMaps have no generation in kube";
  KubeResponse got = Call("GET", "/api/v1/namespaces/default/configmaps/app");
  EXPECT_EQ(got.body, created.body);

  Json deployment = {{"apiVersion", "apps/v1"},
                     {"kind", "Deployment"},
                     {"metadata", {{"name", "web"}}},
                     {"spec", {{"replicas", 1}}},
                     {"status", {{"replicas", 9}}}};
  KubeResponse d = Call("POST", "/apis/apps/v1/namespaces/default/deployments", deployment);
  EXPECT_EQ(d.body["metadata"]["generation"], 1);
  EXPECT_FALSE(d.body.contains("status")) << "status is the status subresource's";
}

TEST_F(ObjectApiTest, CreateRefusals) {
  Call("POST", "/api/v1/namespaces/default/configmaps", ConfigMap("app"));
  Json exists = Refused("POST", "/api/v1/namespaces/default/configmaps", ConfigMap("app"));
  EXPECT_EQ(exists["reason"], "AlreadyExists");
  Json missing_ns = Refused("POST", "/api/v1/namespaces/nope/configmaps", ConfigMap("app"));
  EXPECT_EQ(missing_ns["code"], 404);
  EXPECT_EQ(missing_ns["message"], "namespaces \"nope\" not found");
  Json bad_name = Refused("POST", "/api/v1/namespaces/default/configmaps", ConfigMap("Bad_Name"));
  EXPECT_EQ(bad_name["code"], 422);
  EXPECT_EQ(bad_name["details"]["causes"][0]["field"], "metadata.name");
  Json wrong_ns = ConfigMap("x");
  wrong_ns["metadata"]["namespace"] = "kube-system";
  EXPECT_EQ(Refused("POST", "/api/v1/namespaces/default/configmaps", wrong_ns)["code"], 400);
  EXPECT_EQ(Refused("POST", "/api/v1/namespaces/default/widgets", ConfigMap("x"))["details"], Json::object());
}

TEST_F(ObjectApiTest, GenerateName) {
  Json object = ConfigMap("");
  object["metadata"] = {{"generateName", "job-"}};
  KubeResponse created = Call("POST", "/api/v1/namespaces/default/configmaps", object);
  EXPECT_EQ(created.body["metadata"]["name"], "job-xxxxx");
}

TEST_F(ObjectApiTest, ReplaceChecksResourceVersion) {
  Json created = Call("POST", "/api/v1/namespaces/default/configmaps", ConfigMap("app")).body;
  Json stale = created;
  Json next = created;
  next["data"]["k"] = "w";
  Json replaced = Call("PUT", "/api/v1/namespaces/default/configmaps/app", next).body;
  EXPECT_NE(replaced["metadata"]["resourceVersion"], created["metadata"]["resourceVersion"]);
  EXPECT_EQ(replaced["metadata"]["uid"], created["metadata"]["uid"]);
  stale["data"]["k"] = "z";
  Json conflict = Refused("PUT", "/api/v1/namespaces/default/configmaps/app", stale);
  EXPECT_EQ(conflict["code"], 409);
  EXPECT_EQ(conflict["message"],
            "Operation cannot be fulfilled on configmaps \"app\": the object has been modified; please apply your "
            "changes to the latest version and try again");
  // The same content again is no write: the resourceVersion stays.
  Json same = Call("PUT", "/api/v1/namespaces/default/configmaps/app", replaced).body;
  EXPECT_EQ(same["metadata"]["resourceVersion"], replaced["metadata"]["resourceVersion"]);
  EXPECT_EQ(Refused("PUT", "/api/v1/namespaces/default/configmaps/other", ConfigMap("other"))["code"], 404);
}

TEST_F(ObjectApiTest, GenerationFollowsTheSpec) {
  Json d = {{"apiVersion", "apps/v1"}, {"kind", "Deployment"}, {"metadata", {{"name", "web"}}}, {"spec", {{"replicas", 1}}}};
  Call("POST", "/apis/apps/v1/namespaces/default/deployments", d);
  Json labelled = Call("PATCH", "/apis/apps/v1/namespaces/default/deployments/web",
                       {{"metadata", {{"labels", {{"a", "b"}}}}}}, "application/merge-patch+json")
                      .body;
  EXPECT_EQ(labelled["metadata"]["generation"], 1);
  Json scaled = Call("PATCH", "/apis/apps/v1/namespaces/default/deployments/web", {{"spec", {{"replicas", 3}}}},
                     "application/merge-patch+json")
                    .body;
  EXPECT_EQ(scaled["metadata"]["generation"], 2);
  Json status = Call("PATCH", "/apis/apps/v1/namespaces/default/deployments/web/status",
                     {{"status", {{"observedGeneration", 2}}}, {"spec", {{"replicas", 7}}}},
                     "application/merge-patch+json")
                    .body;
  EXPECT_EQ(status["status"]["observedGeneration"], 2);
  EXPECT_EQ(status["spec"]["replicas"], 3) << "a status write changes only the status";
  EXPECT_EQ(status["metadata"]["generation"], 2);
}

TEST_F(ObjectApiTest, ScaleSubresource) {
  Json d = {{"apiVersion", "apps/v1"},
            {"kind", "Deployment"},
            {"metadata", {{"name", "web"}}},
            {"spec", {{"replicas", 1}, {"selector", {{"matchLabels", {{"app", "x"}}}}}}}};
  Call("POST", "/apis/apps/v1/namespaces/default/deployments", d);
  Json scale = Call("GET", "/apis/apps/v1/namespaces/default/deployments/web/scale").body;
  EXPECT_EQ(scale["kind"], "Scale");
  EXPECT_EQ(scale["apiVersion"], "autoscaling/v1");
  EXPECT_EQ(scale["spec"]["replicas"], 1);
  EXPECT_EQ(scale["status"]["selector"], "app=x");
  Json scaled = Call("PATCH", "/apis/apps/v1/namespaces/default/deployments/web/scale", {{"spec", {{"replicas", 4}}}},
                     "application/merge-patch+json")
                    .body;
  EXPECT_EQ(scaled["kind"], "Scale") << "a write to /scale answers the Scale";
  Json live = Call("GET", "/apis/apps/v1/namespaces/default/deployments/web").body;
  EXPECT_EQ(live["spec"]["replicas"], 4);
  EXPECT_EQ(live["metadata"]["generation"], 2);
  EXPECT_EQ(Refused("GET", "/api/v1/namespaces/default/configmaps/x/scale")["details"], Json::object())
      << "ConfigMaps have no scale subresource";
}

TEST_F(ObjectApiTest, JsonPatch) {
  Call("POST", "/api/v1/namespaces/default/configmaps", ConfigMap("app"));
  Json patched = Call("PATCH", "/api/v1/namespaces/default/configmaps/app",
                      Json::array({{{"op", "add"}, {"path", "/data/n"}, {"value", "1"}}}), "application/json-patch+json")
                     .body;
  EXPECT_EQ(patched["data"]["n"], "1");
  EXPECT_EQ(Refused("PATCH", "/api/v1/namespaces/default/configmaps/app", Json::object(), "text/plain")["code"], 415);
}

TEST_F(ObjectApiTest, ListSelectsByLabelsAndFieldsAcrossNamespaces) {
  Json a = ConfigMap("a");
  a["metadata"]["labels"] = {{"app", "x"}};
  Json b = ConfigMap("b");
  b["metadata"]["labels"] = {{"app", "y"}};
  Call("POST", "/api/v1/namespaces/default/configmaps", a);
  Call("POST", "/api/v1/namespaces/kube-system/configmaps", b);
  Call("POST", "/api/v1/namespaces/kube-system/configmaps", a);
  auto names = [&](const std::string& path, const std::string& query) {
    std::vector<std::string> out;
    KubeResponse list = Call("GET", path, nullptr, "", query);
    for (const Json& item : list.body["items"])
      out.push_back(item["metadata"]["namespace"].get<std::string>() + "/" + item["metadata"]["name"].get<std::string>());
    return out;
  };
  EXPECT_EQ(names("/api/v1/configmaps", ""), (std::vector<std::string>{"default/a", "kube-system/a", "kube-system/b"}));
  EXPECT_EQ(names("/api/v1/configmaps", "labelSelector=app=x"), (std::vector<std::string>{"default/a", "kube-system/a"}));
  EXPECT_EQ(names("/api/v1/namespaces/kube-system/configmaps", "labelSelector=app in (x,y)"),
            (std::vector<std::string>{"kube-system/a", "kube-system/b"}));
  EXPECT_EQ(names("/api/v1/configmaps", "fieldSelector=metadata.namespace=kube-system,metadata.name!=a"),
            (std::vector<std::string>{"kube-system/b"}));
  EXPECT_EQ(Refused("GET", "/api/v1/configmaps", nullptr, "", "labelSelector=app in x")["code"], 400);
}

TEST_F(ObjectApiTest, FinalizersHoldADeletion) {
  Json held = ConfigMap("held");
  held["metadata"]["finalizers"] = {"example.com/hold"};
  Call("POST", "/api/v1/namespaces/default/configmaps", held);
  Json deleting = Call("DELETE", "/api/v1/namespaces/default/configmaps/held").body;
  EXPECT_EQ(deleting["metadata"]["deletionTimestamp"], "2026-11-25T10:00:00Z");
  Json still = Call("GET", "/api/v1/namespaces/default/configmaps/held").body;
  still["metadata"]["finalizers"] = Json::array();
  Call("PUT", "/api/v1/namespaces/default/configmaps/held", still);
  EXPECT_EQ(Refused("GET", "/api/v1/namespaces/default/configmaps/held")["code"], 404);
}

TEST_F(ObjectApiTest, DeletingANamespaceDeletesItsContents) {
  Call("POST", "/api/v1/namespaces", {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", "team"}}}});
  Call("POST", "/api/v1/namespaces/team/configmaps", ConfigMap("a"));
  Call("DELETE", "/api/v1/namespaces/team");
  EXPECT_EQ(Refused("GET", "/api/v1/namespaces/team")["code"], 404);
  EXPECT_TRUE(Call("GET", "/api/v1/namespaces/team/configmaps").body["items"].empty());
}

TEST_F(ObjectApiTest, DryRunWritesNothing) {
  Json created = Call("POST", "/api/v1/namespaces/default/configmaps", ConfigMap("app"), "application/json", "dryRun=All").body;
  EXPECT_EQ(created["metadata"]["name"], "app");
  EXPECT_EQ(Refused("GET", "/api/v1/namespaces/default/configmaps/app")["code"], 404);
  EXPECT_EQ(Refused("POST", "/api/v1/namespaces/default/configmaps", ConfigMap("app"), "application/json",
                    "dryRun=Some")["code"],
            400);
}

TEST_F(ObjectApiTest, CrdServesItsKindAndTakesItsObjectsAway) {
  Json crd = Json::parse(R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
    "metadata":{"name":"widgets.example.com"},
    "spec":{"group":"example.com","scope":"Namespaced",
      "names":{"plural":"widgets","singular":"widget","kind":"Widget","shortNames":["wd"]},
      "versions":[{"name":"v1","served":true,"storage":true,"subresources":{"status":{}},
        "schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}})");
  Json created = Call("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd).body;
  const Json& conditions = created["status"]["conditions"];
  ASSERT_EQ(conditions.size(), 2u);
  EXPECT_EQ(conditions[1]["type"], "Established");
  EXPECT_EQ(conditions[1]["status"], "True");
  Json widget = {{"apiVersion", "example.com/v1"}, {"kind", "Widget"}, {"metadata", {{"name", "w1"}}}, {"spec", {{"size", 3}}}};
  Json w = Call("POST", "/apis/example.com/v1/namespaces/default/widgets", widget).body;
  EXPECT_EQ(w["metadata"]["generation"], 1);
  Json no_rv = w;
  no_rv["metadata"].erase("resourceVersion");
  EXPECT_EQ(Refused("PUT", "/apis/example.com/v1/namespaces/default/widgets/w1", no_rv)["code"], 422)
      << "custom resources need a resourceVersion to be replaced";
  Call("DELETE", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com");
  EXPECT_EQ(Refused("GET", "/apis/example.com/v1/namespaces/default/widgets/w1")["details"], Json::object());
  EXPECT_TRUE(store_.ListResource("example.com", "widgets", "").empty());
}

TEST_F(ObjectApiTest, CrdProblemsAreInvalid) {
  Json crd = Json::parse(R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
    "metadata":{"name":"wrong.example.com"},
    "spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"widgets","kind":"Widget"},
      "versions":[{"name":"v1","served":true,"storage":false}]}})");
  Json status = Refused("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd);
  EXPECT_EQ(status["code"], 422);
  EXPECT_EQ(status["details"]["causes"].size(), 2u);
}

TEST_F(ObjectApiTest, ServerSideApplyCreatesRecordsAndConflicts) {
  std::string cm = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n  mode: fast\n";
  Json refused = Refused("PATCH", "/api/v1/namespaces/default/configmaps/app", nullptr, "application/apply-patch+yaml");
  EXPECT_EQ(refused["code"], 422) << "fieldManager is required for apply";
  KubeRequest req;
  auto apply = [&](const std::string& body, const std::string& query) {
    req.method = "PATCH";
    req.path = *ParseResourcePath("/api/v1/namespaces/default/configmaps/app");
    req.content_type = "application/apply-patch+yaml";
    req.body = body;
    req.query.clear();
    for (const char* part : {"fieldManager", "force"}) {
      size_t at = query.find(std::string(part) + "=");
      if (at == std::string::npos) continue;
      size_t end = query.find('&', at);
      req.query.emplace(part, query.substr(at + strlen(part) + 1, end == std::string::npos ? std::string::npos : end - at - strlen(part) - 1));
    }
    KubeResponse r = HandleObjectRequest(*ctx_, req);
    Reload();
    return r;
  };
  KubeResponse created = apply(cm, "fieldManager=tool");
  EXPECT_EQ(created.status, 201);
  EXPECT_EQ(created.body["metadata"]["namespace"], "default");
  ASSERT_EQ(created.body["metadata"]["managedFields"].size(), 1u);
  EXPECT_EQ(created.body["metadata"]["managedFields"][0]["manager"], "tool");
  EXPECT_EQ(created.body["metadata"]["managedFields"][0]["operation"], "Apply");
  KubeResponse again = apply(cm, "fieldManager=tool");
  EXPECT_EQ(again.status, 200);
  EXPECT_EQ(again.body["metadata"]["resourceVersion"], created.body["metadata"]["resourceVersion"])
      << "re-applying the same configuration writes nothing";
  std::string other = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n  mode: slow\n";
  try {
    apply(other, "fieldManager=ops");
    ADD_FAILURE() << "a conflicting apply was accepted";
  } catch (const KubeError& e) {
    EXPECT_EQ(e.code(), 409);
    EXPECT_EQ(e.status()["details"]["causes"][0]["reason"], "FieldManagerConflict");
    EXPECT_EQ(e.status()["details"]["causes"][0]["field"], ".data.mode");
  }
  KubeResponse forced = apply(other, "fieldManager=ops&force=true");
  EXPECT_EQ(forced.body["data"]["mode"], "slow");
}

TEST_F(ObjectApiTest, UpdatesRecordTheirManager) {
  Call("POST", "/api/v1/namespaces/default/configmaps", ConfigMap("app"), "application/json", "fieldManager=creator");
  Json patched = Call("PATCH", "/api/v1/namespaces/default/configmaps/app", {{"data", {{"n", "1"}}}},
                      "application/merge-patch+json")
                     .body;
  std::vector<std::string> managers;
  for (const Json& entry : patched["metadata"]["managedFields"]) managers.push_back(entry["manager"]);
  std::sort(managers.begin(), managers.end());
  EXPECT_EQ(managers, (std::vector<std::string>{"creator", "kubectl"})) << "no fieldManager: the User-Agent's program";
}

}  // namespace
}  // namespace strata::sandbox::k8s
