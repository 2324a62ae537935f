// The sandbox's EC2 service called directly: VPCs, subnets, availability zones, tags,
// regions, the query protocol's errors, gateways, Elastic IPs, NAT gateways' lifecycle,
// route tables, security groups and launch templates.

#include <deque>
#include <algorithm>

#include <gtest/gtest.h>
#include <pugixml.hpp>

#include "sandbox/service.h"

namespace strata::sandbox {
namespace {

using Params = std::vector<std::pair<std::string, std::string>>;

std::string FormEncode(const Params& params) {
  std::string out;
  for (const auto& [k, v] : params) {
    if (!out.empty()) out += '&';
    for (const std::string* s : {&k, &v}) {
      for (unsigned char c : *s) {
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
          out += static_cast<char>(c);
        } else {
          char buf[4];
          std::snprintf(buf, sizeof buf, "%%%02X", c);
          out += buf;
        }
      }
      if (s == &k) out += '=';
    }
  }
  return out;
}

//! An in-memory world and the EC2 service, called as the server would.
class Ec2Test : public ::testing::Test {
 protected:
  //! The <ActionResponse> root; fails the test when the call is refused.
  pugi::xml_node Call(const std::string& action, Params params = {}, const std::string& region = "us-east-1") {
    try {
      return Send(action, std::move(params), region);
    } catch (const ApiError& e) {
      ADD_FAILURE() << action << " refused: " << e.code << ": " << e.what();
      return {};
    }
  }

  //! The error code the call is refused with ("" when it succeeds); its message in `message`.
  std::string Refusal(const std::string& action, Params params = {}, const std::string& region = "us-east-1") {
    try {
      Send(action, std::move(params), region);
      return "";
    } catch (const ApiError& e) {
      message = e.what();
      EXPECT_EQ(e.status, 400);
      return e.code;
    }
  }

  std::string CreateVpc(const std::string& cidr = "10.0.0.0/16", const std::string& region = "us-east-1") {
    return Call("CreateVpc", {{"CidrBlock", cidr}}, region).child("vpc").child_value("vpcId");
  }
  std::string CreateSubnet(const std::string& vpc, const std::string& cidr) {
    return Call("CreateSubnet", {{"VpcId", vpc}, {"CidrBlock", cidr}}).child("subnet").child_value("subnetId");
  }

  std::unique_ptr<World> world = World::Open("");
  SandboxSettings settings;
  std::chrono::system_clock::time_point now{std::chrono::seconds(1'800'000'000)};
  std::string message;

 private:
  pugi::xml_node Send(const std::string& action, Params params, const std::string& region) {
    params.insert(params.begin(), {{"Action", action}, {"Version", "2016-11-15"}});
    Request request;
    request.method = "POST";
    request.path = "/";
    request.body = FormEncode(params);
    request.service = "ec2";
    request.region = region;
    request.account_id = "111122223333";
    request.request_id = "req-1";
    ServiceContext ctx{*world, request, settings, now, "", ""};
    Response response = service_->Handle(ctx);
    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.body.rfind(R"(<?xml version="1.0" encoding="UTF-8"?>)", 0), 0u);
    pugi::xml_document& doc = docs_.emplace_back();
    EXPECT_TRUE(doc.load_string(response.body.c_str()));
    pugi::xml_node root = doc.document_element();
    EXPECT_EQ(std::string(root.name()), action + "Response");
    EXPECT_STREQ(root.attribute("xmlns").value(), "http://ec2.amazonaws.com/doc/2016-11-15/");
    EXPECT_STREQ(root.child_value("requestId"), "req-1");
    return root;
  }

  std::unique_ptr<Service> service_ = NewEc2Service();
  std::deque<pugi::xml_document> docs_;
};

// "<prefix>-" and 17 lower-case hex digits, read by hand: libstdc++'s <regex> warns in the
// sanitizer build.
bool IdShaped(const std::string& id, const std::string& prefix) {
  std::string head = prefix + "-";
  if (id.size() != head.size() + 17 || id.compare(0, head.size(), head) != 0) return false;
  return std::all_of(id.begin() + static_cast<std::ptrdiff_t>(head.size()), id.end(),
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

size_t Count(pugi::xml_node set) {
  size_t n = 0;
  for (pugi::xml_node item : set.children("item")) (void)item, ++n;
  return n;
}

TEST_F(Ec2Test, UnknownActionAndMissingParameter) {
  EXPECT_EQ(Refusal("LaunchRockets"), "InvalidAction");
  EXPECT_EQ(message, "The action LaunchRockets is not valid for this web service.");
  EXPECT_EQ(Refusal("CreateVpc"), "MissingParameter");
  EXPECT_EQ(message, "The request must contain the parameter CidrBlock");
}

TEST_F(Ec2Test, CreateVpcAnswersItsShapeAndDescribes) {
  pugi::xml_node vpc = Call("CreateVpc", {{"CidrBlock", "10.1.0.0/16"},
                                          {"TagSpecification.1.ResourceType", "vpc"},
                                          {"TagSpecification.1.Tag.1.Key", "Name"},
                                          {"TagSpecification.1.Tag.1.Value", "main"}})
                           .child("vpc");
  std::string id = vpc.child_value("vpcId");
  EXPECT_TRUE(IdShaped(id, "vpc")) << id;
  EXPECT_STREQ(vpc.child_value("state"), "available");
  EXPECT_STREQ(vpc.child_value("ownerId"), "111122223333");
  EXPECT_STREQ(vpc.child_value("isDefault"), "false");
  EXPECT_STREQ(vpc.child_value("instanceTenancy"), "default");
  EXPECT_TRUE(IdShaped(vpc.child_value("dhcpOptionsId"), "dopt"));
  EXPECT_STREQ(vpc.child("cidrBlockAssociationSet").child("item").child("cidrBlockState").child_value("state"),
               "associated");
  EXPECT_STREQ(vpc.child("tagSet").child("item").child_value("key"), "Name");

  pugi::xml_node described = Call("DescribeVpcs", {{"VpcId.1", id}}).child("vpcSet");
  EXPECT_EQ(Count(described), 1u);
  EXPECT_STREQ(described.child("item").child_value("cidrBlock"), "10.1.0.0/16");
  EXPECT_EQ(Count(Call("DescribeVpcs", {{"Filter.1.Name", "tag:Name"}, {"Filter.1.Value.1", "ma*"}}).child("vpcSet")), 1u);
  EXPECT_EQ(Count(Call("DescribeVpcs", {{"Filter.1.Name", "tag:Name"}, {"Filter.1.Value.1", "other"}}).child("vpcSet")), 0u);
  EXPECT_EQ(Count(Call("DescribeVpcs", {{"Filter.1.Name", "vpc-id"}, {"Filter.1.Value.1", id}}).child("vpcSet")), 1u);
  EXPECT_EQ(Refusal("DescribeVpcs", {{"Filter.1.Name", "colour"}, {"Filter.1.Value.1", "x"}}), "InvalidParameterValue");
}

TEST_F(Ec2Test, VpcCidrIsChecked) {
  EXPECT_EQ(Refusal("CreateVpc", {{"CidrBlock", "10.0.0/16"}}), "InvalidParameterValue");
  EXPECT_EQ(Refusal("CreateVpc", {{"CidrBlock", "10.0.0.1/16"}}), "InvalidParameterValue");
  EXPECT_EQ(Refusal("CreateVpc", {{"CidrBlock", "10.0.0.0/8"}}), "InvalidVpc.Range");
  EXPECT_EQ(message, "The CIDR '10.0.0.0/8' is invalid.");
  EXPECT_EQ(Refusal("CreateVpc", {{"CidrBlock", "10.0.0.0/29"}}), "InvalidVpc.Range");
  EXPECT_EQ(Refusal("CreateVpc", {{"CidrBlock", "10.0.0.0/28"}}), "");
}

TEST_F(Ec2Test, UnknownVpcIsNotFound) {
  EXPECT_EQ(Refusal("DescribeVpcs", {{"VpcId.1", "vpc-0123456789abcdef0"}}), "InvalidVpcID.NotFound");
  EXPECT_EQ(message, "The vpc ID 'vpc-0123456789abcdef0' does not exist");
  EXPECT_EQ(Refusal("DeleteVpc", {{"VpcId", "vpc-0123456789abcdef0"}}), "InvalidVpcID.NotFound");
}

TEST_F(Ec2Test, VpcsBelongToTheirRegion) {
  std::string id = CreateVpc("10.0.0.0/16", "us-west-2");
  EXPECT_EQ(Refusal("DescribeVpcs", {{"VpcId.1", id}}, "us-east-1"), "InvalidVpcID.NotFound");
  EXPECT_EQ(Count(Call("DescribeVpcs", {}, "us-east-1").child("vpcSet")), 0u);
  EXPECT_EQ(Count(Call("DescribeVpcs", {}, "us-west-2").child("vpcSet")), 1u);
}

TEST_F(Ec2Test, VpcComesWithMainRouteTableAndDefaultGroup) {
  std::string id = CreateVpc();
  pugi::xml_node tables = Call("DescribeRouteTables", {{"Filter.1.Name", "vpc-id"}, {"Filter.1.Value.1", id},
                                                       {"Filter.2.Name", "association.main"},
                                                       {"Filter.2.Value.1", "true"}})
                              .child("routeTableSet");
  ASSERT_EQ(Count(tables), 1u);
  pugi::xml_node route = tables.child("item").child("routeSet").child("item");
  EXPECT_STREQ(route.child_value("destinationCidrBlock"), "10.0.0.0/16");
  EXPECT_STREQ(route.child_value("gatewayId"), "local");
  EXPECT_STREQ(route.child_value("origin"), "CreateRouteTable");
  EXPECT_STREQ(route.child_value("state"), "active");
  pugi::xml_node association = tables.child("item").child("associationSet").child("item");
  EXPECT_STREQ(association.child_value("main"), "true");
  EXPECT_TRUE(IdShaped(association.child_value("routeTableAssociationId"), "rtbassoc"));

  pugi::xml_node groups = Call("DescribeSecurityGroups", {{"Filter.1.Name", "vpc-id"}, {"Filter.1.Value.1", id}})
                              .child("securityGroupInfo");
  ASSERT_EQ(Count(groups), 1u);
  EXPECT_STREQ(groups.child("item").child_value("groupName"), "default");

  // Deleting the VPC takes both with it.
  Call("DeleteVpc", {{"VpcId", id}});
  EXPECT_EQ(Count(Call("DescribeRouteTables").child("routeTableSet")), 0u);
  EXPECT_EQ(Count(Call("DescribeSecurityGroups").child("securityGroupInfo")), 0u);
}

TEST_F(Ec2Test, VpcAttributes) {
  std::string id = CreateVpc();
  auto attribute = [&](const char* name) {
    return std::string(Call("DescribeVpcAttribute", {{"VpcId", id}, {"Attribute", name}}).child(name).child_value("value"));
  };
  EXPECT_EQ(attribute("enableDnsSupport"), "true");
  EXPECT_EQ(attribute("enableDnsHostnames"), "false");
  Call("ModifyVpcAttribute", {{"VpcId", id}, {"EnableDnsHostnames.Value", "true"}});
  EXPECT_EQ(attribute("enableDnsHostnames"), "true");
  EXPECT_EQ(Refusal("DescribeVpcAttribute", {{"VpcId", id}, {"Attribute", "colour"}}), "InvalidParameterValue");
}

TEST_F(Ec2Test, DeleteVpcRefusedWhileDependenciesRemain) {
  std::string id = CreateVpc();
  std::string subnet = CreateSubnet(id, "10.0.1.0/24");
  EXPECT_EQ(Refusal("DeleteVpc", {{"VpcId", id}}), "DependencyViolation");
  EXPECT_EQ(message, "The vpc '" + id + "' has dependencies and cannot be deleted.");
  Call("DeleteSubnet", {{"SubnetId", subnet}});

  std::string igw = Call("CreateInternetGateway").child("internetGateway").child_value("internetGatewayId");
  Call("AttachInternetGateway", {{"VpcId", id}, {"InternetGatewayId", igw}});
  EXPECT_EQ(Refusal("DeleteVpc", {{"VpcId", id}}), "DependencyViolation");
  Call("DetachInternetGateway", {{"VpcId", id}, {"InternetGatewayId", igw}});

  std::string table = Call("CreateRouteTable", {{"VpcId", id}}).child("routeTable").child_value("routeTableId");
  EXPECT_EQ(Refusal("DeleteVpc", {{"VpcId", id}}), "DependencyViolation");
  Call("DeleteRouteTable", {{"RouteTableId", table}});

  std::string group = Call("CreateSecurityGroup", {{"VpcId", id}, {"GroupName", "web"}, {"GroupDescription", "web"}})
                          .child_value("groupId");
  EXPECT_EQ(Refusal("DeleteVpc", {{"VpcId", id}}), "DependencyViolation");
  Call("DeleteSecurityGroup", {{"GroupId", group}});

  Call("DeleteVpc", {{"VpcId", id}});
  EXPECT_EQ(Refusal("DescribeVpcs", {{"VpcId.1", id}}), "InvalidVpcID.NotFound");
}

TEST_F(Ec2Test, SubnetShapeAndDefaults) {
  std::string vpc = CreateVpc();
  pugi::xml_node subnet = Call("CreateSubnet", {{"VpcId", vpc}, {"CidrBlock", "10.0.1.0/24"}}).child("subnet");
  std::string id = subnet.child_value("subnetId");
  EXPECT_TRUE(IdShaped(id, "subnet"));
  EXPECT_EQ(subnet.child_value("subnetArn"), "arn:aws:ec2:us-east-1:111122223333:subnet/" + id);
  EXPECT_STREQ(subnet.child_value("availabilityZone"), "us-east-1a");
  EXPECT_STREQ(subnet.child_value("availabilityZoneId"), "use1-az1");
  EXPECT_STREQ(subnet.child_value("availableIpAddressCount"), "251");
  EXPECT_STREQ(subnet.child_value("mapPublicIpOnLaunch"), "false");
  EXPECT_STREQ(subnet.child_value("vpcId"), vpc.c_str());

  Call("ModifySubnetAttribute", {{"SubnetId", id}, {"MapPublicIpOnLaunch.Value", "true"}});
  pugi::xml_node described = Call("DescribeSubnets", {{"SubnetId.1", id}}).child("subnetSet").child("item");
  EXPECT_STREQ(described.child_value("mapPublicIpOnLaunch"), "true");

  pugi::xml_node in_b = Call("CreateSubnet", {{"VpcId", vpc}, {"CidrBlock", "10.0.2.0/24"},
                                              {"AvailabilityZone", "us-east-1b"}})
                            .child("subnet");
  EXPECT_STREQ(in_b.child_value("availabilityZoneId"), "use1-az2");
  EXPECT_EQ(Count(Call("DescribeSubnets", {{"Filter.1.Name", "vpc-id"}, {"Filter.1.Value.1", vpc}}).child("subnetSet")), 2u);
}

TEST_F(Ec2Test, SubnetCidrRules) {
  std::string vpc = CreateVpc();
  CreateSubnet(vpc, "10.0.1.0/24");
  EXPECT_EQ(Refusal("CreateSubnet", {{"VpcId", vpc}, {"CidrBlock", "10.1.0.0/24"}}), "InvalidSubnet.Range");
  EXPECT_EQ(message, "The CIDR '10.1.0.0/24' is invalid.");
  EXPECT_EQ(Refusal("CreateSubnet", {{"VpcId", vpc}, {"CidrBlock", "10.0.0.0/29"}}), "InvalidSubnet.Range");
  EXPECT_EQ(Refusal("CreateSubnet", {{"VpcId", vpc}, {"CidrBlock", "10.0.1.128/25"}}), "InvalidSubnet.Conflict");
  EXPECT_EQ(Refusal("CreateSubnet", {{"VpcId", vpc}, {"CidrBlock", "10.0.0.0/20"}}), "InvalidSubnet.Conflict");
  EXPECT_EQ(Refusal("CreateSubnet", {{"VpcId", vpc}, {"CidrBlock", "nonsense"}}), "InvalidParameterValue");
  EXPECT_EQ(Refusal("CreateSubnet", {{"VpcId", vpc}, {"CidrBlock", "10.0.9.0/24"}, {"AvailabilityZone", "us-west-2a"}}),
            "InvalidParameterValue");
  EXPECT_EQ(Refusal("CreateSubnet", {{"VpcId", "vpc-0000000000000000a"}, {"CidrBlock", "10.0.9.0/24"}}),
            "InvalidVpcID.NotFound");
  EXPECT_EQ(Refusal("DescribeSubnets", {{"SubnetId.1", "subnet-0000000000000000a"}}), "InvalidSubnetID.NotFound");
}

TEST_F(Ec2Test, AvailabilityZones) {
  pugi::xml_node zones = Call("DescribeAvailabilityZones", {}, "eu-west-1").child("availabilityZoneInfo");
  ASSERT_GE(Count(zones), 3u);
  pugi::xml_node first = zones.child("item");
  EXPECT_STREQ(first.child_value("zoneName"), "eu-west-1a");
  EXPECT_STREQ(first.child_value("zoneId"), "euw1-az1");
  EXPECT_STREQ(first.child_value("zoneState"), "available");
  EXPECT_STREQ(first.child_value("regionName"), "eu-west-1");
  EXPECT_STREQ(first.child_value("zoneType"), "availability-zone");
  EXPECT_EQ(Count(Call("DescribeAvailabilityZones", {{"Filter.1.Name", "state"}, {"Filter.1.Value.1", "available"}})
                      .child("availabilityZoneInfo")),
            3u);
  EXPECT_EQ(Count(Call("DescribeAvailabilityZones", {{"Filter.1.Name", "zone-name"}, {"Filter.1.Value.1", "us-east-1b"}})
                      .child("availabilityZoneInfo")),
            1u);
  EXPECT_STREQ(Call("DescribeAvailabilityZones", {}, "ap-southeast-2")
                   .child("availabilityZoneInfo").child("item").child_value("zoneId"),
               "apse2-az1");
}

TEST_F(Ec2Test, CreateAndDeleteTagsOnAnyKind) {
  std::string vpc = CreateVpc();
  std::string subnet = CreateSubnet(vpc, "10.0.1.0/24");
  Call("CreateTags", {{"ResourceId.1", vpc}, {"ResourceId.2", subnet}, {"Tag.1.Key", "env"}, {"Tag.1.Value", "dev"},
                      {"Tag.2.Key", "team"}, {"Tag.2.Value", "infra"}});
  auto tags_of_subnet = [&] {
    std::map<std::string, std::string> out;
    pugi::xml_node item = Call("DescribeSubnets", {{"SubnetId.1", subnet}}).child("subnetSet").child("item");
    for (pugi::xml_node t : item.child("tagSet").children("item")) out[t.child_value("key")] = t.child_value("value");
    return out;
  };
  EXPECT_EQ(tags_of_subnet(), (std::map<std::string, std::string>{{"env", "dev"}, {"team", "infra"}}));
  // A value that does not match leaves the tag; a key alone removes it.
  Call("DeleteTags", {{"ResourceId.1", subnet}, {"Tag.1.Key", "env"}, {"Tag.1.Value", "prod"}});
  EXPECT_EQ(tags_of_subnet().size(), 2u);
  Call("DeleteTags", {{"ResourceId.1", subnet}, {"Tag.1.Key", "env"}});
  EXPECT_EQ(tags_of_subnet(), (std::map<std::string, std::string>{{"team", "infra"}}));

  EXPECT_EQ(Refusal("CreateTags", {{"ResourceId.1", "subnet-0000000000000000a"}, {"Tag.1.Key", "k"}}),
            "InvalidSubnetID.NotFound");
  EXPECT_EQ(Refusal("CreateTags", {{"ResourceId.1", "igw-0000000000000000a"}, {"Tag.1.Key", "k"}}),
            "InvalidInternetGatewayID.NotFound");
  EXPECT_EQ(Refusal("CreateTags", {{"ResourceId.1", "bogus"}, {"Tag.1.Key", "k"}}), "InvalidID");
  EXPECT_EQ(Refusal("CreateVpc", {{"CidrBlock", "10.0.0.0/16"}, {"TagSpecification.1.ResourceType", "subnet"},
                                  {"TagSpecification.1.Tag.1.Key", "k"}}),
            "InvalidParameterValue");
}

TEST_F(Ec2Test, DeleteSubnetDropsItsAssociation) {
  std::string vpc = CreateVpc();
  std::string subnet = CreateSubnet(vpc, "10.0.1.0/24");
  std::string table = Call("CreateRouteTable", {{"VpcId", vpc}}).child("routeTable").child_value("routeTableId");
  Call("AssociateRouteTable", {{"RouteTableId", table}, {"SubnetId", subnet}});
  EXPECT_EQ(Refusal("DeleteRouteTable", {{"RouteTableId", table}}), "DependencyViolation");
  Call("DeleteSubnet", {{"SubnetId", subnet}});
  Call("DeleteRouteTable", {{"RouteTableId", table}});
}


// ---- Internet gateways, Elastic IPs, NAT gateways --------------------------------------

class Ec2NetworkTest : public Ec2Test {
 protected:
  void SetUp() override {
    settings.nat_gateway_delay = std::chrono::milliseconds(100);
    vpc = CreateVpc();
    subnet = CreateSubnet(vpc, "10.0.1.0/24");
    igw = Call("CreateInternetGateway").child("internetGateway").child_value("internetGatewayId");
    Call("AttachInternetGateway", {{"VpcId", vpc}, {"InternetGatewayId", igw}});
    eip = Call("AllocateAddress", {{"Domain", "vpc"}}).child_value("allocationId");
  }
  std::string NatState(const std::string& id) {
    return Call("DescribeNatGateways", {{"NatGatewayId.1", id}}).child("natGatewaySet").child("item").child_value("state");
  }
  std::string CreateNat(const std::string& token = "") {
    Params params{{"SubnetId", subnet}, {"AllocationId", eip}};
    if (!token.empty()) params.emplace_back("ClientToken", token);
    return Call("CreateNatGateway", params).child("natGateway").child_value("natGatewayId");
  }
  std::string vpc, subnet, igw, eip;
};

TEST_F(Ec2NetworkTest, InternetGatewayAttachment) {
  pugi::xml_node item = Call("DescribeInternetGateways", {{"InternetGatewayId.1", igw}})
                            .child("internetGatewaySet").child("item");
  EXPECT_TRUE(IdShaped(igw, "igw"));
  EXPECT_STREQ(item.child("attachmentSet").child("item").child_value("vpcId"), vpc.c_str());
  EXPECT_STREQ(item.child("attachmentSet").child("item").child_value("state"), "available");
  EXPECT_EQ(Refusal("AttachInternetGateway", {{"VpcId", vpc}, {"InternetGatewayId", igw}}), "Resource.AlreadyAssociated");
  EXPECT_EQ(Refusal("DeleteInternetGateway", {{"InternetGatewayId", igw}}), "DependencyViolation");
  Call("DetachInternetGateway", {{"VpcId", vpc}, {"InternetGatewayId", igw}});
  EXPECT_EQ(Refusal("DetachInternetGateway", {{"VpcId", vpc}, {"InternetGatewayId", igw}}), "Gateway.NotAttached");
  Call("DeleteInternetGateway", {{"InternetGatewayId", igw}});
  EXPECT_EQ(Refusal("DescribeInternetGateways", {{"InternetGatewayId.1", igw}}), "InvalidInternetGatewayID.NotFound");
}

TEST_F(Ec2NetworkTest, ElasticIpShape) {
  pugi::xml_node address = Call("DescribeAddresses", {{"AllocationId.1", eip}}).child("addressesSet").child("item");
  EXPECT_TRUE(IdShaped(eip, "eipalloc"));
  EXPECT_STREQ(address.child_value("publicIp"), "203.0.113.1");
  EXPECT_STREQ(address.child_value("domain"), "vpc");
  EXPECT_STREQ(address.child_value("publicIpv4Pool"), "amazon");
  EXPECT_STREQ(address.child_value("networkBorderGroup"), "us-east-1");
  EXPECT_STREQ(Call("AllocateAddress").child_value("publicIp"), "203.0.113.2");
  Call("ReleaseAddress", {{"AllocationId", eip}});
  EXPECT_EQ(Refusal("DescribeAddresses", {{"AllocationId.1", eip}}), "InvalidAllocationID.NotFound");
  EXPECT_EQ(Refusal("ReleaseAddress", {{"AllocationId", eip}}), "InvalidAllocationID.NotFound");
}

TEST_F(Ec2NetworkTest, NatGatewayLifecycle) {
  pugi::xml_node nat = Call("CreateNatGateway", {{"SubnetId", subnet}, {"AllocationId", eip},
                                                 {"TagSpecification.1.ResourceType", "natgateway"},
                                                 {"TagSpecification.1.Tag.1.Key", "Name"},
                                                 {"TagSpecification.1.Tag.1.Value", "nat"}})
                           .child("natGateway");
  std::string id = nat.child_value("natGatewayId");
  EXPECT_TRUE(IdShaped(id, "nat"));
  EXPECT_STREQ(nat.child_value("state"), "pending");
  EXPECT_STREQ(nat.child_value("vpcId"), vpc.c_str());
  pugi::xml_node address = nat.child("natGatewayAddressSet").child("item");
  EXPECT_STREQ(address.child_value("allocationId"), eip.c_str());
  EXPECT_STREQ(address.child_value("publicIp"), "203.0.113.1");
  EXPECT_STREQ(address.child_value("privateIp"), "10.0.1.4");
  EXPECT_TRUE(IdShaped(address.child_value("networkInterfaceId"), "eni"));

  now += std::chrono::milliseconds(100);
  EXPECT_EQ(NatState(id), "available");
  pugi::xml_node used = Call("DescribeAddresses", {{"AllocationId.1", eip}}).child("addressesSet").child("item");
  EXPECT_STREQ(used.child_value("privateIpAddress"), "10.0.1.4");
  EXPECT_STREQ(Call("DescribeSubnets", {{"SubnetId.1", subnet}}).child("subnetSet").child("item")
                   .child_value("availableIpAddressCount"),
               "250");

  // While the gateway holds them, the address, the subnet and the internet gateway stay.
  EXPECT_EQ(Refusal("ReleaseAddress", {{"AllocationId", eip}}), "InvalidIPAddress.InUse");
  EXPECT_EQ(Refusal("DeleteSubnet", {{"SubnetId", subnet}}), "DependencyViolation");
  EXPECT_EQ(Refusal("DetachInternetGateway", {{"VpcId", vpc}, {"InternetGatewayId", igw}}), "DependencyViolation");
  EXPECT_EQ(Refusal("CreateNatGateway", {{"SubnetId", subnet}, {"AllocationId", eip}}), "Resource.AlreadyAssociated");

  EXPECT_EQ(Call("DeleteNatGateway", {{"NatGatewayId", id}}).child_value("natGatewayId"), id);
  EXPECT_EQ(NatState(id), "deleting");
  EXPECT_EQ(Refusal("ReleaseAddress", {{"AllocationId", eip}}), "AuthFailure");
  now += std::chrono::milliseconds(100);
  EXPECT_EQ(NatState(id), "deleted");
  EXPECT_EQ(Count(Call("DescribeNatGateways", {{"Filter.1.Name", "state"}, {"Filter.1.Value.1", "available"}})
                      .child("natGatewaySet")),
            0u);
  Call("ReleaseAddress", {{"AllocationId", eip}});
  Call("DeleteSubnet", {{"SubnetId", subnet}});

  // Deleted gateways describe for a while, then are gone.
  now += std::chrono::hours(2);
  EXPECT_EQ(Refusal("DescribeNatGateways", {{"NatGatewayId.1", id}}), "NatGatewayNotFound");
}

TEST_F(Ec2NetworkTest, NatGatewayClientTokenIsIdempotent) {
  std::string first = CreateNat("token-1");
  EXPECT_EQ(CreateNat("token-1"), first);
  EXPECT_EQ(Count(Call("DescribeNatGateways").child("natGatewaySet")), 1u);
  std::string other = Call("AllocateAddress").child_value("allocationId");
  EXPECT_EQ(Refusal("CreateNatGateway", {{"SubnetId", subnet}, {"AllocationId", other}, {"ClientToken", "token-1"}}),
            "IdempotentParameterMismatch");
}

TEST_F(Ec2NetworkTest, NatGatewayWithoutInternetGatewayFails) {
  Call("DetachInternetGateway", {{"VpcId", vpc}, {"InternetGatewayId", igw}});
  std::string id = CreateNat();
  now += std::chrono::milliseconds(100);
  pugi::xml_node nat = Call("DescribeNatGateways", {{"NatGatewayId.1", id}}).child("natGatewaySet").child("item");
  EXPECT_STREQ(nat.child_value("state"), "failed");
  EXPECT_STREQ(nat.child_value("failureCode"), "Gateway.NotAttached");
  Call("ReleaseAddress", {{"AllocationId", eip}});
}

TEST_F(Ec2NetworkTest, UnknownNatGatewayIsNotFound) {
  EXPECT_EQ(Refusal("DeleteNatGateway", {{"NatGatewayId", "nat-0000000000000000a"}}), "NatGatewayNotFound");
  EXPECT_EQ(Refusal("CreateNatGateway", {{"SubnetId", subnet}, {"AllocationId", "eipalloc-0000000000000000a"}}),
            "InvalidAllocationID.NotFound");
}

// ---- Route tables ---------------------------------------------------------------------

TEST_F(Ec2NetworkTest, RoutesToGateways) {
  pugi::xml_node created = Call("CreateRouteTable", {{"VpcId", vpc}}).child("routeTable");
  std::string table = created.child_value("routeTableId");
  EXPECT_TRUE(IdShaped(table, "rtb"));
  EXPECT_STREQ(created.child("routeSet").child("item").child_value("gatewayId"), "local");
  EXPECT_STREQ(created.child("routeSet").child("item").child_value("origin"), "CreateRouteTable");

  Call("CreateRoute", {{"RouteTableId", table}, {"DestinationCidrBlock", "0.0.0.0/0"}, {"GatewayId", igw}});
  EXPECT_EQ(Refusal("CreateRoute", {{"RouteTableId", table}, {"DestinationCidrBlock", "0.0.0.0/0"}, {"GatewayId", igw}}),
            "RouteAlreadyExists");
  EXPECT_EQ(Refusal("CreateRoute", {{"RouteTableId", table}, {"DestinationCidrBlock", "10.9.0.0/16"},
                                    {"GatewayId", "igw-0000000000000000a"}}),
            "InvalidGatewayID.NotFound");
  EXPECT_EQ(Refusal("CreateRoute", {{"RouteTableId", table}, {"DestinationCidrBlock", "10.9.0.0/16"},
                                    {"NatGatewayId", "nat-0000000000000000a"}}),
            "InvalidNatGatewayID.NotFound");
  EXPECT_EQ(Refusal("CreateRoute", {{"RouteTableId", "rtb-0000000000000000a"}, {"DestinationCidrBlock", "10.9.0.0/16"},
                                    {"GatewayId", igw}}),
            "InvalidRouteTableID.NotFound");
  EXPECT_EQ(Refusal("CreateRoute", {{"RouteTableId", table}, {"DestinationCidrBlock", "10.9.0.0/16"}}),
            "MissingParameter");

  std::string nat = CreateNat();
  Call("CreateRoute", {{"RouteTableId", table}, {"DestinationCidrBlock", "10.9.0.0/16"}, {"NatGatewayId", nat}});
  Call("ReplaceRoute", {{"RouteTableId", table}, {"DestinationCidrBlock", "0.0.0.0/0"}, {"NatGatewayId", nat}});
  pugi::xml_node routes = Call("DescribeRouteTables", {{"RouteTableId.1", table}})
                              .child("routeTableSet").child("item").child("routeSet");
  ASSERT_EQ(Count(routes), 3u);
  pugi::xml_node replaced;
  for (pugi::xml_node r : routes.children("item")) {
    if (std::string(r.child_value("destinationCidrBlock")) == "0.0.0.0/0") replaced = r;
  }
  EXPECT_EQ(replaced.child_value("natGatewayId"), nat);
  EXPECT_STREQ(replaced.child_value("origin"), "CreateRoute");
  EXPECT_STREQ(replaced.child_value("state"), "active");
  EXPECT_EQ(Count(Call("DescribeRouteTables", {{"Filter.1.Name", "route.nat-gateway-id"}, {"Filter.1.Value.1", nat}})
                      .child("routeTableSet")),
            1u);

  Call("DeleteRoute", {{"RouteTableId", table}, {"DestinationCidrBlock", "10.9.0.0/16"}});
  EXPECT_EQ(Refusal("DeleteRoute", {{"RouteTableId", table}, {"DestinationCidrBlock", "10.9.0.0/16"}}),
            "InvalidRoute.NotFound");
  EXPECT_EQ(Refusal("ReplaceRoute", {{"RouteTableId", table}, {"DestinationCidrBlock", "10.9.0.0/16"}, {"GatewayId", igw}}),
            "InvalidRoute.NotFound");
  EXPECT_EQ(Refusal("DeleteRoute", {{"RouteTableId", table}, {"DestinationCidrBlock", "10.0.0.0/16"}}),
            "InvalidParameterValue");
}

TEST_F(Ec2NetworkTest, RouteTableAssociations) {
  std::string table = Call("CreateRouteTable", {{"VpcId", vpc}}).child("routeTable").child_value("routeTableId");
  pugi::xml_node associated = Call("AssociateRouteTable", {{"RouteTableId", table}, {"SubnetId", subnet}});
  std::string association = associated.child_value("associationId");
  EXPECT_TRUE(IdShaped(association, "rtbassoc"));
  EXPECT_STREQ(associated.child("associationState").child_value("state"), "associated");
  EXPECT_EQ(Refusal("AssociateRouteTable", {{"RouteTableId", table}, {"SubnetId", subnet}}), "Resource.AlreadyAssociated");

  pugi::xml_node item = Call("DescribeRouteTables", {{"Filter.1.Name", "association.subnet-id"},
                                                     {"Filter.1.Value.1", subnet}})
                            .child("routeTableSet").child("item");
  EXPECT_EQ(item.child_value("routeTableId"), table);
  EXPECT_STREQ(item.child("associationSet").child("item").child_value("main"), "false");
  EXPECT_STREQ(item.child("associationSet").child("item").child_value("subnetId"), subnet.c_str());
  EXPECT_EQ(Refusal("DeleteRouteTable", {{"RouteTableId", table}}), "DependencyViolation");

  // Moving the subnet to the main table gives it a new association id.
  std::string main_table = Call("DescribeRouteTables", {{"Filter.1.Name", "association.main"},
                                                        {"Filter.1.Value.1", "true"}})
                               .child("routeTableSet").child("item").child_value("routeTableId");
  std::string moved = Call("ReplaceRouteTableAssociation", {{"AssociationId", association}, {"RouteTableId", main_table}})
                          .child_value("newAssociationId");
  EXPECT_NE(moved, association);
  EXPECT_EQ(Refusal("DisassociateRouteTable", {{"AssociationId", association}}), "InvalidAssociationID.NotFound");
  Call("DisassociateRouteTable", {{"AssociationId", moved}});
  Call("DeleteRouteTable", {{"RouteTableId", table}});
  EXPECT_EQ(Refusal("DeleteRouteTable", {{"RouteTableId", main_table}}), "DependencyViolation");
}

TEST_F(Ec2NetworkTest, RouteTableEdgeAssociationWithTheVpcsGateway) {
  std::string table = Call("CreateRouteTable", {{"VpcId", vpc}}).child("routeTable").child_value("routeTableId");
  EXPECT_EQ(Refusal("AssociateRouteTable", {{"RouteTableId", table}}), "MissingParameter");
  EXPECT_EQ(Refusal("AssociateRouteTable", {{"RouteTableId", table}, {"SubnetId", subnet}, {"GatewayId", igw}}),
            "InvalidParameterCombination");
  std::string detached = Call("CreateInternetGateway").child("internetGateway").child_value("internetGatewayId");
  EXPECT_EQ(Refusal("AssociateRouteTable", {{"RouteTableId", table}, {"GatewayId", detached}}), "InvalidParameterValue");

  std::string association = Call("AssociateRouteTable", {{"RouteTableId", table}, {"GatewayId", igw}}).child_value("associationId");
  EXPECT_TRUE(IdShaped(association, "rtbassoc"));
  EXPECT_EQ(Refusal("AssociateRouteTable", {{"RouteTableId", table}, {"GatewayId", igw}}), "Resource.AlreadyAssociated");
  pugi::xml_node item = Call("DescribeRouteTables", {{"Filter.1.Name", "association.gateway-id"}, {"Filter.1.Value.1", igw}})
                            .child("routeTableSet").child("item");
  EXPECT_EQ(item.child_value("routeTableId"), table);
  EXPECT_STREQ(item.child("associationSet").child("item").child_value("gatewayId"), igw.c_str());
  EXPECT_STREQ(item.child("associationSet").child("item").child_value("subnetId"), "");

  // Moved to the main table, it stays the gateway's.
  std::string main_table = Call("DescribeRouteTables", {{"Filter.1.Name", "association.main"}, {"Filter.1.Value.1", "true"}})
                               .child("routeTableSet").child("item").child_value("routeTableId");
  std::string moved = Call("ReplaceRouteTableAssociation", {{"AssociationId", association}, {"RouteTableId", main_table}})
                          .child_value("newAssociationId");
  EXPECT_EQ(Call("DescribeRouteTables", {{"Filter.1.Name", "association.gateway-id"}, {"Filter.1.Value.1", igw}})
                .child("routeTableSet").child("item").child_value("routeTableId"),
            main_table);
  Call("DisassociateRouteTable", {{"AssociationId", moved}});
  Call("DeleteRouteTable", {{"RouteTableId", table}});
  Call("DeleteInternetGateway", {{"InternetGatewayId", detached}});
}

// ---- Security groups ------------------------------------------------------------------

TEST_F(Ec2NetworkTest, SecurityGroupShapeAndDefaultEgress) {
  pugi::xml_node created = Call("CreateSecurityGroup", {{"VpcId", vpc}, {"GroupName", "web"},
                                                        {"GroupDescription", "Web servers"}});
  std::string id = created.child_value("groupId");
  EXPECT_TRUE(IdShaped(id, "sg"));
  EXPECT_STREQ(created.child_value("return"), "true");
  EXPECT_EQ(Refusal("CreateSecurityGroup", {{"VpcId", vpc}, {"GroupName", "web"}, {"GroupDescription", "again"}}),
            "InvalidGroup.Duplicate");
  EXPECT_EQ(Refusal("CreateSecurityGroup", {{"VpcId", vpc}, {"GroupName", "db"}}), "MissingParameter");

  pugi::xml_node group = Call("DescribeSecurityGroups", {{"Filter.1.Name", "group-name"}, {"Filter.1.Value.1", "web"}})
                             .child("securityGroupInfo").child("item");
  EXPECT_EQ(group.child_value("groupId"), id);
  EXPECT_STREQ(group.child_value("groupDescription"), "Web servers");
  EXPECT_STREQ(group.child_value("vpcId"), vpc.c_str());
  EXPECT_EQ(Count(group.child("ipPermissions")), 0u);
  pugi::xml_node egress = group.child("ipPermissionsEgress").child("item");
  EXPECT_STREQ(egress.child_value("ipProtocol"), "-1");
  EXPECT_FALSE(egress.child("fromPort"));
  EXPECT_STREQ(egress.child("ipRanges").child("item").child_value("cidrIp"), "0.0.0.0/0");
  EXPECT_EQ(Refusal("DescribeSecurityGroups", {{"GroupId.1", "sg-0000000000000000a"}}), "InvalidGroup.NotFound");
}

TEST_F(Ec2NetworkTest, IngressRulesAuthorizeRevokeAndDescribe) {
  std::string web = Call("CreateSecurityGroup", {{"VpcId", vpc}, {"GroupName", "web"}, {"GroupDescription", "w"}})
                        .child_value("groupId");
  std::string lb = Call("CreateSecurityGroup", {{"VpcId", vpc}, {"GroupName", "lb"}, {"GroupDescription", "l"}})
                       .child_value("groupId");
  Params ssh{{"GroupId", web}, {"IpPermissions.1.IpProtocol", "tcp"}, {"IpPermissions.1.FromPort", "22"},
             {"IpPermissions.1.ToPort", "22"}, {"IpPermissions.1.IpRanges.1.CidrIp", "10.0.0.0/8"},
             {"IpPermissions.1.IpRanges.1.Description", "office"}};
  pugi::xml_node authorized = Call("AuthorizeSecurityGroupIngress", ssh);
  EXPECT_STREQ(authorized.child_value("return"), "true");
  pugi::xml_node rule = authorized.child("securityGroupRuleSet").child("item");
  std::string rule_id = rule.child_value("securityGroupRuleId");
  EXPECT_TRUE(IdShaped(rule_id, "sgr"));
  EXPECT_STREQ(rule.child_value("cidrIpv4"), "10.0.0.0/8");
  EXPECT_STREQ(rule.child_value("isEgress"), "false");
  EXPECT_STREQ(rule.child_value("fromPort"), "22");
  EXPECT_EQ(Refusal("AuthorizeSecurityGroupIngress", ssh), "InvalidPermission.Duplicate");

  Call("AuthorizeSecurityGroupIngress", {{"GroupId", web}, {"IpPermissions.1.IpProtocol", "tcp"},
                                         {"IpPermissions.1.FromPort", "80"}, {"IpPermissions.1.ToPort", "80"},
                                         {"IpPermissions.1.Groups.1.GroupId", lb}});
  pugi::xml_node permissions = Call("DescribeSecurityGroups", {{"GroupId.1", web}})
                                   .child("securityGroupInfo").child("item").child("ipPermissions");
  ASSERT_EQ(Count(permissions), 2u);
  pugi::xml_node first = permissions.child("item");
  EXPECT_STREQ(first.child_value("ipProtocol"), "tcp");
  EXPECT_STREQ(first.child_value("toPort"), "22");
  EXPECT_STREQ(first.child("ipRanges").child("item").child_value("description"), "office");
  pugi::xml_node pair = first.next_sibling("item").child("groups").child("item");
  EXPECT_EQ(pair.child_value("groupId"), lb);
  EXPECT_STREQ(pair.child_value("userId"), "111122223333");

  EXPECT_EQ(Count(Call("DescribeSecurityGroupRules", {{"Filter.1.Name", "group-id"}, {"Filter.1.Value.1", web}})
                      .child("securityGroupRuleSet")),
            3u);  // two ingress, the default egress
  EXPECT_EQ(Refusal("DeleteSecurityGroup", {{"GroupId", lb}}), "DependencyViolation");

  Call("RevokeSecurityGroupIngress", ssh);
  EXPECT_EQ(Refusal("RevokeSecurityGroupIngress", ssh), "InvalidPermission.NotFound");
  EXPECT_EQ(Refusal("DescribeSecurityGroupRules", {{"SecurityGroupRuleId.1", rule_id}}),
            "InvalidSecurityGroupRuleId.NotFound");
  Call("DeleteSecurityGroup", {{"GroupId", web}});
  Call("DeleteSecurityGroup", {{"GroupId", lb}});
}

TEST_F(Ec2NetworkTest, RuleValidationAndEgress) {
  std::string sg = Call("CreateSecurityGroup", {{"VpcId", vpc}, {"GroupName", "x"}, {"GroupDescription", "x"}})
                       .child_value("groupId");
  EXPECT_EQ(Refusal("AuthorizeSecurityGroupIngress", {{"GroupId", sg}, {"IpPermissions.1.IpProtocol", "tcp"},
                                                      {"IpPermissions.1.IpRanges.1.CidrIp", "0.0.0.0/0"}}),
            "InvalidParameterValue");
  EXPECT_EQ(Refusal("AuthorizeSecurityGroupIngress", {{"GroupId", sg}, {"IpPermissions.1.IpProtocol", "tcp"},
                                                      {"IpPermissions.1.FromPort", "1"}, {"IpPermissions.1.ToPort", "2"},
                                                      {"IpPermissions.1.Groups.1.GroupId", "sg-0000000000000000a"}}),
            "InvalidGroup.NotFound");
  // The default egress rule exists already; revoke it, then add it back.
  Params all_out{{"GroupId", sg}, {"IpPermissions.1.IpProtocol", "-1"}, {"IpPermissions.1.IpRanges.1.CidrIp", "0.0.0.0/0"}};
  EXPECT_EQ(Refusal("AuthorizeSecurityGroupEgress", all_out), "InvalidPermission.Duplicate");
  Call("RevokeSecurityGroupEgress", all_out);
  EXPECT_STREQ(Call("AuthorizeSecurityGroupEgress", all_out).child("securityGroupRuleSet").child("item")
                   .child_value("isEgress"),
               "true");
  std::string default_group = Call("DescribeSecurityGroups", {{"Filter.1.Name", "group-name"},
                                                              {"Filter.1.Value.1", "default"}})
                                  .child("securityGroupInfo").child("item").child_value("groupId");
  EXPECT_EQ(Refusal("DeleteSecurityGroup", {{"GroupId", default_group}}), "CannotDelete");
}

// What a launch template version looks like on the wire, what ClientToken repeats, and
// how versions are chosen.
TEST_F(Ec2Test, LaunchTemplateVersionsAndTheirShape) {
  Params data = {{"LaunchTemplateName", "gpu"},
                 {"ClientToken", "tok-1"},
                 {"VersionDescription", "first"},
                 {"LaunchTemplateData.InstanceType", "g5.xlarge"},
                 {"LaunchTemplateData.UserData", "ZWNobyBoaQo="},
                 {"LaunchTemplateData.SecurityGroupId.1", "sg-1"},
                 {"LaunchTemplateData.BlockDeviceMapping.1.DeviceName", "/dev/xvda"},
                 {"LaunchTemplateData.BlockDeviceMapping.1.Ebs.VolumeSize", "100"},
                 {"LaunchTemplateData.BlockDeviceMapping.1.Ebs.VolumeType", "gp3"},
                 {"LaunchTemplateData.BlockDeviceMapping.1.Ebs.Encrypted", "true"},
                 {"LaunchTemplateData.MetadataOptions.HttpTokens", "required"},
                 {"LaunchTemplateData.TagSpecification.1.ResourceType", "instance"},
                 {"LaunchTemplateData.TagSpecification.1.Tag.1.Key", "Name"},
                 {"LaunchTemplateData.TagSpecification.1.Tag.1.Value", "node"},
                 {"TagSpecification.1.ResourceType", "launch-template"},
                 {"TagSpecification.1.Tag.1.Key", "Team"},
                 {"TagSpecification.1.Tag.1.Value", "ml"}};
  pugi::xml_node lt = Call("CreateLaunchTemplate", data).child("launchTemplate");
  std::string id = lt.child_value("launchTemplateId");
  EXPECT_TRUE(IdShaped(id, "lt")) << id;
  EXPECT_STREQ(lt.child_value("defaultVersionNumber"), "1");
  EXPECT_STREQ(lt.child_value("latestVersionNumber"), "1");
  EXPECT_STREQ(lt.child_value("createdBy"), "arn:aws:iam::111122223333:root");
  EXPECT_STREQ(lt.child("tagSet").child("item").child_value("value"), "ml");
  // The same token and request: the same template; the same token, another request: refused.
  EXPECT_EQ(Call("CreateLaunchTemplate", data).child("launchTemplate").child_value("launchTemplateId"), id);
  data[2].second = "changed";
  EXPECT_EQ(Refusal("CreateLaunchTemplate", data), "IdempotentParameterMismatch");
  EXPECT_EQ(Refusal("CreateLaunchTemplate", {{"LaunchTemplateName", "gpu"}, {"LaunchTemplateData.KeyName", "k"}}),
            "InvalidLaunchTemplateName.AlreadyExistsException");
  EXPECT_EQ(Refusal("CreateLaunchTemplate", {{"LaunchTemplateName", "empty"}}), "MissingParameter");
  EXPECT_EQ(Refusal("CreateLaunchTemplate", {{"LaunchTemplateName", "tagged"}, {"LaunchTemplateData.KeyName", "k"},
                                             {"LaunchTemplateData.TagSpecification.1.ResourceType", "vpc"}}),
            "InvalidParameterValue");
  EXPECT_EQ(Refusal("CreateLaunchTemplate", {{"LaunchTemplateName", "gp2-throughput"}, {"LaunchTemplateData.BlockDeviceMapping.1.DeviceName", "/dev/sdb"},
                                             {"LaunchTemplateData.BlockDeviceMapping.1.Ebs.Throughput", "500"}}),
            "InvalidParameterCombination");

  pugi::xml_node v1 = Call("DescribeLaunchTemplateVersions", {{"LaunchTemplateId", id}, {"LaunchTemplateVersion.1", "1"}})
                          .child("launchTemplateVersionSet")
                          .child("item");
  EXPECT_STREQ(v1.child_value("versionDescription"), "first");
  EXPECT_STREQ(v1.child_value("defaultVersion"), "true");
  pugi::xml_node d = v1.child("launchTemplateData");
  EXPECT_STREQ(d.child_value("userData"), "ZWNobyBoaQo=");
  EXPECT_STREQ(d.child("securityGroupIdSet").child_value("item"), "sg-1");
  pugi::xml_node ebs = d.child("blockDeviceMappingSet").child("item").child("ebs");
  EXPECT_STREQ(ebs.child_value("volumeSize"), "100");
  EXPECT_STREQ(ebs.child_value("encrypted"), "true");
  EXPECT_STREQ(d.child("metadataOptions").child_value("httpTokens"), "required");
  pugi::xml_node spec = d.child("tagSpecificationSet").child("item");
  EXPECT_STREQ(spec.child_value("resourceType"), "instance");
  EXPECT_STREQ(spec.child("tagSet").child("item").child_value("key"), "Name");

  // A version from the source: the members given replace the source's, the rest is kept.
  Params next = {{"LaunchTemplateName", "gpu"}, {"SourceVersion", "1"}, {"ClientToken", "v2"},
                 {"LaunchTemplateData.InstanceType", "g5.2xlarge"}};
  pugi::xml_node v2 = Call("CreateLaunchTemplateVersion", next).child("launchTemplateVersion");
  EXPECT_STREQ(v2.child_value("versionNumber"), "2");
  EXPECT_STREQ(v2.child_value("defaultVersion"), "false");
  EXPECT_STREQ(v2.child("launchTemplateData").child_value("instanceType"), "g5.2xlarge");
  EXPECT_STREQ(v2.child("launchTemplateData").child("blockDeviceMappingSet").child("item").child_value("deviceName"),
               "/dev/xvda");
  EXPECT_STREQ(Call("CreateLaunchTemplateVersion", next).child("launchTemplateVersion").child_value("versionNumber"), "2");
  Call("CreateLaunchTemplateVersion", {{"LaunchTemplateId", id}, {"LaunchTemplateData.InstanceType", "g5.4xlarge"}});
  EXPECT_EQ(Count(Call("DescribeLaunchTemplateVersions", {{"LaunchTemplateId", id}, {"MinVersion", "2"}})
                      .child("launchTemplateVersionSet")),
            2u);
  EXPECT_EQ(Count(Call("DescribeLaunchTemplateVersions", {{"LaunchTemplateId", id}, {"MaxVersion", "1"}})
                      .child("launchTemplateVersionSet")),
            1u);
  EXPECT_STREQ(Call("ModifyLaunchTemplate", {{"LaunchTemplateId", id}, {"SetDefaultVersion", "2"}})
                   .child("launchTemplate")
                   .child_value("defaultVersionNumber"),
               "2");
  pugi::xml_node defaults = Call("DescribeLaunchTemplateVersions", {{"LaunchTemplateVersion.1", "$Default"}})
                                .child("launchTemplateVersionSet");
  EXPECT_EQ(Count(defaults), 1u);
  EXPECT_STREQ(defaults.child("item").child_value("versionNumber"), "2");
  EXPECT_EQ(Refusal("DescribeLaunchTemplateVersions", {{"LaunchTemplateVersion.1", "1"}}), "InvalidParameterValue");
  EXPECT_EQ(Refusal("ModifyLaunchTemplate", {{"LaunchTemplateId", id}, {"SetDefaultVersion", "$Nope"}}),
            "InvalidParameterValue");

  // Ids: malformed, unknown, in another region.
  EXPECT_EQ(Refusal("DescribeLaunchTemplates", {{"LaunchTemplateId.1", "lt-1"}}), "InvalidLaunchTemplateId.Malformed");
  EXPECT_EQ(Refusal("DeleteLaunchTemplate", {{"LaunchTemplateId", "lt-0123456789abcdef0"}}),
            "InvalidLaunchTemplateId.NotFound");
  EXPECT_EQ(Refusal("DeleteLaunchTemplate", {{"LaunchTemplateName", "nope"}}), "InvalidLaunchTemplateName.NotFoundException");
  EXPECT_EQ(Count(Call("DescribeLaunchTemplates", {}, "us-west-2").child("launchTemplates")), 0u);
  EXPECT_EQ(Count(Call("DescribeTags", {{"Filter.1.Name", "resource-type"}, {"Filter.1.Value.1", "launch-template"}})
                      .child("tagSet")),
            1u);
  Call("DeleteLaunchTemplate", {{"LaunchTemplateName", "gpu"}});
  EXPECT_EQ(Count(Call("DescribeLaunchTemplates", {}).child("launchTemplates")), 0u);
}

}  // namespace
}  // namespace strata::sandbox
