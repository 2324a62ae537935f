// The sandbox's EKS service, called directly with an in-memory world seeded with the subnets
// and roles the EC2 and IAM services would have made, and a clock the tests move forward.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "providers/aws/http/url.h"
#include "sandbox/service.h"
#include "sandbox/world.h"

namespace strata::sandbox {
namespace {

using namespace std::chrono_literals;

const std::string kClusterRole = "arn:aws:iam::111122223333:role/eks-cluster";
const std::string kNodeRole = "arn:aws:iam::111122223333:role/eks-node";

struct Result {
  int status = 0;
  Json body;
  std::string code;  //!< the error code, empty on success
  std::string message() const { return body.value("message", ""); }
};

class EksServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    world_ = World::Open("");
    service_ = NewEksService();
    settings_.cluster_delay = 3s;
    settings_.nodegroup_delay = 2s;
    settings_.addon_delay = 1s;
    now_ = std::chrono::system_clock::time_point(std::chrono::seconds(1'800'000'000));
    // As the EC2 service keeps them (ec2_store.h, ec2_subnets.cc).
    PutSubnet("subnet-a", "vpc-1", "us-east-1a");
    PutSubnet("subnet-b", "vpc-1", "us-east-1b");
    PutSubnet("subnet-c", "vpc-1", "us-east-1a");
    PutSubnet("subnet-x", "vpc-2", "us-east-1b");
    world_->Put(
        "ec2.security_group", "sg-1",
        {{"id", "sg-1"}, {"region", "us-east-1"}, {"vpcId", "vpc-1"}, {"tags", Json::object()}});
    // As the IAM service keeps them (iam_roles.cc): by lower-cased name, with the ARN.
    world_->Put("iam_role", "eks-cluster", {{"RoleName", "eks-cluster"}, {"Arn", kClusterRole}});
    world_->Put("iam_role", "eks-node", {{"RoleName", "eks-node"}, {"Arn", kNodeRole}});
  }

  void PutSubnet(const std::string& id, const std::string& vpc, const std::string& zone) {
    world_->Put("ec2.subnet", id,
                {{"id", id},
                 {"region", "us-east-1"},
                 {"vpcId", vpc},
                 {"availabilityZone", zone},
                 {"tags", Json::object()}});
  }

  Result Call(const std::string& method, const std::string& path, const Json& body = nullptr,
              const std::multimap<std::string, std::string>& query = {}) {
    Request request;
    request.method = method;
    request.path = path;
    request.query = query;
    request.body = body.is_null() ? "" : body.dump();
    request.service = "eks";
    request.region = "us-east-1";
    request.account_id = "111122223333";
    request.request_id = "req-1";
    return CallWith(request);
  }

  Result CallWith(const Request& request) {
    ServiceContext ctx{*world_,        request, settings_, now_, "https://127.0.0.1:9443",
                       "-----PEM-----"};
    try {
      Response response = service_->Handle(ctx);
      EXPECT_EQ(response.content_type, "application/json");
      return Result{response.status, Json::parse(response.body), ""};
    } catch (const ApiError& e) {
      return Result{e.status, Json{{"message", e.what()}}, e.code};
    }
  }

  //! Calls a query-protocol service (EC2, IAM) on the same world; true when it answered 200.
  bool CallQuery(Service& service, const std::string& signing_name, const aws::QueryParams& form) {
    Request request;
    request.method = "POST";
    request.path = "/";
    request.headers["content-type"] = "application/x-www-form-urlencoded; charset=utf-8";
    request.body = aws::EncodeQuery(form);
    request.service = signing_name;
    request.region = "us-east-1";
    request.account_id = "111122223333";
    ServiceContext ctx{*world_, request, settings_, now_, "https://127.0.0.1:9443", ""};
    try {
      return service.Handle(ctx).status == 200;
    } catch (const ApiError& e) {
      ADD_FAILURE() << signing_name << " refused: " << e.code << " " << e.what();
      return false;
    }
  }

  Json ClusterRequest(const std::string& name) {
    return {{"name", name},
            {"roleArn", kClusterRole},
            {"resourcesVpcConfig",
             {{"subnetIds", {"subnet-a", "subnet-b"}}, {"securityGroupIds", {"sg-1"}}}}};
  }

  //! Creates `name` and waits until it is ACTIVE.
  void ActiveCluster(const std::string& name) {
    ASSERT_EQ(Call("POST", "/clusters", ClusterRequest(name)).status, 200);
    now_ += 3s;
  }

  Json NodegroupRequest(const std::string& name) {
    return {{"nodegroupName", name},
            {"nodeRole", kNodeRole},
            {"subnets", {"subnet-a", "subnet-b"}},
            {"scalingConfig", {{"minSize", 0}, {"maxSize", 3}, {"desiredSize", 0}}}};
  }

  std::unique_ptr<World> world_;
  std::unique_ptr<Service> service_;
  SandboxSettings settings_;
  std::chrono::system_clock::time_point now_;
};

TEST_F(EksServiceTest, ClusterIsCreatingThenActiveWithEndpointCaAndIssuer) {
  Json request = ClusterRequest("demo");
  request["logging"] = {{"clusterLogging", {{{"types", {"api", "audit"}}, {"enabled", true}}}}};
  request["tags"] = {{"team", "core"}};
  Result created = Call("POST", "/clusters", request);
  ASSERT_EQ(created.status, 200) << created.message();
  const Json& cluster = created.body["cluster"];
  EXPECT_EQ(cluster["status"], "CREATING");
  EXPECT_EQ(cluster["name"], "demo");
  EXPECT_EQ(cluster["arn"], "arn:aws:eks:us-east-1:111122223333:cluster/demo");
  EXPECT_EQ(cluster["version"], "1.31");
  EXPECT_EQ(cluster["platformVersion"], "eks.1");
  EXPECT_FALSE(cluster.contains("endpoint"));
  EXPECT_EQ(cluster["certificateAuthority"], Json::object());
  EXPECT_TRUE(cluster["createdAt"].is_number());
  EXPECT_EQ(cluster["resourcesVpcConfig"]["vpcId"], "vpc-1");
  EXPECT_EQ(cluster["resourcesVpcConfig"]["endpointPublicAccess"], true);
  EXPECT_EQ(cluster["resourcesVpcConfig"]["endpointPrivateAccess"], false);
  EXPECT_EQ(cluster["resourcesVpcConfig"]["publicAccessCidrs"], Json({"0.0.0.0/0"}));
  EXPECT_EQ(cluster["resourcesVpcConfig"]["clusterSecurityGroupId"].get<std::string>().substr(0, 3),
            "sg-");
  EXPECT_EQ(cluster["kubernetesNetworkConfig"]["serviceIpv4Cidr"], "172.20.0.0/16");
  EXPECT_EQ(cluster["kubernetesNetworkConfig"]["ipFamily"], "ipv4");
  EXPECT_EQ(cluster["logging"]["clusterLogging"][0]["types"], Json({"api", "audit"}));
  EXPECT_EQ(cluster["logging"]["clusterLogging"][0]["enabled"], true);
  EXPECT_EQ(cluster["accessConfig"]["authenticationMode"], "CONFIG_MAP");
  EXPECT_EQ(cluster["tags"]["team"], "core");

  now_ += 2999ms;
  EXPECT_EQ(Call("GET", "/clusters/demo").body["cluster"]["status"], "CREATING");
  now_ += 1ms;
  Result described = Call("GET", "/clusters/demo");
  ASSERT_EQ(described.status, 200);
  const Json& active = described.body["cluster"];
  EXPECT_EQ(active["status"], "ACTIVE");
  EXPECT_EQ(active["endpoint"], "https://127.0.0.1:9443/clusters/demo");
  EXPECT_EQ(active["certificateAuthority"]["data"], "LS0tLS1QRU0tLS0tLQ==");
  // "https://oidc.eks.us-east-1.amazonaws.com/id/" and 32 upper-case hex digits.
  const std::string issuer = active["identity"]["oidc"]["issuer"].get<std::string>();
  const std::string issuer_prefix = "https://oidc.eks.us-east-1.amazonaws.com/id/";
  ASSERT_EQ(issuer.size(), issuer_prefix.size() + 32) << issuer;
  EXPECT_EQ(issuer.substr(0, issuer_prefix.size()), issuer_prefix);
  EXPECT_TRUE(std::all_of(issuer.begin() + static_cast<std::ptrdiff_t>(issuer_prefix.size()), issuer.end(),
                          [](char c) { return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F'); }))
      << issuer;
  EXPECT_EQ(active["id"], cluster["id"]);
}

TEST_F(EksServiceTest, ClientRequestTokenMakesCreateIdempotent) {
  Json request = ClusterRequest("demo");
  request["clientRequestToken"] = "token-1";
  Result first = Call("POST", "/clusters", request);
  ASSERT_EQ(first.status, 200) << first.message();
  Result again = Call("POST", "/clusters", request);
  ASSERT_EQ(again.status, 200) << again.message();
  EXPECT_EQ(again.body["cluster"]["id"], first.body["cluster"]["id"]);
  EXPECT_EQ(again.body["cluster"]["clientRequestToken"], "token-1");

  request["clientRequestToken"] = "token-2";
  Result other = Call("POST", "/clusters", request);
  EXPECT_EQ(other.status, 409);
  EXPECT_EQ(other.code, "ResourceInUseException");
  EXPECT_EQ(other.message(), "Cluster already exists with name: demo");
  request.erase("clientRequestToken");
  EXPECT_EQ(Call("POST", "/clusters", request).code, "ResourceInUseException");
}

TEST_F(EksServiceTest, CreateClusterRefusesBadInput) {
  Json no_role = ClusterRequest("demo");
  no_role["roleArn"] = "arn:aws:iam::111122223333:role/missing";
  Result refused = Call("POST", "/clusters", no_role);
  EXPECT_EQ(refused.status, 400);
  EXPECT_EQ(refused.code, "InvalidParameterException");
  EXPECT_EQ(refused.message(),
            "Role with arn: arn:aws:iam::111122223333:role/missing, does not exist");

  Json one_zone = ClusterRequest("demo");
  one_zone["resourcesVpcConfig"]["subnetIds"] = {"subnet-a", "subnet-c"};
  Result zones = Call("POST", "/clusters", one_zone);
  EXPECT_EQ(zones.code, "InvalidParameterException");
  EXPECT_EQ(zones.message(), "Subnets specified must be in at least two different AZs");

  Json unknown_subnet = ClusterRequest("demo");
  unknown_subnet["resourcesVpcConfig"]["subnetIds"] = {"subnet-a", "subnet-zzz"};
  EXPECT_NE(Call("POST", "/clusters", unknown_subnet).message().find("subnet-zzz"),
            std::string::npos);

  Json unknown_group = ClusterRequest("demo");
  unknown_group["resourcesVpcConfig"]["securityGroupIds"] = {"sg-nope"};
  EXPECT_NE(Call("POST", "/clusters", unknown_group).message().find("sg-nope"), std::string::npos);

  Json no_name = ClusterRequest("demo");
  no_name.erase("name");
  Result missing = Call("POST", "/clusters", no_name);
  EXPECT_EQ(missing.code, "InvalidParameterException");
  EXPECT_NE(missing.message().find("name"), std::string::npos);

  Json bad_version = ClusterRequest("demo");
  bad_version["version"] = "1.10";
  EXPECT_EQ(Call("POST", "/clusters", bad_version).code, "InvalidParameterException");

  Request bad_json;
  bad_json.method = "POST";
  bad_json.path = "/clusters";
  bad_json.body = "{not json";
  bad_json.region = "us-east-1";
  EXPECT_EQ(CallWith(bad_json).code, "BadRequestException");

  Result unknown = Call("GET", "/fargate");
  EXPECT_EQ(unknown.status, 404);
  EXPECT_NE(unknown.message().find("GET /fargate"), std::string::npos);

  Result not_found = Call("GET", "/clusters/nope");
  EXPECT_EQ(not_found.status, 404);
  EXPECT_EQ(not_found.code, "ResourceNotFoundException");
  EXPECT_EQ(not_found.message(), "No cluster found for name: nope.");
  // Nothing refused was kept.
  EXPECT_TRUE(Call("GET", "/clusters").body["clusters"].empty());
}

TEST_F(EksServiceTest, ListClustersPaginates) {
  for (const char* name : {"a", "b", "c"})
    ASSERT_EQ(Call("POST", "/clusters", ClusterRequest(name)).status, 200);
  Result first = Call("GET", "/clusters", nullptr, {{"maxResults", "2"}});
  ASSERT_EQ(first.status, 200);
  EXPECT_EQ(first.body["clusters"], Json({"a", "b"}));
  ASSERT_TRUE(first.body.contains("nextToken"));
  Result second =
      Call("GET", "/clusters", nullptr,
           {{"maxResults", "2"}, {"nextToken", first.body["nextToken"].get<std::string>()}});
  EXPECT_EQ(second.body["clusters"], Json({"c"}));
  EXPECT_FALSE(second.body.contains("nextToken"));
  EXPECT_EQ(Call("GET", "/clusters", nullptr, {{"maxResults", "0"}}).code,
            "InvalidParameterException");
  EXPECT_EQ(Call("GET", "/clusters", nullptr, {{"nextToken", "garbage"}}).code,
            "InvalidParameterException");
}

TEST_F(EksServiceTest, NodegroupNeedsActiveClusterAndScalesToZero) {
  ASSERT_EQ(Call("POST", "/clusters", ClusterRequest("demo")).status, 200);
  Result early = Call("POST", "/clusters/demo/node-groups", NodegroupRequest("ng"));
  EXPECT_EQ(early.status, 400);
  EXPECT_EQ(early.code, "InvalidRequestException");
  EXPECT_EQ(early.message(), "Cluster 'demo' is not in ACTIVE status");
  now_ += 3s;

  Json request = NodegroupRequest("ng");
  request["labels"] = {{"role", "worker"}};
  request["taints"] = {{{"key", "dedicated"}, {"value", "gpu"}, {"effect", "NO_SCHEDULE"}}};
  request["clientRequestToken"] = "ng-token";
  Result created = Call("POST", "/clusters/demo/node-groups", request);
  ASSERT_EQ(created.status, 200) << created.message();
  const Json& ng = created.body["nodegroup"];
  EXPECT_EQ(ng["status"], "CREATING");
  EXPECT_EQ(ng["clusterName"], "demo");
  EXPECT_EQ(ng["scalingConfig"], Json({{"minSize", 0}, {"maxSize", 3}, {"desiredSize", 0}}));
  EXPECT_EQ(ng["instanceTypes"], Json({"t3.medium"}));
  EXPECT_EQ(ng["capacityType"], "ON_DEMAND");
  EXPECT_EQ(ng["amiType"], "AL2023_x86_64_STANDARD");  // EKS's default from 1.30 on
  EXPECT_EQ(ng["diskSize"], 20);
  EXPECT_EQ(ng["version"], "1.31");
  EXPECT_EQ(ng["nodeRole"], kNodeRole);
  EXPECT_EQ(ng["labels"]["role"], "worker");
  EXPECT_EQ(ng["taints"][0]["effect"], "NO_SCHEDULE");
  EXPECT_EQ(ng["updateConfig"], Json({{"maxUnavailable", 1}}));
  EXPECT_FALSE(ng.contains("remoteAccess"));
  std::string arn = ng["nodegroupArn"];
  EXPECT_EQ(arn.rfind("arn:aws:eks:us-east-1:111122223333:nodegroup/demo/ng/", 0), 0u);
  std::string uuid = arn.substr(arn.rfind('/') + 1);
  EXPECT_EQ(ng["resources"]["autoScalingGroups"][0]["name"], "eks-ng-" + uuid);

  Result again = Call("POST", "/clusters/demo/node-groups", request);
  EXPECT_EQ(again.status, 200);
  EXPECT_EQ(again.body["nodegroup"]["nodegroupArn"], arn);
  request.erase("clientRequestToken");
  EXPECT_EQ(Call("POST", "/clusters/demo/node-groups", request).status, 409);

  now_ += 2s;
  EXPECT_EQ(Call("GET", "/clusters/demo/node-groups/ng").body["nodegroup"]["status"], "ACTIVE");
  EXPECT_EQ(Call("GET", "/clusters/demo/node-groups").body["nodegroups"], Json({"ng"}));
  EXPECT_EQ(Call("GET", "/clusters/demo/node-groups/other").message(),
            "No node group found for name: other.");
}

TEST_F(EksServiceTest, NodegroupScalingIsChecked) {
  ActiveCluster("demo");
  Json request = NodegroupRequest("ng");
  request["scalingConfig"] = {{"minSize", 2}, {"maxSize", 3}, {"desiredSize", 1}};
  Result refused = Call("POST", "/clusters/demo/node-groups", request);
  EXPECT_EQ(refused.code, "InvalidParameterException");
  EXPECT_EQ(refused.message(), "Minimum capacity 2 can't be greater than desired size 1");
  request["scalingConfig"] = {{"minSize", 1}, {"maxSize", 3}, {"desiredSize", 4}};
  EXPECT_EQ(Call("POST", "/clusters/demo/node-groups", request).code, "InvalidParameterException");
  request["scalingConfig"] = {{"minSize", 1}, {"maxSize", 3}, {"desiredSize", 2}};
  request["taints"] = {{{"key", "k"}, {"effect", "SOMETIMES"}}};
  EXPECT_EQ(Call("POST", "/clusters/demo/node-groups", request).code, "InvalidParameterException");
  request.erase("taints");
  request.erase("nodeRole");
  Result no_role = Call("POST", "/clusters/demo/node-groups", request);
  EXPECT_NE(no_role.message().find("nodeRole"), std::string::npos);
}

TEST_F(EksServiceTest, AmiTypesFollowTheKubernetesVersion) {
  Json old_cluster = ClusterRequest("old");
  old_cluster["version"] = "1.29";
  ASSERT_EQ(Call("POST", "/clusters", old_cluster).status, 200);
  Json new_cluster = ClusterRequest("new");
  new_cluster["version"] = "1.33";
  ASSERT_EQ(Call("POST", "/clusters", new_cluster).status, 200);
  now_ += 3s;
  // No AMI type named: Amazon Linux 2 before 1.30, Amazon Linux 2023 from 1.30 on.
  Result old_default = Call("POST", "/clusters/old/node-groups", NodegroupRequest("ng"));
  ASSERT_EQ(old_default.status, 200) << old_default.message();
  EXPECT_EQ(old_default.body["nodegroup"]["amiType"], "AL2_x86_64");
  Result new_default = Call("POST", "/clusters/new/node-groups", NodegroupRequest("ng"));
  ASSERT_EQ(new_default.status, 200) << new_default.message();
  EXPECT_EQ(new_default.body["nodegroup"]["amiType"], "AL2023_x86_64_STANDARD");
  // Amazon Linux 2 ends with 1.32.
  Json gpu = NodegroupRequest("gpu");
  gpu["amiType"] = "AL2_x86_64_GPU";
  Result refused = Call("POST", "/clusters/new/node-groups", gpu);
  EXPECT_EQ(refused.code, "InvalidParameterException");
  EXPECT_NE(refused.message().find("1.32 or earlier"), std::string::npos) << refused.message();
  gpu["amiType"] = "AL2023_x86_64_NVIDIA";
  EXPECT_EQ(Call("POST", "/clusters/new/node-groups", gpu).status, 200);
}

TEST_F(EksServiceTest, NodegroupConfigUpdatesInPlace) {
  ActiveCluster("demo");
  Json request = NodegroupRequest("ng");
  request["labels"] = {{"role", "worker"}, {"old", "x"}};
  request["taints"] = {{{"key", "dedicated"}, {"value", "gpu"}, {"effect", "NO_SCHEDULE"}}};
  ASSERT_EQ(Call("POST", "/clusters/demo/node-groups", request).status, 200);
  Json update = {{"scalingConfig", {{"desiredSize", 2}}},
                 {"labels", {{"addOrUpdateLabels", {{"role", "api"}}}, {"removeLabels", {"old"}}}},
                 {"taints",
                  {{"addOrUpdateTaints",
                    {{{"key", "spot"}, {"value", "true"}, {"effect", "PREFER_NO_SCHEDULE"}}}},
                   {"removeTaints", {{{"key", "dedicated"}, {"effect", "NO_SCHEDULE"}}}}}}};
  Result busy = Call("POST", "/clusters/demo/node-groups/ng/update-config", update);
  EXPECT_EQ(busy.status, 409);
  EXPECT_EQ(busy.code, "ResourceInUseException");
  now_ += 2s;

  Result started = Call("POST", "/clusters/demo/node-groups/ng/update-config", update);
  ASSERT_EQ(started.status, 200) << started.message();
  const Json& u = started.body["update"];
  EXPECT_EQ(u["status"], "InProgress");
  EXPECT_EQ(u["type"], "ConfigUpdate");
  EXPECT_TRUE(u["createdAt"].is_number());
  bool saw_desired = false;
  for (const Json& param : u["params"]) {
    if (param["type"] == "DesiredSize") saw_desired = param["value"] == "2";
  }
  EXPECT_TRUE(saw_desired);

  Json ng = Call("GET", "/clusters/demo/node-groups/ng").body["nodegroup"];
  EXPECT_EQ(ng["status"], "UPDATING");
  EXPECT_EQ(ng["scalingConfig"], Json({{"minSize", 0}, {"maxSize", 3}, {"desiredSize", 2}}));
  EXPECT_EQ(ng["labels"], Json({{"role", "api"}}));
  ASSERT_EQ(ng["taints"].size(), 1u);
  EXPECT_EQ(ng["taints"][0]["key"], "spot");

  std::string id = u["id"];
  Result in_progress =
      Call("GET", "/clusters/demo/updates/" + id, nullptr, {{"nodegroupName", "ng"}});
  EXPECT_EQ(in_progress.body["update"]["status"], "InProgress");
  now_ += 2s;
  EXPECT_EQ(Call("GET", "/clusters/demo/updates/" + id, nullptr, {{"nodegroupName", "ng"}})
                .body["update"]["status"],
            "Successful");
  EXPECT_EQ(Call("GET", "/clusters/demo/node-groups/ng").body["nodegroup"]["status"], "ACTIVE");
  EXPECT_EQ(
      Call("GET", "/clusters/demo/updates", nullptr, {{"nodegroupName", "ng"}}).body["updateIds"],
      Json({id}));
  EXPECT_EQ(Call("GET", "/clusters/demo/updates/nope").code, "ResourceNotFoundException");

  Result bad = Call("POST", "/clusters/demo/node-groups/ng/update-config",
                    {{"scalingConfig", {{"maxSize", 1}, {"desiredSize", 2}}}});
  EXPECT_EQ(bad.code, "InvalidParameterException");
  Result version = Call("POST", "/clusters/demo/node-groups/ng/update-version", Json::object());
  ASSERT_EQ(version.status, 200) << version.message();
  EXPECT_EQ(version.body["update"]["type"], "VersionUpdate");
}

TEST_F(EksServiceTest, ClusterDeleteWaitsForNodegroupsAndTakesAddonsAlong) {
  ActiveCluster("demo");
  ASSERT_EQ(Call("POST", "/clusters/demo/node-groups", NodegroupRequest("ng")).status, 200);
  ASSERT_EQ(Call("POST", "/clusters/demo/addons", {{"addonName", "vpc-cni"}}).status, 200);
  Result refused = Call("DELETE", "/clusters/demo");
  EXPECT_EQ(refused.status, 409);
  EXPECT_EQ(refused.code, "ResourceInUseException");
  EXPECT_EQ(refused.message(), "Cluster has nodegroups attached");

  Result deleting = Call("DELETE", "/clusters/demo/node-groups/ng");
  ASSERT_EQ(deleting.status, 200);
  EXPECT_EQ(deleting.body["nodegroup"]["status"], "DELETING");
  EXPECT_EQ(Call("DELETE", "/clusters/demo").status, 409);
  now_ += 2s;
  EXPECT_EQ(Call("GET", "/clusters/demo/node-groups/ng").status, 404);

  Result cluster = Call("DELETE", "/clusters/demo");
  ASSERT_EQ(cluster.status, 200) << cluster.message();
  EXPECT_EQ(cluster.body["cluster"]["status"], "DELETING");
  EXPECT_EQ(Call("GET", "/clusters/demo/addons/vpc-cni").body["addon"]["status"], "DELETING");
  now_ += 3s;
  Result gone = Call("GET", "/clusters/demo");
  EXPECT_EQ(gone.status, 404);
  EXPECT_EQ(gone.message(), "No cluster found for name: demo.");
  EXPECT_TRUE(world_->List("eks.addon").empty());
  // The name is free again.
  EXPECT_EQ(Call("POST", "/clusters", ClusterRequest("demo")).status, 200);
}

TEST_F(EksServiceTest, ClusterSecurityGroupIsAnEc2GroupDeletedWithTheCluster) {
  ActiveCluster("demo");
  std::string id = Call("GET", "/clusters/demo").body["cluster"]["resourcesVpcConfig"]["clusterSecurityGroupId"];
  std::optional<Json> group = world_->Get("ec2.security_group", id);
  ASSERT_TRUE(group.has_value()) << id << " is not an EC2 security group";
  EXPECT_EQ((*group)["vpcId"], "vpc-1");
  EXPECT_EQ((*group)["groupName"].get<std::string>().rfind("eks-cluster-sg-demo-", 0), 0u);
  EXPECT_EQ((*group)["tags"]["kubernetes.io/cluster/demo"], "owned");
  EXPECT_EQ((*group)["tags"]["aws:eks:cluster-name"], "demo");
  EXPECT_EQ(world_->List("ec2.security_group_rule").size(), 2u);  // all from itself, all out

  ASSERT_EQ(Call("DELETE", "/clusters/demo").status, 200);
  now_ += 3s;
  EXPECT_EQ(Call("GET", "/clusters/demo").status, 404);
  EXPECT_FALSE(world_->Get("ec2.security_group", id).has_value());
  EXPECT_TRUE(world_->List("ec2.security_group_rule").empty());
}

TEST_F(EksServiceTest, AnAddonVersionOutsideTheCatalogueMustBeShapedAsEksShapesThem) {
  ActiveCluster("demo");
  // A version outside the catalogue is taken when it is shaped as EKS's are.
  EXPECT_EQ(Call("POST", "/clusters/demo/addons", {{"addonName", "vpc-cni"}, {"addonVersion", "1.19.0"}}).code,
            "InvalidParameterException");
  EXPECT_EQ(Call("POST", "/clusters/demo/addons", {{"addonName", "vpc-cni"}, {"addonVersion", "v1.19.0-eksbuild"}}).code,
            "InvalidParameterException");
  EXPECT_EQ(Call("POST", "/clusters/demo/addons", {{"addonName", "vpc-cni"}, {"addonVersion", "v1.99.0-eksbuild.7"}}).status,
            200);
}

TEST_F(EksServiceTest, AddonLifecycle) {
  ActiveCluster("demo");
  Result created =
      Call("POST", "/clusters/demo/addons",
           {{"addonName", "coredns"}, {"tags", {{"a", "1"}}}, {"resolveConflicts", "OVERWRITE"}});
  ASSERT_EQ(created.status, 200) << created.message();
  const Json& addon = created.body["addon"];
  EXPECT_EQ(addon["status"], "CREATING");
  EXPECT_EQ(addon["addonVersion"], "v1.11.4-eksbuild.2");
  EXPECT_EQ(addon["clusterName"], "demo");
  EXPECT_EQ(addon["addonArn"].get<std::string>().rfind(
                "arn:aws:eks:us-east-1:111122223333:addon/demo/coredns/", 0),
            0u);
  EXPECT_EQ(Call("POST", "/clusters/demo/addons", {{"addonName", "coredns"}}).code,
            "ResourceInUseException");
  EXPECT_EQ(Call("POST", "/clusters/demo/addons", {{"addonName", "nope"}}).code,
            "InvalidParameterException");
  now_ += 1s;
  EXPECT_EQ(Call("GET", "/clusters/demo/addons/coredns").body["addon"]["status"], "ACTIVE");
  EXPECT_EQ(Call("GET", "/clusters/demo/addons").body["addons"], Json({"coredns"}));

  Result updated = Call(
      "POST", "/clusters/demo/addons/coredns/update",
      {{"addonVersion", "v1.11.3-eksbuild.1"}, {"configurationValues", "{\"replicaCount\":3}"}});
  ASSERT_EQ(updated.status, 200) << updated.message();
  EXPECT_EQ(updated.body["update"]["type"], "AddonUpdate");
  Json after = Call("GET", "/clusters/demo/addons/coredns").body["addon"];
  EXPECT_EQ(after["status"], "UPDATING");
  EXPECT_EQ(after["addonVersion"], "v1.11.3-eksbuild.1");
  EXPECT_EQ(after["configurationValues"], "{\"replicaCount\":3}");
  now_ += 1s;
  EXPECT_EQ(Call("DELETE", "/clusters/demo/addons/coredns").body["addon"]["status"], "DELETING");
  now_ += 1s;
  Result gone = Call("GET", "/clusters/demo/addons/coredns");
  EXPECT_EQ(gone.status, 404);
  EXPECT_EQ(gone.message(), "No addon: coredns found in cluster: demo");

  Result versions = Call("GET", "/addons/supported-versions", nullptr,
                         {{"addonName", "kube-proxy"}, {"kubernetesVersion", "1.31"}});
  ASSERT_EQ(versions.status, 200) << versions.message();
  EXPECT_EQ(versions.body["addons"][0]["addonVersions"][0]["addonVersion"], "v1.31.3-eksbuild.2");
  EXPECT_EQ(versions.body["addons"][0]["addonVersions"][0]["compatibilities"][0]["defaultVersion"],
            true);
}

// DescribeAddonVersions serves EKS's catalogue, AWS's and the community add-ons, filtered
// by type, owner and Kubernetes version as the API does.
TEST_F(EksServiceTest, AddonCatalogueFilters) {
  auto names = [&](const std::multimap<std::string, std::string>& query) {
    Result page = Call("GET", "/addons/supported-versions", nullptr, query);
    EXPECT_EQ(page.status, 200) << page.message();
    std::vector<std::string> out;
    for (const Json& addon : page.body["addons"]) out.push_back(addon["addonName"]);
    return out;
  };
  std::vector<std::string> all = names({{"maxResults", "100"}});
  EXPECT_GE(all.size(), 15u);
  for (const char* name : {"vpc-cni", "aws-mountpoint-s3-csi-driver", "amazon-cloudwatch-observability",
                           "metrics-server", "cert-manager"})
    EXPECT_NE(std::find(all.begin(), all.end(), name), all.end()) << name;
  std::vector<std::string> community = names({{"owners", "community"}, {"maxResults", "100"}});
  EXPECT_NE(std::find(community.begin(), community.end(), "metrics-server"), community.end());
  EXPECT_EQ(std::find(community.begin(), community.end(), "vpc-cni"), community.end());
  std::vector<std::string> storage = names({{"types", "storage"}, {"owners", "aws"}, {"maxResults", "100"}});
  EXPECT_EQ(storage, (std::vector<std::string>{"aws-ebs-csi-driver", "aws-efs-csi-driver",
                                               "aws-mountpoint-s3-csi-driver", "snapshot-controller"}));
  // adot is not offered for the newest version: it is left out there, as EKS does.
  std::vector<std::string> newest = names({{"kubernetesVersion", "1.33"}, {"maxResults", "100"}});
  EXPECT_EQ(std::find(newest.begin(), newest.end(), "adot"), newest.end());
  Result s3 = Call("GET", "/addons/supported-versions", nullptr, {{"addonName", "aws-mountpoint-s3-csi-driver"}});
  EXPECT_EQ(s3.body["addons"][0]["owner"], "aws");
  EXPECT_EQ(s3.body["addons"][0]["addonVersions"][0]["requiresIamPermissions"], true);
}

TEST_F(EksServiceTest, TagsByArn) {
  ActiveCluster("demo");
  std::string arn = "arn:aws:eks:us-east-1:111122223333:cluster/demo";
  ASSERT_EQ(Call("POST", "/tags/" + arn, {{"tags", {{"env", "dev"}, {"team", "core"}}}}).status,
            200);
  EXPECT_EQ(Call("GET", "/tags/" + arn).body["tags"], Json({{"env", "dev"}, {"team", "core"}}));
  ASSERT_EQ(
      Call("DELETE", "/tags/" + arn, nullptr, {{"tagKeys", "env"}, {"tagKeys", "nope"}}).status,
      200);
  EXPECT_EQ(Call("GET", "/tags/" + arn).body["tags"], Json({{"team", "core"}}));
  EXPECT_EQ(Call("GET", "/clusters/demo").body["cluster"]["tags"], Json({{"team", "core"}}));

  std::string ng_arn = Call("POST", "/clusters/demo/node-groups", NodegroupRequest("ng"))
                           .body["nodegroup"]["nodegroupArn"];
  ASSERT_EQ(Call("POST", "/tags/" + ng_arn, {{"tags", {{"k", "v"}}}}).status, 200);
  EXPECT_EQ(Call("GET", "/clusters/demo/node-groups/ng").body["nodegroup"]["tags"],
            Json({{"k", "v"}}));

  Result missing = Call("GET", "/tags/arn:aws:eks:us-east-1:111122223333:cluster/other");
  EXPECT_EQ(missing.status, 404);
  EXPECT_EQ(missing.code, "NotFoundException");
  EXPECT_EQ(Call("GET", "/tags/not-an-arn").code, "BadRequestException");
  EXPECT_EQ(Call("POST", "/tags/" + arn, {{"tags", {{"aws:reserved", "x"}}}}).code,
            "BadRequestException");
  EXPECT_EQ(Call("DELETE", "/tags/" + arn).code, "BadRequestException");
}

TEST_F(EksServiceTest, ClusterUpdates) {
  Json request = ClusterRequest("demo");
  request["version"] = "1.30";
  ASSERT_EQ(Call("POST", "/clusters", request).status, 200);
  Result early = Call("POST", "/clusters/demo/updates", {{"version", "1.31"}});
  EXPECT_EQ(early.status, 409);
  EXPECT_EQ(early.code, "ResourceInUseException");
  now_ += 3s;
  EXPECT_EQ(Call("POST", "/clusters/demo/updates", {{"version", "1.32"}}).code,
            "InvalidParameterException");
  Result started = Call("POST", "/clusters/demo/updates", {{"version", "1.31"}});
  ASSERT_EQ(started.status, 200) << started.message();
  EXPECT_EQ(started.body["update"]["type"], "VersionUpdate");
  EXPECT_EQ(started.body["update"]["status"], "InProgress");
  Json cluster = Call("GET", "/clusters/demo").body["cluster"];
  EXPECT_EQ(cluster["status"], "UPDATING");
  EXPECT_EQ(cluster["version"], "1.31");
  // One update at a time.
  EXPECT_EQ(Call("POST", "/clusters/demo/update-config", {{"logging", Json::object()}}).code,
            "ResourceInUseException");
  now_ += 3s;
  std::string id = started.body["update"]["id"];
  EXPECT_EQ(Call("GET", "/clusters/demo/updates/" + id).body["update"]["status"], "Successful");

  Result access =
      Call("POST", "/clusters/demo/update-config",
           {{"resourcesVpcConfig",
             {{"endpointPrivateAccess", true}, {"publicAccessCidrs", {"10.0.0.0/8"}}}}});
  ASSERT_EQ(access.status, 200) << access.message();
  EXPECT_EQ(access.body["update"]["type"], "EndpointAccessUpdate");
  now_ += 3s;
  Json vpc = Call("GET", "/clusters/demo").body["cluster"]["resourcesVpcConfig"];
  EXPECT_EQ(vpc["endpointPrivateAccess"], true);
  EXPECT_EQ(vpc["publicAccessCidrs"], Json({"10.0.0.0/8"}));

  Result logging =
      Call("POST", "/clusters/demo/update-config",
           {{"logging", {{"clusterLogging", {{{"types", {"scheduler"}}, {"enabled", true}}}}}}});
  ASSERT_EQ(logging.status, 200) << logging.message();
  EXPECT_EQ(logging.body["update"]["type"], "LoggingUpdate");
  now_ += 3s;
  EXPECT_EQ(Call("POST", "/clusters/demo/update-config",
                 {{"logging", Json::object()}, {"accessConfig", {{"authenticationMode", "API"}}}})
                .code,
            "InvalidParameterException");
}

// The subnets and role come from the EC2 and IAM services themselves, as in the sandbox.
TEST_F(EksServiceTest, SeesSubnetsAndRolesMadeByEc2AndIam) {
  std::unique_ptr<Service> ec2 = NewEc2Service();
  std::unique_ptr<Service> iam = NewIamService();
  const std::string trust =
      R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Service":"eks.amazonaws.com"},"Action":"sts:AssumeRole"}]})";
  ASSERT_TRUE(CallQuery(*iam, "iam",
                        {{"Action", "CreateRole"},
                         {"Version", "2010-05-08"},
                         {"RoleName", "Real-Cluster"},
                         {"AssumeRolePolicyDocument", trust}}));
  ASSERT_TRUE(CallQuery(
      *ec2, "ec2",
      {{"Action", "CreateVpc"}, {"Version", "2016-11-15"}, {"CidrBlock", "10.9.0.0/16"}}));
  std::string vpc;
  for (const auto& [id, object] : world_->List("ec2.vpc")) vpc = id;
  ASSERT_FALSE(vpc.empty());
  for (const auto& [cidr, zone] : std::vector<std::pair<std::string, std::string>>{
           {"10.9.1.0/24", "us-east-1a"}, {"10.9.2.0/24", "us-east-1b"}}) {
    ASSERT_TRUE(CallQuery(*ec2, "ec2",
                          {{"Action", "CreateSubnet"},
                           {"Version", "2016-11-15"},
                           {"VpcId", vpc},
                           {"CidrBlock", cidr},
                           {"AvailabilityZone", zone}}));
  }
  Json subnets = Json::array();
  for (const auto& [id, object] : world_->List("ec2.subnet")) {
    if (object.value("vpcId", "") == vpc) subnets.push_back(id);
  }
  ASSERT_EQ(subnets.size(), 2u);
  Json request = {{"name", "real"},
                  {"roleArn", "arn:aws:iam::111122223333:role/Real-Cluster"},
                  {"resourcesVpcConfig", {{"subnetIds", subnets}}}};
  Result created = Call("POST", "/clusters", request);
  ASSERT_EQ(created.status, 200) << created.message();
  EXPECT_EQ(created.body["cluster"]["resourcesVpcConfig"]["vpcId"], vpc);
}

}  // namespace
}  // namespace strata::sandbox
