#pragma once
// The EC2 actions the sandbox serves, registered by each object kind's file into one table
// the service dispatches on "Action".

#include <map>
#include <string>

#include <pugixml.hpp>

#include "sandbox/services/ec2/ec2_request.h"

namespace strata::sandbox {

//! Answers one action by appending its result elements to the <ActionResponse> root (which
//! already holds <requestId>); throws ApiError to refuse.
using Ec2Handler = void (*)(Ec2Call& call, pugi::xml_node response);
using Ec2Actions = std::map<std::string, Ec2Handler>;

void AddAvailabilityZoneActions(Ec2Actions& actions);
void AddVpcActions(Ec2Actions& actions);
void AddSubnetActions(Ec2Actions& actions);
void AddTagActions(Ec2Actions& actions);
void AddInternetGatewayActions(Ec2Actions& actions);
void AddAddressActions(Ec2Actions& actions);
void AddNatGatewayActions(Ec2Actions& actions);
void AddRouteTableActions(Ec2Actions& actions);
void AddSecurityGroupActions(Ec2Actions& actions);
void AddLaunchTemplateActions(Ec2Actions& actions);
void AddImageActions(Ec2Actions& actions);

}  // namespace strata::sandbox
