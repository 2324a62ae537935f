#pragma once
// The EC2 objects the sandbox keeps in its world: one JSON document per object, with "id",
// "region" (objects are seen only from their region) and "tags"; the kinds' id prefixes,
// ARN resource types and the error AWS gives for an id it does not know.

#include <optional>
#include <string>
#include <vector>

#include "sandbox/services/ec2/ec2_request.h"

namespace strata::sandbox {

//! One kind of EC2 object.
struct Ec2Kind {
  std::string store;          //!< the world's kind: "ec2.vpc"
  std::string id_prefix;      //!< "vpc" (ids "vpc-0123...")
  std::string resource_type;  //!< ARN and TagSpecification resource type: "vpc", "natgateway"
  std::string not_found_code;     //!< "InvalidVpcID.NotFound"
  std::string not_found_message;  //!< with "{}" where the id goes
};

extern const Ec2Kind kVpcKind;
extern const Ec2Kind kSubnetKind;
extern const Ec2Kind kInternetGatewayKind;
extern const Ec2Kind kAddressKind;
extern const Ec2Kind kNatGatewayKind;
extern const Ec2Kind kRouteTableKind;
extern const Ec2Kind kSecurityGroupKind;
extern const Ec2Kind kSecurityGroupRuleKind;
extern const Ec2Kind kLaunchTemplateKind;

//! Every kind, in a fixed order.
const std::vector<const Ec2Kind*>& AllEc2Kinds();
//! The kind an id's prefix names ("subnet-..." → subnets), or null.
const Ec2Kind* KindOfId(const std::string& id);

//! 400 <kind's NotFound code> naming `id`.
ApiError NotFound(const Ec2Kind& kind, const std::string& id);

//! A new object of `kind` in the call's region: {"id", "region", "tags": {}}; not yet saved.
Json NewObject(const Ec2Call& call, const Ec2Kind& kind);
//! The object in the call's region, or nullopt.
std::optional<Json> Find(const Ec2Call& call, const Ec2Kind& kind, const std::string& id);
//! The object in the call's region; throws the kind's NotFound.
Json Require(const Ec2Call& call, const Ec2Kind& kind, const std::string& id);
//! The call's region's objects of `kind`, oldest first.
std::vector<Json> ListIn(const Ec2Call& call, const Ec2Kind& kind);
void Save(const Ec2Call& call, const Ec2Kind& kind, const Json& object);
void Remove(const Ec2Call& call, const Ec2Kind& kind, const std::string& id);

//! arn:aws:ec2:<region>:<account>:<resource type>/<id>.
std::string Ec2Arn(const Ec2Call& call, const Ec2Kind& kind, const std::string& id);

}  // namespace strata::sandbox
