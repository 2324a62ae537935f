// The sandbox cluster's controllers against an in-memory world: nodes follow node groups,
// workloads roll out after the delay (status written by kube-controller-manager through
// /status), DaemonSets schedule by selectors and tolerations, Jobs complete, claims bind,
// load balancers get host names.

#include "sandbox/kubernetes/controllers.h"

#include <gtest/gtest.h>

#include "providers/kubernetes/manifest/readiness.h"
#include "sandbox/kubernetes/workload_status.h"
#include "sandbox/world.h"

namespace strata::sandbox::k8s {
namespace {

constexpr int64_t kStart = 1'800'000'000'000;  // ms: the test's clock starts here

class ControllersTest : public ::testing::Test {
 protected:
  ControllersTest() : world_(World::Open("")), store_(*world_, "demo") {
    world_->Begin();
    Reload();
    EnsureDefaultNamespaces(*ctx_);
  }
  ~ControllersTest() override { world_->Commit(); }

  void Reload() {
    types_ = std::make_unique<ApiTypes>(ApiTypes::Load(store_));
    ctx_ = std::make_unique<ObjectApiContext>(ObjectApiContext{
        store_, *types_, "2027-01-15T08:00:00Z", [this] { return "uid-" + std::to_string(++uids_); },
        [](size_t n) { return std::string(n, 'x'); }});
  }

  // One request at `ms` after the start: controllers, the call, controllers after a write.
  KubeResponse Call(int64_t ms, const std::string& method, const std::string& path, const Json& body = nullptr) {
    ControllerInputs in{"us-west-2", groups_, kStart + ms, 1000};
    RunControllers(*ctx_, in);
    KubeRequest req;
    req.method = method;
    req.path = *ParseResourcePath(path);
    req.content_type = "application/json";
    req.body = body.is_null() ? "" : body.dump();
    req.user_agent = "kubectl/v1.32.4 (linux/amd64) kubernetes/abc";
    KubeResponse response = HandleObjectRequest(*ctx_, req);
    if (method != "GET") RunControllers(*ctx_, in);
    Reload();
    return response;
  }
  Json Get(int64_t ms, const std::string& path) { return Call(ms, "GET", path).body; }

  static Json Deployment(const std::string& name, int replicas) {
    Json pod = {{"containers", Json::array({{{"name", "c"}, {"image", "nginx"}}})}};
    Json spec = {{"replicas", replicas}, {"selector", {{"matchLabels", {{"app", name}}}}}};
    spec["template"] = {{"metadata", {{"labels", {{"app", name}}}}}, {"spec", pod}};
    return {{"apiVersion", "apps/v1"}, {"kind", "Deployment"}, {"metadata", {{"name", name}}}, {"spec", spec}};
  }
  static Json DaemonSet(const std::string& name, Json pod_spec) {
    pod_spec["containers"] = {{{"name", "c"}, {"image", "agent"}}};
    return {{"apiVersion", "apps/v1"},
            {"kind", "DaemonSet"},
            {"metadata", {{"name", name}}},
            {"spec",
             {{"selector", {{"matchLabels", {{"app", name}}}}},
              {"template", {{"metadata", {{"labels", {{"app", name}}}}}, {"spec", pod_spec}}}}}};
  }
  static NodeGroupView Group(const std::string& name, int64_t size, const std::string& instance_type) {
    NodeGroupView g;
    g.name = name;
    g.desired_size = size;
    g.instance_type = instance_type;
    g.zones = {"us-west-2a", "us-west-2b"};
    return g;
  }
  static bool Ready(const Json& object) {
    return kubernetes::RolloutState(object).readiness == kubernetes::Readiness::Ready;
  }

  std::unique_ptr<World> world_;
  ObjectStore store_;
  std::unique_ptr<ApiTypes> types_;
  std::unique_ptr<ObjectApiContext> ctx_;
  std::vector<NodeGroupView> groups_;
  int uids_ = 0;
};

TEST_F(ControllersTest, NodesFollowNodeGroupsWithLabelsTaintsAndGpuCapacity) {
  NodeGroupView gpu = Group("gpu", 2, "g5.xlarge");
  gpu.labels = {{"role", "ml"}};
  gpu.taints = {{{"key", "nvidia.com/gpu"}, {"value", "true"}, {"effect", "NO_SCHEDULE"}}};
  groups_ = {Group("general", 3, "m5.large"), gpu};
  Json nodes = Get(0, "/api/v1/nodes")["items"];
  ASSERT_EQ(nodes.size(), 5u);
  int gpus = 0;
  for (const Json& node : nodes) {
    const Json& labels = node["metadata"]["labels"];
    EXPECT_EQ(node["metadata"]["name"].get<std::string>().find("ip-10-"), 0u);
    EXPECT_NE(node["metadata"]["name"].get<std::string>().find(".us-west-2.compute.internal"), std::string::npos);
    EXPECT_EQ(labels["topology.kubernetes.io/zone"].get<std::string>().rfind("us-west-2", 0), 0u);
    EXPECT_EQ(node["status"]["conditions"].back()["type"], "Ready");
    EXPECT_EQ(node["status"]["conditions"].back()["status"], "True");
    if (labels[kNodegroupLabel] == "gpu") {
      ++gpus;
      EXPECT_EQ(labels["role"], "ml");
      EXPECT_EQ(labels["node.kubernetes.io/instance-type"], "g5.xlarge");
      EXPECT_EQ(node["status"]["capacity"]["nvidia.com/gpu"], "1");
      EXPECT_EQ(node["spec"]["taints"][0]["effect"], "NoSchedule");
    } else {
      EXPECT_FALSE(node["status"]["capacity"].contains("nvidia.com/gpu"));
      EXPECT_EQ(node["status"]["capacity"]["cpu"], "2");
    }
  }
  EXPECT_EQ(gpus, 2);

  groups_[0].desired_size = 1;  // scaled in
  EXPECT_EQ(Get(10, "/api/v1/nodes")["items"].size(), 3u);
  groups_.pop_back();  // deleted
  EXPECT_EQ(Get(20, "/api/v1/nodes")["items"].size(), 1u);
}

TEST_F(ControllersTest, NodesAreStableAcrossPassesAndLeaveOtherNodesAlone) {
  groups_ = {Group("general", 2, "t3.medium")};
  Json first = Get(0, "/api/v1/nodes");
  Json again = Get(100, "/api/v1/nodes");
  EXPECT_EQ(first, again);  // nothing written twice: same resourceVersions
  Call(200, "POST", "/api/v1/nodes", {{"apiVersion", "v1"}, {"kind", "Node"}, {"metadata", {{"name", "byo"}}}});
  groups_.clear();
  Json left = Get(300, "/api/v1/nodes")["items"];
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left[0]["metadata"]["name"], "byo");
}

TEST_F(ControllersTest, GpuTable) {
  EXPECT_EQ(CapacityOf("g4dn.xlarge").gpus, 1);
  EXPECT_EQ(CapacityOf("g4dn.12xlarge").gpus, 4);
  EXPECT_EQ(CapacityOf("g5.48xlarge").gpus, 8);
  EXPECT_EQ(CapacityOf("g6.2xlarge").gpus, 1);
  EXPECT_EQ(CapacityOf("p3.8xlarge").gpus, 4);
  EXPECT_EQ(CapacityOf("p4d.24xlarge").gpus, 8);
  EXPECT_EQ(CapacityOf("p5.48xlarge").gpus, 8);
  EXPECT_EQ(CapacityOf("m5.xlarge").gpus, 0);
  EXPECT_EQ(CapacityOf("m5.xlarge").cpu, 4);
  EXPECT_EQ(CapacityOf("c5.2xlarge").memory_mib, 16 * 1024);
}

TEST_F(ControllersTest, DeploymentRollsOutAfterTheDelayWrittenByTheControllerManager) {
  Call(0, "POST", "/apis/apps/v1/namespaces/default/deployments", Deployment("web", 2));
  Json early = Get(999, "/apis/apps/v1/namespaces/default/deployments/web");
  EXPECT_FALSE(early.contains("status"));
  EXPECT_FALSE(Ready(early));
  Json d = Get(1000, "/apis/apps/v1/namespaces/default/deployments/web");
  EXPECT_TRUE(Ready(d)) << d["status"].dump();
  EXPECT_EQ(d["status"]["observedGeneration"], 1);
  EXPECT_EQ(d["status"]["availableReplicas"], 2);
  EXPECT_GT(std::stoll(d["metadata"]["resourceVersion"].get<std::string>()),
            std::stoll(early["metadata"]["resourceVersion"].get<std::string>()));
  bool recorded = false;
  for (const Json& entry : d["metadata"]["managedFields"])
    if (entry["manager"] == "kube-controller-manager") {
      recorded = true;
      EXPECT_EQ(entry["operation"], "Update");
      EXPECT_EQ(entry["subresource"], "status");
      EXPECT_TRUE(entry["fieldsV1"].contains("f:status")) << entry.dump();
    }
  EXPECT_TRUE(recorded);
  // Reading again changes nothing.
  EXPECT_EQ(Get(5000, "/apis/apps/v1/namespaces/default/deployments/web"), d);

  // A spec change: not observed until the delay has passed again.
  Json scaled = d;
  scaled["spec"]["replicas"] = 3;
  Call(6000, "PUT", "/apis/apps/v1/namespaces/default/deployments/web", scaled);
  Json pending = Get(6500, "/apis/apps/v1/namespaces/default/deployments/web");
  EXPECT_EQ(pending["metadata"]["generation"], 2);
  EXPECT_FALSE(Ready(pending));
  Json done = Get(7000, "/apis/apps/v1/namespaces/default/deployments/web");
  EXPECT_TRUE(Ready(done));
  EXPECT_EQ(done["status"]["readyReplicas"], 3);
}

TEST_F(ControllersTest, StatefulSetRollsOutWithCurrentRevisionEqualToUpdateRevision) {
  Json ss = Deployment("db", 1);
  ss["kind"] = "StatefulSet";
  ss["spec"]["serviceName"] = "db";
  Call(0, "POST", "/apis/apps/v1/namespaces/default/statefulsets", ss);
  EXPECT_FALSE(Ready(Get(500, "/apis/apps/v1/namespaces/default/statefulsets/db")));
  Json done = Get(1000, "/apis/apps/v1/namespaces/default/statefulsets/db");
  EXPECT_TRUE(Ready(done)) << done.dump();
  EXPECT_EQ(done["status"]["currentRevision"], done["status"]["updateRevision"]);
}

TEST_F(ControllersTest, DaemonSetSchedulesOnMatchingNodesItTolerates) {
  NodeGroupView gpu = Group("gpu", 2, "g5.xlarge");
  gpu.labels = {{"role", "ml"}};
  gpu.taints = {{{"key", "nvidia.com/gpu"}, {"value", "true"}, {"effect", "NO_SCHEDULE"}}};
  groups_ = {Group("general", 3, "m5.large"), gpu};
  Call(0, "POST", "/apis/apps/v1/namespaces/default/daemonsets", DaemonSet("everywhere", Json::object()));
  Call(0, "POST", "/apis/apps/v1/namespaces/default/daemonsets",
       DaemonSet("gpu-plugin", {{"nodeSelector", {{"role", "ml"}}},
                                {"tolerations", {{{"key", "nvidia.com/gpu"}, {"operator", "Exists"}}}}}));
  Call(0, "POST", "/apis/apps/v1/namespaces/default/daemonsets",
       DaemonSet("nowhere", {{"nodeSelector", {{"role", "none"}}}}));
  Json nowhere = Get(1, "/apis/apps/v1/namespaces/default/daemonsets/nowhere");
  EXPECT_TRUE(Ready(nowhere)) << "0 desired is ready at once";
  EXPECT_EQ(nowhere["status"]["desiredNumberScheduled"], 0);
  EXPECT_FALSE(Ready(Get(1, "/apis/apps/v1/namespaces/default/daemonsets/everywhere")));
  Json everywhere = Get(1000, "/apis/apps/v1/namespaces/default/daemonsets/everywhere");
  EXPECT_EQ(everywhere["status"]["desiredNumberScheduled"], 3);  // the GPU nodes' taint is not tolerated
  EXPECT_EQ(everywhere["status"]["numberAvailable"], 3);
  EXPECT_TRUE(Ready(everywhere));
  Json plugin = Get(1000, "/apis/apps/v1/namespaces/default/daemonsets/gpu-plugin");
  EXPECT_EQ(plugin["status"]["desiredNumberScheduled"], 2);
  EXPECT_EQ(plugin["status"]["numberReady"], 2);
}

TEST_F(ControllersTest, Tolerations) {
  Json taint = {{"key", "k"}, {"value", "v"}, {"effect", "NoSchedule"}};
  EXPECT_TRUE(Tolerates({{"key", "k"}, {"operator", "Equal"}, {"value", "v"}}, taint));
  EXPECT_TRUE(Tolerates({{"key", "k"}, {"value", "v"}, {"effect", "NoSchedule"}}, taint));
  EXPECT_FALSE(Tolerates({{"key", "k"}, {"value", "w"}}, taint));
  EXPECT_FALSE(Tolerates({{"key", "k"}, {"operator", "Exists"}, {"effect", "NoExecute"}}, taint));
  EXPECT_TRUE(Tolerates({{"operator", "Exists"}}, taint));
  EXPECT_FALSE(Tolerates({{"key", "other"}, {"operator", "Exists"}}, taint));
  Json node = {{"metadata", {{"labels", {{"a", "1"}}}}},
               {"spec", {{"taints", {{{"key", "soft"}, {"effect", "PreferNoSchedule"}}}}}}};
  EXPECT_TRUE(Schedulable({{"nodeSelector", {{"a", "1"}}}}, node)) << "PreferNoSchedule does not keep pods away";
  EXPECT_FALSE(Schedulable({{"nodeSelector", {{"a", "2"}}}}, node));
}

TEST_F(ControllersTest, JobCompletesAfterTheDelay) {
  Json pod = {{"restartPolicy", "Never"}, {"containers", Json::array({{{"name", "c"}, {"image", "m"}}})}};
  Json job = {{"apiVersion", "batch/v1"}, {"kind", "Job"}, {"metadata", {{"name", "migrate"}}}};
  job["spec"] = {{"completions", 2}, {"template", {{"spec", pod}}}};
  Call(0, "POST", "/apis/batch/v1/namespaces/default/jobs", job);
  EXPECT_FALSE(Ready(Get(10, "/apis/batch/v1/namespaces/default/jobs/migrate")));
  Json done = Get(1500, "/apis/batch/v1/namespaces/default/jobs/migrate");
  EXPECT_TRUE(Ready(done)) << done.dump();
  EXPECT_EQ(done["status"]["succeeded"], 2);
}

TEST_F(ControllersTest, ClaimBindsToAMatchingVolumeOrWaits) {
  auto pv = [](const std::string& name, const std::string& size, const std::string& cls) {
    Json object = {{"apiVersion", "v1"}, {"kind", "PersistentVolume"}, {"metadata", {{"name", name}}}};
    object["spec"] = {{"capacity", {{"storage", size}}},
                      {"accessModes", Json::array({"ReadWriteOnce"})},
                      {"storageClassName", cls},
                      {"hostPath", {{"path", "/data"}}}};
    return object;
  };
  auto pvc = [](const std::string& name, const std::string& size, const std::string& cls) {
    Json object = {{"apiVersion", "v1"}, {"kind", "PersistentVolumeClaim"}, {"metadata", {{"name", name}}}};
    object["spec"] = {{"accessModes", Json::array({"ReadWriteOnce"})},
                      {"storageClassName", cls},
                      {"resources", {{"requests", {{"storage", size}}}}}};
    return object;
  };
  Call(0, "POST", "/apis/storage.k8s.io/v1/storageclasses",
       {{"apiVersion", "storage.k8s.io/v1"}, {"kind", "StorageClass"}, {"metadata", {{"name", "late"}}},
        {"provisioner", "ebs.csi.aws.com"}, {"volumeBindingMode", "WaitForFirstConsumer"}});
  Call(0, "POST", "/api/v1/persistentvolumes", pv("small", "1Gi", "manual"));
  Call(0, "POST", "/api/v1/persistentvolumes", pv("big", "10Gi", "manual"));
  Call(0, "POST", "/api/v1/namespaces/default/persistentvolumeclaims", pvc("data", "5Gi", "manual"));
  Call(0, "POST", "/api/v1/namespaces/default/persistentvolumeclaims", pvc("huge", "50Gi", "manual"));
  Call(0, "POST", "/api/v1/namespaces/default/persistentvolumeclaims", pvc("later", "1Gi", "late"));

  Json data = Get(1, "/api/v1/namespaces/default/persistentvolumeclaims/data");
  EXPECT_EQ(data["status"]["phase"], "Bound");
  EXPECT_EQ(data["spec"]["volumeName"], "big");
  EXPECT_TRUE(Ready(data));
  Json big = Get(1, "/api/v1/persistentvolumes/big");
  EXPECT_EQ(big["status"]["phase"], "Bound");
  EXPECT_EQ(big["spec"]["claimRef"]["name"], "data");
  EXPECT_EQ(big["spec"]["claimRef"]["uid"], data["metadata"]["uid"]);
  EXPECT_EQ(Get(1, "/api/v1/namespaces/default/persistentvolumeclaims/huge")["status"]["phase"], "Pending");
  Json later = Get(1, "/api/v1/namespaces/default/persistentvolumeclaims/later");
  EXPECT_EQ(later["status"]["phase"], "Pending");
  EXPECT_EQ(Get(1, "/api/v1/persistentvolumes/small")["status"]["phase"], "Available");
}

TEST_F(ControllersTest, LoadBalancersGetStableElbHostNames) {
  Json ports = Json::array({{{"port", 80}}});
  Call(0, "POST", "/api/v1/namespaces/default/services",
       {{"apiVersion", "v1"}, {"kind", "Service"}, {"metadata", {{"name", "lb"}}},
        {"spec", {{"type", "LoadBalancer"}, {"ports", ports}}}});
  Call(0, "POST", "/api/v1/namespaces/default/services",
       {{"apiVersion", "v1"}, {"kind", "Service"}, {"metadata", {{"name", "inside"}}}, {"spec", {{"ports", ports}}}});
  Json backend = {{"service", {{"name", "lb"}, {"port", {{"number", 80}}}}}};
  Call(0, "POST", "/apis/networking.k8s.io/v1/namespaces/default/ingresses",
       {{"apiVersion", "networking.k8s.io/v1"}, {"kind", "Ingress"}, {"metadata", {{"name", "site"}}},
        {"spec", {{"defaultBackend", backend}}}});
  Json lb = Get(1, "/api/v1/namespaces/default/services/lb");
  std::string host = lb["status"]["loadBalancer"]["ingress"][0]["hostname"];
  EXPECT_EQ(host.size(), std::string("a").size() + 32 + 1 + 10 + std::string(".us-west-2.elb.amazonaws.com").size())
      << host;
  EXPECT_EQ(host[0], 'a');
  EXPECT_NE(host.find(".us-west-2.elb.amazonaws.com"), std::string::npos);
  EXPECT_TRUE(Ready(lb));
  EXPECT_EQ(Get(50, "/api/v1/namespaces/default/services/lb"), lb);  // stable
  EXPECT_FALSE(Get(1, "/api/v1/namespaces/default/services/inside")["status"].contains("loadBalancer"));
  Call(2, "PUT", "/api/v1/namespaces/default/services/inside",
       {{"apiVersion", "v1"}, {"kind", "Service"}, {"metadata", {{"name", "inside"}}},
        {"spec", {{"type", "LoadBalancer"}, {"ports", ports}}}});
  EXPECT_TRUE(Get(3, "/api/v1/namespaces/default/services/inside")["status"].contains("loadBalancer"))
      << "a service that becomes a LoadBalancer gets its host name";
  Json site = Get(1, "/apis/networking.k8s.io/v1/namespaces/default/ingresses/site");
  std::string alb = site["status"]["loadBalancer"]["ingress"][0]["hostname"];
  EXPECT_EQ(alb.rfind("k8s-default-site-", 0), 0u) << alb;
  EXPECT_NE(alb.find(".elb.us-west-2.amazonaws.com"), std::string::npos);
  EXPECT_TRUE(Ready(site));
}

TEST_F(ControllersTest, NamespacesAreActive) {
  Call(0, "POST", "/api/v1/namespaces", {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", "t"}}}});
  EXPECT_TRUE(Ready(Get(0, "/api/v1/namespaces/t")));
}

}  // namespace
}  // namespace strata::sandbox::k8s
