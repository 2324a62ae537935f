// Elastic Load Balancing v2 (awsQuery, API version 2015-12-01, signing name
// "elasticloadbalancing") as the sandbox serves it: application and network load balancers
// as a Kubernetes load-balancer controller or the AWS CLI makes them (CreateLoadBalancer,
// DescribeLoadBalancers, DeleteLoadBalancer, which deletes its listeners) and the tags of
// load balancers, target groups and listeners (AddTags, RemoveTags, DescribeTags); target
// groups and listeners are elbv2_target_groups.cc's. A load balancer is placed in EC2 subnets the sandbox has (an application
// load balancer in at least two Availability Zones, as AWS requires), is "provisioning" for
// SandboxSettings::load_balancer_delay and then "active", and gets AWS's DNS name shape and
// the real per-region canonical hosted zone id of its type (what Route 53 alias records
// name).
//
// Storage: World documents under "elbv2_load_balancer" keyed by ARN, holding the members
// DescribeLoadBalancers answers with under their AWS names ("LoadBalancerArn", "DNSName",
// "CanonicalHostedZoneId", "State": {"Code"}, ...), which other services read (Route 53
// checks alias targets by "DNSName" and "CanonicalHostedZoneId"), plus the sandbox's own
// lower-case members: "region", "tags" and "active_at_ms".

#include <algorithm>
#include <cctype>
#include <set>

#include "sandbox/services/elbv2/elbv2_actions.h"

namespace strata::sandbox {
namespace elbv2 {
namespace {

ApiError LoadBalancerNotFound() {
  return ApiError(400, "LoadBalancerNotFound", "One or more load balancers not found");
}
ApiError InvalidConfiguration(const std::string& message) {
  return ApiError(400, "InvalidConfigurationRequest", message);
}

//! The canonical hosted zone ids of Elastic Load Balancing's DNS names per region: for
//! application (and classic) load balancers, and for network load balancers
//! (https://docs.aws.amazon.com/general/latest/gr/elb.html).
struct HostedZones {
  const char* region;
  const char* application;
  const char* network;
};
constexpr HostedZones kHostedZones[] = {
    {"us-east-1", "Z35SXDOTRQ7X7K", "Z26RNL4JYFTOTI"},      {"us-east-2", "Z3AADJGX6KTTL2", "ZLMOA37VPKANP"},
    {"us-west-1", "Z368ELLRRE2KJ0", "Z24FKFUX50B4VW"},      {"us-west-2", "Z1H1FL5HABSF5", "Z18D5FSROUN65G"},
    {"ca-central-1", "ZQSVJUPU6J1EY", "Z2EPGBW3API2WT"},    {"af-south-1", "Z268VQBMOI5EKX", "Z203XCE67M25HM"},
    {"ap-east-1", "Z3DQVH9N71FHZ0", "Z12Y7K3UBGUAD1"},      {"ap-south-1", "ZP97RAFLXTNZK", "ZVDDRBQ08TROA"},
    {"ap-northeast-1", "Z14GRHDCWA56QT", "Z31USIVHYNEOWT"}, {"ap-northeast-2", "ZWKZPGTI48KDX", "ZIBE1TIR4HY56"},
    {"ap-northeast-3", "Z5LXEXXYW11ES", "Z1GWIQ4HH19I5X"},  {"ap-southeast-1", "Z1LMS91P8CMLE5", "ZKVM4W9LS7TM"},
    {"ap-southeast-2", "Z1GM3OXH4ZPM65", "ZCT6FZBF4DROD"},  {"eu-central-1", "Z215JYRZR1TBD5", "Z3F0SRJ5LGBH90"},
    {"eu-west-1", "Z32O12XQLNTSW2", "Z2IFOLAFXWLO4F"},      {"eu-west-2", "ZHURV8PSTC4K8", "ZD4D7Y8KGAS4G"},
    {"eu-west-3", "Z3Q77PNBQS71R4", "Z1CMS0P5QUZ6D5"},      {"eu-north-1", "Z23TAZ6LKFMNIO", "Z1UDT6IFJ4EJM"},
    {"eu-south-1", "Z3ULH7SSC9OV64", "Z23146JA1KNAFP"},     {"me-south-1", "ZS929ML54UICD", "Z3QSRYVP46NYYV"},
    {"sa-east-1", "Z2P70J7HTTTPLU", "ZTK26PT1VY4CU"},       {"us-gov-west-1", "Z33AYJ8TM3BH4J", "ZMG1MZ2THAWF1"},
    {"us-gov-east-1", "Z166TLBEWOO7G0", "Z1ZSMQQ6Q24QQ8"},  {"cn-north-1", "Z1GDH35T77C1KE", "Z3QFB96KMJ7ED6"},
    {"cn-northwest-1", "ZM7IZAIOVVDZF", "ZQEIKTCZ8352D"},
};

std::string HostedZoneOf(const std::string& region, const std::string& type) {
  for (const HostedZones& zones : kHostedZones) {
    if (region == zones.region) return type == "network" ? zones.network : zones.application;
  }
  throw InvalidConfiguration("The sandbox does not know Elastic Load Balancing's hosted zone in region '" + region +
                             "'; use one of AWS's commercial, GovCloud or China regions.");
}

std::string DnsSuffix(const std::string& region) {
  return region.rfind("cn-", 0) == 0 ? "amazonaws.com.cn" : "amazonaws.com";
}

// EC2 keeps one document per object under "ec2.<kind>" keyed by id, with its "region" and
// members in EC2's element names (sandbox/services/ec2/ec2_store.h). Only read here.
std::optional<Json> FindElbEc2Object(const ServiceContext& ctx, const char* kind, const std::string& id) {
  std::optional<Json> object = ctx.world.Get(kind, id);
  if (!object || !object->is_object()) return std::nullopt;
  std::string region = object->value("region", "");
  if (!region.empty() && region != ctx.request.region && region != RegionOf(ctx)) return std::nullopt;
  return object;
}

int64_t NowMs(const ServiceContext& ctx) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(ctx.now.time_since_epoch()).count();
}

//! The load balancer document with its state brought up to date (provisioning → active).
Json Refreshed(ServiceContext& ctx, Json lb) {
  if (lb["State"].value("Code", "") == "provisioning" && NowMs(ctx) >= lb.value("active_at_ms", int64_t{0})) {
    lb["State"] = {{"Code", "active"}};
    ctx.world.Put(kLoadBalancerKind, lb["LoadBalancerArn"].get<std::string>(), lb);
  }
  return lb;
}

//! The call's region's load balancers, oldest first.
std::vector<Json> LoadBalancersIn(ServiceContext& ctx) {
  std::vector<Json> out;
  for (auto& [arn, lb] : ctx.world.List(kLoadBalancerKind)) {
    if (lb.value("region", "") == RegionOf(ctx)) out.push_back(Refreshed(ctx, lb));
  }
  return out;
}


void CheckName(const std::string& name) {
  bool ok = !name.empty() && name.size() <= 32 && name.front() != '-' && name.back() != '-';
  for (char c : name) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '-');
  if (!ok) {
    throw ElbValidation("The load balancer name '" + name +
                        "' must be 1 to 32 letters, digits and hyphens, and must not begin or end with a hyphen");
  }
  if (name.rfind("internal-", 0) == 0) throw ElbValidation("Load balancer names cannot start with 'internal-'");
}


//! The subnets of the call (Subnets.member.N, or SubnetMappings.member.N.SubnetId) as
//! [{"SubnetId", "ZoneName"}], all in one VPC, whose id goes to `vpc`.
Json PlacedSubnets(const QueryCall& call, const std::string& type, std::string& vpc) {
  std::vector<std::string> ids = call.params.MemberList("Subnets");
  for (const auto& [n, fields] : call.params.MemberStructs("SubnetMappings")) {
    auto id = fields.find("SubnetId");
    if (id != fields.end()) ids.push_back(id->second);
  }
  if (ids.empty()) throw ElbValidation("A load balancer must be placed in subnets: give Subnets or SubnetMappings");
  Json placed = Json::array();
  std::set<std::string> zones;
  for (const std::string& id : ids) {
    std::optional<Json> subnet = FindElbEc2Object(call.ctx, "ec2.subnet", id);
    if (!subnet) throw ApiError(400, "SubnetNotFound", "The subnet ID '" + id + "' is not valid");
    std::string subnet_vpc = subnet->value("vpcId", "");
    if (!vpc.empty() && subnet_vpc != vpc) throw InvalidConfiguration("All subnets must belong to the same VPC");
    vpc = subnet_vpc;
    std::string zone = subnet->value("availabilityZone", "");
    if (!zones.insert(zone).second) {
      throw InvalidConfiguration("A load balancer cannot be attached to multiple subnets in the same Availability Zone");
    }
    placed.push_back({{"SubnetId", id}, {"ZoneName", zone}});
  }
  if (type == "application" && zones.size() < 2) {
    throw ElbValidation("At least two subnets in two different Availability Zones must be specified");
  }
  return placed;
}

std::vector<std::string> CheckedSecurityGroups(const QueryCall& call, const std::string& type, const std::string& vpc) {
  std::vector<std::string> groups = call.params.MemberList("SecurityGroups");
  for (const std::string& id : groups) {
    std::optional<Json> group = FindElbEc2Object(call.ctx, "ec2.security_group", id);
    if (!group || group->value("vpcId", "") != vpc) {
      throw ApiError(400, "InvalidSecurityGroup", "Security group '" + id + "' does not exist in VPC '" + vpc + "'");
    }
  }
  if (type == "application" && groups.empty()) {
    // AWS gives an application load balancer without security groups its VPC's default group.
    for (const auto& [id, group] : call.world().List("ec2.security_group")) {
      if (group.value("vpcId", "") == vpc && group.value("groupName", "") == "default") groups.push_back(id);
    }
  }
  return groups;
}

//! Whether `existing` has what a repeated CreateLoadBalancer asks for (the call is then
//! answered with it, as AWS answers an identical create).
bool SameLoadBalancer(const Json& existing, const std::string& type, const std::string& scheme, const Json& subnets) {
  return existing["Type"] == type && existing["Scheme"] == scheme && existing["AvailabilityZones"] == subnets;
}

void WriteLoadBalancer(pugi::xml_node parent, const Json& lb) {
  pugi::xml_node out = AddChild(parent, "member");
  for (const char* member : {"LoadBalancerArn", "DNSName", "CanonicalHostedZoneId", "CreatedTime", "LoadBalancerName",
                             "Scheme", "VpcId"}) {
    AddText(out, member, lb[member].get<std::string>());
  }
  AddText(AddChild(out, "State"), "Code", lb["State"]["Code"].get<std::string>());
  AddText(out, "Type", lb["Type"].get<std::string>());
  pugi::xml_node zones = AddChild(out, "AvailabilityZones");
  for (const Json& zone : lb["AvailabilityZones"]) {
    pugi::xml_node member = AddChild(zones, "member");
    AddText(member, "ZoneName", zone["ZoneName"].get<std::string>());
    AddText(member, "SubnetId", zone["SubnetId"].get<std::string>());
    AddChild(member, "LoadBalancerAddresses");
  }
  if (lb["Type"] == "application" || !lb["SecurityGroups"].empty()) {
    AddStringList(out, "SecurityGroups", lb["SecurityGroups"].get<std::vector<std::string>>());
  }
  AddText(out, "IpAddressType", lb["IpAddressType"].get<std::string>());
}

void CreateLoadBalancer(QueryCall& call) {
  const AwsQueryParams& params = call.params;
  std::string name = params.Required("Name");
  CheckName(name);
  std::string type = params.Get("Type", "application");
  if (type != "application" && type != "network") {
    throw ElbValidation("The sandbox makes application and network load balancers, not '" + type + "'");
  }
  std::string scheme = params.Get("Scheme", "internet-facing");
  if (scheme != "internet-facing" && scheme != "internal") {
    throw ValidationError("Scheme", scheme, "Member must satisfy enum value set: [internet-facing, internal]");
  }
  std::string address_type = params.Get("IpAddressType", "ipv4");
  std::string vpc;
  Json subnets = PlacedSubnets(call, type, vpc);
  std::vector<std::string> groups = CheckedSecurityGroups(call, type, vpc);
  for (const Json& existing : LoadBalancersIn(call.ctx)) {
    if (existing["LoadBalancerName"] != name) continue;
    if (!SameLoadBalancer(existing, type, scheme, subnets)) {
      throw ApiError(400, "DuplicateLoadBalancerName", "A load balancer with the same name '" + name + "' exists, but with different settings");
    }
    WriteLoadBalancer(AddChild(call.result, "LoadBalancers"), existing);
    return;
  }
  std::string region = RegionOf(call.ctx);
  std::string hex = call.world().RandomString(16, "0123456789abcdef");
  std::string arn = "arn:aws:elasticloadbalancing:" + region + ":" + call.account() + ":loadbalancer/" +
                    (type == "network" ? "net/" : "app/") + name + "/" + hex;
  std::string prefix = (scheme == "internal" ? "internal-" : "") + name + "-";
  std::string dns = type == "network" ? prefix + hex + ".elb." + region + "." + DnsSuffix(region)
                                      : prefix + call.world().RandomString(10, "0123456789") + "." + region + ".elb." +
                                            DnsSuffix(region);
  Json lb = {{"LoadBalancerArn", arn},
             {"LoadBalancerName", name},
             {"DNSName", dns},
             {"CanonicalHostedZoneId", HostedZoneOf(region, type)},
             {"CreatedTime", call.Now()},
             {"Scheme", scheme},
             {"Type", type},
             {"VpcId", vpc},
             {"State", {{"Code", "provisioning"}}},
             {"AvailabilityZones", subnets},
             {"SecurityGroups", groups},
             {"IpAddressType", address_type},
             {"region", region},
             {"tags", TagsFrom(params, Json::object())},
             {"active_at_ms", NowMs(call.ctx) + call.ctx.settings.load_balancer_delay.count()}};
  call.world().Put(kLoadBalancerKind, arn, lb);
  WriteLoadBalancer(AddChild(call.result, "LoadBalancers"), lb);
}

void DescribeLoadBalancers(QueryCall& call) {
  std::vector<std::string> arns = call.params.MemberList("LoadBalancerArns");
  std::vector<std::string> names = call.params.MemberList("Names");
  if (!arns.empty() && !names.empty()) throw ElbValidation("Load balancer names and load balancer ARNs cannot be specified at the same time");
  std::vector<Json> selected;
  if (!arns.empty()) {
    for (const std::string& arn : arns) {
      std::optional<Json> lb = FindLoadBalancer(call.ctx, arn);
      if (!lb) throw LoadBalancerNotFound();
      selected.push_back(*lb);
    }
  } else {
    std::vector<Json> all = LoadBalancersIn(call.ctx);
    for (const std::string& name : names) {
      auto it = std::find_if(all.begin(), all.end(), [&](const Json& lb) { return lb["LoadBalancerName"] == name; });
      if (it == all.end()) throw ApiError(400, "LoadBalancerNotFound", "Load balancers '[" + name + "]' not found");
      selected.push_back(*it);
    }
    if (names.empty()) selected = std::move(all);
  }
  WriteElbPage(call, "LoadBalancers", selected, WriteLoadBalancer);
}

void DeleteLoadBalancer(QueryCall& call) {
  // Deleting a load balancer that does not exist (any more) succeeds, as on AWS.
  std::string arn = call.params.Required("LoadBalancerArn");
  if (!FindLoadBalancer(call.ctx, arn)) return;
  DeleteListenersOf(call.ctx, arn);
  call.world().Erase(kLoadBalancerKind, arn);
}

//! One resource a tag call names: its ARN and document.
struct Tagged {
  std::string arn;
  Json object;
};

//! The load balancers, target groups and listeners a tag call names (ResourceArns.member.N,
//! at most 20), each refused with its kind's NotFound.
std::vector<Tagged> TaggedResources(QueryCall& call) {
  std::vector<std::string> arns = call.params.MemberList("ResourceArns");
  if (arns.empty() || arns.size() > 20) throw ElbValidation("Give 1 to 20 resource ARNs");
  std::vector<Tagged> out;
  for (const std::string& arn : arns) {
    std::string kind = KindOfArn(arn);
    std::optional<Json> object = kind == kLoadBalancerKind ? FindLoadBalancer(call.ctx, arn) : call.world().Get(kind, arn);
    if (!object || object->value("region", "") != RegionOf(call.ctx)) {
      if (kind == kTargetGroupKind) throw ApiError(400, "TargetGroupNotFound", "Target groups '" + arn + "' not found");
      if (kind == kListenerKind) throw ApiError(400, "ListenerNotFound", "One or more listeners not found");
      throw LoadBalancerNotFound();
    }
    out.push_back({arn, *object});
  }
  return out;
}

void AddTags(QueryCall& call) {
  for (Tagged& tagged : TaggedResources(call)) {
    tagged.object["tags"] = TagsFrom(call.params, tagged.object["tags"]);
    call.world().Put(KindOfArn(tagged.arn), tagged.arn, tagged.object);
  }
}

void RemoveTags(QueryCall& call) {
  std::vector<std::string> keys = call.params.MemberList("TagKeys");
  for (Tagged& tagged : TaggedResources(call)) {
    for (const std::string& key : keys) tagged.object["tags"].erase(key);
    call.world().Put(KindOfArn(tagged.arn), tagged.arn, tagged.object);
  }
}

void DescribeTags(QueryCall& call) {
  pugi::xml_node descriptions = AddChild(call.result, "TagDescriptions");
  for (const Tagged& tagged : TaggedResources(call)) {
    pugi::xml_node description = AddChild(descriptions, "member");
    AddText(description, "ResourceArn", tagged.arn);
    pugi::xml_node tags = AddChild(description, "Tags");
    for (const auto& [key, value] : tagged.object["tags"].items()) {
      pugi::xml_node tag = AddChild(tags, "member");
      AddText(tag, "Key", key);
      AddText(tag, "Value", value.get<std::string>());
    }
  }
}

}  // namespace

ApiError ElbValidation(const std::string& message) { return ApiError(400, "ValidationError", message); }

std::optional<Json> FindLoadBalancer(ServiceContext& ctx, const std::string& arn) {
  std::optional<Json> lb = ctx.world.Get(kLoadBalancerKind, arn);
  if (!lb || lb->value("region", "") != RegionOf(ctx)) return std::nullopt;
  return Refreshed(ctx, *lb);
}

Json TagsFrom(const AwsQueryParams& params, Json tags) {
  for (const QueryTag& tag : params.Tags()) tags[tag.key] = tag.value;
  if (tags.size() > 50) throw ApiError(400, "TooManyTags", "A resource holds at most 50 tags");
  return tags;
}

const char* KindOfArn(const std::string& arn) {
  if (arn.find(":targetgroup/") != std::string::npos) return kTargetGroupKind;
  if (arn.find(":listener/") != std::string::npos) return kListenerKind;
  return kLoadBalancerKind;
}

}  // namespace elbv2

std::unique_ptr<Service> NewElbv2Service() {
  QueryCallTable actions;
  actions["CreateLoadBalancer"] = elbv2::CreateLoadBalancer;
  actions["DescribeLoadBalancers"] = elbv2::DescribeLoadBalancers;
  actions["DeleteLoadBalancer"] = elbv2::DeleteLoadBalancer;
  actions["AddTags"] = elbv2::AddTags;
  actions["RemoveTags"] = elbv2::RemoveTags;
  actions["DescribeTags"] = elbv2::DescribeTags;
  elbv2::AddTargetGroupActions(actions);
  return NewQueryService("elasticloadbalancing",
                         {"2015-12-01", "http://elasticloadbalancing.amazonaws.com/doc/2015-12-01/"}, std::move(actions));
}

}  // namespace strata::sandbox
