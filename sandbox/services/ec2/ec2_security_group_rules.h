#pragma once
// Security group rules: one stored object per rule ("sgr-..." ids, as
// DescribeSecurityGroupRules shows them) with its group, direction, protocol, ports and one
// peer (cidrIpv4, cidrIpv6, prefixListId or referencedGroupId). DescribeSecurityGroups shows
// them folded into ipPermissions, the older shape.

#include <string>
#include <vector>

#include <pugixml.hpp>

#include "sandbox/services/ec2/ec2_actions.h"
#include "sandbox/services/ec2/ec2_store.h"

namespace strata::sandbox {

//! A rule of `group_id` allowing all traffic to/from `peer_kind` = `peer`; not saved.
Json AllTrafficRule(const Ec2Call& call, const std::string& group_id, bool egress, const std::string& peer_kind,
                    const std::string& peer);
//! The group's rules, oldest first.
std::vector<Json> RulesOf(const Ec2Call& call, const std::string& group_id);
//! Appends <element> (ipPermissions / ipPermissionsEgress) with the rules grouped by
//! protocol and port range.
void WritePermissions(const Ec2Call& call, pugi::xml_node parent, const char* element, const std::vector<Json>& rules);

//! Authorize/RevokeSecurityGroupIngress/Egress, DescribeSecurityGroupRules,
//! UpdateSecurityGroupRuleDescriptionsIngress/Egress.
void AddSecurityGroupRuleActions(Ec2Actions& actions);

}  // namespace strata::sandbox
